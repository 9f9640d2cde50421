"""Sign-in and roles in the web app: Streamlit's own OpenID Connect login (``st.login``,
``st.user``) and the guards every page goes through.

Sign-in fails closed: when it is configured (any ``PLANNER_OIDC_*`` variable,
``STREAMLIT_SECRETS_FILES``, or a secrets file) but its secrets cannot be read or hold no usable
``[auth]`` section, :func:`gate` shows one line and nothing else runs (Streamlit alone would log
"Failed to load secrets" and serve everyone as the admin); so does listening beyond loopback
without sign-in unless ``PLANNER_ALLOW_ANONYMOUS=1`` (then a banner says so).

Sign-in is off unless Streamlit finds an ``[auth]`` section in its secrets: ``.streamlit/secrets.toml``
beside ``app.py``, or the file named by ``STREAMLIT_SECRETS_FILES`` (a mounted secret in a
container). With it off, the one user is :data:`planner.access.LOCAL_IDENTITY`, an admin, and the
app behaves as it always has. The role comes from the ID token's claims through
:func:`planner.access.mapping_from_env` (``PLANNER_ROLE_CLAIM``, ``PLANNER_TEAM_CLAIM``,
``PLANNER_ROLE_MAP``, ``PLANNER_DEFAULT_ROLE``). What each role may see is decided in
:mod:`planner.access`; this module only asks Streamlit who is there.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Mapping
from typing import Any

import streamlit as st
from streamlit import config as st_config
from streamlit.runtime.scriptrunner import get_script_run_ctx

from planner.access import (
    LOCAL_IDENTITY,
    Identity,
    Permission,
    SignInConfigError,
    auth_section,
    check_edition,
    exposure_error,
    identity_from_claims,
    is_loopback,
    listening_address,
    mapping_from_env,
    may_open_page,
    require,
    signed_out_error,
)
from planner.errors import PlannerError
from planner.i18n import error_text, tr, translate
from planner.i18n.message import msg
from planner.report.export.pricing import Pricing

ROLE_KEYS = {
    "viewer": "auth.role.viewer",
    "architect": "auth.role.architect",
    "commercial": "auth.role.commercial",
    "admin": "auth.role.admin",
}
"""UI key of each role's name."""

PRICE_FACTOR = Pricing().price_factor
"""Offered price per unit of cost that roles without internal costs see everywhere: the default
terms of the proposal (15 % margin, no discount)."""


_RUN_READS: dict[int, tuple[dict[Any, Any], dict[str, Any]]] = {}
"""Each live session's last successful read of the ``[auth]`` section, by its script run context's
``id``, with the run it was read in (the run's ``cursors`` dict: Streamlit makes a new one when
a run starts); an entry goes when its context is collected."""
_RUN_READS_LOCK = threading.Lock()


def _auth_section() -> dict[str, Any]:
    """The ``[auth]`` section (empty: sign-in off); :class:`planner.access.SignInConfigError`
    when sign-in is configured but its secrets cannot be read (fail closed).

    Read once per run of the script: a run asks about 40 times (the gate, the identity behind
    every permission check, the navigation bar's links), about 0.1 ms of CPU each (the
    environment scanned, the secrets files looked up, Streamlit's secrets asked, a file
    parsed). Every run reads afresh, so a changed secrets file or variable takes effect
    on the next run, as before; a read that fails is not kept (the next call reads again
    and fails again: the gate still denies). Outside a script run, every call reads."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return _read_auth_section()
    run = ctx.cursors
    with _RUN_READS_LOCK:
        held = _RUN_READS.get(id(ctx))
    if held is not None and held[0] is run:
        return dict(held[1])
    section = _read_auth_section()
    with _RUN_READS_LOCK:
        if id(ctx) not in _RUN_READS:
            weakref.finalize(ctx, _forget_run_read, id(ctx))
        _RUN_READS[id(ctx)] = (run, section)
    return dict(section)


def _forget_run_read(context_id: int) -> None:
    with _RUN_READS_LOCK:
        _RUN_READS.pop(context_id, None)


def _read_auth_section() -> dict[str, Any]:
    """:func:`_auth_section` read from the environment, the secrets files and ``st.secrets``."""
    from_files = auth_section(environ=os.environ, secret_files=st_config.get_option("secrets.files"))
    try:
        loaded = st.secrets.get("auth")
    except (FileNotFoundError, KeyError):  # no secrets file at all
        loaded = None
    if loaded:
        return dict(loaded)
    if from_files:  # the files hold [auth], yet Streamlit did not load it: never run without it
        raise SignInConfigError(msg("sign-in is configured but Streamlit did not load its [auth] section"))
    return {}


def configuration_error() -> PlannerError | None:
    """Why this server must not serve pages, or ``None``: configured sign-in that cannot work,
    or a non-loopback address without sign-in and without ``PLANNER_ALLOW_ANONYMOUS=1``."""
    try:
        signed_in = bool(_auth_section())
    except PlannerError as exc:
        return exc
    return exposure_error(address=_address(), signed_in=signed_in, environ=os.environ)


def _address() -> str:
    return listening_address(
        environ=os.environ, server_address=str(st_config.get_option("server.address") or "")
    )


def anonymous_on_network() -> bool:
    """Whether anyone on the network is served as the local admin (``PLANNER_ALLOW_ANONYMOUS=1``)."""
    return not sign_in_enabled() and not is_loopback(_address())


def sign_in_enabled() -> bool:
    """Whether an ``[auth]`` section configures Streamlit's OpenID Connect login (raises
    :class:`planner.access.SignInConfigError` when it is configured but unreadable)."""
    section = _auth_section()
    return bool(section.get("client_id") or any(isinstance(v, Mapping) for v in section.values()))


def _provider() -> str | None:
    """The named provider (``[auth.NAME]``) when there is exactly one, else the flat ``[auth]``."""
    named = [key for key, value in _auth_section().items() if isinstance(value, Mapping)]
    return named[0] if len(named) == 1 else None


def identity() -> Identity:
    """Who is using this session; :class:`planner.access.AccessDeniedError` when signed out."""
    if not sign_in_enabled():
        return LOCAL_IDENTITY
    if not st.user.is_logged_in:
        raise signed_out_error()
    return identity_from_claims(claims=st.user.to_dict(), mapping=mapping_from_env(os.environ))


def can(permission: Permission) -> bool:
    """Whether this session's user holds ``permission`` (``False`` when signed out)."""
    try:
        return identity().can(permission)
    except PlannerError:
        return False


