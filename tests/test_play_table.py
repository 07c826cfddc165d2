"""The table a regular player uses, driven through a pseudo-terminal: held tricks, autoplay,
undo, the end-of-hand review, statistics, Ctrl-C, narrow screens and junk input."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import time
from pathlib import Path

import pexpect
import pytest
from rich.cells import cell_len
from test_play_cli import CLEAR, EUCHRE, MOVE, NEXT, SAVE, flat, plain, screen_of, spawn, unwrapped

import euchre

# Seed 1, standard rules: East deals the J♣; South (the player) holds Q♦ K♥ J♥ 9♥ K♠. After
# South passes, West orders clubs and East picks up; South leads K♠ and West, North and East
# play A♠ Q♠ 9♦: West wins, with a computer's card completing the trick. West then leads A♦,
# and South's Q♦ is the only card that follows.


def test_a_finished_trick_is_held_with_its_winner_after_a_computer_completes_it() -> None:
    child = spawn("--seed", "1", "--hold", "0.6")
    child.expect(MOVE)
    child.sendline("pass")
    child.expect(MOVE)
    child.sendline("KS")
    # The screen of the finished trick: all four cards, the winner's highlighted and named.
    child.expect(r"won by (?:\x1b\[[0-9;]*m)*West")
    shown = time.monotonic()
    held = child.before.split(CLEAR)[-1]
    assert "Trick 1: You K♠, W A♠, N Q♠, E 9♦ - won by West" in plain(held + child.after)
    assert re.search(r"\x1b\[(?:\d+;)*7(?:;\d+)*mA♠", held), "winning card not highlighted"
    screen = plain(held)
    assert "A♠ won" in screen and "Q♠" in screen and "9♦" in screen and "led K♠" in screen
    # It stays until the hold is over: the next screen comes no sooner.
    child.expect_exact(CLEAR)
    assert time.monotonic() - shown >= 0.55
    child.sendeof()
    child.expect(pexpect.EOF)


def test_the_only_legal_card_is_played_for_the_player_unless_autoplay_is_off() -> None:
    child = spawn("--seed", "1")
    child.expect(MOVE)
    child.sendline("pass")
    child.expect(MOVE)
    child.sendline("KS")
    child.expect(MOVE)  # Q♦ was forced: the next question is trick 3's
    seen = plain(child.before)
    assert "Your only playable card, Q♦, is played for you." in seen
    assert "You play Q♦" in seen or "You Q♦" in seen
    hand = re.search(r"Your hand: (.*)", screen_of(child))
    assert hand is not None and "Q♦" not in hand.group(1)
    child.sendeof()
    child.expect(pexpect.EOF)

    child = spawn("--seed", "1", "--no-autoplay")
    child.expect(MOVE)
    child.sendline("pass")
    child.expect(MOVE)
    child.sendline("KS")
    child.expect(MOVE)
    assert "Your card." in flat(child) and "1) Q♦ Your move (1, hint" in flat(child)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_undo_takes_back_the_last_choice_and_the_record_keeps_only_what_stood(
        tmp_path: Path) -> None:
    saved = tmp_path / "undo.json"
    child = spawn("--seed", "1")
    child.expect(MOVE)
    child.sendline("undo")
    child.expect(MOVE)
    assert "Nothing to take back in this hand" in flat(child)
    child.sendline("pass")
    child.expect(MOVE)
    child.sendline("KS")
    child.expect(MOVE)  # trick 3: K♠ led, trick 1 and 2 played (Q♦ forced)
    child.sendline("undo")
    child.expect(MOVE)
    scr = flat(child)
    # The forced Q♦ is stepped over: the K♠ lead, the last real choice, is taken back.
    assert re.search(r"Taken back: your K♠ and the \d+ moves after it\.", scr), scr
    assert "Your hand: Q♦ K♥ J♥ 9♥ K♠" in scr and "Tricks this hand: Us 0 · Them 0" in scr
    child.sendline("KH")  # a different lead this time
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(SAVE)
    child.sendline(str(saved))
    child.expect(pexpect.EOF)
    actions = json.loads(saved.read_text(encoding="utf-8"))["hands"][0]["actions"]
    plays = [a for a in actions if a.startswith("play ")]
    assert "play KS" not in plays[:1] and plays[0] == "play KH", actions
    euchre.from_json(saved.read_text(encoding="utf-8"))  # and it replays

    rated = spawn("--seed", "1", "--rated")
    rated.expect(MOVE)
    rated.sendline("pass")
    rated.expect(MOVE)
    rated.sendline("undo")
    rated.expect(MOVE)
    assert "Undo is off in a rated game." in flat(rated)
    rated.sendeof()
    rated.expect(pexpect.EOF)


def to_next_hand(child: pexpect.spawn, first: str = "1") -> str:
    """Answer ``first`` to the first question, then option 1, until the next-hand pause."""
    answer = first
    while child.expect([MOVE, NEXT]) == 0:
        child.sendline(answer)
        answer = "1"
    return screen_of(child)


def test_end_of_hand_review_on_request_and_after_a_loner() -> None:
    child = spawn("--seed", "1")
    scr = to_next_hand(child, first="pass")
    assert "r: review this hand" in scr and "review of hand" not in scr
    child.sendline("r")
    child.expect(NEXT)
    review = screen_of(child)
    assert "review of hand 1" in review
    for who, cards in (("North (partner)", ""), ("East", ""), ("You", "Q♦ K♥ J♥ 9♥ K♠"),
                       ("West", "")):
        assert re.search(rf"^  {re.escape(who)} +{cards}", review, re.M), (who, review)
    assert re.search(r"Kitty: J♣ \(up-card\)( \S+){3}; East discarded \S+", review), review
    assert "Round 1: You pass, West orders it up" in review
    for k in range(1, 6):
        assert re.search(rf"Trick {k}: .+ - \S+", review), review
    assert "West made ♣" in review and "Score:" in review
    child.sendline("quit")  # quit works at the next-hand pause
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    # Going alone: the review comes without being asked.
    child = spawn("--seed", "1")
    to_next_hand(child, first="order alone")
    scr = screen_of(child)
    assert "review of hand 1" in scr and "Trick 5:" in scr and "t: the table" in scr
    child.sendline("t")
    child.expect(NEXT)
    assert "Tricks this hand:" in screen_of(child)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_statistics_are_kept_across_games_and_shown_by_euchre_stats(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path)}
    child = spawn("--seed", "4", "--target", "1", env=env)
    while True:
        i = child.expect([MOVE, NEXT, SAVE])
        if i == 2:
            break
        child.sendline("1" if i == 0 else "")
    assert "again: new game" in plain(child.after)
    child.sendline("again")  # play again: a new game, hand 1, same rules
    child.expect(MOVE)
    assert re.search(r"game to 1 · hand 1\b", flat(child))
    child.sendline("quit")
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)
    data = json.loads((tmp_path / "euchre" / "stats.json").read_text(encoding="utf-8"))
    row = data["by_rules"]["standard"]
    assert row["games"] == 1 and row["hands"] >= 1
    assert row["made"] + row["euchred"] == row["called"]
    r = subprocess.run([EUCHRE, "stats"], capture_output=True, text=True, check=False,
                       env={**os.environ, **env})
    assert r.returncode == 0, r.stderr
    assert "standard" in r.stdout and f"games 1, won {row['won']}" in r.stdout
    assert f"hands {row['hands']}:" in r.stdout


def test_ctrl_c_offers_to_save_and_names_the_command_that_resumes(tmp_path: Path) -> None:
    saved = tmp_path / "interrupted.json"
    child = spawn("--seed", "1", "--delay", "5", env={"EUCHRE_LAUNCHER": "make play"})
    child.expect(MOVE)
    child.sendintr()  # at the prompt: like 'quit'
    child.expect(SAVE)
    assert "Save first?" in plain(child.before[-300:])
    child.sendline("c")
    child.expect(MOVE)
    assert "Not quitting: the game goes on." in flat(child)
    child.sendline("pass")  # then the computers play, five seconds a move
    child.expect("You pass")  # drawn after West's move, as its five seconds begin
    child.sendintr()  # during a computer's turn
    child.expect(SAVE)
    assert "Interrupted. Save first?" in plain(child.before[-300:])
    child.sendline(str(saved))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    said = unwrapped(plain(child.before))
    assert unwrapped(f"continue with make play ARGS='--resume {saved}'") in said, said
    assert euchre.from_json(saved.read_text(encoding="utf-8")).winner is None


def test_narrow_terminals_keep_every_seat_name_and_fit_the_width() -> None:
    for cols in (60, 40):
        child = spawn("--seed", "3", "--target", "2", cols=cols)
        raw = []
        while True:
            i = child.expect([MOVE, NEXT, SAVE, pexpect.EOF])
            raw.append(child.before + (child.after if isinstance(child.after, str) else ""))
            if i == 3:
                break
            child.sendline("" if i in (1, 2) else "1")
        child.close()
        assert child.exitstatus == 0
        screens = [plain(s) for s in "".join(raw).split(CLEAR)[1:]]
        tables = [s for s in screens if "Tricks this hand:" in s]
        assert len(tables) > 10
        for scr in tables:
            for ln in scr.split("\n"):
                if not ln.startswith(("Your move", "Press Enter", "Save this")):
                    assert cell_len(ln) < cols, (cols, ln)
            for name in ("North (partner", "West", "East", "You"):
                assert name in scr, (cols, name, scr)


def junk(rng: random.Random) -> str:
    """A line of random Unicode and control characters (none that signal, end input or stop
    output: Ctrl-C, Ctrl-D, Ctrl-Z, Ctrl-\\, Ctrl-S/Q and the line-editing keys)."""
    pools = [
        "²³¹①②⑩٣۴߂१๓０１２¾½",  # digits str.isdigit() accepts but int() may not
        "\u0301\u200b\u200e\u202e\ufeff\u00a0",  # combining, zero-width, bidi, BOM, nbsp
        "♠♣♥♦🃏★日本語русскийעברית",
        "\x01\x02\x05\x06\x07\x08\x0b\x0c\x0e\x10\x14\x18\x1b\x1e\x1f",
        "[]/\\{}%$'\"`",
        "JHTC10SAQK ",
    ]
    parts = []
    for _ in range(rng.randint(1, 8)):
        pool = rng.choice(pools)
        parts.append("".join(rng.choice(pool) for _ in range(rng.randint(1, 4))))
    if rng.random() < 0.2:
        parts.append(rng.choice(["\x1b[A", "\x1b[3~", "\x1bOP", "\x1b]0;x\x07"]))
    return "".join(parts)


@pytest.mark.slow
def test_random_unicode_and_control_input_never_ends_the_game(tmp_path: Path) -> None:
    rng = random.Random(2024)
    child = spawn("--seed", "6", cwd=tmp_path)
    prompts = 0
    for _ in range(40):
        i = child.expect([MOVE, NEXT, SAVE, pexpect.EOF])
        assert i in (0, 1), plain(child.before)[-2000:]
        prompts += 1
        for _ in range(2):
            child.sendline(junk(rng))
            assert child.expect([MOVE, NEXT, pexpect.EOF]) == i, plain(child.before)[-2000:]
        os.write(child.child_fd, b"\xff\xfe\xc3(\n")  # bytes that are not UTF-8 at all
        assert child.expect([MOVE, NEXT, pexpect.EOF]) == i, plain(child.before)[-2000:]
        child.sendline("1" if i == 0 else "")
    # At the save question too: junk names are refused or saved, and 'c' goes back to play.
    child.expect([MOVE, NEXT])
    child.sendline("quit")
    child.expect(SAVE)
    for name in ("\x01\x02", "no/such/dir/x.json", ".", "[red]xx.json"):
        child.sendline(name)
        if name.startswith("[red]"):  # a legal (odd) name: saved, and printed as itself
            child.expect(pexpect.EOF)
            break
        child.expect(SAVE)
    out = " ".join(plain(child.before).split())
    assert "Traceback" not in out and "Saved to [red]xx.json" in out, out
    child.close()
    assert child.exitstatus == 0 and prompts == 40
    assert euchre.from_json((tmp_path / "[red]xx.json").read_text(encoding="utf-8"))


def test_last_at_the_start_of_a_hand_is_wrapped_not_cut() -> None:
    child = spawn("--seed", "176")
    while True:  # play hand 1 with option 1; stop at the first question of hand 2
        i = child.expect([MOVE, NEXT])
        if i == 0 and "hand 2" in flat(child):
            break
        child.sendline("1" if i == 0 else "")
    child.sendline("last")
    child.expect(MOVE)
    scr = screen_of(child)
    assert re.search(r"Last trick of the previous hand: Trick 5: .+ - won by \S+",
                     " ".join(scr.split())), scr
    assert all(cell_len(ln) < 80 for ln in scr.split("\n")), scr
    child.sendeof()
    child.expect(pexpect.EOF)


def test_the_title_names_the_rules_in_play_also_after_a_resume(tmp_path: Path) -> None:
    for flags, title in ((["--players", "2"], "two-handed"),
                         (["--players", "3"], "cutthroat"),
                         (["--preset", "standard", "--stick-the-dealer"], "tournament")):
        child = spawn("--seed", "2", *flags)
        child.expect(MOVE)
        assert f"Euchre · {title} · game to 10" in flat(child), flat(child)
        child.sendeof()
        child.expect(pexpect.EOF)
    saved = tmp_path / "canadian.json"
    child = spawn("--seed", "2", "--canadian-loner", "--target", "7")
    child.expect(MOVE)
    assert "Euchre · standard + Canadian loner · game to 7" in flat(child)
    child.sendline("help rules")
    child.expect("Press Enter to go back > ")
    rules = plain(child.before)
    child.sendline("")
    child.expect(MOVE)
    assert re.search(r"\* Canadian loner: +Canadian loner", rules)
    assert re.search(r"  Deck: +24 cards", rules)
    child.sendline("quit")
    child.expect(SAVE)
    child.sendline(str(saved))
    child.expect(pexpect.EOF)
    again = spawn("--resume", str(saved))
    again.expect(MOVE)
    assert "Euchre · standard + Canadian loner · game to 7" in flat(again)
    assert "resumed" not in flat(again)
    again.sendeof()
    again.expect(pexpect.EOF)


def test_cutthroat_game_over_says_whose_score_is_whose() -> None:
    child = spawn("--players", "3", "--target", "2", "--seed", "3")
    while child.expect([MOVE, NEXT, SAVE]) != 2:
        child.sendline("1" if child.match.re.pattern == MOVE else "")
    said = " ".join(plain(child.before).split())
    assert re.search(r"Game over: (You win|Player [23] wins)\. Final score: You \d+, "
                     r"Player 2 \d+, Player 3 \d+\.", said), said[-500:]
    child.sendline("")
    child.expect(pexpect.EOF)


def test_replay_into_a_closed_pipe_stops_quietly(tmp_path: Path) -> None:
    m = euchre.Match(euchre.Rules(target=200), seed=3)
    rng = random.Random(1)
    while not m.is_terminal():
        m.apply_action(rng.choice(m.legal_actions()))
    big = tmp_path / "big.json"
    big.write_text(euchre.to_json(m), encoding="utf-8")
    r = subprocess.run(f"'{EUCHRE}' replay '{big}' | head -n 2", shell=True,
                       capture_output=True, text=True, check=False)
    assert r.stdout.startswith("Hand 1\n") and len(r.stdout.splitlines()) == 2
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr
