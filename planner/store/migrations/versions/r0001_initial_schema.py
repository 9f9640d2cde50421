"""Initial schema: scenarios, their versions and tags.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "scenarios",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("customer", sa.String(length=200), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("current_version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scenarios")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_scenarios_name"), "scenarios", ["name"])
    op.create_index(op.f("ix_scenarios_customer"), "scenarios", ["customer"])
    op.create_index(op.f("ix_scenarios_updated_at"), "scenarios", ["updated_at"])

    op.create_table(
        "scenario_versions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scenario_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("format_version", sa.Integer(), nullable=False),
        sa.Column("scenario_json", sa.Text(), nullable=False),
        sa.Column("gpus", sa.Integer(), nullable=False),
        sa.Column("design_id", sa.String(length=100), nullable=False),
        sa.Column("author", sa.String(length=200), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["scenario_id"],
            ["scenarios.id"],
            name=op.f("fk_scenario_versions_scenario_id_scenarios"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scenario_versions")),
        sa.UniqueConstraint("scenario_id", "version", name=op.f("uq_scenario_versions_scenario_id")),
    )
    op.create_index(op.f("ix_scenario_versions_scenario_id"), "scenario_versions", ["scenario_id"])

    op.create_table(
        "scenario_tags",
        sa.Column("scenario_id", sa.Integer(), nullable=False),
        sa.Column("tag", sa.String(length=50), nullable=False),
        sa.ForeignKeyConstraint(
            ["scenario_id"],
            ["scenarios.id"],
            name=op.f("fk_scenario_tags_scenario_id_scenarios"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("scenario_id", "tag", name=op.f("pk_scenario_tags")),
    )
    op.create_index(op.f("ix_scenario_tags_tag"), "scenario_tags", ["tag"])


def downgrade() -> None:
    op.drop_table("scenario_tags")
    op.drop_table("scenario_versions")
    op.drop_table("scenarios")
