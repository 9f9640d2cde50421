"""Catalog: browse every component family, its field reference, and upload an override."""

from __future__ import annotations

import streamlit as st

from ui import state
from ui.state import t
from ui.views import catalog

state.ensure_frame()
st.title(t("page.catalog"))
st.caption(t("catalog.caption"))
family = catalog.family_picker()
catalog.records(family)
catalog.field_reference(family)
catalog.upload()
