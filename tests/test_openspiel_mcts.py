"""The determinized-MCTS peer (``openspiel-mcts``): its honest worlds and a short match."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from euchre.cards import EFFECTIVE_SUIT, cards_of, deck_cards
from euchre.cli import main
from euchre.tournament import PlayerSpec, TournamentSpec, parse_player, play_unit

pyspiel = pytest.importorskip("pyspiel")

from euchre.compat.openspiel import load_game, rules_for  # noqa: E402
from euchre.tournament.openspiel_peer import (  # noqa: E402
    ConsistentResampler,
    DeterminizedMCTS,
    check_peer,
    mirror_of,
    os_chance,
    resolve_time_budget,
)


def _dealt(game: Any, seed: int) -> Any:
    s = game.new_initial_state()
    for a in os_chance(seed, seed % 4):
        s.apply_action(a)
    return s


def test_worlds_are_uniform_over_every_card_the_seat_has_not_seen() -> None:
    game, rules = load_game(), rules_for()
    s = _dealt(game, 5)
    player = s.current_player()
    truth = mirror_of(rules, s.history())
    mine = set(cards_of(truth.hands[player]))
    sampler = ConsistentResampler(game, rules, seed=1)
    where: dict[int, Counter[str]] = {}
    n = 900
    for _ in range(n):
        w = sampler(s, player)
        assert w.information_state_string(player) == s.information_state_string(player)
        m = mirror_of(rules, w.history())
        assert set(cards_of(m.hands[player])) == mine and m.upcard == truth.upcard
        for seat in range(4):
            for c in cards_of(m.hands[seat]):
                where.setdefault(c, Counter())[f"seat{seat}"] += 1
        for c in m.kitty:
            where.setdefault(c, Counter())["kitty"] += 1
    unseen = set(deck_cards(24)) - mine - {truth.upcard}
    others = [f"seat{x}" for x in range(4) if x != player]
    assert len(unseen) == 18
    for c in unseen:
        # 15 places in the other hands, 3 in the kitty: every unseen card anywhere among them.
        for place in others:
            assert abs(where[c][place] / n - 5 / 18) < 0.06, (c, place, where[c])
        assert abs(where[c]["kitty"] / n - 3 / 18) < 0.06, (c, where[c])


def test_worlds_keep_shown_voids_and_redeal_the_dealers_discard() -> None:
    game, rules = load_game(), rules_for()
    rng = random.Random(2)
    for seed in range(200):
        s = _dealt(game, seed)
        # Random play until someone has shown out of a led suit.
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            m = mirror_of(rules, s.history())
            if m.discarded < 0 or (not m.tricks and len(m.trick) < 2):
                continue
            view = m.view(m.cur)
            if view.voids() and m.cur != m.dealer:
                break
        else:
            continue
        player = m.cur
        voids = view.voids()
        sampler = ConsistentResampler(game, rules, seed=seed)
        discards = set()
        for _ in range(40):
            w = mirror_of(rules, sampler(s, player).history())
            discards.add(w.discarded)
            assert w.hands[player] == m.hands[player]
            eff = EFFECTIVE_SUIT[m.trump]
            for seat, suits in voids.items():
                assert not any(eff[c] in suits for c in cards_of(w.hands[seat]))
        assert len(discards) > 1  # the dealer's face-down card is not known to this seat
        return
    pytest.fail("no random hand showed a void")  # pragma: no cover


def test_determinized_mcts_votes_over_its_worlds_and_replays_with_its_seed() -> None:
    game, rules = load_game(), rules_for()
    s = _dealt(game, 7)
    a = DeterminizedMCTS(game, rules, sims=40, worlds=4, uct=2.0, seed=3).step(s)
    b = DeterminizedMCTS(game, rules, sims=40, worlds=4, uct=2.0, seed=3).step(s)
    assert a == b and a in s.legal_actions()


def test_mcts_peer_plays_a_short_duplicate_match() -> None:
    s = TournamentSpec((PlayerSpec("rule"), parse_player("openspiel-mcts:sims=40,worlds=4")),
                       rules_for(), seed=1)
    results = [play_unit(s, i) for i in range(2)]
    assert results == [play_unit(s, i) for i in range(2)]
    for r in results:
        assert r.hands == 2 and r.decisions[1] > 0


def test_mcts_peer_options_are_checked() -> None:
    rules = rules_for()
    assert check_peer(parse_player("openspiel-mcts:worlds=0"), rules) is not None
    assert "not both" in str(check_peer(parse_player("openspiel-mcts:ms=5,sims=9"), rules))
    assert "options are" in str(check_peer(parse_player("openspiel-mcts:native=1"), rules))
    assert check_peer(parse_player("openspiel-mcts:ms=5,worlds=4"), rules) is None


def test_a_time_budget_becomes_a_simulation_count_before_the_run() -> None:
    spec = resolve_time_budget(parse_player("openspiel-mcts:ms=3,worlds=4"), rules_for())
    opts = dict(spec.options)
    assert "ms" not in opts and isinstance(opts["sims"], int) and opts["sims"] >= 4
    assert opts["worlds"] == 4


def test_tournament_command_plays_the_mcts_peer(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["tournament", "rule", "openspiel-mcts:sims=20,worlds=2", "--hands", "4",
               "--workers", "1", "--quiet"])
    out = capsys.readouterr().out
    assert rc == 0 and "openspiel-mcts:sims=20,worlds=2" in out and "4 hands" in out
