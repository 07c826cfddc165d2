"""Passkeys: each account's WebAuthn credentials (id, public key, signature count), and the
ceremonies under way (a challenge for one use, until it expires). Nothing stored changes.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_passkeys_player_id", "passkeys", ["player_id"])
    op.create_table(
        "passkey_ceremonies",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.LargeBinary, nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_passkey_ceremonies_expires_at", "passkey_ceremonies", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_passkey_ceremonies_expires_at", "passkey_ceremonies")
    op.drop_table("passkey_ceremonies")
    op.drop_index("ix_passkeys_player_id", "passkeys")
    op.drop_table("passkeys")
