"""Golden transcripts: a seeded random match of every preset (and two combined variant
configurations), rendered as text and compared with a checked-in file in tests/golden/.

The formatter lives here, not in the CLI, so a change to the CLI's display does not move the
goldens; a change to the rules engine's behaviour does. Regenerate with
``EUCHRE_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and review the diff by eye.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from euchre import actions as A
from euchre.actions import action_to_str
from euchre.cards import SUIT_SYMBOLS, card_symbol, cards_of, sort_hand
from euchre.match import Match
from euchre.rules import PRESETS, Rules
from euchre.state import HandState, seat_name

pytestmark = pytest.mark.core

GOLDEN = Path(__file__).parent / "golden"
SEED = 1

CONFIGS: dict[str, Rules] = {
    **PRESETS,
    "house-rules": Rules(
        defend_alone=True, canadian_loner=True, farmers_hand="swap", no_ace_no_face=True,
        renege="penalize", target=5,
    ),
    "redeal-32": Rules(farmers_hand="redeal", deck=32, stick_the_dealer=True,
                       first_dealer="black_jack", target=5),
}


def label(a: int) -> str:
    """A bid, discard or swap as the golden file writes it: the notation, cards with symbols."""
    if A.is_discard(a):
        return "discard " + card_symbol(a - A.DISCARD_BASE)
    if a >= A.SWAP_BASE:
        return "swap " + " ".join(card_symbol(c) for c in A.SWAP_SETS[a - A.SWAP_BASE])
    return action_to_str(a)


def side_name(side: int, players: int) -> str:
    if players == 4:
        return ("North-South", "East-West")[side]
    return seat_name(side, players)


def cards_text(cs: list[int] | tuple[int, ...], trump: int = 4) -> str:
    return " ".join(card_symbol(c) for c in sort_hand(cs, trump))


def render_hand(h: HandState) -> list[str]:
    n = h.n
    if h.columns:  # two-handed with rows: no up-card or kitty; each column face up / down
        out = [f"Dealer {seat_name(h.dealer, n)}; no up-card (rows)"]
        for s in range(n):
            cols = " ".join(f"{card_symbol(t)}/{card_symbol(u)}" for t, u in h.columns[s])
            out.append(f"  {seat_name(s, n):<9} {cards_text(cards_of(h.initial_hands[s]), h.trump)}"
                       f"; rows {cols}")
    else:
        out = [f"Dealer {seat_name(h.dealer, n)}; up-card {card_symbol(h.upcard)}; "
               f"kitty {' '.join(card_symbol(c) for c in h.deck[5 * n + 1:])}"]
        for s in range(n):
            out.append(f"  {seat_name(s, n):<9} "
                       f"{cards_text(cards_of(h.initial_hands[s]), h.trump)}")
    acts = [f"{seat_name(w, n)} {label(a)}" for w, a in h.history if not 0 <= a <= 32]
    if acts:
        out.append("  Bids: " + ", ".join(acts))
    if h.maker >= 0:
        extra = " alone" if h.alone else ""
        if h.lone_defender >= 0:
            extra += f", {seat_name(h.lone_defender, n)} defends alone"
        out.append(f"  Trump {SUIT_SYMBOLS[h.trump]} by {seat_name(h.maker, n)}{extra}; "
                   f"playing: {', '.join(seat_name(s, n) for s in h.active)}")
    for i, (_, trick, winner) in enumerate(h.tricks, 1):
        played = "  ".join(f"{seat_name(s, n)[:1] if n == 4 else s + 1}:{card_symbol(c)}"
                           for s, c in trick)
        out.append(f"  Trick {i}: {played}  -> {seat_name(winner, n)}")
    for seat, trick_no, c in h.reneges:
        out.append(f"  Renege: {seat_name(seat, n)} played {card_symbol(c)} in trick "
                   f"{trick_no + 1}")
    if h.outcome == "scored":
        who = ", ".join(f"{side_name(i, n)} +{p}" for i, p in enumerate(h.points)
                        if p) or "nobody scores"
        made = sum(w for s, w in enumerate(h.tricks_won) if h.is_maker_side(s))
        claim = " (renege claimed)" if h.renege_claimed >= 0 else ""
        out.append(f"  Makers took {made}: {who}{claim}")
    elif h.outcome == "thrown_in":
        out.append("  Thrown in: no score, the deal passes left")
    else:
        out.append("  Misdeal: the same dealer deals again")
    return out


def transcript(name: str) -> str:
    rules = CONFIGS[name]
    m = Match(rules, seed=SEED)
    rng = random.Random(SEED)
    while not m.is_terminal():
        m.apply_action(rng.choice(m.legal_actions()))
    n = rules.players
    lines = [f"# {name}: rules {json.dumps(rules.to_dict(), sort_keys=True)}; seed {SEED}",
             f"First dealer {seat_name(m.first_dealer, n)}"]
    if m.first_dealer_cards:
        lines[-1] += " (black Jack after " + " ".join(
            card_symbol(c) for c in m.first_dealer_cards) + ")"
    for i, f in enumerate(m.finished, 1):
        h = HandState(rules, f.dealer, f.deck)
        for a in f.actions:
            h.apply_action(a)
        lines.append(f"Hand {i}")
        lines += render_hand(h)
        lines.append("  Score: " + ", ".join(
            f"{side_name(s, n)} {v}" for s, v in enumerate(f.scores_after)))
    if m.winner is not None and m.winner >= 0:
        lines.append(f"Winner: {side_name(m.winner, n)}")
    else:
        lines.append("Winner: none")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_golden_transcript(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = transcript(name)
    if os.environ.get("EUCHRE_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with EUCHRE_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), (
        f"{name}: the transcript changed; if the change is intended, regenerate with "
        "EUCHRE_UPDATE_GOLDEN=1 and review the diff"
    )
