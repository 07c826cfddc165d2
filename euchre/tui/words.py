"""The terminal's alphabet and its words for cards and options, as plain strings.

Kept apart from the drawing so the command layer (:mod:`euchre.tui.commands`) can say "You do
not hold 9♦" or "Type 1 or 2, or one of: pass, order up" without Rich; :mod:`euchre.tui.render`
colours these same words for the screen. An action's words are :mod:`euchre.words`' (the
terminal only writes their suits in its alphabet).
"""

from __future__ import annotations

from dataclasses import dataclass

from euchre.cards import JOKER, RANK_NAMES, SUIT_SYMBOLS
from euchre.rules import Rules


@dataclass(frozen=True, slots=True)
class Glyphs:
    """The characters the screen uses: Unicode suits and pips, or plain ASCII (``--ascii``)."""

    suits: str
    rule: str
    pip: str
    no_pip: str
    back: str
    dot: str
    arrow: str

    def translate(self, text: str) -> str:
        """Rewrite suit symbols in library text (error messages, hints) into this alphabet."""
        return text.translate(str.maketrans(SUIT_SYMBOLS, self.suits))

    @property
    def red(self) -> str:
        """The symbols of the red suits (diamonds, hearts), which the screen colours."""
        return self.suits[1:3]


UNICODE = Glyphs(suits=SUIT_SYMBOLS, rule="─", pip="●", no_pip="○", back="▒", dot="·", arrow="▸")
ASCII = Glyphs(suits="CDHS", rule="-", pip="o", no_pip=".", back="#", dot="|", arrow=">")


def card_plain(c: int, g: Glyphs) -> str:
    if c == JOKER:
        return "Jkr"
    return RANK_NAMES[c & 7] + g.suits[c >> 3]


def card_error(message: str, rules: Rules) -> str:
    """The library's "is not a card" message, without the Joker when the deck has none."""
    if rules.deck == 25:
        return message
    return message.replace(", or JOKER", "").replace(" or JOKER", "")


__all__ = ["ASCII", "UNICODE", "Glyphs", "card_error", "card_plain"]
