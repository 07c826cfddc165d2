"""Every decision of the search family on fixed seeds, with the numbers behind it: the record
that proves a change to how the search player samples and values its deals leaves its play
exactly as it was (``tests/golden/search-decisions.json``, checked by
``test_search_bot.py``).

Written by the code before such a change and never by hand::

    .venv/bin/python tests/search_golden.py > tests/golden/search-decisions.json
"""

from __future__ import annotations

import hashlib
import json
import sys

from euchre.bots import make_bot
from euchre.match import Match
from euchre.rules import PRESETS, Rules

#: The search family, each with a small deal budget (a deal count: deterministic).
LEVELS: tuple[str, ...] = ("search", "search-rollout", "pimc-naive", "pimc-full",
                           "pimc-uniform")
THINK = 6
#: Decisions recorded per (preset, level): a hand or two, bids and cards alike.
DECISIONS = 40


def _digest(text: str) -> str:
    """An explanation's fingerprint (the words themselves would make the file large)."""
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def decisions(preset: str, level: str) -> list[list[object]]:
    """[seat, action, [[option, value, points, tricks], ...], the explanation's digest] of
    the first :data:`DECISIONS` decisions of a game between ``level`` players."""
    rules: Rules = PRESETS[preset]
    seed = sum(map(ord, preset + level))
    m = Match(rules, seed=seed)
    bots = [make_bot(level, seed + s, think=THINK) for s in range(rules.players)]
    out: list[list[object]] = []
    while not m.is_terminal() and len(out) < DECISIONS:
        seat = m.current_player
        view = m.view(seat)
        an = bots[seat].analyse(view)  # type: ignore[attr-defined]
        out.append([seat, an.action,
                    [[o.action, round(o.value, 9), round(o.points, 9),
                      None if o.tricks is None else round(o.tricks, 9)] for o in an.options],
                    _digest(bots[seat].explain(view))])
        m.apply_action(an.action)
    return out


def record() -> dict[str, list[list[object]]]:
    return {f"{p}/{lv}": decisions(p, lv) for p in PRESETS for lv in LEVELS}


if __name__ == "__main__":
    json.dump(record(), sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
