"""Puzzles mined from self-play: positions where exactly one card, or one bid, is clearly best.

:func:`mine` plays hands between rule-based players and, at every card-play decision with a
real choice, values each lawful card by the double-dummy solver over deals consistent with the
seat's view (:func:`euchre.analysis.values.evaluate`). A position becomes a puzzle when the best
card beats the second best by at least ``threshold`` points a hand *and* by more than the 95%
interval of their paired difference, so the answer is not an accident of the sampled deals.

:func:`mine_bids` does the same for the bidding (order up, pass, order alone in round one; a
suit, alone or not, or pass in round two) with the evaluation service
(:func:`euchre.analysis.assess.assess`), every bid played out on the same deals, a fixed and
large number of them looked at once (no early stop, whose repeated looks would let a lucky
lead through): the answer must lead every other bid by ``threshold`` points and by more than
:data:`~euchre.analysis.assess.SEPARATION` standard errors of the paired difference.

A puzzle is stored as the hand's dealer, deck order and the actions before the position, so it
replays exactly with the engine (:func:`puzzle_view`) and the file stays small and checkable.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from euchre import actions as A
from euchre.actions import action_from_str, action_to_str
from euchre.analysis.assess import FIRM_FLOOR, Assessment, assess, assessment_words
from euchre.analysis.values import evaluate, lawful_cards
from euchre.bots import make_bot
from euchre.cards import Card, card_str, card_symbol, parse_card
from euchre.match import Match
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.state import BID1, BID2, DISCARD, PLAY, HandState, seat_name
from euchre.view import SeatView

if TYPE_CHECKING:
    from euchre.analysis.review import Review

__all__ = ["KIND_PHASES", "Puzzle", "PuzzleSet", "bid_puzzle", "clear_bids", "load_puzzles",
           "mine", "mine_bids", "mistake_puzzles", "puzzle_to_json", "puzzle_view",
           "puzzles_to_json"]

FORMAT = "euchre-puzzles"
VERSION = 1
DEFAULT_THRESHOLD = 0.5
DEFAULT_DEALS = 48
#: Deals every bid of a bidding puzzle is played out on.
DEFAULT_BID_DEALS = 800
#: A bidding position where every bid but passing is this far behind it is no puzzle.
TRIVIAL_PASS = 1.5


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: int
    dealer: Seat
    deck: tuple[Card, ...]
    actions: tuple[int, ...]
    """The hand's actions before the position."""
    scores: tuple[int, ...]
    seat: Seat
    answer: int
    """A card (a card puzzle) or a bid action (a bidding puzzle)."""
    gap: float
    """Points a hand the answer gains over the second-best option."""
    values: tuple[tuple[int, float], ...]
    """(card or bid, expected points) of every option, best first."""
    explanation: str
    kind: str = "play"
    """'play' (which card), 'bid' (which bid) or 'discard' (which card the dealer buries)."""
    gap_se: float = 0.0
    """Standard error of ``gap``, paired on the same deals (bidding puzzles)."""
    objective: str = "points"
    """What ``gap`` and ``values`` are in: 'points' a hand, or 'win' (the chance to win the
    game, for a mistake of one's own game judged by the game)."""
    choice: int = -1
    """A puzzle from one's own game: what the player chose there (-1 for a mined one)."""
    hand: int = 0
    """A puzzle from one's own game: the hand (1-based) and the action's index in it."""
    index: int = 0


@dataclass(frozen=True, slots=True)
class PuzzleSet:
    rules: Rules
    deals: int
    threshold: float
    puzzles: tuple[Puzzle, ...]
    source: dict[str, Any] | None = None
    """Puzzles of one's own game: where they come from (``table`` or ``record``, ``seat``:
    the seat whose mistakes they are, or None for every seat; ``players``)."""


#: A puzzle's kind by the phase of its position.
KIND_PHASES: dict[str, tuple[int, ...]] = {"play": (PLAY,), "bid": (BID1, BID2),
                                          "discard": (DISCARD,)}


def puzzle_state(rules: Rules, p: Puzzle) -> HandState:
    """The hand replayed to the puzzle's position."""
    st = HandState(rules, p.dealer, p.deck)
    for a in p.actions:
        st.apply_action(a)
    return st


