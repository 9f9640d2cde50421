"""Who a PostgreSQL connection acts for under the row-level security of migration ``0003``.

The database, not the caller, decides what a connection may touch (``docs/security.md``):

- the table owner (the role that migrates; the compose deployment's app) is not subject to the
  policies: it is the deployment's administrator credential, and the store acts for whoever its
  caller names, as on SQLite;
- a login in ``planner_server`` (an app server that does not own the tables) is subject to them as
  the user it names per transaction: :func:`act_as` sets ``planner.user``, ``planner.role`` and
  ``planner.teams`` with ``set_config(..., true)`` (they end with the transaction); the policies
  read them only for ``planner_server`` logins;
- any other login (a person's command line) is itself: :func:`connection_identity` reads the user,
  teams and highest ``planner_*`` role the database gives it, and :func:`check_within` refuses a
  store handle that claims more (another user, a higher role, a team it is not in).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import Connection, func, select, text
from sqlalchemy.orm import Session

from planner.access import ROLES, AccessDeniedError, Identity
from planner.i18n.message import msg

_PROBE = text("SELECT to_regprocedure('planner_is_server()') IS NOT NULL")
_WHO = text(
    "SELECT planner_is_server(), NOT row_security_active('scenarios'), session_user::text, "
    "planner_held_role()"
)
_BOUND = text("SELECT planner_user(), planner_teams()")


@dataclass(frozen=True, kw_only=True)
class Credential:
    """What the database makes of one connection's login."""

    login: str
    """The PostgreSQL role it logged in as (``session_user``)."""
    sets_identity: bool
    """A ``planner_server`` login: the store names the acting user per transaction."""
    held: Identity | None
    """The identity the login is bound to; ``None``: it may act for anyone (owner, server)."""


def connection_identity(connection: Connection) -> Credential | None:
    """The credential of ``connection``; ``None`` on SQLite or a schema without row-level
    security (before migration ``0003``).

    Parameters
    ----------
    connection : Connection
        An open connection to the store's database.

    Returns
    -------
    Credential or None
        The login, whether it names the acting user per transaction, and the identity it is bound
        to.

    Raises
    ------
    AccessDeniedError
        The login holds none of the ``planner_*`` roles (it could not use the store).
    """
    if connection.dialect.name != "postgresql" or not connection.execute(_PROBE).scalar_one():
        return None
    server, owner, login, role = connection.execute(_WHO).one()
    if server or owner:
        return Credential(login=login, sets_identity=bool(server) and not owner, held=None)
    if role not in ROLES:
        raise AccessDeniedError(
            msg(
                "database login {login} holds none of the roles planner_viewer, planner_architect, "
                "planner_commercial or planner_admin: an administrator grants one (docs/security.md)",
                login=repr(login),
            )
        )
    user, teams = connection.execute(_BOUND).one()
    held = Identity(user=user, name=user, role=role, teams=tuple(teams or ()))
    return Credential(login=login, sets_identity=False, held=held)


def check_within(*, identity: Identity, credential: Credential) -> None:
    """Refuse ``identity`` when it claims more than ``credential`` holds: another user, a higher
    role, or a team the login is not in (a lower role or fewer teams narrow it, which is fine).

    Parameters
    ----------
    identity : Identity
        The identity the caller claims (user, role, teams).
    credential : Credential
        The database login's credential.

    Raises
    ------
    AccessDeniedError
        ``identity`` claims another user, a higher role or another team.
    """
    held = credential.held
    if held is None:
        return
    if identity.user != held.user:
        raise AccessDeniedError(
            msg(
                "user {claimed}: the database login {login} acts as {user} only; a command line "
                "against a team database has its credential's rights, no more",
                claimed=repr(identity.user),
                login=repr(credential.login),
                user=repr(held.user),
            )
        )
    if ROLES.index(identity.role) > ROLES.index(held.role):
        raise AccessDeniedError(
            msg(
                "role {claimed}: the database login {login} holds the {role} role, so it acts as "
                "{role} or less; a command line against a team database has its credential's "
                "rights, no more",
                claimed=identity.role,
                login=repr(credential.login),
                role=held.role,
            )
        )
    extra = [team for team in identity.teams if team not in held.teams]
    if extra:
        raise AccessDeniedError(
            msg(
                "team {team}: the database login {login} is not a member of it (its teams: {teams})",
                team=repr(extra[0]),
                login=repr(credential.login),
                teams=", ".join(held.teams) or "-",
            )
        )


def act_as(session: Session, *, identity: Identity) -> None:
    """Name the acting user for this transaction (read by the policies for ``planner_server``
    logins only; any other login may set these settings and gains nothing).

    Parameters
    ----------
    session : Session
        The open session; the settings last for its transaction.
    identity : Identity
        The acting user, role and teams.
    """
    session.execute(
        select(
            func.set_config("planner.user", identity.user, True),
            func.set_config("planner.role", identity.role, True),
            func.set_config("planner.teams", json.dumps(list(identity.teams)), True),
        )
    )
