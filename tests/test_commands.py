"""The terminal's command layer without a terminal: every command, every phase's options typed
as the menu writes them, and bad input refused with what was wrong and what may be typed."""

from __future__ import annotations

import random

import pytest

from euchre import actions as A
from euchre.phases import Phase
from euchre.rules import Rules, preset
from euchre.state import HandState
from euchre.tui import commands as C
from euchre.tui.commands import Info, Move, Refusal, Request
from euchre.tui.words import ASCII, UNICODE
from euchre.words import Moment, action_words

#: Rule sets that between them reach every phase a player is asked in.
RULE_SETS = (
    Rules(),
    Rules(defend_alone=True, renege="penalize", renege_fix=True),
    Rules(farmers_hand="swap", no_ace_no_face=True),
    Rules(deck=25),
    Rules(stick_the_dealer=True, canadian_loner=True),
    preset("two-handed-rows"),
    preset("openspiel"),
    preset("cutthroat"),
)


def decisions(rules: Rules, seeds: int = 20) -> list[HandState]:
    """Every position a seat was asked in, over a few random hands."""
    out = []
    for seed in range(seeds):
        rng = random.Random(seed)
        h = HandState.deal(rules, seed % rules.players, rng)
        while not h.is_terminal():
            out.append(h.clone())
            h.apply_action(rng.choice(h.legal_actions()))
    return out


def at_phase(rules: Rules, phase: Phase) -> HandState:
    return next(h for h in decisions(rules) if h.phase_name == phase)


def test_every_option_of_every_phase_reads_back_as_typed_and_by_its_number() -> None:
    phases: set[Phase] = set()
    for rules in RULE_SETS:
        for h in decisions(rules):
            view = h.view(h.cur)
            phases.add(view.phase)
            assert C.phase_question(view) != "Your move.", view.phase
            menu = C.menu(view)
            assert sorted(menu) == sorted(view.legal_actions)
            for g in (UNICODE, ASCII):
                for k, a in enumerate(menu, 1):
                    typed = g.translate(action_words(a, Moment.of(view)))
                    assert C.read_turn(typed, view, h, g) == Move(a), (view.phase, typed)
                    assert C.read_turn(f" {k} ", view, h, g) == Move(a)
                assert C.choices_text(view, g).startswith("Type 1")
    assert phases >= {Phase.DECLARE, Phase.BID1, Phase.BID2, Phase.DISCARD, Phase.DEFEND,
                      Phase.ALONE, Phase.AUCTION, Phase.TRUMP, Phase.PLAY, Phase.CLAIM, Phase.FIX}


@pytest.mark.parametrize(("typed", "name"), [
    ("hint", "hint"), ("HINT", "hint"), ("h", "hint"), ("last", "last"), ("l", "last"),
    ("help rules", "rules"), ("rules", "rules"), ("undo", "undo"), ("u", "undo"),
    ("take  back", "undo"), ("quit", "quit"), ("q", "quit"), ("exit", "quit"),
])
def test_commands_are_requests_for_the_table(typed: str, name: str) -> None:
    h = at_phase(Rules(), Phase.BID1)
    assert C.read_turn(typed, h.view(h.cur), h, UNICODE) == Request(name)


def test_help_and_an_empty_line_say_what_may_be_typed() -> None:
    h = at_phase(Rules(), Phase.BID1)
    view = h.view(h.cur)
    assert C.read_turn("help", view, h, UNICODE) == Info(C.HELP)
    assert C.read_turn("?", view, h, UNICODE) == Info(C.HELP)
    for word in ("hint", "last", "undo", "quit", "help rules"):
        assert word in C.HELP
    empty = C.read_turn("   ", view, h, UNICODE)
    assert empty == Refusal(C.choices_text(view, UNICODE) + " Or: hint, help.")


