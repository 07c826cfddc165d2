"""Why an action is not allowed now, in English: the one place the engine's refusals are worded.

:func:`why_illegal` is the text of every :class:`~euchre.errors.IllegalActionError` the engine
raises, and what a user interface shows a person whose move was refused. It names the table rule
that forbids the move when one does (a pass under stick the dealer, ordering up under the
Canadian loner, naming the suit turned down), so a refusal says why, not only what is allowed.

Two voices: the engine's (``you=False``), which names the seat to act and lists the allowed
actions, for logs, bots and library users; and a person's (``you=True``), which speaks to the
player to act ("You do not hold the J♠."), in whole sentences, and leaves the list of choices to
the interface that knows how it shows them.
"""

from __future__ import annotations

from typing import Final, Protocol

from euchre import actions as A
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    NO_TRUMP,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Card,
    cards_of,
    sort_hand,
)
from euchre.errors import quote
from euchre.phases import AUCTION, BID1, BID2, DISCARD, OVER, PHASE_TASKS, PHASES, PLAY, TRUMP
from euchre.rules import Rules
from euchre.seats import partner, seat_name
from euchre.words import Moment, action_words
from euchre.words import card_words as card_name


class HandState(Protocol):
    """What an explanation reads of a hand. :class:`euchre.state.HandState` is one; naming
    the fields here, instead of importing the class, keeps the engine importing this module
    and not the other way round."""

    @property
    def rules(self) -> Rules: ...
    @property
    def phase(self) -> int: ...
    @property
    def cur(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def hands(self) -> list[int]: ...
    @property
    def trump(self) -> int: ...
    @property
    def led(self) -> int: ...
    @property
    def upcard(self) -> int: ...
    @property
    def contract(self) -> int: ...

    def legal_actions(self) -> list[int]: ...

_ALONE_BIDS: Final = (A.ORDER_ALONE, *range(A.CALL_ALONE_BASE, A.CALL_ALONE_BASE + 4))


def _label(action: object) -> str:
    """An action in the engine's notation (``order``, ``call H``), its cards with their suit
    symbols (``J♠``, ``discard Joker``): what the engine's refusals list."""
    if isinstance(action, int) and not isinstance(action, bool):
        if A.is_play(action):
            return card_name(action)
        if A.is_discard(action):
            return "discard " + card_name(action - A.DISCARD_BASE)
        if A.SWAP_BASE <= action < A.NUM_ACTIONS:
            return "swap " + " ".join(card_name(c) for c in A.SWAP_SETS[action - A.SWAP_BASE])
    try:
        return A.action_to_str(action)
    except Exception:
        return quote(action)


def _words(state: HandState, action: object) -> str:
    """An action as the player to act reads it (``euchre.words``' option): "order up",
    "call ♥ alone", "play J♠"; a value that is no action, quoted."""
    if not isinstance(action, int) or isinstance(action, bool):
        return quote(action)
    at = Moment(PHASES[state.phase], state.cur, state.dealer, state.n, state.upcard)
    try:
        return action_words(action, at)
    except Exception:
        return quote(action)


def _task(state: HandState) -> str:
    """What the player to act is asked to do now."""
    if state.upcard == JOKER and state.phase == BID1:
        return "name trump"
    return PHASE_TASKS[state.phase]


def why_illegal(state: HandState, action: object, *, you: bool = False,
                asked: str | None = None) -> str:
    """Why ``action`` is not allowed in ``state`` now, and what is.

    ``you=False`` (the engine's voice): one line naming the seat to act and ending with the
    allowed actions, as every ``IllegalActionError`` reads. ``you=True`` (a person's voice): one
    or two sentences addressed to the player to act, without the list of allowed actions (the
    interface adds its own). ``asked``: in a person's voice, the question the interface is
    asking now ("Order up the 9♠, or pass?"), which ends a refusal that no table rule explains;
    without it the text says what the player is to do."""
    return _to_person(state, action, asked) if you else _to_engine(state, action)


def _to_engine(state: HandState, action: object) -> str:
    if state.phase == OVER:
        return "the hand is over: no action is allowed"
    label = _label(action)
    who = seat_name(state.cur, state.n)
    allowed = ", ".join(_label(a) for a in state.legal_actions())
    if state.phase == PLAY:
        if not isinstance(action, int) or not 0 <= action <= 32:
            return f"{who} must play a card now, not {label}; allowed: {allowed}"
        if not state.hands[state.cur] >> action & 1:
            return f"{who} does not hold {card_name(action)}; playable: {allowed}"
        return _must_follow(state, action)
    return f"{label} is not allowed now ({who} to {_task(state)}){_rule_against(state, action)}; " \
        f"allowed: {allowed}"


def _must_follow(state: HandState, action: Card) -> str:
    """A card held that does not follow the suit led, though the hand can follow."""
    trump = state.trump
    led = state.led
    follow = state.hands[state.cur] & SUIT_MASK[trump][led]
    held = " ".join(card_name(c) for c in sort_hand(cards_of(follow), trump))
    extra = ""
    if EFFECTIVE_SUIT[trump][action] != EFFECTIVE_SUIT[NO_TRUMP][action]:
        extra = f"; {card_name(action)} is a trump here"
    elif EFFECTIVE_SUIT[trump][action] == trump:
        extra = f"; {card_name(action)} is a trump"
    return f"must follow {SUIT_SYMBOLS[led]}: you hold {held}{extra}"


def _rule_against(state: HandState, action: object) -> str:
    """The table rule that forbids ``action`` when one does, as a clause after a colon: so a
    refusal of a bid that is legal elsewhere (a pass, ordering up, a suit) says why."""
    r = state.rules
    p = state.phase
    cur = state.cur
    if p == BID1 and state.upcard == JOKER and action in (A.PASS, A.ORDER, A.ORDER_ALONE):
        return ": the Joker was turned up, so the dealer names trump"
    if p in (BID1, BID2) and action in _ALONE_BIDS:
        if not r.going_alone:
            return ": going alone is off in these rules"
        if r.alone_timing == "after_discard":
            return ": in these rules the maker is asked about going alone once trump is fixed"
    if p == BID1 and action == A.ORDER and r.canadian_loner and state.n == 4 \
            and cur == partner(state.dealer, 4):
        return ": under the Canadian loner the dealer's partner may order up only by going alone"
    if p == BID2 and action == A.PASS and r.stick_the_dealer and cur == state.dealer:
        return ": under stick the dealer the dealer must name trump in round two"
    if p == BID2 and isinstance(action, int) and A.CALL_BASE <= action < A.DEFEND_ALONE \
            and (action - A.CALL_BASE) % 4 == state.upcard >> 3:
        return f": {SUIT_SYMBOLS[state.upcard >> 3]} was turned down, name another suit"
    if p == AUCTION:
        if action == A.PASS and r.stick_the_dealer:
            return ": under stick the dealer the dealer must bid when the non-dealer passed"
        if isinstance(action, int) and A.is_bid(action):
            return f": a bid must beat the standing bid of {state.contract} tricks"
        if isinstance(action, int) and A.CALL_BASE <= action < A.DEFEND_ALONE:
            return (": with rows each player first bids tricks (bid 7 to bid 12); the higher "
                    "bidder then names trump")
    if p == TRUMP and action == A.PASS:
        return ": the higher bidder must name trump"
    if p == DISCARD and isinstance(action, int) and A.is_discard(action):
        c = action - A.DISCARD_BASE
        if not state.hands[cur] >> c & 1:
            return f": the dealer does not hold {card_name(c)}"
        if c == state.upcard:
            return ": in these rules the dealer may not bury the up-card just picked up"
    return ""


def _sentence(text: str) -> str:
    """A clause as a sentence: a capital first letter and a full stop."""
    return f"{text[:1].upper()}{text[1:]}."


def _to_person(state: HandState, action: object, asked: str | None) -> str:
    """The player to act is "you"; each text one or two sentences."""
    if state.phase == OVER:
        return "The hand is over: no move is possible."
    if not isinstance(action, int) or isinstance(action, bool):
        return f"{_words(state, action)} is not a move: type a card or a bid."
    p = state.phase
    held = state.hands[state.cur]
    card = action - A.DISCARD_BASE if A.is_discard(action) else action
    is_call = A.CALL_BASE <= action < A.CALL_ALONE_BASE + 4
    up = card_name(state.upcard) if state.upcard >= 0 else ""
    if p == PLAY:
        if not A.is_play(action):
            return "Bidding is over: play a card."
        if not held >> action & 1:
            return f"You do not hold {card_name(action)}."
        return _sentence(_must_follow(state, action))
    if A.is_play(action) or A.is_discard(action):
        if p == DISCARD and not held >> card & 1:
            return f"You do not hold {card_name(card)}."
        if p == DISCARD and card == state.upcard:
            return "In these rules the dealer may not bury the up-card just picked up."
        return "Cards are played after the bidding."
    r = state.rules
    if p == BID1:
        if state.upcard == JOKER and action in (A.ORDER, A.ORDER_ALONE, A.PASS):
            return "The Joker turned up: as dealer you name trump."
        if is_call and state.upcard != JOKER:
            return (f"In the first round you may only order up the {up} or pass; a suit is "
                    "named in the second round.")
        if action == A.ORDER and A.ORDER_ALONE in state.legal_actions():
            return "Canadian loner: the dealer's partner may order up only by going alone."
    if p == BID2:
        if is_call and state.upcard != JOKER and (action - A.CALL_BASE) % 4 == state.upcard >> 3:
            return (f"{SUIT_NAMES[state.upcard >> 3].capitalize()} was turned down: name "
                    "another suit.")
        if action == A.PASS:
            return "Stick the dealer: the dealer may not pass and must name trump."
        if action in (A.ORDER, A.ORDER_ALONE):
            return f"The {up} was turned down: now you may name another suit."
    if p in (BID1, BID2) and action in _ALONE_BIDS:
        if r.going_alone and r.alone_timing == "after_discard":
            return "In these rules you are asked about going alone once trump is fixed."
        return "Going alone is not allowed with these rules."
    words = _words(state, action)
    why = _rule_against(state, action)
    if why:
        return _sentence(f"{words} is not possible now{why}")
    if asked is not None:
        return f"{words} is not possible now: {asked}"
    return f"{words} is not possible now: you are to {_task(state)}."
