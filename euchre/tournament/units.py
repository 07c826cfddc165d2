"""What a worker plays: one unit of a tournament, whichever kind it is.

The dispatch lives here, above both :mod:`euchre.tournament.core` (our own deals and games)
and :mod:`euchre.tournament.openspiel_peer` (deals refereed by OpenSpiel), so that neither of
those two imports the other's caller.
"""

from __future__ import annotations

from euchre.tournament.core import TournamentSpec, UnitResult, play_deal, play_game_set
from euchre.tournament.openspiel_peer import play_peer_deal


def play_unit(spec: TournamentSpec, index: int) -> UnitResult:
    """The unit ``index`` of ``spec``, whatever kind of tournament it is."""
    if any(p.is_peer for p in spec.players):
        return play_peer_deal(spec, index)
    if spec.games:
        return play_game_set(spec, index)
    return play_deal(spec, index)


def play_units(spec: TournamentSpec, start: int, stop: int) -> list[UnitResult]:
    """Units ``start`` to ``stop - 1``: one chunk of work for a worker."""
    return [play_unit(spec, i) for i in range(start, stop)]


__all__ = ["play_unit", "play_units"]
