"""The search player's card play and its rollout bidding (``search-rollout``), with the PIMC
twins kept for comparison; the ``search`` level bids from a learned model instead
(:mod:`euchre.bots.learned`) and plays its cards here.

**Card play** is determinized search (PIMC): draw deals consistent with the seat's view
(exactly uniform), weight each by how likely the bidding made it (an opponent who ordered
hearts up probably holds hearts), solve every deal double-dummy and play the card with the best
weighted average, counted in points (a third trick that makes the contract is worth more than a
fifth) and, with a match score, in the chance of winning the game. The deals, their weights and
every option's value come from :mod:`euchre.bots.valuation`, the pipeline the analysis judges
with too (a hint and this player never value a decision two ways).

**Bidding** (order up, pass, call, alone, defend alone, the discard, take or decline, the
declarations) is *not* read off double-dummy results: with every card known, contracts look
better or worse than they are (strategy fusion; the solver's defenders, for one, always
keep the right guard against a lone hand). Instead each option is played out over sampled deals
(twice as many as a card decision looks at) by an honest imperfect-information policy
(:mod:`euchre.bots.rollout`: every seat plays on what it can see), and the option with the best
average result wins. ``pimc-naive`` is the same player with the same deals bidding from
double-dummy results, kept to measure what the rollouts gain; ``pimc-full`` goes further, as
textbook PIMC does: the later bids too are chosen with every card of the deal seen.
``pimc-uniform`` is ``pimc-full`` with its deals drawn uniformly and not weighted by the
bidding (``weighting=False``): the PIMC of the published comparisons, which read nothing into
the other players' bids.

``think`` sets the budget: a number of deals (``think=64``, deterministic for a seed) or a time
cap (``think="0.5s"``, as many deals as fit). The same view always gets the same decision from
the same seed: each decision draws from a generator seeded by the bot's seed and the view.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from dataclasses import dataclass
from typing import Final

from euchre import actions as A
from euchre.bots import rollout
from euchre.bots.base import require_turn
from euchre.bots.rule_based import visible_reneges
from euchre.bots.valuation import (
    OptionValue,
    Values,
    play_options,
    sample_worlds,
    solve_cards,
)
from euchre.cards import JOKER, POWER, mask_of
from euchre.phases import Phase
from euchre.seats import Seat, seat_name, side_of
from euchre.solver import move_values_batch, points_for, solvable
from euchre.state import BID1, BID2, DEFEND, OVER, PLAY, HandState
from euchre.view import SeatView
from euchre.words import Moment, action_words, option_words

#: Deals per decision at the default strength.
DEFAULT_SAMPLES: Final = 48
#: The most deals a budget may ask for.
MAX_SAMPLES: Final = 20_000
#: A time budget always looks at this many deals, however short.
MIN_TIMED_SAMPLES: Final = 4
#: Most options a bidding decision plays out (the others are clearly worse by the count).
MAX_DISCARD_OPTIONS: Final = 4
MAX_SWAP_OPTIONS: Final = 3
MAX_CALL_SUITS: Final = 2
#: Going alone is played out only for a hand that counts at least this many tricks alone (a
#: lone hand needs all five for its bonus; below this it is never close).
MIN_ALONE_COUNT: Final = 2.8
#: Bidding plays each option out with the honest policy (every seat on what it sees) for the
#: rest of the bidding and this many tricks, and solves the rest of the hand double-dummy: 5 is
#: a full rollout (the default), 0 is naive bidding. Against real outcomes (docs/benchmarks.md) full
#: rollouts were the best calibrated of these: solving from the first card undervalues going
#: alone (the solver's defenders always keep the right guard), and no cut-off decided bids
#: measurably better.
HONEST_TRICKS: Final = 5
#: A bidding decision looks at this many times the card play's deals: bids are few in a hand
#: and a rollout is cheap, while an option's value varies a lot from deal to deal.
BID_DEALS: Final = 2


@dataclass(frozen=True, slots=True)
class Think:
    """A thinking budget: ``samples`` deals, or as many as fit in ``seconds``."""

    samples: int = DEFAULT_SAMPLES
    seconds: float | None = None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.samples)


def parse_think(value: object) -> Think:
    """Read a budget: an int or digits (deals, ``200``), or seconds (``"0.5s"``, ``"500ms"``).

    Raises ValueError saying what is accepted; the deterministic form is the deal count."""
    if value is None:
        return Think()
    if isinstance(value, Think):
        return value
    err = (f"think must be a number of deals (1..{MAX_SAMPLES}, e.g. 200) or a time such as "
           f"'0.5s' or '500ms' (0.01s..600s), not {value!r}")
    if isinstance(value, bool):
        raise ValueError(err)
    if isinstance(value, int):
        if not 1 <= value <= MAX_SAMPLES:
            raise ValueError(err)
        return Think(samples=value)
    if not isinstance(value, str):
        raise ValueError(err)
    text = value.strip().lower()
    if text.isdigit():
        return parse_think(int(text))
    scale = 1.0
    if text.endswith("ms"):
        text, scale = text[:-2], 0.001
    elif text.endswith("s"):
        text = text[:-1]
    else:
        raise ValueError(err)
    try:
        seconds = float(text) * scale
    except ValueError:
        raise ValueError(err) from None
    if not math.isfinite(seconds) or not 0.01 <= seconds <= 600:
        raise ValueError(err)
    return Think(samples=MAX_SAMPLES, seconds=seconds)


@dataclass(frozen=True, slots=True)
class Analysis:
    """A decision and the numbers behind it."""

    action: int
    kind: str
    """'play', 'bid' (played-out options), 'naive' (double-dummy bid), or 'rule' (no search)."""
    options: tuple[OptionValue, ...]
    """Best first."""
    deals: int
    weighted: bool
    reason: str = ""


def _stable_seed(seed: int, view: SeatView) -> int:
    """A seed for one decision: the bot's seed and everything the view holds."""
    text = repr((seed, view.seat, view.dealer, view.hand, view.upcard, view.history,
                 view.discard, view.swapped_out, view.scores, view.rules))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


