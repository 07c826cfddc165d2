"""The review offered at the end of a game in the terminal (``make play``).

Kept apart from the table's code so the terminal only needs one call: :func:`review_in_terminal`
reviews the finished match with a smaller budget than ``euchre review`` (a game is reviewed in
seconds rather than a minute), with a progress bar, and prints the costliest decisions.
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import Progress

from euchre.analysis.report import print_review
from euchre.analysis.review import count_decisions, review_match
from euchre.match import Match

#: Deals per decision for the in-game review (``euchre review`` uses 24 of each).
PLAY_DEALS = 12
BID_DEALS = 12


def review_in_terminal(match: Match, console: Console, players: list[str] | None = None,
                       top: int = 10) -> None:
    """Review ``match`` and print its ``top`` costliest decisions on ``console``."""
    total = count_decisions(match)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("reviewing the game", total=total)
        rev = review_match(match, PLAY_DEALS, BID_DEALS, players=players,
                           progress=lambda: bar.advance(task))
    print_review(rev, top, console)
    console.print("[dim]More deals per decision, and --json: save the game and run "
                  "'euchre review FILE'.[/]")
