"""``euchre bots``: the operator's bot accounts (needs the ``web`` extra): add one and show
its token once, list them, give one a new token, revoke one's token. A running ``euchre
serve`` on the same database cuts off the connections of a replaced or revoked token at once
(on PostgreSQL through its processes' bus, on SQLite within a second)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from euchre.cli import Subparsers


def register(sub: Subparsers) -> None:
    p = sub.add_parser("bots", help="bot accounts: programs that play online at euchre serve's "
                                    "tables (add, list, token, revoke)")
    db_help = ("the server's database: sqlite:///PATH or postgresql://user@host/db "
               "(default: euchre serve's, SQLite in the user data directory)")
    p.add_argument("--db", default=None, metavar="URL", help=db_help)
    # ``--db`` also after the action (``euchre bots list --db URL``), where people put it; its
    # default there is left out so that one given before the action is not overwritten.
    after = argparse.ArgumentParser(add_help=False)
    after.add_argument("--db", default=argparse.SUPPRESS, metavar="URL", help=db_help)
    what = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = what.add_parser("add", parents=[after],
                          help="add a bot account and print its token (shown once)")
    add.add_argument("name", metavar="NAME", help="the bot's name at the table (unique among "
                                                  "players, as a person's)")
    add.add_argument("--owner", metavar="ACCOUNT", default=None,
                     help="the account that owns it (it then sees and manages it on its "
                          "account page); default: the operator's")
    listing = what.add_parser("list", parents=[after],
                              help="every bot account, its owner and rating")
    listing.add_argument("--json", action="store_true", help="as JSON")
    token = what.add_parser("token", parents=[after],
                            help="a new token for a bot (printed once); the old one stops "
                                 "working at once")
    token.add_argument("name", metavar="NAME")
    revoke = what.add_parser("revoke", parents=[after],
                             help="revoke a bot's token: its connections are cut off at once; "
                                  "'token' gives it a new one")
    revoke.add_argument("name", metavar="NAME")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        from sqlalchemy.exc import SQLAlchemyError

        from euchre.web import bots as B
        from euchre.web import players as P
        from euchre.web.accounts import name_problem
        from euchre.web.schemas import NAME_MAX, clean_text
        from euchre.web.store import Store, default_db_url
    except ImportError as exc:
        print(f"euchre bots: the web extra is not installed ({exc.name} is missing); install "
              "it with: pip install 'euchre[web]'", file=sys.stderr)
        return 1
    url = args.db or default_db_url()
    try:
        store = Store(url)
    except (SQLAlchemyError, OSError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        print(f"euchre bots: cannot open the database: {reason}", file=sys.stderr)
        return 1
    try:
        if args.action == "list":
            found = B.owned_by(store, None)
            if args.json:
                print(json.dumps([b.public() for b in found], indent=1))
            for b in [] if args.json else found:
                print(_line(b.public()))
            if not found and not args.json:
                print("no bot accounts yet: euchre bots add NAME")
            return 0
        if args.action == "add":
            name = clean_text(args.name, NAME_MAX)
            problem = name_problem(name)
            if problem:
                print(f"euchre bots: {problem}", file=sys.stderr)
                return 2
            owner = None
            if args.owner is not None:
                found_owner = P.account(store, args.owner)
                if found_owner is None:
                    print(f"euchre bots: no account is named {args.owner!r}", file=sys.stderr)
                    return 2
                owner = found_owner[0].id
            try:
                made, secret = B.create(store, name, owner)
            except P.NameTaken:
                print(f"euchre bots: {name!r} reads like another player's name; choose "
                      "another", file=sys.stderr)
                return 2
            except ValueError as exc:
                print(f"euchre bots: {exc}", file=sys.stderr)
                return 2
            print(f"added the bot {made.name}; its token (shown only now: keep it secret, "
                  "give it to its program as EUCHRE_BOT_TOKEN):")
            print(secret)
            return 0
        bot = B.by_name(store, args.name)
        if bot is None:
            print(f"euchre bots: no bot account is named {args.name!r}", file=sys.stderr)
            return 2
        if args.action == "token":
            fresh = B.replace_token(store, bot.id)
            print(f"a new token for {bot.name} (the old one opens nothing now; shown only "
                  "now):")
            print(fresh)
            return 0
        B.replace_token(store, bot.id, revoke=True)
        print(f"revoked {bot.name}'s token: its connections are cut off; 'euchre bots token "
              f"{bot.name}' gives it a new one")
        return 0
    finally:
        store.close()


def _line(b: dict[str, Any]) -> str:
    owner = b["owner"] or "the operator"
    token = "" if b["has_token"] else ", no token (revoked)"
    return f"{b['name']}: {b['rating_text']}, owned by {owner}{token}"
