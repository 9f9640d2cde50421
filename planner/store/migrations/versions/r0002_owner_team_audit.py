"""Owner and team of each saved scenario, and the audit log.

Existing scenarios get the owner ``local`` (they were saved without sign-in) and no team.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("scenarios") as batch:
        batch.add_column(sa.Column("owner", sa.String(length=200), server_default="local", nullable=False))
        batch.add_column(sa.Column("team", sa.String(length=100), server_default="", nullable=False))
        batch.create_index(batch.f("ix_scenarios_owner"), ["owner"])
        batch.create_index(batch.f("ix_scenarios_team"), ["team"])

    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("scenario_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_audit_log_at"), "audit_log", ["at"])
    op.create_index(op.f("ix_audit_log_actor"), "audit_log", ["actor"])


def downgrade() -> None:
    op.drop_table("audit_log")
    with op.batch_alter_table("scenarios") as batch:
        batch.drop_index(batch.f("ix_scenarios_team"))
        batch.drop_index(batch.f("ix_scenarios_owner"))
        batch.drop_column("team")
        batch.drop_column("owner")
