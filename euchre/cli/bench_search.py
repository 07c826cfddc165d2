"""``euchre bench search``: how long the search player takes to decide, at a given budget.

Plays hands with the search player in every seat and times every decision it takes (wall clock
and this process's CPU time, which a busy shared machine inflates less), split into bidding
decisions (played-out rollouts) and card play (double-dummy solving of sampled deals). The
rule-based player decides the same views in the same run, interleaved hand by hand, as the
named peer. Forced moves (one legal action) are not counted: they cost nothing.
"""

from __future__ import annotations

import argparse
import random
import time

from euchre.cli import Subparsers
from euchre.phases import Phase
from euchre.rules import PRESETS, preset
from euchre.state import HandState


def register(sub: Subparsers) -> None:
    p = sub.add_parser("search", help="decision time of the search player (mean, p50, p95, max)",
                       description=__doc__)
    p.add_argument("--hands", type=_hands, default=12, help="hands to play (12)")
    p.add_argument("--think", default=None,
                   help="budget: deals per decision or a time such as 0.5s (the default level)")
    p.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and bots (0)")
    p.set_defaults(func=run)


def _hands(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 10_000:
        raise argparse.ArgumentTypeError(f"must be a whole number of hands 1..10000, not {text}")
    return int(text)


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def run(args: argparse.Namespace) -> int:
    from euchre.bots import make_bot
    from euchre.bots.search import parse_think

    try:
        think = parse_think(args.think)
    except ValueError as exc:
        print(f"euchre bench search: {exc}")
        return 2
    rules = preset(args.preset)
    from euchre.solver import BACKEND
    rng = random.Random(args.seed)
    wall: dict[str, list[float]] = {"bid": [], "play": []}
    cpu: dict[str, list[float]] = {"bid": [], "play": []}
    peer: list[float] = []
    for h in range(args.hands):
        state = HandState.deal(rules, h % rules.players, rng)
        bots = [make_bot("search", args.seed * 100 + h * 10 + s, think=think)
                for s in range(rules.players)]
        rule = make_bot("rule", 0)
        while not state.is_terminal():
            view = state.view(state.cur)
            t0, c0 = time.perf_counter(), time.process_time()
            action = bots[state.cur].choose(view)
            t1, c1 = time.perf_counter(), time.process_time()
            if len(view.legal_actions) > 1:
                kind = "play" if view.phase == Phase.PLAY else "bid"
                wall[kind].append(t1 - t0)
                cpu[kind].append(c1 - c0)
                p0 = time.perf_counter()
                rule.choose(view)
                peer.append(time.perf_counter() - p0)
            state.apply_action(action)
    print(f"search player, think={think}, solver backend {BACKEND}, {args.hands} hands of "
          f"{args.preset}")
    print(f"{'decisions':>20} {'n':>5} {'mean ms':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
          f"{'cpu mean':>8} {'cpu p50':>8} {'cpu p95':>8}")
    for kind in ("bid", "play", "all"):
        w = wall["bid"] + wall["play"] if kind == "all" else wall[kind]
        c = cpu["bid"] + cpu["play"] if kind == "all" else cpu[kind]
        print(f"{kind:>20} {len(w):>5} {1000 * _mean(w):>8.1f} {1000 * _pct(w, 0.5):>8.1f} "
              f"{1000 * _pct(w, 0.95):>8.1f} {1000 * max(w, default=0):>8.1f} "
              f"{1000 * _mean(c):>8.1f} {1000 * _pct(c, 0.5):>8.1f} {1000 * _pct(c, 0.95):>8.1f}")
    allw = wall["bid"] + wall["play"]
    if peer and allw:
        ratio = _pct(allw, 0.5) / max(_pct(peer, 0.5), 1e-9)
        print(f"peer: the rule player on the same views, p50 {1000 * _pct(peer, 0.5):.3f} ms "
              f"(search/rule {ratio:,.0f}x)")
    return 0
