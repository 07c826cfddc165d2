"""Drawing the table as Rich text lines that fit an 80x24 terminal.

Everything drawn comes from the player's :class:`~euchre.view.SeatView` (plus the match score),
so the screen can never show a card the player could not see at a real table. Each line is built
as a :class:`rich.text.Text` no wider than the screen, so nothing ever wraps; colour is applied
by Rich only when the output is a terminal that supports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text

from euchre import actions as A
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    NO_TRUMP,
    RANK_NAMES,
    SUIT_SYMBOLS,
    left_bower,
    right_bower,
    sort_hand,
)
from euchre.view import HIDDEN_DISCARD, HIDDEN_SWAP, SeatView

WIDTH = 79
"""Widest line drawn: one less than an 80-column terminal, so no terminal ever wraps it."""

RED = "bold red"
TURN = "bold yellow"
DIM = "dim"


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


UNICODE = Glyphs(suits=SUIT_SYMBOLS, rule="─", pip="●", no_pip="○", back="▒", dot="·", arrow="▸")
ASCII = Glyphs(suits="CDHS", rule="-", pip="o", no_pip=".", back="#", dot="|", arrow=">")


def card_plain(c: int, g: Glyphs) -> str:
    if c == JOKER:
        return "Jkr"
    return RANK_NAMES[c & 7] + g.suits[c >> 3]


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


def action_text(a: int, g: Glyphs, dealer_is_me: bool = False) -> Text:
    """An option as a person reads it (what the numbered menu shows)."""
    if A.is_play(a):
        return card_text(a, g)
    if A.is_discard(a):
        return Text("discard ").append_text(card_text(a - A.DISCARD_BASE, g))
    if A.CALL_BASE <= a < A.CALL_BASE + 4:
        return Text("call ").append_text(suit_text(a - A.CALL_BASE, g))
    if A.CALL_ALONE_BASE <= a < A.CALL_ALONE_BASE + 4:
        return Text("call ").append_text(suit_text(a - A.CALL_ALONE_BASE, g)).append(" alone")
    if a >= A.SWAP_BASE:
        t = Text("swap")
        for c in A.SWAP_SETS[a - A.SWAP_BASE]:
            t.append(" ").append_text(card_text(c, g))
        return t
    if a == A.ORDER:
        return Text("pick it up" if dealer_is_me else "order up")
    if a == A.ORDER_ALONE:
        return Text("pick up alone" if dealer_is_me else "order up alone")
    if a == A.GO_ALONE:
        return Text("go alone")
    if a == A.WITH_PARTNER:
        return Text("with partner")
    return Text(A.action_to_str(a))


def event_text(a: int, g: Glyphs, by_dealer: bool = False) -> Text:
    """What another player did, as a short phrase after their name."""
    if a == HIDDEN_DISCARD:
        return Text("discards a card face down")
    if a == HIDDEN_SWAP:
        return Text("swaps three low cards for the kitty")
    if A.is_play(a):
        return Text("plays ").append_text(card_text(a, g))
    if A.is_discard(a):
        return Text("discards ").append_text(card_text(a - A.DISCARD_BASE, g))
    words = {
        A.PASS: "passes",
        A.ORDER: "picks it up" if by_dealer else "orders it up",
        A.ORDER_ALONE: "picks it up and goes alone" if by_dealer else "orders it up alone",
        A.DEFEND_ALONE: "defends alone",
        A.GO_ALONE: "goes alone",
        A.WITH_PARTNER: "plays with partner",
        A.DECLINE: "declines the up-card",
        A.TAKE: "takes the up-card",
        A.FARMER: "calls a farmer's hand: redeal",
        A.MISDEAL: "calls a misdeal (no ace, no face, no trump)",
        A.CLAIM_RENEGE: "claims a renege",
    }
    if a in words:
        return Text(words[a])
    if A.CALL_BASE <= a < A.CALL_BASE + 4:
        return Text("calls ").append_text(suit_text(a - A.CALL_BASE, g))
    if A.CALL_ALONE_BASE <= a < A.CALL_ALONE_BASE + 4:
        return Text("calls ").append_text(suit_text(a - A.CALL_ALONE_BASE, g)).append(" alone")
    if a >= A.SWAP_BASE:  # the player's own swap: which cards went (others' stay hidden)
        t = Text("swaps")
        for c in A.SWAP_SETS[a - A.SWAP_BASE]:
            t.append(" ").append_text(card_text(c, g))
        return t.append(" for the kitty")
    return Text(A.action_to_str(a))  # pragma: no cover


def markers(score: int, g: Glyphs) -> Text:
    """The traditional 5-and-6 score cards (seed 002): 1-4 pips of the 6 showing under the face
    down 5, the 5 alone for 5, the 6 alone for 6, and 7-10 as the 6 plus pips of the 5. Scores
    above 10 cannot be shown with two cards: no marker."""
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

    return one("5", 5, five).append(" ").append_text(one("6", 6, six))


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
    bottom: int
    """Seat drawn at the bottom of the table (the player's own, or the watched seat)."""
    show_hand: bool = True
    message: list[Text] = field(default_factory=list)
    options: list[Text] = field(default_factory=list)
    extra_trick_note: str = ""


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


def hand_line(view: SeatView, g: Glyphs) -> Text:
    """The hand sorted by suit (trump first once named), suits separated, bowers marked."""
    trump = view.trump
    cards = sort_hand(view.hand, trump)
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
    g = ctx.glyphs
    parts: list[Text] = []
    r = view.rules
    # With declarations on every seat is asked first; the view keeps only this seat's own
    # answer (and swaps), and a pass there is no bid.
    own_declaration = r.farmers_hand != "off" or r.no_ace_no_face
    for seat, a in view.history:
        if own_declaration and seat == view.seat:
            own_declaration = False
            if a == A.PASS:
                continue
        if A.is_play(a):
            continue
        ph = Text(ctx.short(seat) + " ", style="bold")
        ph.append_text(event_short(a, g))
        parts.append(ph)
    out = Text("Bidding: ", style="bold")
    if not parts:
        return out.append("none yet", style=DIM)
    # Keep the latest entries when the line is too long.
    while parts:
        line = Text(f" {g.dot} ").join(parts)
        if out.cell_len + line.cell_len <= WIDTH:
            return out.append_text(line)
        parts = parts[1:]
        out = Text("Bidding: ... ", style="bold")
    return out  # pragma: no cover


def event_short(a: int, g: Glyphs) -> Text:
    """A compact bid for the bidding line."""
    if a == HIDDEN_DISCARD:
        return Text("discard")
    if a == HIDDEN_SWAP or a >= A.SWAP_BASE:
        return Text("swap")
    if A.is_discard(a):
        return Text("discard ").append_text(card_text(a - A.DISCARD_BASE, g))
    if a == A.ORDER:
        return Text("order")
    if a == A.ORDER_ALONE:
        return Text("order alone")
    return action_text(a, g)


def _positions(players: int, bottom: int) -> dict[int, str]:
    """Where each seat sits on screen. Play goes clockwise: bottom, left, top, right."""
    where = {4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"],
             2: ["bottom", "top"]}[players]
    return {(bottom + i) % players: where[i] for i in range(players)}


def render_table(view: SeatView, ctx: TableContext) -> list[Text]:
    """The whole screen above the prompt: at most 23 lines of at most 79 columns."""
    g = ctx.glyphs
    n = view.players
    lines: list[Text] = []
    # Header and score.
    head = Text("Euchre", style="bold")
    head.append(f" {g.dot} {ctx.title} {g.dot} game to {ctx.target} {g.dot} hand {ctx.hand_no}")
    head.append(f" {g.dot} dealer ").append(ctx.name(view.dealer), style="bold")
    lines.append(_fit(head))
    cells = []
    for side, sname in enumerate(ctx.side_names):
        cell = Text(f"{sname} ", style="bold").append(str(ctx.scores[side]), style="bold green")
        cells.append(cell)
    with_markers = [c.copy().append(" ").append_text(markers(ctx.scores[i], g))
                    for i, c in enumerate(cells)]
    score = Text("Score: ").append_text(Text("   ").join(with_markers))
    if score.cell_len > WIDTH:
        score = Text("Score: ").append_text(Text("   ").join(cells))
    lines.append(_fit(score))
    # Trump and up-card.
    status = Text()
    if view.trump != NO_TRUMP:
        status.append("Trump ").append_text(suit_text(view.trump, g))
        if view.maker >= 0:
            status.append(", made by ").append(ctx.name(view.maker), style="bold")
            if view.alone:
                status.append(" alone")
        if view.lone_defender >= 0:
            status.append(f"; {ctx.name(view.lone_defender)} defends alone")
        status.append("   Up-card ").append_text(card_text(view.upcard, g))
        status.append(f" {view.upcard_status}", style=DIM)
    else:
        status.append("Up-card ").append_text(card_text(view.upcard, g))
        status.append(f" ({view.upcard_status}); trump not yet named", style=DIM)
    lines.append(_fit(status))
    lines.append(Text(g.rule * WIDTH, style=DIM))
    lines.extend(_table_area(view, ctx))
    lines.append(Text(g.rule * WIDTH, style=DIM))
    lines.append(_fit(bidding_line(view, ctx)))
    # Tricks this hand, by scoring side.
    tr = Text("Tricks this hand: ", style="bold")
    won = [0] * len(ctx.side_names)
    for seat, k in enumerate(view.tricks_won):
        won[seat % 2 if n == 4 else seat] += k
    tr.append_text(Text(f" {g.dot} ").join(
        Text(f"{ctx.side_names[i]} {won[i]}") for i in range(len(won))))
    if ctx.extra_trick_note:
        tr.append(f"   {ctx.extra_trick_note}", style=DIM)
    lines.append(_fit(tr))
    if ctx.show_hand:
        who = "Your hand: " if ctx.name(ctx.bottom) == "You" else f"{ctx.name(ctx.bottom)}: "
        lines.append(_fit(Text(who, style="bold").append_text(hand_line(view, g))))
    room = 23 - len(lines) - len(ctx.options)
    msg = ctx.message[-room:] if room > 0 else []
    lines.extend(_fit(m) for m in msg)
    lines.extend(_fit(o) for o in ctx.options)
    return lines[:23]


def _table_area(view: SeatView, ctx: TableContext) -> list[Text]:
    """Six lines: the seats around the table, each with the card it played to this trick."""
    g = ctx.glyphs
    n = view.players
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

    def label(s: int) -> Text:
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
            return t.append(" sits out", style=DIM)
        if s != ctx.bottom or not ctx.show_hand:
            k = view.hand_sizes[s]
            t.append(f" {k} card{'' if k == 1 else 's'},", style=DIM)
        won = view.tricks_won[s]
        t.append(f" {won} trick{'' if won == 1 else 's'}", style=DIM)
        return t

    def played_text(s: int) -> Text:
        if s in played:
            t = card_text(played[s], g)
            if s == leader:
                t = Text("led ", style=DIM).append_text(t)
            if s == last_winner:
                t.append(" won", style=TURN)
            return t
        return Text("")

    blank = Text("")
    out = [blank.copy() for _ in range(6)]
    mid = WIDTH // 2
    if "top" in seat_at:
        s = seat_at["top"]
        out[0] = _center(label(s))
        out[1] = _center(played_text(s))
    left = seat_at.get("left")
    right = seat_at.get("right")
    row: list[tuple[int, Text]] = []
    row2: list[tuple[int, Text]] = []
    if left is not None:
        row.append((0, label(left)))
        row2.append((16, played_text(left)))
    if view.trump == NO_TRUMP and view.upcard_status == "face up":
        up = Text("up-card ", style=DIM).append_text(card_text(view.upcard, g))
        row2.append((mid - up.cell_len // 2, up))
    if right is not None:
        lab = label(right)
        row.append((WIDTH - lab.cell_len, lab))
        pt = played_text(right)
        row2.append((WIDTH - 16 - pt.cell_len, pt))
    out[2] = _place(row)
    out[3] = _place(row2)
    bottom = ctx.bottom
    out[4] = _center(played_text(bottom))
    out[5] = _center(label(bottom))
    return out


__all__ = [
    "ASCII",
    "UNICODE",
    "WIDTH",
    "Glyphs",
    "TableContext",
    "action_text",
    "card_text",
    "event_text",
    "hand_line",
    "markers",
    "render_table",
    "wrap_items",
    "wrap_text",
]
