"""The recommendation by the cost of the customer's work: its sentence, table and chart, for the
Compare page, Overview, presentation mode and the proposal's executive summary (pure: no Streamlit).

One :class:`planner.decision.draws.Decision` feeds every surface, so the CLI, the app and the PDF
show the same figures. Costs per outcome are in USD (the outcome unit names it), whatever the
report currency.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from planner.catalog import Catalog
from planner.decision.draws import Decision, DecisionSpec, decide_workload, failure_effects
from planner.decision.outcome import design_outcome
from planner.decision.sentence import error_note, money, percent_of_draws, recommendation
from planner.engine import Plan
from planner.i18n import tr, translate
from planner.i18n.message import msg
from planner.inputs.scenario import Scenario
from planner.performance.optic_failures import optic_failure_loads
from planner.report import charts
from planner.report.export.html import HtmlDocument, Table


def decision_of(
    *,
    scenario: Scenario,
    catalog: Catalog,
    plans: Sequence[Plan],
    spec: DecisionSpec | None = None,
    shown_plans: Sequence[Plan] | None = None,
) -> Decision:
    """The decision over already planned designs: the scenario's workload on each, the draws.

    ``shown_plans`` (the proposal's plans at offered prices, same order) scale each design's
    price per GPU-hour, base and draws, by its offered-over-cost ratio; the draws' price response
    stays the one of the plans at cost (it re-plans, and a re-plan is at cost).

    Parameters
    ----------
    scenario : Scenario
        The scenario (its workload and decision settings).
    catalog : Catalog
        Catalog the plans were computed with.
    plans : Sequence[Plan]
        The designs' plans at cost.
    spec : DecisionSpec or None
        Decision rule, samples [count] and seed; ``None`` takes the default.
    shown_plans : Sequence[Plan] or None
        The same designs at offered prices; ``None`` when the document shows cost.

    Returns
    -------
    Decision
        The rule, the outcome unit, per design the outcome and its cost per outcome [USD per
        ``outcome_unit``] with its P10-P90 band and probability of being best, and the chosen one.
    """
    shown = plans if shown_plans is None else shown_plans
    outcomes = tuple(
        design_outcome(
            plan=p,
            workload=scenario.workload,
            catalog=catalog,
            price_scale=q.cost.usd_per_gpu_hour / p.cost.usd_per_gpu_hour if p.cost.usd_per_gpu_hour else 1.0,
        )
        for p, q in zip(plans, shown, strict=True)
    )
    return decide_workload(outcomes=outcomes, workload=scenario.workload, catalog=catalog, spec=spec)


def sentence(decision: Decision, *, catalog: Catalog, lang: str, compare_designs: bool = True) -> str:
    """The recommendation sentence in ``lang``, ending with a full stop.

    Parameters
    ----------
    decision : Decision
        The decision.
    catalog : Catalog
        Catalog of design names.
    lang : str
        Language of the sentence (``en`` or ``zh``).
    compare_designs : bool
        Compare with the other designs (else speak of the proposed one alone).

    Returns
    -------
    str
        The sentence.
    """
    text = translate(recommendation(decision, catalog=catalog, compare_designs=compare_designs), lang)
    return text + _full_stop(lang)


def rule_text(decision: Decision, lang: str) -> str:
    """How the design was chosen, and what the band and the probability are.

    Parameters
    ----------
    decision : Decision
        The decision (rule, samples, rates).
    lang : str
        Language of the text (``en`` or ``zh``).

    Returns
    -------
    str
        One paragraph of text.
    """
    if decision.rule == "price_per_gpu_hour":
        text = msg(
            "Rule: the lowest price per GPU-hour, because the scenario names no workload; the "
            "customer buys trained and served tokens, so give a workload to rank the designs by "
            "the cost of the work. Band: P10 to P90 of {samples} draws of the prices."
        , samples=f"{decision.spec.samples:,}")  # fmt: skip
    else:
        text = msg(
            "Rule: the lowest cost of the customer's work ({unit}), the workload's tokens on each "
            "design at its price per GPU-hour, with goodput and optic repairs. Band: P10 to P90 of "
            "{samples} draws of the prices, failure rates and the model's error measured on "
            "published cases; the probability is the share of draws in which the design is the "
            "cheapest.",
            unit=decision.outcome_unit,
            samples=f"{decision.spec.samples:,}",
        )
    if decision.has_rates:
        text = msg(
            "{rule} Entries with a required rate take the share of the cluster's time they need on "
            "each design (rate over the design's throughput); the entries with a share split the "
            "rest; a design whose rates need more than the whole cluster cannot do the work "
            "(in {p} % of draws no design meets them).",
            rule=text,
            p=percent_of_draws(decision.p_infeasible),
        )
    return translate(text, lang) + " " + translate(error_note(decision), lang) + _full_stop(lang)


def _full_stop(lang: str) -> str:
    """The full stop that ends a sentence in ``lang`` (the engine's sentences come without one)."""
    return "。" if lang == "zh" else "."


def _label(key: str, lang: str) -> str:
    if key == "design":
        return tr("col.design", lang)
    labels = {
        "cost": msg("Cost per outcome"),
        "band": msg("P10 to P90"),
        "p": msg("Lowest in draws"),
        "days": msg("Time to train [days]"),
        "tokens": msg("Tokens/s (mix)"),
        "share": msg("Cluster time the required rates need"),
    }
    return translate(labels[key], lang)


def decision_frame(decision: Decision, names: Mapping[str, str], lang: str) -> pd.DataFrame:
    """One row per design: cost per outcome, its band, the probability, time to train or tokens/s.

    Parameters
    ----------
    decision : Decision
        The decision.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of headers (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        Text cells, one row per design (money in the report currency, probability [%], time
        [days]).
    """
    training = any(e.kind == "training" for d in decision.designs for e in d.outcome.entries)
    rows = []
    for d in decision.designs:
        row = {
            _label("design", lang): names.get(d.design_id, d.design_id),
            _label("cost", lang): _money(d.cost_per_outcome, lang),
            _label(
                "band", lang
            ): f"{_money(d.cost_per_outcome_low, lang)} – {_money(d.cost_per_outcome_high, lang)}",
            _label("p", lang): f"{percent_of_draws(d.p_best)} %",
        }
        if decision.has_rates:
            row[_label("share", lang)] = f"{100 * d.outcome.rate_share:.1f} %"
        if training and d.outcome.time_to_train_days is not None:
            row[_label("days", lang)] = f"{d.outcome.time_to_train_days:.1f}"
        elif d.outcome.entries:
            row[_label("tokens", lang)] = f"{d.outcome.tokens_per_s:,.0f}"
        rows.append(row)
    return pd.DataFrame(rows)


def _money(value: float, lang: str) -> str:
    """A cost per outcome, or the words for a design that cannot meet the required rates."""
    return money(value) if math.isfinite(value) else translate(msg("cannot meet the rates"), lang)


def decision_chart(decision: Decision, names: Mapping[str, str], lang: str) -> go.Figure:
    """Cost per outcome per design with its P10-P90 band, and the probability above each bar.

    Parameters
    ----------
    decision : Decision
        The decision.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Bar chart of cost per outcome [report currency] with P10-P90 error bars.
    """
    fig = go.Figure()
    for i, d in enumerate(decision.designs):
        name = names.get(d.design_id, d.design_id)
        if not math.isfinite(d.cost_per_outcome):  # infeasible: no bar, the words where it would be
            fig.add_trace(go.Bar(x=[name], y=[0.0], name=name, text=[_money(d.cost_per_outcome, lang)],
                                 textposition="outside", cliponaxis=False))  # fmt: skip
            continue
        fig.add_trace(
            go.Bar(
                x=[name],
                y=[d.cost_per_outcome],
                name=name,
                marker_color=charts.design_color(d.design_id, i),
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [
                        max(0.0, _finite_or(d.cost_per_outcome_high, d.cost_per_outcome) - d.cost_per_outcome)
                    ],
                    "arrayminus": [max(0.0, d.cost_per_outcome - d.cost_per_outcome_low)],
                    "thickness": 2,
                    "width": 10,
                },
                text=[translate(msg("{p} % of draws lowest", p=percent_of_draws(d.p_best)), lang)],
                textposition="outside",
                cliponaxis=False,
            )
        )
    unit = translate(
        msg("USD per GPU-hour") if decision.rule == "price_per_gpu_hour" else decision.outcome_unit, lang
    )
    fig.update_layout(
        showlegend=False,
        yaxis_title=unit,
        title=translate(msg("Cost per outcome, P10 to P90, and the probability of being the cheapest"), lang),
        margin={"t": 60, "b": 40, "l": 60, "r": 20},
        height=380,
    )
    top = max((_finite_or(d.cost_per_outcome_high, d.cost_per_outcome) for d in decision.designs
               if math.isfinite(d.cost_per_outcome)), default=1.0)  # fmt: skip
    fig.update_yaxes(range=[0, top * 1.2], rangemode="tozero")
    return fig


def _finite_or(value: float, fallback: float) -> float:
    """``value`` where finite (a P90 is infinite when the design misses the rates in over 10 % of
    draws), else ``fallback``."""
    return value if math.isfinite(value) else fallback


def write_summary(
    doc: HtmlDocument,
    decision: Decision,
    *,
    catalog: Catalog,
    names: Mapping[str, str],
    lang: str,
    compare_designs: bool,
    proposed_id: str,
) -> None:
    """The executive summary's recommendation: the rule, the sentence (margin and probability),
    and the cost of the work on each design (or on the proposed design alone).

    Parameters
    ----------
    doc : HtmlDocument
        The proposal document being written (appended to).
    decision : Decision
        The decision.
    catalog : Catalog
        Catalog of design names.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of the text (``en`` or ``zh``).
    compare_designs : bool
        Show every design (else the proposed one alone).
    proposed_id : str
        Design id of the proposed design.
    """
    doc.heading(translate(msg("Recommendation by the cost of the work"), lang))
    doc.paragraph(
        sentence(decision, catalog=catalog, lang=lang, compare_designs=compare_designs), style="lead"
    )
    doc.paragraph(rule_text(decision, lang))
    frame = decision_frame(decision, names, lang)
    if not compare_designs:
        keep = [
            names.get(d.design_id, d.design_id) == names.get(proposed_id, proposed_id)
            for d in decision.designs
        ]
        frame = frame[keep].drop(columns=[_label("p", lang)])
    doc.table(
        Table.of(
            [str(c) for c in frame.columns],
            [[str(v) for v in row] for row in frame.values],
            numeric=range(1, len(frame.columns)),
            compact=True,
        )
    )


def failure_frame(decision: Decision, names: Mapping[str, str], lang: str, catalog: Catalog) -> pd.DataFrame:
    """Per design: its optic kind, optic failures a day and what one takes down for how long, the
    throughput kept through repairs, and the first training job's step time with one link, leaf,
    spine or plane down [s] (``stops`` when the element cuts a GPU off). Empty without training.

    Parameters
    ----------
    decision : Decision
        The decision (each design's outcome and plan).
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of headers (``en`` or ``zh``).
    catalog : Catalog
        Catalog of optics (failure rates).

    Returns
    -------
    pd.DataFrame
        Text cells, one row per design with a training job; empty without one.
    """
    rows = []
    for d in decision.designs:
        effects = failure_effects(d.outcome)
        if not effects:
            continue
        loads = optic_failure_loads(plan=d.outcome.plan, catalog=catalog)
        worst = max(
            loads,
            key=lambda load: (load.repair_h * load.bandwidth_lost_fraction, load.ports_down),
            default=None,
        )
        row: dict[str, str] = {
            tr("col.design", lang): names.get(d.design_id, d.design_id),
            translate(msg("Optics"), lang): ", ".join(sorted({load.kind for load in loads})) or "-",
            translate(
                msg("Optic failures per day"), lang
            ): f"{sum(load.failures_per_day for load in loads):.3f}",
            translate(msg("One failure takes down"), lang): "-"
            if worst is None
            else translate(
                msg("{element} for {hours:g} h", element=msg(worst.element), hours=worst.repair_h), lang
            ),
            translate(
                msg("Throughput kept through repairs"), lang
            ): f"{100 * effects['optic_throughput_factor']:.3f} %",
            translate(msg("Step time [s]"), lang): f"{effects['step_time_s']:.3f}",
        }
        for element, seconds in effects["step_time_one_failed_s"].items():
            label = translate(msg("with one {element} down [s]", element=msg(element)), lang)
            row[label] = translate(msg("stops"), lang) if seconds is None else f"{seconds:.3f}"
        rows.append(row)
    return pd.DataFrame(rows)
