"""One frozen rules configuration holding every table option, and named presets.

Every variant is a field with the standard game's value as default, so ``Rules()`` is the
four-handed game of docs/rules.md. Each field declares, once, what a player is told about it
(label, help, the words for each value) and what it accepts (choices or a range, the player
counts it exists for); :meth:`Rules.options` reads that back as :class:`Option` records, and
the command line, the browser form and the terminal's rule words are all generated from them,
as OpenSpiel's games declare their parameters with defaults and descriptions. Impossible
combinations are refused when the object is built, with a message naming the conflict, so no
code downstream has to re-check them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal, get_args, get_origin, get_type_hints

from euchre.errors import RulesError, quote

FarmersHand = Literal["off", "redeal", "swap"]
Renege = Literal["prevent", "penalize"]
FirstDealer = Literal["random", "black_jack"]
AloneTiming = Literal["with_bid", "after_discard"]
RenegePenalty = Literal["points", "deduct", "tricks"]
OptionKind = Literal["bool", "int", "choice", "group"]

MAX_TARGET = 1000
"""The highest target a match may have: games run to 5-11, and a bound keeps every record of a
finished game within the record limits of :mod:`euchre.record`."""
MAX_POINTS = 100
"""The most a scoring value may be worth."""
PLAYER_COUNTS = (4, 3, 2)
"""The player counts the engine deals for: partnership, cutthroat and two-handed euchre."""


def going_alone_default(players: int) -> bool:
    """Whether going alone is allowed when no one said: yes with four players, no with two or
    three, where the maker already plays alone (docs/rules.md, cutthroat and two-handed). Every
    place that fills in ``going_alone`` for a player count asks this."""
    return players == 4


def _is_int(v: object) -> bool:
    """A real integer: JSON ``true`` and ``4.0`` are not (``4.0 in (2, 3, 4)`` is true, and a
    float count breaks the deal much later, far from the option that caused it)."""
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True, slots=True)
class Option:
    """What one rules field is and accepts, for every front end that offers it.

    ``kind`` is ``bool`` (on/off), ``choice`` (one of ``choices``), ``int`` (a whole number
    ``min``..``max``) or ``group`` (``fields``, themselves options: the scoring table).
    ``words`` names each choice in a player's words, in the order of ``choices`` (a bool's
    choices are ``(True, False)``); ``unit`` follows an int's value. ``players`` is the player
    counts the option exists for: elsewhere it keeps :meth:`default_for` that count."""

    name: str
    label: str
    help: str
    kind: OptionKind
    default: Any
    choices: tuple[Any, ...] = ()
    words: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    unit: str = ""
    players: tuple[int, ...] = PLAYER_COUNTS
    fields: tuple[Option, ...] = ()

    def default_for(self, players: int) -> Any:
        """The value a game of ``players`` gets when nobody sets this option."""
        if self.name == "going_alone":
            return going_alone_default(players)
        return self.default

    def describe(self, value: Any) -> str:
        """``value`` in a player's words: ``Canadian loner``, ``10 points``."""
        if self.kind == "group":
            return ", ".join(f"{f.label.lower()} {getattr(value, f.name)}" for f in self.fields)
        for choice, words in zip(self.choices, self.words, strict=True):
            # the type first: True == 1, so a bool must not match an int choice
            if type(choice) is type(value) and choice == value:
                return words
        return f"{value} {self.unit}".strip()

    def allowed(self) -> str:
        """What the option accepts, as an error message says it: ``2, 3 or 4``, ``1..1000``."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return f"{self.min}..{self.max}"
        if self.kind == "group":
            return ", ".join(f.name for f in self.fields)
        numbers = all(_is_int(c) for c in self.choices)
        shown = [str(c) for c in (sorted(self.choices) if numbers else self.choices)]
        return f"{', '.join(shown[:-1])} or {shown[-1]}"

    def check(self, value: object, prefix: str = "") -> None:
        """Raise RulesError unless ``value`` is one this option accepts."""
        name = prefix + self.name
        if self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "int":
            assert self.min is not None and self.max is not None
            ok = (isinstance(value, int) and not isinstance(value, bool)
                  and self.min <= value <= self.max)
            if not ok:
                sign = "positive" if self.min == 1 else "non-negative"
                raise RulesError(f"{name} must be a {sign} integer ({self.allowed()}), "
                                 f"not {quote(value)}")
        elif self.kind == "choice":
            # the type first: a hostile object's __eq__ is never called, and 4.0 is no count
            ok = any(type(value) is type(c) and value == c for c in self.choices)
        else:
            return
        if not ok:
            raise RulesError(f"{name} must be {self.allowed()}, not {quote(value)}")

    def to_json(self) -> dict[str, Any]:
        """The option as JSON for the browser form: every field above, the default as a game
        of each player count gets it (``default_for``), a group's fields nested."""
        out: dict[str, Any] = {"name": self.name, "label": self.label, "help": self.help,
                               "kind": self.kind, "players": list(self.players)}
        if self.kind == "group":
            out.update(default=asdict(self.default), fields=[f.to_json() for f in self.fields])
            return out
        out.update(default=self.default_for(PLAYER_COUNTS[0]),
                   default_for={str(n): self.default_for(n) for n in PLAYER_COUNTS})
        if self.kind == "int":
            out.update(min=self.min, max=self.max, unit=self.unit)
        else:
            out.update(choices=list(self.choices), words=list(self.words))
        return out


