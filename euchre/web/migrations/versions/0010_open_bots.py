"""Bots at open tables: whether an open table's host lets bot accounts take its free seats
(through the lobby and Play now, where the operator allows bots).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    # the open tables stored before took no bot by themselves (the operator's choice was
    # invited or off): they go on taking none
    op.add_column("tables", sa.Column("bots", sa.Boolean, nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("tables", "bots")
