"""One frozen rules configuration holding every option the seeds name, and named presets.

Every variant is a field with the standard game's value as default, so ``Rules()`` is the
four-handed game of ``RULES-NOTES.md``. Impossible combinations are refused when the object is
built, with a message naming the conflict, so no code downstream has to re-check them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from euchre.errors import RulesError, quote

FarmersHand = Literal["off", "redeal", "swap"]
Renege = Literal["prevent", "penalize"]
FirstDealer = Literal["random", "black_jack"]
AloneTiming = Literal["with_bid", "after_discard"]
RenegePenalty = Literal["points", "deduct", "tricks"]


MAX_TARGET = 1000
"""The highest target a match may have: games run to 5-11, and a bound keeps every record of a
finished game within the record limits of :mod:`euchre.record`."""
MAX_POINTS = 100
"""The most a scoring value may be worth."""


def _is_int(v: object) -> bool:
    """A real integer: JSON ``true`` and ``4.0`` are not (``4.0 in (2, 3, 4)`` is true, and a
    float count breaks the deal much later, far from the option that caused it)."""
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points per result. Defaults are the seeds' table (000, 003)."""

    make: int = 1
    """Makers (alone or not) take 3 or 4 tricks."""
    march: int = 2
    """Makers with partner take all five."""
    lone_march: int = 4
    """A lone maker takes all five."""
    euchre: int = 2
    """Makers take fewer than three: each defending side scores this."""
    euchre_lone_defender: int = 4
    """Makers euchred by a defender playing alone (the defend-alone variant)."""
    renege: int = 2
    """A proven renege: the other side scores this."""
    renege_lone: int = 4
    """A proven renege by the defenders of a lone hand that then failed to take all five tricks
    (the seeds' "a renege that defeated a lone hand")."""

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if not _is_int(v) or not 0 <= v <= MAX_POINTS:
                raise RulesError(f"scoring.{f.name} must be a non-negative integer "
                                 f"(0..{MAX_POINTS}), not {quote(v)}")


