"""A rule-based player: the table habits of a sound casual player, each with its reason.

Bidding counts expected tricks for every trump the seat could name (bowers, trump length,
off-suit aces, voids, and who ends up with the up-card) and compares the count with thresholds
per player count. Play follows the habits a partner expects: lead trump as maker, cash aces,
play low under a partner who is winning, trump in when the trick is otherwise lost, throw off
from short suits. Every decision comes with one sentence saying why, which is the terminal's
``hint``. The bot reads only its :class:`~euchre.view.SeatView`.

Its fixes target the habits that lost it the most points (measured against its old self,
``rule-v1`` in ``legacy_rule.py``): side aces without trumps to back them, a weak round-one
order when a far better round-two suit is in hand, too few loners, third hand playing low
behind a partner's beatable card, no sense of the match score, and hints that did not fit a
forced play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from euchre import actions as A
from euchre.bots.base import require_turn
from euchre.cards import (
    ACE,
    EFFECTIVE_SUIT,
    JOKER,
    KING,
    NO_TRUMP,
    POWER,
    STRENGTH,
    SUIT_MASK,
    SUIT_NAMES,
    SUITS,
    Card,
    cards_of,
    deck_mask,
    mask_of,
)
from euchre.phases import Phase
from euchre.seats import seat_name
from euchre.view import SeatView
from euchre.words import Moment, action_words
from euchre.words import card_words as card_name

#: Expected tricks from a trump that is not part of the top run, by trump rank
#: (Joker 10, right 9, left 8, A 7, K 6, Q 5, 10 3, 9 2, 8 1, 7 0).
TRUMP_VALUE = {10: 1.0, 9: 0.95, 8: 0.8, 7: 0.65, 6: 0.5, 5: 0.42, 3: 0.36, 2: 0.33, 1: 0.3, 0: 0.3}

#: Expected tricks needed to make trump, by number of players. Four players count on a partner;
#: the cutthroat maker faces two opponents who team up, so needs more.
CALL_THRESHOLD = {4: 2.2, 3: 2.9, 2: 2.4}
#: Expected tricks to go alone (four players). Alone a march scores 4 instead of 2, so going
#: alone pays as soon as a lone march is about one chance in three and a euchre is unlikely:
#: far below "a march is certain". ``lone_losers`` adds the second test.
ALONE_THRESHOLD = 3.3
#: Most likely losers (see :func:`lone_losers`) a lone hand may carry. Two is bolder than a
#: table player's rule of thumb, and measured better: with strong trumps a lone hand still makes
#: its point when it loses a trick, and marches often enough to pay for it (docs/benchmarks.md).
ALONE_MAX_LOSERS = 2.0
#: Off-suit aces count fully only with two or more trumps in hand (index: trumps held, max 2).
ACE_SCALE = (0.45, 0.7, 1.0)
#: Off-suit aces counted fully whatever the trumps: the first rule bot's count (``rule-v1``),
#: which the rollout policy (:mod:`euchre.bots.rollout`) keeps.
FULL_ACES = (1.0, 1.0, 1.0)
#: A round-two suit this many expected tricks better than the up-card's suit is worth passing
#: round one for (when it is worth a call on its own).
ROUND_TWO_MARGIN = 0.8
#: Score sense: a thin call that the opponents' euchre would end the game needs this much more;
#: a call whose making ends the game in our favour needs this much less.
DANGER_MARGIN = 0.4
FINISH_DISCOUNT = 0.2
#: Two-handed with rows: the eight cards a seat sees (hand and face-up row) are two thirds of
#: the twelve it plays, so its trick estimate from them is scaled by this for the whole hand.
ROWS_SCALE = 1.5
#: Rows bidding: bid (or outbid to) k tricks when the scaled estimate is at least k plus this
#: margin. Measured on duplicate deals (docs/rules.md, "Bots"): margins 0, +0.5, +1 and +2 tie;
#: a negative margin bids tricks it does not expect, and wins more the lower it goes (-12,
#: every bid allowed, beats 0 by 0.69 points a hand) only because the source's rule lets a
#: missed bid cost nothing; it also makes a game between two such bots last about 330 hands
#: instead of 14. So 0: bid what the hand is worth.
ROWS_BID_MARGIN = 0.0
#: The same under ``rows_euchre`` (a missed bid gives the other player 2), measured the same
#: way: -3 beats 0 by 0.47, -4 by 0.20 and -5 by 0.53 points a hand and ties -2 and -2.5; so
#: the scaled estimate runs about three tricks low there (the face-down cards and the lead
#: help the maker more than the count of visible cards says).
ROWS_EUCHRE_BID_MARGIN = -3.0
#: A defender goes alone against a lone maker (or against a pair, OpenSpiel's variant).
DEFEND_ALONE_THRESHOLD = 3.0
DEFEND_ALONE_VS_PAIR_THRESHOLD = 3.6

Decision = tuple[int, str]


def sym(c: int) -> str:
    """A card as the explanations name it (the Joker spelt out, as in every refusal)."""
    return card_name(c)


def _trump_order(deck: int) -> list[int]:
    """Trump ranks from the top, as they exist in a deck (see TRUMP_VALUE)."""
    top = [10] if deck == 25 else []
    low = [1, 0] if deck == 32 else []
    return [*top, 9, 8, 7, 6, 5, 3, 2, *low]


def estimate(cards: Iterable[Card], trump: int, deck: int = 24,
             ace_scale: tuple[float, float, float] = ACE_SCALE) -> float:
    """Expected tricks a hand takes with ``trump``: the run of top trumps counts one trick each,
    other trumps by rank, length beyond two, off-suit aces (less in long suits, and scaled by
    ``ace_scale`` for the trumps held), a king behind its ace, and voids or singletons that a
    hand with trumps can ruff."""
    cs = list(cards)
    eff = EFFECTIVE_SUIT[trump]
    pw = POWER[trump]
    ranks = sorted((pw[c] - 100 for c in cs if eff[c] == trump), reverse=True)
    held = set(ranks)
    run = 0
    for r in _trump_order(deck):
        if r not in held:
            break
        run += 1
    est = run + sum(TRUMP_VALUE[r] for r in ranks[run:])
    n_tr = len(ranks)
    if n_tr >= 3:
        est += 0.25 * (n_tr - 2)
    # A side ace wins only until someone trumps it, and a hand short of trumps cannot draw the
    # opponents' trumps first: with none or one trump an ace is a weak trick (measured: such
    # orders into an opponent dealer were euchred more often than not).
    scale = ace_scale[min(n_tr, 2)]
    for s in SUITS:
        if s == trump:
            continue
        side = sorted((c & 7 for c in cs if eff[c] == s), reverse=True)
        if not side:
            if n_tr >= 2:
                est += 0.3
            continue
        if side[0] == ACE:
            est += scale * (0.75 if len(side) <= 2 else 0.5)
            if len(side) > 1 and side[1] == KING:
                est += scale * 0.3
        elif side[0] == KING and len(side) >= 2:
            est += 0.15
        elif len(side) == 1 and n_tr >= 2:
            est += 0.1
    return est


def lone_losers(cards: Iterable[Card], trump: int, deck: int = 24, dead: int = -1) -> float:
    """Tricks a hand playing alone most likely loses, counted as a player counts them before
    going alone: a trump loses when more missing trumps outrank it than the hand holds trumps
    above it (leading from the top draws one round per higher trump); a side card below the
    ace loses (a king behind its ace half a trick); a side ace backed by two trumps or fewer
    may be ruffed (half). ``dead`` is a trump known to be out of play (the up-card turned down,
    or picked up by a partner who sits out)."""
    cs = list(cards)
    eff = EFFECTIVE_SUIT[trump]
    pw = POWER[trump]
    mine = sorted((pw[c] for c in cs if eff[c] == trump), reverse=True)
    missing = [pw[c] for c in cards_of(deck_mask(deck) & SUIT_MASK[trump][trump])
               if c not in cs and c != dead]
    losers = 0.0
    for i, r in enumerate(mine):
        if sum(1 for m in missing if m > r) > i:
            losers += 1.0
    for s in SUITS:
        if s == trump:
            continue
        side = sorted((c & 7 for c in cs if eff[c] == s), reverse=True)
        for k, r in enumerate(side):
            if k == 0 and r == ACE:
                losers += 0.5 if len(mine) <= 2 else 0.0
            elif k == 1 and r == KING and side[0] == ACE:
                losers += 0.5
            else:
                losers += 1.0
    return losers


def score_sense(view: SeatView) -> tuple[float, bool]:
    """(change to the call threshold, whether going alone can still gain anything) from the
    match score: a thin call that a euchre would turn into the opponents' game needs more; a
    call whose making ends the game needs less; a loner is pointless when a march with partner
    already reaches the target. Without a match score (single hands) it changes nothing."""
    if not view.scores or view.rules.single_hand:
        return 0.0, True
    sc = view.rules.scoring
    target = view.rules.target
    me = view.side_of()
    mine = view.scores[me]
    theirs = max(v for side, v in enumerate(view.scores) if side != me)
    # A euchre hands them the game, yet passing does not: they cannot win by making one point.
    lose_on_euchre = theirs + sc.euchre >= target and theirs + sc.make < target
    win_on_make = mine + sc.make >= target
    adj = 0.0
    if lose_on_euchre and not win_on_make:
        adj = DANGER_MARGIN
    elif win_on_make and not lose_on_euchre:
        adj = -FINISH_DISCOUNT
    return adj, mine + sc.march < target


def best_discard(
    cards: Sequence[Card], trump: int, deck: int, keep: int = -1,
    ace_scale: tuple[float, float, float] = ACE_SCALE,
) -> tuple[float, int]:
    """(estimate of the best five, the card to bury) for a six-card hand; ``keep`` may not go."""
    best = (-1.0, -1)
    for c in sorted(cards, key=lambda x: POWER[trump][x]):
        if c == keep:
            continue
        rest = [x for x in cards if x != c]
        e = estimate(rest, trump, deck, ace_scale)
        if e > best[0]:
            best = (e, c)
    return best


class RuleBasedBot:
    """Bids on counted tricks, plays by the habits of a sound partner, and says why."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        # Deterministic: the seed is accepted so every bot is built the same way.
        self.seed = seed

    def choose(self, view: SeatView) -> int:
        return self.decide(view)[0]

    def explain(self, view: SeatView) -> str:
        return self.decide(view)[1]

    def decide(self, view: SeatView) -> Decision:
        """(action, one-sentence reason)."""
        legal = require_turn(view)
        phase = view.phase
        if phase == Phase.PLAY:
            action, why = _Play(view, self.third_hand_high, self.forced_plays_explained).decide()
        elif phase == Phase.BID1:
            action, why = self._bid1(view)
        elif phase == Phase.AUCTION:
            action, why = self._auction(view)  # two-handed with rows (below)
        elif phase == Phase.TRUMP:
            action, why = self._name_trump(view)
        elif phase == Phase.BID2:
            action, why = self._bid2(view)
        elif phase == Phase.DISCARD:
            action, why = self._discard(view)
        elif phase == Phase.DEALER_TAKE:
            action, why = self._take(view)
        elif phase == Phase.ALONE:
            action, why = self._alone(view)
        elif phase == Phase.DEFEND:
            action, why = self._defend(view)
        elif phase == Phase.CLAIM:
            action, why = self._claim(view)
        elif phase == Phase.DECLARE:
            action, why = self._declare(view)
        elif phase == Phase.FIX:
            action, why = self._fix(view)
        else:  # pragma: no cover - the engine has no other phase with a decision
            action, why = legal[0], "This is the only thing to do."
        if action not in legal:  # pragma: no cover - a guard, never expected
            return legal[0], "I take the first legal option."
        return action, why

    # ------------------------------------------------------------------------------------------
    # Two-handed with rows and revokes fixed in time: kept apart from the rest.

    def _rows_best(self, view: SeatView) -> tuple[float, int]:
        """(tricks of twelve this seat expects, suit) for its best trump suit: the estimate
        from the cards it sees, scaled to twelve, less the measured margin."""
        est, s = max((estimate(view.hand, s, view.rules.deck), s) for s in SUITS)
        margin = ROWS_EUCHRE_BID_MARGIN if view.rules.rows_euchre else self.rows_margin
        return est * ROWS_SCALE - margin, s

    rows_margin = ROWS_BID_MARGIN
    """The rows bidding margin (a class attribute, so a measurement can try others)."""

    def _auction(self, view: SeatView) -> Decision:
        """Rows: bid the tricks the hand is worth (the non-dealer, speaking first), or outbid
        by one when the hand is worth that (the dealer, speaking last); seven when nobody has
        bid and a missed bid costs nothing (the source's rule, docs/rules.md)."""
        legal = view.legal_actions
        expect, s = self._rows_best(view)
        euchre = view.rules.rows_euchre
        name = SUIT_NAMES[s]
        standing = view.contract
        worth = max(0, min(A.BID_MAX, int(expect)))
        if not standing:
            k = max(A.BID_MIN, worth) if view.seat != view.dealer else A.BID_MIN
        else:
            k = standing + 1
        free = not euchre and k == A.BID_MIN and not standing
        if (k <= worth or free) and A.bid(k) in legal:
            why = (f"{name} should take about {expect:.1f} of the twelve tricks" if k <= expect
                   else f"the least there is, and a missed bid costs nothing ({name} should "
                        f"take about {expect:.1f} tricks)")
            return A.bid(k), f"I bid {k}: {why}."
        if A.PASS not in legal:
            return legal[0], f"I may not pass, so I bid {A.bid_tricks(legal[0])}."
        if standing >= A.BID_MAX:
            return A.PASS, "I pass: nothing outbids a bid of twelve."
        return A.PASS, (f"I pass: my best suit, {name}, is worth about {expect:.1f} tricks, not "
                        f"{k}.")

    def _name_trump(self, view: SeatView) -> Decision:
        tricks, s = self._rows_best(view)
        return A.call(s), (f"{SUIT_NAMES[s].capitalize()} is my best suit: about {tricks:.1f} "
                           "tricks.")

    def _fix(self, view: SeatView) -> Decision:
        """A renege found before the trick is quitted is always worth taking back: standing,
        it costs far more than the trick."""
        if A.FIX_RENEGE in view.legal_actions:
            return A.FIX_RENEGE, "I could have followed suit: I take that card back."
        return A.PASS, "I had none of the suit led: the trick stands."

    # ------------------------------------------------------------------------------------------
    # Bidding

    # The habits that make ``rule`` better than the first rule player, one switch each, so that
    # ``rule-v1`` (:mod:`euchre.bots.legacy_rule`) is this player with all of them off, and a
    # measurement can take one out at a time.
    ace_scale: tuple[float, float, float] = ACE_SCALE
    """What an off-suit ace counts for with no, one, two or more trumps in hand."""
    alone_threshold: float = ALONE_THRESHOLD
    """Expected tricks to go alone."""
    alone_max_losers: float | None = ALONE_MAX_LOSERS
    """Likely losers a lone hand may carry (:func:`lone_losers`); None: not counted."""
    alone_against_a_higher_upcard: bool = False
    """Order alone though an opponent dealer picks up a trump above all of its own."""
    round_two_pass: bool = True
    """Pass round one for a far better round-two suit (``ROUND_TWO_MARGIN``)."""
    score_sense: bool = True
    """Read the match score (:func:`score_sense`)."""
    third_hand_high: bool = True
    """Play over a partner's card that can still be beaten."""
    forced_plays_explained: bool = True
    """A forced play's hint says it is forced (the play is the same either way)."""

    def _estimate(self, cards: Iterable[Card], trump: int, deck: int) -> float:
        return estimate(cards, trump, deck, self.ace_scale)

    def _best_discard(self, cards: Sequence[Card], trump: int, deck: int,
                      keep: int = -1) -> tuple[float, int]:
        return best_discard(cards, trump, deck, keep, self.ace_scale)

    def _score_sense(self, view: SeatView) -> tuple[float, bool]:
        return score_sense(view) if self.score_sense else (0.0, True)

    def _call_threshold(self, view: SeatView) -> float:
        return CALL_THRESHOLD[view.players]

    def _alone_ok(self, view: SeatView, hand: Sequence[Card], trump: int, est: float,
                  dead: int = -1) -> bool:
        """Go alone: enough expected tricks, few enough likely losers (``ALONE_MAX_LOSERS``),
        and a score where the four points of a lone march are worth more than the two of a
        march with partner."""
        if est < self.alone_threshold or not self._score_sense(view)[1]:
            return False
        return self.alone_max_losers is None or \
            lone_losers(hand, trump, view.rules.deck, dead) <= self.alone_max_losers

    def _bid1(self, view: SeatView) -> Decision:
        legal = view.legal_actions
        deck = view.rules.deck
        hand = list(view.hand)
        up = view.upcard
        n = view.players
        me = view.seat
        adj, _ = self._score_sense(view)
        if up == JOKER:
            # The dealer names trump with the Joker in hand.
            best_suit, best_est, best_five = 0, -1.0, hand
            for s in SUITS:
                e, c = self._best_discard([*hand, up], s, deck)
                if e > best_est:
                    best_suit, best_est = s, e
                    best_five = [x for x in [*hand, up] if x != c]
            alone = A.call(best_suit, True) in legal and self._alone_ok(
                view, best_five, best_suit, best_est)
            name = SUIT_NAMES[best_suit]
            if alone:
                return A.call(best_suit, True), (
                    f"With the Joker my hand is worth about {best_est:.1f} tricks in {name}, "
                    "enough to go alone.")
            return A.call(best_suit), (
                f"The Joker turned up, so I name {name}, my best suit "
                f"(about {best_est:.1f} tricks).")
        t = up >> 3
        name = SUIT_NAMES[t]
        dealer = view.dealer
        lone_hand: list[int] = hand
        dead = -1
        opp_up = False
        if me == dealer:
            keep = -1 if view.rules.dealer_may_discard_upcard else up
            est, buried = self._best_discard([*hand, up], t, deck, keep=keep)
            lone_hand = [x for x in [*hand, up] if x != buried]
            alone_est = est
            who = "me picking up the " + sym(up)
        else:
            base = self._estimate(hand, t, deck)
            value = card_value(up, t)
            if n == 4 and dealer == view.partner():
                est = base + 0.6 * value
                who = f"my partner picking up the {sym(up)}"
                alone_est = base  # the partner sits out: the up-card helps nobody
                dead = up
            else:
                # An opponent's up-card beats a lone hand as surely as a pair: with it the
                # dealer may even hold the top trump, and then a march is impossible.
                est = base - 0.5 * value
                who = f"the dealer getting the {sym(up)}"
                alone_est = est
                opp_up = True
        threshold = self._call_threshold(view) + adj
        top_mine = max((POWER[t][c] for c in hand if EFFECTIVE_SUIT[t][c] == t), default=-1)
        outranked = opp_up and POWER[t][up] > top_mine and not self.alone_against_a_higher_upcard
        if (A.ORDER_ALONE in legal and not outranked
                and self._alone_ok(view, lone_hand, t, alone_est, dead)):
            return A.ORDER_ALONE, (
                f"My hand is worth about {alone_est:.1f} tricks in {name}: I go alone for the "
                "four-point march.")
        # A far better suit for round two: passing keeps it for naming (or for defence).
        other, o_suit = max((self._estimate(hand, s, deck), s) for s in SUITS if s != t)
        if (self.round_two_pass and A.PASS in legal and A.ORDER in legal and est >= threshold
                and other >= est + ROUND_TWO_MARGIN):
            return A.PASS, (
                f"{SUIT_NAMES[o_suit].capitalize()} would be far better than {name} "
                f"(about {other:.1f} tricks against {est:.1f}), so I pass for now.")
        if A.ORDER in legal and est >= threshold:
            verb = action_words(A.ORDER, Moment.of(view))
            return A.ORDER, (
                f"With {name} as trump and {who}, I count about {est:.1f} tricks, "
                f"enough to {verb}.")
        if A.PASS in legal:
            if A.ORDER not in legal:  # Canadian loner: the dealer's partner orders only alone
                return A.PASS, (
                    f"I could only order {name} alone here and my hand (about {alone_est:.1f} "
                    "tricks) is not strong enough.")
            if adj > 0 and est >= self._call_threshold(view):
                return A.PASS, (
                    f"About {est:.1f} tricks in {name} is too thin when a euchre would give "
                    "the other side the game: I pass.")
            return A.PASS, (
                f"With {name} as trump and {who} I count only about {max(est, 0.0):.1f} "
                "tricks: I pass.")
        return legal[0], "This is the only bid allowed."  # pragma: no cover

    def _bid2(self, view: SeatView) -> Decision:
        legal = view.legal_actions
        deck = view.rules.deck
        hand = list(view.hand)
        dead = view.upcard >> 3 if view.upcard != JOKER else -1
        options = [(self._estimate(hand, s, deck), s) for s in SUITS
                   if s != dead and A.call(s) in legal]
        est, s = max(options)
        name = SUIT_NAMES[s]
        threshold = self._call_threshold(view) + self._score_sense(view)[0]
        turned = view.upcard if view.upcard_status == "turned down" else -1
        if A.call(s, True) in legal and self._alone_ok(view, hand, s, est, turned):
            return A.call(s, True), (
                f"{name.capitalize()} gives me about {est:.1f} tricks: I call it and go alone.")
        if est >= threshold or A.PASS not in legal:
            if A.PASS not in legal and est < threshold:
                return A.call(s), (
                    f"The dealer may not pass, so I name my best suit, {name} "
                    f"(about {est:.1f} tricks).")
            return A.call(s), f"{name.capitalize()} is my best suit, worth about {est:.1f} tricks."
        return A.PASS, (
            f"My best suit, {name}, is worth only about {est:.1f} tricks: I pass.")

    def _discard(self, view: SeatView) -> Decision:
        legal = view.legal_actions
        t = view.trump
        deck = view.rules.deck
        hand = list(view.hand)
        allowed = [a - A.DISCARD_BASE for a in legal]
        keep = -1 if view.upcard in allowed else view.upcard
        _, c = self._best_discard(hand, t, deck, keep=keep)
        if c not in allowed:  # pragma: no cover - keep is never the only card
            c = min(allowed, key=lambda x: POWER[t][x])
        s = EFFECTIVE_SUIT[t][c]
        left = [x for x in hand if x != c and EFFECTIVE_SUIT[t][x] == s]
        if s != t and not left:
            return A.discard(c), (
                f"I bury the {sym(c)} to leave myself void in {SUIT_NAMES[s]}, "
                "so I can trump that suit.")
        return A.discard(c), f"I bury the {sym(c)}, the card my hand needs least."

    def _take(self, view: SeatView) -> Decision:
        t = view.trump
        deck = view.rules.deck
        hand = list(view.hand)
        without = self._estimate(hand, t, deck)
        with_up, _ = self._best_discard([*hand, view.upcard], t, deck)
        if with_up >= without:
            return A.TAKE, (
                f"Taking the {sym(view.upcard)} improves my hand "
                f"(about {with_up:.1f} tricks against {without:.1f}).")
        return A.DECLINE, f"The {sym(view.upcard)} would not improve my hand, so I decline it."

    def _alone(self, view: SeatView) -> Decision:
        est = self._estimate(view.hand, view.trump, view.rules.deck)
        if self._alone_ok(view, view.hand, view.trump, est):
            return A.GO_ALONE, f"My hand is worth about {est:.1f} tricks: I go alone."
        return A.WITH_PARTNER, (
            f"My hand is worth about {est:.1f} tricks, so I want my partner's help.")

    def _defend(self, view: SeatView) -> Decision:
        est = self._estimate(view.hand, view.trump, view.rules.deck)
        need = DEFEND_ALONE_THRESHOLD if view.alone else DEFEND_ALONE_VS_PAIR_THRESHOLD
        if est >= need:
            return A.DEFEND_ALONE, (
                f"I hold about {est:.1f} tricks in trump and aces: I defend alone for four.")
        return A.PASS, (
            f"About {est:.1f} tricks is not enough to defend alone, so I keep my partner.")

    def _claim(self, view: SeatView) -> Decision:
        offenders = visible_reneges(view)
        mine = view.is_maker_side()
        against = [s for s in offenders if view.is_maker_side(s) != mine]
        if against and A.CLAIM_RENEGE in view.legal_actions:
            return A.CLAIM_RENEGE, (
                f"{seat_name(against[0], view.players)} failed to follow suit and later "
                "showed that suit: I claim the renege.")
        return A.PASS, "No renege by the other side shows in the tricks, so I do not claim."

    def _declare(self, view: SeatView) -> Decision:
        legal = view.legal_actions
        if A.FARMER in legal:
            return A.FARMER, "A hand of only nines and tens is hopeless: I call a farmer's redeal."
        if A.MISDEAL in legal:
            return A.MISDEAL, "No ace, no face and no trump: I call a misdeal."
        swaps = [a for a in legal if a >= A.SWAP_BASE]
        if swaps:
            up_suit = view.upcard >> 3 if view.upcard != JOKER else -1

            def cost(a: int) -> tuple[int, int]:
                cards = A.SWAP_SETS[a - A.SWAP_BASE]
                return (sum(1 for c in cards if c >> 3 == up_suit),
                        sum(c & 7 for c in cards))

            a = min(swaps, key=cost)
            shown = " ".join(sym(c) for c in A.SWAP_SETS[a - A.SWAP_BASE])
            return a, f"I swap my weakest low cards, {shown}, for the kitty: anything is better."
        return A.PASS, "Nothing to declare."


