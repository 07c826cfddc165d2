"""Card-play puzzles mined from self-play: positions where exactly one card is clearly best.

:func:`mine` plays hands between rule-based players and, at every card-play decision with a
real choice, values each lawful card by the double-dummy solver over deals consistent with the
seat's view (:func:`euchre.analysis.values.evaluate`). A position becomes a puzzle when the best
card beats the second best by at least ``threshold`` points a hand *and* by more than the 95%
interval of their paired difference, so the answer is not an accident of the sampled deals.

A puzzle is stored as the hand's dealer, deck order and the actions before the position, so it
replays exactly with the engine (:func:`puzzle_view`) and the file stays small and checkable.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from euchre.actions import action_from_str, action_to_str
from euchre.analysis.values import evaluate, lawful_cards
from euchre.bots import make_bot
from euchre.cards import card_str, card_symbol, parse_card
from euchre.match import Match
from euchre.rules import Rules
from euchre.state import PLAY, HandState, seat_name
from euchre.view import SeatView

__all__ = ["Puzzle", "PuzzleSet", "load_puzzles", "mine", "puzzle_view", "puzzles_to_json"]

FORMAT = "euchre-puzzles"
VERSION = 1
DEFAULT_THRESHOLD = 0.5
DEFAULT_DEALS = 48


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: int
    dealer: int
    deck: tuple[int, ...]
    actions: tuple[int, ...]
    """The hand's actions before the position."""
    scores: tuple[int, ...]
    seat: int
    answer: int
    gap: float
    """Points a hand the answer gains over the second-best card."""
    values: tuple[tuple[int, float], ...]
    """(card, expected points) of every lawful card, best first."""
    explanation: str


@dataclass(frozen=True, slots=True)
class PuzzleSet:
    rules: Rules
    deals: int
    threshold: float
    puzzles: tuple[Puzzle, ...]


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


def mine(rules: Rules, hands: int, seed: int = 0, deals: int = DEFAULT_DEALS,
         threshold: float = DEFAULT_THRESHOLD, limit: int | None = None,
         progress: Callable[[int], None] | None = None) -> PuzzleSet:
    """Play ``hands`` hands of rule-based self-play and keep the clear card-play decisions
    (at most ``limit``); ``progress(1)`` after each hand."""
    rng = random.Random(seed)
    bots = [make_bot("rule", seed + s) for s in range(rules.players)]
    found: list[Puzzle] = []
    match = Match(rules, seed=seed)
    played = 0
    while played < hands and (limit is None or len(found) < limit):
        if match.is_terminal():
            match = Match(rules, seed=rng.getrandbits(32))
        h = match.hand
        start_hands = len(match.finished)
        scores = tuple(match.scores)
        while len(match.finished) == start_hands and not match.is_terminal():
            seat = match.current_player
            view = match.view(seat)
            if h.phase == PLAY and len(lawful_cards(view)) > 1 and (
                    limit is None or len(found) < limit):
                vals = evaluate(view, deals, random.Random(rng.getrandbits(32)))
                ranked = vals.ranked()
                gap, ci = vals.gap(ranked[0].action, ranked[1].action)
                if gap >= threshold and gap > ci:
                    pairs = [(o.action, round(o.points, 4)) for o in ranked]
                    found.append(Puzzle(
                        len(found) + 1, h.dealer, h.deck, tuple(a for _, a in h.history),
                        scores, seat, ranked[0].action, round(gap, 4), tuple(pairs),
                        _explain(view, pairs, vals.deals)))
            match.apply_action(bots[seat].choose(view))
        played += 1
        if progress:
            progress(1)
    return PuzzleSet(rules, deals, threshold, tuple(found))


def puzzles_to_json(ps: PuzzleSet) -> dict[str, Any]:
    """The documented JSON form (docs/analysis.md, schema ``puzzles.schema.json``)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": ps.rules.to_dict(),
        "deals": ps.deals,
        "threshold": ps.threshold,
        "puzzles": [
            {
                "id": p.id,
                "dealer": p.dealer,
                "deck": [card_str(c) for c in p.deck],
                "actions": [action_to_str(a) for a in p.actions],
                "scores": list(p.scores),
                "seat": p.seat,
                "answer": card_str(p.answer),
                "gap": p.gap,
                "values": [{"card": card_str(c), "points": v} for c, v in p.values],
                "explanation": p.explanation,
            }
            for p in ps.puzzles
        ],
    }


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
            pz = Puzzle(int(p["id"]), int(p["dealer"]), tuple(parse_card(c) for c in p["deck"]),
                        tuple(action_from_str(a) for a in p["actions"]),
                        tuple(int(s) for s in p["scores"]), int(p["seat"]),
                        parse_card(p["answer"]), float(p["gap"]),
                        tuple((parse_card(v["card"]), float(v["points"])) for v in p["values"]),
                        str(p["explanation"]))
            st = puzzle_state(rules, pz)
            if st.phase != PLAY or st.cur != pz.seat or pz.answer not in st.legal_actions():
                raise PuzzleFileError(f"puzzle {pz.id}: the position does not replay to "
                                      f"{seat_name(pz.seat, rules.players)} to play")
            out.append(pz)
        return PuzzleSet(rules, int(data["deals"]), float(data["threshold"]), tuple(out))
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
