"""The lobby shows each open table's pace: the turn clock it runs now (``tables.pace``), written
by the table's owner when it changes by a second or more, so every server process's lobby reads
it. A table stored before has none: the lobby shows its clock's most, as it did.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.add_column("tables", sa.Column("pace", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "pace")