def card_value(c: int, trump: int) -> float:
    """Tricks a card adds to whoever holds it as a trump (used for the up-card)."""
    if EFFECTIVE_SUIT[trump][c] != trump:
        return 0.0
    return TRUMP_VALUE[POWER[trump][c] - 100]


def visible_reneges(view: SeatView) -> list[int]:
    """Seats the public tricks prove reneged: they failed to follow a suit, then later played
    a card of that suit (so they held it when they should have followed)."""
    if view.trump == NO_TRUMP:
        return []
    eff = EFFECTIVE_SUIT[view.trump]
    tricks = [cards for _, cards, _ in view.tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    failed: list[tuple[int, int, int]] = []  # (seat, trick index, suit)
    out: list[int] = []
    for i, cards in enumerate(tricks):
        led = eff[cards[0][1]]
        for seat, c in cards:
            s = eff[c]
            for who, j, suit in failed:
                if who == seat and j < i and suit == s and seat not in out:
                    out.append(seat)
        for seat, c in cards[1:]:
            if eff[c] != led:
                failed.append((seat, i, led))
    return out


class _Play:
    """One card-play decision, with what the seat can deduce from the public cards."""

    def __init__(self, view: SeatView, third_hand_high: bool = True,
                 forced_explained: bool = True) -> None:
        self.view = view
        self.third_hand_high = third_hand_high
        self.forced_explained = forced_explained
        self.t = view.trump
        self.eff = EFFECTIVE_SUIT[self.t]
        self.pw = POWER[self.t]
        self.hand = list(view.hand)
        seen = mask_of(view.played_cards()) | mask_of(self.hand)
        if view.discard >= 0:
            seen |= 1 << view.discard
        seen |= mask_of(view.swapped_out)
        if view.upcard_status in ("turned down", "left in the kitty"):
            seen |= 1 << view.upcard
        self.outstanding = deck_mask(view.rules.deck) & ~seen
        me = view.seat
        if view.players == 4:
            self.allies = {me, view.partner()}
        elif view.players == 3 and view.maker >= 0 and view.maker != me:
            self.allies = {s for s in range(3) if s != view.maker}
        else:
            self.allies = {me}
        self.maker_side = view.maker in self.allies
        self.defenders = "defender's" if view.players == 2 else "defenders'"

    def boss(self, c: int) -> bool:
        """No outstanding card of its suit ranks higher."""
        s = self.eff[c]
        higher = [o for o in cards_of(self.outstanding & SUIT_MASK[self.t][s])
                  if self.pw[o] > self.pw[c]]
        return not higher

    def decide(self) -> Decision:
        legal = list(self.view.legal_actions)
        if len(legal) == 1 and self.forced_explained:
            return legal[0], f"The {sym(legal[0])} is my only legal card."
        if not self.view.current_trick:
            return self.lead(legal)
        return self.follow(legal)

    def suit_len(self, c: int) -> int:
        s = self.eff[c]
        return sum(1 for x in self.hand if self.eff[x] == s)

    # Leading ----------------------------------------------------------------------------------

    def lead(self, legal: list[int]) -> Decision:
        t = self.t
        trumps = sorted((c for c in legal if self.eff[c] == t), key=lambda c: -self.pw[c])
        offs = [c for c in legal if self.eff[c] != t]
        out_trumps = (self.outstanding & SUIT_MASK[t][t]).bit_count()
        me = self.view.seat
        if self.maker_side and trumps and out_trumps:
            top = trumps[0]
            if self.boss(top):
                return top, (
                    f"I lead the {sym(top)}, the highest trump left, to draw the "
                    f"{self.defenders} trumps.")
            if me == self.view.maker and len(trumps) >= 2:
                low = trumps[-1]
                return low, (
                    f"As maker I lead a low trump, the {sym(low)}, to pull the "
                    f"{self.defenders} trumps.")
            if me != self.view.maker and not any(self.boss(c) for c in offs):
                return top, (
                    f"My partner made trump, so I lead trump to help: the {sym(top)}.")
        bosses = sorted((c for c in offs if self.boss(c)),
                        key=lambda c: (self.suit_len(c), -self.pw[c]))
        if bosses:
            c = bosses[0]
            return c, f"I lead the {sym(c)}, the best card left in its suit."
        if offs:
            c = min(offs, key=lambda x: (self.suit_len(x), self.pw[x]))
            if self.suit_len(c) == 1:
                return c, (
                    f"I lead my singleton {sym(c)} to void myself in "
                    f"{SUIT_NAMES[self.eff[c]]}, so I can trump it later.")
            return c, f"I lead a low card, the {sym(c)}, from my shortest suit."
        c = trumps[0] if self.boss(trumps[0]) else trumps[-1]
        return c, f"I hold only trumps, so I lead the {sym(c)}."

    # Following --------------------------------------------------------------------------------

    def follow(self, legal: list[int]) -> Decision:
        view = self.view
        t = self.t
        trick = view.current_trick
        led = self.eff[trick[0][1]]
        strength = STRENGTH[t][led]
        win_seat, win_card = trick[0]
        for seat, c in trick[1:]:
            if strength[c] > strength[win_card]:
                win_seat, win_card = seat, c
        win_str = strength[win_card]
        remaining = len(view.active) - len(trick) - 1
        follow = [c for c in legal if self.eff[c] == led]
        # Never renege on purpose, even where the rules only penalize it.
        cands = follow or legal
        beat = sorted((c for c in cands if strength[c] > win_str), key=lambda c: self.pw[c])
        low = min(cands, key=lambda c: self.pw[c])
        if len(follow) == 1 and self.forced_explained:
            c = follow[0]
            return c, f"I must follow suit, and the {sym(c)} is my only {SUIT_NAMES[led][:-1]}."
        if win_seat in self.allies:
            ally = "My partner" if view.players == 4 else "The other defender"
            over = [c for c in beat if follow and self.eff[c] == led]
            if over and remaining > 0 and self.third_hand_high \
                    and not self.unbeatable(win_card, led):
                # Third hand high: the ally's card can still be beaten by an opponent who
                # plays after me; a sure winner of mine (or my highest) makes them pay for it.
                sure = [c for c in over if self.unbeatable(c, led)]
                c = sure[0] if sure else over[-1]
                return c, (
                    f"{ally}'s {sym(win_card)} can still be beaten, so I play over it with "
                    f"the {sym(c)}.")
            c = low if follow else self.throw_off(cands)
            return c, (
                f"{ally} is winning with the {sym(win_card)}, so I play low: the {sym(c)}.")
        if beat:
            if not follow:
                c = beat[0]
                return c, (
                    f"The trick is lost otherwise, so I trump in with the {sym(c)}.")
            if remaining == 0:
                c = beat[0]
                return c, f"I am last to play, so I win as cheaply as I can: the {sym(c)}."
            sure = [c for c in beat if self.unbeatable(c, led)]
            if sure:
                c = sure[0]
                return c, f"The {sym(c)} cannot be beaten now, so I take the trick with it."
            c = beat[-1]
            return c, f"I play my highest, the {sym(c)}, to beat the {sym(win_card)}."
        if follow:
            return low, (
                f"I cannot beat the {sym(win_card)}, so I follow with my lowest, {sym(low)}.")
        c = self.throw_off(cands)
        return c, f"I cannot win this trick, so I throw off the {sym(c)}."

    def unbeatable(self, c: int, led: int) -> bool:
        st = STRENGTH[self.t][led]
        return all(st[o] < st[c] for o in cards_of(self.outstanding))

    def throw_off(self, cands: list[int]) -> int:
        """The cheapest card to lose: a non-trump, from the shortest suit, never a boss first."""
        offs = [c for c in cands if self.eff[c] != self.t] or cands
        return min(offs, key=lambda c: (self.boss(c) and self.eff[c] != self.t,
                                        self.pw[c] >= 100, self.suit_len(c), self.pw[c]))
