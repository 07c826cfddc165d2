"""Serve one of this package's players over the bot protocol: ``python -m euchre.bots.host
LEVEL`` (or any spec ``make_bot`` accepts). Used to measure the protocol's overhead against
the same player in-process, and as a reference opponent for a bot author's own host.

It lives apart from :mod:`euchre.bots.protocol` because it needs the registry, which itself
starts ``cmd:`` programs through the protocol: one direction of import each way.
"""

from __future__ import annotations

import sys

from euchre.bots.protocol import serve
from euchre.bots.registry import claims_determinism, make_bot


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m euchre.bots.host LEVEL", file=sys.stderr)
        return 2
    spec = args[0]
    try:
        probe = make_bot(spec, 0)
    except ValueError as exc:  # the host's diagnosis quotes the log this line goes to
        print(f"python -m euchre.bots.host: {exc}", file=sys.stderr)
        return 2
    return serve(lambda seed: make_bot(spec, seed), spec,
                 deterministic=claims_determinism(spec, probe))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
