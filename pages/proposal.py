"""Proposal: the export form, a preview of the PDF's first pages, and the downloads."""

from __future__ import annotations

import streamlit as st

from ui import widgets
from ui.state import t
from ui.views import proposal

widgets.require_plan("page.proposal")
st.caption(t("export.page_intro"))
proposal.form()
proposal.preview_and_downloads()