def _about(label: str, help: str, *, words: dict[Any, str] | None = None,
           choices: tuple[Any, ...] = (), min: int | None = None, max: int | None = None,
           unit: str = "", players: tuple[int, ...] = PLAYER_COUNTS) -> dict[str, Any]:
    """A field's ``metadata``: its :class:`Option` declaration. The kind and default come from
    the field itself, and so do the choices of a ``Literal``."""
    return {"option": {"label": label, "help": help, "words": words or {}, "choices": choices,
                       "min": min, "max": max, "unit": unit, "players": players}}


def _points(label: str, help: str) -> dict[str, Any]:
    """A scoring value's declaration: a whole number of points 0..MAX_POINTS."""
    return _about(label, help, min=0, max=MAX_POINTS, unit="points")


_OPTIONS: dict[type, tuple[Option, ...]] = {}


def _options_of(cls: type) -> tuple[Option, ...]:
    """The :class:`Option` records of a dataclass whose fields were declared with
    :func:`_about` (built once: every Rules built checks its values against them)."""
    if cls in _OPTIONS:
        return _OPTIONS[cls]
    hints = get_type_hints(cls)
    out = []
    for f in fields(cls):
        t, spec, default = hints[f.name], f.metadata["option"], f.default
        if isinstance(default, Scoring):
            out.append(Option(f.name, spec["label"], spec["help"], "group", default,
                              fields=Scoring.options()))
            continue
        choices: tuple[Any, ...] = spec["choices"]
        kind: OptionKind = "choice"
        if get_origin(t) is Literal:
            choices = get_args(t)
        elif t is int and not choices:
            kind = "int"
        elif t is not int:
            kind, choices = "bool", (True, False)
        words = tuple(spec["words"][c] for c in choices) if spec["words"] else ()
        out.append(Option(f.name, spec["label"], spec["help"], kind, default, choices, words,
                          spec["min"], spec["max"], spec["unit"], spec["players"]))
    return _OPTIONS.setdefault(cls, tuple(out))


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points per result; the defaults are the usual table of docs/rules.md."""

    make: int = field(default=1, metadata=_points(
        "Make", "The makers, alone or not, take three or four tricks"))
    march: int = field(default=2, metadata=_points(
        "March", "The makers, with a partner, take all five tricks"))
    lone_march: int = field(default=4, metadata=_points(
        "Lone march", "A maker playing alone takes all five tricks"))
    euchre: int = field(default=2, metadata=_points(
        "Euchre", "The makers take fewer than three tricks: the defenders score this (each "
        "of them, with three players)"))
    euchre_lone_defender: int = field(default=4, metadata=_points(
        "Euchre lone defender", "The makers are euchred by a defender playing alone (with "
        "the defend-alone option)"))
    renege: int = field(default=2, metadata=_points(
        "Renege", "A proven renege: the other side scores this"))
    renege_lone: int = field(default=4, metadata=_points(
        "Renege lone", "A proven renege by the defenders of a lone hand that then failed to "
        "take all five tricks: the renege defeated a lone hand"))

    def __post_init__(self) -> None:
        for o in Scoring.options():
            o.check(getattr(self, o.name), prefix="scoring.")

    @classmethod
    def options(cls) -> tuple[Option, ...]:
        """Every scoring value as an :class:`Option` (a whole number 0..MAX_POINTS)."""
        return _options_of(cls)


_FOUR = (4,)
"""The option exists for partnership (four-handed) euchre only."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every table rule; the options and what each does are listed below (generated from the
    fields' declarations, which :meth:`options` returns)."""

    players: int = field(default=4, metadata=_about(
        "Players", "4: two partnerships; 3: cutthroat, each for themself; 2: two-handed",
        choices=PLAYER_COUNTS,
        words={4: "four players", 3: "three players (cutthroat)", 2: "two players"}))
    deck: int = field(default=24, metadata=_about(
        "Deck", "24: the 9s to the aces; 25 adds the Joker (the Benny) as the highest trump; "
        "32 adds the 7s and 8s", choices=(24, 25, 32),
        words={24: "24 cards", 25: "Joker deck (25 cards)", 32: "32 cards (7s and 8s)"}))
    target: int = field(default=10, metadata=_about(
        "Points to win", "The first side to reach this many points wins; passing it counts "
        "(5, 7, 10 and 11 are usual)", min=1, max=MAX_TARGET, unit="points"))
    stick_the_dealer: bool = field(default=False, metadata=_about(
        "Stick the dealer", "In the second round of bidding the dealer may not pass and must "
        "name a trump suit", words={True: "stick the dealer", False: "dealer may pass"}))
    going_alone: bool | None = field(default=None, metadata=_about(
        "Going alone", "The maker may play without their partner. On by default with four "
        "players; off with two or three, where the maker already plays alone",
        players=_FOUR, words={True: "going alone", False: "no going alone"}))
    defend_alone: bool = field(default=False, metadata=_about(
        "Defend alone", "Against a lone maker one defender may also play alone; euchring the "
        "maker then scores 4 (docs/rules.md)", players=_FOUR,
        words={True: "defend alone", False: "no defending alone"}))
    canadian_loner: bool = field(default=False, metadata=_about(
        "Canadian loner", "In round one the dealer's partner may order up only by going alone",
        players=_FOUR, words={True: "Canadian loner", False: "no Canadian loner"}))
    farmers_hand: FarmersHand = field(default="off", metadata=_about(
        "Farmer's hand", "off; redeal: a hand of only 9s and 10s may call a redeal before "
        "bidding; swap: a hand of three or more 9s and 10s may swap three of them for the "
        "face-down kitty cards",
        words={"off": "no farmer's hand", "redeal": "farmer's hand: redeal",
               "swap": "farmer's hand: swap"}))
    no_ace_no_face: bool = field(default=False, metadata=_about(
        "No ace, no face misdeal", "A hand with no ace, no face card and no trump (of the "
        "up-card's suit) may call a misdeal before bidding",
        words={True: "no-ace-no-face misdeal", False: "no misdeal call"}))
    renege: Renege = field(default="prevent", metadata=_about(
        "Renege", "prevent: a card that does not follow suit is refused, as in online play; "
        "penalize: it may be played, and the other side may claim the renege before the hand "
        "is scored", words={"prevent": "reneges prevented", "penalize": "reneges penalized"}))
    renege_fix: bool = field(default=False, metadata=_about(
        "A renege may be taken back", "With renege 'penalize': a player who failed to follow "
        "suit may take the card back and play a legal one before the trick is turned and "
        "quitted (docs/rules.md says who else may take a card back)",
        words={True: "reneges may be fixed in time", False: "no taking back a renege"}))
    renege_penalty: RenegePenalty = field(default="points", metadata=_about(
        "Renege penalty", "What a proven renege costs. points: the other side scores the "
        "scoring table's renege value (renege lone if it defeated a lone hand); deduct: the "
        "offending side loses those points instead, even below zero; tricks: the offending "
        "side gives two of its tricks (all it took, if fewer) to the other side and the hand "
        "is scored on that",
        words={"points": "a renege pays the other side",
               "deduct": "a renege costs the offenders points",
               "tricks": "a renege costs two tricks"}))
    misdeal_passes: bool = field(default=False, metadata=_about(
        "Misdeal passes the deal", "After a misdeal (a farmer's-hand redeal or a "
        "no-ace-no-face call) the deal passes left instead of the same dealer dealing again",
        words={True: "a misdeal passes the deal", False: "a misdeal is redealt"}))
    rows: bool = field(default=False, metadata=_about(
        "Two-handed with rows", "Two players, each with four cards face down in a row, four "
        "face up on them and four in hand, playing from the hand or the face-up cards (a "
        "face-down card turns up when the card on it is played); bid 7 to 12 of the twelve "
        "tricks, the higher bidder names trump. The two-handed-rows preset",
        players=(2,), words={True: "with rows", False: "no rows"}))
    rows_euchre: bool = field(default=False, metadata=_about(
        "Missed rows bid is euchred", "With rows: a maker who takes fewer tricks than it bid "
        "is euchred and the other player scores the euchre value. Off, as at the source "
        "(euchre.com), a missed bid just scores nothing (docs/rules.md)", players=(2,),
        words={True: "a missed bid is euchred", False: "a missed bid scores nothing"}))
    first_dealer: FirstDealer = field(default="random", metadata=_about(
        "First dealer", "random; black_jack: cards are dealt face up until a black Jack "
        "appears, and that player deals first",
        words={"random": "first dealer at random", "black_jack": "first dealer by black Jack"}))
    scoring: Scoring = field(default=Scoring(), metadata=_about(
        "Scoring", "Points for each result of a hand"))
    # OpenSpiel compatibility switches (the `openspiel` preset); the defaults are the table game.
    alone_timing: AloneTiming = field(default="with_bid", metadata=_about(
        "When to go alone", "with_bid: going alone is part of the bid ('order alone', 'call H "
        "alone'); after_discard: the maker is asked 'alone or with partner' after the "
        "dealer's discard, as in OpenSpiel", players=_FOUR,
        words={"with_bid": "alone with the bid",
               "after_discard": "alone asked after the discard"}))
    dealer_may_discard_upcard: bool = field(default=True, metadata=_about(
        "Dealer may bury the up-card", "The dealer who picks up the up-card may discard that "
        "same card (OpenSpiel does not allow it)",
        words={True: "dealer may bury the up-card", False: "dealer may not bury the up-card"}))
    defend_alone_vs_partners: bool = field(default=False, metadata=_about(
        "Defend alone against pairs", "With defend alone: the defenders are asked about "
        "defending alone even when the maker plays with a partner, as in OpenSpiel",
        players=_FOUR, words={True: "defend alone against pairs too",
                             False: "defend alone only against loners"}))
    single_hand: bool = field(default=False, metadata=_about(
        "One hand is the whole game", "The match ends after the first scored or thrown-in "
        "hand, as in OpenSpiel", words={True: "one hand only", False: "hands to the target"}))

    def __post_init__(self) -> None:
        def need(cond: object, msg: str) -> None:
            if not cond:
                raise RulesError(msg)

        Rules.option("players").check(self.players)
        if self.going_alone is None:
            object.__setattr__(self, "going_alone", going_alone_default(self.players))
        for o in Rules.options():
            o.check(getattr(self, o.name))
        need(isinstance(self.scoring, Scoring), "scoring must be a Scoring object")
        if self.players != 4:
            who = "two-handed" if self.players == 2 else "cutthroat (three-handed)"
            need(not self.going_alone,
                 f"{who} euchre has no going alone: the maker already plays alone; "
                 "set going_alone=False")
            need(not self.defend_alone, f"{who} euchre has no defending alone")
            need(not self.canadian_loner, f"{who} euchre has no partner, so no Canadian loner")
            need(self.alone_timing == "with_bid", "alone_timing applies to four-handed play only")
            need(not self.defend_alone_vs_partners,
                 "defend_alone_vs_partners applies to four-handed play only")
        if self.defend_alone or self.canadian_loner:
            need(self.going_alone, "defend_alone and canadian_loner need going_alone=True")
        if self.defend_alone_vs_partners:
            need(self.defend_alone, "defend_alone_vs_partners needs defend_alone=True")
        if self.alone_timing == "after_discard":
            need(self.going_alone, "alone_timing='after_discard' needs going_alone=True")
        if self.renege_fix:
            need(self.renege == "penalize",
                 "renege_fix needs renege='penalize' (with 'prevent' a renege cannot be played)")
        if self.renege_penalty != "points":
            need(self.renege == "penalize",
                 "renege_penalty needs renege='penalize' (with 'prevent' there is no renege)")
        if self.misdeal_passes:
            need(self.farmers_hand == "redeal" or self.no_ace_no_face,
                 "misdeal_passes needs a misdeal: farmers_hand='redeal' or no_ace_no_face=True")
        if self.rows_euchre:
            need(self.rows, "rows_euchre applies to two-handed with rows: set rows=True")
        if self.rows:
            need(self.players == 2, "rows is a two-handed game: set players=2")
            need(self.deck == 24, "rows deals the 24-card deck out (12 cards each): deck=24")
            need(self.farmers_hand == "off" and not self.no_ace_no_face,
                 "rows has no up-card or kitty: no farmer's hand and no no-ace-no-face misdeal")
            need(not self.renege_fix,
                 "rows cannot take a card back: a row card played has turned the one under it")
            need(self.dealer_may_discard_upcard, "rows has no up-card to discard")
        if self.deck == 25 and not self.dealer_may_discard_upcard:
            need(False, "a Joker deck needs dealer_may_discard_upcard=True "
                 "(a turned-up Joker is picked up by the dealer like any up-card)")

    @property
    def num_sides(self) -> int:
        """Scoring sides: two partnerships, or each player for 2 and 3 players."""
        return 2 if self.players == 4 else self.players

    def to_dict(self) -> dict[str, Any]:
        """Only the fields that differ from the defaults, so records stay short and readable."""
        base = Rules(players=self.players)
        out: dict[str, Any] = {"players": self.players} if self.players != 4 else {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v != getattr(base, f.name):
                out[f.name] = asdict(v) if isinstance(v, Scoring) else v
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], base: Rules | None = None) -> Rules:
        """Rules from a JSON-style dict of the fields that differ from the defaults (what
        :meth:`to_dict` writes), or from ``base`` when given (a preset the dict changes; a new
        player count re-derives ``going_alone`` as :meth:`replace` does). Any input ends in
        Rules or a one-line RulesError."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, not {quote(data)}")
        kwargs = _known_keys(data, "rules option", [f.name for f in fields(cls)])
        if base is not None:
            # base.to_dict() holds going_alone only where it is not the count's default
            kwargs = {**base.to_dict(), **kwargs}
            if "players" in data and "going_alone" not in data:
                kwargs.pop("going_alone", None)
        if "scoring" in kwargs:
            sc = kwargs["scoring"]
            if not isinstance(sc, dict):
                raise RulesError(f"scoring must be an object of point values, not {quote(sc)}")
            kwargs["scoring"] = Scoring(
                **_known_keys(sc, "scoring field", [f.name for f in fields(Scoring)]))
        return cls(**kwargs)

    def replace(self, **changes: Any) -> Rules:
        """A copy with ``changes``. A new player count re-derives ``going_alone`` when it was
        the old count's default, so ``Rules().replace(players=3)`` is ``Rules(players=3)``."""
        if ("players" in changes and "going_alone" not in changes
                and self.going_alone == going_alone_default(self.players)):
            changes["going_alone"] = None
        return replace(self, **changes)

    def differences(self, base: Rules) -> list[tuple[str, str]]:
        """Each option that differs from ``base`` as ``(name, words)``, in field order, with
        each scoring value on its own (``("scoring", "euchre scores 3")``). ``going_alone`` is
        left out where it only follows a new player count (:func:`going_alone_default`)."""
        out: list[tuple[str, str]] = []
        for o in Rules.options():
            v, b = getattr(self, o.name), getattr(base, o.name)
            if v == b:
                continue
            if o.kind == "group":
                out += [(o.name, f"{g.label.lower()} scores {getattr(v, g.name)}")
                        for g in o.fields if getattr(v, g.name) != getattr(b, g.name)]
            elif (o.name == "going_alone" and self.players != base.players
                  and v == going_alone_default(self.players)):
                continue
            else:
                out.append((o.name, o.describe(v)))
        return out

    @classmethod
    def options(cls) -> tuple[Option, ...]:
        """Every option, in field order, with its label, help, kind, choices or range and
        default: what the command line, the browser form and the terminal offer."""
        return _options_of(cls)

    @classmethod
    def option(cls, name: str) -> Option:
        """The :class:`Option` of the field ``name``."""
        for o in cls.options():
            if o.name == name:
                return o
        raise RulesError(f"unknown rules option {quote(name)}; known: "
                         + ", ".join(o.name for o in cls.options()))


