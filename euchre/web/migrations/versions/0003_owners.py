"""Which server process writes each table's log, for several processes on one database.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    # process: the owner's id (the key of the advisory lock it holds while it lives; 0: none);
    # epoch: bumped by every change of owner.
    op.create_table(
        "owners",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("process", sa.Integer, nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
    )
    op.create_index("ix_owners_process", "owners", ["process"])


def downgrade() -> None:
    op.drop_index("ix_owners_process", "owners")
    op.drop_table("owners")
