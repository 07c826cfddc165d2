"""The lobby: a table open to anyone (Play now and the lobby list it; its free seats are
played by their computers until a person takes them), and its turn clock.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    # every table stored before the lobby was a private one (friends by invite), unclocked
    op.add_column("tables", sa.Column("public", sa.Boolean, nullable=False,
                                      server_default=sa.false()))
    op.add_column("tables", sa.Column("clock", sa.Float, nullable=True))
    op.create_index("ix_tables_public_open", "tables", ["public", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_tables_public_open", "tables")
    op.drop_column("tables", "clock")
    op.drop_column("tables", "public")
