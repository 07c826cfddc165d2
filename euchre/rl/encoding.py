"""The observation vector: one seat's :class:`~euchre.view.SeatView` as a fixed-size array.

Built from the view alone (never from a :class:`~euchre.state.HandState`), so it cannot hold a
card the seat may not know, and two states with the same view encode identically. Seats are
rotated so the observing seat is slot 0, the next seat clockwise slot 1, and so on; suits are not
rotated. One layout serves every rules option and player count (slots a game does not use stay
0), so a policy's input size never depends on the variant. ``docs/rl.md`` lists every field and
what a seat knows in each phase; the numba batch simulator (:mod:`euchre.rl.batch`) writes the
same layout, checked equal to this encoder in the tests.

The fields only some variants use (the auction, tricks six to twelve and the rows of two-handed
with rows; the renege fixes of ``renege_fix``; scores below zero) come after the standard ones:
the batch kernel, which plays only standard variants, leaves them at 0.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from euchre import actions as A
from euchre.cards import EFFECTIVE_SUIT
from euchre.phases import PHASE_NAMES, UPCARD_STATUS_NAMES
from euchre.seats import Seat, side_of
from euchre.view import FACE_DOWN, HIDDEN_DISCARD, HIDDEN_SWAP, SeatView

NUM_CARDS = 33
"""Card slots: every card id of every deck (7s and 8s of the 32-card deck, the Joker 32)."""
MAX_SEATS = 4
MAX_ACTS = 20
"""Public acts other than card plays in one hand, the renege-fix answers aside (those have their
own field, ``fixes``, since up to 12 a trick can be asked): at most 4 declarations, 4 + 4 bids,
a take, a discard, an alone decision, 2 defend-alone answers and 2 renege claims (19)."""
MAX_TRICKS = 5
"""Tricks of a hand in every variant but two-handed with rows (the ``tricks`` field)."""
ROWS_TRICKS = 12
"""Tricks of a hand of two-handed with rows: the six to twelfth are in ``tricks_more``."""
ROWS_SEATS = 2
"""Seats of two-handed with rows (the only player count it has): slots of its row fields."""
ROW_COLUMNS = 4

#: Kinds of non-play acts (the ``acts`` field): index into each act slot after its seat.
ACT_KINDS: tuple[str, ...] = (
    "pass", "order", "order alone",
    "call C", "call D", "call H", "call S",
    "call C alone", "call D alone", "call H alone", "call S alone",
    "defend alone", "alone", "partner", "decline", "take", "farmer", "misdeal",
    "swap", "discard", "claim renege",
)
NUM_KINDS = len(ACT_KINDS)
KIND_PASS, KIND_ORDER, KIND_ORDER_ALONE, KIND_CALL, KIND_CALL_ALONE = 0, 1, 2, 3, 7
KIND_DEFEND_ALONE, KIND_ALONE, KIND_PARTNER, KIND_DECLINE, KIND_TAKE = 11, 12, 13, 14, 15
KIND_FARMER, KIND_MISDEAL, KIND_SWAP, KIND_DISCARD, KIND_CLAIM = 16, 17, 18, 19, 20
ACT_WIDTH = MAX_SEATS + NUM_KINDS

# Field offsets: (name, start, size). Sizes are in slots of the float32 vector.
_FIELDS: list[tuple[str, int]] = [
    ("hand", NUM_CARDS),
    ("upcard", NUM_CARDS),
    ("upcard_status", len(UPCARD_STATUS_NAMES)),
    ("dealer", MAX_SEATS),
    ("phase", len(PHASE_NAMES)),
    ("trump", 5),
    ("maker", MAX_SEATS + 1),
    ("alone", 1),
    ("lone_defender", MAX_SEATS + 1),
    ("active", MAX_SEATS),
    ("to_act", MAX_SEATS + 1),
    ("my_discard", NUM_CARDS),
    ("my_swap", NUM_CARDS),
    ("swapper", MAX_SEATS + 1),
    ("acts", MAX_ACTS * ACT_WIDTH),
    ("tricks", MAX_TRICKS * MAX_SEATS * NUM_CARDS),
    ("leaders", MAX_TRICKS * MAX_SEATS),
    ("tricks_won", MAX_SEATS),
    ("scores", MAX_SEATS),
    # Only two-handed with rows (two seats, twelve tricks) uses the next six fields.
    ("auction", ROWS_SEATS * (1 + A.BID_MAX - A.BID_MIN + 1)),
    ("tricks_more", (ROWS_TRICKS - MAX_TRICKS) * ROWS_SEATS * NUM_CARDS),
    ("leaders_more", (ROWS_TRICKS - MAX_TRICKS) * ROWS_SEATS),
    ("row_up", ROWS_SEATS * NUM_CARDS),
    ("row_covering", ROWS_SEATS * NUM_CARDS),
    ("face_down", ROWS_SEATS),
    # Only renege_fix uses the next two.
    ("fixes", MAX_TRICKS * MAX_SEATS * 2),
    ("taken_back", MAX_SEATS * NUM_CARDS),
    # Only renege_penalty="deduct" can push a score below zero.
    ("scores_below_zero", MAX_SEATS),
]
FIELDS: dict[str, tuple[int, int]] = {}
_at = 0
for _name, _size in _FIELDS:
    FIELDS[_name] = (_at, _size)
    _at += _size
OBS_SIZE = _at
"""Length of the observation vector (2,172)."""
STANDARD_SIZE = FIELDS["auction"][0]
"""Length of the fields every variant uses (1,372): the rest are 0 unless the rules have rows,
renege_fix or renege_penalty "deduct", so a policy for the others may read
``obs[:STANDARD_SIZE]`` alone."""

O_HAND = FIELDS["hand"][0]
O_UPCARD = FIELDS["upcard"][0]
O_UPSTATUS = FIELDS["upcard_status"][0]
O_DEALER = FIELDS["dealer"][0]
O_PHASE = FIELDS["phase"][0]
O_TRUMP = FIELDS["trump"][0]
O_MAKER = FIELDS["maker"][0]
O_ALONE = FIELDS["alone"][0]
O_LONE_DEF = FIELDS["lone_defender"][0]
O_ACTIVE = FIELDS["active"][0]
O_TO_ACT = FIELDS["to_act"][0]
O_DISCARD = FIELDS["my_discard"][0]
O_SWAP = FIELDS["my_swap"][0]
O_SWAPPER = FIELDS["swapper"][0]
O_ACTS = FIELDS["acts"][0]
O_TRICKS = FIELDS["tricks"][0]
O_LEADERS = FIELDS["leaders"][0]
O_TRICKS_WON = FIELDS["tricks_won"][0]
O_SCORES = FIELDS["scores"][0]
O_AUCTION = FIELDS["auction"][0]
AUCTION_WIDTH = 1 + A.BID_MAX - A.BID_MIN + 1
"""Per seat in ``auction``: passed, or bid 7 .. bid 12."""
O_TRICKS_MORE = FIELDS["tricks_more"][0]
O_LEADERS_MORE = FIELDS["leaders_more"][0]
O_ROW_UP = FIELDS["row_up"][0]
O_ROW_COVERING = FIELDS["row_covering"][0]
O_FACE_DOWN = FIELDS["face_down"][0]
O_FIXES = FIELDS["fixes"][0]
O_TAKEN_BACK = FIELDS["taken_back"][0]
O_SCORES_BELOW = FIELDS["scores_below_zero"][0]

#: The fields that name cards: (name, start, count of 33-card blocks). Used by the hidden-card
#: test and by :func:`cards_in`.
CARD_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("hand", O_HAND, 1),
    ("upcard", O_UPCARD, 1),
    ("my_discard", O_DISCARD, 1),
    ("my_swap", O_SWAP, 1),
    ("tricks", O_TRICKS, MAX_TRICKS * MAX_SEATS),
    ("tricks_more", O_TRICKS_MORE, (ROWS_TRICKS - MAX_TRICKS) * ROWS_SEATS),
    ("row_up", O_ROW_UP, ROWS_SEATS),
    ("row_covering", O_ROW_COVERING, ROWS_SEATS),
    ("taken_back", O_TAKEN_BACK, MAX_SEATS),
)

Observation = npt.NDArray[np.float32]


def act_kind(action: int) -> int:
    """The ``acts`` kind of a non-play act as a view's history shows it."""
    if action == HIDDEN_DISCARD or A.is_discard(action):
        return KIND_DISCARD
    if action == HIDDEN_SWAP or action >= A.SWAP_BASE:
        return KIND_SWAP
    if A.CALL_BASE <= action < A.CALL_BASE + 4:
        return KIND_CALL + action - A.CALL_BASE
    if A.CALL_ALONE_BASE <= action < A.CALL_ALONE_BASE + 4:
        return KIND_CALL_ALONE + action - A.CALL_ALONE_BASE
    kinds = {
        A.PASS: KIND_PASS, A.ORDER: KIND_ORDER, A.ORDER_ALONE: KIND_ORDER_ALONE,
        A.DEFEND_ALONE: KIND_DEFEND_ALONE, A.GO_ALONE: KIND_ALONE,
        A.WITH_PARTNER: KIND_PARTNER, A.DECLINE: KIND_DECLINE, A.TAKE: KIND_TAKE,
        A.FARMER: KIND_FARMER, A.MISDEAL: KIND_MISDEAL, A.CLAIM_RENEGE: KIND_CLAIM,
    }
    try:
        return kinds[action]
    except KeyError:
        raise ValueError(f"{action!r} is not a non-play act") from None