def test_h_names_hearts_while_a_suit_may_be_named_and_asks_a_hint_otherwise() -> None:
    h = at_phase(Rules(), Phase.BID2)
    view = h.view(h.cur)
    if view.upcard >> 3 == 2:  # hearts turned down: "h" is a refused call, not a hint
        assert isinstance(C.read_turn("h", view, h, UNICODE), Refusal)
    else:
        assert C.read_turn("h", view, h, UNICODE) == Move(A.call(2))
    assert C.read_turn("h", h.view(h.cur), h, UNICODE) != Request("hint")
    play = at_phase(Rules(), Phase.PLAY)
    assert C.read_turn("h", play.view(play.cur), play, UNICODE) == Request("hint")


def test_bad_input_is_refused_with_the_reason_and_the_choices() -> None:
    h = at_phase(Rules(), Phase.BID1)
    view = h.view(h.cur)
    choices = C.choices_text(view, UNICODE)

    def refusal(typed: str) -> str:
        reply = C.read_turn(typed, view, h, UNICODE)
        assert isinstance(reply, Refusal), (typed, reply)
        return reply.text

    assert refusal("xyzzy") == f"'xyzzy' is not one of your options. {choices}"
    assert refusal("42") == f"There is no option 42. {choices}"
    assert refusal("0") == f"There is no option 0. {choices}"
    assert refusal("1z").startswith("'1z' is not a card")
    assert refusal("call") == f"'call' is not one of your options. {choices}"
    assert refusal("x" * 300) == f"'{'x' * 23}…' is not one of your options. {choices}"
    assert refusal("JH") == f"Cards are played after the bidding. {choices}"
    assert refusal("call h").startswith("In the first round you may only order up the ")
    for junk in ("²", "①", "٣", "♠♠", "🃏🃏", "1²"):
        assert 0 < len(refusal(junk)) < 300


def test_a_card_not_held_and_a_card_that_does_not_follow_are_explained() -> None:
    for h in decisions(Rules()):
        view = h.view(h.cur)
        if view.phase != Phase.PLAY or not view.current_trick:
            continue
        unplayable = [c for c in view.hand if c not in view.legal_actions]
        if not unplayable:
            continue
        missing = next(c for c in range(24) if c not in view.hand and A.is_play(c))
        words = ASCII.translate(action_words(missing, Moment.of(view)))
        reply = C.read_turn(words, view, h, ASCII)
        assert reply == Refusal(f"You do not hold {words}. {C.choices_text(view, ASCII)}")
        reply = C.read_turn(ASCII.translate(action_words(unplayable[0], Moment.of(view))),
                            view, h, ASCII)
        assert isinstance(reply, Refusal) and reply.text.startswith("Must follow ")
        assert C.read_turn("pass", view, h, ASCII) == Refusal(
            f"Bidding is over: play a card. {C.choices_text(view, ASCII)}")
        return
    pytest.fail("no position with a card that does not follow suit")


def test_the_joker_is_offered_in_card_errors_only_when_the_deck_has_one() -> None:
    for rules, joker in ((Rules(), False), (Rules(deck=25), True)):
        h = at_phase(rules, Phase.BID1)
        reply = C.read_turn("zz", h.view(h.cur), h, UNICODE)
        assert isinstance(reply, Refusal) and "'zz' is not a card" in reply.text
        assert ("JOKER" in reply.text) is joker, reply.text
        assert reply.text.rstrip().endswith(("J♥", "JOKER")), reply.text


def test_why_not_speaks_the_players_terms_in_each_bidding_round() -> None:
    h = at_phase(Rules(), Phase.BID2)
    view = h.view(h.cur)
    dead = view.upcard >> 3
    why = C.why_not(A.call(dead), view, h, UNICODE)
    assert "was turned down: name another suit" in why
    assert "bid2" not in why and why.endswith(C.choices_text(view, UNICODE))
    why = C.why_not(A.ORDER, view, h, UNICODE)
    assert "was turned down: now you may name another suit" in why


def test_between_hands_and_at_the_end_every_answer_is_read_or_refused() -> None:
    for typed, name in (("", "next"), ("r", "review"), (" Review ", "review"), ("t", "table"),
                        ("last", "last"), ("l", "last"), ("q", "quit"), ("exit", "quit")):
        assert C.read_between_hands(typed) == Request(name)
    assert C.read_between_hands("xyz") == Refusal("'xyz' is not an option here.")
    for typed, name in (("", "leave"), ("again", "again"), ("r", "review"), ("quit", "leave")):
        assert C.read_game_over(typed) == Request(name)
    assert C.read_game_over("nope") == Refusal("'nope' is not an option here.")