class SearchBot:
    """Determinized search in the card play, played-out rollouts in the bidding."""

    name = "search-rollout"

    def __init__(
        self,
        seed: int | None = None,
        think: object = None,
        *,
        naive_bidding: bool = False,
        perfect_bidding: bool = False,
        weighting: bool = True,
        honest_tricks: int = HONEST_TRICKS,
        bid_deals: int = BID_DEALS,
        solved_discard: bool = False,
    ) -> None:
        self.think = parse_think(think)
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(48)
        self.naive_bidding = naive_bidding
        if not 0 <= honest_tricks <= 5 or bid_deals < 1:
            raise ValueError(f"honest_tricks must be 0..5 and bid_deals at least 1, not "
                             f"{honest_tricks} and {bid_deals}")
        self.perfect_bidding = perfect_bidding
        self.naive_bidding = naive_bidding or perfect_bidding
        self.honest_tricks = 0 if self.naive_bidding else honest_tricks
        self.bid_deals = bid_deals
        self.weighting = weighting
        self.solved_discard = solved_discard
        if perfect_bidding:
            self.name = "pimc-full" if weighting else "pimc-uniform"
        elif naive_bidding:
            self.name = "pimc-naive"
        self._last: tuple[SeatView, Analysis] | None = None

    # -----------------------------------------------------------------------------------------
    # The Bot protocol

    def choose(self, view: SeatView) -> int:
        return self.analyse(view).action

    def explain(self, view: SeatView) -> str:
        return describe(self.analyse(view), view)

    def analyse(self, view: SeatView) -> Analysis:
        """The decision for ``view`` with its numbers (cached: ``explain`` after ``choose`` on
        the same view costs nothing and always describes the same choice)."""
        legal = require_turn(view)
        if self._last is not None and self._last[0] == view:
            return self._last[1]
        if view.phase == Phase.CLAIM:
            result = self._claim(view)
        elif view.phase == Phase.PLAY:
            cands = view.lawful_cards()  # the search never reneges on purpose
            if len(cands) == 1:
                result = Analysis(cands[0], "rule", (), 0, False,
                                  "It is the only card I may play.")
            else:
                result = self._play(view, cands)
        elif len(legal) == 1:
            result = Analysis(legal[0], "rule", (), 0, False, "It is the only thing I may do.")
        else:
            result = self._bid(view)
        self._last = (view, result)
        return result

    # -----------------------------------------------------------------------------------------
    # Deals

    def _worlds(self, view: SeatView, scale: int = 1) -> tuple[list[HandState], list[float]]:
        """Deals consistent with the view (``scale`` times the budget's count), and each one's
        weight from the bidding: the valuation pipeline's, seeded by the bot and the view."""
        think = self.think
        rng = random.Random(_stable_seed(self.seed, view))
        if think.seconds is None:
            return sample_worlds(view, min(MAX_SAMPLES, think.samples * scale), rng,
                                 self.weighting)
        # Sampling takes about a third of a timed decision; the rest is solving.
        return sample_worlds(view, think.samples, rng, self.weighting,
                             seconds=think.seconds / 3, at_least=MIN_TIMED_SAMPLES)

    # -----------------------------------------------------------------------------------------
    # Card play

    def _play(self, view: SeatView, cands: list[int]) -> Analysis:
        if not solvable(view.rules):
            return self._play_rows(view, cands)
        start = time.perf_counter()
        worlds, weights = self._worlds(view)
        values = Values.empty(view, "play", cands, tricks=True)
        if self.think.seconds is None:
            solve_cards(view, worlds, cands, values)
        else:
            # Solve in chunks until the time is up (a plain-Python solver is far slower than
            # the sampling, a compiled one far faster).
            deadline = start + self.think.seconds
            done = 0
            while done < len(worlds) and (
                    done < MIN_TIMED_SAMPLES or time.perf_counter() < deadline):
                solve_cards(view, worlds[done:done + 8], cands, values)
                done = len(values.samples[cands[0]])
            worlds, weights = worlds[:done], weights[:done]
        values.weights = weights
        preferred = rollout.play_card(worlds[0])
        best = _rank(values.options(), preferred, view.trump)
        return Analysis(best[0].action, "play", tuple(best), len(worlds), self.weighting)

    def _play_rows(self, view: SeatView, cands: list[int]) -> Analysis:
        """Two-handed with rows: the double-dummy solver knows five-card hands only (not twelve
        tricks, nor a face-down card turning up), so each card is played out by the rollout
        policy in every deal instead, as the bidding is."""
        worlds, weights = self._worlds(view)
        deadline = self._deadline()
        values = Values.empty(view, "play", cands, tricks=True)
        used = play_options(view, worlds, cands, values,
                            out_of_time=lambda n: _out_of_time(deadline, n), to_the_end=True)
        values.weights = weights[:used]
        best = _rank(values.options(), rollout.play_card(worlds[0]), view.trump)
        return Analysis(best[0].action, "play", tuple(best), used, self.weighting)

    def _deadline(self) -> float | None:
        """When a played-out decision stops drawing deals: two thirds of a time budget (the
        rest is the decision's fixed cost), None for a budget in deals."""
        if self.think.seconds is None:
            return None
        return time.perf_counter() + self.think.seconds * 2 / 3

    # -----------------------------------------------------------------------------------------
    # Bidding

    def _bid(self, view: SeatView) -> Analysis:
        worlds, weights = self._worlds(view, self.bid_deals)
        options = _bid_options(view, worlds[0])
        if self.perfect_bidding and solvable(view.rules):
            return self._bid_perfect(view, worlds, weights, options)
        deadline = self._deadline()
        # The dealer's discard: with the bidding over, solving from the first card chose
        # better than rule-bot rollouts in a tournament's split (docs/learned-bidding.md).
        solved = self.solved_discard and view.phase == Phase.DISCARD
        # Every seat plays on what it sees: the rest of the bidding and the first ``honest``
        # tricks (all of them: a full rollout; none: naive bidding). Rows: twelve tricks the
        # solver does not know, so always played to the end.
        values = Values.empty(view, "rollout", options)
        used = play_options(view, worlds, options, values, 0 if solved else self.honest_tricks,
                            out_of_time=lambda n: _out_of_time(deadline, n),
                            to_the_end=not solvable(view.rules))
        values.weights = weights[:used]
        preferred = rollout.policy_action(worlds[0])  # reads only what this seat sees
        ranked = _rank(values.options(), preferred, view.trump)
        kind = "naive" if self.naive_bidding or solved else "bid"
        return Analysis(ranked[0].action, kind, tuple(ranked), used, self.weighting)

    def _bid_perfect(self, view: SeatView, worlds: list[HandState], weights: list[float],
                     options: list[int]) -> Analysis:
        """Textbook PIMC bidding (``pimc-full``): in every deal the rest of the hand is a
        game of perfect information: each later bid is the one best for its bidder's side
        with every card seen, and the cards are solved double-dummy. This is the bidder the
        strategy-fusion argument is about (passing hands a seeing opponent exactly the
        contracts that make); ``pimc-naive`` lets the later bids be honest instead."""
        trees: list[list[BidNode]] = []
        leaves: list[HandState] = []
        for w in worlds:
            row = []
            for a in options:
                st = w.clone()
                st.apply_action(a)
                row.append(_expand(st, leaves))
            trees.append(row)
        solved = [_leaf_points(st, vals) for st, vals in
                  zip(leaves, move_values_batch(leaves) if leaves else [], strict=True)]
        values = Values.empty(view, "rollout", options)
        values.weights = weights
        for k, a in enumerate(options):
            for row in trees:
                values.add(a, back_up(row[k], solved, view.players))
        ranked = _rank(values.options(), rollout.policy_action(worlds[0]), view.trump)
        return Analysis(ranked[0].action, "naive", tuple(ranked), len(worlds), self.weighting)

    def _claim(self, view: SeatView) -> Analysis:
        offenders = visible_reneges(view)
        mine = view.is_maker_side()
        against = [s for s in offenders if view.is_maker_side(s) != mine]
        if against and A.CLAIM_RENEGE in view.legal_actions:
            who = seat_name(against[0], view.players)
            return Analysis(A.CLAIM_RENEGE, "rule", (), 0, False,
                            f"{who} failed to follow suit and later showed that suit: a true "
                            "claim scores the renege penalty for us.")
        return Analysis(A.PASS, "rule", (), 0, False,
                        "No renege by the other side shows in the tricks, so I do not claim.")


