"""euchre: a pure, deterministic Euchre rules engine (no I/O, no third-party imports).

Start with :class:`Rules` (or a preset), :class:`HandState` for one deal and :class:`Match` for a
game to the target. Players see the game only through :class:`SeatView`.
"""

from euchre import actions
from euchre.actions import Action, action_from_str, action_label, action_to_str
from euchre.cards import (
    JOKER,
    Card,
    CardParseError,
    Suit,
    card_str,
    card_symbol,
    cards_of,
    parse_card,
    parse_suit,
    sort_hand,
)
from euchre.errors import EuchreError, IllegalActionError, NotationError, RecordError, RulesError
from euchre.match import FinishedHand, Match
from euchre.record import from_json, match_to_record, replay_record, to_json
from euchre.rules import PRESETS, Rules, Scoring, preset
from euchre.seats import Seat, seat_name
from euchre.state import TERMINAL, HandState
from euchre.view import SeatView

__all__ = [
    "JOKER",
    "PRESETS",
    "TERMINAL",
    "Action",
    "Card",
    "CardParseError",
    "EuchreError",
    "FinishedHand",
    "HandState",
    "IllegalActionError",
    "Match",
    "NotationError",
    "RecordError",
    "Rules",
    "RulesError",
    "Scoring",
    "Seat",
    "SeatView",
    "Suit",
    "action_from_str",
    "action_label",
    "action_to_str",
    "actions",
    "card_str",
    "card_symbol",
    "cards_of",
    "from_json",
    "match_to_record",
    "parse_card",
    "parse_suit",
    "preset",
    "replay_record",
    "seat_name",
    "sort_hand",
    "to_json",
]

__version__ = "0.1.0"
