"""Workload page blocks: the training-job form, the estimates per design, charts, uncertainty."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from planner import InputError, Plan
from planner.decision.bands import headline_note, training_band
from planner.inputs.reliability import ReliabilityParams, reliability_params
from planner.inputs.training import TrainingJob, training_job
from planner.performance.workload import workload_frame
from planner.report import performance_charts, performance_tables, tables
from planner.report.performance_tables import escape_markdown
from ui import engine, forms, keys, state, widgets
from ui.forms import FormField
from ui.state import t, tx

FORM = keys.WORKLOAD_FORM


NETWORK = "wl.group.network"
GROUPS = tuple(
    # the job's network settings end with whether it survives network failures (a reliability setting)
    (
        key,
        (*fields, *forms.model_fields(ReliabilityParams, names=("network_failover",)))
        if key == NETWORK
        else fields,
    )
    for key, fields in forms.model_groups(TrainingJob)
)
FIELDS: tuple[FormField, ...] = tuple(f for _, fields in GROUPS for f in fields)
JOB_FIELD_NAMES = tuple(f.name for f in FIELDS if f.name != "network_failover")


def _validated(data: dict[str, object]) -> tuple[TrainingJob, ReliabilityParams]:
    job = training_job({k: v for k, v in data.items() if k in JOB_FIELD_NAMES and v is not None})
    params = reliability_params(
        {"params_b": job.params_b, "network_failover": bool(data["network_failover"])}
    )
    return job, params


@dataclass(frozen=True)
class Run:
    """The job shown and its estimates (the last accepted job while the form has an error)."""

    found: engine.Estimates
    job: TrainingJob
    params: ReliabilityParams


def _problem(found: engine.Estimates) -> str | None:
    """The engine's message when no design can run the job (it is about the job, not a design)."""
    if found.estimates:
        return None
    return "; ".join(sorted({message for _, message in found.errors}))


def job_and_estimates(plans: tuple[Plan, ...]) -> Run:
    """The job's inputs in four groups, then its estimate on every design.

    A value the engine rejects (or a layout that fits no design) is named under its input and
    the last accepted job stays on screen, labelled as such.
    """
    data = forms.values(FORM, FIELDS)
    slots, general = forms.draw_groups(FORM, GROUPS, t("wl.form"))
    try:
        job, params = _validated(data)
        found = engine.workload(plans, job, params)
        problem = _problem(found)
    except InputError as exc:
        problem = str(exc)
    if problem is None:
        st.session_state[keys.WORKLOAD_LAST_GOOD] = dict(data)
        _design_warnings(found, plans)
        return Run(found, job, params)
    forms.show_error(slots, FIELDS, problem, general)
    last = st.session_state.get(keys.WORKLOAD_LAST_GOOD)
    if not last or last == data:
        st.stop()
    job, params = _validated(last)
    found = engine.workload(plans, job, params)
    st.warning(t("form.stale"), icon=":material/history:")
    _design_warnings(found, plans)
    return Run(found, job, params)


def _design_warnings(found: engine.Estimates, plans: tuple[Plan, ...]) -> None:
    """Designs the job does not fit on, each with the engine's reason."""
    labels = widgets.design_labels(plans)
    for design, message in found.errors:
        st.warning(
            t("wl.design_error", design=labels.get(design, design), message=message),
            icon=":material/warning:",
        )


def _labels(found: engine.Estimates, plans: tuple[Plan, ...]) -> list[str]:
    labels = widgets.design_labels(plans)
    return [labels[e.design_id] for e in found.estimates]


def results_table(run: Run, plans: tuple[Plan, ...], current: Plan) -> None:
    """Designs side by side (winners starred), the CSV download and the model's notes."""
    found = run.found
    lang = state.lang()
    st.subheader(t("wl.per_design"))
    frame = performance_tables.workload_table(
        found.estimates, _labels(found, plans), tables.money_of(current), lang
    )
    widgets.starred_table(frame)
    first = found.estimates[0]
    st.caption(
        t(
            "wl.table_caption",
            layers=first.shape.layers,
            hidden=first.shape.hidden_size,
            active=f"{first.shape.params_active / 1e9:,.1f}",
            tokens=f"{first.tokens_per_step / 1e6:,.2f}",
        )
    )
    widgets.csv_download(
        st, t("wl.download_csv"), workload_frame(found.estimates), file_name=f"workload_{first.gpus}gpu.csv"
    )
    st.caption(tx(headline_note(training_band(experts=first.job.experts))))
    widgets.model_notes(n for e in found.estimates for n in (*e.notes, *e.reliability.notes))


def charts(run: Run, plans: tuple[Plan, ...]) -> None:
    """Step-time breakdown and busbw against message size."""
    found, job = run.found, run.job
    lang = state.lang()
    labels = _labels(found, plans)
    widgets.chart(performance_charts.step_breakdown(found.estimates, labels, lang), key="workload_breakdown")
    frame = engine.collectives(plans, in_network_reduction=job.in_network_reduction)
    names = dict(
        zip(
            [p.design_id for p in plans],
            performance_tables.design_labels(plans, engine.catalog(), lang),
            strict=True,
        )
    )
    widgets.chart(performance_charts.collectives_busbw(frame, names, lang), key="workload_collectives")
    st.caption(t("wl.collectives_caption"))


TORNADO_OUTPUTS = {
    "time_to_train_days": "wl.output.time_to_train",
    "cost_to_train_usd": "wl.output.cost_to_train",
    "tco_usd": "wl.output.tco",
}


def uncertainty(current: Plan, plans: tuple[Plan, ...], run: Run) -> None:
    """Tornado of the current design (pick the output) and Monte Carlo P10/P50/P90 per design."""
    job, params = run.job, run.params
    lang = state.lang()
    money = tables.money_of(current)
    st.subheader(t("wl.uncertainty"))
    output = widgets.choice(
        t("wl.tornado_output"), TORNADO_OUTPUTS, key=keys.WORKLOAD_TORNADO_OUTPUT, help=t("wl.help.tornado")
    )
    swings = engine.tornado_of(current, job, params)
    if swings.frame is None:
        st.warning(
            t("wl.tornado_error", message=escape_markdown(swings.error or "")), icon=":material/warning:"
        )
    else:
        widgets.chart(
            performance_charts.tornado(swings.frame, output, lang, money=money), key="workload_tornado"
        )
        design = performance_tables.design_labels((current,), engine.catalog(), lang)[0]
        st.caption(t("wl.tornado_caption", design=design))
    results = engine.monte_carlo_of(plans, job, params)
    if results is None:  # cancelled: the line is shown
        return
    labels = performance_tables.design_labels(plans, engine.catalog(), lang)
    shown = [
        (r, label, p.design_id) for r, label, p in zip(results, labels, plans, strict=True) if r is not None
    ]
    if not shown:
        return
    runs, names, ids = zip(*shown, strict=True)
    widgets.chart(
        performance_charts.monte_carlo_ranges(runs, names, ids, lang, money=money), key="workload_monte_carlo"
    )
    widgets.table(performance_tables.monte_carlo_table(runs, names, money, lang))
    st.caption(
        t(
            "wl.monte_carlo_caption",
            samples=f"{engine.MONTE_CARLO_SAMPLES:,}",
            seed=engine.MONTE_CARLO_SEED,
        )
    )
