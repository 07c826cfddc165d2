"""The RL environments: PettingZoo's own api_test and seed_test for every preset and mode, the
Gymnasium environment against bots, and the observation encoding's promise (built from the
seat's view only: no hidden card, the same vector for every deal consistent with the view)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from euchre import actions as A
from euchre.errors import IllegalActionError
from euchre.match import Match
from euchre.rl.encoding import (
    FIELDS,
    MAX_ACTS,
    NUM_CARDS,
    O_ACTS,
    O_AUCTION,
    O_FACE_DOWN,
    O_FIXES,
    O_HAND,
    O_LEADERS,
    O_LEADERS_MORE,
    O_ROW_COVERING,
    O_ROW_UP,
    O_SCORES,
    O_SCORES_BELOW,
    O_TAKEN_BACK,
    O_TO_ACT,
    O_TRICKS,
    O_TRICKS_MORE,
    O_TRICKS_WON,
    O_UPCARD,
    O_UPSTATUS,
    OBS_SIZE,
    STANDARD_SIZE,
    action_mask,
    cards_in,
    encode,
)
from euchre.rl.gym_env import EuchreGymEnv
from euchre.rl.pettingzoo_env import EuchreAECEnv, env
from euchre.rules import PRESETS, Rules
from euchre.sampling import sample_hand_states
from euchre.state import AUCTION, TRUMP, HandState

CONFIGS: dict[str, Rules] = {
    **PRESETS,
    "every-four-handed-option": Rules(
        stick_the_dealer=True, defend_alone=True, canadian_loner=True, farmers_hand="swap",
        no_ace_no_face=True, renege="penalize", deck=25, target=7,
    ),
    "redeal-32-lone-defenders": Rules(
        farmers_hand="redeal", deck=32, defend_alone=True, defend_alone_vs_partners=True,
        first_dealer="black_jack", target=5,
    ),
    "two-handed-joker-swap-penalize-fix": Rules(
        players=2, deck=25, stick_the_dealer=True, renege="penalize", farmers_hand="swap",
        renege_fix=True, target=7,
    ),
    "four-handed-renege-fix-tricks": Rules(
        renege="penalize", renege_fix=True, renege_penalty="tricks", defend_alone=True,
        no_ace_no_face=True, misdeal_passes=True, target=5,
    ),
    "rows-stick-penalize-deduct": Rules(
        players=2, rows=True, stick_the_dealer=True, renege="penalize", renege_penalty="deduct",
        first_dealer="black_jack", target=5,
    ),
    "cutthroat-32-misdeals": Rules(
        players=3, deck=32, no_ace_no_face=True, farmers_hand="redeal", target=5,
    ),
}
NAMES = sorted(CONFIGS)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("mode", ["match", "hand"])
def test_pettingzoo_api_test_passes(name: str, mode: str) -> None:
    api_test(env(CONFIGS[name], mode=mode), num_cycles=300)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_seed_test_passes(name: str) -> None:
    seed_test(lambda: env(CONFIGS[name]), num_cycles=300)


def test_pettingzoo_match_mode_plays_to_the_target_and_rewards_the_winner() -> None:
    e = EuchreAECEnv("standard", mode="match")
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += float(reward)
        if term or trunc:
            e.step(None)
            continue
        assert obs["observation"].shape == (OBS_SIZE,)
        # The acting seat sees itself to act in slot 0 (seats rotated to it).
        assert obs["observation"][O_TO_ACT] == 1.0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.game is not None and e.game.winner is not None
    assert max(e.game.scores) >= 10
    win = e.game.winner
    assert totals == {f"player_{s}": (1.0 if s % 2 == win else -1.0) for s in range(4)}


def test_pettingzoo_hand_mode_rewards_are_the_hand_returns() -> None:
    e = EuchreAECEnv("cutthroat", mode="hand")
    for seed in range(20):
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        rng = random.Random(seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            totals[agent] += float(reward)
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        assert e.game is not None
        assert len([f for f in e.game.finished if f.outcome != "misdeal"]) == 1
        assert list(totals.values()) == e.game.hand.returns()


def test_pettingzoo_illegal_action_raises_and_changes_nothing() -> None:
    e = env("standard")
    e.reset(seed=1)
    before = e.observe(e.agent_selection)
    with pytest.raises(IllegalActionError):
        e.step(A.play(0) if before["action_mask"][A.play(0)] == 0 else A.TAKE)
    after = e.observe(e.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])


def test_bad_environment_arguments_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="mode must be"):
        env("standard", mode="tournament")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        EuchreGymEnv(opponents="nobody")
    with pytest.raises(ValueError, match="one per other seat"):
        EuchreGymEnv(opponents=["random", "rule"])
    with pytest.raises(ValueError, match=r"seat must be 0\.\.2"):
        EuchreGymEnv("cutthroat", seat=3)


# ---------------------------------------------------------------------------------------------
# Gymnasium


@pytest.mark.parametrize("opponents", ["random", "rule"])
def test_gym_env_plays_whole_hands_against_named_bots(opponents: str) -> None:
    g = EuchreGymEnv("standard", opponents=opponents, seat=1)
    rng = np.random.default_rng(5)
    rewards = []
    for ep in range(60):
        obs, info = g.reset(seed=ep)
        carried = float(info["carried_reward"])
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert g.game is not None and g.game.current_player == 1
        total = 0.0
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, trunc, info = g.step(action)
            total += float(reward)
            assert not trunc
        rewards.append(total)
        # The episode's rewards are this hand's return plus any hand the bots played alone.
        assert total == g.game.hand.returns()[1] + carried
    assert any(r > 0 for r in rewards) and any(r < 0 for r in rewards)


def test_gym_env_carries_the_reward_of_hands_it_never_acted_in() -> None:
    # With random bots the partner (seat 2) often orders alone before seat 0 bids.
    g = EuchreGymEnv("standard", opponents="random", seat=0)
    carried = [float(g.reset(seed=s)[1]["carried_reward"]) for s in range(300)]
    assert any(c != 0 for c in carried)


def test_gym_env_replays_from_its_seed_and_match_mode_ends_with_win_or_loss() -> None:
    def run(seed: int) -> list[int]:
        g = EuchreGymEnv("tournament", opponents=["rule", "random", "rule"], mode="match")
        obs, _ = g.reset(seed=seed)
        acts: list[int] = []
        rng = np.random.default_rng(seed)
        done = False
        total = 0.0
        while not done:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            acts.append(a)
            obs, r, done, _, _ = g.step(a)
            total += float(r)
        assert total in (1.0, -1.0)
        assert g.game is not None and (total == 1.0) == (g.game.winner == 0)
        return acts

    assert run(11) == run(11)


def test_gym_env_passes_gymnasiums_checker_when_illegal_actions_lose() -> None:
    g = EuchreGymEnv("standard", illegal_action="lose")
    check_env(g, skip_render_check=True)
    obs, _ = g.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = g.step(illegal)
    assert done and reward == -1.0 and info["illegal"]


# ---------------------------------------------------------------------------------------------
# The encoding


def taken_back(h: HandState, seat: int) -> set[int]:
    """Cards ``seat`` played and took back (renege_fix) and still holds: seen by everyone."""
    return {a for w, a in h.history if w == seat and 0 <= a <= 32 and h.hands[seat] >> a & 1}


def hidden_from(h: HandState, seat: int) -> set[int]:
    """Cards ``seat`` may not know now: other hands (less their face-up row cards and the cards
    they took back), every face-down row card (its own too), the kitty, another dealer's
    discard."""
    hidden: set[int] = set()
    for s in range(h.n):
        if s != seat:
            hidden |= {c for c in range(NUM_CARDS) if h.hands[s] >> c & 1}
            hidden -= set(h.face_up(s)) | taken_back(h, s)
        hidden |= set(h.face_down(s))
    hidden |= set(h.kitty)
    if h.discarded >= 0 and seat != h.dealer:
        hidden.add(h.discarded)
    if seat == h.swapper:
        hidden -= set(h.swap_given)
    hidden.discard(h.upcard)  # the up-card is seen by everyone, wherever it goes
    return hidden


@pytest.mark.parametrize("name", NAMES)
def test_encoding_holds_no_hidden_card_and_depends_only_on_the_view(name: str) -> None:
    rules = CONFIGS[name]
    rng = random.Random(f"encoding-{name}")
    sampled = 0
    for game in range(12):
        m = Match(rules, seed=game)
        decisions = 0
        while not m.is_terminal() and decisions < 60:
            h = m.hand
            for seat in range(rules.players):
                view = m.view(seat)
                obs = encode(view)
                assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,)
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                assert not cards_in(obs) & hidden_from(h, seat), (name, seat, view)
                if not (rules.rows or rules.renege_fix or rules.renege_penalty == "deduct"):
                    assert not obs[STANDARD_SIZE:].any()  # the appended fields stay 0
                # The hand field is exactly the seat's hand.
                held = set(np.flatnonzero(obs[O_HAND:O_HAND + NUM_CARDS]).tolist())
                assert held == set(view.hand)
                # Match scores, own side first; below zero ("deduct") in a field of their own.
                sides = len(m.scores)
                mine = seat & 1 if rules.players == 4 else seat
                for side, score in enumerate(m.scores):
                    at = (side - mine) % sides
                    up, below = obs[O_SCORES + at], obs[O_SCORES_BELOW + at]
                    capped = min(abs(score), rules.target) / rules.target
                    assert (up, below) == pytest.approx(
                        (capped, 0.0) if score >= 0 else (0.0, capped))
                if rng.random() < 0.08:
                    for other in sample_hand_states(view, rng, 2):
                        assert np.array_equal(encode(other.view(seat, view.scores)), obs)
                        sampled += 1
            mask = action_mask(m.view(m.current_player))
            assert set(np.flatnonzero(mask).tolist()) == set(m.legal_actions())
            m.apply_action(rng.choice(m.legal_actions()))
            decisions += 1
    assert sampled > 20


def test_docs_field_table_gives_every_fields_offset_and_size() -> None:
    import math
    import re
    from pathlib import Path

    text = (Path(__file__).parent.parent / "docs" / "rl.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| ([\d × ]+) \|", text, flags=re.M)
    documented = {name: (int(at), math.prod(int(x) for x in size.split("×")))
                  for name, at, size in rows}
    assert documented == FIELDS


def test_encoding_field_table_covers_the_vector_without_overlap() -> None:
    spans = sorted(FIELDS.values())
    at = 0
    for start, size in spans:
        assert start == at and size > 0
        at += size
    assert at == OBS_SIZE


# ---------------------------------------------------------------------------------------------
# Two-handed with rows, renege fixes, scores below zero


def test_rows_face_down_cards_never_show_and_turned_up_cards_show_for_both_seats() -> None:
    rules = PRESETS["two-handed-rows"].replace(single_hand=True)
    rng = random.Random("rows-face-down")
    turned = 0
    for game in range(30):
        m = Match(rules, seed=game)
        down_at_deal = {s: set(m.hand.face_down(s)) for s in range(2)}
        assert all(len(d) == 4 for d in down_at_deal.values())
        while not m.is_terminal():
            h = m.hand
            for seat in range(2):
                obs = encode(m.view(seat))
                seen = cards_in(obs)
                for s in range(2):
                    rel = (s - seat) % 2
                    still_down = set(h.face_down(s))
                    # A face-down card is in no field of either seat, its owner's included.
                    assert not seen & still_down
                    up = {int(c) for c in np.flatnonzero(
                        obs[O_ROW_UP + rel * NUM_CARDS:O_ROW_UP + (rel + 1) * NUM_CARDS])}
                    assert up == set(h.face_up(s))
                    covering = {int(c) for c in np.flatnonzero(
                        obs[O_ROW_COVERING + rel * NUM_CARDS:
                            O_ROW_COVERING + (rel + 1) * NUM_CARDS])}
                    assert covering == {t for t, d in h.columns[s] if d in still_down}
                    assert obs[O_FACE_DOWN + rel] == len(still_down) / 4
                    # A card turned up is public: both seats see it in the row field.
                    turned += len(up & (down_at_deal[s] - still_down))
                # The seat's own face-up cards are playable, so they are in its hand field too.
                held = {int(c) for c in np.flatnonzero(obs[O_HAND:O_HAND + NUM_CARDS])}
                assert set(h.face_up(seat)) <= held
                # No up-card: the up-card field is empty (an upcard of -1 must not light the
                # Joker's slot of the hand field), its status is "none (rows)".
                assert not obs[O_UPCARD:O_UPCARD + NUM_CARDS].any()
                assert obs[O_UPSTATUS + 4] == 1.0
                assert 32 not in held
            m.apply_action(rng.choice(m.legal_actions()))
    assert turned > 100


def test_rows_auction_answers_show_for_both_seats_and_the_trump_call_is_an_act() -> None:
    rules = PRESETS["two-handed-rows"].replace(single_hand=True)
    rng = random.Random("rows-auction")
    bids = passes = calls = 0
    for game in range(40):
        m = Match(rules, seed=game)
        while not m.is_terminal() and m.hand.phase in (AUCTION, TRUMP):
            m.apply_action(rng.choice(m.legal_actions()))
        h = m.hand
        auction = [(w, a) for w, a in h.history if a == A.PASS or A.is_bid(a)][:2]
        assert [w for w, _ in auction] == [1 - h.dealer, h.dealer]
        for seat in range(2):
            obs = encode(h.view(seat))
            block = obs[O_AUCTION:O_AUCTION + 14].reshape(2, 7)
            for w, a in auction:
                want = 0 if a == A.PASS else A.bid_tricks(a) - 6
                assert np.flatnonzero(block[(w - seat) % 2]).tolist() == [want]
            acts = obs[O_ACTS:O_ACTS + MAX_ACTS * 25].reshape(MAX_ACTS, 25)
            if h.maker >= 0:  # the high bidder named trump: its call is the first act
                assert acts[0, (h.maker - seat) % 2] == 1.0
                assert acts[0, 4 + 3 + h.trump] == 1.0  # kind "call C/D/H/S"
                assert not acts[1:].any()
            else:
                assert not acts.any()
        bids += sum(A.is_bid(a) for _, a in auction)
        passes += sum(a == A.PASS for _, a in auction)
        calls += h.maker >= 0
    assert bids > 10 and passes > 10 and calls > 10


def test_rows_encodes_all_twelve_tricks_with_leaders_and_tricks_won_over_twelve() -> None:
    rules = PRESETS["two-handed-rows"].replace(single_hand=True)
    rng = random.Random("rows-twelve")
    for game in range(20):
        m = Match(rules, seed=game)
        while not m.is_terminal():
            m.apply_action(rng.choice(m.legal_actions()))
        h = m.hand
        if h.outcome == "thrown_in":
            continue
        assert len(h.tricks) == 12
        for seat in range(2):
            obs = encode(h.view(seat))
            for t, (leader, cards, _) in enumerate(h.tricks):
                if t < 5:
                    lead = obs[O_LEADERS + t * 4:O_LEADERS + t * 4 + 4]
                    block = obs[O_TRICKS + t * 4 * NUM_CARDS:O_TRICKS + (t + 1) * 4 * NUM_CARDS]
                    per_seat = block.reshape(4, NUM_CARDS)
                else:
                    k = t - 5
                    lead = obs[O_LEADERS_MORE + k * 2:O_LEADERS_MORE + k * 2 + 2]
                    block = obs[O_TRICKS_MORE + k * 2 * NUM_CARDS:
                                O_TRICKS_MORE + (k + 1) * 2 * NUM_CARDS]
                    per_seat = block.reshape(2, NUM_CARDS)
                assert np.flatnonzero(lead).tolist() == [(leader - seat) % 2]
                for s, c in cards:
                    assert np.flatnonzero(per_seat[(s - seat) % 2]).tolist() == [c]
            won = obs[O_TRICKS_WON:O_TRICKS_WON + 2]
            assert won.tolist() == pytest.approx([h.tricks_won[seat] / 12,
                                                  h.tricks_won[1 - seat] / 12])
            assert abs(won.sum() - 1.0) < 1e-6


def test_renege_fix_answers_and_taken_back_cards_are_encoded_for_every_seat() -> None:
    rules = Rules(renege="penalize", renege_fix=True, single_hand=True)
    rng = random.Random("renege-fix")
    fixes = 0
    for game in range(70):
        m = Match(rules, seed=game)
        while not m.is_terminal():
            h = m.hand
            fixed_at = [i for i, (_, a) in enumerate(h.history) if a == A.FIX_RENEGE]
            for seat in range(4):
                obs = encode(m.view(seat))
                for s in range(4):
                    rel = (s - seat) % 4
                    back = {int(c) for c in np.flatnonzero(
                        obs[O_TAKEN_BACK + rel * NUM_CARDS:O_TAKEN_BACK + (rel + 1) * NUM_CARDS])}
                    assert back == taken_back(h, s)
                # A fix is shown once per fixer and trick; fix answers are not in ``acts``.
                assert obs[O_FIXES + 1:O_FIXES + 40:2].sum() == len(fixed_at)
                n_acts = int(obs[O_ACTS:O_ACTS + MAX_ACTS * 25].reshape(MAX_ACTS, 25)
                             .any(axis=1).sum())
                assert n_acts <= MAX_ACTS
            fixes += bool(fixed_at)
            m.apply_action(rng.choice(m.legal_actions()))
    assert fixes > 8


def test_a_score_below_zero_has_its_own_field_and_every_slot_stays_in_0_1() -> None:
    rules = Rules(renege="penalize", renege_penalty="deduct", target=5)
    view = Match(rules, seed=1).view(1)
    from dataclasses import replace

    obs = encode(replace(view, scores=(-3, 7)))
    # Seat 1 is side 1: its own side (7, capped at the target 5) comes first.
    assert obs[O_SCORES:O_SCORES + 2].tolist() == [1.0, 0.0]
    assert obs[O_SCORES_BELOW:O_SCORES_BELOW + 2].tolist() == [0.0, pytest.approx(0.6)]
    assert obs.min() >= 0.0 and obs.max() <= 1.0


@pytest.mark.parametrize("opponents", ["random", "rule"])
def test_gym_env_plays_two_handed_rows_against_named_bots(opponents: str) -> None:
    g = EuchreGymEnv("two-handed-rows", opponents=opponents, seat=0)
    rng = np.random.default_rng(7)
    for ep in range(15):
        obs, info = g.reset(seed=ep)
        carried = float(info["carried_reward"])
        total, done = 0.0, False
        while not done:
            assert g.game is not None
            assert not cards_in(obs["observation"]) & hidden_from(g.game.hand, 0)
            obs, reward, done, _, info = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += float(reward)
        assert g.game is not None and len(g.game.hand.tricks) in (0, 12)
        assert total == g.game.hand.returns()[0] + carried
    check_env(EuchreGymEnv("two-handed-rows", opponents=opponents, illegal_action="lose"),
              skip_render_check=True)
