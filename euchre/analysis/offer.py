"""The review offered at the end of a game in the terminal (``make play``).

Kept apart from the table's code so the terminal only needs one call: :func:`review_in_terminal`
reviews the finished match as ``euchre review`` does (the same deals, the same objective: the
same numbers for the same game, a few seconds for a whole game), with a progress bar, and
prints the costliest decisions.
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import Progress

from euchre.analysis.report import print_review
from euchre.analysis.review import BID_DEALS, PLAY_DEALS, count_decisions, review_match
from euchre.cards import Card
from euchre.match import Match


def review_in_terminal(match: Match, console: Console, players: list[str] | None = None,
                       top: Card = 10) -> None:
    """Review ``match`` and print its ``top`` costliest decisions on ``console``."""
    total = count_decisions(match)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("reviewing the game", total=total)
        rev = review_match(match, PLAY_DEALS, BID_DEALS, players=players,
                           progress=lambda: bar.advance(task))
    print_review(rev, top, console)
    console.print("[dim]More deals per decision, and --json: save the game and run "
                  "'euchre review FILE'.[/]")
