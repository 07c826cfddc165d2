"""Training the learned bidding (:mod:`euchre.bots.learned`): simulated deals, then a fit.

**Data.** Each simulated deal is bid from the first seat by the rollout policy
(:mod:`euchre.bots.rollout`), so a seat's decision is recorded only where every earlier seat
really passed with its cards: the hidden hands behind a decision are distributed as they are
at a table where earlier passes mean weakness. At each such decision every option is played to
the end of the hand on the true deal by the same honest policy (every seat plays on what it
sees), and its net points for the bidder's side are the target. One deal gives one result per
option, not its expectation; the regression over many deals averages the hidden cards out,
which is what sampling deals at the table does one decision at a time. Full honest rollouts,
not double-dummy values: against real outcomes double-dummy play under-values going alone by
about 0.44 points and honest rollouts were the better calibrated (README, computer players).

**Policy iteration.** With ``later_bids`` set to a model file, every bid but the one valued
comes from that model's policy instead of the rollout policy: the earlier passes (so which
decisions are reached, and what a pass says about the hidden hands) and the bids after each
option. A policy fitted to a table that bids as the learned policy does is valued against the
partner and opponents it will meet when it plays itself.

**Checkpoints.** Deals come in shards of ``shard_deals``, each with its own seed derived from
the master seed and its index and written to its own file as soon as it is done, so a run
that stops resumes where it was and gives the same data for any number of workers.

**Fit.** A one-hidden-layer network per round (numpy, Adam, squared error on the legal
options only), its error measured on held-out deals, and each output's standard error from
two fits on disjoint halves of the data.
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from euchre.bots import rollout
from euchre.bots.learned import (
    BID1_OPTIONS,
    BID2_OPTIONS,
    BiddingModel,
    Net,
    bid_values,
    dump_model,
    features,
    load_model,
    option_actions,
    weights_hash,
)
from euchre.cards import JOKER
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.solver import move_values_batch, points_for
from euchre.state import BID1, BID2, PLAY, HandState
from euchre.tournament.core import derive_seed

#: The table options the deals are drawn under, with their chances: stick the dealer and
#: defend alone each on half the deals, going alone off (so no defending alone) on one deal
#: in ten.
STICK_P = 0.5
DEFEND_P = 0.5
NO_ALONE_P = 0.1
#: Bumped when a shard's contents change, so old checkpoints are never mixed in.
SHARD_FORMAT = 2


@dataclass(frozen=True, slots=True)
class TrainSettings:
    """Everything that decides the trained model (recorded in the file it writes)."""

    deals: int = 120_000
    """Deals whose every bidding decision is played out."""
    round2_deals: int = 400_000
    """More deals of which only round two is played out: the policy orders up in round one
    on most deals, so without these round two would have a fifth of round one's data."""
    seed: int = 0
    shard_deals: int = 500
    hidden: int = 48
    epochs: int = 8
    batch: int = 1024
    learning_rate: float = 0.003
    holdout: float = 0.1
    dd_weight: float = 0.0
    """The target: this share of the double-dummy value, the rest the honest rollout's (0:
    rollouts only, 1: double-dummy only)."""
    later_bids: str = ""
    """A model file whose policy makes every bid but the one being valued (the earlier passes
    that decide which decisions are reached, and the bids after each option); empty: the
    rollout policy. Fitting to a table that bids as the learned policy does is one round of
    policy iteration."""

    def later_bids_tag(self) -> str:
        """What the shard names carry of ``later_bids``: the start of the model's SHA-256,
        so that shards simulated with another model are never mixed in."""
        if not self.later_bids:
            return ""
        return "-lb" + later_model(self.later_bids)[1][:10]

    def jobs(self) -> list[tuple[str, int, int]]:
        """Every shard as (kind, index, deals): kind 'all' or 'r2'."""
        out = []
        for kind, total in (("all", self.deals), ("r2", self.round2_deals)):
            for k in range(math.ceil(total / self.shard_deals)):
                out.append((kind, k, min(self.shard_deals, total - k * self.shard_deals)))
        return out


def policy_bid(model: BiddingModel, st: HandState) -> int | None:
    """The bid the learned policy makes for the player to move in ``st``, from that player's
    view only, or None where the model does not apply."""
    values = bid_values(model, st.view(st.cur))
    return None if values is None else values.options[0][0]


@cache
def later_model(path: str) -> tuple[BiddingModel, str]:
    """The later bidders' model (read once a process) and its recorded SHA-256."""
    model = load_model(path)
    return model, str(weights_hash({"bid1": model.bid1.to_json(),
                                    "bid2": model.bid2.to_json()}))


BidPolicy = Callable[[HandState], int]


