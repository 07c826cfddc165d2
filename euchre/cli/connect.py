"""``euchre connect SPEC --server URL``: play any bot (a level, a plug-in, a ``cmd:`` program)
at a server's tables as its bot account (docs/writing-a-bot.md#online)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from euchre.cli import Subparsers, whole_number
from euchre.cli.play import add_rules_arguments, build_rules
from euchre.errors import RulesError
from euchre.rules import Rules


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
    where = p.add_mutually_exclusive_group()
    where.add_argument("--play-now", action="store_true",
                       help="ask the server's Play now for a seat whenever a connection is "
                            "free (where its operator allows bots: euchre serve --bots "
                            "allowed), with the players waiting for the rules the rules flags "
                            "give (none: the rules most players wait for), else at a new "
                            "table computers fill (default: wait to be invited)")
    where.add_argument("--table", default=None, metavar="ID",
                       help="take a free seat at this open table of the server's lobby "
                            "(GET /api/lobby lists them) and play its game (an id beginning "
                            "with - is written --table=ID)")
    p.add_argument("--seat", type=whole_number(0, 5), default=None, metavar="N",
                   help="with --table: that seat (default: its first free one)")
    add_rules_arguments(p, default_preset=None)
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
    try:
        request = _request(args)
    except (ValueError, RulesError) as exc:
        print(f"euchre connect: {exc}", file=sys.stderr)
        return 2
    max_games = args.max_games if args.table is None else 1  # that table's one game
    return play_online(args.spec, args.server, token.strip(), games=args.games,
                       max_games=max_games, request=request)


def _request(args: argparse.Namespace) -> dict[str, Any] | None:
    """What each free connection asks the server for (None: it waits to be invited)."""
    from euchre.bots.online import join_request, play_now_request

    changed = bool(args.scoring) or any(
        getattr(args, o.name) is not None for o in Rules.options() if o.kind != "group")
    if args.seat is not None and args.table is None:
        raise ValueError("--seat goes with --table ID (a seat at that open table)")
    if (changed or args.preset) and not args.play_now:
        raise ValueError("the rules flags go with --play-now (a table's rules are its own)")
    if args.table is not None:
        if args.games != 1:
            raise ValueError("--table plays that table's one game: on one connection")
        return join_request(args.table, args.seat)
    if not args.play_now:
        return None
    return play_now_request(args.preset or "", build_rules(args).to_dict() if changed
                            else None)
