"""``euchre proxy-config``: the shipped nginx configuration, rendered for given server
processes (docs/deploying.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from euchre.cli import Subparsers, whole_number


def register(sub: Subparsers) -> None:
    p = sub.add_parser("proxy-config",
                       help="print the nginx configuration for several server processes")
    p.add_argument("--upstream", action="append", default=[], metavar="HOST:PORT",
                   help="a server process (euchre serve) behind nginx; repeat for each")
    p.add_argument("--listen", default="8080", metavar="[ADDRESS:]PORT",
                   help="where nginx listens (default 8080, every address)")
    p.add_argument("--max-fails", type=whole_number(1, 100), default=1, metavar="N",
                   help="failed HTTP connections after which a process is skipped "
                        "(default 1)")
    p.add_argument("--fail-timeout", type=whole_number(1, 3600), default=1, metavar="SECONDS",
                   help="how long a process that failed an HTTP request is skipped before "
                        "one is tried on it again (default 1; websockets are never held off "
                        "a process)")
    p.add_argument("--standalone", type=Path, default=None, metavar="DIR",
                   help="a whole nginx.conf keeping its pid, logs and temporary files in DIR "
                        "(runs without root: nginx -p DIR -c DIR/nginx.conf -e DIR/error.log); "
                        "default: the part for /etc/nginx/conf.d/")
    p.add_argument("-o", "--output", type=Path, default=None, metavar="FILE",
                   help="write the configuration to FILE (default: print it)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from euchre.web.proxy import ProxyPlan, render_site, render_standalone

    try:
        plan = ProxyPlan(args.listen, tuple(args.upstream), args.max_fails, args.fail_timeout)
        if args.standalone is not None:
            text = render_standalone(plan, args.standalone)
        else:
            text = render_site(plan)
    except (ValueError, OSError) as exc:
        print(f"euchre proxy-config: {exc}", file=sys.stderr)
        return 2
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        args.output.write_text(text)
    except OSError as exc:
        print(f"euchre proxy-config: cannot write {args.output}: {exc.strerror}",
              file=sys.stderr)
        return 1
    return 0