def bid_policy(later_bids: str) -> BidPolicy:
    """The bidding of every seat but the one being valued, for one deal: the rollout policy,
    or a model's choices remembered by (seat, round), which is all they depend on within one
    deal (the hands do not change until the play, and every earlier bid was a pass)."""
    if not later_bids:
        return rollout.policy_action
    model = later_model(later_bids)[0]
    seen: dict[tuple[int, int], int] = {}

    def act(st: HandState) -> int:
        if st.phase not in (BID1, BID2):
            return rollout.policy_action(st)
        key = (st.cur, st.phase)
        a = seen.get(key)
        if a is None or a not in st.legal_actions():
            choice = policy_bid(model, st)
            a = seen[key] = rollout.policy_action(st) if choice is None else choice
        return a

    return act


def finish_bidding(st: HandState, policy: BidPolicy) -> None:
    """Bid on with ``policy`` until the play (or the end of a hand nobody bid on)."""
    while st.phase in (BID1, BID2):
        st.apply_action(policy(st))


def deal_rules(rng: random.Random) -> Rules:
    stick = rng.random() < STICK_P
    defend = rng.random() < DEFEND_P
    alone = rng.random() >= NO_ALONE_P
    return Rules(stick_the_dealer=stick, defend_alone=defend and alone, going_alone=alone)


def _net_points(st: HandState, seat: Seat) -> float:
    mine = seat & 1
    return float(st.points[mine] - st.points[1 - mine])


def deal_samples(rng: random.Random, rounds: tuple[int, ...] = (1, 2)
                 ) -> list[tuple[int, list[float], list[float]]]:
    """One simulated deal's decisions in ``rounds``: (round, features, each output's honest
    rollout value or NaN where the option is not legal)."""
    return [(r, x, ys) for r, x, ys, _ in deal_decisions(rng, rounds)]


def deal_decisions(rng: random.Random, rounds: tuple[int, ...] = (1, 2), later_bids: str = ""
                   ) -> list[tuple[int, list[float], list[float], list[float]]]:
    """One simulated deal's decisions in ``rounds``: (round, features, each output's honest
    rollout value, its double-dummy value), NaN where the option is not legal.

    Both targets come from the same deal and the same later bids (the rollout policy's, or
    those of the model in ``later_bids``), so any blend of the two can be fitted later without
    simulating again."""
    policy = bid_policy(later_bids)
    rules = deal_rules(rng)
    st = HandState.deal(rules, rng.randrange(4), rng)
    out: list[tuple[int, list[float], list[float], list[float]]] = []
    while st.phase in (BID1, BID2) and st.upcard != JOKER:
        seat = st.cur
        round_ = 1 if st.phase == BID1 else 2
        if round_ not in rounds:
            st.apply_action(policy(st))
            continue
        x, order = features(st.hands[seat], st.upcard, st.dealer, seat, round_, rules)
        legal = st.legal_actions()
        ys: list[float] = []
        ds: list[float] = []
        for a in option_actions(round_, order):
            if a not in legal:
                ys.append(math.nan)
                ds.append(math.nan)
                continue
            trial = st.clone()
            trial.apply_action(a)
            ds.append(double_dummy_points(trial, seat, policy))
            finish_bidding(trial, policy)
            rollout.play_out(trial)
            ys.append(_net_points(trial, seat))
        out.append((round_, x, ys, ds))
        st.apply_action(policy(st))
    return out


def double_dummy_points(st: HandState, seat: Seat,
                        policy: BidPolicy = rollout.policy_action) -> float:
    """Net points for ``seat``'s side when the rest of the bidding follows ``policy`` (the
    rest of the pre-play decisions the rollout policy) and the cards are then played
    double-dummy (every card seen by every seat)."""
    st = st.clone()
    finish_bidding(st, policy)
    while st.phase != PLAY and not st.is_terminal():
        st.apply_action(rollout.policy_action(st))
    if st.is_terminal():
        return _net_points(st, seat)
    team = max(move_values_batch([st])[0].values())
    points = points_for(st, team if st.is_maker_side(st.cur) else 5 - team)
    mine = seat & 1
    return float(points[mine] - points[1 - mine])


def shard_path(directory: Path, settings: TrainSettings, kind: str, k: int) -> Path:
    name = (f"shard{SHARD_FORMAT}-{kind}-s{settings.seed}-n{settings.shard_deals}"
            f"{settings.later_bids_tag()}-{k:05d}.npz")
    return directory / name


