"""Bot accounts: a player of kind "bot" whose program plays online with a token; the token is
stored only as its SHA-256 (NULL once revoked), with the account that owns the bot (NULL: the
operator's). Every stored table, seat, action and result is kept as it was.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    op.create_table(
        "bots",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("token_at", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_bots_owner_id", "bots", ["owner_id"])


def downgrade() -> None:
    op.drop_index("ix_bots_owner_id", "bots")
    op.drop_table("bots")