def price_factor() -> float | None:
    """``None`` when this session sees internal costs, else the offered-price factor its
    catalog is priced at (:func:`planner.access.priced_catalog`)."""
    return None if can(Permission.INTERNAL_COST) else PRICE_FACTOR


def gate(lang: str) -> Identity:
    """The frame's first guard: without sign-in, the local admin; with it, the signed-in user,
    or the sign-in screen (and nothing else) for a visitor."""
    problem = configuration_error()
    if problem is not None:
        st.error(translate(error_text(problem), lang), icon=":material/block:")
        st.stop()
    if not sign_in_enabled():
        if anonymous_on_network():
            st.warning(tr("auth.anonymous_banner", lang), icon=":material/public:")
        return LOCAL_IDENTITY
    if not st.user.is_logged_in:
        st.title(tr("app.title", lang))
        st.info(tr("auth.sign_in_needed", lang), icon=":material/lock:")
        st.button(
            tr("auth.sign_in", lang),
            key="auth_sign_in",
            on_click=st.login,
            args=_login_args(),
            type="primary",
        )
        st.stop()
    try:
        who = identity()
    except PlannerError as exc:
        st.error(translate(error_text(exc), lang), icon=":material/block:")
        st.button(tr("auth.sign_out", lang), key="auth_sign_out_refused", on_click=st.logout)
        st.stop()
    return who


def _login_args() -> tuple[str, ...]:
    provider = _provider()
    return () if provider is None else (provider,)


def user_box(container: Any, lang: str) -> None:
    """The signed-in user, their role and a sign-out button (nothing with sign-in off); the name
    is the provider's claim, shown as text."""
    if not sign_in_enabled() or not st.user.is_logged_in:
        return
    who = identity()
    container.text(tr("auth.signed_in_as", lang, name=who.name, role=tr(ROLE_KEYS[who.role], lang)))
    container.button(
        tr("auth.sign_out", lang), key="auth_sign_out", on_click=st.logout, icon=":material/logout:"
    )


def may_open(page: str) -> bool:
    """Whether this session's user may open the page at url path ``page`` (the navigation bar
    lists only those; signed out: none)."""
    try:
        return may_open_page(identity=identity(), page=page)
    except PlannerError:
        return False


def guard_page(page: str, lang: str) -> None:
    """Stop a page the user's role may not open, with a message (the server never runs it)."""
    who = identity()
    if not may_open_page(identity=who, page=page):
        st.error(tr("auth.page_refused", lang, role=tr(ROLE_KEYS[who.role], lang)), icon=":material/block:")
        st.stop()


def refuse(exc: PlannerError, lang: str) -> None:
    """Show a refusal (an :class:`planner.access.AccessDeniedError`) in the reader's language."""
    st.error(translate(error_text(exc), lang), icon=":material/block:")


def proposal_terms(data: dict[str, Any]) -> dict[str, Any]:
    """The proposal's details as this session may build them.

    A role without internal costs gets the customer edition only (an internal edition asked for
    by the form or the URL raises :class:`planner.access.AccessDeniedError`), and no terms of its
    own: its catalog is already at selling prices, so margin and discount are zero on top of it.
    """
    who = identity()
    check_edition(identity=who, edition=str(data.get("edition", "customer")))
    if who.can(Permission.INTERNAL_COST):
        return data
    return {**data, "pricing": {"margin": 0.0, "discount": 0.0}}


def require_permission(permission: Permission, *, what: str) -> None:
    """:func:`planner.access.require` for this session's user (signed out: refused)."""
    require(identity=identity(), permission=permission, what=what)
