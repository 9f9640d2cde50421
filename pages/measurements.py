"""Measurements: what the built cluster printed (nccl-tests, perftest) against its plan: the
acceptance verdict and suspects, the measured and planned curves, the fitted coefficients."""

from __future__ import annotations

import streamlit as st

from ui import widgets
from ui.state import t
from ui.views import measurements

plan = widgets.require_plan("page.measurements")
st.caption(t("meas.caption"))
measurements.calibration_status()
nccl, perftest = measurements.uploads()
found = measurements.evaluate(plan, nccl, perftest)
measurements.refused(found)
if found.acceptance is None:
    st.info(t("meas.none"))
    st.stop()
measurements.verdict(found)
measurements.curves(found)
measurements.coefficients(found)
