"""Measurements page blocks: the uploads, the acceptance verdict and its suspects, the measured and
planned curves, the fitted coefficients beside the catalog's, and the calibrated override.

The work is :mod:`planner.measure` (strict readers, calibrate, accept) and
:mod:`planner.report.acceptance` (chart, CSV); this module caches and renders it. File and host
names are user text: shown as text, never as Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from planner.access import Permission
from planner.catalog import Catalog
from planner.engine import Plan
from planner.errors import PlannerError
from planner.i18n import error_text
from planner.measure.accept import Acceptance, accept
from planner.measure.calibrate import (
    Calibration,
    InputFile,
    calibrate,
    calibration_override,
    override_mapping,
    override_yaml,
)
from planner.measure.nccl import Run, parse_nccl_tests
from planner.measure.perftest import PerftestResult, parse_perftest
from planner.measure.text import read_lines
from planner.report.acceptance import acceptance_csv, curves_figure
from ui import auth, engine, keys, state, widgets
from ui.state import t, tx
from ui.upload import read_override

Files = tuple[tuple[str, bytes], ...]


@dataclass(frozen=True)
class Evaluated:
    """What the uploads give on the current plan."""

    acceptance: Acceptance | None
    calibration: Calibration | None
    refused: tuple[str, ...]
    """One message per file that could not be read (file, line, why)."""
    calibration_error: str = ""


def uploads() -> tuple[Files, Files]:
    """The nccl-tests and perftest files (the uploaders' files, else those kept in the session)."""
    for label, upload_key, kept in (
        ("meas.upload_nccl", keys.MEASURE_NCCL_UPLOAD, keys.MEASURE_NCCL),
        ("meas.upload_perftest", keys.MEASURE_PERFTEST_UPLOAD, keys.MEASURE_PERFTEST),
    ):
        chosen = st.file_uploader(t(label), accept_multiple_files=True, key=upload_key)
        if chosen:
            st.session_state[kept] = tuple((f.name, f.getvalue()) for f in chosen)
    return st.session_state.get(keys.MEASURE_NCCL, ()), st.session_state.get(keys.MEASURE_PERFTEST, ())


def _read(nccl: Files, perftest: Files) -> tuple[list[Run], list[PerftestResult], list[InputFile], list[str]]:
    runs: list[Run] = []
    tests: list[PerftestResult] = []
    files: list[InputFile] = []
    refused: list[str] = []
    for name, content in nccl:
        try:
            source = read_lines(content, name=name)
            found = parse_nccl_tests(source)
        except PlannerError as exc:
            refused.append(error_text(exc))
            continue
        runs.extend(found)
        hosts = tuple(dict.fromkeys(h for r in found for h in r.hosts))
        files.append(InputFile(name, source.sha256, tuple(sorted({r.tool for r in found})), hosts))
    for name, content in perftest:
        try:
            tests.extend(parse_perftest(read_lines(content, name=name)))
        except PlannerError as exc:
            refused.append(error_text(exc))
    return runs, tests, files, refused


@st.cache_data(show_spinner=False, max_entries=16)
def _evaluate(
    _plan: Plan, _catalog: Catalog, key: tuple[str, str], nccl: Files, perftest: Files
) -> Evaluated:
    """Accept and calibrate (cached on the scenario, the catalog override and the files' bytes)."""
    runs, tests, files, refused = _read(nccl, perftest)
    if not runs and not tests:
        return Evaluated(None, None, tuple(refused))
    try:
        result = accept(plan=_plan, catalog=_catalog, runs=runs, perftest=tests)
    except PlannerError as exc:
        return Evaluated(None, None, (*refused, error_text(exc)))
    if not runs:
        return Evaluated(result, None, tuple(refused))
    try:
        cal = calibrate(plan=_plan, catalog=_catalog, runs=runs, files=files)
    except PlannerError as exc:
        return Evaluated(result, None, tuple(refused), error_text(exc))
    return Evaluated(result, cal, tuple(refused))


def evaluate(plan: Plan, nccl: Files, perftest: Files) -> Evaluated:
    key = (engine.canonical_json(plan.scenario), state.catalog_override())
    return _evaluate(plan, engine.catalog(), key, nccl, perftest)


def refused(found: Evaluated) -> None:
    for message in found.refused:
        st.error(t("meas.refused", message=tx(message)), icon=":material/block:")


def verdict(found: Evaluated) -> None:
    result = found.acceptance
    if result is None:
        return
    failed = sum(1 for c in result.checks if c.status == "fail")
    if result.verdict == "pass":
        st.success(t("meas.verdict_pass", checks=len(result.checks)), icon=":material/check_circle:")
    else:
        st.error(t("meas.verdict_fail", failed=failed, checks=len(result.checks)), icon=":material/cancel:")
    if result.suspects:
        st.subheader(t("meas.suspects"))
        for s in result.suspects:
            st.text(f"{s.host or '-'}: {tx(s.reason)}")
    if result.commands:
        st.code("\n".join(result.commands), language="bash")


def curves(found: Evaluated) -> None:
    result = found.acceptance
    if result is None:
        return
    cal = found.calibration
    fitted: Sequence[tuple[str, int, float]] = (
        [(r.file, r.size_bytes, r.fitted_busbw_gbyte_per_s) for r in cal.residuals] if cal else []
    )
    widgets.chart(curves_figure(result, lang=state.lang(), fitted=fitted), key="measure-curves")
    st.download_button(
        t("meas.report_csv"),
        data=acceptance_csv(result, lang=state.lang()),
        file_name="acceptance.csv",
        mime="text/csv",
    )


def coefficients(found: Evaluated) -> None:
    if found.calibration_error:
        st.warning(t("meas.calibration_refused", message=tx(found.calibration_error)))
    cal = found.calibration
    if cal is None:
        return
    st.subheader(t("meas.coefficients"))
    if cal.in_switch_reduction:
        st.info(t("meas.fitted_with_reduction", mode=cal.in_switch_reduction), icon=":material/info:")
    st.dataframe(
        [
            {
                t("meas.col.coefficient"): c.name,
                t("meas.col.default"): c.default,
                t("meas.col.fitted"): c.fitted,
                t("meas.col.reason"): tx(c.reason),
            }
            for c in cal.coefficients
        ],
        hide_index=True,
        width="stretch",
    )
    text = override_yaml(cal)
    st.download_button(t("meas.download"), data=text, file_name="calibrated-override.yaml", mime="text/yaml")
    if override_mapping(cal):
        if auth.can(Permission.SCENARIOS):
            st.button(t("meas.save_with_scenario"), on_click=_save_with_scenario, args=(cal,))
        else:
            st.caption(t("meas.save_role", role=t(auth.ROLE_KEYS[auth.identity().role])))
    if auth.identity().can(Permission.CATALOG_OVERRIDE):
        st.button(t("meas.apply"), on_click=_apply, args=(text,))


def calibration_status() -> None:
    """Whether the scenario is calibrated (from which measurement, when), the last action's
    status line, and the button that removes the calibration."""
    shown = st.session_state.pop(keys.CALIBRATION_STATUS, None)
    if shown:
        key, params = shown
        st.success(t(key, **params), icon=":material/check_circle:")
    current = state.calibration()
    if current is None:
        return
    st.info(t("meas.calibrated"), icon=":material/tune:")
    st.text(current.label)  # user text: shown as text
    st.text(", ".join(f"{f.name} (sha256 {f.sha256[:12]}...)" for f in current.files) or "-")
    if auth.can(Permission.SCENARIOS):
        st.button(t("meas.remove_calibration"), on_click=_remove_calibration)


def _save_with_scenario(cal: Calibration) -> None:
    """Button callback: the fitted override becomes the scenario's calibration."""
    try:
        state.set_calibration(calibration_override(cal))
    except PlannerError as exc:
        auth.refuse(exc, state.lang())
        return
    mode = cal.in_switch_reduction
    if mode is not None and state.value("reduction") != mode:
        # the fitted values reproduce the runs with this reduction only: set it, and say so
        state.set_value("reduction", mode)
        st.session_state[keys.CALIBRATION_STATUS] = ("meas.saved_with_reduction", {"mode": mode})
        return
    st.session_state[keys.CALIBRATION_STATUS] = ("meas.saved_with_scenario", {})


def _remove_calibration() -> None:
    try:
        state.set_calibration(None)
    except PlannerError as exc:
        auth.refuse(exc, state.lang())
        return
    st.session_state[keys.CALIBRATION_STATUS] = ("meas.calibration_removed", {})


def _apply(text: str) -> None:
    """Make the calibrated override the session's catalog override (validated as an upload)."""
    result = read_override("calibrated-override.yaml", text.encode("utf-8"))
    if result.ok:
        state.set_catalog_override(result.override_json, "calibrated-override.yaml")
