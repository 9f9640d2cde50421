"""Validation: the model against published figures, with calibration cases shown apart."""

from __future__ import annotations

import streamlit as st

from ui import state
from ui.state import t
from ui.views import validation

state.ensure_frame()
st.title(t("page.validation"))
st.caption(t("val.caption"))
found = validation.results()
validation.summary(found)
validation.chart(found)
validation.tables(found)
