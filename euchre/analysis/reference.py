"""A reference set for the advice: decisions from real games between the bots, each valued
with many deals, against which the hint's quick answer is measured.

:func:`collect` plays games between rule-based and beginner players under every preset the
solver can play and picks decisions of every kind (round-one and round-two bids, where going
alone is among the options, the dealer's discard, declarations, card plays), spread over the
presets and kinds. :func:`value` values every option of each with the same evaluation service
as the hint (:mod:`euchre.analysis.assess`), but with a fixed and large deal budget and its own
deals, so the reference is independent of the hint it judges. A reference *separates* a
decision when the best option leads every option that is not equal to it on every deal by
more than :data:`~euchre.analysis.assess.SEPARATION` standard errors.

:func:`check` asks the hint every decision of a set, times it, and counts how often its first
choice is the reference's where the reference separates the options, and how often it says
"close call" where the reference does not.

The set is a small JSON file (:func:`reference_to_json`) holding its settings and seed; each
decision is stored as the hand's dealer, deck and the actions before it, so it replays
exactly with the engine.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from euchre.actions import DISCARD_BASE, action_from_str, action_to_str, is_discard
from euchre.analysis.assess import SEPARATION, Assessment, hint_assessment, valued
from euchre.analysis.values import Objective, OptionValue, default_objective, evaluate
from euchre.bots import make_bot
from euchre.cards import Card, card_str, parse_card
from euchre.match import Match
from euchre.phases import Phase
from euchre.rules import PRESETS, Rules
from euchre.seats import Seat
from euchre.solver import solvable
from euchre.state import HandState
from euchre.view import SeatView

__all__ = [
    "DEFAULT_PRESETS",
    "CheckResult",
    "Entry",
    "Reference",
    "ReferenceFileError",
    "Spot",
    "TieResult",
    "check",
    "collect",
    "load_reference",
    "mirrored",
    "reference_from_json",
    "reference_to_json",
    "spot_view",
    "stored_game",
    "tie_rate",
    "tie_state",
    "value",
]

FORMAT = "euchre-advice-reference"
VERSION = 1
#: Every preset whose hands the solver plays (rows are not five-card hands).
DEFAULT_PRESETS: tuple[str, ...] = tuple(p for p, r in PRESETS.items() if solvable(r))
#: The players of the games the decisions come from, seat by seat (a mix of a sound player's
#: habits and a beginner's mistakes gives positions of every kind).
BOTS: tuple[str, ...] = ("rule", "beginner")
DEFAULT_DEALS = 2000
DEFAULT_DECISIONS = 200
#: How a decision's phase is counted when the kinds are spread evenly.
KINDS: dict[Phase, str] = {Phase.BID1: "bid1", Phase.BID2: "bid2", Phase.DISCARD: "discard",
                           Phase.PLAY: "play"}
#: A preset's share of decisions by kind: card play is most of a hand.
SHARES: dict[str, int] = {"play": 8, "bid1": 4, "bid2": 3, "discard": 2, "other": 1}


@dataclass(frozen=True, slots=True)
class Spot:
    """A decision of a real game, replayable: the hand's dealer, deck and actions before it."""

    preset: str
    dealer: Seat
    deck: tuple[Card, ...]
    actions: tuple[int, ...]
    scores: tuple[int, ...]
    seat: Seat
    phase: Phase

    @property
    def rules(self) -> Rules:
        return PRESETS[self.preset]

    @property
    def kind(self) -> str:
        return KINDS.get(self.phase, "other")


@dataclass(frozen=True, slots=True)
class Entry:
    """A decision valued: every option best first under ``objective``."""

    spot: Spot
    objective: Objective
    deals: int
    options: tuple[OptionValue, ...]
    best: frozenset[int]
    """The best option and those equal to it on every deal (equivalent cards)."""
    separated: bool
    """Every other option is behind the best beyond its error."""


@dataclass(frozen=True, slots=True)
class Reference:
    seed: int
    deals: int
    decisions: int
    """How many decisions the set was built to hold (``entries`` may hold fewer, part-built)."""
    presets: tuple[str, ...]
    entries: tuple[Entry, ...] = field(default=())


