"""Print Streamlit's ``[auth]`` secrets section built from the ``PLANNER_OIDC_*`` variables.

Run by ``deploy/entrypoint.sh`` when ``PLANNER_OIDC_CLIENT_ID`` is set; the keys are those of
Streamlit's ``st.login`` (``redirect_uri``, ``cookie_secret``, ``client_id``, ``client_secret``,
``server_metadata_url``). Every replica must get the same ``PLANNER_OIDC_COOKIE_SECRET``, or a
sign-in made through one replica is not accepted by another. Any value TOML can hold is written
so that it reads back exactly (quotes, backslashes, control characters, DEL, non-ASCII); the text
is parsed again before it is printed. Exit 2 with one line naming the missing or unusable variable.
"""

from __future__ import annotations

import os
import sys
import tomllib

KEYS = {
    "redirect_uri": "PLANNER_OIDC_REDIRECT_URI",
    "cookie_secret": "PLANNER_OIDC_COOKIE_SECRET",
    "client_id": "PLANNER_OIDC_CLIENT_ID",
    "client_secret": "PLANNER_OIDC_CLIENT_SECRET",
    "server_metadata_url": "PLANNER_OIDC_SERVER_METADATA_URL",
}
OPTIONAL = {"client_kwargs_scope": "PLANNER_OIDC_SCOPE"}


def toml_string(value: str, *, name: str) -> str:
    """``value`` as a TOML basic string: ``"`` and ``\\`` escaped, every control character and DEL
    as ``\\uXXXX``, other characters as they are. A lone surrogate (bytes that are not UTF-8 in
    the environment) has no TOML form: ``SystemExit`` naming ``name``.

    >>> toml_string('a"b\\\\c\\x7f\\u00e9', name="X")
    '"a\\\\"b\\\\\\\\c\\\\u007fé"'
    """
    out = []
    for char in value:
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF:
            raise SystemExit(f"oidc_secrets: {name} is not UTF-8 text")
        if char in '"\\':
            out.append("\\" + char)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def render(environ: dict[str, str]) -> str:
    """The TOML text, checked to read back as the values it was built from."""
    missing = [name for name in KEYS.values() if not environ.get(name, "").strip()]
    if missing:
        raise SystemExit(f"oidc_secrets: {missing[0]} is required when PLANNER_OIDC_CLIENT_ID is set")
    values = {key: environ[name].strip() for key, name in KEYS.items()}
    lines = ["[auth]"] + [f"{key} = {toml_string(values[key], name=name)}" for key, name in KEYS.items()]
    scope = environ.get(OPTIONAL["client_kwargs_scope"], "").strip()
    if scope:
        lines += [
            "",
            "[auth.client_kwargs]",
            f"scope = {toml_string(scope, name=OPTIONAL['client_kwargs_scope'])}",
        ]
    text = "\n".join(lines) + "\n"
    section = tomllib.loads(text)["auth"]
    if any(section[key] != value for key, value in values.items()):  # pragma: no cover - a bug here
        raise SystemExit("oidc_secrets: the rendered [auth] section does not read back")
    return text


if __name__ == "__main__":
    try:
        sys.stdout.write(render(dict(os.environ)))
    except SystemExit as exc:
        sys.stderr.write(f"{exc}\n")
        sys.exit(2)
