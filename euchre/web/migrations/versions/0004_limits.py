"""The site's limits, shared by the server processes of a cluster (PostgreSQL only: one process
on SQLite keeps them in its memory, ``euchre.web.limits``).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    # A rate's count by key: a window's event times, or a bucket's tokens at `at`; after
    # `expires` the row says nothing (a full bucket, an empty window) and may be deleted.
    op.create_table(
        "limit_counts",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("times", postgresql.ARRAY(sa.Float), nullable=True),
        sa.Column("tokens", sa.Float, nullable=True),
        sa.Column("at", sa.Float, nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_limit_counts_expires", "limit_counts", ["expires"])
    # One row per open websocket of any process (seat -1: a spectator); the rows of a process
    # that is not alive (no liveness lock) are not counted.
    op.create_table(
        "connections",
        sa.Column("process", sa.Integer, primary_key=True),
        sa.Column("conn", sa.BigInteger, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("address", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_connections_table", "connections", ["table_id", "seat"])
    op.create_index("ix_connections_address", "connections", ["address"],
                    postgresql_where=sa.text("seat = -1"))


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.drop_table("connections")
    op.drop_table("limit_counts")
