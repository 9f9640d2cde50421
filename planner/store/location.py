"""Where the scenario store lives: a per-user SQLite file, or a PostgreSQL server for a team.

Precedence, first match wins: an explicit ``url`` argument, an explicit ``path`` argument, the
``PLANNER_DATABASE_URL`` environment variable (PostgreSQL for a team), ``PLANNER_DB_PATH`` (a
SQLite file), and finally ``$XDG_DATA_HOME/gpu-cluster-planner/scenarios.db`` (XDG_DATA_HOME
defaults to ``~/.local/share``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from planner.errors import InputError
from planner.i18n.message import msg

ENV_DATABASE_URL = "PLANNER_DATABASE_URL"
"""Environment variable with a database URL (``postgresql://user:password@host:port/db``)."""

ENV_DB_PATH = "PLANNER_DB_PATH"
"""Environment variable with the path of a SQLite file."""

APP_DIR_NAME = "gpu-cluster-planner"
DB_FILE_NAME = "scenarios.db"

_POSTGRES_DRIVERS = {"postgres", "postgresql", "postgresql+psycopg"}


def default_db_path(*, env: Mapping[str, str] | None = None) -> Path:
    """The per-user SQLite file: ``$XDG_DATA_HOME/gpu-cluster-planner/scenarios.db``.

    Parameters
    ----------
    env : mapping of str to str or None
        The environment to read; ``None`` for ``os.environ``.

    Returns
    -------
    Path
        The SQLite file's path.

    Examples
    --------
    >>> default_db_path(env={"XDG_DATA_HOME": "/data"}).as_posix()
    '/data/gpu-cluster-planner/scenarios.db'
    """
    environ = os.environ if env is None else env
    data_home = environ.get("XDG_DATA_HOME", "").strip()
    base = Path(data_home) if data_home else Path(environ.get("HOME") or Path.home()) / ".local" / "share"
    return base / APP_DIR_NAME / DB_FILE_NAME


def sqlite_url(path: str | Path) -> str:
    """The SQLAlchemy URL of a SQLite file (``~`` expanded, made absolute).

    Parameters
    ----------
    path : str or Path
        The SQLite file.

    Returns
    -------
    str
        The URL.

    Examples
    --------
    >>> sqlite_url("/tmp/x.db")
    'sqlite+pysqlite:////tmp/x.db'
    """
    return URL.create("sqlite+pysqlite", database=str(Path(path).expanduser().resolve())).render_as_string()


def normalize_url(url: str) -> str:
    """Check a database URL and pin the driver this project ships (psycopg 3 for PostgreSQL).

    Parameters
    ----------
    url : str
        A database URL.

    Returns
    -------
    str
        The URL with the driver pinned.

    Raises
    ------
    InputError
        The URL is malformed or names a database other than SQLite or PostgreSQL.

    Examples
    --------
    >>> normalize_url("postgresql://u:p@db:5432/plans")
    'postgresql+psycopg://u:p@db:5432/plans'
    >>> normalize_url("mysql://u@db/plans")
    Traceback (most recent call last):
    ...
    planner.errors.InputError: database URL: unsupported database 'mysql' (use a PostgreSQL URL or a SQLite file)
    """
    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        raise InputError(
            msg("database URL: not a URL (expected postgresql://user:password@host:port/db)")
        ) from None
    if parsed.drivername in _POSTGRES_DRIVERS:
        parsed = parsed.set(drivername="postgresql+psycopg")
    elif parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+pysqlite")
    else:
        raise InputError(
            msg(
                "database URL: unsupported database {driver} (use a PostgreSQL URL or a SQLite file)",
                driver=repr(parsed.drivername),
            )
        )
    return parsed.render_as_string(hide_password=False)


def resolve_database_url(
    *, url: str | None = None, path: str | Path | None = None, env: Mapping[str, str] | None = None
) -> str:
    """The database URL to open, by the precedence in this module's docstring.

    Parameters
    ----------
    url
        An explicit database URL; wins over everything.
    path
        An explicit SQLite file; wins over the environment.
    env
        The environment to read (default ``os.environ``).

    Returns
    -------
    str
        The database URL, driver pinned.

    Examples
    --------
    >>> resolve_database_url(env={"PLANNER_DB_PATH": "/srv/team.db"})
    'sqlite+pysqlite:////srv/team.db'
    """
    environ = os.environ if env is None else env
    if url:
        return normalize_url(url)
    if path:
        return sqlite_url(path)
    if environ.get(ENV_DATABASE_URL, "").strip():
        return normalize_url(environ[ENV_DATABASE_URL])
    if environ.get(ENV_DB_PATH, "").strip():
        return sqlite_url(environ[ENV_DB_PATH].strip())
    return sqlite_url(default_db_path(env=environ))


def display_url(url: str) -> str:
    """A URL safe to show: the password replaced by ``***``.

    Parameters
    ----------
    url : str
        A database URL.

    Returns
    -------
    str
        The URL without its password; ``(malformed URL)`` when it does not parse.

    Examples
    --------
    >>> display_url("postgresql+psycopg://u:secret@db/plans")
    'postgresql+psycopg://u:***@db/plans'
    """
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(malformed URL)"