def puzzle_view(rules: Rules, p: Puzzle) -> SeatView:
    """What the player to move sees at the puzzle's position."""
    return puzzle_state(rules, p).view(p.seat, p.scores)


def _explain(view: SeatView, values: list[tuple[int, float]], deals: int) -> str:
    from euchre.analysis.review import play_context

    (best, bp), (second, sp) = values[0], values[1]
    lead = play_context(view, second, best)
    return (f"{lead}{card_symbol(best)} scores {bp:+.2f} points a hand on average against "
            f"{sp:+.2f} for the next best, {card_symbol(second)}, solved double-dummy over "
            f"{deals} deals consistent with what you see.")


def _self_play(rules: Rules, hands: int, bot_seed: int, match_seed: int, rng: random.Random,
               progress: Callable[[int], None] | None, done: Callable[[], bool]
               ) -> Iterator[tuple[HandState, tuple[int, ...], int, SeatView]]:
    """(hand, scores before it, seat, its view) at every decision of ``hands`` hands between
    rule-based players, until ``done()``; a finished match is followed by one seeded from
    ``rng``. ``progress(1)`` after each hand."""
    bots = [make_bot("rule", bot_seed + s) for s in range(rules.players)]
    match = Match(rules, seed=match_seed)
    played = 0
    while played < hands and not done():
        if match.is_terminal():
            match = Match(rules, seed=rng.getrandbits(32))
        h = match.hand
        start_hands = len(match.finished)
        scores = tuple(match.scores)
        while len(match.finished) == start_hands and not match.is_terminal():
            seat = match.current_player
            view = match.view(seat)
            if not done():
                yield h, scores, seat, view
            match.apply_action(bots[seat].choose(view))
        played += 1
        if progress:
            progress(1)


def mine(rules: Rules, hands: int, seed: int = 0, deals: int = DEFAULT_DEALS,
         threshold: float = DEFAULT_THRESHOLD, limit: int | None = None,
         progress: Callable[[int], None] | None = None) -> PuzzleSet:
    """Play ``hands`` hands of rule-based self-play and keep the clear card-play decisions
    (at most ``limit``); ``progress(1)`` after each hand."""
    rng = random.Random(seed)
    found: list[Puzzle] = []
    for h, scores, seat, view in _self_play(rules, hands, seed, seed, rng, progress,
                                            lambda: limit is not None and len(found) >= limit):
        if h.phase == PLAY and len(lawful_cards(view)) > 1:
            vals = evaluate(view, deals, random.Random(rng.getrandbits(32)))
            ranked = vals.ranked()
            gap, ci = vals.gap(ranked[0].action, ranked[1].action)
            if gap >= threshold and gap > ci:
                pairs = [(o.action, round(o.points, 4)) for o in ranked]
                found.append(Puzzle(
                    len(found) + 1, h.dealer, h.deck, tuple(a for _, a in h.history),
                    scores, seat, ranked[0].action, round(gap, 4), tuple(pairs),
                    _explain(view, pairs, vals.deals)))
    return PuzzleSet(rules, deals, threshold, tuple(found))


def _worth_posing(a: Assessment, threshold: float) -> bool:
    """Clear beyond the error and by ``threshold`` points, and not a junk hand where any bid
    but a pass is far behind."""
    if len(a.options) < 2 or not a.settled or a.options[1].behind < threshold:
        return False
    if a.best.action == A.PASS:
        bids = [o for o in a.options if o.action != A.PASS]
        return min(o.behind for o in bids) <= TRIVIAL_PASS
    return True


