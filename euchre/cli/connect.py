"""``euchre connect SPEC --server URL``: play any bot (a level, a plug-in, a ``cmd:`` program)
at a server's tables as its bot account (docs/writing-a-bot.md#online)."""

from __future__ import annotations

import argparse
import os
import sys

from euchre.cli import Subparsers, whole_number


def register(sub: Subparsers) -> None:
    p = sub.add_parser("connect", help="play a bot online at a euchre serve's tables, as its "
                                       "bot account")
    p.add_argument("spec", metavar="SPEC",
                   help="the bot: a level, package.module:factory, file.py:factory or "
                        "'cmd:COMMAND LINE' (its lines pass through unchanged)")
    p.add_argument("--server", required=True, metavar="URL",
                   help="the server's address, as browsed: http://127.0.0.1:8000")
    p.add_argument("--token", default=None, metavar="TOKEN",
                   help="the bot account's token (default: $EUCHRE_BOT_TOKEN, which no "
                        "process list shows)")
    p.add_argument("--games", type=whole_number(1, 64), default=1, metavar="N",
                   help="connections at once, a game each (default 1; the server allows a "
                        "few, --bot-connections)")
    p.add_argument("--max-games", type=whole_number(1, 10**9), default=None, metavar="N",
                   help="stop once N games are over (default: play until stopped)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from euchre.bots.registry import check_spec

    try:
        from euchre.bots.online import TOKEN_ENV, bot_url, play_online
    except ImportError as exc:  # pragma: no cover - websockets comes with the online extra
        print(f"euchre connect: needs the online extra ({exc.name} is missing): pip install "
              "'euchre[online]'", file=sys.stderr)
        return 1
    token = args.token or os.environ.get(TOKEN_ENV, "")
    if not token.strip():
        print(f"euchre connect: give the bot's token with --token or in ${TOKEN_ENV} "
              "(euchre bots add NAME, or the account page, makes one)", file=sys.stderr)
        return 2
    try:
        check_spec(args.spec)
        bot_url(args.server)
    except ValueError as exc:
        print(f"euchre connect: {exc}", file=sys.stderr)
        return 2
    if args.spec.startswith("openspiel:"):
        print("euchre connect: an openspiel: bot plays only in euchre tournament",
              file=sys.stderr)
        return 2
    return play_online(args.spec, args.server, token.strip(), games=args.games,
                       max_games=args.max_games)
