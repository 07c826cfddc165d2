"""The rule-based player as it was before its bidding and play fixes: ``rule-v1``, the frozen
baseline, so that ``rule`` can be measured against its predecessor on the same deals
(``euchre tournament rule rule-v1``).

It is ``rule`` (:class:`~euchre.bots.rule_based.RuleBasedBot`) with each of the fixes switched
off: side aces count fully however few trumps back them, a lone hand needs four expected tricks
and nothing else (no count of likely losers, no look at a higher up-card an opponent dealer
picks up), round one is never passed for a better round-two suit, the match score is not read,
third hand plays low under a partner's beatable card, a forced play is explained as a choice,
and the phases it never knew (the rows auction, naming trump after it, taking back a renege) get
the first legal action.

Do not change what it decides: a baseline that moves makes every published margin against it
unreproducible. ``tests/test_rule_identity.py`` holds it to the decisions of the original copy
over hundreds of seeded games. Its explanations are the original's but for one word: the
Joker is spelt out, as ``rule`` spells it.
"""

from __future__ import annotations

from euchre.bots.rule_based import FULL_ACES, Decision, RuleBasedBot
from euchre.view import SeatView

#: Expected tricks the first rule player went alone on: a march had to be likely.
ALONE_THRESHOLD = 4.0


class LegacyRuleBot(RuleBasedBot):
    """``rule`` before its fixes: bids on counted tricks, plays by a partner's habits."""

    name = "rule-v1"
    ace_scale = FULL_ACES
    alone_threshold = ALONE_THRESHOLD
    alone_max_losers = None
    alone_against_a_higher_upcard = True
    round_two_pass = False
    score_sense = False
    third_hand_high = False
    forced_plays_explained = False

    def _first_legal(self, view: SeatView) -> Decision:
        return view.legal_actions[0], "This is the only thing to do."

    _auction = _name_trump = _fix = _first_legal
