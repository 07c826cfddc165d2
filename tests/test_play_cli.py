"""``euchre play`` driven through a pseudo-terminal, the way a person uses it."""

from __future__ import annotations

import atexit
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pexpect
from rich.cells import cell_len

import euchre

ROOT = Path(__file__).resolve().parent.parent
EUCHRE = str(Path(sys.executable).parent / "euchre")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
CLEAR = "\x1b[2J"

MOVE = r"Your move \((?:1-)?(\d+), hint, last, help, quit\) > "
NEXT = r"Press Enter for the next hand > "
SAVE = r"File name \([^)]*\) > "
#: After the last hand of a game saved with --save: the final screen waits for Enter.
OVER = r"Enter: leave, again: new game, r: review > "
#: The computer players these games were written against (the default is the slower search
#: level), and a small budget for the search player behind 'hint', to keep the tests fast.
RULE_LEVEL = ("--level", "rule", "--think", "12")
#: No pause at all, not even the 1.5 s a trick the player's card was played for in is held at
#: no delay (most of these games' time): that hold is tested in-process
#: (test_table_screens.py), and a test passing its own ``--hold`` overrides this.
NO_PAUSE = ("--delay", "0", "--hold", "0")
WATCH = (EUCHRE, "play", "--level", "rule", "--watch")

#: Statistics go to a folder of the test run's own, never the real user's data folder.
XDG_DATA_HOME = tempfile.mkdtemp(prefix="euchre-test-data-")
atexit.register(shutil.rmtree, XDG_DATA_HOME, True)


def spawn(*args: str, rows: int = 24, cols: int = 80, cwd: Path = ROOT,
          env: dict[str, str] | None = None) -> pexpect.spawn:
    return pexpect.spawn(EUCHRE, ["play", *NO_PAUSE, *RULE_LEVEL, *args], cwd=str(cwd),
                         dimensions=(rows, cols), encoding="utf-8", codec_errors="replace",
                         timeout=30,
                         env={"PATH": "/usr/bin:/bin", "TERM": "xterm-256color",
                              "COLUMNS": str(cols), "LINES": str(rows),
                              "XDG_DATA_HOME": XDG_DATA_HOME, **(env or {})})


def plain(text: str) -> str:
    return ANSI.sub("", text)


def unwrapped(text: str) -> str:
    """The text with every space and line break taken out: a long path on an 80-column screen
    breaks wherever the line ends (a test run's temporary folder can be any length), so a
    check that a path was shown compares the two without them."""
    return "".join(text.split())


def screen_of(child: pexpect.spawn) -> str:
    """The last full screen drawn before the current prompt, without escape codes."""
    return plain(child.before.split(CLEAR)[-1] + child.after)


def play_to_end(child: pexpect.spawn, save_as: str = "") -> str:
    """Answer option 1 at every turn and Enter between hands; returns everything shown."""
    seen = []
    while True:
        i = child.expect([MOVE, NEXT, SAVE, OVER, pexpect.EOF])
        seen.append(child.before + (child.after if isinstance(child.after, str) else ""))
        if i == 0:
            child.sendline("1")
        elif i in (1, 3):
            child.sendline("")
        elif i == 2:
            child.sendline(save_as)
        else:
            break
    child.close()
    return plain("".join(seen))