def spot_state(spot: Spot) -> HandState:
    """The hand replayed to the decision."""
    st = HandState(spot.rules, spot.dealer, spot.deck)
    for a in spot.actions:
        st.apply_action(a)
    return st


def spot_view(spot: Spot) -> SeatView:
    """What the deciding seat saw."""
    return spot_state(spot).view(spot.seat, spot.scores)


def _choices(view: SeatView) -> int:
    return len(view.lawful_cards() if view.phase == Phase.PLAY else view.legal_actions)


def _candidates(preset: str, hands: int, rng: random.Random) -> list[Spot]:
    """Every decision with a real choice in ``hands`` hands of games between the bots."""
    rules = PRESETS[preset]
    out: list[Spot] = []
    match: Match | None = None
    played = 0
    while played < hands:
        if match is None or match.is_terminal():
            match = Match(rules, seed=rng.getrandbits(32))
            seats = [make_bot(BOTS[s % 2 if rules.players == 4 else s % len(BOTS)],
                              rng.getrandbits(32)) for s in range(rules.players)]
        h = match.hand
        done = len(match.finished)
        scores = tuple(match.scores)
        while len(match.finished) == done and not match.is_terminal():
            seat = match.current_player
            view = match.view(seat)
            if view.phase != Phase.CLAIM and _choices(view) > 1:
                out.append(Spot(preset, h.dealer, tuple(h.deck), tuple(a for _, a in h.history),
                                scores, seat, view.phase))
            match.apply_action(seats[seat].choose(view))
        played += 1
    return out


