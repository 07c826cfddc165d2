"""Every rules option is declared once, on its ``Rules`` field, and every front end offers
exactly what that declaration says: the ``euchre play`` flags, the browser form's spec and the
terminal's words. Going alone follows the player count through one function."""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest

import euchre.rules
from euchre.cli import build_parser
from euchre.cli.play import build_rules
from euchre.errors import RulesError
from euchre.rules import MAX_POINTS, MAX_TARGET, PLAYER_COUNTS, PRESETS, Option, Rules, Scoring
from euchre.tui.rules_text import rules_lines, rules_title
from euchre.web.app import rules_options

pytestmark = pytest.mark.core


def all_options() -> Iterator[Option]:
    for o in Rules.options():
        yield o
        yield from o.fields


def game_for(o: Option) -> int:
    """A player count the option exists for (the first of the standard order)."""
    return next(n for n in PLAYER_COUNTS if n in o.players)


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv])


def refused(*argv: str) -> str:
    """What argparse says (on stderr, exit 2) about a bad command line."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exc:
        parse(*argv)
    assert exc.value.code == 2
    return err.getvalue()


def test_every_field_has_a_label_help_and_range() -> None:
    assert [o.name for o in Rules.options()] == [f.name for f in fields(Rules)]
    assert [o.name for o in Scoring.options()] == [f.name for f in fields(Scoring)]
    for o in all_options():
        assert o.label and o.label[0].isupper() and "_" not in o.label, o.name
        assert len(o.help) > 20, o.name
        assert o.players and set(o.players) <= set(PLAYER_COUNTS), o.name
        if o.kind in ("bool", "choice"):
            assert o.choices and len(o.words) == len(o.choices), o.name
            assert o.kind != "bool" or o.choices == (True, False)
        elif o.kind == "int":
            assert o.min is not None and o.max is not None and o.min < o.max, o.name
        else:
            assert o.kind == "group" and o.fields, o.name
    assert Rules.option("target").max == MAX_TARGET
    assert {o.max for o in Scoring.options()} == {MAX_POINTS}
    with pytest.raises(RulesError, match="unknown rules option 'trumps'"):
        Rules.option("trumps")


def test_the_declared_range_is_what_the_engine_accepts() -> None:
    """Each choice and each end of a range is a game; one step past it is refused."""
    for o in Rules.options():
        n = game_for(o)
        base = Rules(players=n, rows=o.name == "rows_euchre")
        if o.kind in ("bool", "choice"):
            for c in o.choices:
                extra = {"renege": "penalize"} if o.name in ("renege_fix", "renege_penalty") \
                    else {"defend_alone": True} if o.name == "defend_alone_vs_partners" \
                    else {"farmers_hand": "redeal"} if o.name == "misdeal_passes" else {}
                if o.name == "players":
                    assert Rules(players=c).players == c
                else:
                    assert getattr(base.replace(**extra, **{o.name: c}), o.name) == c
            with pytest.raises(RulesError, match=f"{o.name} must be"):
                base.replace(**{o.name: "nonsense"})
        elif o.kind == "int":
            assert o.min is not None and o.max is not None
            for ok in (o.min, o.max):
                assert getattr(base.replace(**{o.name: ok}), o.name) == ok
            for bad in (o.min - 1, o.max + 1, float(o.min), True):
                with pytest.raises(RulesError, match=f"{o.name} must be"):
                    base.replace(**{o.name: bad})
    for g in Scoring.options():
        assert g.min is not None and g.max is not None
        assert getattr(Scoring(**{g.name: g.max}), g.name) == g.max
        with pytest.raises(RulesError, match=rf"scoring\.{g.name} must be"):
            Scoring(**{g.name: g.max + 1})


def test_an_option_for_some_player_counts_only_is_refused_elsewhere() -> None:
    for o in Rules.options():
        for n in PLAYER_COUNTS:
            if n in o.players or o.kind not in ("bool", "choice"):
                continue
            for c in o.choices:
                if c != o.default_for(n):
                    with pytest.raises(RulesError):
                        Rules(players=n, **{o.name: c})


def rules_actions() -> dict[str, argparse.Action]:
    """The ``euchre play`` flags in the rules group, by the Rules field each sets."""
    sub = next(a for a in build_parser()._actions
               if isinstance(a, argparse._SubParsersAction))
    play = sub.choices["play"]
    group = next(g for g in play._action_groups if g.title and g.title.startswith("rules"))
    return {a.dest: a for a in group._group_actions if a.dest != "preset"}


def test_the_play_flags_are_exactly_the_options_and_their_ranges() -> None:
    actions = rules_actions()
    assert set(actions) == {o.name for o in Rules.options()}
    for o in Rules.options():
        a = actions[o.name]
        flag = "--" + o.name.replace("_", "-")
        assert flag in a.option_strings and o.help[1:] in " ".join((a.help or "").split())
        if o.kind == "bool":
            assert a.const is True or isinstance(a, argparse.BooleanOptionalAction)
            base = Rules(players=game_for(o))
            value = not getattr(base, o.name)
            argv = [flag if value else "--no-" + flag[2:]]
            if o.name in ("renege_fix",):
                argv.append("--renege=penalize")
            if o.name == "defend_alone_vs_partners":
                argv.append("--defend-alone")
            if o.name == "misdeal_passes":
                argv.append("--farmers-hand=redeal")
            if o.name == "rows_euchre":
                argv.append("--rows")
            if base.players != 4:
                argv.append(f"--players={base.players}")
            assert getattr(build_rules(parse(*argv)), o.name) == value
        elif o.kind == "choice":
            assert a.type is not None
            for c in o.choices:
                assert a.type(str(c)) == c  # type: ignore[operator]
            assert f"must be {o.allowed()}" in refused(flag, "nonsense")
        elif o.kind == "int":
            assert o.min is not None and o.max is not None
            for ok in (o.min, o.max):
                assert getattr(build_rules(parse(f"{flag}={ok}")), o.name) == ok
            for bad in (o.min - 1, o.max + 1):
                assert f"must be a whole number {o.min}..{o.max}" in refused(f"{flag}={bad}")
        else:
            for g in o.fields:
                assert g.name in (a.help or "") and g.max == MAX_POINTS
                assert build_rules(parse("--scoring", f"{g.name}={MAX_POINTS}")).scoring == \
                    Scoring(**{g.name: MAX_POINTS})
                with pytest.raises(RulesError, match=rf"scoring\.{g.name} must be .*0\.\.100"):
                    build_rules(parse("--scoring", f"{g.name}={MAX_POINTS + 1}"))
            assert f"{o.fields[0].min}..{o.fields[0].max}" in (a.help or "")


def test_the_served_spec_is_the_declaration() -> None:
    spec = rules_options()
    assert spec == [o.to_json() for o in Rules.options()]
    by_name = {o["name"]: o for o in spec}
    assert by_name["target"]["min"] == 1 and by_name["target"]["max"] == MAX_TARGET
    assert [f["max"] for f in by_name["scoring"]["fields"]] == [MAX_POINTS] * 7
    for o in Rules.options():
        j = by_name[o.name]
        assert (j["label"], j["help"], j["kind"], j["players"]) == \
            (o.label, o.help, o.kind, list(o.players))
        if o.kind in ("bool", "choice"):
            assert j["choices"] == list(o.choices) and j["words"] == list(o.words)


def test_going_alone_follows_the_player_count_through_one_function(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Patched to a spy, the one function is what the engine, the command line, the web
    server's spec and table creation and the terminal's words all ask."""
    calls: list[int] = []
    real = euchre.rules.going_alone_default

    def spy(players: int) -> bool:
        calls.append(players)
        return real(players)

    monkeypatch.setattr(euchre.rules, "going_alone_default", spy)

    def asks(what: str, make: Any) -> Any:
        calls.clear()
        out = make()
        assert calls, f"{what} did not ask going_alone_default"
        return out

    for n in PLAYER_COUNTS:
        assert asks("Rules", lambda n=n: Rules(players=n)).going_alone is real(n)
        assert asks("Rules.replace", lambda n=n: Rules().replace(players=n)).going_alone is real(n)
        assert asks("euchre play", lambda n=n: build_rules(parse(f"--players={n}"))) \
            .going_alone is real(n)
        assert asks("the web's table creation", lambda n=n: Rules.from_dict(
            {"players": n}, base=PRESETS["tournament"])).going_alone is real(n)
    spec = asks("the web's option spec", rules_options)
    going = next(o for o in spec if o["name"] == "going_alone")
    assert going["default_for"] == {str(n): real(n) for n in PLAYER_COUNTS}
    # the terminal leaves out a going-alone change that only follows a new player count
    assert asks("the terminal's title", lambda: rules_title(Rules(players=3, target=5))) \
        == "cutthroat"
    # a different rule (here: never unless asked, a legal one) is what the engine and the
    # browser form's spec then follow
    monkeypatch.setattr(euchre.rules, "going_alone_default", lambda players: False)
    assert Rules().going_alone is False and Rules(going_alone=True).going_alone is True
    going = next(o for o in rules_options() if o["name"] == "going_alone")
    assert going["default_for"] == {"4": False, "3": False, "2": False}


def test_the_terminal_words_come_from_the_declaration() -> None:
    rules = Rules(canadian_loner=True, farmers_hand="swap", scoring=Scoring(euchre=3))
    listing = rules_lines(rules)
    for o in Rules.options():
        assert any(line[3:].startswith(o.label + ":") for line in listing), o.label
    assert rules_title(rules) == "standard + Canadian loner, farmer's hand: swap, euchre scores 3"
    assert rules.differences(PRESETS["standard"]) == [
        ("canadian_loner", "Canadian loner"), ("farmers_hand", "farmer's hand: swap"),
        ("scoring", "euchre scores 3")]
    assert max(len(line) for line in listing) <= 79