def test_full_game_to_the_target_with_scripted_input_saves_a_replayable_record(
        tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn("--target", "3", "--seed", "11", "--save", str(record))
    out = play_to_end(child)
    assert child.exitstatus == 0
    assert "Traceback" not in out
    assert "Game over:" in out
    assert unwrapped(f"Saved the game record to {record}") in unwrapped(out)
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["players"] == ["rule", "rule", "human", "rule"]
    match = euchre.from_json(record.read_text(encoding="utf-8"))
    assert match.winner is not None and max(match.scores) >= 3
    rp = subprocess.run([EUCHRE, "replay", "-q", str(record)], capture_output=True, text=True,
                        check=False)
    assert rp.returncode == 0 and "Final:" in rp.stdout


def test_finished_game_offers_to_save_when_no_save_flag(tmp_path: Path) -> None:
    child = spawn("--target", "1", "--seed", "4", "--players", "2")
    out = play_to_end(child, save_as=str(tmp_path / "two.json"))
    assert child.exitstatus == 0
    assert "Save this game as a record?" in out
    match = euchre.from_json((tmp_path / "two.json").read_text(encoding="utf-8"))
    assert match.rules.players == 2 and match.winner is not None


def test_illegal_and_malformed_input_is_explained_and_asked_again() -> None:
    child = spawn("--seed", "21")
    child.expect(MOVE)
    child.sendline("xyzzy")
    child.expect(MOVE)
    # A word that is no option is answered with what may be typed (not "is not a card").
    assert re.search(r"'xyzzy' is not one of your options\. Type 1 to \d+, or one of: pass,",
                     " ".join(screen_of(child).split()))
    child.sendline("1z")
    child.expect(MOVE)
    assert "'1z' is not a card" in screen_of(child)
    child.sendline("42")
    child.expect(MOVE)
    assert "There is no option 42" in screen_of(child)
    child.sendline("call")
    child.expect(MOVE)
    assert "'call' is not one of your options" in screen_of(child)
    child.sendline("")
    child.expect(MOVE)
    assert re.search(r"Type 1 to \d+, or one of: pass", screen_of(child))
    child.sendline("hint")
    child.expect(MOVE)
    assert re.search(r"Hint: .+ \(option \d+\)\. \S", screen_of(child))
    # Play on with option 1; at the first card to play, try a card not held; then wait for a
    # turn where a held card may not be played (it does not follow suit) and try it.
    to_letters = str.maketrans("♣♦♥♠", "CDHS")
    found_not_held = found_follow = False
    for _ in range(400):
        scr = screen_of(child)
        hand = re.search(r"Your hand: (.*)", scr)
        held = [c.replace("(R)", "").replace("(L)", "").translate(to_letters)
                for c in (hand.group(1).split() if hand else [])]
        options = [c.translate(to_letters) for c in re.findall(r"\d+\) (\S+)", scr)]
        if "Your card." in scr and not found_not_held:
            missing = next(c for c in ("AS", "AC", "AD", "AH", "KS", "KC") if c not in held)
            child.sendline(missing)
            child.expect(MOVE)
            assert f"You do not hold {missing[0]}" in screen_of(child).translate(to_letters)
            found_not_held = True
            continue
        unplayable = [c for c in held if c not in options]
        if "Your card." in scr and unplayable:
            child.sendline(unplayable[0])
            child.expect(MOVE)
            assert "Must follow " in screen_of(child)
            found_follow = True
            break
        child.sendline("1")
        i = child.expect([MOVE, NEXT])
        while i == 1:
            child.sendline("")
            i = child.expect([MOVE, NEXT])
    assert found_not_held and found_follow
    child.sendline("quit")
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def flat(child: pexpect.spawn) -> str:
    """The current screen as one line (messages wrap at 79 columns)."""
    return " ".join(screen_of(child).split())


def test_bidding_mistakes_are_explained_in_the_players_terms() -> None:
    # Seed 1: East deals the J♣ and South bids first.
    child = spawn("--seed", "1")
    child.expect(MOVE)
    child.sendline("call H")
    child.expect(MOVE)
    assert ("In the first round you may only order up the J♣ or pass; a suit is named in the "
            "second round. Type 1 to 3, or one of: pass, order up, order up alone.") in flat(child)
    assert "bid1" not in flat(child)  # no engine phase names
    child.sendline("JH")
    child.expect(MOVE)
    assert "Cards are played after the bidding." in flat(child)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_canadian_loner_order_is_explained_and_the_dealer_partner_label_reads_well() -> None:
    # Seed 2: North, South's partner, deals; under the Canadian loner South may order only alone.
    child = spawn("--canadian-loner", "--seed", "2")
    child.expect(MOVE)
    assert "North (partner, dealer) 5 cards" in flat(child)
    assert "(partner) (dealer)" not in flat(child)
    child.sendline("order")
    child.expect(MOVE)
    assert ("Canadian loner: the dealer's partner may order up only by going alone. Type 1 or "
            "2, or one of: pass, order up alone.") in flat(child)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_hint_names_the_option_as_the_menu_does() -> None:
    # Seed 16: South deals the 9♣ and, after three passes, could pick it up.
    child = spawn("--seed", "16")
    child.expect(MOVE)
    child.sendline("hint")
    child.expect(MOVE)
    # The hint is the search player's (here with --think 12, so a bid looks at 24 deals): its
    # choice named as the menu names it, with the menu's number, then what that choice and the
    # others are worth over the deals it looked at. Which option wins depends on the deals
    # sampled, so the test reads the choice from the hint and checks it against the menu rather
    # than pinning one.
    text = flat(child)
    assert "1) pass 2) pick it up 3) pick it up alone" in text
    menu = {"1": "pass", "2": "pick it up", "3": "pick it up alone"}
    hint = re.search(r"Hint: ([a-z ]+) \(option (\d)\)\. ([A-Z][a-z ]+): .*you expect "
                     r"[−+][0-9.]+ ± [0-9.]+ points this hand.* Judged by the chance to win the "
                     r"game, over \d+ deals, [a-z' ()]+\.", text)
    assert hint, text
    choice, number, sentence_name = hint.group(1), hint.group(2), hint.group(3)
    assert menu[number] == choice
    assert sentence_name.lower() == {"pass": "pass", "pick it up": "pick it up",
                                     "pick it up alone": "pick it up alone"}[choice]
    # the two options not chosen are valued in the same answer, each by one range of how much
    # less it brings (firmly: "2% to 8% less"; a close call: "from 1% more to 4% less")
    others = {"pass": "Pass", "pick it up": "Pick it up",
              "pick it up alone": "Pick it up alone"}
    for option, label in others.items():
        if option != choice:
            assert re.search(re.escape(label) + r"(?: and [A-Z][a-z ]+)? \((?:from [0-9.]+% "
                             r"more to |up to )?[0-9.]+%(?: to [0-9.]+%)? less\)", text), \
                (label, text)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_openspiel_alone_question_options_read_as_words() -> None:
    from euchre import actions as A
    from euchre.phases import Phase
    from euchre.tui.render import UNICODE, action_text
    from euchre.words import Moment

    at = Moment(Phase.ALONE, 0, 3)
    assert action_text(A.GO_ALONE, UNICODE, at).plain == "go alone"
    assert action_text(A.WITH_PARTNER, UNICODE, at).plain == "play with partner"
    for a in (A.GO_ALONE, A.WITH_PARTNER):  # what the menu shows can also be typed
        assert A.action_from_str(action_text(a, UNICODE, at).plain) == a


def test_joker_up_card_asks_the_dealer_to_name_trump() -> None:
    # Seed 45 with the Joker deck: South deals and turns up the Joker.
    child = spawn("--deck", "25", "--seed", "45")
    child.expect(MOVE)
    assert "The Joker turned up: name trump." in flat(child)
    assert "Pick it up?" not in flat(child)
    child.sendline("order")
    child.expect(MOVE)
    assert "The Joker turned up: as dealer you name trump." in flat(child)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_nothing_to_declare_is_not_asked_nor_shown_as_bids() -> None:
    # Seed 1 with farmer's hands on: South (Q♦ K♥ J♥ 9♥ K♠) has nothing to declare, so the
    # first question is the bid, and nobody's declaration pass reads like a bid.
    child = spawn("--farmers-hand", "swap", "--seed", "1")
    child.expect(MOVE)
    assert "Order up the up-card?" in flat(child) and "Declare" not in flat(child)
    assert "Bidding: none yet" in flat(child)
    child.sendline("pass")
    child.expect(MOVE)
    assert "Bidding: Round 1: You pass, West orders it up" in flat(child)
    assert "North passes" not in flat(child)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_farmers_swap_is_offered_by_name_and_typed_as_swap() -> None:
    # Seed 3 with the farmer's swap: South holds 9♦ 10♥ 9♥ and may swap them.
    child = spawn("--farmers-hand", "swap", "--seed", "3")
    child.expect(MOVE)
    assert "Farmer's hand: swap three low cards for the kitty?" in flat(child)
    child.sendline("swap")  # the only swap on offer: no need to spell out the cards
    child.expect(MOVE)
    assert "Bidding: Before the bidding: You swap 9♦ 9♥ 10♥" in flat(child)
    # The player sees their own cards, those that went and those that came in.
    assert re.search(r"You swap 9♦ 9♥ 10♥ for the kitty and get \S+ \S+ \S+", flat(child))
    child.sendeof()
    child.expect(pexpect.EOF)


def test_penalized_renege_is_marked_and_a_failed_claim_is_explained() -> None:
    # Seed 1: South passes, West orders clubs; South leads K♠. West then leads A♦ and South,
    # holding Q♦, may renege with a heart: the menu says which cards would renege.
    child = spawn("--seed", "1", "--renege", "penalize")
    child.expect(MOVE)
    child.sendline("pass")
    child.expect(MOVE)
    child.sendline("KS")
    child.expect(MOVE)
    assert "1) Q♦ 2) K♥ (renege) 3) J♥ (renege) 4) 9♥ (renege)" in flat(child)
    child.sendline("QD")
    for _ in range(6):
        child.expect(MOVE)
        if "Claim a renege?" in flat(child):
            break
        child.sendline("1")
    child.sendline("claim renege")
    child.expect(NEXT)
    assert "You claimed a renege, but the other side followed suit: no change." in flat(child)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_replay_wording_for_one_finished_hand_and_a_single_player_winner(
        tmp_path: Path) -> None:
    partial = tmp_path / "partial.json"
    child = spawn("--seed", "1")  # hand 1 ends after South's five cards; quit in hand 2
    for _ in range(40):
        i = child.expect([MOVE, NEXT])
        if "hand 2" in flat(child) and i == 0:
            break
        child.sendline("" if i else "1")
    child.sendline("quit")
    child.expect(SAVE)
    child.sendline(str(partial))
    child.expect(pexpect.EOF)
    rp = subprocess.run([EUCHRE, "replay", "-q", str(partial)], capture_output=True, text=True,
                        check=False)
    assert rp.stdout.startswith("In progress after 1 hand: "), rp.stdout
    two = tmp_path / "two.json"
    r = subprocess.run([*WATCH, "--delay", "0", "--players", "2",
                        "--target", "2", "--seed", "3", "--save", str(two)],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    rp = subprocess.run([EUCHRE, "replay", "-q", str(two)], capture_output=True, text=True,
                        check=False)
    assert re.fullmatch(r"Final: Player 1 \d+, Player 2 \d+; Player [12] wins\n", rp.stdout)


def test_quit_saves_and_resume_continues_the_same_position(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    child = spawn("--seed", "5")
    for _ in range(6):
        i = child.expect([MOVE, NEXT])
        child.sendline("1" if i == 0 else "")
    while child.expect([MOVE, NEXT]) == 1:
        child.sendline("")
    before = screen_of(child)
    child.sendline("quit")
    child.expect(SAVE)
    # The prompt says how to take the quit back, on one line of the 80-column screen.
    prompt = plain(child.before.split("\n")[-1] + child.after)
    assert prompt.startswith("Save first? File name (")
    assert "c: keep playing" in prompt and cell_len(prompt) < 80, prompt
    child.sendline("c")
    child.expect(MOVE)
    assert "Not quitting: the game goes on." in screen_of(child)
    child.sendline("quit")
    child.expect(SAVE)
    child.sendline(str(saved))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert unwrapped(f"euchre play --resume {saved}") in unwrapped(plain(child.before))
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["players"][2] == "human" and data["winner"] is None

    again = spawn("--resume", str(saved))
    again.expect(MOVE)
    after = screen_of(again)

    def pick(scr: str, label: str) -> str:
        m = re.search(label + r".*", scr)
        assert m is not None, scr
        return m.group(0)

    for label in ("Your hand:", "Bidding:", "Tricks this hand:", "Score:"):
        assert pick(before, label) == pick(after, label)
    again.sendeof()
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0
    assert "Input ended" in plain(again.before)


def test_ascii_mode_prints_only_ascii_with_suit_letters() -> None:
    child = spawn("--ascii", "--target", "2", "--seed", "8")
    out = play_to_end(child, save_as="")
    assert child.exitstatus == 0
    assert out.isascii(), {ch for ch in out if not ch.isascii()}
    assert re.search(r"Your hand: .*\b(9|10|J|Q|K|A)[CDHS]\b", out)


def test_the_table_fits_a_narrow_80x24_terminal() -> None:
    child = spawn("--target", "2", "--seed", "3", "--players", "3", rows=24, cols=80)
    raw: list[str] = []
    while True:
        i = child.expect([MOVE, NEXT, SAVE, pexpect.EOF])
        raw.append(child.before + (child.after if isinstance(child.after, str) else ""))
        if i == 3:
            break
        child.sendline("" if i else "1")
    child.close()
    screens = [plain(s) for s in "".join(raw).split(CLEAR)[1:]]
    assert len(screens) > 10
    for scr in screens:
        lines = scr.split("\n")
        # 23 lines of table at most, plus the prompt line (the prompt is where input goes).
        assert len([ln for ln in lines if ln.strip()]) <= 24, scr
        for ln in lines:
            assert cell_len(ln) < 80, ln


def test_four_handed_table_fits_80x24_and_shows_the_score_markers() -> None:
    child = spawn("--seed", "12", "--target", "2")
    out = play_to_end(child, save_as="")
    screens = [s for s in out.split("Euchre ·")[1:]]
    assert screens
    for scr in screens:
        body = scr.split("\n")
        assert len(body) <= 24
        assert all(cell_len(ln) < 80 for ln in body)
    assert "[▒▒▒▒▒][" in out  # the 5 and the 6, face down and showing pips
    assert re.search(r"Score: Us \d+ \[", out)


def test_eof_at_a_prompt_ends_cleanly() -> None:
    child = spawn("--seed", "2")
    child.expect(MOVE)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Input ended" in plain(child.before) and "Traceback" not in plain(child.before)


def test_watch_output_is_plain_text_when_not_a_terminal() -> None:
    r = subprocess.run([*WATCH, "--delay", "0", "--target", "3",
                        "--seed", "9"], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stdout
    assert "Hand 1:" in r.stdout and "Trick 1:" in r.stdout and "Game over:" in r.stdout


def test_watch_save_to_an_unwritable_path_fails_with_status_1(tmp_path: Path) -> None:
    target = tmp_path / "no-such-dir" / "game.json"
    r = subprocess.run([*WATCH, "--delay", "0", "--target", "3", "--seed",
                        "9", "--save", str(target)], capture_output=True, text=True, check=False)
    assert r.returncode == 1
    assert "Could not save" in r.stdout and "Traceback" not in r.stderr
    ok = tmp_path / "game.json"
    r = subprocess.run([*WATCH, "--delay", "0", "--target", "3", "--seed",
                        "9", "--save", str(ok)], capture_output=True, text=True, check=False)
    assert r.returncode == 0 and ok.exists()


def test_invalid_rule_combination_prints_the_engine_message_and_exits_2() -> None:
    r = subprocess.run([EUCHRE, "play", "--players", "2", "--defend-alone"],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 2
    assert "two-handed euchre has no defending alone" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run([EUCHRE, "play", "--canadian-loner", "--no-going-alone"],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 2 and "need going_alone=True" in r.stderr


def test_delay_must_be_a_finite_number_of_seconds() -> None:
    # An infinite delay once crashed the first computer move with OverflowError from sleep.
    for bad in ("inf", "nan", "-1", "1e9"):
        r = subprocess.run([*WATCH, "--delay", bad, "--seed", "1"],
                           capture_output=True, text=True, check=False, timeout=20)
        assert r.returncode == 2, (bad, r.stdout[-300:], r.stderr)
        assert "--delay must be 0 to 60 seconds" in r.stderr and "Traceback" not in r.stderr


def test_help_explains_every_rules_flag() -> None:
    r = subprocess.run([EUCHRE, "play", "--help"], capture_output=True, text=True, check=False)
    assert r.returncode == 0
    for flag in ("--preset", "--players", "--target", "--stick-the-dealer", "--defend-alone",
                 "--canadian-loner", "--farmers-hand", "--no-ace-no-face", "--renege",
                 "--deck", "--first-dealer", "--no-going-alone", "--seed", "--delay",
                 "--ascii", "--watch", "--resume", "--save", "--alone-timing", "--scoring"):
        assert flag in r.stdout, flag


def test_resume_of_a_file_that_is_not_a_record_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}', encoding="utf-8")
    r = subprocess.run([EUCHRE, "play", "--resume", str(bad)], capture_output=True, text=True,
                       check=False)
    assert r.returncode == 1 and "is not a saved game" in r.stderr
    assert "Traceback" not in r.stderr


def test_rules_flags_map_onto_the_engine_options() -> None:
    from euchre.cli import build_parser
    from euchre.cli.play import build_rules

    args = build_parser().parse_args([
        "play", "--preset", "tournament", "--target", "7", "--deck", "25", "--defend-alone",
        "--farmers-hand", "swap", "--no-ace-no-face", "--renege", "penalize",
        "--first-dealer", "black-jack", "--scoring", "euchre=3"])
    rules = build_rules(args)
    assert rules == euchre.Rules(
        stick_the_dealer=True, target=7, deck=25, defend_alone=True, farmers_hand="swap",
        no_ace_no_face=True, renege="penalize", first_dealer="black_jack",
        scoring=euchre.Scoring(euchre=3))
    cut = build_rules(build_parser().parse_args(["play", "--players", "3"]))
    assert cut.players == 3 and not cut.going_alone
    assert build_rules(build_parser().parse_args(["play"])) == euchre.Rules()


def test_resume_from_a_binary_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "game.json"
    bad.write_bytes(b"\xff\xfe\x00binary")
    r = subprocess.run([EUCHRE, "play", "--resume", str(bad)], capture_output=True, text=True,
                       check=False)
    assert r.returncode == 1 and "is not a saved game: not UTF-8 text" in r.stderr
    assert "Traceback" not in r.stderr
