"""The end-of-hand review: every hand as dealt, the kitty, the bidding, each trick and the points.

Shown once a hand is over (when nothing is hidden any more), on request at the "next hand"
prompt and by default after a euchre or a lone hand, the hands a player most wants to look
back on. Built from the finished :class:`~euchre.state.HandState`, which the terminal only
holds; nothing here runs while the hand is in play.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from euchre import actions as A
from euchre.cards import cards_of, sort_hand
from euchre.narrate import STAGE_TITLES, bidding_segments, staged
from euchre.phases import Phase
from euchre.state import HandState
from euchre.tui.commands import Seating
from euchre.tui.render import Glyphs, card_text, wrap_text
from euchre.words import Who


def _fold(t: Text, width: int) -> list[Text]:
    """One line when it fits, else word-wrapped with its indent kept (and continuation lines
    indented two more), so a long kitty or bidding line still reads as one entry."""
    if t.cell_len <= width:
        return [t]
    indent = len(t.plain) - len(t.plain.lstrip(" "))
    body = t[indent:]
    out = []
    for i, ln in enumerate(wrap_text(body, width - indent - 2)):
        out.append(Text(" " * (indent + (2 if i else 0))).append_text(ln))
    return out


def result_lines(h: HandState, seating: Seating, g: Glyphs, scores: list[int],
                 width: int = 79) -> list[Text]:
    """What a finished hand came to, in words: who made what, the points, then the score."""
    plain = seating.plain
    if h.outcome == "thrown_in":
        t = Text("Everyone passed: the hand is thrown in and the deal passes left.")
    elif h.outcome == "misdeal":
        t = Text("A misdeal was called: the same dealer deals again.")
    else:
        mk = h.maker
        made = h.maker_tricks()
        bid = h.contract
        t = Text(f"{plain(mk)} " + (f"bid {bid}, named " if bid else "made "))
        t.append_text(Text(g.suits[h.trump], style="bold red" if h.trump in (1, 2)
                           else "bold"))
        if h.alone:
            t.append(" alone")
        t.append(f" and took {made} trick{'s' if made != 1 else ''}")
        if h.renege_claimed >= 0:
            claimant_makers = h.is_maker_side(h.renege_claimed)
            by = [s for s, _, _ in h.reneges if h.is_maker_side(s) != claimant_makers]
            names = ", ".join(dict.fromkeys(plain(s) for s in by))
            t.append(f"; {plain(h.renege_claimed)} proved a renege by "
                     + names.replace("You", "you"))
        elif bid:  # two-handed with rows: a point a trick past six, if the bid is made
            t.append(": the bid is made" if made >= bid else ": short of the bid")
        elif made < 3:
            t.append(": euchred")
        elif made == 5:
            t.append(": a march")
        pts = [f"{seating.side_long(s)} {p:+d}" for s, p in enumerate(h.points) if p]
        t.append(". " + (", ".join(pts) + "." if pts else "Nobody scores."))
        failed = [s for s, a in h.history if a == A.CLAIM_RENEGE and s != h.renege_claimed]
        for s in failed:
            t.append(f" {plain(s)} claimed a renege, but the other side "
                     "followed suit: no change.")
    return [*wrap_text(t, width), Text("Score: " + seating.score_words(scores))]


def worth_reviewing(h: HandState) -> bool:
    """A euchre or a lone hand: reviewed without being asked."""
    if h.outcome != "scored" or h.maker < 0:
        return False
    return h.alone or h.lone_defender >= 0 or h.maker_tricks() < 3


def review_lines(h: HandState, hand_no: int, name: Callable[[int], str],
                 short: Callable[[int], str], g: Glyphs, result: list[Text],
                 width: int = 79, who: Callable[[int], Who] | None = None) -> list[Text]:
    """The review screen's lines, at most ``width`` columns each; ``who``: each seat as the
    subject of a sentence ("You pass"), by default named by ``name``."""
    n = h.n
    trump = h.trump if h.trump < 4 else 4
    head = Text("Euchre", style="bold").append(f" {g.dot} ")
    lines: list[Text] = [head.append(f"review of hand {hand_no}", style="bold")]
    label_w = max(len(name(s)) for s in range(n)) + 1
    for s in range(n):
        t = Text(f"  {name(s):<{label_w}}", style="bold")
        cards = sort_hand(cards_of(h.initial_hands[s]), trump)
        t.append_text(Text(" ").join(card_text(c, g, trump, mark_bowers=True) for c in cards))
        if s == h.dealer:
            t.append("  dealer", style="dim")
        lines.extend(_fold(t, width))
    if h.columns:  # two-handed with rows: no up-card or kitty, the rows as dealt
        for s in range(n):
            t = Text(f"  {name(s)} row: ", style="bold")
            for k, (top, under) in enumerate(h.columns[s]):
                t.append("  " if k else "").append_text(card_text(top, g, trump))
                t.append(" on ", style="dim").append_text(card_text(under, g, trump))
            lines.extend(_fold(t, width))
    else:
        kitty = Text("  Kitty: ", style="bold").append_text(card_text(h.upcard, g))
        kitty.append(" (up-card)", style="dim")
        for c in h.deck[5 * n + 1:]:
            kitty.append(" ").append_text(card_text(c, g))
        if h.discarded >= 0:
            kitty.append(f"; {name(h.dealer)} discarded ", style="dim").append_text(
                card_text(h.discarded, g))
        if h.swapper >= 0:
            kitty.append(f"; {name(h.swapper)} swapped", style="dim")
            for c in h.swap_given:
                kitty.append(" ").append_text(card_text(c, g))
            kitty.append(" for", style="dim")
            for c in h.deck[5 * n + 1:5 * n + 4]:
                kitty.append(" ").append_text(card_text(c, g))
        lines.extend(_fold(kitty, width))
    segments = bidding_segments(staged(h.history, h.rules, h.dealer, upcard=h.upcard),
                                who or (lambda s: Who(name(s))), h.upcard)
    claims = [x for x in segments if x[0] == STAGE_TITLES[Phase.CLAIM]]
    for title, items in [x for x in segments if x not in claims]:
        t = Text(f"  {title}: " if title else "  ", style="bold")
        t.append(g.translate(", ".join(items)))
        lines.extend(_fold(t, width))
    for k, (_leader, trick, winner) in enumerate(h.tricks, 1):
        t = Text(f"  Trick {k}: ", style="bold")
        for i, (s, c) in enumerate(trick):
            if i:
                t.append(", ")
            t.append(short(s) + " ")
            ct = card_text(c, g)
            if s == winner:
                ct.stylize("reverse")
            t.append_text(ct)
        t.append(" - ").append(name(winner), style="bold")
        lines.extend(_fold(t, width))
    for title, items in claims:  # after the tricks, as at the table
        t = Text(f"  {title}: ", style="bold").append(", ".join(items))
        lines.extend(_fold(t, width))
    lines.extend(result)
    return lines
