"""What the terminal table says, checked without a terminal: bidding in words, grammar with
"You", the rules line, input a player types, the statistics file and replay's wording."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

import euchre
from euchre import actions as A
from euchre.cards import deck_cards, parse_card
from euchre.cli.replay import describe_hand, describe_record
from euchre.narrate import bidding_segments, staged
from euchre.phases import PHASES, Phase
from euchre.rules import Rules
from euchre.state import HandState, seat_name
from euchre.tui import GameSettings, TerminalGame
from euchre.tui.render import UNICODE, TableContext, render_table
from euchre.tui.rules_text import rules_lines, rules_title
from euchre.tui.stats import Stats, StatsRecorder, load
from euchre.words import YOU, Moment, Who, action_words


def names(s: int) -> Who:
    return Who(seat_name(s, 4))


def play_out(h: HandState, rng: random.Random) -> None:
    while not h.is_terminal() and h.phase_name in (Phase.PLAY, Phase.DISCARD):
        h.apply_action(rng.choice(h.legal_actions()))


def test_bidding_words_keep_rounds_pickup_defence_and_claims_apart() -> None:
    r = Rules(defend_alone=True, renege="penalize")
    rng = random.Random(0)
    h = HandState.deal(r, 3, random.Random(0))  # West deals; North bids first
    h.apply_action(A.ORDER_ALONE)  # North orders up alone: South sits out
    h.apply_action(h.legal_actions()[0])  # West, the dealer, discards
    defenders = []
    while h.phase_name == Phase.DEFEND:
        defenders.append(names(h.cur).name)
        h.apply_action(A.PASS)  # a declined defend-alone: not a bid
    play_out(h, rng)
    claimants = []
    while h.phase_name == Phase.CLAIM:
        claimants.append(names(h.cur).name)
        h.apply_action(A.PASS)  # a declined renege claim: not a bid either
    segs = bidding_segments(staged(h.history, r, h.dealer), names, h.upcard)
    assert segs[0] == ("Round 1", ["North orders it up alone"])
    assert segs[1][0] == "" and segs[1][1][0].startswith("West discards ")
    assert segs[2] == ("", [f"{d} declines to defend alone" for d in defenders])
    assert segs[3] == ("After the last trick", [f"{c} makes no renege claim"
                                                 for c in claimants])
    assert all("pass" not in item for _, items in segs for item in items)


def test_bidding_words_name_both_rounds_and_the_dealers_pickup() -> None:
    r = Rules()
    h = HandState.deal(r, 3, random.Random(4))
    for _ in range(3):
        h.apply_action(A.PASS)
    h.apply_action(A.ORDER)  # the dealer (West) takes the up-card
    segs = bidding_segments(staged(h.history, r, 3), names, h.upcard)
    assert segs[0] == ("Round 1", ["North passes", "East passes", "South passes",
                                   "West picks it up"])
    h = HandState.deal(r, 3, random.Random(4))
    for _ in range(5):
        h.apply_action(A.PASS)
    call = next(a for a in h.legal_actions() if A.CALL_BASE <= a < A.CALL_BASE + 4)
    h.apply_action(call)
    segs = bidding_segments(staged(h.history, r, 3), names, h.upcard)
    suit = "♣♦♥♠"[call - A.CALL_BASE]
    # A first round everyone passed is said in two words; the second is told in full.
    assert segs[:2] == [("Round 1", ["all pass"]),
                        ("Round 2", ["North passes", f"East calls {suit}"])]
    full = bidding_segments(staged(h.history, r, 3), names, h.upcard, quiet_passes=False)
    assert len(full[0][1]) == 4


def test_grammar_after_you_is_first_person() -> None:
    """The verb agrees with "You" ("You pass"), a name ("West passes") and a side ("You &
    North win"): each phrase's forms are written out, none made by cutting an "s" off."""
    def said(a: int, phase: Phase, who: Who, seat: int = 0, dealer: int = 3) -> str:
        return action_words(a, Moment(phase, seat, dealer), "done", who)

    assert said(A.PASS, Phase.BID1, YOU) == "You pass"
    assert said(A.DEFEND_ALONE, Phase.DEFEND, YOU) == "You defend alone"
    assert said(A.GO_ALONE, Phase.ALONE, YOU) == "You go alone"
    assert said(A.PASS, Phase.DECLARE, YOU) == "You have nothing to declare"
    assert said(A.PASS, Phase.DECLARE, Who("West")) == "West has nothing to declare"
    assert said(A.ORDER, Phase.BID1, YOU, seat=3) == "You pick it up"


def context(view_seat: int, width: int = 79) -> TableContext:
    def name(s: int) -> str:
        return "You" if s == view_seat else seat_name(s, 4)

    return TableContext(glyphs=UNICODE, name=name, short=lambda s: name(s)[0],
                        side_names=["Us", "Them"], scores=[0, 0], target=10,
                        title="standard", hand_no=1, bottom=view_seat, width=width,
                        you=view_seat)


def test_you_sit_out_and_you_defend_alone_read_in_the_first_person() -> None:
    h = HandState.deal(Rules(defend_alone=True), 3, random.Random(0))
    h.apply_action(A.ORDER_ALONE)  # North alone: South, the player, sits out
    screen = "\n".join(t.plain for t in render_table(h.view(2), context(2)))
    assert "You sit out" in screen and "You sits out" not in screen
    h = HandState.deal(Rules(defend_alone=True), 2, random.Random(1))  # South deals
    h.apply_action(A.PASS)  # West
    h.apply_action(A.ORDER_ALONE)  # North alone; the defenders are East and West
    h.apply_action(next(a for a in h.legal_actions()))  # South, the dealer, discards
    while h.phase_name == Phase.DEFEND and h.cur != 1:
        h.apply_action(A.PASS)
    h.apply_action(A.DEFEND_ALONE)  # East defends alone
    screen = "\n".join(t.plain for t in render_table(h.view(1), context(1)))
    assert "You defend alone" in screen and "You defends" not in screen


def test_the_table_fits_40_and_60_columns_without_cropping_names() -> None:
    h = HandState.deal(Rules(), 3, random.Random(0))
    for width in (39, 59):
        lines = [t.plain for t in render_table(h.view(2), context(2, width))]
        assert all(len(ln) <= width for ln in lines), lines
        screen = "\n".join(lines)
        for seat in ("North", "East", "West (dealer)", "You"):
            assert seat in screen, (width, screen)


def test_rules_title_names_the_nearest_preset_and_what_differs() -> None:
    assert rules_title(Rules()) == "standard"
    assert rules_title(Rules(players=2)) == "two-handed"
    assert rules_title(Rules(stick_the_dealer=True)) == "tournament"
    assert rules_title(Rules(canadian_loner=True)) == "standard + Canadian loner"
    assert rules_title(Rules(canadian_loner=True, defend_alone=True), room=15) == \
        "standard+2"
    listing = "\n".join(rules_lines(Rules(canadian_loner=True)))
    assert " * Canadian loner:" in listing and "   Deck:" in listing
    assert len(rules_lines(Rules())) >= 17  # every option has a line


def game_at(rules: Rules, seed: int, want: Phase) -> tuple[TerminalGame, HandState]:
    """A table whose player (South) is asked in phase ``want``: everyone else passes."""
    m = euchre.Match(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(500):
        if m.hand.phase_name == want and m.current_player == 2:
            break
        legal = m.legal_actions()
        if want in (Phase.BID1, Phase.BID2) and A.PASS in legal:
            m.apply_action(A.PASS)  # on to the player's turn in that round
        else:  # on to the play: order up (or name a suit), then any card
            bids = [a for a in legal if a in (A.ORDER,) or A.CALL_BASE <= a < A.CALL_BASE + 4]
            m.apply_action(bids[0] if bids else rng.choice(legal))
    else:
        pytest.fail(f"seed {seed} never asked the player in phase {want}")
    console = Console(file=io.StringIO(), width=80)
    game = TerminalGame(m, GameSettings(seats=["rule", "rule", "human", "rule"]), console)
    return game, m.hand


def test_a_suit_typed_alone_names_trump_in_round_two_only() -> None:
    game, h = game_at(Rules(), 1, Phase.BID2)
    view = h.view(2)
    dead = view.upcard >> 3
    suit = next(s for s in range(4) if s != dead)
    letter, word = "CDHS"[suit], ("clubs", "diamonds", "hearts", "spades")[suit]
    assert game.parse(letter.lower(), view, h) == (A.call(suit), "")
    assert game.parse(word, view, h) == (A.call(suit), "")
    assert game.parse(f"{word} alone", view, h) == (A.call(suit, True), "")
    assert game.suit_call("h", view) == A.call(2)  # "h" names hearts here, not a hint
    action, why = game.parse("CDHS"[dead].lower(), view, h)
    assert action is None and "was turned down" in why
    game, h = game_at(Rules(), 1, Phase.BID1)
    action, why = game.parse("s", h.view(2), h)
    assert action is None and "In the first round you may only order up" in why


def test_option_lists_use_the_screens_notation_and_say_1_or_2() -> None:
    for seed in range(40):
        game, h = game_at(Rules(), seed, Phase.BID1)
        legal = h.legal_actions()
        if len(legal) == 3:
            break
    view = h.view(2)
    assert game.choices_text(view) == ("Type 1 to 3, or one of: pass, order up, "
                                       "order up alone.")
    game, h = game_at(Rules(canadian_loner=True), 2, Phase.BID1)  # North deals: order only alone
    assert game.choices_text(h.view(2)) == "Type 1 or 2, or one of: pass, order up alone."
    # In play a ten is written as on the screen (10♣), never the record's TC.
    for seed in range(60):
        game, h = game_at(Rules(), seed, Phase.PLAY)
        words = game.choices_text(h.view(2))
        if "10" in words and "one of:" in words:
            listed = words.split("one of:", 1)[1]
            assert "T" not in listed and re.search(r"\b10[♣♦♥♠]", listed), words
            return
    pytest.fail("no seed gave the player a ten")


def test_unusual_digits_and_junk_are_explained_not_crashed_on() -> None:
    game, h = game_at(Rules(), 1, Phase.BID1)
    view = h.view(2)
    for junk in ("²", "①", "٣", "1²", "¾", "\u0663", "x" * 500, "♠♠", "🃏🃏"):
        action, why = game.parse(junk, view, h)
        assert action is None and why, junk
        assert len(why) < 300


def test_misdeal_and_farmer_declarations_explain_themselves() -> None:
    # A deck that deals South (seat 2) 9♣ 10♣ 9♦ 10♦ 9♥ and turns up a spade: no ace, no face
    # card, no trump, and only nines and tens.
    rules = Rules(no_ace_no_face=True)
    plain = deck_cards(24)
    probe = HandState(rules, 0, plain)
    south_at = [i for i, c in enumerate(plain) if probe.initial_hands[2] >> c & 1]
    want = [parse_card(x) for x in ("9C", "TC", "9D", "TD", "9H")]
    rest = [c for c in plain if c not in want]
    rest.remove(parse_card("AS"))
    deck = [0] * 24
    for i, c in zip(south_at, want, strict=True):
        deck[i] = c
    others = iter(rest)
    for i in range(24):
        if i not in south_at:
            deck[i] = parse_card("AS") if i == 20 else next(others)
    m = euchre.Match(rules, seed=1, first_dealer=0, decks=[tuple(deck)])
    while m.current_player != 2:
        m.apply_action(A.PASS)
    assert A.MISDEAL in m.legal_actions()
    game = TerminalGame(m, GameSettings(seats=["rule", "rule", "human", "rule"]),
                        Console(file=io.StringIO(), width=80))
    notes = " ".join(game.declaration_notes(m.hand.view(2)))
    assert "no ace, no face card and no trump" in notes
    assert "the same dealer deals again" in notes


def test_stats_count_hands_and_games_from_the_players_side(tmp_path: Path) -> None:
    rng = random.Random(3)
    path = tmp_path / "d" / "stats.json"
    rec = StatsRecorder(path, "standard", me=2)
    expected = Stats()
    for seed in range(30):
        h = HandState.deal(Rules(), seed % 4, random.Random(seed))
        while not h.is_terminal():
            h.apply_action(rng.choice(h.legal_actions()))
        assert rec.hand(h) is None
        expected.add_hand("standard", h, 2)
    assert rec.game(True) is None
    row = load(path).by_rules["standard"]
    assert row["games"] == 1 and row["won"] == 1
    assert row == {**expected.by_rules["standard"], "games": 1, "won": 1}
    assert row["hands"] == row["called"] + (row["hands"] - row["called"])
    assert row["made"] + row["euchred"] == row["called"]


def test_an_unreadable_stats_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    path.write_text("not json", encoding="utf-8")
    h = HandState.deal(Rules(), 0, random.Random(1))
    rng = random.Random(1)
    while not h.is_terminal():
        h.apply_action(rng.choice(h.legal_actions()))
    rec = StatsRecorder(path, "standard", me=2)
    problem = rec.hand(h) if h.outcome == "scored" else rec.game(False)
    assert problem is not None and "not valid JSON" in problem
    assert path.read_text(encoding="utf-8") == "not json"
    assert rec.game(True) is None  # said once, then quiet


def test_replay_of_a_farmers_hand_game_lists_no_declaration_passes_as_bids() -> None:
    r = Rules(farmers_hand="swap")
    h = HandState.deal(r, 0, random.Random(7))
    while h.phase_name == Phase.DECLARE:
        h.apply_action(A.PASS)
    h.apply_action(A.PASS)
    h.apply_action(A.ORDER)
    text = describe_hand(h)
    round1 = next(ln for ln in text.splitlines() if "Round 1:" in ln)
    assert round1.count("passes") == 1 and "orders it up" in round1, text
    assert "Before the bidding" not in text  # nobody swapped


def test_replay_of_an_unfinished_save_shows_only_the_savers_view() -> None:
    m = euchre.Match(Rules(), seed=5)
    rng = random.Random(2)
    while not (len(m.finished) == 1 and len(m.hand.tricks) == 1 and m.hand.trick):
        m.apply_action(rng.choice(m.legal_actions()))
    hidden = describe_record(m, reveal=False, viewer=2)
    hand2 = hidden.split("Hand 2 (in progress)")[1]
    assert "South" in hand2 and "(other hands hidden" in hand2
    assert not any(f"  {s} " in hand2 for s in ("North    ", "East     ", "West     "))
    assert "Trick 2 (in progress):" in hand2
    shown = describe_record(m, reveal=True, viewer=2).split("Hand 2 (in progress)")[1]
    assert all(f"  {s}" in shown for s in ("North", "East", "South", "West"))


def test_saved_rated_game_stays_rated() -> None:
    from euchre.cli.play import rated_record

    assert rated_record(json.dumps({"rated": True}))
    assert not rated_record(json.dumps({"players": []})) and not rated_record("[")


def test_resume_hint_repeats_the_command_the_player_used() -> None:
    game, _ = game_at(Rules(), 1, Phase.BID1)
    assert game.resume_command("g.json") == "euchre play --resume g.json"
    game.settings.launcher = "make play"
    assert game.resume_command("g.json") == "make play ARGS='--resume g.json'"
    assert game.resume_command("my game.json") == "make play ARGS=\"--resume 'my game.json'\""


def test_launcher_is_the_command_as_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    from euchre.cli import play

    monkeypatch.setattr("sys.argv", ["/some/where/__main__.py"])
    assert play.launcher_command() == "python -m euchre play"
    monkeypatch.setattr("sys.argv", [".venv/bin/euchre"])
    monkeypatch.setattr("shutil.which", lambda name: None)
    assert play.launcher_command() == ".venv/bin/euchre play"


# ---------------------------------------------------------------------------------------------
# Issue 10's table rules in words: the last trick's fix questions, rows bidding, rows hand


def test_renege_fix_questions_after_the_last_card_read_as_fix_questions_then_claims() -> None:
    """Every act after the last card gets the stage the engine asked it in: the last trick's
    fix questions ("lets the trick stand"), then the renege claims."""
    r = Rules(renege="penalize", renege_fix=True)
    checked = 0
    for seed in range(200):
        rng = random.Random(seed)
        h = HandState.deal(r, seed % 4, rng)
        phases = []
        while not h.is_terminal():
            legal = h.legal_actions()
            a = A.PASS if A.FIX_RENEGE in legal else rng.choice(legal)  # let reneges stand
            phases.append(PHASES[h.phase])
            h.apply_action(a)
        acts = staged(h.history, r, h.dealer, upcard=h.upcard)
        assert len(acts) == len(phases)
        last = max(i for i, (_, a) in enumerate(h.history) if A.is_play(a))
        for act, phase in list(zip(acts, phases, strict=True))[last + 1:]:
            assert act.stage == phase, (seed, act, phase)
        checked += Phase.FIX in phases[last + 1:]
        # One line on the table says what happened: a trick let stand is no news.
        compact = bidding_segments(acts, names, h.upcard, compact=True)
        assert not any("lets the trick stand" in i for _, items in compact for i in items)
    assert checked >= 5


def test_two_handed_rows_bidding_reads_as_bids_then_trump_not_round_2() -> None:
    r = Rules(players=2, rows=True)
    h = HandState(r, 0, deck_cards(24))  # Player 1 deals; Player 2 bids first
    for a in ("bid 8", "bid 9", "call D"):
        h.apply_action(A.action_from_str(a))

    def two(s: int) -> Who:
        return Who(seat_name(s, 2))

    segs = bidding_segments(staged(h.history, r, h.dealer), two, h.upcard)
    assert segs == [("", ["Player 2 bids 8", "Player 1 bids 9"]),
                    ("", ["Player 1 names ♦ trump"])]
    assert "Round" not in str(segs)
    mine = bidding_segments(staged(h.view(0).history, r, 0, viewer=0), lambda s: YOU
                            if s == 0 else two(s), h.upcard)
    assert mine[1] == ("", ["You name ♦ trump"])
    thrown = HandState(r, 0, deck_cards(24))
    thrown.apply_action(A.PASS)
    thrown.apply_action(A.PASS)
    assert bidding_segments(staged(thrown.history, r, 0), two, -1) == [
        ("", ["Player 2 passes", "Player 1 passes"])]


def test_two_handed_rows_your_hand_shows_the_hand_apart_from_the_face_up_row() -> None:
    r = Rules(players=2, rows=True)
    h = HandState(r, 0, deck_cards(24))
    for a in ("bid 7", "pass", "call S"):
        h.apply_action(A.action_from_str(a))
    view = h.view(0)
    ctx = TableContext(glyphs=UNICODE, name=lambda s: "You" if s == 0 else "Player 2",
                       short=lambda s: str(s + 1), side_names=["You", "P2"], scores=[0, 0],
                       target=10, title="two-handed-rows", hand_no=1, bottom=0,
                       show_hand=True)
    lines = [t.plain for t in render_table(view, ctx)]
    hand = next(ln for ln in lines if ln.startswith("Your hand: "))
    row = next(ln for ln in lines if ln.startswith("Your row: "))
    in_hand = {c for c in view.hand if c not in view.face_up(0)}
    from euchre.cards import card_symbol
    assert len(in_hand) == 4
    for c in view.face_up(0):
        assert card_symbol(c) in row and card_symbol(c) not in hand
    for c in in_hand:
        assert card_symbol(c) in hand
    text = "\n".join(lines)
    assert "bids 7" in text and "names ♠ trump" in text and "Round" not in text
    assert "made by Player 2 (bid 7 of 12 tricks)" in text and "Player 2 4 in hand" in text


def test_two_handed_rows_end_of_hand_says_the_bid_and_whether_it_was_made() -> None:
    from euchre.match import Match

    r = Rules(players=2, rows=True)
    seen = set()
    for seed in range(30):
        m = Match(r, seed=seed)
        game = TerminalGame(m, GameSettings(seats=["human", "rule"]),
                            Console(file=io.StringIO(), width=100))
        h = m.hand
        rng = random.Random(seed)
        while not h.is_terminal():
            h.apply_action(rng.choice(h.legal_actions()))
        if h.outcome != "scored":
            continue
        text = " ".join(t.plain for t in game.hand_summary(h))
        assert f"bid {h.contract}, named " in text and "euchred" not in text
        if h.maker_tricks() >= h.contract:
            seen.add("made")
            assert f"the bid is made. {seat_name(h.maker, 2).replace('Player 1', 'You')} +" \
                in text
        else:
            seen.add("short")
            assert "short of the bid. Nobody scores." in text
    assert seen == {"made", "short"}


def test_the_player_letting_a_trick_stand_reads_in_the_first_person() -> None:
    r = Rules(renege="penalize", renege_fix=True)
    for seed in range(40):
        try:
            game, h = game_at(r, seed, Phase.FIX)
        except pytest.fail.Exception:
            continue
        h.apply_action(A.PASS)
        assert game.event_line(2, A.PASS, h).plain == "You let the trick stand"
        return
    pytest.fail("no seed asked the player whether to fix a renege")


def test_two_handed_rows_review_shows_the_rows_as_dealt_not_a_kitty() -> None:
    from euchre.tui.review import review_lines

    r = Rules(players=2, rows=True)
    h = HandState(r, 0, deck_cards(24))
    rng = random.Random(1)
    while not h.is_terminal():
        h.apply_action(rng.choice(h.legal_actions()))
    lines = [t.plain for t in review_lines(h, 1, lambda s: seat_name(s, 2),
                                           lambda s: str(s + 1), UNICODE, [])]
    text = "\n".join(lines)
    assert "Kitty" not in text and "up-card" not in text
    from euchre.cards import card_symbol
    for s in range(2):
        row = next(ln for ln in lines if ln.startswith(f"  {seat_name(s, 2)} row: "))
        for top, under in h.columns[s]:
            assert f"{card_symbol(top)} on {card_symbol(under)}" in row


def test_two_handed_rows_help_rules_says_how_it_bids_and_scores() -> None:
    listing = "\n".join(rules_lines(Rules(players=2, rows=True)))
    assert "bid 7 to 12 of the 12 tricks" in listing and "a trick past six" in listing
    assert max(len(line) for line in listing.splitlines()) <= 79
    assert "Round 2:" not in listing and "Bidding:" in listing  # no second round with rows
    assert "With rows:" not in "\n".join(rules_lines(Rules(players=2)))


def test_two_handed_rows_replay_names_the_bid_and_a_hand_nobody_scored() -> None:
    r = Rules(players=2, rows=True)
    m = euchre.Match(r, seed=2)
    rng = random.Random(2)
    while len(m.finished) < 6:
        m.apply_action(rng.choice(m.legal_actions()))
    text = describe_record(m)
    assert "Round 2" not in text and "Result: \n" not in text and not text.endswith("Result: ")
    assert ", bid " in text and " of 12" in text
    assert "Result: nobody scores (the maker took" in text and "short of its bid)" in text
