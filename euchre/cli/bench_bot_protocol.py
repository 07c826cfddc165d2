"""``euchre bench bot-protocol``: what a decision through the bot protocol costs.

The same player decides the same views twice, interleaved decision by decision: in this
process, and as a child process speaking the protocol (``python -m euchre.bots.host
LEVEL``: the view encoded as JSON, sent down a pipe, decoded into a ``SeatView`` there, the
answer sent back and parsed). The difference is the protocol's overhead per decision; the
host's own share (encoding the view, parsing the answer) is timed apart.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import statistics
import sys
import time

from euchre.cli import Subparsers, whole_number
from euchre.rules import PRESETS, Rules, preset


def register(sub: Subparsers) -> None:
    p = sub.add_parser("bot-protocol", help="overhead of a decision through the bot protocol",
                       description=__doc__)
    p.add_argument("--hands", type=whole_number(1, 100_000), default=300,
                   help="hands to play (300)")
    p.add_argument("--level", default="rule",
                   help="the player timed both ways (rule: fast, so the overhead shows)")
    p.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and bots (0)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)


def _ms(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return 1000 * s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def _cpu_seconds(pid: int) -> float | None:
    """CPU time a process used so far (Linux), or None where /proc cannot say."""
    import os

    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def run(args: argparse.Namespace) -> int:
    from euchre.bots import make_bot
    from euchre.bots.protocol import BotFault, stop_all

    rules = preset(args.preset)
    if args.level.startswith("cmd:"):
        return _fail(f"--level {args.level!r} is a program already: this bench times one of "
                     "our players (or a plug-in) both in this process and through the "
                     "protocol, and a program has no in-process twin; euchre check-bot and "
                     "euchre tournament print its decision times")
    try:
        make_bot(args.level, 0)
    except ValueError as exc:
        return _fail(str(exc))
    try:
        return _bench(args, rules)
    except BotFault as fault:  # the served player broke down: one line, no traceback
        return _fail(str(fault))
    finally:
        stop_all()


def _fail(message: str) -> int:
    print(f"euchre bench bot-protocol: {message}", file=sys.stderr)
    return 2


def _bench(args: argparse.Namespace, rules: Rules) -> int:
    from euchre.bots import make_bot
    from euchre.bots.protocol import BotProcess, ProtocolBot, running_pids, view_to_json
    from euchre.state import HandState

    command = shlex.join([sys.executable, "-m", "euchre.bots.host", args.level])
    rng = random.Random(args.seed)
    cpu_local = cpu_remote = 0.0
    local_t: list[float] = []
    remote_t: list[float] = []
    encode_t: list[float] = []
    mismatches = 0
    warm = ProtocolBot(command, 0)
    first = HandState.deal(rules, 0, random.Random(0))
    warm.choose(first.view(first.cur))  # start-up is paid once per run, not per decision
    for h in range(args.hands):
        state = HandState.deal(rules, h % rules.players, rng)
        seed = args.seed * 1000 + h
        local = [make_bot(args.level, seed + s) for s in range(rules.players)]
        remote = [ProtocolBot(command, seed + s) for s in range(rules.players)]
        while not state.is_terminal():
            seat = state.cur
            view = state.view(seat)
            c0 = time.thread_time()
            t0 = time.perf_counter()
            a = local[seat].choose(view)
            t1 = time.perf_counter()
            c1 = time.thread_time()
            b = remote[seat].choose(view)
            t2 = time.perf_counter()
            cpu_local += c1 - c0
            cpu_remote += time.thread_time() - c1
            json.dumps(view_to_json(view), separators=(",", ":"))
            t3 = time.perf_counter()
            local_t.append(t1 - t0)
            remote_t.append(t2 - t1)
            encode_t.append(t3 - t2)
            mismatches += a != b
            state.apply_action(a)
    children = [_cpu_seconds(pid) for pid in running_pids()]
    probe = BotProcess(command)  # what starting one costs, to take out of the figures
    probe.start()
    assert probe.proc is not None
    start_up = _cpu_seconds(probe.proc.pid)
    probe.stop()
    n = len(local_t)
    over = [r - loc for r, loc in zip(remote_t, local_t, strict=True)]
    child: float | None = None
    if start_up is not None and all(c is not None for c in children):
        child = 1000 * sum(c - start_up for c in children if c is not None) / n
    host_cpu, local_cpu = 1000 * cpu_remote / n, 1000 * cpu_local / n
    figures = {
        "level": args.level, "hands": args.hands, "decisions": n,
        "in_process_ms": {"mean": 1000 * statistics.fmean(local_t), "p50": _ms(local_t, 0.5)},
        "protocol_ms": {"mean": 1000 * statistics.fmean(remote_t), "p50": _ms(remote_t, 0.5),
                        "p95": _ms(remote_t, 0.95)},
        "overhead_ms": {"mean": 1000 * statistics.fmean(over), "p50": _ms(over, 0.5)},
        "host_encode_ms": {"mean": 1000 * statistics.fmean(encode_t)},
        "cpu_ms": {"in_process": local_cpu, "host": host_cpu, "bot_process": child},
        "different_answers": mismatches,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"bot protocol, {args.level} both ways: {n} decisions over {args.hands} hands "
          f"({args.preset})")
    print(f"  in process     mean {1000 * statistics.fmean(local_t):.3f} ms, "
          f"p50 {_ms(local_t, 0.5):.3f} ms")
    print(f"  via protocol   mean {1000 * statistics.fmean(remote_t):.3f} ms, "
          f"p50 {_ms(remote_t, 0.5):.3f} ms, p95 {_ms(remote_t, 0.95):.3f} ms")
    print(f"  overhead       mean {1000 * statistics.fmean(over):.3f} ms, "
          f"p50 {_ms(over, 0.5):.3f} ms per decision (of which encoding the view here "
          f"{1000 * statistics.fmean(encode_t):.3f} ms)")
    if child is not None:
        print(f"  CPU time per decision: in process {local_cpu:.3f} ms; via protocol "
              f"{host_cpu:.3f} ms here + {child:.3f} ms in the bot's process (start-up "
              f"excluded): {host_cpu + child - local_cpu:.3f} ms more")
    print(f"  answers that differed: {mismatches} (the same bot and seeds: 0 expected)")
    return 0
