"""``euchre play``: the terminal game. (Minimal watch mode until the terminal UI lands.)"""

from __future__ import annotations

import argparse
import random

from euchre.match import Match
from euchre.rules import PRESETS, preset


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--watch", action="store_true", help="all-computer game")
    p.set_defaults(func=run_play)


def run_play(args: argparse.Namespace) -> int:
    from euchre.cli.replay import describe_record

    m = Match(preset(args.preset), seed=args.seed)
    rng = random.Random(m.seed)
    while not m.is_terminal():
        la = m.legal_actions()
        m.apply_action(rng.choice(la))
    print(describe_record(m))
    return 0