class _Public:
    """The history's acts sorted for the fields: the ``acts`` list, the auction of two-handed
    with rows, the renege-fix answers by trick, and the cards each seat took back and still
    holds (public: it played them).

    With rows the first two acts are the auction (the non-dealer's bid or pass, then the
    dealer's: rows has no declarations), kept out of ``acts`` so its kinds need no slots there.
    Without ``renege_fix`` every other non-play act goes to ``acts``. With it, the history is
    replayed trick by trick from public facts alone: a full trick is followed by the fix
    questions; a fix takes back the fixer's card and every later one; a card played after a
    full trick means it was turned and quitted. After the last card of the hand, the first
    answers (one per player who did not follow the last trick's led suit, all of them "let it
    stand") are fix answers and the rest are the renege claims."""

    __slots__ = ("acts", "auction", "fixes", "taken_back")

    def __init__(self, view: SeatView) -> None:
        self.acts: list[tuple[int, int]] = []
        self.auction: list[tuple[int, int]] = []
        """(seat, bid or pass) of the rows auction, in order."""
        self.fixes: list[tuple[int, int, bool]] = []
        """(trick index, seat, fixed) of every answer to a fix question."""
        self.taken_back: dict[int, set[int]] = {}
        history = view.history
        if view.variant.bids_tricks:
            others = [(w, a) for w, a in history if not 0 <= a <= 32]
            self.auction, self.acts = others[:2], others[2:]
            return  # rows has no renege_fix (a row card played cannot be taken back)
        if not view.rules.renege_fix:
            self.acts = [(w, a) for w, a in history if not 0 <= a <= 32]
            return
        plays = [i for i, (_, a) in enumerate(history) if 0 <= a <= 32]
        claims_from = len(history)
        if len(view.tricks) == MAX_TRICKS and plays:
            cards = view.tricks[-1][1]
            eff = EFFECTIVE_SUIT[view.trump]
            led = eff[cards[0][1]]
            asked = sum(1 for _, c in cards[1:] if eff[c] != led)
            claims_from = plays[-1] + 1 + asked
        full = len(view.active)
        trick: list[tuple[int, int]] = []
        t = 0
        for i, (w, a) in enumerate(history):
            if 0 <= a <= 32:
                if len(trick) == full:
                    trick, t = [], t + 1
                trick.append((w, a))
                self.taken_back.get(w, set()).discard(a)
            elif not plays or i < plays[0] or i >= claims_from:
                self.acts.append((w, a))
            else:
                self.fixes.append((t, w, a == A.FIX_RENEGE))
                if a == A.FIX_RENEGE:
                    pos = next(k for k, (s, _) in enumerate(trick) if s == w)
                    for s, c in trick[pos:]:
                        self.taken_back.setdefault(s, set()).add(c)
                    del trick[pos:]