def _option_docs(options: tuple[Option, ...], indent: str = "") -> str:
    """The options as reST definition lists, for ``help(Rules)`` and the API pages."""
    out = []
    for o in options:
        default = ("follows the player count" if o.default is None
                   else "see below" if o.kind == "group" else repr(o.default))
        only = ("" if o.players == PLAYER_COUNTS
                else f"; {' or '.join(map(str, o.players))} players only")
        out.append(f"{indent}``{o.name}`` ({o.label}; {o.allowed()}; default {default}{only})")
        out.append(f"{indent}    {o.help}.")
        if o.fields:  # a nested list: reST wants it set off by blank lines
            out.extend(("", _option_docs(o.fields, indent + "    "), ""))
    return "\n".join(out)


def _known_keys(data: dict[Any, Any], what: str, names: list[str]) -> dict[str, Any]:
    """``data`` as keyword arguments, refusing a key that is not one of ``names``; unknown keys
    are quoted (never echoed raw) and at most three are named."""
    unknown = [k for k in data if not isinstance(k, str) or k not in names]
    if unknown:
        shown = ", ".join(quote(k) for k in unknown[:3]) + (", ..." if len(unknown) > 3 else "")
        raise RulesError(f"unknown {what}(s) {shown}; known: {', '.join(sorted(names))}")
    return dict(data)


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "tournament": Rules(stick_the_dealer=True),
    "two-handed": Rules(players=2),
    "cutthroat": Rules(players=3),
    "joker": Rules(deck=25),
    "two-handed-rows": Rules(players=2, rows=True),
    "openspiel": Rules(
        stick_the_dealer=True,
        alone_timing="after_discard",
        dealer_may_discard_upcard=False,
        single_hand=True,
    ),
}
"""Named rule sets. ``openspiel`` reproduces OpenSpiel 2.0.2's euchre (stick the dealer on, the
alone decision after the discard, no burying the up-card, one hand per game); add
``defend_alone=True, defend_alone_vs_partners=True`` for its ``allow_lone_defender=true``."""


