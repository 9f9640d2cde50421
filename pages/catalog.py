"""Catalog: browse every component family, its field reference, and upload an override."""

from __future__ import annotations

import streamlit as st

from ui import catalog_view, state
from ui.state import t

state.ensure_frame()
st.title(t("page.catalog"))
st.caption(t("catalog.caption"))
family = catalog_view.family_picker()
catalog_view.records(family)
catalog_view.field_reference(family)
catalog_view.upload()
