"""Learned bidding: the ``search`` level, whose two rounds of bidding a small network fitted
offline decides.

Why a fitted model instead of rollouts at the table: the rollout player (``search-rollout``,
:mod:`euchre.bots.search`) values each bid by
playing it out over 96 sampled deals, so the same hand asked twice with different seeds can
swing by half a point and bid differently. Here each option's value (pass, order up, order up
alone; in round two pass or call a suit, with or without partner) is regressed from hundreds
of thousands of simulated deals (:mod:`euchre.training.bidding`), so the answer is the same
every time and its noise is the fit's, not the deal sample's.

Inputs are suit-isomorphic and position-relative: the hand is written against the suit that
matters (round one: the up-card's suit, then its same-colour "next" suit, then the two cross
suits in a canonical order; round two the same around the turned-down suit), with the
up-card's rank, the seat counted from the dealer and the table's options (stick the dealer,
going alone, defend alone). So 24-card four-handed Euchre with those options is covered;
everything else (other decks and player counts, farmer's hands, Canadian loners, OpenSpiel's
late alone call) is left to the rollout player at its own count of deals, and every other
decision (defending alone, the card play) to the rollout player on four times its deals
(:data:`CARD_PLAY_DEALS`), except the dealer's discard, which this player values by solving
each deal double-dummy from the first card instead of by rule-bot rollouts (with the bidding
over, that chose better in play: docs/learned-bidding.md).

The model file ``data/bidding.json`` is read on first use; it records how it was trained and a
SHA-256 of its weights, which is checked on load.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final

from euchre import actions as A
from euchre.bots.base import require_turn
from euchre.bots.search import Analysis, SearchBot, describe
from euchre.bots.valuation import OptionValue
from euchre.cards import SUITS, Card, mask_of, same_colour
from euchre.phases import Phase
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.view import SeatView

#: The shipped model, inside this package.
MODEL_RESOURCE: Final = "bidding.json"
FORMAT: Final = 1
#: Ranks 9..A of a 24-card deck, as rank indices of :mod:`euchre.cards`.
RANKS: Final = (2, 3, 4, 5, 6, 7)
JACK: Final = 4
ACE: Final = 7

#: Round one's options, in output order.
BID1_OPTIONS: Final = ("pass", "order", "order alone")
#: Round two's options: pass, then (call, call alone) for the next suit and the two cross suits.
BID2_OPTIONS: Final = ("pass", "next", "next alone", "cross1", "cross1 alone", "cross2",
                       "cross2 alone")


@cache  # building two Rules to compare was most of a learned bid's time
def covered(rules: Rules) -> bool:
    """Whether the learned policy bids under ``rules``: 24-card four-handed Euchre with any of
    stick the dealer, going alone and defend alone (the rules it was trained on); the target,
    first dealer and renege handling do not change a hand's bidding values."""
    base = dataclasses.replace(rules, stick_the_dealer=False, defend_alone=False,
                               going_alone=None, target=10, first_dealer="random",
                               misdeal_passes=False)
    return base == Rules()


def _suit_bits(hand: int, suit: int) -> list[float]:
    return [float(hand >> (suit * 8 + r) & 1) for r in RANKS]


def _canonical_cross(hand: int, a: int, b: int) -> tuple[int, int]:
    """The two cross suits in a fixed order (longer, then higher cards first), so that hands
    that differ only by swapping them share one encoding."""
    def key(s: int) -> tuple[int, int]:
        bits = hand >> (s * 8) & 0xFF
        return (bin(bits).count("1"), bits)

    return (a, b) if key(a) >= key(b) else (b, a)


def relative_suits(hand: int, anchor: int) -> tuple[int, int, int, int]:
    """(anchor, its same-colour suit, cross 1, cross 2) for ``hand``."""
    nxt = same_colour(anchor)
    c1, c2 = _canonical_cross(hand, *(s for s in SUITS if s not in (anchor, nxt)))
    return anchor, nxt, c1, c2


