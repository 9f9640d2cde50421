"""Refuse to start a web app that would serve people it should not: one line, exit 2.

Run by ``deploy/entrypoint.sh`` before Streamlit starts and by ``deploy/healthcheck.sh`` on every
probe (so a secrets file that breaks later turns the container unhealthy). It checks, with the
same functions the app's own gate uses (:mod:`planner.access`):

1. sign-in fails closed: configured (``PLANNER_OIDC_*``, ``STREAMLIT_SECRETS_FILES`` or a
   secrets file) but unreadable, unparseable or without an ``[auth]`` section is refused;
2. no anonymous admin on the network: listening beyond loopback (``PLANNER_PUBLISHED_ADDRESS``,
   else ``PLANNER_ADDRESS``) without sign-in needs ``PLANNER_ALLOW_ANONYMOUS=1``;
3. the database password is not the sample's (``deploy/env.example``) or another well-known one.

Secrets files are those Streamlit reads: the whitespace-separated ``STREAMLIT_SECRETS_FILES``,
else the file the entry point renders from ``PLANNER_OIDC_*``, else ``~/.streamlit/secrets.toml`` and ``.streamlit/secrets.toml`` in the app folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

APP_DIR = Path(os.environ.get("PLANNER_APP_DIR") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(APP_DIR))

from planner.access import auth_section, exposure_error, listening_address  # noqa: E402
from planner.errors import PlannerError  # noqa: E402

SAMPLE_PASSWORDS = frozenset({"change-me", "changeme", "password", "postgres", "secret"})
"""Database passwords refused: the sample's and the first ones anyone tries."""


def secret_files(environ: dict[str, str]) -> list[str]:
    """The secrets files Streamlit will read (for the health check, which does not see the
    entry point's exports: the file it renders from ``PLANNER_OIDC_*``)."""
    named = environ.get("STREAMLIT_SECRETS_FILES", "").split()
    if not named and environ.get("PLANNER_OIDC_CLIENT_ID", "").strip():
        folder = environ.get("PLANNER_SECRETS_DIR") or str(Path(environ.get("HOME") or "/tmp") / ".planner")
        named = [str(Path(folder) / "secrets.toml")]
    return named or [
        str(Path("~/.streamlit/secrets.toml").expanduser()),
        str(APP_DIR / ".streamlit" / "secrets.toml"),
    ]


def problem(environ: dict[str, str]) -> str | None:
    """The one-line reason not to start, or ``None``."""
    try:
        section = auth_section(environ=environ, secret_files=secret_files(environ))
    except PlannerError as exc:
        return str(exc)
    address = listening_address(environ=environ, server_address=environ.get("PLANNER_ADDRESS", "0.0.0.0"))
    refusal = exposure_error(address=address, signed_in=section is not None, environ=environ)
    if refusal is not None:
        return str(refusal)
    url = environ.get("PLANNER_DATABASE_URL", "")
    try:
        password = urlsplit(url).password if url else None
    except ValueError:
        return "PLANNER_DATABASE_URL: not a valid URL"
    if password is not None and password.strip().lower() in SAMPLE_PASSWORDS:
        return "PLANNER_DATABASE_URL: the database password is a sample value; set POSTGRES_PASSWORD to a secret of your own"
    return None


if __name__ == "__main__":
    reason = problem(dict(os.environ))
    if reason is not None:
        sys.stderr.write(f"preflight: {reason}\n")
        sys.exit(2)
