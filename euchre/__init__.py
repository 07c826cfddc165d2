"""euchre: a pure, deterministic Euchre rules engine (no I/O, no third-party imports).

Start with :class:`Rules` (or a :func:`preset`), :class:`HandState` for one deal and
:class:`Match` for a game to the target. Players see the game only through :class:`SeatView`,
whose ``phase`` is a :class:`Phase`; how a game differs from the standard deal (two-handed with
rows) its :class:`Variant` says (``view.variant``, :func:`variant_for`).

>>> import random, euchre
>>> match = euchre.Match(euchre.preset("standard"), seed=1)
>>> rng = random.Random(2)
>>> while not match.is_terminal():
...     match.apply_action(rng.choice(match.view(match.current_player).legal_actions))
>>> max(match.scores) >= match.rules.target
True

Where to go next (the docs site, ``make docs``, says more about each):

- **Writing a bot**: a bot is any object with ``name``, ``choose(view) -> action`` and
  ``explain(view)``: the ``Bot`` protocol of the ``bots`` subpackage (the core itself never
  imports it), whose ``make_bot(level, seed)`` builds the bundled players, named in
  ``BOT_NAMES``.
- **Tournaments**: :func:`euchre.tournament.run` plays two players on duplicate deals and
  :func:`euchre.tournament.summarize` gives the margin with its 95% interval (the command is
  ``euchre tournament``).
- **Sampling**: :func:`euchre.sampling.sample_hand_states` draws full deals consistent with
  what one seat has seen, each a :class:`HandState` whose ``view(seat)`` equals that view.
- **Solving**: :func:`euchre.solver.solve` gives a hand's exact result under best play with
  every card known, and the value of each lawful card (``euchre solve`` on the command line).
"""
from euchre import actions
from euchre.actions import Action, action_from_str, action_to_str
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
from euchre.phases import Phase
from euchre.record import from_json, match_to_record, replay_record, to_json
from euchre.rules import PRESETS, Rules, Scoring, preset
from euchre.seats import Seat, seat_name
from euchre.state import TERMINAL, HandState
from euchre.variants import Variant, variant_for
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
    "Phase",
    "RecordError",
    "Rules",
    "RulesError",
    "Scoring",
    "Seat",
    "SeatView",
    "Suit",
    "Variant",
    "action_from_str",
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
    "variant_for",
]

__version__ = "0.1.0"