def test_save_answers_during_and_after_a_game() -> None:
    assert C.read_save_answer("", game_over=False) == Request("save", "")
    assert C.read_save_answer(" my.json ", game_over=False) == Request("save", "my.json")
    assert C.read_save_answer("n", game_over=False) == Request("no")
    assert C.read_save_answer("c", game_over=False) == Request("cancel")
    assert C.read_save_answer("again", game_over=False) == Request("save", "again")
    assert C.read_save_answer("", game_over=True) == Request("no")
    assert C.read_save_answer("again", game_over=True) == Request("again")
    assert C.read_save_answer("review", game_over=True) == Request("review")
    assert C.read_save_answer("c", game_over=True) == Request("save", "c")
    assert isinstance(C.read_save_answer("a\x01b", game_over=False), Refusal)


def test_last_pages_back_through_the_hands_tricks_then_round_again() -> None:
    tricks = tuple((s, ((s, s),), s) for s in range(3))
    previous = tuple((9, ((9, 9),), 9) for _ in range(5))
    got = [C.recall(tricks, previous, back) for back in range(4)]
    assert [(g[0], g[1]) for g in got if g] == [("Last", 3), ("Earlier", 2), ("Earlier", 1),
                                               ("Last", 3)]
    assert got[1] is not None and got[1][2] == tricks[1]
    assert C.recall((), previous, 0) == ("Last trick of the previous hand", 5, previous[4])
    assert C.recall((), previous, 1) == ("Earlier in the previous hand", 4, previous[3])
    assert C.recall((), (), 0) is None


def test_take_back_steps_over_forced_acts_to_the_last_choice() -> None:
    h = at_phase(Rules(), Phase.BID1)
    seat = h.cur
    again, why = C.take_back(h, seat, UNICODE)
    assert again is None and why.startswith("Nothing to take back in this hand")
    h.apply_action(A.PASS)
    for _ in range(2):
        h.apply_action(h.legal_actions()[0])
    again, why = C.take_back(h, seat, UNICODE)
    assert again is not None and again.history == h.history[:len(again.history)]
    assert again.cur == seat and why.startswith("Taken back: your pass and the ")


def test_seat_names_from_the_players_chair() -> None:
    four = C.Seating(4, 2)
    assert [four.name(s) for s in range(4)] == ["North (partner)", "East", "You", "West"]
    assert [four.short(s) for s in range(4)] == ["N", "E", "You", "W"]
    assert four.side_names() == ["Us", "Them"] and four.side_long(1) == "Your opponents"
    watched = C.Seating(4, None)
    assert watched.side_names() == ["N-S", "E-W"] and watched.side_long(0) == "North-South"
    three = C.Seating(3, 0)
    assert three.side_names() == ["You", "P2", "P3"] and three.side_long(2) == "Player 3"
    assert three.plain(1) == "Player 2" and three.short(1) == "P2"


def test_input_is_cleaned_of_escape_codes_before_it_is_read() -> None:
    assert C.clean_input("\x1b[31mpass\x1b[0m") == "pass"
    assert C.clean_input("a\x07b") == "a b"
    assert C.shown("x" * 30) == "x" * 23 + "…"


def test_game_over_and_the_score_say_whose_is_whose() -> None:
    four, three = C.Seating(4, 2), C.Seating(3, 0)
    assert four.game_over(0) == "Game over: you and your partner win"
    assert four.game_over(1) == "Game over: your opponents win"
    assert C.Seating(4, None).game_over(1) == "Game over: East-West win"
    assert three.game_over(0) == "Game over: You win"
    assert three.game_over(2) == "Game over: Player 3 wins"
    assert three.game_over(-1) == four.game_over(None) == "Game over: no side scored"
    assert three.score_words([3, 2, 6]) == "You 3, Player 2 2, Player 3 6"
    assert four.score_words((4, 7)) == "Your side 4, Your opponents 7"