def make_shard(directory: str, settings: TrainSettings, kind: str, k: int, n: int) -> int:
    """Simulate shard ``k`` of ``kind`` (``n`` deals) and write it; returns ``n``."""
    parts: tuple[object, ...] = (k,) if kind == "all" else (kind, k)
    rng = random.Random(derive_seed(settings.seed, "bidding-shard", *parts))
    rounds = (1, 2) if kind == "all" else (2,)
    rows: dict[int, tuple[list[list[float]], list[list[float]], list[list[float]]]] = {
        1: ([], [], []), 2: ([], [], [])}
    for _ in range(n):
        for round_, x, ys, ds in deal_decisions(rng, rounds, settings.later_bids):
            rows[round_][0].append(x)
            rows[round_][1].append(ys)
            rows[round_][2].append(ds)
    path = shard_path(Path(directory), settings, kind, k)
    tmp = path.with_suffix(".tmp.npz")
    arrays = {}
    for r, names in ((1, BID1_OPTIONS), (2, BID2_OPTIONS)):
        arrays[f"x{r}"] = np.array(rows[r][0], dtype=np.float32).reshape(-1, _width(r))
        arrays[f"y{r}"] = np.array(rows[r][1], dtype=np.float32).reshape(-1, len(names))
        arrays[f"d{r}"] = np.array(rows[r][2], dtype=np.float32).reshape(-1, len(names))
    np.savez(tmp, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)
    return n


@cache
def _width(round_: int) -> int:
    """The number of features of a round (for an empty shard's arrays)."""
    st = HandState.deal(Rules(), 0, random.Random(0))
    return len(features(st.hands[1], st.upcard, 0, 1, round_, Rules())[0])


def simulate(directory: Path, settings: TrainSettings, workers: int = 1,
             progress: Callable[[int], None] | None = None) -> int:
    """Write every missing shard (a resumed run skips the ones on disk); returns the deals
    simulated now. ``progress`` is told each shard's deals, those found on disk first."""
    directory.mkdir(parents=True, exist_ok=True)
    jobs = settings.jobs()
    todo = [j for j in jobs if not shard_path(directory, settings, j[0], j[1]).exists()]
    on_disk = sum(n for _, _, n in jobs) - sum(n for _, _, n in todo)
    if progress is not None and on_disk:
        progress(on_disk)
    made = 0
    if workers <= 1:
        for kind, k, n in todo:
            made += make_shard(str(directory), settings, kind, k, n)
            if progress is not None:
                progress(n)
        return made
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(make_shard, str(directory), settings, kind, k, n)
                   for kind, k, n in todo]
        for fut in as_completed(futures):
            n = fut.result()
            made += n
            if progress is not None:
                progress(n)
    return made


def load_shards(directory: Path, settings: TrainSettings) -> dict[int, tuple[Any, Any]]:
    """Every shard's rows, per round: (features, targets), the targets blended as
    ``settings.dd_weight`` says."""
    w = settings.dd_weight
    parts: dict[int, tuple[list[Any], list[Any]]] = {1: ([], []), 2: ([], [])}
    for kind, k, _ in settings.jobs():
        with np.load(shard_path(directory, settings, kind, k)) as z:
            for r in (1, 2):
                parts[r][0].append(z[f"x{r}"])
                parts[r][1].append((1 - w) * z[f"y{r}"] + w * z[f"d{r}"])
    return {r: (np.concatenate(xs), np.concatenate(ys))
            for r, (xs, ys) in parts.items()}