# ---------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True, slots=True)
class BidNode:
    """A perfect-information bidding tree: a choice by ``seat`` among ``children``, a hand
    over (``points``), or a position to solve (``leaf``, an index into the solved leaves)."""

    seat: Seat = -1
    leaf: int = -1
    points: tuple[int, ...] = ()
    children: tuple[BidNode, ...] = ()


def _expand(st: HandState, leaves: list[HandState]) -> BidNode:
    """The rest of the bidding of ``st`` as a tree: every bid and defend-alone answer
    branches; the dealer's discard and anything else before the cards follow the policy."""
    while st.phase != PLAY and st.phase != OVER and st.phase not in (BID1, BID2, DEFEND):
        st.apply_action(rollout.policy_action(st))
    if st.phase == OVER:
        return BidNode(points=tuple(st.points))
    if st.phase == PLAY:
        leaves.append(st)
        return BidNode(leaf=len(leaves) - 1)
    children = []
    for a in st.legal_actions():
        nxt = st.clone()
        nxt.apply_action(a)
        children.append(_expand(nxt, leaves))
    return BidNode(seat=st.cur, children=tuple(children))


def _leaf_points(st: HandState, vals: dict[int, int]) -> tuple[int, ...]:
    team = max(vals.values())
    return tuple(points_for(st, team if st.is_maker_side(st.cur) else 5 - team))


