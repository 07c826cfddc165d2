"""Which bidding target is nearest the real game: options played out by the search player.

The learned bidding can be fitted to honest rollouts (rule-bot card play) or to double-dummy
results (every card seen), or a blend (:class:`euchre.training.bidding.TrainSettings`
``dd_weight``). Neither is the game the bids are made for, which the search player plays. This
module plays each option of close bidding decisions on the true deal all three ways, rollout,
double-dummy, and to the end by four search players, so that a target can be judged by how
well it predicts the real outcome, and a bidding policy by the real value of what it chooses.

``python -m euchre.training.calibrate --deals 1700 --seed 77 --out rows.pkl`` writes the rows
(about two close decisions a deal, 0.1-0.5 s each on a loaded machine) and prints the
comparison; ``--compare rows.pkl`` prints it again from the file.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from euchre.bots import rollout
from euchre.bots.learned import BiddingModel, features, option_actions, shipped_model
from euchre.bots.search import SearchBot
from euchre.cards import JOKER
from euchre.seats import Seat
from euchre.state import BID1, BID2, PLAY, HandState
from euchre.tournament.core import derive_seed
from euchre.training.bidding import deal_rules, double_dummy_points

#: Deals a card decision of the search players looks at (the default is 48: a third of the
#: time, and nearly the same card play).
THINK = 16
#: A decision is close when the model's best bid is within this many points of passing.
CLOSE = 0.6


@dataclass(frozen=True, slots=True)
class Row:
    """One decision: each output's value three ways (NaN where the option is not legal)."""

    round: int
    x: tuple[float, ...]
    rollout: tuple[float, ...]
    double_dummy: tuple[float, ...]
    real: tuple[float, ...]
    state: HandState
    """The position, for asking a policy what it would bid."""


def search_play_points(st: HandState, seat: Seat, seed: int, think: int = THINK) -> float:
    """Net points for ``seat``'s side when the rest of the bidding follows the rollout policy
    and four search players play the cards."""
    st = st.clone()
    bots = [SearchBot(derive_seed(seed, s), think) for s in range(st.n)]
    while not st.is_terminal():
        if st.phase == PLAY:
            st.apply_action(bots[st.cur].choose(st.view(st.cur)))
        else:
            st.apply_action(rollout.policy_action(st))
    mine = seat & 1
    return float(st.points[mine] - st.points[1 - mine])


def _close(model: BiddingModel, round_: int, x: list[float], legal: Sequence[bool]) -> bool:
    values = (model.bid1 if round_ == 1 else model.bid2).predict(x)
    others = [v for v, ok in zip(values[1:], legal[1:], strict=True) if ok]
    return bool(others) and max(others) > values[0] - CLOSE


def close_decisions(seed: int, deals: int, model: BiddingModel | None = None,
                    think: int = THINK) -> Iterator[Row]:
    """The close bidding decisions of ``deals`` seeded deals, reached as the training data's
    are (every earlier seat passed by the rollout policy), each option valued three ways."""
    model = model or shipped_model()
    rng = random.Random(derive_seed(seed, "calibrate"))
    for _ in range(deals):
        rules = deal_rules(rng)
        st = HandState.deal(rules, rng.randrange(4), rng)
        while st.phase in (BID1, BID2) and st.upcard != JOKER:
            seat = st.cur
            round_ = 1 if st.phase == BID1 else 2
            x, order = features(st.hands[seat], st.upcard, st.dealer, seat, round_, rules)
            legal = st.legal_actions()
            acts = option_actions(round_, order)
            if _close(model, round_, x, [a in legal for a in acts]):
                vals: tuple[list[float], list[float], list[float]] = ([], [], [])
                for a in acts:
                    if a not in legal:
                        for v in vals:
                            v.append(math.nan)
                        continue
                    trial = st.clone()
                    trial.apply_action(a)
                    played = trial.clone()
                    rollout.play_out(played)
                    mine = seat & 1
                    vals[0].append(float(played.points[mine] - played.points[1 - mine]))
                    vals[1].append(double_dummy_points(trial, seat))
                    vals[2].append(search_play_points(trial, seat, rng.getrandbits(60), think))
                yield Row(round_, tuple(x), tuple(vals[0]), tuple(vals[1]), tuple(vals[2]),
                          st.clone())
            st.apply_action(rollout.policy_action(st))


def compare(rows: Sequence[Row]) -> list[str]:
    """Per option (minus passing): the real outcome's mean, each target's bias against it with
    a 95% interval, and the per-deal squared error of blends of the two targets."""
    out = []
    for round_ in (1, 2):
        sub = [r for r in rows if r.round == round_]
        if not sub:
            continue
        real, ro, dd = (np.array([getattr(r, k) for r in sub])
                        for k in ("real", "rollout", "double_dummy"))
        out.append(f"round {round_}: {len(sub)} decisions")
        for j in range(1, real.shape[1]):
            ok = ~np.isnan(real[:, j])
            if ok.sum() < 2:
                continue
            p, r, d = (a[ok, j] - a[ok, 0] for a in (real, ro, dd))

            def ci(v: np.ndarray) -> str:
                return f"{v.mean():+.3f} ± {1.96 * v.std() / math.sqrt(len(v)):.3f}"

            errors = " ".join(f"{w:g}:{np.mean((p - (1 - w) * r - w * d) ** 2):.2f}"
                              for w in (0, 0.25, 0.5, 0.6, 0.75, 1))
            out.append(f"  option {j} ({ok.sum()}): real {ci(p)}; rollout - real {ci(r - p)}; "
                       f"double-dummy - real {ci(d - p)}; per-deal error by blend {errors}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m euchre.training.calibrate",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--deals", type=int, default=1700)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--out", type=Path, default=None, help="pickle of the rows to write")
    ap.add_argument("--compare", type=Path, default=None, help="a rows file to compare")
    args = ap.parse_args(argv)
    try:
        if args.compare is not None:
            rows = pickle.loads(args.compare.read_bytes())  # a file this module wrote
        else:
            rows = list(close_decisions(args.seed, args.deals))
            if args.out is not None:
                args.out.write_bytes(pickle.dumps(rows))
    except (OSError, pickle.UnpicklingError) as exc:
        print(f"calibrate: {exc}", file=sys.stderr)
        return 2
    print("\n".join(compare(rows)))
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line
    raise SystemExit(main())