def clear_bids(rules: Rules, hands: int, seed: int = 0, deals: int = DEFAULT_BID_DEALS,
               threshold: float = DEFAULT_THRESHOLD, rounds: Collection[int] = (1, 2),
               progress: Callable[[int], None] | None = None, early: bool = False,
               done: Callable[[], bool] = lambda: False
               ) -> Iterator[tuple[HandState, tuple[int, ...], Seat, Assessment]]:
    """(the hand, scores before it, the seat, its assessment) at every bid of ``rounds`` in
    ``hands`` hands of rule-based self-play whose best option is clear: it leads every other
    by ``threshold`` points and firmly (judged by points this hand, as a puzzle is one hand),
    and the hand is no junk hand. ``early``: the service stops as soon as the answer is firm
    (its stopping rule holds however often it looks); else all ``deals`` are looked at once."""
    phases = {phase for r, phase in ((1, BID1), (2, BID2)) if r in rounds}
    rng = random.Random(seed * 7919 + 1)
    for h, scores, seat, view in _self_play(rules, hands, seed, seed + 1, rng, progress, done):
        if h.phase in phases and len(view.legal_actions) > 1:
            a = assess(view, "points", seed=rng.getrandbits(32), seconds=None,
                       max_deals=deals, min_deals=min(deals, FIRM_FLOOR) if early else deals)
            if _worth_posing(a, threshold):
                yield h, scores, seat, a


def bid_puzzle(number: int, h: HandState, scores: tuple[int, ...], seat: Seat,
               a: Assessment) -> Puzzle:
    """A bidding puzzle of a clear assessment (:func:`clear_bids`)."""
    pairs = [(o.action, round(o.value, 4)) for o in a.options]
    return Puzzle(number, h.dealer, h.deck, tuple(x for _, x in h.history), scores, seat,
                  a.best.action, round(a.options[1].behind, 4), tuple(pairs),
                  assessment_words(a).replace(
                      "Judged by points this hand",
                      "Each bid played out by sound players on the same deals; judged by "
                      "points this hand"),
                  "bid", round(a.options[1].behind_se, 4))


def mine_bids(rules: Rules, hands: int, seed: int = 0, deals: int = DEFAULT_BID_DEALS,
              threshold: float = DEFAULT_THRESHOLD, limit: int | None = None,
              progress: Callable[[int], None] | None = None, first_id: int = 1,
              rounds: Collection[int] = (1, 2)) -> list[Puzzle]:
    """Play ``hands`` hands of rule-based self-play and keep the bids of ``rounds`` whose best
    option is clear (at most ``limit``); ``progress(1)`` after each hand. Judged by points this
    hand, as a puzzle is one hand."""
    found: list[Puzzle] = []
    for h, scores, seat, a in clear_bids(rules, hands, seed, deals, threshold, rounds,
                                         progress,
                                         done=lambda: limit is not None and len(found) >= limit):
        passes = sum(p.answer == A.PASS for p in found)
        # Clear passes are the commonest answer by far: at most one more of them than of the
        # bids worth making, so the set is not a string of "pass".
        if a.best.action != A.PASS or passes <= len(found) - passes:
            found.append(bid_puzzle(first_id + len(found), h, scores, seat, a))
    return found


def _option_str(p: Puzzle, a: int) -> str:
    return card_str(a) if p.kind == "play" else action_to_str(a)


def puzzle_to_json(p: Puzzle) -> dict[str, Any]:
    """One puzzle in the documented JSON form."""
    key = "card" if p.kind == "play" else "action"
    unit = "win" if p.objective == "win" else "points"
    own: dict[str, Any] = {} if p.choice < 0 else {
        "objective": p.objective, "choice": _option_str(p, p.choice), "hand": p.hand,
        "index": p.index, "gap_se": p.gap_se}
    return {
        "id": p.id,
        "dealer": p.dealer,
        "deck": [card_str(c) for c in p.deck],
        "actions": [action_to_str(a) for a in p.actions],
        "scores": list(p.scores),
        "seat": p.seat,
        "answer": _option_str(p, p.answer),
        "gap": p.gap,
        "values": [{key: _option_str(p, c), unit: v} for c, v in p.values],
        "explanation": p.explanation,
        **({} if p.kind == "play" else {"kind": p.kind, "gap_se": p.gap_se}),
        **own,
    }


