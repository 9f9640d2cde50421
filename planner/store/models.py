"""Tables of the scenario store (SQLAlchemy 2 declarative models).

Five tables:

- ``scenarios``: one row per saved scenario: its label, customer, notes, the number of its latest
  version (the optimistic lock) and when it was soft-deleted, if it was.
- ``scenario_versions``: one immutable row per save. The scenario is kept as the JSON text that
  :class:`planner.inputs.scenario.Scenario` writes, so it reads back exactly; rows are never edited in
  place (so no JSON change tracking is needed).
- ``scenario_tags``: free labels, lower-case, several per scenario.
- ``audit_log``: one row per save, import, export, delete and restore: who, what, when
  (migration ``0002``, which also gave ``scenarios`` its ``owner`` and ``team``).
- ``store_members``: the user and teams behind each PostgreSQL login, for row-level security
  (migration ``0003``, which also creates the roles and policies; see ``docs/security.md``).

The schema is created and upgraded by the Alembic migrations in ``planner/store/migrations``; a
test checks that these models and the migrations agree.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from planner.access import LOCAL_USER, TEAM_MAX_CHARS, USER_MAX_CHARS

NAME_MAX_CHARS = 200
CUSTOMER_MAX_CHARS = 200
TAG_MAX_CHARS = 50
AUTHOR_MAX_CHARS = 200
DESIGN_ID_MAX_CHARS = 100
OWNER_MAX_CHARS = USER_MAX_CHARS  # who may own a row is decided in planner/access.py
ROLE_MAX_CHARS = 20
ACTION_MAX_CHARS = 20
LOCAL_OWNER = LOCAL_USER
"""Owner of scenarios saved without sign-in (and of those saved before owners existed)."""

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite keeps no zone of its own)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        stamp: datetime = value
        return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class ScenarioRow(Base):
    """One saved scenario: the label and the pointer to its latest version."""

    __tablename__ = "scenarios"
    # Never reuse the id of a row (share links name ids).
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012 - SQLAlchemy's declarative hook

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX_CHARS), index=True)
    customer: Mapped[str] = mapped_column(String(CUSTOMER_MAX_CHARS), index=True)
    notes: Mapped[str] = mapped_column(Text)
    current_version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    owner: Mapped[str] = mapped_column(String(OWNER_MAX_CHARS), index=True, server_default=LOCAL_OWNER)
    """The user who created it (an e-mail or subject; ``local`` without sign-in)."""
    team: Mapped[str] = mapped_column(String(TEAM_MAX_CHARS), index=True, server_default="")
    """The team it is shared with; ``""``: its owner only (and admins)."""


class VersionRow(Base):
    """One save of a scenario; immutable."""

    __tablename__ = "scenario_versions"
    __table_args__ = (UniqueConstraint("scenario_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scenario_id: Mapped[int] = mapped_column(ForeignKey("scenarios.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    format_version: Mapped[int] = mapped_column(Integer)
    """Version of the stored scenario JSON's layout, for data migrations when Scenario changes."""
    scenario_json: Mapped[str] = mapped_column(Text)
    gpus: Mapped[int] = mapped_column(Integer)
    design_id: Mapped[str] = mapped_column(String(DESIGN_ID_MAX_CHARS))
    author: Mapped[str] = mapped_column(String(AUTHOR_MAX_CHARS))
    comment: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class TagRow(Base):
    """One tag on one scenario."""

    __tablename__ = "scenario_tags"

    scenario_id: Mapped[int] = mapped_column(ForeignKey("scenarios.id", ondelete="CASCADE"), primary_key=True)
    tag: Mapped[str] = mapped_column(String(TAG_MAX_CHARS), primary_key=True, index=True)


class AuditRow(Base):
    """One recorded action on the store or an export: who, what, when. Rows are only added."""

    __tablename__ = "audit_log"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012 - SQLAlchemy's declarative hook

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    actor: Mapped[str] = mapped_column(String(OWNER_MAX_CHARS), index=True)
    """Who did it (the signed-in user, or ``local``)."""
    role: Mapped[str] = mapped_column(String(ROLE_MAX_CHARS))
    action: Mapped[str] = mapped_column(String(ACTION_MAX_CHARS))
    scenario_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The scenario acted on (no foreign key: the record outlives any clean-up of scenarios)."""
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    detail: Mapped[str] = mapped_column(Text)


LOGIN_MAX_CHARS = 63
"""Longest PostgreSQL role name [bytes]."""


class MemberRow(Base):
    """Who a PostgreSQL login is (migration ``0003``): the user and teams the row-level security
    policies see for a connection that is not the app server's. Unused on SQLite."""

    __tablename__ = "store_members"

    login: Mapped[str] = mapped_column(String(LOGIN_MAX_CHARS), primary_key=True)
    """The database role name (``session_user``)."""
    user_id: Mapped[str] = mapped_column(String(OWNER_MAX_CHARS))
    """The user it acts as (the id the app's sign-in gives the same person, e.g. an e-mail)."""
    teams: Mapped[str] = mapped_column(Text, server_default="[]")
    """Its teams, a JSON array of names; the first is where its new scenarios are shared."""
