"""Players: guests, accounts and computer levels with their ratings; signed-in sessions; the
player who holds each person's seat; rated tables; each player's result in each game.

Every stored table, seat, action and chat line is kept as it was: the new seat column is empty
for the old seats (opened by their link alone), and old games are unrated.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("password", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=True),
        sa.Column("sigma", sa.Float, nullable=True),
        sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("merged_into", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    )
    op.create_index("ix_players_merged_into", "players", ["merged_into"])
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    with op.batch_alter_table("seats") as batch:  # SQLite rebuilds the table to add a key
        batch.add_column(sa.Column("player_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_seats_player_id", "players", ["player_id"], ["id"])
        batch.create_index("ix_seats_player_id", ["player_id"])
    op.add_column("tables", sa.Column("rated", sa.Boolean, nullable=False,
                                      server_default=sa.false()))
    op.add_column("tables", sa.Column("results_at", sa.Float, nullable=True))
    op.create_index("ix_tables_results_at", "tables", ["results_at"])
    # the games finished before players existed have no players' results to write
    op.execute("UPDATE tables SET results_at = finished_at WHERE finished_at IS NOT NULL")
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        *[sa.Column(c, sa.Integer, nullable=False) for c in (
            "hands", "made", "euchred", "euchres", "lone", "lone_made", "lone_marches",
            "lone_euchred")],
        sa.Column("rated", sa.Boolean, nullable=False),
        *[sa.Column(c, sa.Float, nullable=True) for c in (
            "mu_before", "sigma_before", "mu_after", "sigma_after")],
    )
    op.create_index("ix_results_player_id", "results", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_results_player_id", "results")
    op.drop_table("results")
    op.drop_index("ix_tables_results_at", "tables")
    op.drop_column("tables", "results_at")
    op.drop_column("tables", "rated")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player_id")
        batch.drop_constraint("fk_seats_player_id", type_="foreignkey")
        batch.drop_column("player_id")
    op.drop_index("ix_sessions_player_id", "sessions")
    op.drop_table("sessions")
    op.drop_index("ix_players_merged_into", "players")
    op.drop_table("players")
