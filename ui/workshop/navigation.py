"""The navigation bar above every page: every page one click away, grouped by section."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from ui import auth, state

NAV_CSS = """
.st-key-nav_bar { margin-top: -2.5rem; }
.st-key-nav_bar [data-testid="stPageLink"] a { padding: 0 0.4rem; }
.st-key-nav_bar [data-testid="stMarkdown"] p { font-size: 0.78rem; letter-spacing: 0.04em;
  text-transform: uppercase; color: rgba(49, 51, 63, 0.65); margin: 0; }
@media print { .st-key-nav_bar { display: none !important; } }
"""
"""The navigation bar: compact links, section names in small capitals, pulled up into the
space Streamlit keeps for its own top bar (hidden here), never printed."""

NAV_LABEL_WIDTH_PX = 100
"""Section names in one column ("REFERENCE" in small capitals is about 85 px wide)."""


def navigation_bar(sections: Mapping[str, Sequence[st.Page]]) -> None:
    """Every page one click away: one row per section, its name then all its page links, so a
    1280-px projector shows every page at once (a row wraps only on a narrower screen).

    Streamlit's top bar turns sections into drop-down menus (two clicks) and a flat top bar
    hides pages under "N more"; its sidebar list would push the scenario inputs below the fold.

    Only the pages the signed-in role may open are listed (the server refuses the others, see
    :func:`ui.auth.may_open`); a section left empty is not drawn. Each link carries the
    scenario's address: Streamlit clears the query on a page switch, and the app writing it back
    made a second browser-history entry, so Back stayed on the page instead of returning to
    the previous one.
    """
    query = state.last_url()
    shown = {
        label: [p for p in pages if p.visibility != "hidden" and auth.may_open(p.url_path)]
        for label, pages in sections.items()
    }
    with st.container(gap=None, key="nav_bar"):
        for index, (label, pages) in enumerate((k, v) for k, v in shown.items() if v):
            with st.container(
                horizontal=True, gap="small", vertical_alignment="center", key=f"nav_section_{index}"
            ):
                st.markdown(label, width=NAV_LABEL_WIDTH_PX)
                for page in pages:
                    st.page_link(page, query_params=query)
