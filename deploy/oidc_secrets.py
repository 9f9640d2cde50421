"""Print Streamlit's ``[auth]`` secrets section built from the ``PLANNER_OIDC_*`` variables.

Run by ``deploy/entrypoint.sh`` when ``PLANNER_OIDC_CLIENT_ID`` is set; the keys are those of
Streamlit's ``st.login`` (``redirect_uri``, ``cookie_secret``, ``client_id``, ``client_secret``,
``server_metadata_url``). Every replica must get the same ``PLANNER_OIDC_COOKIE_SECRET``, or a
sign-in made through one replica is not accepted by another. Exit 2 with one line naming the
missing variable.
"""

from __future__ import annotations

import json
import os
import sys

KEYS = {
    "redirect_uri": "PLANNER_OIDC_REDIRECT_URI",
    "cookie_secret": "PLANNER_OIDC_COOKIE_SECRET",
    "client_id": "PLANNER_OIDC_CLIENT_ID",
    "client_secret": "PLANNER_OIDC_CLIENT_SECRET",
    "server_metadata_url": "PLANNER_OIDC_SERVER_METADATA_URL",
}
OPTIONAL = {"client_kwargs_scope": "PLANNER_OIDC_SCOPE"}


def render(environ: dict[str, str]) -> str:
    """The TOML text; a JSON string is a valid TOML basic string, so values need no other quoting."""
    missing = [name for name in KEYS.values() if not environ.get(name, "").strip()]
    if missing:
        raise SystemExit(f"oidc_secrets: {missing[0]} is required when PLANNER_OIDC_CLIENT_ID is set")
    lines = ["[auth]"] + [f"{key} = {json.dumps(environ[name].strip())}" for key, name in KEYS.items()]
    scope = environ.get(OPTIONAL["client_kwargs_scope"], "").strip()
    if scope:
        lines += ["", "[auth.client_kwargs]", f"scope = {json.dumps(scope)}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    try:
        sys.stdout.write(render(dict(os.environ)))
    except SystemExit as exc:
        sys.stderr.write(f"{exc}\n")
        sys.exit(2)