def _trump_summary(hand: int, trump: int) -> list[float]:
    """Trump count (left bower included), right and left bower, off-suit aces, voids."""
    nxt = same_colour(trump)
    right = hand >> (trump * 8 + JACK) & 1
    left = hand >> (nxt * 8 + JACK) & 1
    trumps = bin(hand >> (trump * 8) & 0xFF).count("1") + left
    aces = sum(hand >> (s * 8 + ACE) & 1 for s in SUITS if s != trump)
    voids = 0
    for s in SUITS:
        if s == trump:
            continue
        bits = hand >> (s * 8) & 0xFF
        if s == nxt:
            bits &= ~(1 << JACK)
        voids += bits == 0
    return [trumps / 5.0, float(right), float(left), aces / 3.0, voids / 3.0]


def features(hand: int, upcard: Card, dealer: Seat, seat: Seat, round_: int,
             rules: Rules) -> tuple[list[float], tuple[int, int, int, int]]:
    """The network's input for ``seat`` holding ``hand`` (a mask) in bidding round ``round_``
    (1 or 2; every earlier seat passed), and the relative suit order the outputs refer to."""
    up_suit = upcard >> 3
    order = relative_suits(hand, up_suit)
    x: list[float] = []
    for s in order:
        x += _suit_bits(hand, s)
    up_rank = [0.0] * 6
    up_rank[RANKS.index(upcard & 7)] = 1.0
    x += up_rank
    pos = [0.0] * 4
    pos[(seat - dealer - 1) % 4] = 1.0
    x += pos
    if round_ == 1:
        x += _trump_summary(hand, up_suit)
        if seat == dealer:
            x += _trump_summary(hand | 1 << upcard, up_suit)
        else:
            x += [0.0] * 5
    else:
        for s in order[1:]:
            x += _trump_summary(hand, s)
    x += [float(rules.stick_the_dealer), float(rules.defend_alone),
          float(rules.going_alone is not False)]
    return x, order


def option_actions(round_: int, order: tuple[int, int, int, int]) -> list[int]:
    """The action of each output, in :data:`BID1_OPTIONS` / :data:`BID2_OPTIONS` order."""
    if round_ == 1:
        return [A.PASS, A.ORDER, A.ORDER_ALONE]
    out = [A.PASS]
    for s in order[1:]:
        out += [A.call(s), A.call(s, True)]
    return out


@dataclass(frozen=True, slots=True)
class Net:
    """One hidden layer, ReLU, one output per option (net points for the bidder's side)."""

    w1: tuple[tuple[float, ...], ...]
    b1: tuple[float, ...]
    w2: tuple[tuple[float, ...], ...]
    b2: tuple[float, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    rmse: tuple[float, ...]
    """Each output's residual error over held-out deals: how far one deal's result strays."""
    se: tuple[float, ...]
    """Each output's standard error against fresh fits (from the held-out error and the number
    of deals behind it): how far the fitted value itself may be off."""

    _arrays: Any = field(default=None, init=False, repr=False, compare=False, hash=False)

    def predict(self, x: list[float]) -> list[float]:
        # numpy, its arrays made on first use: the plain-Python sums took 0.3 ms a decision,
        # fifteen times the rollout policy's bid, which training's later bidders ask often.
        import numpy as np

        if self._arrays is None:
            object.__setattr__(self, "_arrays", tuple(
                np.array(v, dtype=np.float64)
                for v in (self.w1, self.b1, self.w2, self.b2, self.mean, self.scale)))
        w1, b1, w2, b2, mean, scale = self._arrays
        if len(x) != len(mean):
            raise ValueError(f"the network takes {len(mean)} inputs, not {len(x)}")
        hidden = np.maximum(w1 @ ((np.asarray(x, dtype=np.float64) - mean) / scale) + b1, 0.0)
        return [float(v) for v in w2 @ hidden + b2]

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("w1", "b1", "w2", "b2", "mean", "scale", "rmse",
                                              "se")}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Net:
        def mat(v: Any) -> tuple[tuple[float, ...], ...]:
            return tuple(tuple(float(x) for x in row) for row in v)

        def vec(v: Any) -> tuple[float, ...]:
            return tuple(float(x) for x in v)

        return cls(mat(d["w1"]), vec(d["b1"]), mat(d["w2"]), vec(d["b2"]), vec(d["mean"]),
                   vec(d["scale"]), vec(d["rmse"]), vec(d["se"]))


@dataclass(frozen=True, slots=True)
class BiddingModel:
    """The two rounds' networks, how they were trained, and what they reached."""

    bid1: Net
    bid2: Net
    settings: dict[str, Any]
    reached: dict[str, Any]


