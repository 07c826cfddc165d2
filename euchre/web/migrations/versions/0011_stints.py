"""Who held each seat of an open table, and for which of its decisions: a player who leaves a
rated game before its end is rated with its result, for their share of their seat's
decisions, like everyone who held that seat (``euchre.web.results``).

``stints``: a player's time at a seat of an open table, from the log's length when they took
it to its length when they left it (NULL: they hold it still). ``results`` gets one row for
each player who held a seat (before: one row a seat, its last holder's), with their ``share``
of the seat's decisions; every stored result was a whole game's, share 1. The open tables
being played when this runs get a stint, from the first move, for each seat a player holds.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"

COUNTS = ("hands", "made", "euchred", "euchres", "lone", "lone_made", "lone_marches",
          "lone_euchred")
RATINGS = ("mu_before", "sigma_before", "mu_after", "sigma_after")


def results_table(name: str, share: bool) -> None:
    """The results table with one row a (seat, player) and a share (``share``), or one row a
    seat (without)."""
    op.create_table(
        name,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
                  primary_key=share),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        *[sa.Column(c, sa.Integer, nullable=False) for c in COUNTS],
        sa.Column("rated", sa.Boolean, nullable=False),
        *[sa.Column(c, sa.Float, nullable=True) for c in RATINGS],
        *([sa.Column("share", sa.Float, nullable=False, server_default="1")] if share else []),
    )


def move_results(share: bool) -> None:
    """Rebuild ``results`` with (or without) the share: a primary key changes only so on
    SQLite, and alike on PostgreSQL."""
    cols = ", ".join(("table_id", "seat", "player_id", "finished_at", "won", *COUNTS, "rated",
                      *RATINGS))
    results_table("results_new", share)
    # going back, each seat keeps one row: its holder with the largest share
    rows = "results" if share else (
        "(SELECT * FROM results r WHERE r.player_id = (SELECT r2.player_id FROM results r2 "
        "WHERE r2.table_id = r.table_id AND r2.seat = r.seat "
        "ORDER BY r2.share DESC, r2.player_id LIMIT 1)) AS kept")
    op.execute(f"INSERT INTO results_new ({cols}) SELECT {cols} FROM {rows}")
    op.drop_index("ix_results_player_id", "results")
    op.drop_table("results")
    op.rename_table("results_new", "results")
    op.create_index("ix_results_player_id", "results", ["player_id"])


def upgrade() -> None:
    op.create_table(
        "stints",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("from_seq", sa.Integer, nullable=False),
        sa.Column("to_seq", sa.Integer, nullable=True),
    )
    op.create_index("ix_stints_table_id", "stints", ["table_id"])
    op.execute(
        "INSERT INTO stints (table_id, seat, player_id, kind, from_seq, to_seq) "
        "SELECT s.table_id, s.seat, s.player_id, s.kind, 0, NULL FROM seats s "
        "JOIN tables t ON t.id = s.table_id WHERE t.public AND t.finished_at IS NULL "
        "AND s.claimed AND s.kind IN ('human', 'bot')")
    move_results(share=True)


def downgrade() -> None:
    move_results(share=False)
    op.drop_index("ix_stints_table_id", "stints")
    op.drop_table("stints")
