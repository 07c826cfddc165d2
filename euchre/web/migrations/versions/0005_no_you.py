"""No seat is named "You": a creator who kept the form's old default name showed as "You" to
everyone else (in the score, the finished games, the replay and the analysis). Such seats, and
their chat lines, take the seat's own name ("South"); every action is kept as it was.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

from euchre.seats import seat_name

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.text(
        "SELECT s.table_id, s.seat, t.rules FROM seats s JOIN tables t ON t.id = s.table_id "
        "WHERE s.kind = 'human' AND lower(s.name) = 'you'")).all()
    for table_id, seat, rules in rows:
        players = int(json.loads(rules).get("players", 4))
        name = seat_name(seat, players)
        params = {"name": name, "t": table_id, "s": seat}
        conn.execute(sa.text("UPDATE seats SET name = :name WHERE table_id = :t AND seat = :s"),
                     params)
        conn.execute(sa.text("UPDATE chat SET name = :name WHERE table_id = :t AND seat = :s "
                             "AND lower(name) = 'you'"), params)


def downgrade() -> None:
    pass  # the old name was a mistake, not data: nothing to put back