def _fit(x: Any, y: Any, settings: TrainSettings, seed: int) -> dict[str, Any]:
    """A one-hidden-layer ReLU network fitted by Adam to the legal outputs of ``y`` (NaN:
    illegal, no loss)."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = ((x - mean) / scale).astype(np.float32)
    mask = ~np.isnan(y)
    target = np.where(mask, y, 0.0).astype(np.float32)
    n_in, n_out, h = z.shape[1], y.shape[1], settings.hidden
    params = {
        "w1": rng.normal(0, math.sqrt(2 / n_in), (h, n_in)).astype(np.float32),
        "b1": np.zeros(h, dtype=np.float32),
        "w2": rng.normal(0, math.sqrt(1 / h), (n_out, h)).astype(np.float32),
        "b2": np.nanmean(y, axis=0).astype(np.float32),
    }
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    step = 0
    lr = settings.learning_rate
    for epoch in range(settings.epochs):
        order = rng.permutation(len(z))
        rate = lr * (0.5 * (1 + math.cos(math.pi * epoch / settings.epochs)))
        for start in range(0, len(z), settings.batch):
            idx = order[start:start + settings.batch]
            zb, tb, mb = z[idx], target[idx], mask[idx]
            pre = zb @ params["w1"].T + params["b1"]
            hid = np.maximum(pre, 0.0)
            out = hid @ params["w2"].T + params["b2"]
            err = np.where(mb, out - tb, 0.0) / len(idx)
            grads = {"w2": err.T @ hid, "b2": err.sum(axis=0)}
            dh = (err @ params["w2"]) * (pre > 0)
            grads["w1"] = dh.T @ zb
            grads["b1"] = dh.sum(axis=0)
            step += 1
            for k, g in grads.items():
                m[k] = 0.9 * m[k] + 0.1 * g
                v[k] = 0.999 * v[k] + 0.001 * g * g
                mh = m[k] / (1 - 0.9 ** step)
                vh = v[k] / (1 - 0.999 ** step)
                params[k] -= rate * mh / (np.sqrt(vh) + 1e-8)
    params["mean"] = mean
    params["scale"] = scale
    return params


def _predict(p: dict[str, Any], x: Any) -> Any:
    hid = np.maximum(((x - p["mean"]) / p["scale"]) @ p["w1"].T + p["b1"], 0.0)
    return hid @ p["w2"].T + p["b2"]


def fit_round(x: Any, y: Any, settings: TrainSettings, round_: int
              ) -> tuple[Net, dict[str, Any]]:
    """The round's network, and what it reached on held-out deals."""
    rng = np.random.default_rng(derive_seed(settings.seed, "split", round_) % 2**32)
    perm = rng.permutation(len(x))
    n_hold = max(1, int(len(x) * settings.holdout))
    hold, train = perm[:n_hold], perm[n_hold:]
    full = _fit(x[train], y[train], settings, round_)
    halves = [_fit(x[part], y[part], settings, round_ + 10 + i)
              for i, part in enumerate(np.array_split(train, 2))]
    pred = _predict(full, x[hold])
    mask = ~np.isnan(y[hold])
    resid = np.where(mask, pred - np.nan_to_num(y[hold]), 0.0)
    counts = np.maximum(mask.sum(axis=0), 1)
    rmse = np.sqrt((resid ** 2).sum(axis=0) / counts)
    const = np.where(mask, np.nanmean(y[train], axis=0) - np.nan_to_num(y[hold]), 0.0)
    base = np.sqrt((const ** 2).sum(axis=0) / counts)
    diff = _predict(halves[0], x[hold]) - _predict(halves[1], x[hold])
    se = np.sqrt((diff ** 2).mean(axis=0)) / 2
    names = BID1_OPTIONS if round_ == 1 else BID2_OPTIONS
    net = Net(
        w1=_tuples(full["w1"]), b1=_floats(full["b1"]), w2=_tuples(full["w2"]),
        b2=_floats(full["b2"]), mean=_floats(full["mean"]), scale=_floats(full["scale"]),
        rmse=_floats(rmse), se=_floats(se))
    reached = {"decisions": len(x), "held_out": int(n_hold),
               "rmse": dict(zip(names, _rounded(rmse), strict=True)),
               "rmse_of_a_constant": dict(zip(names, _rounded(base), strict=True)),
               "standard_error": dict(zip(names, _rounded(se), strict=True))}
    return net, reached


def _floats(a: Any) -> tuple[float, ...]:
    return tuple(round(float(v), 6) for v in a)


def _tuples(a: Any) -> tuple[tuple[float, ...], ...]:
    return tuple(_floats(row) for row in a)


def _rounded(a: Iterable[Any]) -> list[float]:
    return [round(float(v), 4) for v in a]


def train(directory: Path, settings: TrainSettings, workers: int = 1,
          progress: Callable[[int], None] | None = None) -> tuple[BiddingModel, float]:
    """Simulate what is missing, fit both rounds; returns the model and the simulation's
    seconds (zero when every shard was already on disk)."""
    t0 = time.perf_counter()
    made = simulate(directory, settings, workers, progress)
    sim_seconds = time.perf_counter() - t0 if made else 0.0
    data = load_shards(directory, settings)
    nets: dict[int, Net] = {}
    reached: dict[str, Any] = {}
    for r in (1, 2):
        nets[r], reached[f"round{r}"] = fit_round(*data[r], settings, r)
    recorded = dataclasses.asdict(settings)
    later = "the rollout policy"
    if settings.later_bids:
        sha = later_model(settings.later_bids)[1]
        later = f"the learned policy of the model with SHA-256 {sha}"
        recorded["later_bids"] = Path(settings.later_bids).name
        recorded["later_bids_sha256"] = sha
    recorded["labels"] = (f"{1 - settings.dd_weight:g} x full honest rollouts of the rollout "
                          f"policy on the true deal + {settings.dd_weight:g} x its double-dummy "
                          f"value (the other bids by {later})")
    recorded["rules"] = (f"24-card four-handed; stick the dealer p={STICK_P}, defend alone "
                         f"p={DEFEND_P}, going alone off p={NO_ALONE_P}")
    if sim_seconds:
        reached["simulation_seconds"] = round(sim_seconds)
    model = BiddingModel(nets[1], nets[2], recorded, reached)
    return model, sim_seconds


def write_model(model: BiddingModel, path: Path) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(dump_model(model) + "\n")
    os.replace(tmp, path)


__all__ = ["TrainSettings", "deal_samples", "policy_bid", "simulate", "train", "write_model"]