@dataclass(frozen=True, slots=True)
class Rules:
    """Every table rule. Field docs name the seed each option comes from."""

    players: int = 4
    """4 partnership (all seeds), 3 cutthroat (002, 003) or 2 two-handed (004)."""
    deck: int = 24
    """24 cards 9-A; 25 adds the Joker/Benny as top trump (002, 004); 32 adds 7s and 8s (004)."""
    target: int = 10
    """Points to win; passing the target counts (000, 002, 003: 5, 7, 10 and 11 are usual)."""
    stick_the_dealer: bool = False
    """The dealer may not pass in round two (000, 002, 003, 004)."""
    going_alone: bool | None = None
    """The maker may play without partner (all four-handed seeds). Left unset it is on for four
    players and off for two and three, where the maker already plays alone."""
    defend_alone: bool = False
    """Against a lone maker one defender may go alone; euchring then scores 4 (000, 002, 003)."""
    canadian_loner: bool = False
    """In round one the dealer's partner may order up only by going alone (002)."""
    farmers_hand: FarmersHand = "off"
    """'redeal': a hand of only 9s and 10s may call a redeal before bidding (000); 'swap': three
    or more 9s and 10s may be swapped, three of them for the face-down kitty cards (002)."""
    no_ace_no_face: bool = False
    """A hand with no Ace, no face card and no trump (of the up-card's suit) may call a
    misdeal (002)."""
    renege: Renege = "prevent"
    """'prevent' refuses a failure to follow suit (online play, 002); 'penalize' lets it be
    played and claimed before the hand is scored (000, 002)."""
    renege_fix: bool = False
    """Under renege 'penalize': a player who failed to follow may take the card back and play a
    legal one before the trick is turned and quitted (000); see docs/rules.md for who else may
    take a card back."""
    renege_penalty: RenegePenalty = "points"
    """What a proven renege costs (000: "tricks or points by table agreement"; 002): 'points',
    the other side scores ``scoring.renege`` (``renege_lone`` if it defeated a lone hand);
    'deduct', the offending side loses those points instead (002: "the offending team is
    penalized 2 points"), so a score can go below zero; 'tricks', the offending side gives two
    of its tricks (all it took, if fewer) to the other side and the hand is scored on that."""
    misdeal_passes: bool = False
    """After a misdeal (a farmer's hand redeal or a no-ace-no-face call) the deal passes left
    instead of the same dealer dealing again (002: "some tables pass the deal instead")."""
    rows: bool = False
    """Two-handed with rows (002): each player has four cards face down in a row, four face up
    on top of them and four in hand, and may play from the hand or the face-up cards; a
    face-down card is turned up when the card on it is played. The ``two-handed-rows`` preset."""
    rows_euchre: bool = False
    """Two-handed with rows: a maker who takes fewer tricks than it bid is euchred and the
    other player scores ``scoring.euchre``. Our addition, off by default: the source
    (euchre.com) lets only the maker score, so a missed bid scores nothing (docs/rules.md)."""
    first_dealer: FirstDealer = "random"
    """'random', or 'black_jack': deal face up until a black Jack appears; that player deals
    (002)."""
    scoring: Scoring = field(default_factory=Scoring)
    # OpenSpiel compatibility switches (the `openspiel` preset); the defaults follow the seeds.
    alone_timing: AloneTiming = "with_bid"
    """'with_bid': "order alone"/"call H alone" (the seeds); 'after_discard': the maker alone is
    asked "alone or with partner" after the dealer's discard (OpenSpiel)."""
    dealer_may_discard_upcard: bool = True
    """The seeds let the dealer bury the up-card itself; OpenSpiel does not."""
    defend_alone_vs_partners: bool = False
    """OpenSpiel asks the defenders about defending alone even when the maker has a partner."""
    single_hand: bool = False
    """OpenSpiel plays one hand as the whole game: a match ends after the first scored or
    thrown-in hand."""

    def __post_init__(self) -> None:
        def need(cond: object, msg: str) -> None:
            if not cond:
                raise RulesError(msg)

        def choice(name: str, allowed: tuple[str, ...]) -> None:
            v = getattr(self, name)
            # isinstance first: a hostile object's __eq__ is never called.
            need(isinstance(v, str) and v in allowed,
                 f"{name} must be {', '.join(allowed[:-1])} or {allowed[-1]}, not {quote(v)}")

        need(_is_int(self.players) and self.players in (2, 3, 4),
             f"players must be 2, 3 or 4, not {quote(self.players)}")
        if self.going_alone is None:
            object.__setattr__(self, "going_alone", self.players == 4)
        need(_is_int(self.deck) and self.deck in (24, 25, 32),
             f"deck must be 24, 25 or 32 cards, not {quote(self.deck)}")
        need(_is_int(self.target) and 0 < self.target <= MAX_TARGET,
             f"target must be a positive integer (1..{MAX_TARGET}), not {quote(self.target)}")
        choice("farmers_hand", ("off", "redeal", "swap"))
        choice("renege", ("prevent", "penalize"))
        choice("first_dealer", ("random", "black_jack"))
        choice("alone_timing", ("with_bid", "after_discard"))
        choice("renege_penalty", ("points", "deduct", "tricks"))
        for name in ("stick_the_dealer", "going_alone", "defend_alone", "canadian_loner",
                     "no_ace_no_face", "dealer_may_discard_upcard", "defend_alone_vs_partners",
                     "single_hand", "renege_fix", "misdeal_passes", "rows", "rows_euchre"):
            v = getattr(self, name)
            need(isinstance(v, bool), f"{name} must be true or false, not {quote(v)}")
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
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a JSON-style dict of the fields that differ from the defaults (what
        :meth:`to_dict` writes). Any input ends in Rules or a one-line RulesError."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, not {quote(data)}")
        kwargs = _known_keys(data, "rules option", [f.name for f in fields(cls)])
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
                and self.going_alone == (self.players == 4)):
            changes["going_alone"] = None
        return replace(self, **changes)


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