def back_up(node: BidNode, solved: list[tuple[int, ...]], players: int) -> tuple[int, ...]:
    """The points a tree comes to when every chooser takes the best for its own side (the
    first such choice on a tie: passing comes first)."""
    if node.leaf >= 0:
        return solved[node.leaf]
    if not node.children:
        return node.points
    side = side_of(node.seat, players)
    best: tuple[int, ...] = ()
    best_net = -math.inf
    for child in node.children:
        pts = back_up(child, solved, players)
        others = [p for s, p in enumerate(pts) if s != side]
        net = pts[side] - sum(others) / len(others)
        if net > best_net:
            best, best_net = pts, net
    return best


def _rank(opts: list[OptionValue], preferred: int, trump: int) -> list[OptionValue]:
    """Best first: the objective's value, then points, then tricks; exact ties go to the
    policy's choice, then to the cheaper card or the quieter bid."""
    power = POWER[trump] if trump < 4 else None

    def key(o: OptionValue) -> tuple[float, float, float, int, int]:
        cheap = -power[o.action] if power is not None and 0 <= o.action <= 32 else 0
        return (round(o.value, 9), round(o.points, 9), round(o.tricks or 0.0, 9),
                int(o.action == preferred), cheap)

    return sorted(opts, key=key, reverse=True)


