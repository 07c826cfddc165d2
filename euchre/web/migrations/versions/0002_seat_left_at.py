"""When each person's seat last became empty, so the away timeout survives a restart.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    # NULL: someone was connected (or the row predates this column): the seat counts as empty
    # from the moment the server starts.
    op.add_column("seats", sa.Column("left_at", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "left_at")
