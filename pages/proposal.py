"""Proposal: the export form, a preview of the PDF's first pages, and the downloads."""

from __future__ import annotations

import streamlit as st

from ui import proposal_view, views
from ui.state import t

views.require_plan("page.proposal")
st.caption(t("export.page_intro"))
proposal_view.form()
proposal_view.preview_and_downloads()