def collect(decisions: int = DEFAULT_DECISIONS, seed: int = 0,
            presets: Sequence[str] = DEFAULT_PRESETS) -> list[Spot]:
    """``decisions`` decisions spread over ``presets`` and, within each, over the kinds in
    :data:`SHARES` (a kind a preset lacks gives its share to card play). The same seed gives
    the same decisions."""
    rng = random.Random(seed)
    per = [decisions // len(presets) + (i < decisions % len(presets))
           for i in range(len(presets))]
    out: list[Spot] = []
    for preset, want in zip(presets, per, strict=True):
        pool: dict[str, list[Spot]] = {}
        for s in _candidates(preset, max(12, want), random.Random(rng.getrandbits(32))):
            pool.setdefault(s.kind, []).append(s)
        for spots in pool.values():
            rng.shuffle(spots)
        total = sum(SHARES.values())
        quota = {k: want * SHARES[k] // total for k in SHARES}
        quota["play"] += want - sum(quota.values())
        picked: list[Spot] = []
        for k in SHARES:
            picked += pool.get(k, [])[:quota[k]]
        spare = [s for k in SHARES for s in pool.get(k, [])[quota[k]:]]
        spare.sort(key=lambda s: s.kind != "play")  # short kinds are made up with card play
        picked += spare[:want - len(picked)]
        out += picked
    return out


def _entry(spot: Spot, a: Assessment) -> Entry:
    top = a.best
    best = frozenset(o.action for o in a.options if o.behind == 0.0 and o.behind_se == 0.0)
    opts = tuple(OptionValue(o.action, o.value, o.points, se=o.se, behind=o.behind,
                             behind_se=o.behind_se) for o in a.options)
    # One look at a fixed number of deals: the fixed-sample rule, not the hint's sequential one.
    separated = all(o.behind > SEPARATION * o.behind_se or o.action in best
                    for o in a.options[1:])
    return Entry(spot, a.objective, a.deals, opts, best | {top.action}, separated)


def value(spot: Spot, deals: int = DEFAULT_DEALS, seed: int = 0) -> Entry:
    """Every option of ``spot`` on the same ``deals`` deals (no time limit, no early stop),
    judged by the objective the hint uses there."""
    view = spot_view(spot)
    values = evaluate(view, deals, random.Random(seed))
    return _entry(spot, valued(view, values, default_objective(view)))


def build(ref: Reference, spots: Sequence[Spot], *, seconds: float | None = None,
          save: Callable[[Reference], None] | None = None,
          progress: Callable[[], None] | None = None) -> Reference:
    """Value the ``spots`` that ``ref`` does not hold yet, in order, calling ``save`` after
    each (so an interrupted build resumes where it stopped) until they are all valued or
    ``seconds`` have passed."""
    have = len(ref.entries)
    if [e.spot for e in ref.entries] != list(spots[:have]):
        raise ReferenceFileError("the file's decisions are not the ones these settings pick: "
                                 "build it again into a new file")
    start = time.perf_counter()
    entries = list(ref.entries)
    for i in range(have, len(spots)):
        if seconds is not None and time.perf_counter() - start > seconds:
            break
        entries.append(value(spots[i], ref.deals, ref.seed * 1_000_003 + i))
        ref = replace(ref, entries=tuple(entries))
        if save is not None:
            save(ref)
        if progress is not None:
            progress()
    return ref


# ---------------------------------------------------------------------------------------------
# Measuring the hint


Hinter = Callable[[SeatView, int], tuple[int, bool]]
"""(view, seed) -> (the first choice, whether it is called a close call)."""


def service_hint(view: SeatView, seed: int) -> tuple[int, bool]:
    """The hint as the terminal and the browser ask it (words included, since a player waits
    for them too)."""
    from euchre.analysis.assess import assessment_words

    a = hint_assessment(view, seed)
    assessment_words(a)
    return a.best.action, not a.settled


@dataclass(frozen=True, slots=True)
class CheckResult:
    decisions: int
    separated: int
    """Decisions the reference separates."""
    agree: int
    """Of those, where the hint's first choice is the reference's."""
    separated_but_close: int
    """Of those, where the hint called it a close call all the same."""
    unseparated: int
    close: int
    """Of the decisions the reference does not separate, where the hint said close call."""
    seconds: tuple[float, ...]
    by_kind: dict[str, tuple[int, int]]
    """kind -> (separated, agree)."""
    disagreements: tuple[int, ...]
    """Indices of the separated decisions where the hint chose otherwise."""
    sure_but_wrong: int = 0
    """Of those, where the hint did not call it a close call: a wrong answer given as firm."""

    @property
    def p50(self) -> float:
        return statistics.median(self.seconds) if self.seconds else 0.0

    @property
    def p95(self) -> float:
        s = sorted(self.seconds)
        return s[min(len(s) - 1, int(0.95 * len(s)))] if s else 0.0


def check(ref: Reference, hinter: Hinter = service_hint, seed: int = 1,
          progress: Callable[[], None] | None = None) -> CheckResult:
    """Ask ``hinter`` every decision of ``ref`` (with a seed apart from the reference's) and
    compare."""
    sep = agree = sep_close = unsep = close = sure_wrong = 0
    times: list[float] = []
    by_kind: dict[str, list[int]] = {}
    wrong: list[int] = []
    if ref.entries:  # the judges load and compile on first use: not a decision's time
        hinter(spot_view(ref.entries[0].spot), seed)
    for i, e in enumerate(ref.entries):
        view = spot_view(e.spot)
        t = time.perf_counter()
        choice, said_close = hinter(view, seed * 1_000_003 + i)
        times.append(time.perf_counter() - t)
        if e.separated:
            sep += 1
            ok = choice in e.best
            agree += ok
            sep_close += said_close
            k = by_kind.setdefault(e.spot.kind, [0, 0])
            k[0] += 1
            k[1] += ok
            if not ok:
                wrong.append(i)
                sure_wrong += not said_close
        else:
            unsep += 1
            close += said_close
        if progress is not None:
            progress()
    return CheckResult(len(ref.entries), sep, agree, sep_close, unsep, close, tuple(times),
                       {k: (v[0], v[1]) for k, v in sorted(by_kind.items())}, tuple(wrong),
                       sure_wrong)


# ---------------------------------------------------------------------------------------------
# A true tie, asked again and again

#: A constructed true tie: East leads to trick one of a standard hand holding A♣ A♠ 9♦ 10♦ Q♦,
#: North (the dealer) having picked up the 9♥ after three passes. Nothing any seat has seen
#: tells clubs from spades, so the two aces are worth exactly the same: a deal and its
#: clubs-spades mirror (:func:`mirrored`) are equally likely, equally weighted by the bidding
#: and solve to mirrored values. They differ deal by deal (about one deal in eight).
TIE_DECK = "AC AS 9D JC QC JH TH KS QH KH TD QD KC JS QS KD AD AH 9S TC 9H TS JD 9C"
TIE_ACTIONS = ("pass", "pass", "pass", "order", "discard 9S")
TIE_OPTIONS = ("AC", "AS")


def tie_state() -> HandState:
    """The constructed tie's position (:data:`TIE_DECK`), East to lead, in a game at 0-0."""
    st = HandState(Rules(), 0, [parse_card(c) for c in TIE_DECK.split()])
    for text in TIE_ACTIONS:
        st.apply_action(action_from_str(text))
    return st


def _mirror(a: int) -> int:
    """A card, or a play or discard action, with clubs and spades swapped."""
    base = DISCARD_BASE if is_discard(a) else 0
    card = a - base
    if not 0 <= card < 32:
        return a
    suit, rank = divmod(card, 8)
    return base + {0: 3, 3: 0}.get(suit, suit) * 8 + rank


def mirrored(st: HandState) -> HandState:
    """``st`` with clubs and spades swapped in the deal and in every action (bids that name a
    suit are not mirrored: keep to positions whose bids name none)."""
    out = HandState(st.rules, st.dealer, [_mirror(c) for c in st.deck])
    for _, a in st.history:
        out.apply_action(_mirror(a))
    return out


@dataclass(frozen=True, slots=True)
class TieResult:
    asks: int
    firm: int
    """Asks answered firmly (not a close call): each one wrong, the options being equal."""
    seconds: tuple[float, ...]

    @property
    def rate(self) -> float:
        return self.firm / self.asks if self.asks else 0.0


def tie_rate(asks: int, seed: int = 1, hinter: Hinter = service_hint,
             progress: Callable[[], None] | None = None) -> TieResult:
    """Ask ``hinter`` the constructed tie ``asks`` times, each with a seed of its own, and
    count the firm answers."""
    view = tie_state().view(1, (0, 0))
    tied = {parse_card(c) for c in TIE_OPTIONS}
    firm = 0
    times: list[float] = []
    hinter(view, seed)  # the judges load and compile on first use: not an ask's time
    for i in range(asks):
        t = time.perf_counter()
        choice, close = hinter(view, seed * 1_000_003 + i)
        times.append(time.perf_counter() - t)
        if choice not in tied:
            raise AssertionError(f"the tie's first choice was {action_to_str(choice)}, not an "
                                 "ace: the position is not the tie it was built to be")
        firm += not close
        if progress is not None:
            progress()
    return TieResult(asks, firm, tuple(times))


def check_to_json(res: CheckResult) -> dict[str, Any]:
    def rate(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None

    return {
        "decisions": res.decisions,
        "separated": res.separated,
        "agree": res.agree,
        "agree_rate": rate(res.agree, res.separated),
        "separated_but_close": res.separated_but_close,
        "sure_but_wrong": res.sure_but_wrong,
        "unseparated": res.unseparated,
        "close": res.close,
        "close_rate": rate(res.close, res.unseparated),
        "seconds_p50": round(res.p50, 4),
        "seconds_p95": round(res.p95, 4),
        "by_kind": {k: {"separated": s, "agree": a} for k, (s, a) in res.by_kind.items()},
        "disagreements": list(res.disagreements),
    }


# ---------------------------------------------------------------------------------------------
# The file


class ReferenceFileError(ValueError):
    """A reference set that cannot be used; the message says where and why."""


def _num(x: float) -> float | str:
    return round(x, 5) if x == x and abs(x) != float("inf") else "inf"


def reference_to_json(ref: Reference) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "seed": ref.seed,
        "deals": ref.deals,
        "decisions": ref.decisions,
        "presets": list(ref.presets),
        "bots": list(BOTS),
        "entries": [
            {
                "preset": e.spot.preset,
                "dealer": e.spot.dealer,
                "deck": " ".join(card_str(c) for c in e.spot.deck),
                "actions": [action_to_str(a) for a in e.spot.actions],
                "scores": list(e.spot.scores),
                "seat": e.spot.seat,
                "phase": e.spot.phase.value,
                "objective": e.objective,
                "deals": e.deals,
                "separated": e.separated,
                "best": sorted(action_to_str(a) for a in e.best),
                "options": [[action_to_str(o.action), _num(o.value), _num(o.se),
                             _num(o.points), _num(o.behind), _num(o.behind_se)]
                            for o in e.options],
            }
            for e in ref.entries
        ],
    }


def _float(x: Any) -> float:
    return float("inf") if x == "inf" else float(x)


def _option(row: Any) -> OptionValue:
    """An option as the file stores it: [action, value, se, points, behind, behind_se]."""
    action, value, se, points, behind, behind_se = row
    return OptionValue(action_from_str(action), _float(value), _float(points), se=_float(se),
                       behind=_float(behind), behind_se=_float(behind_se))


def reference_from_json(data: Any) -> Reference:
    """Read a reference set, replaying every decision; raises ReferenceFileError."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReferenceFileError(f"not a reference set: 'format' must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise ReferenceFileError(f"unsupported version {data.get('version')!r} "
                                 f"(reads {VERSION})")
    try:
        entries = []
        for i, e in enumerate(data["entries"]):
            if e["preset"] not in DEFAULT_PRESETS:
                raise ReferenceFileError(f"entry {i}: unknown preset {e['preset']!r}")
            spot = Spot(str(e["preset"]), int(e["dealer"]),
                        tuple(parse_card(c) for c in e["deck"].split()),
                        tuple(action_from_str(a) for a in e["actions"]),
                        tuple(int(s) for s in e["scores"]), int(e["seat"]), Phase.of(e["phase"]))
            view = spot_view(spot)
            opts = tuple(_option(o) for o in e["options"])
            legal = set(view.legal_actions)
            if view.seat != spot.seat or not {o.action for o in opts} <= legal:
                raise ReferenceFileError(f"entry {i}: the decision does not replay to the "
                                         "options stored")
            obj = e["objective"]
            if obj not in ("win", "points"):
                raise ReferenceFileError(f"entry {i}: objective must be 'win' or 'points'")
            entries.append(Entry(spot, obj, int(e["deals"]), opts,
                                 frozenset(action_from_str(a) for a in e["best"]),
                                 bool(e["separated"])))
        return Reference(int(data["seed"]), int(data["deals"]), int(data["decisions"]),
                         tuple(str(p) for p in data["presets"]), tuple(entries))
    except ReferenceFileError:
        raise
    except Exception as exc:  # a malformed entry of any kind: one clear message
        raise ReferenceFileError(f"not a valid reference set: {type(exc).__name__}: {exc}"
                                 ) from None


def load_reference(text: str | None = None) -> Reference:
    """A reference set from JSON text, or the set shipped with the package."""
    if text is None:
        text = resources.files("euchre.analysis").joinpath("data/reference.json").read_text(
            encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReferenceFileError(f"not valid JSON: {exc}") from None
    return reference_from_json(data)


def stored_game() -> tuple[Match, str]:
    """(the game, its record) a review is measured on (``euchre bench review`` and its
    test): a game to ten points between rule players (North-South) and beginners
    (East-West), ``Match(Rules(), seed=3)`` with the bots seeded 30 to 33: 59 decisions in
    four hands, beginners' mistakes among them."""
    from euchre.record import from_json

    text = resources.files("euchre.analysis").joinpath("data/review-game.json").read_text(
        encoding="utf-8")
    return from_json(text), text


def kinds_of(entries: Iterable[Entry]) -> dict[str, int]:
    """How many decisions of each kind (for the report)."""
    out: dict[str, int] = {}
    for e in entries:
        out[e.spot.kind] = out.get(e.spot.kind, 0) + 1
    return dict(sorted(out.items()))
