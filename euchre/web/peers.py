"""The other server processes, as the parts of one process (``rooms``, ``moves``, the table
talk) see them: given to each part when it is built, the one way the part hears of them. One
process alone is ``ALONE``; several on one database are each other's ``cluster.Cluster``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from euchre.seats import Seat
    from euchre.web import messages as M
    from euchre.web import schemas as S
    from euchre.web.players import Player
    from euchre.web.table import Table
    from euchre.web.transport import Conn


class Peers(Protocol):
    @property
    def relays(self) -> bool:
        """Whether another process may own a table (then ``remote_join`` claims its seats
        there)."""
        ...

    def owns(self, table_id: str) -> bool:
        """Whether this process writes the table's log (else it keeps a replica)."""
        ...

    def changed(self, table: Table, keep: Conn | None) -> None:
        """The owner changed the table's seats (``keep``: the connection whose new link it
        is, which keeps its seat)."""
        ...

    def loading(self, table_id: str) -> None:
        """The table is about to be read from the database (``loaded`` once it is)."""
        ...

    def loaded(self, table: Table) -> None: ...

    async def remote_join(self, table: Table, req: S.JoinTable, player: Player | None,
                          seat: Seat | None = None) -> tuple[int, str]:
        """Claim a seat (``seat``: that one) at a table another process owns: (seat, its
        link)."""
        ...

    def lost(self, table: Table) -> None:
        """A write of the table was refused because another process owns it now
        (``LostTable``): this process keeps a replica from then on."""
        ...

    def said(self, table: Table, line: M.Chat) -> None:
        """The owner stored and sent a chat line."""
        ...


class Alone:
    """One server process: it owns every table, and nobody else is told anything."""

    relays = False

    def owns(self, table_id: str) -> bool:
        return True

    def changed(self, table: Table, keep: Conn | None) -> None:
        pass

    def loading(self, table_id: str) -> None:
        pass

    def loaded(self, table: Table) -> None:
        pass

    async def remote_join(self, table: Table, req: S.JoinTable, player: Player | None,
                          seat: Seat | None = None) -> tuple[int, str]:
        raise LookupError("no other server process holds this table")

    def lost(self, table: Table) -> None:
        pass

    def said(self, table: Table, line: M.Chat) -> None:
        pass


ALONE = Alone()
