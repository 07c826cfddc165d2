"""Fifty textbook bidding positions: what published Euchre guidance says, and what a policy does.

The positions live in ``euchre/bots/data/textbook-bids.json`` (the guidance paraphrased, the
bids it allows, and whether it leaves no doubt). They are a check on the learned bidding that
the simulated deals cannot give: a model fitted to noisy outcomes can be right on average and
still wrong on a hand every book agrees on. The test holds the shipped policy to the clear
positions; the docs table shows what it does with all fifty.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from euchre import actions as A
from euchre.analysis.advice import bidding_view
from euchre.cards import SUIT_LETTERS, parse_card, parse_suit
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.view import SeatView

RESOURCE: Final = "textbook-bids.json"
#: The dealer of every position (any seat would do: the positions are written relative to it).
DEALER: Final = 3


@dataclass(frozen=True, slots=True)
class TextbookPosition:
    """One position: ``seat`` 1 is the eldest, 4 the dealer; every earlier seat passed."""

    id: int
    round: int
    seat: Seat
    hand: str
    upcard: str
    rules: Rules
    expect: tuple[int, ...]
    """The actions the guidance allows."""
    clear: bool
    """The guidance leaves no doubt (the test holds the policy to these)."""
    guidance: str

    def view(self) -> SeatView:
        hand = [parse_card(c) for c in self.hand.split()]
        return bidding_view(self.rules, hand, parse_card(self.upcard),
                            (DEALER + self.seat) % 4, DEALER, self.round)


def _action(word: str, round_: int) -> int:
    """``pass``, ``order``, ``alone`` (round one) or ``call:S`` / ``alone:S`` (round two)."""
    if word == "pass":
        return A.PASS
    if round_ == 1 and word in ("order", "alone"):
        return A.ORDER if word == "order" else A.ORDER_ALONE
    kind, _, suit = word.partition(":")
    if round_ == 2 and kind in ("call", "alone") and suit in SUIT_LETTERS:
        return A.call(parse_suit(suit), kind == "alone")
    raise ValueError(f"{word!r} is not a round-{round_} bid of the textbook positions")


def action_word(action: int) -> str:
    """The file's word for a bid (the inverse of :func:`_action`)."""
    if action == A.PASS:
        return "pass"
    if action in (A.ORDER, A.ORDER_ALONE):
        return "order" if action == A.ORDER else "alone"
    alone = action >= A.CALL_ALONE_BASE
    suit = action - (A.CALL_ALONE_BASE if alone else A.CALL_BASE)
    return f"{'alone' if alone else 'call'}:{SUIT_LETTERS[suit]}"


def parse_positions(data: dict[str, Any]) -> list[TextbookPosition]:
    out = []
    for p in data["positions"]:
        rules = dataclasses.replace(Rules(), **p.get("rules", {}))
        round_ = int(p["round"])
        out.append(TextbookPosition(
            int(p["id"]), round_, int(p["seat"]), str(p["hand"]), str(p["upcard"]), rules,
            tuple(_action(w, round_) for w in p["expect"]), bool(p["clear"]),
            str(p["guidance"])))
    return out


@cache
def textbook_positions() -> tuple[TextbookPosition, ...]:
    """The shipped positions, read once."""
    text = resources.files("euchre.bots").joinpath("data", RESOURCE).read_text()
    return tuple(parse_positions(json.loads(text)))


__all__ = ["TextbookPosition", "action_word", "parse_positions", "textbook_positions"]
