"""No connection is ever sent a card its seat could not see at a real table.

Whole games are played with every seat held by a scripted person plus a spectator; afterwards
the game's record (which holds every deck) is replayed to know, after each action, which cards
each seat has held and which are public (up-cards, played cards, and with rows every card lying
face up in a row; a face-down row card is seen by nobody, its owner included). Every card named
anywhere in any message a client received must be one of those for that client."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
import pytest
from webtools import Client, LiveServer

from euchre import actions as A
from euchre.bots import make_bot
from euchre.cards import cards_of, parse_card
from euchre.match import Match
from euchre.phases import PHASES, Phase
from euchre.record import replay_record
from euchre.rules import PRESETS, Rules
from euchre.web import messages as M
from euchre.web.store import SeatData, TableData
from euchre.web.table import SPECTATOR, Table

ASCII_CARD = re.compile(r"(?<![A-Za-z0-9])([789TJQKA][CDHS]|JOKER)(?![A-Za-z0-9])")
SYMBOL_CARD = re.compile(r"(?<![0-9])(10|[789JQKA])([♣♦♥♠])")
SYMBOL_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_named(msg: Any) -> set[int]:
    """Every card a message names, in any string (ASCII or with suit symbols)."""
    found: set[int] = set()

    def walk(v: Any, key: str = "") -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                if k != "table":  # the table's id is random text, not a card
                    walk(x, k)
        elif isinstance(v, list):
            for x in v:
                walk(x, key)
        elif isinstance(v, str):
            for m in ASCII_CARD.finditer(v):
                found.add(parse_card(m.group(1)))
            for m in SYMBOL_CARD.finditer(v):
                found.add(parse_card(m.group(1) + SYMBOL_SUIT[m.group(2)]))
            if "Jkr" in v:
                found.add(parse_card("JOKER"))

    walk(msg)
    return found


def visible_by_seq(rec: dict[str, Any]) -> tuple[list[list[set[int]]], list[set[int]]]:
    """For each number of actions k: the cards each seat has seen, and the public cards."""
    full = replay_record(rec)
    rules = full.rules
    decks = [tuple(parse_card(c) for c in h["deck"]) for h in rec["hands"]]
    m = Match(rules, seed=rec["seed"], first_dealer=rec["first_dealer"], decks=decks)
    n = rules.players
    known: list[set[int]] = [set() for _ in range(n)]
    public: set[int] = set()
    seats_at: list[list[set[int]]] = []
    public_at: list[set[int]] = []

    def look() -> None:
        h = m.hand
        if h.upcard >= 0:
            public.add(h.upcard)
        for s in range(n):
            public.update(h.face_up(s))  # rows: both players see every face-up row card
        for s in range(n):
            known[s] |= set(cards_of(h.hands[s]))
        seats_at.append([set(k) for k in known])
        public_at.append(set(public))

    look()
    actions = [a for h in rec["hands"] for a in h["actions"]]
    from euchre.actions import action_from_str
    for text in actions:
        a = action_from_str(text)
        if 0 <= a <= 32:
            public.add(a)
        m.apply_action(a)
        look()
    return seats_at, public_at


def leaks(client: Client, seat: int, seats_at: list[list[set[int]]],
          public_at: list[set[int]]) -> list[str]:
    out = []
    seq = 0
    for msg in client.messages:
        if msg["type"] == "state":
            seq = msg["seq"]
        allowed = public_at[seq] | (seats_at[seq][seat] if seat >= 0 else set())
        bad = cards_named(msg) - allowed
        if bad:
            out.append(f"seat {seat} got {sorted(bad)} in a {msg['type']} message at seq {seq}")
    return out


VARIANTS: dict[str, dict[str, Any]] = {
    "standard, going alone": {"target": 5},
    "farmer's swap and no-ace-no-face, stick the dealer":
        {"target": 4, "farmers_hand": "swap", "no_ace_no_face": True,
         "stick_the_dealer": True, "deck": 32},
    "defend alone, Canadian loner": {"target": 4, "defend_alone": True,
                                     "canadian_loner": True},
    "Joker deck, renege penalized": {"target": 4, "deck": 25, "renege": "penalize"},
    "cutthroat": {"players": 3, "target": 4},
    "two-handed": {"players": 2, "target": 4},
    # one hand (a rows game to even 1 point can take dozens of hands of random play)
    "two-handed with rows": {"players": 2, "rows": True, "single_hand": True},
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_no_message_names_a_card_its_receiver_may_not_see(sqlite_url: str,
                                                          variant: str) -> None:
    rules = VARIANTS[variant]
    n = rules.get("players", 4)
    rng = random.Random(variant)
    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.create(my_seat=0, rules=rules, seats=[{"kind": "human"}] * n)
        invite = t["invite_url"].split("#invite=")[1]
        tokens = [t["token"]]
        for _ in range(n - 1):
            status, out = srv.post(f"/api/tables/{t['id']}/join", {"invite": invite})
            assert status == 200
            tokens.append(out["token"])
        clients = [srv.connect(t["id"], tok) for tok in tokens]
        spectator = srv.connect(t["id"])
        seq = 0
        while True:
            for c in clients:
                c.at(seq)
            states = [c.state for c in clients]
            assert all(s is not None for s in states)
            if states[0]["finished"]:  # type: ignore[index]
                break
            turn = [i for i, s in enumerate(states) if s and s["legal"]]
            assert len(turn) == 1, "exactly one seat is asked to act"
            s = states[turn[0]]
            assert s is not None
            # rows: bid rather than pass, so the hand is played, not thrown in
            a = rng.choice([x for x in s["legal"] if x["code"].startswith("bid ")]
                           or s["legal"])
            clients[turn[0]].send({"type": "act", "action": a["id"], "seq": seq})
            if rng.random() < 0.02:
                clients[turn[0]].send({"type": "hint"})
            seq += 1
        spectator.until_state(lambda s: s["finished"])
        for c in clients:
            c.drain()
        status, rec = srv.get(f"/api/tables/{t['id']}/record")
        assert status == 200
        seats_at, public_at = visible_by_seq(rec)
        problems = [p for i, c in enumerate(clients) for p in leaks(c, i, seats_at, public_at)]
        problems += leaks(spectator, -1, seats_at, public_at)
        assert not problems, problems[:5]
        # the check looks at real traffic: each seat was shown its own cards
        for i, c in enumerate(clients):
            assert any(cards_named(m) & (seats_at[m["seq"]][i] - public_at[m["seq"]])
                       for m in c.messages if m["type"] == "state")
        for c in [*clients, spectator]:
            c.close()


def test_the_leak_check_catches_another_seats_card() -> None:
    """The scanner is not vacuous: a message naming an unseen card is reported."""
    c = Client.__new__(Client)
    c.messages = [{"type": "state", "seq": 0, "hand": ["9C"], "table": "AC-KD"},
                  {"type": "chat", "text": "I hold the J♥"}]
    seats_at = [[{parse_card("9C")}, {parse_card("JH")}]]
    public_at = [{parse_card("AS")}]
    assert leaks(c, 0, seats_at, public_at) == [
        f"seat 0 got {[parse_card('JH')]} in a chat message at seq 0"]
    assert leaks(c, 1, seats_at, public_at) == [
        f"seat 1 got {[parse_card('9C')]} in a state message at seq 0"]


# The typed builders themselves, every preset and every phase -------------------------------

BUILDER_CASES: dict[str, dict[str, Any]] = {
    **{f"preset {name}": PRESETS[name].to_dict() for name in PRESETS},
    "renege claims and fixes": {**PRESETS["standard"].to_dict(), "target": 3,
                                "renege": "penalize", "renege_fix": True},
    "alone after the discard, defend alone":
        {**PRESETS["standard"].to_dict(), "target": 3, "alone_timing": "after_discard",
         "defend_alone": True, "defend_alone_vs_partners": True},
    "farmer's swap, no ace no face": {**PRESETS["standard"].to_dict(), "target": 3,
                                      "farmers_hand": "swap", "no_ace_no_face": True,
                                      "deck": 32, "stick_the_dealer": True},
}


def builder_messages(table: Table, viewer: int, hint_bot: Any) -> list[Any]:
    """Every message the server builds for ``viewer`` at this moment."""
    out: list[Any] = [table.state_message(viewer)]
    if viewer >= 0:
        view = table.view(viewer)
        if view.legal_actions:
            out.append(M.hint(table.seq, hint_bot.choose(view), hint_bot.explain(view), "rule",
                              view))
    out.append(M.Welcome(viewer, table.id, table.chat, ["rule"], "rule"))
    return out


def test_every_builder_names_only_cards_its_receiver_may_see() -> None:
    """The typed builders alone, without a server: every message built for every seat and for
    a spectator after every action of whole games of every preset (and the rule sets that reach
    the remaining phases) names only cards that receiver may see."""
    phases: set[Phase] = set()
    hint_bot = make_bot("rule", 0)
    for case, rules_dict in BUILDER_CASES.items():
        rules = Rules.from_dict(rules_dict)
        n = rules.players
        for seed in range(2):
            data = TableData(f"t{seed}", 0.0, rules.to_dict(), seed, "invite",
                             [SeatData(i, f"tok{i}", "human", "rule", f"P{i}", True)
                              for i in range(n)], [], None, [])
            table = Table(data)
            rng = random.Random(seed)
            known: list[set[int]] = [set() for _ in range(n)]
            public: set[int] = set()
            for _ in range(300):
                h = table.match.hand
                phases.add(table.seen_by(SPECTATOR).phase)
                if h.upcard >= 0:
                    public.add(h.upcard)
                for s in range(n):
                    public.update(h.face_up(s))
                    known[s] |= set(cards_of(h.hands[s]))
                for viewer in [*range(n), SPECTATOR]:
                    allowed = public | (known[viewer] if viewer >= 0 else set())
                    for msg in builder_messages(table, viewer, hint_bot):
                        bad = cards_named(msgspec.to_builtins(msg)) - allowed
                        assert not bad, (case, seed, viewer, type(msg).__name__, sorted(bad))
                if table.finished:
                    break
                legal = table.match.legal_actions()
                a = rng.choice([x for x in legal if A.is_bid(x)] or legal)
                if 0 <= a <= 32:
                    public.add(a)
                table.apply(table.match.current_player, a)
    assert phases == set(PHASES), set(PHASES) - phases


def test_the_builder_audit_catches_a_leaking_builder() -> None:
    """Not vacuous: a state built from a seat's own view names cards a spectator may not
    see."""
    rules = PRESETS["standard"]
    table = Table(TableData("t", 0.0, rules.to_dict(), 3, "invite",
                            [SeatData(i, f"tok{i}", "human", "rule", f"P{i}", True)
                             for i in range(4)], [], None, []))
    leaked = M.state(table.facts(), table.view(0))
    public = {table.match.hand.upcard}
    assert cards_named(msgspec.to_builtins(leaked)) - public
    assert not cards_named(msgspec.to_builtins(table.state_message(SPECTATOR))) - public