def _bid_options(view: SeatView, world: HandState) -> list[int]:
    """The options worth playing out: every bid, but only the best few discards, swaps and
    round-two suits by the count, and going alone only with a hand that counts near a lone
    hand (the rest are clearly worse and would cost time)."""
    legal = list(view.legal_actions)
    r = view.rules
    hand = mask_of(view.hand)
    if view.phase == Phase.DISCARD:
        t = view.trump

        def kept(a: int) -> float:
            return rollout.estimate(hand & ~(1 << (a - A.DISCARD_BASE)), t, r.deck)

        return sorted(legal, key=lambda a: (-kept(a), POWER[t][a - A.DISCARD_BASE]))[
            :MAX_DISCARD_OPTIONS]
    if view.phase == Phase.DECLARE:
        swaps = sorted((a for a in legal if a >= A.SWAP_BASE),
                       key=lambda a: rollout.swap_cost(a, view.upcard))
        return [a for a in legal if a < A.SWAP_BASE] + swaps[:MAX_SWAP_OPTIONS]
    if view.phase == Phase.BID2 or (view.phase == Phase.BID1 and view.upcard == JOKER):
        # Round two, or the dealer naming trump under a turned-up Joker.
        suits = rollout.bid2_counts(world, view.seat, legal)[:MAX_CALL_SUITS]
        keep = {A.PASS} | {A.call(s) for _, s in suits} | {
            A.call(s, True) for e, s in suits if e >= MIN_ALONE_COUNT}
        return [a for a in legal if a in keep]
    if view.phase == Phase.BID1 and A.ORDER_ALONE in legal and len(legal) > 2:
        _, alone = rollout.bid1_counts(world, view.seat)
        if alone < MIN_ALONE_COUNT:
            return [a for a in legal if a != A.ORDER_ALONE]
    return legal


# ---------------------------------------------------------------------------------------------
# Explanations


def _gerund(a: int, view: SeatView) -> str:
    """An option as a noun phrase in the explanation ("ordering up")."""
    return action_words(a, Moment.of(view), "gerund")


def _wins(points: float, unit: bool = True) -> str:
    """'wins 1.3 points' / 'loses 0.4 points' (what a hand gains for my side, net)."""
    x = round(points, 1)
    if x == 0:
        return "breaks even"
    name = (" point" if abs(x) == 1 else " points") if unit else ""
    return f"{'wins' if x > 0 else 'loses'} {abs(x):.1f}{name}"


def describe(an: Analysis, view: SeatView) -> str:
    """The explanation a player reads: the choice and what each other option was worth, e.g.
    "Order up: wins 1.3 points a hand on average over 96 deals consistent with what you see,
    each played out by players who see only their own cards; passing wins 0.4"."""
    if an.kind == "rule":
        return an.reason
    deals = f"over {an.deals} deals consistent with what you see"
    if an.weighted and any(w != view.seat and (a == A.PASS or A.ORDER <= a < A.DEFEND_ALONE)
                           for w, a in view.history):
        deals += " (weighted by how likely the bidding made each)"
    best, rest = an.options[0], an.options[1:4]
    title = option_words(best.action, view)
    if an.kind == "play":
        team = "I take" if view.players == 2 else "we take"
        text = (f"{title}: {team} {best.tricks or 0:.1f} tricks on average {deals}, "
                f"which {_wins(best.points)} a hand")
        alts = ", ".join(f"{option_words(o.action, view)} {o.tricks or 0:.1f}" for o in rest)
    else:
        how = ("solved double-dummy" if an.kind == "naive"
               else "played out by players who see only their own cards")
        text = f"{title}: {_wins(best.points)} a hand on average {deals}, each {how}"
        alts = ", ".join(f"{_gerund(o.action, view)} {_wins(o.points, unit=False)}"
                         for o in rest)
    text += f"; {alts}." if alts else "."
    if best.win is not None:
        mine = view.side_of()
        text += (f" At {view.scores[mine]}-{view.scores[1 - mine]}: "
                 f"{100 * best.win:.0f}% to win the game")
        if rest and rest[0].win is not None:
            text += f" ({_gerund(rest[0].action, view)}: {100 * rest[0].win:.0f}%)"
        text += "."
    return text


__all__ = ["Analysis", "SearchBot", "Think", "describe", "parse_think"]


def _out_of_time(deadline: float | None, used: int) -> bool:
    """Past a time budget's deadline, once the minimum number of deals has been looked at."""
    return deadline is not None and used >= MIN_TIMED_SAMPLES and time.perf_counter() > deadline
