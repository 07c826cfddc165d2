"""`rule` and the frozen `rule-v1` decide exactly as they did: a digest of every decision over
hundreds of seeded games under every preset, checked in (tests/golden/rule-decisions.json).

`rule-v1` is a measured baseline: a margin against it is reproducible only while it plays the
same, whatever the code that carries it. Regenerate only for a deliberate change of `rule`
(never of `rule-v1`): ``EUCHRE_UPDATE_GOLDEN=1 pytest tests/test_rule_identity.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from euchre.bots import RandomBot, make_bot
from euchre.match import Match
from euchre.rules import PRESETS, Rules

GOLDEN = Path(__file__).parent / "golden" / "rule-decisions.json"
GAMES = 40
CONFIGS: dict[str, Rules] = {
    **PRESETS,
    "house": Rules(defend_alone=True, canadian_loner=True, farmers_hand="swap",
                   no_ace_no_face=True, renege="penalize", renege_fix=True, target=5),
    "sticky-32": Rules(stick_the_dealer=True, deck=32, farmers_hand="redeal", target=7),
}


def digest(level: str, name: str, rules: Rules) -> str:
    """Every decision of ``level`` over seeded games in which it holds seats 0 and 2 (the others
    a random player, so that odd situations come up), hashed."""
    h = hashlib.sha256()
    for game in range(GAMES):
        m = Match(rules, seed=game)
        rng = random.Random(game)
        bots = [make_bot(level, game * 10 + s) if s % 2 == 0 else RandomBot(rng.randrange(99))
                for s in range(rules.players)]
        while not m.is_terminal():
            seat = m.current_player
            action = bots[seat].choose(m.view(seat))
            if seat % 2 == 0:
                h.update(action.to_bytes(2, "little", signed=True))
            m.apply_action(action)
    return h.hexdigest()[:24]


def current() -> dict[str, dict[str, str]]:
    return {level: {name: digest(level, name, rules) for name, rules in CONFIGS.items()}
            for level in ("rule-v1", "rule")}


def test_rule_and_rule_v1_make_the_same_decisions_as_ever() -> None:
    got = current()
    if os.environ.get("EUCHRE_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, indent=2, sort_keys=True) + "\n")
        pytest.skip("golden digests rewritten")
    assert got == json.loads(GOLDEN.read_text())