def weights_hash(models: dict[str, Any]) -> str:
    """SHA-256 of the weights as canonical JSON: what a loaded file is checked against."""
    text = json.dumps(models, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def dump_model(model: BiddingModel) -> str:
    models = {"bid1": model.bid1.to_json(), "bid2": model.bid2.to_json()}
    return json.dumps({"format": FORMAT, "settings": model.settings, "reached": model.reached,
                       "sha256": weights_hash(models), "models": models}, sort_keys=True)


def parse_model(text: str, where: str = MODEL_RESOURCE) -> BiddingModel:
    """A model from its JSON text; ValueError when it is not one or its hash disagrees."""
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"not a bidding model (format {data.get('format')!r}, expected "
                             f"{FORMAT})")
        models = data["models"]
        if weights_hash(models) != data["sha256"]:
            raise ValueError("its weights do not match the recorded SHA-256 (damaged or edited)")
        return BiddingModel(Net.from_json(models["bid1"]), Net.from_json(models["bid2"]),
                            dict(data["settings"]), dict(data["reached"]))
    except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{where} is not a bidding model: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


@cache
def shipped_model() -> BiddingModel:
    """The model shipped with the package, read and checked once."""
    return parse_model(shipped_model_path().read_text())


def shipped_model_path() -> Traversable:
    """Where the shipped model lies inside the package."""
    return resources.files("euchre.bots").joinpath("data", MODEL_RESOURCE)


def load_model(path: str | Path) -> BiddingModel:
    return parse_model(Path(path).read_text(), str(path))


@dataclass(frozen=True, slots=True)
class BidValues:
    """What the model makes of one bidding decision: each legal option's value, the policy's
    choice first, then the other sound bids best first, then the unsound ones."""

    options: tuple[tuple[int, float, float], ...]
    """(action, net points a hand for my side, standard error of that value)."""
    unsound: frozenset[int] = frozenset()
    """Options :func:`unsound_bids` rules out, whatever their fitted value."""


def trump_count(hand: int, trump: int) -> int:
    """Trumps in ``hand`` (a mask) with ``trump``, the left bower included."""
    return round(_trump_summary(hand, trump)[0] * 5)


def unsound_bids(view: SeatView) -> frozenset[int]:
    """Bids that every measured target (honest rollouts, double-dummy play, and the search
    player's own card play on the same deals) shows to lose, and that a fit can still rate
    highest in a thinly sampled corner of the hands:

    - going alone with fewer than three trumps (the dealer counting the up-card it picks up):
      such lone hands lose about 1.3 points against playing with the partner;
    - ordering up in round one with no trump at all in the hand (from any seat but the
      dealer's, whose hand the up-card joins);
    - naming a suit in round two with fewer than two trumps of it, unless the dealer is
      stuck and has nothing better (then the best of the stuck calls stays).
    """
    hand = mask_of(view.hand)
    legal = set(view.legal_actions)
    out: set[int] = set()
    if view.phase == Phase.BID1:
        t = view.upcard >> 3
        mine = hand | 1 << view.upcard if view.seat == view.dealer else hand
        if trump_count(mine, t) < 3:
            out.add(A.ORDER_ALONE)
        if view.seat != view.dealer and trump_count(hand, t) == 0:
            out |= {A.ORDER, A.ORDER_ALONE}
    elif view.phase == Phase.BID2:
        for s in SUITS:
            n = trump_count(hand, s)
            if n < 3:
                out.add(A.call(s, True))
            if n < 2:
                out.add(A.call(s))
        if A.PASS not in legal and not (legal - out):
            out = {a for a in out if a >= A.CALL_ALONE_BASE}  # stuck: any call must stay
    return frozenset(out & legal)


def bid_values(model: BiddingModel, view: SeatView) -> BidValues | None:
    """The model's values of ``view``'s legal bids, or None where it does not apply (not a
    bid of round one or two, or rules it was not trained on)."""
    if view.phase not in (Phase.BID1, Phase.BID2) or not covered(view.rules) or view.upcard < 0:
        return None
    round_ = 1 if view.phase == Phase.BID1 else 2
    x, order = features(mask_of(view.hand), view.upcard, view.dealer, view.seat, round_,
                        view.rules)
    net = model.bid1 if round_ == 1 else model.bid2
    values = net.predict(x)
    legal = set(view.legal_actions)
    opts = [(a, v, se) for a, v, se in zip(option_actions(round_, order), values, net.se,
                                          strict=True) if a in legal]
    if not opts or len(opts) != len(legal):
        return None  # an option the model has no output for: leave the decision to search
    unsound = unsound_bids(view)
    opts.sort(key=lambda o: (o[0] not in unsound, o[1], o[0] == A.PASS), reverse=True)
    return BidValues(tuple(opts), unsound)


