"""The bidding trainer's page and its positions (``/train-bids``, ``/api/train-bids``).

A position is drawn and valued by :mod:`euchre.analysis.trainer` (a clear bidding position
from games between sound players, every bid played out on the same deals) in the review
workers' pool, below the computer players' priority, never on the event loop; at most
``at_once`` are worked out at a time and at most ``waiting_max`` wait, the rest refused (503).
The same seed gives the same position, so a position can be shared as a link.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping
from concurrent.futures import Executor
from typing import Any

import msgspec

from euchre.rules import PRESETS
from euchre.solver import solvable

__all__ = ["Trainer", "parse_request", "position_job"]

log = logging.getLogger("euchre.web")

#: Positions worked out at once, and how many more may wait.
AT_ONCE = 2
WAITING = 4
#: The presets a position may be drawn from: every one with five-card hands.
TRAINER_PRESETS = tuple(name for name, rules in PRESETS.items() if solvable(rules))


def parse_request(params: Mapping[str, str]) -> tuple[str, int, tuple[int, ...]]:
    """(preset, seed, rounds) from the query string; ``ValueError`` says what is allowed."""
    unknown = sorted(set(params) - {"seed", "round", "preset"})
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0][:20]!r}: a position takes seed "
                         "(a whole number), round (1, 2 or both) and preset "
                         f"({', '.join(TRAINER_PRESETS)})")
    raw = params.get("seed", "0")
    if not re.fullmatch(r"[0-9]{1,9}", raw):
        raise ValueError(f"seed must be a whole number 0..999999999, not {raw[:20]!r}")
    rounds = {"1": (1,), "2": (2,), "both": (1, 2)}.get(params.get("round", "both"))
    if rounds is None:
        raise ValueError(f"round must be 1, 2 or both, not {params.get('round', '')[:20]!r}")
    preset = params.get("preset", "standard")
    if preset not in TRAINER_PRESETS:
        raise ValueError(f"preset must be one of {', '.join(TRAINER_PRESETS)}, not "
                         f"{preset[:20]!r}")
    return preset, int(raw), rounds


def position_job(preset: str, seed: int, rounds: tuple[int, ...]) -> bytes:
    """In the pool: the first clear position for ``seed`` as JSON
    (:func:`euchre.analysis.trainer.trainer_position`), with the table as the seat sees it
    (``moment``, as the review page draws it)."""
    from euchre.analysis.trainer import positions, trainer_position
    from euchre.state import seat_name
    from euchre.web.reviews import moment

    pos = next(positions(PRESETS[preset], seed, rounds))
    out: dict[str, Any] = trainer_position(pos)
    view = pos.view
    out["moment"] = moment(view, [seat_name(s, view.players) for s in range(view.players)],
                           view.seat)
    out["preset"] = preset
    out["seed"] = seed
    return msgspec.json.encode(out)


class Trainer:
    """The bound on positions worked out at once, and the pool they run in."""

    def __init__(self, at_once: int = AT_ONCE, waiting_max: int = WAITING) -> None:
        self.slots = asyncio.Semaphore(at_once)
        self.at_once, self.waiting_max = at_once, waiting_max
        self.admitted = 0

    async def answer(self, pool: Executor, params: Mapping[str, str]) -> tuple[int, bytes]:
        """(HTTP status, body): 200 with a position, 400 for a bad request (what is
        allowed), 503 when too many are being worked out."""
        try:
            preset, seed, rounds = parse_request(params)
        except ValueError as exc:
            return 400, msgspec.json.encode({"error": str(exc)})
        if self.admitted >= self.at_once + self.waiting_max:
            return 503, msgspec.json.encode(
                {"error": "the server is dealing other positions: ask again in a moment"})
        self.admitted += 1
        try:
            async with self.slots:
                body = await asyncio.get_running_loop().run_in_executor(
                    pool, position_job, preset, seed, rounds)
        except Exception as exc:  # a fault of ours: said in words, never as a traceback
            log.error("could not deal a bidding position (seed %d): %r", seed, exc)
            return 500, msgspec.json.encode(
                {"error": "the position could not be worked out; ask for another"})
        finally:
            self.admitted -= 1
        return 200, body
