"""Drawing the table as Rich text lines that fit an 80x24 terminal.

Everything drawn comes from the player's :class:`~euchre.view.SeatView` (plus the match score),
so the screen can never show a card the player could not see at a real table. Each line is built
as a :class:`rich.text.Text` no wider than the screen, so nothing ever wraps; colour is applied
by Rich only when the output is a terminal that supports it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text

from euchre import actions as A
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    NO_TRUMP,
    left_bower,
    right_bower,
    sort_hand,
)
from euchre.narrate import bidding_segments, staged
from euchre.phases import Phase
from euchre.seats import Seat
from euchre.tui.words import ASCII, UNICODE, Glyphs, card_plain
from euchre.view import SeatView
from euchre.words import YOU, Moment, Who, action_words

WIDTH = 79
"""Widest line drawn: one less than an 80-column terminal, so no terminal ever wraps it."""

RED = "bold red"
TURN = "bold yellow"
DIM = "dim"


def card_text(c: int, g: Glyphs, trump: int = NO_TRUMP, mark_bowers: bool = False) -> Text:
    """A card, red when its suit is; with ``mark_bowers`` the bowers carry (R) and (L)."""
    style = RED if c != JOKER and c >> 3 in (1, 2) else ""
    t = Text(card_plain(c, g), style=style)
    if mark_bowers and trump != NO_TRUMP:
        if c == right_bower(trump):
            t.append("(R)", style=TURN)
        elif c == left_bower(trump):
            t.append("(L)", style=TURN)
    return t


def suit_text(s: int, g: Glyphs) -> Text:
    return Text(g.suits[s], style=RED if s in (1, 2) else "")


def red_suits(text: str, g: Glyphs) -> Text:
    """Plain words with each card or suit of a red suit coloured, as the screen shows them."""
    t = Text(text)
    t.highlight_regex(rf"\S*[{re.escape(g.red)}](?!\S)", RED)
    return t


def action_text(a: int, g: Glyphs, at: Moment) -> Text:
    """An option as a person reads it (what the numbered menu shows; ``euchre.words``'
    option, which also reads back as input)."""
    return red_suits(g.translate(action_words(a, at)), g)


def markers(score: int, g: Glyphs, style: str = "5-6") -> Text:
    """The traditional 5-and-6 score cards: 1-4 pips of the 6 showing under the face
    down 5, the 5 alone for 5, the 6 alone for 6, and 7-10 as the 6 plus pips of the 5. Scores
    above 10 (or below zero) cannot be shown with two cards: no marker.

    ``style="5-4"``: the older 5-and-4 ("two spare cards, a 5 and a 4"), for games to
    10: 1-4 pips of the 4 showing under the face-down 5, the 5 alone for 5, 6-9 as the 5 plus
    pips of the 4; 10 wins the game, so it needs no marker."""
    if style == "5-4":
        return _markers_54(score, g)
    if not 0 <= score <= 10:
        return Text("")
    if score == 0:
        five, six = -1, -1
    elif score < 5:
        five, six = -1, score
    elif score == 5:
        five, six = 5, -1
    elif score == 6:
        five, six = -1, 6
    else:
        five, six = score - 6, 6

    def one(label: str, size: int, shown: int) -> Text:
        t = Text(label + "[", style=DIM)
        if shown < 0:
            t.append(g.back * size, style=DIM)
        else:
            t.append(g.pip * shown, style="bold green")
            t.append(g.no_pip * (size - shown), style=DIM)
        t.append("]", style=DIM)
        return t

    # No "5"/"6" labels: the score is already shown as a number beside the cards, and "3 5[..]
    # 6[..]" read as three numbers.
    return one("", 5, five).append_text(one("", 6, six))


def _marker_card(size: int, shown: int, g: Glyphs) -> Text:
    """One score card: ``shown`` pips of ``size`` showing, or its back (-1)."""
    t = Text("[", style=DIM)
    if shown < 0:
        t.append(g.back * size, style=DIM)
    else:
        t.append(g.pip * shown, style="bold green")
        t.append(g.no_pip * (size - shown), style=DIM)
    return t.append("]", style=DIM)


def _markers_54(score: int, g: Glyphs) -> Text:
    if not 0 <= score <= 9:
        return Text("")
    if score == 0:
        five, four = -1, -1
    elif score < 5:
        five, four = -1, score
    elif score == 5:
        five, four = 5, -1
    else:
        five, four = 5, score - 5
    return _marker_card(5, five, g).append_text(_marker_card(4, four, g))


@dataclass
class TableContext:
    """What the screen shows besides the view: names, score, messages, options."""

    glyphs: Glyphs
    name: Callable[[int], str]
    """Display name of a seat ("North (partner)", "You")."""
    short: Callable[[int], str]
    """One- or two-letter seat tag for the bidding line."""
    side_names: list[str]
    scores: list[int]
    target: int
    title: str
    hand_no: int
    bottom: Seat
    """Seat drawn at the bottom of the table (the player's own, or the watched seat)."""
    show_hand: bool = True
    message: list[Text] = field(default_factory=list)
    options: list[Text] = field(default_factory=list)
    extra_trick_note: str = ""
    width: int = WIDTH
    """Columns the screen may use (79 on an 80-column terminal, down to 39)."""
    titles: list[str] = field(default_factory=list)
    """Shorter names of the rules, tried in turn when ``title`` does not fit the header."""
    plain: Callable[[int], str] | None = None
    """A seat's name without notes ("West", "You") for the bidding line; ``short`` if None."""
    you: Seat = -1
    """The seat the screen calls "You" (the person playing; -1 when only watching)."""
    held: bool = False
    """The table shows a finished trick being held: its winning card is highlighted."""
    marker_style: str = "5-6"
    """Score cards beside the score: the traditional "5-6" or the older "5-4"."""

    def speaker(self, name: Callable[[int], str]) -> Callable[[int], Who]:
        """Each seat as the subject of a sentence, named by ``name``: the player is "You"."""
        return lambda s: YOU if s == self.you else Who(name(s))


def _fit(t: Text, width: int = WIDTH) -> Text:
    t = t.copy()
    t.truncate(width, overflow="crop")
    t.no_wrap = True
    return t


def _place(cells: list[tuple[int, Text]], width: int = WIDTH) -> Text:
    """A line with texts starting at given columns (later cells never overlap earlier ones)."""
    out = Text()
    for col, t in cells:
        col = max(col, out.cell_len + (1 if out.cell_len else 0))
        out.append(" " * (col - out.cell_len))
        out.append_text(t)
    return _fit(out, width)


def _center(t: Text, width: int = WIDTH) -> Text:
    pad = max(0, (width - t.cell_len) // 2)
    return _fit(Text(" " * pad).append_text(t), width)


def wrap_items(items: list[Text], width: int = WIDTH, sep: str = "  ") -> list[Text]:
    """Lay out items on as few lines as fit ``width``, never breaking an item."""
    lines: list[Text] = []
    cur = Text()
    for it in items:
        if cur.cell_len and cur.cell_len + len(sep) + it.cell_len > width:
            lines.append(cur)
            cur = Text()
        if cur.cell_len:
            cur.append(sep)
        cur.append_text(it)
    if cur.cell_len:
        lines.append(cur)
    return [_fit(x, width) for x in lines]


def wrap_text(text: Text, width: int = WIDTH) -> list[Text]:
    """Word-wrap a message onto lines no wider than ``width``."""
    words = text.split(" ", allow_blank=True)
    return wrap_items(list(words), width, sep=" ")


def held_cards(view: SeatView) -> list[int]:
    """The cards in the seat's hand: with rows, not its face-up row cards (``view.hand`` holds
    every card it may play), which the row line shows."""
    if not view.rows:
        return list(view.hand)
    table = set(view.face_up(view.seat))
    return [c for c in view.hand if c not in table]


def hand_line(view: SeatView, g: Glyphs) -> Text:
    """The hand sorted by suit (trump first once named), suits separated, bowers marked."""
    trump = view.trump
    cards = sort_hand(held_cards(view), trump)
    eff = EFFECTIVE_SUIT[trump]
    t = Text()
    prev = -2
    for c in cards:
        s = eff[c]
        if t.cell_len:
            t.append("   " if s != prev else " ")
        prev = s
        t.append_text(card_text(c, g, trump, mark_bowers=True))
    return t


def bidding_line(view: SeatView, ctx: TableContext) -> Text:
    """The bidding so far in words, one stage after another: "Round 1: all pass · Round 2: You
    pass, West calls ♥". Full seat names when they fit, else the one-letter ones; when even those
    do not, the earliest stages give way (the status line above still names trump and maker)."""
    g = ctx.glyphs
    acts = staged(view.history, view.rules, view.dealer, viewer=view.seat, upcard=view.upcard)
    out = Text("Bidding: ", style="bold")
    room = ctx.width - out.cell_len
    sep = f" {g.dot} "
    parts: list[tuple[str, list[str]]] = []
    for namer in (ctx.plain or ctx.short, ctx.short):
        parts = bidding_segments(acts, ctx.speaker(namer), view.upcard, compact=True)
        if len(_join_segments(parts, sep)) <= room:
            break
    if not parts:
        return out.append("none yet", style=DIM)
    # Too long even with one-letter names: the earliest acts give way, one at a time.
    cut = False
    while len(g.translate(_join_segments(parts, sep, cut))) > room:
        title, items = parts[0]
        if len(parts) > 1 and len(items) <= 1:
            parts = parts[1:]
        elif len(items) > 1:
            parts = [(title, items[1:]), *parts[1:]]
        else:
            break
        cut = True
    text = g.translate(_join_segments(parts, sep, cut))
    if len(text) > room:
        text = text[:room - 3] + "..."
    t = Text(text)
    if g.suits == UNICODE.suits:
        t.highlight_regex(r"\S*[♦♥]", RED)
    return out.append_text(t)


def _join_segments(parts: list[tuple[str, list[str]]], sep: str, cut: bool = False) -> str:
    text = sep.join((f"{title}: " if title else "") + ", ".join(items) for title, items in parts)
    if cut:  # "Round 1: ... North passes", or "... Round 2: ..." when a whole round went
        title = parts[0][0]
        text = (f"{title}: ... " + text[len(title) + 2:]) if title else "... " + text
    return text


def _positions(players: int, bottom: Seat) -> dict[int, str]:
    """Where each seat sits on screen. Play goes clockwise: bottom, left, top, right."""
    where = {4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"],
             2: ["bottom", "top"]}[players]
    return {(bottom + i) % players: where[i] for i in range(players)}


def render_table(view: SeatView, ctx: TableContext) -> list[Text]:
    """The whole screen above the prompt: at most 23 lines of at most ``ctx.width`` columns.

    Narrower screens (down to 40 columns) get the same information rearranged rather than
    cropped: shorter seat labels, the status and the hand on two lines when they must."""
    g = ctx.glyphs
    n = view.players
    w = ctx.width
    lines: list[Text] = []
    # Header and score.
    # Pieces give way in turn on a narrow screen: the dealer (the table marks it too), the
    # program's name, then longer names of the rules.
    dealer = Text(f" {g.dot} dealer ").append(ctx.name(view.dealer), style="bold")
    head = Text()
    for title in (ctx.title, *ctx.titles):
        for prefix in (True, False):
            head = Text("Euchre", style="bold").append(f" {g.dot} ") if prefix else Text()
            head.append(title, style="" if prefix else "bold")
            head.append(f" {g.dot} game to {ctx.target} {g.dot} hand {ctx.hand_no}")
            if head.cell_len <= w:
                break
        if head.cell_len <= w:
            break
    if head.cell_len + dealer.cell_len <= w:
        head.append_text(dealer)
    lines.extend(wrap_text(head, w) if head.cell_len > w else [head])
    cells = []
    for side, sname in enumerate(ctx.side_names):
        cell = Text(f"{sname} ", style="bold").append(str(ctx.scores[side]), style="bold green")
        cells.append(cell)
    with_markers = [c.copy().append(" ").append_text(markers(ctx.scores[i], g,
                                                             ctx.marker_style))
                    for i, c in enumerate(cells)]
    score = Text("Score: ").append_text(Text("   ").join(with_markers))
    if score.cell_len > w:
        score = Text("Score: ").append_text(Text("   ").join(cells))
    lines.append(_fit(score, w))
    # Trump and up-card.
    status = Text()
    up = Text()
    if view.trump != NO_TRUMP:
        status.append("Trump ").append_text(suit_text(view.trump, g))
        if view.maker >= 0:
            status.append(", made by ").append(ctx.name(view.maker), style="bold")
            if view.rows and view.contract:
                status.append(f" (bid {view.contract} of 12 tricks)")
            if view.alone:
                status.append(" alone")
        if view.lone_defender >= 0:
            at = Moment(Phase.DEFEND, view.lone_defender, view.dealer, view.players)
            status.append("; ").append_text(Text(action_words(
                A.DEFEND_ALONE, at, "done", ctx.speaker(ctx.name)(view.lone_defender))))
        if not view.rows:
            up.append("Up-card ").append_text(card_text(view.upcard, g))
            up.append(f" {view.upcard_status}", style=DIM)
    elif view.rows:  # two-handed with rows: no up-card
        status.append("No up-card (rows); trump not yet named", style=DIM)
    else:
        status.append("Up-card ").append_text(card_text(view.upcard, g))
        status.append(f" ({view.upcard_status}); trump not yet named", style=DIM)
    if status.cell_len + 3 + up.cell_len <= w or not up.cell_len:
        lines.append(_fit(status.append("   " if up.cell_len else "").append_text(up), w))
    else:
        lines.extend(wrap_text(status, w))
        lines.append(_fit(up, w))
    lines.append(Text(g.rule * w, style=DIM))
    lines.extend(_table_area(view, ctx))
    lines.append(Text(g.rule * w, style=DIM))
    if view.rows:
        lines.extend(_fit(t, w) for t in rows_lines(view, ctx))
    lines.append(_fit(bidding_line(view, ctx), w))
    # Tricks this hand, by scoring side.
    tr = Text("Tricks this hand: ", style="bold")
    won = [0] * len(ctx.side_names)
    for seat, k in enumerate(view.tricks_won):
        won[seat % 2 if n == 4 else seat] += k
    tr.append_text(Text(f" {g.dot} ").join(
        Text(f"{ctx.side_names[i]} {won[i]}") for i in range(len(won))))
    if ctx.extra_trick_note:
        tr.append(f"   {ctx.extra_trick_note}", style=DIM)
    lines.append(_fit(tr, w))
    if ctx.show_hand:
        who = "Your hand: " if ctx.name(ctx.bottom) == "You" else f"{ctx.name(ctx.bottom)}: "
        hand = Text(who, style="bold").append_text(hand_line(view, g))
        if not held_cards(view):
            hand.append("none left: play from your row" if view.hand else "all played",
                        style=DIM)
        lines.extend(wrap_items(list(hand.split("   ")), w, sep="   ") if hand.cell_len > w
                     else [hand])
    room = 23 - len(lines) - len(ctx.options)
    msg = ctx.message[-room:] if room > 0 else []
    lines.extend(_fit(m, w) for m in msg)
    lines.extend(_fit(o, w) for o in ctx.options)
    return lines[:23]


def rows_lines(view: SeatView, ctx: TableContext) -> list[Text]:
    """Two-handed with rows: each player's row, the other player's first: a face-up card in
    its column, a card back for one still face down under it, a blank once both are played."""
    g = ctx.glyphs
    played = set(view.played_cards())
    out = []
    for s in sorted(range(view.players), key=lambda x: x == ctx.bottom):
        who = ctx.plain(s) if ctx.plain else ctx.name(s)
        t = Text("Your row: " if who == "You" else f"{who} row: ", style="bold")
        for top, under in view.rows[s]:
            if top not in played:
                t.append_text(card_text(top, g, view.trump)).append("/", style=DIM)
                t.append(g.back, style=DIM)
            elif under != -1 and under not in played:
                t.append_text(card_text(under, g, view.trump))
            else:
                t.append("--", style=DIM)
            t.append("  ")
        t.append(f"{view.face_down_count(s)} face down", style=DIM)
        out.append(t)
    return out


def _table_area(view: SeatView, ctx: TableContext) -> list[Text]:
    """Six lines: the seats around the table, each with the card it played to this trick. On a
    narrow screen a label sheds its card count, then its trick count, rather than a name."""
    g = ctx.glyphs
    n = view.players
    w = ctx.width
    pos = _positions(n, ctx.bottom)
    seat_at = {p: s for s, p in pos.items()}
    trick = view.current_trick
    showing_last = False
    if not trick and view.tricks and view.trump != NO_TRUMP:
        trick = view.tricks[-1][1]
        showing_last = True
    played = dict(trick)
    leader = trick[0][0] if trick else -1
    last_winner = view.tricks[-1][2] if showing_last else -1

    def label(s: int, detail: int = 2) -> Text:
        """detail 2: name, cards, tricks; 1: name and tricks; 0: name alone."""
        t = Text()
        turn = view.current_player == s
        if turn:
            t.append(g.arrow + " ", style=TURN)
        name = ctx.name(s)
        dealer = s == view.dealer and name.endswith(")")
        if dealer:  # "North (partner, dealer)", not "North (partner) (dealer)"
            name = name[:-1] + ", dealer)"
        t.append(name, style=TURN if turn else "bold")
        if s == view.dealer and not dealer:
            t.append(" (dealer)", style=DIM)
        if s not in view.active:
            return t.append(" sit out" if ctx.name(s) == "You" else " sits out", style=DIM)
        if detail >= 2 and (s != ctx.bottom or not ctx.show_hand):
            k = view.hand_sizes[s]
            if view.rows:  # its face-up row cards are drawn in its row line
                k -= len(view.face_up(s))
                t.append(f" {k} in hand,", style=DIM)
            else:
                t.append(f" {k} card{'' if k == 1 else 's'},", style=DIM)
        if detail >= 1:
            won = view.tricks_won[s]
            t.append(f" {won} trick{'' if won == 1 else 's'}", style=DIM)
        return t

    def fitted(s: int, room: int) -> Text:
        for detail in (2, 1, 0):
            t = label(s, detail)
            if t.cell_len <= room:
                return t
        return t

    def played_text(s: int) -> Text:
        if s in played:
            t = card_text(played[s], g)
            if s == last_winner:
                if ctx.held:
                    t.stylize("reverse")
                t.append(" won", style=TURN)
            if s == leader:
                t = Text("led ", style=DIM).append_text(t)
            return t
        return Text("")

    blank = Text("")
    out = [blank.copy() for _ in range(6)]
    mid = w // 2
    if "top" in seat_at:
        s = seat_at["top"]
        out[0] = _center(fitted(s, w), w)
        out[1] = _center(played_text(s), w)
    left = seat_at.get("left")
    right = seat_at.get("right")
    row: list[tuple[int, Text]] = []
    row2: list[tuple[int, Text]] = []
    inset = min(16, w // 5)
    half = (w - 2) // 2
    lab_l = fitted(left, half) if left is not None else Text()
    lab_r = fitted(right, half) if right is not None else Text()
    if left is not None:
        row.append((0, lab_l))
        row2.append((inset, played_text(left)))
    if view.trump == NO_TRUMP and view.upcard_status == "face up":
        up = Text("up-card ", style=DIM).append_text(card_text(view.upcard, g))
        row2.append((mid - up.cell_len // 2, up))
    if right is not None:
        row.append((w - lab_r.cell_len, lab_r))
        pt = played_text(right)
        row2.append((w - inset - pt.cell_len, pt))
    out[2] = _place(row, w)
    out[3] = _place(row2, w)
    bottom = ctx.bottom
    out[4] = _center(played_text(bottom), w)
    out[5] = _center(fitted(bottom, w), w)
    return out


__all__ = [
    "ASCII",
    "UNICODE",
    "WIDTH",
    "Glyphs",
    "TableContext",
    "action_text",
    "card_plain",
    "card_text",
    "hand_line",
    "markers",
    "red_suits",
    "render_table",
    "wrap_items",
    "wrap_text",
]