def preset(name: str) -> Rules:
    if not isinstance(name, str) or name not in PRESETS:
        raise RulesError(f"unknown preset {quote(name)}; choose one of: {', '.join(PRESETS)}")
    return PRESETS[name]


def _preset_differences(rules: Rules, base: Rules) -> list[str]:
    """Words for every option (the target aside: it is named on its own) that differs."""
    return [words for name, words in rules.differences(base) if name != "target"]


def nearest_preset(rules: Rules) -> tuple[str, list[str]]:
    """The preset with the fewest differences (earlier presets win ties) and the differences,
    in words. Worked out from the rules themselves, never from how a game was started, so a
    name and the game it names can never disagree."""
    best: tuple[str, list[str]] | None = None
    for name, base in PRESETS.items():
        diffs = _preset_differences(rules, base)
        if best is None or len(diffs) < len(best[1]):
            best = (name, diffs)
    assert best is not None
    return best


def rules_titles(rules: Rules) -> list[str]:
    """Ways to name the rules, longest first: ``standard + defend alone, Canadian loner``,
    ``standard + 2 changes (help rules)``, ``standard + 2 changes``, ``standard+2``."""
    name, diffs = nearest_preset(rules)
    if not diffs:
        return [name]
    k = len(diffs)
    many = f"{name} + {k} change{'s' if k != 1 else ''}"
    return [f"{name} + {', '.join(diffs)}", f"{many} (help rules)", many, f"{name}+{k}"]


def rules_summary(rules: Rules) -> list[str]:
    """The rules in a few words each, for a player choosing or sitting at a table: the
    nearest preset with what sets it apart from the standard game, the target, then every
    change from the preset (``["tournament: stick the dealer", "to 10 points", "Canadian
    loner"]``)."""
    name, diffs = nearest_preset(rules)
    own = _preset_differences(PRESETS[name], PRESETS["standard"])
    head = f"{name}: {', '.join(own)}" if own else name
    return [head, f"to {Rules.option('target').describe(rules.target)}", *diffs]


Rules.__doc__ = f"{Rules.__doc__}\n\n    Options:\n\n{_option_docs(Rules.options(), '    ')}\n"