def encode(view: SeatView, out: Observation | None = None) -> Observation:
    """The observation vector of ``view`` (float32, every slot in [0, 1]).

    ``out``, when given, is filled in place (it must be ``OBS_SIZE`` long) and returned."""
    o = np.zeros(OBS_SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        o[:] = 0.0
    n = view.rules.players
    me = view.seat

    def rel(seat: Seat) -> int:
        return (seat - me) % n

    def rel_or_none(seat: Seat) -> int:
        return MAX_SEATS if seat < 0 else rel(seat)

    for c in view.hand:
        o[O_HAND + c] = 1.0
    if view.upcard >= 0:  # two-handed with rows has none (upcard -1): the field stays 0
        o[O_UPCARD + view.upcard] = 1.0
    o[O_UPSTATUS + UPCARD_STATUS_NAMES.index(view.upcard_status)] = 1.0
    o[O_DEALER + rel(view.dealer)] = 1.0
    o[O_PHASE + view.phase.number] = 1.0
    o[O_TRUMP + view.trump] = 1.0
    o[O_MAKER + rel_or_none(view.maker)] = 1.0
    o[O_ALONE] = float(view.alone)
    o[O_LONE_DEF + rel_or_none(view.lone_defender)] = 1.0
    for s in view.active:
        o[O_ACTIVE + rel(s)] = 1.0
    o[O_TO_ACT + rel_or_none(view.current_player)] = 1.0
    if view.discard >= 0:
        o[O_DISCARD + view.discard] = 1.0
    for c in view.swapped_out:
        o[O_SWAP + c] = 1.0
    o[O_SWAPPER + rel_or_none(view.swapper)] = 1.0
    public = _Public(view)
    if len(public.acts) > MAX_ACTS:
        raise AssertionError(f"more than {MAX_ACTS} non-play acts in one hand")
    for slot, (seat, a) in enumerate(public.acts):
        base = O_ACTS + slot * ACT_WIDTH
        o[base + rel(seat)] = 1.0
        o[base + MAX_SEATS + act_kind(a)] = 1.0
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.current_trick:
        tricks.append((view.current_trick[0][0], view.current_trick))
    for t, (leader, cards) in enumerate(tricks):
        if t < MAX_TRICKS:
            o[O_LEADERS + t * MAX_SEATS + rel(leader)] = 1.0
            for seat, c in cards:
                o[O_TRICKS + (t * MAX_SEATS + rel(seat)) * NUM_CARDS + c] = 1.0
        else:  # two-handed with rows: tricks six to twelve, two seats each
            k = t - MAX_TRICKS
            o[O_LEADERS_MORE + k * ROWS_SEATS + rel(leader)] = 1.0
            for seat, c in cards:
                o[O_TRICKS_MORE + (k * ROWS_SEATS + rel(seat)) * NUM_CARDS + c] = 1.0
    per_hand = view.variant.tricks_per_hand
    for s, won in enumerate(view.tricks_won):
        o[O_TRICKS_WON + rel(s)] = won / per_hand
    if view.scores:
        sides = len(view.scores)
        my_side = side_of(me, n)
        target = view.rules.target
        for side, score in enumerate(view.scores):
            at = (side - my_side) % sides
            if score >= 0:
                o[O_SCORES + at] = min(score, target) / target
            else:  # renege_penalty "deduct": a separate field keeps every slot in [0, 1]
                o[O_SCORES_BELOW + at] = min(-score, target) / target
    for s, columns in enumerate(view.rows):
        r = rel(s)
        for c in view.face_up(s):
            o[O_ROW_UP + r * NUM_CARDS + c] = 1.0
        for top, under in columns:
            if under == FACE_DOWN:  # the top card is still there, covering a hidden one
                o[O_ROW_COVERING + r * NUM_CARDS + top] = 1.0
        o[O_FACE_DOWN + r] = view.face_down_count(s) / ROW_COLUMNS
    for seat, a in public.auction:
        k = 0 if a == A.PASS else A.bid_tricks(a) - A.BID_MIN + 1
        o[O_AUCTION + rel(seat) * AUCTION_WIDTH + k] = 1.0
    for t, seat, fixed in public.fixes:
        at = O_FIXES + (t * MAX_SEATS + rel(seat)) * 2
        if fixed:  # once a trick at most: the fixer must then follow suit
            o[at + 1] = 1.0
        else:  # asked at most once a round; a trick has at most 4 rounds (3 fixes, then all pass)
            o[at] += 1.0 / MAX_SEATS
    for seat, held in public.taken_back.items():
        for c in held:
            o[O_TAKEN_BACK + rel(seat) * NUM_CARDS + c] = 1.0
    return o


def action_mask(view: SeatView, num_actions: int = A.NUM_ACTIONS) -> npt.NDArray[np.int8]:
    """1 for each legal action of the view's seat (all 0 when it is not its turn)."""
    m = np.zeros(num_actions, dtype=np.int8)
    if view.legal_actions:
        m[list(view.legal_actions)] = 1
    return m


def cards_in(obs: Observation) -> set[int]:
    """Every card id any card field of ``obs`` names: what the test of hidden cards reads."""
    out: set[int] = set()
    for _, start, blocks in CARD_FIELDS:
        block = obs[start : start + blocks * NUM_CARDS].reshape(blocks, NUM_CARDS)
        out.update(int(c) for c in np.flatnonzero(block.any(axis=0)))
    return out
