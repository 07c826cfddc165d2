"""The names of a hand's phases, outcomes and up-card places: small ints with their words.

Inside the engine a phase is a small int (``PLAY``...) so the state can index tables by it and a
compiled build compares it natively. Everywhere else it is a :class:`Phase`: the member a
:class:`~euchre.view.SeatView` carries, and the one type every client (bots, analysis, terminal,
web) compares against. Both the state and the view read these from here, so neither module
imports the other to learn them.
"""

from __future__ import annotations

import enum
from typing import Final

DECLARE: Final = 0
"""Before bidding: each seat in turn may declare a farmer's hand or a misdeal (or pass)."""
BID1: Final = 1
"""Round one: order up the up-card or pass (under a turned-up Joker the dealer names trump)."""
BID2: Final = 2
"""Round two: name a suit other than the one turned down, or pass."""
DEALER_TAKE: Final = 3
"""Two-handed: the dealer takes or declines the card the non-dealer ordered."""
DISCARD: Final = 4
"""The dealer buries a card after taking the up-card."""
ALONE: Final = 5
"""The maker says whether to go alone, after trump is fixed (``alone_timing="after_discard"``)."""
DEFEND: Final = 6
"""Each defender in turn may defend alone."""
PLAY: Final = 7
"""Card play."""
CLAIM: Final = 8
"""After the last trick (renege "penalize"): one seat per side may claim a renege."""
OVER: Final = 9
"""The hand is finished."""
FIX: Final = 10
"""Before a trick is quitted (``renege_fix``): players who did not follow may take back."""
AUCTION: Final = 11
"""Two-handed with rows: each player in turn bids a number of tricks (``bid 7``..``bid 12``)
or passes, the non-dealer first."""
TRUMP: Final = 12
"""Two-handed with rows: the higher bidder names trump."""



class Phase(enum.Enum):
    """A hand's phase as its clients see it; its value is the word on the wire.

    A plain :class:`enum.Enum`, not a ``str`` subclass nor a ``Literal``, so that mypy --strict
    rejects any comparison of a phase with a string (``view.phase == "plya"`` and
    ``view.phase in ("play", "bdi1")`` are both errors) and a misspelt member is an unknown
    attribute. The word itself travels unchanged: ``str(phase)`` and f-strings give it, msgspec
    encodes a member as its value, and :meth:`Phase.of` reads one back with a clear error. Members
    are in the engine's order: ``PHASES[state.phase]`` is the state's phase.
    """

    DECLARE = "declare"
    BID1 = "bid1"
    BID2 = "bid2"
    DEALER_TAKE = "dealer_take"
    DISCARD = "discard"
    ALONE = "alone"
    DEFEND = "defend"
    PLAY = "play"
    CLAIM = "claim"
    OVER = "over"
    FIX = "fix"
    AUCTION = "auction"
    TRUMP = "trump"

    def __str__(self) -> str:
        return self.value

    @property
    def number(self) -> int:
        """The engine's number of this phase (``HandState.phase``)."""
        return _NUMBERS[self]

    @property
    def task(self) -> str:
        """What the player to act is asked to do in this phase, for error messages."""
        return PHASE_TASKS[_NUMBERS[self]]

    @staticmethod
    def of(word: object) -> Phase:
        """The phase named ``word``, or a ValueError listing the words allowed."""
        for p in PHASES:
            if p.value == word:
                return p
        raise ValueError(f"unknown phase {word!r}: one of {', '.join(PHASE_NAMES)}")


#: Every phase by engine number: ``PHASES[state.phase]``.
PHASES: Final[tuple[Phase, ...]] = tuple(Phase)
_NUMBERS: Final[dict[Phase, int]] = {p: i for i, p in enumerate(PHASES)}
#: The words of the phases, by engine number (what the browser and the bot protocol receive).
PHASE_NAMES: Final[tuple[str, ...]] = tuple(p.value for p in PHASES)

#: What the player to act is asked to do in each phase, for error messages.
PHASE_TASKS: Final = (
    "declare before bidding", "order up or pass", "name trump or pass",
    "take or decline the up-card", "discard", "decide whether to go alone",
    "decide whether to defend alone", "play a card", "claim a renege or pass", "",
    "fix a renege or let the trick stand", "bid a number of tricks or pass", "name trump",
)

# Outcomes of a finished hand
SCORED: Final = "scored"
THROWN_IN: Final = "thrown_in"
MISDEAL_REDEAL: Final = "misdeal"

# Where the up-card is
UP_FACE: Final = 0
UP_TAKEN: Final = 1
UP_TURNED_DOWN: Final = 2
UP_LEFT: Final = 3
UP_NONE: Final = 4
UPCARD_STATUS_NAMES: Final = (
    "face up", "taken by the dealer", "turned down", "left in the kitty", "none (rows)",
)

TERMINAL: Final = -4
"""``current_player`` of a finished hand (OpenSpiel's marker)."""
