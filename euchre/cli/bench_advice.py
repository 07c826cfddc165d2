"""``euchre bench advice``: the hint measured against a reference set valued with many deals.

``--build`` plays games between the bots under every preset the solver plays, picks decisions
of every kind (bids of both rounds, alone calls, discards, declarations, card plays) and values
every option of each on the same ``--deals`` deals, writing the set to ``--reference`` after
each decision: an interrupted build (or one stopped by ``--minutes``) goes on where it stopped
when run again with the same settings. Without ``--build`` the hint answers every decision of
the set and is scored: how often its first choice is the reference's where the reference
separates the options beyond its error, how often it says "close call" where the reference
does not, and how long it takes a decision (p50, p95); then the hint is asked a constructed
true tie (:func:`euchre.analysis.reference.tie_state`) ``--tie-asks`` times, and every firm
answer it gives there is counted (the stopping rule promises at most 5%).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from pathlib import Path

from euchre.cli import Subparsers, whole_number


def register(sub: Subparsers) -> None:
    from euchre.analysis.reference import DEFAULT_DEALS, DEFAULT_DECISIONS

    p = sub.add_parser(
        "advice", help="the hint against a reference set (agreement, close calls, time per "
        "decision)",
        description="Score the hint against a reference set of decisions valued with many "
                    "deals: how often its first choice is the reference's where the reference "
                    "separates the options beyond its error, how often it says close call "
                    "where the reference does not, and its time per decision (p50, p95); "
                    "then how often it answers a constructed true tie firmly, asked "
                    "--tie-asks times. "
                    "With --build, make the set instead: games between the bots under every "
                    "preset the solver plays, decisions of every kind (bids of both rounds, "
                    "alone calls, discards, card plays), every option valued on the same "
                    "--deals deals; the file is rewritten after each decision, so a build "
                    "stopped (or cut by --minutes) goes on when run again with the same "
                    "settings.")
    p.add_argument("--reference", default=None, metavar="FILE",
                   help="the reference set (default: the one shipped with euchre; --build "
                        "needs a file)")
    p.add_argument("--build", action="store_true",
                   help="build (or go on building) the reference set into --reference")
    p.add_argument("--decisions", type=whole_number(1, 100_000), default=DEFAULT_DECISIONS,
                   metavar="N", help=f"decisions in the set ({DEFAULT_DECISIONS})")
    p.add_argument("--deals", type=whole_number(8, 100_000), default=DEFAULT_DEALS,
                   metavar="N", help=f"deals valued per decision ({DEFAULT_DEALS})")
    p.add_argument("--minutes", type=float, default=None, metavar="M",
                   help="stop building after about this long (resume later)")
    p.add_argument("--seed", type=int, default=0, help="seed of the games and deals (0)")
    p.add_argument("--tie-asks", type=whole_number(0, 100_000), default=200, metavar="N",
                   help="times the hint is asked the constructed true tie (200; 0: none)")
    p.add_argument("--json", action="store_true", help="print the measurement as JSON")
    p.set_defaults(func=run)


def _fail(msg: str) -> int:
    print(f"euchre bench advice: {msg}", file=sys.stderr)
    return 2


def _write(path: Path, data: dict[str, object]) -> None:
    """Replace ``path`` whole (a build stopped mid-write leaves the last complete file)."""
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps(data, separators=(",", ":")).replace('{"preset"', '\n{"preset"')
                   + "\n", encoding="utf-8")
    os.replace(tmp, path)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from euchre.analysis.assess import FIRM_ALPHA
    from euchre.analysis.reference import (
        DEFAULT_PRESETS,
        Reference,
        ReferenceFileError,
        build,
        check,
        check_to_json,
        collect,
        kinds_of,
        load_reference,
        reference_to_json,
        tie_rate,
    )

    if args.minutes is not None and not 0 < args.minutes <= 24 * 60:
        return _fail(f"--minutes must be more than 0 and at most {24 * 60}")
    path = None if args.reference is None else Path(args.reference)
    ref: Reference | None = None
    try:
        if path is None:
            if args.build:
                return _fail("--build needs --reference FILE to write")
            ref = load_reference()
        elif path.exists():
            ref = load_reference(path.read_text(encoding="utf-8"))
    except OSError as exc:
        return _fail(f"cannot read {path}: {exc.strerror}")
    except (ReferenceFileError, UnicodeDecodeError) as exc:
        return _fail(f"{path or 'the shipped set'}: {exc}")
    err = Console(stderr=True)
    if args.build:
        assert path is not None
        fresh = Reference(args.seed, args.deals, args.decisions, DEFAULT_PRESETS)
        if ref is None:
            ref = fresh
        elif (ref.seed, ref.deals, ref.decisions, ref.presets) != (
                fresh.seed, fresh.deals, fresh.decisions, fresh.presets):
            return _fail(f"{path} was built with --seed {ref.seed} --deals {ref.deals} "
                         f"--decisions {ref.decisions}: give those to go on, or a new file")
        spots = collect(ref.decisions, ref.seed, ref.presets)

        def save(r: Reference) -> None:
            _write(path, reference_to_json(r))

        try:
            save(ref)
            with Progress(console=err) as bar:
                task = bar.add_task("valuing decisions", total=len(spots),
                                    completed=len(ref.entries))
                ref = build(ref, spots, seconds=None if args.minutes is None
                            else 60 * args.minutes, save=save,
                            progress=lambda: bar.advance(task))
        except OSError as exc:
            return _fail(f"cannot write {path}: {exc.strerror}")
        except ReferenceFileError as exc:
            return _fail(f"{path}: {exc}")
        kinds = ", ".join(f"{k} {n}" for k, n in kinds_of(ref.entries).items())
        print(f"{len(ref.entries)} of {len(spots)} decisions valued with {ref.deals} deals "
              f"each ({kinds}) in {path}")
        return 0
    if ref is None:
        return _fail(f"{path} does not exist: build it first with --build")
    if not ref.entries:
        return _fail("the reference set holds no decisions")
    with Progress(console=err, transient=True) as bar:
        task = bar.add_task("asking the hint", total=len(ref.entries))
        res = check(ref, progress=lambda: bar.advance(task))
        tie = None
        if args.tie_asks:
            ties = bar.add_task("asking a true tie", total=args.tie_asks)
            tie = tie_rate(args.tie_asks, progress=lambda: bar.advance(ties))
    if args.json:
        out = check_to_json(res)
        if tie is not None:
            out["tie"] = {"asks": tie.asks, "firm": tie.firm, "firm_rate": round(tie.rate, 4),
                          "seconds_p50": round(statistics.median(tie.seconds), 4)}
        print(json.dumps(out, indent=1))
        return 0

    def pct(a: int, b: int) -> str:
        return f"{100 * a / b:.1f}%" if b else "n/a"

    print(f"Reference: {res.decisions} decisions, {ref.deals} deals each (seed {ref.seed}).")
    print(f"  Separated beyond the error: {res.separated}; the hint's first choice is the "
          f"reference's in {res.agree} ({pct(res.agree, res.separated)}), and it said close "
          f"call in {res.separated_but_close} of them.")
    print(f"    Of the {res.separated - res.agree} it chose otherwise, it gave "
          f"{res.sure_but_wrong} as a firm answer (not a close call).")
    for k, (s, a) in res.by_kind.items():
        print(f"    {k}: {a} of {s} ({pct(a, s)})")
    print(f"  Not separated: {res.unseparated}; the hint said close call in {res.close} "
          f"({pct(res.close, res.unseparated)}).")
    print(f"  Hint time per decision: p50 {res.p50:.2f} s, p95 {res.p95:.2f} s.")
    if tie is not None:
        hi = _upper95(tie.firm, tie.asks)
        print(f"A true tie (two aces equal by construction), asked {tie.asks} times: firm "
              f"{tie.firm} times ({100 * tie.rate:.1f}%, at most {100 * hi:.1f}% at 95% "
              f"confidence; the rule promises at most {100 * FIRM_ALPHA:.0f}%), p50 "
              f"{statistics.median(tie.seconds):.2f} s an ask.")
    return 0


def _upper95(k: int, n: int) -> float:
    """The one-sided 95% upper bound of a rate seen ``k`` times in ``n`` (Clopper-Pearson)."""
    if k >= n:
        return 1.0
    lo, hi = k / n, 1.0
    for _ in range(60):  # the rate whose chance of k or fewer in n is 5%
        mid = (lo + hi) / 2
        below = sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                             + i * math.log(mid) + (n - i) * math.log1p(-mid))
                    for i in range(k + 1))
        lo, hi = (mid, hi) if below > 0.05 else (lo, mid)
    return hi
