"""The `euchre` command's own argument checks (play and replay have files of their own)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EUCHRE = Path(sys.executable).parent / "euchre"


def test_bench_refuses_a_measurement_time_that_is_not_a_positive_number() -> None:
    for bad in ("-1", "0", "nan", "inf", "abc"):
        r = subprocess.run([EUCHRE, "bench", "engine", "--seconds", bad],
                           capture_output=True, text=True, check=False)
        assert r.returncode == 2, bad
        assert "--seconds" in r.stderr and "Traceback" not in r.stderr


def test_bench_engine_reports_hands_per_second_and_the_peer() -> None:
    r = subprocess.run([EUCHRE, "bench", "engine", "--seconds", "0.2"],
                       capture_output=True, text=True, check=True)
    assert "hands/s" in r.stdout
    assert "OpenSpiel" in r.stdout  # measured or said to be missing, never silently skipped


def test_unknown_command_is_a_usage_error() -> None:
    r = subprocess.run([EUCHRE, "bogus"], capture_output=True, text=True, check=False)
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_bench_engine_interleaves_rounds_and_reports_the_median_ratio() -> None:
    r = subprocess.run([EUCHRE, "bench", "engine", "--seconds", "0.4", "--rounds", "2"],
                       capture_output=True, text=True, check=True)
    assert "ratio: median" in r.stdout and "2 interleaved rounds" in r.stdout
    assert "ratio in CPU time: median" in r.stdout
    bad = subprocess.run([EUCHRE, "bench", "engine", "--rounds", "0"], capture_output=True,
                         text=True, check=False)
    assert bad.returncode == 2 and "--rounds" in bad.stderr


def test_no_help_text_shows_a_doubled_percent_sign() -> None:
    """argparse formats an option's help with %, but prints a command's description as
    written: '95%%' there reached the reader as '95%%'. Every command's and subcommand's help."""
    import argparse

    from euchre.cli import build_parser

    def helps(p: argparse.ArgumentParser) -> list[tuple[str, str]]:
        out = [(p.prog, p.format_help())]
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for child in action.choices.values():
                    out += helps(child)
        return out

    shown = helps(build_parser())
    assert len(shown) > 20
    bad = [prog for prog, text in shown if "%%" in text]
    assert bad == [], bad
