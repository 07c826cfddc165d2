"""Terminal play, drawn with Rich: the table, the prompt, and the game loop.

:mod:`euchre.tui.commands` reads what the player types (no terminal needed, so it is tested
alone), :mod:`euchre.tui.render` draws, :mod:`euchre.tui.game` runs the loop around them.

The package is a client of the library like any other: it reads the player's
:class:`~euchre.view.SeatView`, asks the bots in :mod:`euchre.bots` for the computer's moves and
saves games as ordinary records.
"""

from __future__ import annotations

from euchre.tui.game import (
    HUMAN,
    GameSettings,
    TerminalGame,
    human_seat,
    save_path_from_record,
    seats_from_record,
)

__all__ = ["HUMAN", "GameSettings", "TerminalGame", "human_seat", "save_path_from_record",
           "seats_from_record"]