def puzzles_to_json(ps: PuzzleSet) -> dict[str, Any]:
    """The documented JSON form (docs/analysis.md, schema ``puzzles.schema.json``)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": ps.rules.to_dict(),
        "deals": ps.deals,
        "threshold": ps.threshold,
        **({} if ps.source is None else {"source": ps.source}),
        "puzzles": [puzzle_to_json(p) for p in ps.puzzles],
    }


def mistake_puzzles(rev: Review, match: Match, seat: Seat | None = None,
                    source: dict[str, Any] | None = None) -> PuzzleSet:
    """A game's clear mistakes (of ``seat``, or of every seat) as puzzles to replay, in game
    order: each position replays exactly (the hand's dealer, deck and actions before it), its
    answer is the review's best, its values the review's (in the review's objective), and its
    explanation what the mistake gave up. Card plays, bids and discards are posed."""
    from euchre.analysis.review import hand_starts

    hands = hand_starts(match)
    found: list[Puzzle] = []
    for d in sorted(rev.decisions, key=lambda d: (d.hand, d.index)):
        kind = next((k for k, ph in KIND_PHASES.items() if d.phase.number in ph), None)
        if not d.clear or kind is None or (seat is not None and d.seat != seat):
            continue
        st, actions = hands[d.hand]
        values = [(o.action, round(o.value, 4)) for o in d.options]
        found.append(Puzzle(len(found) + 1, st.dealer, tuple(st.deck), tuple(actions[:d.index]),
                            tuple(d.view.scores), d.seat, d.best, round(d.loss, 4),
                            tuple(values), d.short, kind, round(d.se, 4), rev.objective,
                            d.choice, d.hand, d.index))
    src = dict(source or {})
    src.setdefault("seat", seat)
    src.setdefault("players", list(rev.players))
    return PuzzleSet(match.rules, rev.play_deals, 0.0, tuple(found), src)


class PuzzleFileError(ValueError):
    """A puzzle set that cannot be used; the message says where and why."""


def puzzles_from_json(data: Any) -> PuzzleSet:
    """Read a puzzle set, replaying each position; raises PuzzleFileError."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleFileError(f"not a puzzle set: 'format' must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise PuzzleFileError(f"unsupported version {data.get('version')!r} (reads {VERSION})")
    try:
        rules = Rules.from_dict(data["rules"])
        out = []
        for p in data["puzzles"]:
            kind = p.get("kind", "play")
            if kind not in KIND_PHASES:
                raise PuzzleFileError(f"puzzle {p.get('id')}: kind must be one of "
                                      f"{', '.join(KIND_PHASES)}, not {kind!r}")
            objective = p.get("objective", "points")
            if objective not in ("points", "win"):
                raise PuzzleFileError(f"puzzle {p.get('id')}: objective must be 'points' or "
                                      f"'win', not {objective!r}")
            option = parse_card if kind == "play" else action_from_str
            key = "card" if kind == "play" else "action"
            unit = "win" if objective == "win" else "points"
            choice = p.get("choice")
            pz = Puzzle(int(p["id"]), int(p["dealer"]), tuple(parse_card(c) for c in p["deck"]),
                        tuple(action_from_str(a) for a in p["actions"]),
                        tuple(int(s) for s in p["scores"]), int(p["seat"]),
                        option(p["answer"]), float(p["gap"]),
                        tuple((option(v[key]), float(v[unit])) for v in p["values"]),
                        str(p["explanation"]), kind, float(p.get("gap_se", 0.0)), objective,
                        -1 if choice is None else option(choice), int(p.get("hand", 0)),
                        int(p.get("index", 0)))
            st = puzzle_state(rules, pz)
            if st.phase not in KIND_PHASES[kind] or st.cur != pz.seat or \
                    pz.answer not in st.legal_actions():
                raise PuzzleFileError(f"puzzle {pz.id}: the position does not replay to "
                                      f"{seat_name(pz.seat, rules.players)} to {kind}")
            out.append(pz)
        source = data.get("source")
        if source is not None and not isinstance(source, dict):
            raise PuzzleFileError("'source' must be an object (table or record, seat)")
        return PuzzleSet(rules, int(data["deals"]), float(data["threshold"]), tuple(out),
                         source)
    except PuzzleFileError:
        raise
    except Exception as exc:  # a malformed entry of any kind: one clear message
        raise PuzzleFileError(f"not a valid puzzle set: {type(exc).__name__}: {exc}") from None


def load_puzzles(text: str | None = None) -> PuzzleSet:
    """A puzzle set from JSON text, or the set shipped with the package."""
    if text is None:
        text = resources.files("euchre.analysis").joinpath("data/puzzles.json").read_text(
            encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PuzzleFileError(f"not valid JSON: {exc}") from None
    return puzzles_from_json(data)
