"""Core review findings: each test names the rule or contract a reviewer found broken."""

from __future__ import annotations

import pytest
from helpers import act, build, deck_for

from euchre.actions import action_from_str
from euchre.cards import JOKER, deck_cards
from euchre.errors import IllegalActionError
from euchre.match import Match
from euchre.rules import PRESETS, Rules, preset
from euchre.state import HandState

pytestmark = pytest.mark.core


def test_rules_replace_players_reapplies_the_going_alone_default() -> None:
    # going_alone left unset means "on for four players, off for two and three" (the maker of a
    # two- or three-handed game already plays alone); changing only the player count of a rules
    # object must keep meaning that, not freeze the old count's answer.
    assert Rules().replace(players=3) == Rules(players=3)
    assert Rules().replace(players=2) == Rules(players=2)
    assert preset("cutthroat").replace(players=4) == Rules()
    assert preset("two-handed").replace(players=4).going_alone is True


def test_rules_replace_players_keeps_an_explicit_going_alone_choice() -> None:
    no_loners = Rules(going_alone=False)
    assert no_loners.replace(players=4).going_alone is False
    assert no_loners.replace(players=3) == Rules(players=3)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_replace_without_players_changes_nothing_else(name: str) -> None:
    r = preset(name)
    assert r.replace(target=r.target) == r


# ---------------------------------------------------------------------------------------------
# An illegal bid says which rule forbids it, not only what is allowed


def _refusal(h: HandState, text: str) -> str:
    before = (h.phase, h.cur, len(h.history))
    with pytest.raises(IllegalActionError) as info:
        h.apply_action(action_from_str(text))
    assert (h.phase, h.cur, len(h.history)) == before
    return str(info.value)


def test_stick_the_dealer_refusal_says_the_dealer_must_name_trump() -> None:
    h = build([None] * 4, "AH", rules=Rules(stick_the_dealer=True), dealer=0)
    act(h, *["pass"] * 7)
    msg = _refusal(h, "pass")
    assert "stick the dealer" in msg and "must name trump" in msg
    assert "allowed: call C" in msg


def test_round_two_refusal_names_the_turned_down_suit() -> None:
    h = build([None] * 4, "AH", dealer=0)
    act(h, *["pass"] * 4)
    msg = _refusal(h, "call H")
    assert "♥ was turned down" in msg and "name another suit" in msg
    assert "call H" not in msg.split("allowed:")[1]


def test_canadian_loner_refusal_says_the_dealers_partner_orders_only_alone() -> None:
    h = build([None] * 4, "AH", rules=Rules(canadian_loner=True), dealer=0)
    act(h, "pass")  # East; South, the dealer's partner, is next
    msg = _refusal(h, "order")
    assert "Canadian loner" in msg and "only by going alone" in msg
    assert msg.endswith("allowed: pass, order alone")


def test_going_alone_off_refusal_says_so() -> None:
    h = build([None] * 4, "AH", rules=Rules(going_alone=False), dealer=0)
    assert "going alone is off" in _refusal(h, "order alone")


def test_joker_upcard_refusal_says_the_dealer_names_trump() -> None:
    h = build([None] * 4, JOKER, rules=Rules(deck=25), dealer=3)
    msg = _refusal(h, "pass")
    assert "Joker" in msg and "dealer names trump" in msg


def test_openspiel_refusal_says_the_dealer_may_not_bury_the_upcard() -> None:
    h = build([None] * 4, "AH", rules=preset("openspiel"), dealer=0)
    act(h, "order")
    assert "may not bury the up-card" in _refusal(h, "discard AH")


def test_discard_refusal_names_a_card_the_dealer_does_not_hold() -> None:
    h = build(["9C TC JC QC KC", None, None, None], "AH", dealer=0)
    act(h, "order")
    assert "does not hold A♠" in _refusal(h, "discard AS")


def test_openspiel_alone_bid_refusal_says_the_maker_is_asked_later() -> None:
    h = build([None] * 4, "AH", rules=preset("openspiel"), dealer=0)
    assert "going alone once trump is fixed" in _refusal(h, "order alone")


def test_cutthroat_both_defenders_pass_the_target_the_higher_score_wins() -> None:
    # docs/rules.md: when both defenders reach the target on one euchre, the higher score wins;
    # only an equal score goes to the first of them to the maker's left.
    rules = preset("cutthroat").replace(target=10)
    deck = deck_for(rules, 2, ["9C TC 9D TD 9S", "JH JD AH KH QH", "TH AC AD AS KS"], "9H")
    m = Match(rules, seed=0, first_dealer=2, decks=[deck])
    m.scores[:] = [0, 8, 9]
    act(m, "order", "discard AC")  # seat 0, the maker, has no trump at all
    while m.winner is None:
        m.apply_action(m.legal_actions()[0])
    assert m.finished[-1].points == (0, 2, 2)
    assert m.scores == [0, 10, 11]
    assert m.winner == 2  # not seat 1, the first defender to the maker's left


@pytest.mark.parametrize("bad", ["1", 1.0, True, -1, 4])
def test_match_first_dealer_must_be_a_seat_number(bad: object) -> None:
    # A float or a bool seat used to slip through and later broke the record (dealer 1.0).
    with pytest.raises(IllegalActionError, match=r"first_dealer must be a seat 0\.\.3"):
        Match(Rules(), seed=1, first_dealer=bad)  # type: ignore[arg-type]


def test_hand_dealer_must_be_a_seat_number_not_a_bool() -> None:
    with pytest.raises(IllegalActionError, match=r"dealer must be a seat 0\.\.3, not True"):
        HandState(Rules(), True, deck_cards(24))


def test_core_classes_define_no_method_aliases_mypyc_cannot_compile() -> None:
    # `copy = clone` in a class body compiles under mypyc ("unsupported default attribute
    # value") but every HandState() then fails with KeyError 'clone', so the compiled core of
    # `make bench-compiled` was broken. Each method must be its own def.
    for cls in (HandState, Match):
        for name, value in vars(cls).items():
            if callable(value) and hasattr(value, "__name__") and not name.startswith("__"):
                assert value.__name__ == name, f"{cls.__name__}.{name} aliases {value.__name__}"


def test_hand_copy_is_an_independent_clone() -> None:
    h = build([None] * 4, "AH")
    c = h.copy()
    act(c, "pass")
    assert len(h.history) == 0 and len(c.history) == 1
