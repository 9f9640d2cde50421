"""Onboarding: the "start here" box of a first visit, closed for good with one click."""

from __future__ import annotations

import streamlit as st

from ui import auth, keys, state
from ui.state import t

WELCOME_COOKIE = "planner_welcome"
"""Cookie that remembers the "start here" box was closed, in this browser, for a year.

A cookie, not the URL (a share link would carry the reader's choice to the customer) nor the
scenario store (a visitor without sign-in has no account to keep it in). Streamlit reads the
browser's cookies when a session starts (``st.context.cookies``); the app sets it with a
one-line script, like ``<html lang>``."""
WELCOME_COOKIE_SCRIPT = (
    f'<script>document.cookie = "{WELCOME_COOKIE}=closed; max-age=31536000; path=/; SameSite=Lax";</script>'
)


def _dismiss_welcome() -> None:
    st.session_state[keys.WELCOME_DISMISSED] = True


def welcome_remembered() -> bool:
    """Whether this browser closed the "start here" box in an earlier session."""
    try:
        return st.context.cookies.get(WELCOME_COOKIE) == "closed"
    except (AttributeError, RuntimeError):  # no browser request behind the session (tests)
        return False


WELCOME_STEPS_PAGES = ("optimize", "scenarios")
"""Pages the "start here" steps send the reader to beyond the customer-facing ones."""


def welcome_body_key() -> str:
    """The steps for this reader: a role that may not open the pages the full steps name (a
    viewer: no Optimize, no Scenarios) gets the steps of the pages it may open."""
    if all(auth.may_open(page) for page in WELCOME_STEPS_PAGES):
        return "welcome.body"
    return "welcome.body_viewer"


def welcome() -> None:
    """A short "start here" on the first visit, closed with one click for good (in this browser)."""
    if state.present():
        return
    remembered = welcome_remembered()
    if st.session_state.get(keys.WELCOME_DISMISSED):
        if not remembered:
            st.html(WELCOME_COOKIE_SCRIPT, unsafe_allow_javascript=True)  # renders nothing visible
        return
    if remembered:
        return
    with st.container(border=True, key="welcome_box"):
        st.markdown(f"**{t('welcome.title')}**")
        st.markdown(t(welcome_body_key()))
        st.button(
            t("welcome.close"), key=keys.WELCOME_CLOSE, on_click=_dismiss_welcome, icon=":material/close:"
        )