#: Deals a card decision (and a discard or defend-alone decision) looks at unless a budget is
#: given: four times the search player's. The learned bids cost almost nothing, which leaves the
#: time for the card play, and there four times the deals won +0.04 points a hand over the same
#: player at the search player's count, most of it on the opening lead
#: (docs/learned-bidding.md), at decisions still far inside half a second.
CARD_PLAY_DEALS: Final = 192


class LearnedBidBot(SearchBot):
    """The ``search`` level: the rollout search player with both rounds of bidding from the
    learned model.

    Where the model does not cover the rules (:func:`covered`) and no budget is given, every
    decision is the rollout player's at its own default count of deals: there the bids are
    played out again, and four times the deals would make each bid four times as slow."""

    name = "search"

    def __init__(self, seed: int | None = None, think: object = None,
                 model: BiddingModel | None = None) -> None:
        super().__init__(seed, CARD_PLAY_DEALS if think is None else think,
                         solved_discard=True)
        self._model = model
        self._uncovered: SearchBot | None = None
        if think is None:
            self._uncovered = SearchBot(self.seed, None, solved_discard=True)
            self._uncovered.name = self.name

    @property
    def model(self) -> BiddingModel:
        if self._model is None:
            self._model = shipped_model()
        return self._model

    def analyse(self, view: SeatView) -> Analysis:
        require_turn(view)
        if self._uncovered is not None and not covered(view.rules):
            return self._uncovered.analyse(view)
        values = bid_values(self.model, view) if view.phase in (Phase.BID1, Phase.BID2) else None
        if values is None:
            return super().analyse(view)
        opts = tuple(OptionValue(a, v, v) for a, v, _ in values.options)
        deals = int(self.model.settings["deals"])
        if view.phase == Phase.BID2:  # round two also learned from the deals simulated for it
            deals += int(self.model.settings.get("round2_deals", 0))
        return Analysis(opts[0].action, "learned", opts, deals, False)

    def explain(self, view: SeatView) -> str:
        an = self.analyse(view)
        if an.kind != "learned":
            return describe(an, view)
        values = bid_values(self.model, view)
        assert values is not None
        return describe_learned(values, view, an.deals)


def describe_learned(values: BidValues, view: SeatView, deals: int) -> str:
    """"Order up: the learned policy values it at +0.62 points a hand (±0.02), 0.31 more than
    passing; ..." — what it prefers and by how much."""
    from euchre.words import Moment, action_words, option_words

    (best, v0, se0), *rest = values.options
    title = option_words(best, view)
    text = (f"{title}: the learned bidding values it at {v0:+.2f} points a hand (±{2 * se0:.2f}),"
            f" fitted to {deals:,} simulated deals")

    def alt(a: int, v: float) -> str:
        doing = action_words(a, Moment.of(view), "gerund")
        if a in values.unsound:
            return f"{doing} {v:+.2f} (ruled out: {UNSOUND_WHY[view.phase]})"
        return f"{doing} {v:+.2f} ({v0 - v:.2f} less)"

    if rest:
        text += "; " + "; ".join(alt(a, v) for a, v, _ in rest[:3])
        if rest[0][0] not in values.unsound and v0 - rest[0][1] < 2 * (se0 + rest[0][2]):
            text += ". A close call: the top two are within the fit's error"
    return text + "."


#: Why :func:`unsound_bids` rules a bid out, in the words of an explanation.
UNSOUND_WHY: Final = {
    Phase.BID1: "no lone hand on fewer than three trumps, no order without a trump",
    Phase.BID2: "no call on fewer than two trumps, nor alone on fewer than three",
}


__all__ = ["BID1_OPTIONS", "BID2_OPTIONS", "CARD_PLAY_DEALS", "BidValues", "BiddingModel",
           "LearnedBidBot", "Net", "bid_values", "covered", "features", "load_model",
           "option_actions", "parse_model", "shipped_model", "shipped_model_path", "trump_count",
           "unsound_bids"]
