"""Proposal assembly: one scenario in, a PDF proposal and its CSV/XLSX/JSON files out (pure: no Streamlit).

A proposal compares designs on the scenario, recommends one by a stated rule, and details the
proposed design (the scenario's own design unless the author names another; the rule's pick,
when it differs, is stated beside it as a recommendation): cover with the contents (the page of
each section, learnt from a first print: :func:`render_pdf`), executive summary, design
comparison (table and charts), topology and cabling, bill of materials by category, power and
cooling, cost and TCO, assumptions, sources and vendor claims. The charts are the app's own
Plotly figures (:mod:`planner.report.charts`), drawn by one long-lived Chromium
(:func:`planner.report.export.browser.shared_browser`).

Editions
--------
- *customer*: every money figure is the offered price (cost x (1 + margin) x (1 - discount));
  the charts and tables are built from :func:`planner.report.export.pricing.priced_plan`, so the cost
  plan never reaches the document; sources and assumptions are stripped of price references
  (:func:`planner.report.export.pricing.redact_prices`) and of the repository's paths and file
  names (:func:`planner.report.export.redact.redact_paths`), and the coefficients of analyses
  the document does not contain are left out (:data:`ANALYSIS_TOPICS`);
- *internal*: figures at cost, plus the commercial terms (cost, margin, list price, discount,
  offered price, gross profit).

Recommendation rule: among the compared designs whose racks the chosen cooling can handle, the
lowest cost of the scenario's workload (USD per million trained or served tokens, at the offered
prices; :mod:`planner.report.recommendation_section`), with its margin and the probability that it
is the cheapest; without a workload, the lowest price per GPU-hour, and the summary says so. The
customer edition may leave the comparison with the other designs out (``compare_designs``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

import pandas as pd
import plotly.graph_objects as go
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from planner import Catalog, Plan, Scenario
from planner import plan as plan_scenario
from planner.catalog import FAMILIES
from planner.compare import DEFAULT_DESIGNS, compare
from planner.cost import BOM_CATEGORIES
from planner.decision.draws import Decision
from planner.errors import InputError, describe_validation_error
from planner.i18n import tr, tr_enum, translate, translate_text
from planner.i18n.message import msg
from planner.report import (
    charts,
    display,
    elevations_section,
    fmt,
    recommendation_section,
    serving_section,
    tables,
    tenancy_section,
)
from planner.report.display import DisplayUnits
from planner.report.export import csv as bom_csv_module
from planner.report.export.browser import Browser, ChartSpec, PageSetup, RenderError, shared_browser
from planner.report.export.html import (
    Cell,
    ContentsEntry,
    FooterPart,
    HtmlDocument,
    Row,
    Strong,
    Table,
    footer_template,
    header_template,
    image_data_uri,
    logo_data_uri,
)
from planner.report.export.names import safe_filename
from planner.report.export.preview import first_pages
from planner.report.export.pricing import Edition, Pricing, priced_plan, redact_prices
from planner.report.export.redact import redact_paths
from planner.report.export.scenario_json import export_scenario_json
from planner.report.export.xlsx import Column, ColumnKind, Sheet, write_xlsx

Lang = Literal["en", "zh"]
CHART_WIDTH_PX = 820
"""Chart width [CSS px]; printed 180 mm wide, a 12 px label is about 7.5 pt."""
CHART_FORMAT: Literal["svg", "png"] = "svg"
"""Vector charts: sharp at any zoom and print size (PNG would use :data:`PNG_SCALE`)."""
PNG_SCALE = 3.0


class ProposalOptions(BaseModel):
    """What the architect types for a proposal (validated once; bad input names the field)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    lang: Lang = Field(default="en", description="Document language.")
    edition: Edition = Field(default="customer", description="customer or internal.")
    customer: str = Field(default="", max_length=200, description="Customer name.")
    project: str = Field(default="", max_length=200, description="Project name.")
    author: str = Field(default="", max_length=200, description="Who prepared the proposal.")
    version: str = Field(default="1.0", min_length=1, max_length=40, description="Proposal version.")
    date: dt.date = Field(default_factory=dt.date.today, description="Date on the cover and footer.")
    notes: str = Field(default="", max_length=4000, description="Notes for the cover page.")
    pricing: Pricing = Field(default_factory=Pricing)
    design_ids: tuple[str, ...] = Field(
        default=DEFAULT_DESIGNS, min_length=1, description="Designs compared."
    )
    proposed: str | None = Field(
        default=None,
        description="Design detailed; empty = the scenario's design (the rule's pick is shown beside it).",
    )
    logo: bytes | None = Field(default=None, repr=False, description="PNG or JPEG logo for the cover.")
    compare_designs: bool = Field(
        default=True,
        description="Show the other designs beside the proposed one; off = the proposed design "
        "alone (a customer edition may leave the comparison out).",
    )
    units: DisplayUnits = Field(
        default_factory=DisplayUnits,
        description="Display units the reader chose (GB/s or Gb/s, kW or BTU/h, 万/亿 or M); "
        "the figures are computed as always, only written in these units.",
    )


def options_from_data(data: Mapping[str, Any], *, source: str = "proposal") -> ProposalOptions:
    """Validate proposal options (and the logo image); :class:`InputError` names field and range."""
    try:
        options = ProposalOptions.model_validate(dict(data))
    except ValidationError as exc:
        raise InputError(f"{source}: {describe_validation_error(exc, model=ProposalOptions)}") from None
    if options.logo is not None:
        logo_data_uri(options.logo)
    return options


@dataclass(frozen=True)
class Proposal:
    """The plans behind a proposal and what the document says about them."""

    options: ProposalOptions
    scenario: Scenario
    catalog: Catalog
    cost_plans: tuple[Plan, ...]
    """Every compared design at cost (internal figures)."""
    priced_plans: tuple[Plan, ...]
    """The same designs at the offered prices."""
    recommended_id: str
    proposed_id: str
    eligible_ids: tuple[str, ...]
    names: Mapping[str, str]
    decision: Decision | None = None
    """Cost of the customer's work on each eligible design, with bands and probabilities
    (:mod:`planner.report.recommendation_section`); it sets ``recommended_id`` when the scenario
    has a workload."""

    @property
    def lang(self) -> Lang:
        return self.options.lang

    @property
    def internal(self) -> bool:
        return self.options.edition == "internal"

    @property
    def shown_plans(self) -> tuple[Plan, ...]:
        """The plans the document shows: at cost (internal) or at offered prices (customer)."""
        return self.cost_plans if self.internal else self.priced_plans

    def _by_id(self, plans: Sequence[Plan], design_id: str) -> Plan:
        return next(p for p in plans if p.design_id == design_id)

    @property
    def plan(self) -> Plan:
        """The proposed design as the document shows it."""
        return self._by_id(self.shown_plans, self.proposed_id)

    @property
    def cost_plan(self) -> Plan:
        return self._by_id(self.cost_plans, self.proposed_id)

    def priced(self, design_id: str) -> Plan:
        return self._by_id(self.priced_plans, design_id)

    @cached_property
    def tenancy(self) -> tenancy_section.Tenancy | None:
        """The scenario's tenants on the shown plan, once per proposal; ``None`` without tenants."""
        return tenancy_section.tenancy_of(plan=self.plan, catalog=self.catalog, tenants=self.scenario.tenants)

    @cached_property
    def serving(self) -> serving_section.Serving | None:
        """The scenario's serving request on each shown plan, once per proposal; ``None`` without one."""
        return serving_section.serving_of(
            plans=self.shown_plans, catalog=self.catalog, request=self.scenario.serving
        )

    @cached_property
    def elevations(self) -> elevations_section.Elevations:
        """The rack types of the proposed plan's layout, once per proposal."""
        return elevations_section.elevations_of(plan=self.plan, catalog=self.catalog)


def build_proposal(*, scenario: Scenario, catalog: Catalog, options: ProposalOptions) -> Proposal:
    """Plan every compared design (same GPU), price them and pick the design to propose.

    The proposed design is ``options.proposed`` or else the scenario's own design, so the
    cover, BOM, CSV and XLSX detail what the scenario (and its exported JSON) says; the rule's
    pick (``recommended_id``) is only a recommendation beside it.
    """
    base = plan_scenario(scenario=scenario, catalog=catalog)
    ids = list(dict.fromkeys(options.design_ids))
    if base.design_id not in ids:
        ids.insert(0, base.design_id)
    if not options.compare_designs:  # the proposed design alone: no other design is named
        ids = [options.proposed or base.design_id]
    others = [d for d in ids if d != base.design_id]
    compared = (
        compare(scenario=scenario.with_updates(gpu_id=base.gpu_id), catalog=catalog, design_ids=others)
        if others
        else ()
    )
    by_id = {base.design_id: base, **{p.design_id: p for p in compared}}
    cost_plans = tuple(by_id[d] for d in ids)
    priced = tuple(priced_plan(p, catalog=catalog, pricing=options.pricing) for p in cost_plans)
    eligible = tuple(p.design_id for p in priced if p.cooling.density_feasible)
    pool = [p for p in priced if p.design_id in eligible] or list(priced)
    recommended = min(pool, key=lambda p: p.cost.usd_per_gpu_hour).design_id
    pool_ids = [p.design_id for p in pool]
    decision = recommendation_section.decision_of(
        scenario=scenario,
        catalog=catalog,
        plans=[p for p in cost_plans if p.design_id in pool_ids],
        shown_plans=None if options.edition == "internal" else pool,
    )
    if scenario.workload:  # the cost of the work decides; the price per GPU-hour only without one
        recommended = decision.recommended.design_id
    proposed = options.proposed or base.design_id
    if proposed not in ids:
        raise InputError(
            f"proposed: design {proposed!r} is not among the designs compared ({', '.join(ids)})"
        )
    return Proposal(
        options=options,
        scenario=scenario,
        catalog=catalog,
        cost_plans=cost_plans,
        priced_plans=priced,
        recommended_id=recommended,
        proposed_id=proposed,
        eligible_ids=eligible,
        names=tables.design_names(catalog, options.lang, cost_plans),
        decision=decision,
    )


# --- charts ------------------------------------------------------------------------------------


def chart_figures(p: Proposal) -> list[tuple[str, go.Figure]]:
    """The app's figures for the document, in the order they appear (shown plans only)."""
    lang, shown, plan, names = p.lang, p.shown_plans, p.plan, dict(p.names)
    return [
        ("compare_bars", charts.compare_bars(shown, lang, names, units=p.options.units)),
        ("cost_stack", charts.cost_stack(shown, lang, names)),
        ("radar", charts.radar(shown, lang, names)),
        ("busbw", charts.busbw_curve(shown, lang, names, units=p.options.units)),
        ("topology", charts.topology(plan, lang)),
        ("latency", charts.latency_breakdown(plan, lang)),
        ("cost_by_category", charts.cost_by_category(plan, lang)),
        ("power_by_category", charts.power_by_category(plan, lang)),
        ("racks", charts.rack_layout(plan, lang)),
    ]


def chart_images(p: Proposal, browser: Browser) -> dict[str, str]:
    """Every figure drawn once by the browser, as data URIs keyed by chart name."""
    return chart_images_and_alt_texts(p, browser)[0]


def chart_images_and_alt_texts(p: Proposal, browser: Browser) -> tuple[dict[str, str], dict[str, str]]:
    """Every figure drawn once by the browser (data URIs) and its one-sentence description (the
    image's ``alt`` text, :func:`planner.report.charts.figure_alt_text`), keyed by chart name."""
    figures = chart_figures(p)
    specs = [ChartSpec(fig, CHART_WIDTH_PX, int(fig.layout.height or 400), name=key) for key, fig in figures]
    images = browser.images(specs, fmt=CHART_FORMAT, scale=PNG_SCALE)
    mime = "image/svg+xml" if CHART_FORMAT == "svg" else "image/png"
    uris = {key: image_data_uri(data, mime) for (key, _), data in zip(figures, images, strict=True)}
    return uris, {key: charts.figure_alt_text(fig, p.lang) for key, fig in figures}


# --- helpers -------------------------------------------------------------------------------------


def _date(day: dt.date, lang: str) -> str:
    """``2026-05-14`` or ``2026年5月14日``."""
    return f"{day.year}年{day.month}月{day.day}日" if lang == "zh" else day.isoformat()


def _table(
    frame: pd.DataFrame,
    *,
    numeric: Sequence[str] = (),
    widths: Sequence[float] = (),
    compact: bool = False,
    caption: str = "",
) -> Table:
    columns = [str(c) for c in frame.columns]
    rows = [[str(v) for v in row] for row in frame.itertuples(index=False)]
    return Table.of(
        columns,
        rows,
        numeric=[columns.index(c) for c in numeric if c in columns],
        widths=widths if len(widths) == len(columns) else (),
        compact=compact,
        caption=caption,
    )


def _title(p: Proposal) -> str:
    return p.options.project or tr("export.doc_title", p.lang)


def _currency(p: Proposal) -> str:
    return tr(f"currency.{p.plan.cost.currency}", p.lang)


def _records(p: Proposal) -> list[bom_csv_module.Record]:
    o = p.options
    return bom_csv_module.bom_records(
        p.cost_plan,
        pricing=o.pricing,
        edition=o.edition,
        customer=o.customer,
        project=o.project,
        version=o.version,
    )


def _text_cell(value: bom_csv_module.Cell) -> str:
    """A record's text as it is (a :class:`~planner.i18n.message.Message` stays one)."""
    return value if isinstance(value, str) else str(value)


def _clean(text: str, p: Proposal) -> str:
    """An engine or catalog text in the document's language, as the edition may show it
    (customer: no price references, no repository paths or file names)."""
    shown = translate_text(text, p.lang)
    return shown if p.internal else redact_paths(redact_prices(shown))


ANALYSIS_TOPICS = (
    "sizing_rules.training_",
    "sizing_rules.serving_",
    "sizing_rules.checkpoint_",
    "sizing_rules.failure_rate_",
    "sizing_rules.hpn_",
)
"""Catalog coefficients of the analyses a proposal does not contain (training and serving
estimates, reliability): their calibration notes are internal model notes, so the customer
edition leaves them out; the internal edition lists every assumption of the plan."""


def _assumption_rows(p: Proposal) -> pd.DataFrame:
    """The assumptions and sources table, texts translated and cleaned for the edition.

    The customer edition leaves out the rows whose text it loses entirely and the coefficients
    of analyses the document does not contain (:data:`ANALYSIS_TOPICS`), and names each row's
    topic by its catalog family ("Servers", "Optics") rather than by the catalog's internal
    record id (``servers.biren_hearten_8oam``).
    """
    lang = p.lang
    frame = tables.assumptions_table(p.plan, lang)
    text_col, source_col, topic_col = tr("col.text", lang), tr("col.source", lang), tr("col.topic", lang)
    frame[text_col] = [_clean(v, p) for v in frame[text_col]]
    frame[source_col] = [_clean(v, p) or "—" for v in frame[source_col]]
    if p.internal:
        return frame[frame[text_col].str.strip() != ""]
    shown = frame[(frame[text_col].str.strip() != "") & ~frame[topic_col].str.startswith(ANALYSIS_TOPICS)]
    return shown.assign(**{topic_col: [_topic_label(t, lang) for t in shown[topic_col]]})


def _topic_label(topic: str, lang: str) -> str:
    """The reader's name of an assumption's topic: its catalog family, or the model's own choices
    (``model.link_lengths``)."""
    family = topic.partition(".")[0]
    return tr(f"family.{family}", lang) if family in FAMILIES else tr("family.model", lang)


def _references_table(frame: pd.DataFrame, source_col: str, *, caption: str) -> Table:
    """The assumptions and sources table with each source set as a citation.

    A source is a bibliographic reference, the title of a published document ("The Llama 3 Herd
    of Models", "Foreign Exchange Rates G.5"): a reader looks it up by that title, so it stays in
    the language it was published in, set apart in a smaller font (:class:`Cell` ``citation``).
    Rows without a source show a dash, which is no citation.
    """
    columns = [str(c) for c in frame.columns]
    at = columns.index(source_col)
    rows = [
        [Cell(v, citation=True) if i == at and v != "—" else v for i, v in enumerate(map(str, row))]
        for row in frame.itertuples(index=False)
    ]
    return Table.of(columns, rows, widths=[10.0, 19.0, 49.0, 22.0], compact=True, caption=caption)


# --- document sections ------------------------------------------------------------------------------


def _scope(p: Proposal) -> str:
    """The cluster in one line (GPUs, servers, racks), for the cover and the workbook's facts."""
    plan = p.plan
    return tr(
        "export.meta.scope_value",
        p.lang,
        gpus=fmt.number(plan.gpus),
        nodes=fmt.number(plan.nodes),
        racks=fmt.number(plan.racks.total),
    )


def _cover(doc: HtmlDocument, p: Proposal, pages: Sequence[int] | None) -> None:
    """The cover, with the contents (``pages``: each section's first page, ``None`` = unknown)."""
    o, lang, plan = p.options, p.lang, p.plan
    numbers: Sequence[int | None] = pages if pages is not None else [None] * len(sections(p))
    doc.cover(
        kicker=tr("export.kicker", lang),
        title=_title(p),
        subtitle=tr(
            "export.subtitle",
            lang,
            gpus=fmt.number(plan.gpus),
            gpu=plan.gpu_name,
            design=p.names[plan.design_id],
        ),
        meta=[
            (tr("export.meta.customer", lang), o.customer),
            (tr("export.meta.project", lang), o.project),
            (tr("export.meta.scope", lang), _scope(p)),
            (tr("export.meta.author", lang), o.author),
            (tr("export.meta.date", lang), _date(o.date, lang)),
            (tr("export.meta.version", lang), o.version),
        ],
        edition_label=tr(f"export.edition.{o.edition}", lang),
        edition_note=tr(f"export.edition_note.{o.edition}", lang, currency=_currency(p)),
        confidential=tr("export.confidential", lang) if p.internal else "",
        logo_uri=logo_data_uri(o.logo) if o.logo else None,
        notes_title=tr("export.notes", lang),
        notes=o.notes,
        contents_title=tr("export.contents", lang),
        contents=[
            ContentsEntry(tr(key, lang), anchor, page)
            for (key, anchor), page in zip(sections(p), numbers, strict=True)
        ],
    )


def _per_gpu_hour(plan: Plan, lang: str) -> str:
    """``2.41 USD/GPU-hour`` in the plan's report currency."""
    money = tables.money_of(plan)
    unit = tables.unit_label(tables.METRICS["usd_per_gpu_hour"], money.currency, lang)
    return f"{fmt.number(money(plan.cost.usd_per_gpu_hour), 2)} {unit}"


def _recommendation(doc: HtmlDocument, p: Proposal) -> None:
    """The recommended design in bold, the rule that chose it, and the runner-up."""
    lang, plan, names = p.lang, p.plan, p.names
    best = p.priced(p.recommended_id)
    common = {"gpus": fmt.number(plan.gpus), "gpu": plan.gpu_name}
    doc.paragraph(
        _with_bold(tr("export.summary.recommend", lang, design="\0", **common), names[p.proposed_id]),
        style="lead",
    )
    if p.scenario.workload:  # the rule and the runner-up by the cost of the work follow
        return
    f = p.scenario.facility
    doc.paragraph(
        tr(
            "export.summary.rule",
            lang,
            count=len(p.cost_plans),
            value=_per_gpu_hour(best, lang),
            years=best.cost.years,
            rate=fmt.percent(best.cost.discount_rate, 1),
            util=fmt.percent(f.utilization),
        )
    )
    pool = sorted(
        (q for q in p.priced_plans if q.design_id in p.eligible_ids and q.design_id != best.design_id),
        key=lambda q: q.cost.usd_per_gpu_hour,
    )
    if not pool or not p.options.compare_designs:
        return
    other = pool[0]
    doc.paragraph(
        tr(
            "export.summary.runner_up",
            lang,
            design=names[other.design_id],
            value=_per_gpu_hour(other, lang),
            delta=fmt.percent(other.cost.usd_per_gpu_hour / best.cost.usd_per_gpu_hour - 1, 1),
        )
    )


def _override(doc: HtmlDocument, p: Proposal) -> None:
    """The design proposed when the rule recommends another, and what the recommendation saves."""
    lang, plan, names = p.lang, p.plan, p.names
    proposed, best = p.priced(p.proposed_id), p.priced(p.recommended_id)
    common = {"gpus": fmt.number(plan.gpus), "gpu": plan.gpu_name}
    doc.paragraph(
        _with_bold(tr("export.summary.proposed", lang, design="\0", **common), names[p.proposed_id]),
        style="lead",
    )
    doc.paragraph(
        tr(
            "export.summary.override",
            lang,
            best=names[best.design_id],
            delta=fmt.percent(1 - best.cost.usd_per_gpu_hour / proposed.cost.usd_per_gpu_hour, 1),
            value=_per_gpu_hour(best, lang),
        )
    )


def _exclusions(doc: HtmlDocument, p: Proposal) -> None:
    """A warning for every design left out because its racks cannot be cooled."""
    lang = p.lang
    if not p.eligible_ids and len(p.cost_plans) > 1:
        doc.callout(tr("export.summary.none_eligible", lang), warning=True)
    for q in p.priced_plans:
        if q.design_id not in p.eligible_ids and p.eligible_ids:
            doc.callout(
                tr(
                    "export.summary.excluded",
                    lang,
                    design=p.names[q.design_id],
                    kw=fmt.number(q.cooling.max_rack_kw, 1),
                    limit=f"{q.cooling.cooling_limit_kw_per_rack:g}",
                ),
                warning=True,
            )


def _key_numbers(doc: HtmlDocument, p: Proposal) -> None:
    """Headline figures of the proposed design and what bounds its bandwidth."""
    lang, plan = p.lang, p.plan
    doc.heading(tr("export.summary.key_numbers", lang))
    cards = tables.kpis(plan, lang, units=p.options.units)
    doc.kpis([(tr(c.key, lang, years=plan.cost.years), c.value) for c in cards])
    bw = plan.bandwidth
    doc.heading(tr("export.summary.bandwidth", lang))
    doc.paragraph(
        tr(
            "note.bound",
            lang,
            allreduce=tr_enum("level", bw.allreduce_bound, lang),
            alltoall=tr_enum("level", bw.alltoall_bound, lang),
            scale_up=fmt.number(bw.scale_up_gbyte_per_s),
            network=fmt.number(bw.network_gbyte_per_s),
        )
    )
    if not plan.cooling.density_feasible:
        doc.callout(_density_note(plan, lang), warning=True)


def _summary(doc: HtmlDocument, p: Proposal) -> None:
    doc.section(tr("export.sec.summary", p.lang), "summary")
    if len(p.cost_plans) == 1:
        doc.paragraph(tr("export.summary.single", p.lang), style="lead")
    elif p.proposed_id == p.recommended_id:
        _recommendation(doc, p)
    else:
        _override(doc, p)
    _exclusions(doc, p)
    if p.decision is not None:
        recommendation_section.write_summary(
            doc, p.decision, catalog=p.catalog, names=p.names, lang=p.lang,
            compare_designs=p.options.compare_designs, proposed_id=p.proposed_id,
        )  # fmt: skip
    if len(p.cost_plans) > 1 and p.options.compare_designs:
        _glance(doc, p)
    _key_numbers(doc, p)


GLANCE_COLUMNS = (
    "usd_per_gpu_hour",
    "capex_usd",
    "tco_usd",
    "allreduce_busbw_gbyte_per_s",
    "alltoall_busbw_gbyte_per_s",
    "it_kw",
)


def _glance(doc: HtmlDocument, p: Proposal) -> None:
    """One row per compared design with the figures the recommendation weighs."""
    lang = p.lang
    money = tables.money_of(p.plan)
    frame = tables.summary(p.shown_plans, money)
    headers = [
        tr("col.design", lang),
        *[tables.metric_label(c, money.currency, lang, p.options.units) for c in GLANCE_COLUMNS],
    ]
    rows = []
    for _, row in frame.iterrows():
        design = str(row["design"])
        chosen = design == p.proposed_id
        cells: list[str | Cell] = [Cell(p.names[design], strong=chosen, highlight=chosen)]
        cells += [
            Cell(tables.metric_value(c, float(row[c]), lang, p.options.units), strong=chosen)
            for c in GLANCE_COLUMNS
        ]
        rows.append(cells)
    doc.heading(tr("export.summary.glance", lang))
    doc.table(
        Table.of(headers, rows, numeric=range(1, len(headers)), widths=[25.0, *[12.5] * len(GLANCE_COLUMNS)])
    )


def _with_bold(sentence: str, bold: str) -> list[str | Strong]:
    """A translated sentence whose ``\\0`` placeholder becomes ``bold`` in bold."""
    before, _, after = sentence.partition("\0")
    return [before, Strong(bold), after]


def _density_note(plan: Plan, lang: str) -> str:
    return tr(
        "note.density",
        lang,
        kw=fmt.number(plan.cooling.max_rack_kw, 1),
        limit=f"{plan.cooling.cooling_limit_kw_per_rack:g}",
    )


def _compare(doc: HtmlDocument, p: Proposal, images: Mapping[str, str]) -> None:
    lang = p.lang
    doc.section(tr("export.sec.compare", lang), "compare")
    doc.paragraph(tr("compare.same_gpu", lang, gpu=p.plan.gpu_name, count=len(p.shown_plans)))
    frame = tables.compare_table(p.shown_plans, dict(p.names), lang, units=p.options.units)
    headers = [tr("col.metric", lang), *[str(c) for c in frame.columns]]
    rows = []
    for label, values in frame.iterrows():
        cells: list[str | Cell] = [str(label)]
        cells += [Cell(str(v), highlight=str(v).endswith("★")) for v in values]
        rows.append(cells)
    doc.table(
        Table.of(
            headers,
            rows,
            numeric=range(1, len(headers)),
            widths=[34.0, *[66.0 / (len(headers) - 1)] * (len(headers) - 1)],
            caption=tr("compare.table_caption", lang),
        )
    )
    _pools(doc, p)
    doc.figure(images["compare_bars"])
    doc.figure(images["cost_stack"])
    doc.figure(images["radar"], caption=tr("compare.radar_caption", lang), width_pct=86)
    doc.figure(images["busbw"])


def _pools(doc: HtmlDocument, p: Proposal) -> None:
    """The compute, storage and front-end pools of the shown designs (:func:`tables.pools_table`)."""
    lang = p.lang
    frame = tables.pools_table(p.shown_plans, dict(p.names), lang)
    headers = [str(frame.index.name), *[str(c) for c in frame.columns]]
    rows: list[list[str | Cell]] = [
        [str(label), *[str(v) for v in values]] for label, values in frame.iterrows()
    ]
    doc.table(
        Table.of(
            headers,
            rows,
            widths=[28.0, *[72.0 / (len(headers) - 1)] * (len(headers) - 1)],
            caption=tr("pools.caption", lang),
        )
    )


def _topology(doc: HtmlDocument, p: Proposal, images: Mapping[str, str]) -> None:
    lang, plan = p.lang, p.plan
    doc.section(tr("export.sec.topology", lang), "topology")
    doc.figure(images["topology"])
    doc.heading(tr("topology.tiers", lang))
    tier = tables.tier_table(plan, lang)
    doc.table(_table(tier, numeric=list(tier.columns[1:])))
    # an anchor for the per-port cabling appendix planned for a later release to link to
    doc.heading(tr("export.cabling", lang), anchor="cabling")
    media = tables.media_table(plan, p.catalog, lang)
    doc.table(
        _table(
            media,
            numeric=[tr("col.links", lang), tr("col.length_m", lang)],
            widths=[10.0, 8.0, 8.0, 11.0, 19.0, 22.0, 22.0],
            compact=True,
            caption=tr("export.cabling_caption", lang),
        )
    )
    doc.heading(tr("topology.latency", lang))
    doc.figure(images["latency"])


def _category_label(category: str, lang: str) -> str:
    return tr_enum("bom_category", category, lang) if category in BOM_CATEGORIES else category


def _ordered_categories(records: Sequence[Mapping[str, Any]]) -> list[str]:
    present = list(dict.fromkeys(str(r["category"]) for r in records))
    return [c for c in BOM_CATEGORIES if c in present] + [c for c in present if c not in BOM_CATEGORIES]


def _bom(doc: HtmlDocument, p: Proposal, images: Mapping[str, str]) -> None:
    lang = p.lang
    doc.section(tr("export.sec.bom", lang), "bom")
    records = _records(p)
    currency = _currency(p)
    total_price = bom_csv_module.total(records)
    categories = _ordered_categories(records)

    def amount(category: str, column: str) -> float:
        return round(sum(float(r[column]) for r in records if r["category"] == category), 2)

    doc.heading(tr("export.bom.by_category", lang))
    headers = [tr("col.category", lang)]
    if p.internal:
        headers.append(tr("export.col.cost_amount", lang, currency=currency))
    headers += [tr("export.col.amount", lang, currency=currency), tr("export.col.share", lang)]
    rows: list[Row] = []
    for category in categories:
        cells = [_category_label(category, lang)]
        if p.internal:
            cells.append(fmt.number(amount(category, "total_cost"), 2))
        value = amount(category, "total_price")
        cells += [fmt.number(value, 2), fmt.percent(value / total_price if total_price else 0.0, 1)]
        rows.append(Row(tuple(cells)))
    total_cells = [tr("export.bom.total", lang)]
    if p.internal:
        total_cells.append(fmt.number(bom_csv_module.total(records, "total_cost"), 2))
    total_cells += [fmt.number(total_price, 2), fmt.percent(1.0 if total_price else 0.0, 1)]
    rows.append(Row(tuple(total_cells), kind="total"))
    doc.table(Table(headers=tuple(headers), rows=tuple(rows), numeric=frozenset(range(1, len(headers)))))
    doc.figure(images["cost_by_category"])

    doc.heading(tr("export.bom.lines", lang))
    headers = [tr("export.col.line", lang), tr("col.description", lang), tr("col.quantity", lang)]
    if p.internal:
        headers += [
            tr("export.col.unit_cost", lang, currency=currency),
            tr("export.col.cost_amount", lang, currency=currency),
        ]
    headers += [
        tr("export.col.unit_price", lang, currency=currency),
        tr("export.col.amount", lang, currency=currency),
    ]
    lines: list[Row] = []
    for category in categories:
        lines.append(Row((_category_label(category, lang),), kind="group"))
        for r in (r for r in records if r["category"] == category):
            description = translate_text(_text_cell(r["description"]), lang)
            cells = [str(r["line"]), description, fmt.number(float(r["quantity"]))]
            if p.internal:
                cells += [fmt.number(float(r["unit_cost"]), 2), fmt.number(float(r["total_cost"]), 2)]
            cells += [fmt.number(float(r["unit_price"]), 2), fmt.number(float(r["total_price"]), 2)]
            lines.append(Row(tuple(cells)))
        subtotal = ["", tr("export.bom.subtotal", lang), ""]
        if p.internal:
            subtotal += ["", fmt.number(amount(category, "total_cost"), 2)]
        subtotal += ["", fmt.number(amount(category, "total_price"), 2)]
        lines.append(Row(tuple(subtotal), kind="subtotal"))
    grand = ["", tr("export.bom.total", lang), ""]
    if p.internal:
        grand += ["", fmt.number(bom_csv_module.total(records, "total_cost"), 2)]
    grand += ["", fmt.number(total_price, 2)]
    lines.append(Row(tuple(grand), kind="total"))
    widths = [6.0, 46.0, 10.0, 18.0, 20.0] if not p.internal else [6.5, 31.5, 8.0, 12.0, 14.0, 13.0, 15.0]
    doc.table(
        Table(
            headers=tuple(headers),
            rows=tuple(lines),
            numeric=frozenset(range(2, len(headers))),
            widths=tuple(widths),
            compact=True,
            caption=tr("export.bom.caption", lang, currency=currency),
        )
    )


def _power(doc: HtmlDocument, p: Proposal, images: Mapping[str, str]) -> None:
    lang, plan = p.lang, p.plan
    doc.section(tr("export.sec.power", lang), "power")
    pw, co, racks = plan.power, plan.cooling, plan.racks
    feasible = tr("export.power.ok" if co.density_feasible else "export.power.over", lang)

    def kw(value_kw: float) -> str:  # in the reader's power unit (kW or BTU/h)
        return display.power(value_kw, p.options.units.power, lang)

    items = [
        (tr("export.power.it_max", lang), kw(pw.it_kw)),
        (
            tr("export.power.it_avg", lang, load=fmt.percent(plan.scenario.facility.load_factor)),
            kw(pw.it_avg_kw),
        ),
        (tr("export.power.pue", lang), f"{pw.pue:.2f}"),
        (tr("export.power.facility", lang), kw(pw.facility_kw)),
        (
            tr("export.power.heat", lang),
            f"{fmt.number(co.heat_load_kw, 1)} kW · {fmt.number(co.heat_load_btu_per_h)} BTU/h · "
            f"{fmt.number(co.refrigeration_tons, 1)} RT",
        ),
        (tr("export.power.liquid", lang), kw(co.liquid_kw)),
        (tr("export.power.air", lang), kw(co.air_kw)),
        (tr("export.power.coolant", lang), f"{fmt.number(co.coolant_flow_l_per_min)} L/min"),
        (
            tr("export.power.airflow", lang),
            f"{fmt.number(co.airflow_m3_per_s, 1)} m³/s · {fmt.number(co.airflow_cfm)} CFM",
        ),
        (tr("export.power.cdus", lang), fmt.number(co.cdus)),
        (
            tr("export.power.racks", lang),
            tr(
                "export.power.racks_value",
                lang,
                total=fmt.number(racks.total),
                compute=fmt.number(racks.compute_racks),
                network=fmt.number(racks.network_racks),
            ),
        ),
        (
            tr("export.power.density", lang),
            f"{fmt.number(co.max_rack_kw, 1)} kW / {co.cooling_limit_kw_per_rack:g} kW ({feasible})",
        ),
    ]
    doc.table(Table.of([tr("col.item", lang), tr("col.value", lang)], items, widths=[45.0, 55.0]))
    if not co.density_feasible:
        doc.callout(_density_note(plan, lang), warning=True)
    doc.figure(images["power_by_category"], width_pct=82)
    doc.figure(images["racks"])
    doc.heading(tr("topology.racks", lang))
    racks_frame = tables.rack_table(plan, lang)
    doc.table(
        _table(
            racks_frame,
            numeric=[tr("col.count", lang), tr("col.kw_per_rack", lang), tr("col.limit_kw", lang)],
            widths=[15.0, 8.0, 41.0, 14.0, 11.0, 11.0],
        )
    )


def _cost(doc: HtmlDocument, p: Proposal) -> None:
    lang, plan = p.lang, p.plan
    doc.section(tr("export.sec.cost", lang), "cost")
    money = tables.money_of(plan)
    currency = _currency(p)
    c = plan.cost
    opex = c.opex_by_item_usd_per_year

    def m(usd: float, digits: int = 0) -> str:
        return fmt.number(money(usd), digits)

    items: list[tuple[str, str]] = [
        (tr("export.cost.capex", lang), m(c.capex_usd)),
        (tr("bom.hardware", lang), m(c.hardware_usd)),
        (tr("export.cost.opex", lang), m(c.opex_usd_per_year)),
        ("  · " + tr("export.cost.energy", lang), m(opex.get("energy", 0.0))),
        ("  · " + tr("export.cost.maintenance", lang), m(opex.get("maintenance", 0.0))),
        ("  · " + tr("export.cost.space", lang), m(opex.get("space", 0.0))),
        (tr("export.cost.tco", lang, years=c.years, rate=fmt.percent(c.discount_rate, 1)), m(c.tco_usd)),
        (tr("export.cost.per_gpu", lang), m(c.usd_per_gpu)),
        (tr("kpi.gpu_hour", lang), m(c.usd_per_gpu_hour, 2)),
    ]
    doc.table(
        Table.of(
            [tr("col.item", lang), tr("export.col.amount", lang, currency=currency)],
            items,
            numeric=[1],
            widths=[62.0, 38.0],
        )
    )
    if not p.internal and p.options.pricing.discount > 0:
        doc.paragraph(tr("export.cost.discounted", lang, discount=fmt.percent(p.options.pricing.discount, 1)))
    doc.heading(tr("export.cost.by_design", lang))
    columns = ("capex_usd", "opex_usd_per_year", "tco_usd", "usd_per_gpu_hour")
    frame = tables.summary(p.shown_plans, money)
    shown = p.options.units
    headers = [
        tr("col.design", lang),
        *[tables.metric_label(col, money.currency, lang, shown) for col in columns],
    ]
    rows = [
        [
            p.names[str(row["design"])],
            *[tables.metric_value(col, float(row[col]), lang, shown) for col in columns],
        ]
        for _, row in frame.iterrows()
    ]
    doc.table(Table.of(headers, rows, numeric=range(1, len(headers))))
    if p.internal:
        _commercial(doc, p)


def _commercial(doc: HtmlDocument, p: Proposal) -> None:
    lang, pricing = p.lang, p.options.pricing
    records = _records(p)
    cost = bom_csv_module.total(records, "total_cost")
    offered = bom_csv_module.total(records)
    listed = round(sum(float(r["total_cost"]) * pricing.list_factor for r in records), 2)
    profit = offered - cost
    doc.heading(tr("export.commercial", lang))
    items = [
        (tr("export.commercial.cost", lang), fmt.number(cost, 2)),
        (tr("export.commercial.margin", lang), fmt.percent(pricing.margin, 1)),
        (tr("export.commercial.list", lang), fmt.number(listed, 2)),
        (tr("export.commercial.discount", lang), fmt.percent(pricing.discount, 1)),
        (tr("export.commercial.net", lang), fmt.number(offered, 2)),
        (tr("export.commercial.profit", lang), fmt.number(profit, 2)),
        (tr("export.commercial.effective", lang), fmt.percent(profit / offered if offered else 0.0, 1)),
    ]
    currency = _currency(p)
    doc.table(
        Table.of(
            [tr("col.item", lang), tr("export.col.amount", lang, currency=currency)],
            items,
            numeric=[1],
            widths=[62.0, 38.0],
        )
    )
    if profit < 0:
        doc.callout(tr("export.commercial.below_cost", lang), warning=True)


def _assumptions(doc: HtmlDocument, p: Proposal) -> None:
    lang, plan = p.lang, p.plan
    doc.section(tr("export.sec.assumptions", lang), "assumptions")
    doc.paragraph(tr("export.disclaimer", lang), style="note")
    doc.heading(tr("export.assumptions.scenario", lang))
    doc.table(_table(tables.scenario_rows(plan, p.catalog, lang), widths=[35.0, 65.0]))
    doc.heading(tr("compare.claims", lang))
    claims = tables.claims_table(p.shown_plans, p.catalog, dict(p.names), lang)
    if claims.empty:
        doc.paragraph(tr("compare.no_claims", lang))
    else:
        doc.table(
            _table(
                claims,
                widths=[18.0, 30.0, 9.0, 30.0, 13.0],
                compact=True,
                caption=tr("compare.claims_caption", lang),
            )
        )
    doc.heading(tr("export.assumptions.list", lang))
    frame = _assumption_rows(p)
    kinds = list(frame[tr("col.kind", lang)])  # the rows shown, so the caption counts what it lists
    caption = tr(
        "assumptions.caption",
        lang,
        sources=kinds.count(tr_enum("assumption_kind", "source", lang)),
        assumptions=kinds.count(tr_enum("assumption_kind", "assumption", lang)),
    )
    if not p.internal:
        caption += " " + tr("export.assumptions.redacted", lang)
    doc.table(_references_table(frame, tr("col.source", lang), caption=caption))
    notes = [_clean(n, p) for n in plan.notes]
    notes = [n for n in notes if n]
    if notes:
        doc.heading(translate(msg("Further model notes"), lang))
        for note in notes:
            doc.paragraph("• " + note, style="note")


def proposal_html(
    p: Proposal,
    images: Mapping[str, str],
    *,
    pages: Sequence[int] | None = None,
    alt_texts: Mapping[str, str] | None = None,
) -> str:
    """The whole document as print-ready HTML (``images``: chart data URIs by name; ``pages``:
    the first page of each section for the contents, ``None`` = a contents without numbers)."""
    alt_by_uri = {images[key]: text for key, text in (alt_texts or {}).items() if key in images}
    doc = HtmlDocument(lang="zh-CN" if p.lang == "zh" else "en", title=_title(p), alt_texts=alt_by_uri)
    _cover(doc, p, pages)
    _summary(doc, p)
    if p.options.compare_designs:
        _compare(doc, p, images)
    _topology(doc, p, images)
    _bom(doc, p, images)
    _power(doc, p, images)
    _cost(doc, p)
    tenancy_section.write_section(doc, p.tenancy, p.plan, p.lang)
    serving_section.write_section(doc, p.serving, p.names, p.lang)
    elevations_section.write_section(doc, p.elevations, p.lang)
    _assumptions(doc, p)
    return doc.render()


SECTIONS = (
    ("export.sec.summary", "summary"),
    ("export.sec.compare", "compare"),
    ("export.sec.topology", "topology"),
    ("export.sec.bom", "bom"),
    ("export.sec.power", "power"),
    ("export.sec.cost", "cost"),
    ("export.sec.assumptions", "assumptions"),
)
"""Section title keys and anchors in document order (the contents lists them)."""
SECTION_KEYS = tuple(key for key, _ in SECTIONS)
"""Section titles in document order (tests check each appears in the PDF)."""


def sections(p: Proposal) -> tuple[tuple[str, str], ...]:
    """:data:`SECTIONS` of this proposal: the tenancy and serving sections before the assumptions
    when the scenario has tenants or a serving request, then the rack elevations."""
    extra = [
        (section.SECTION_KEY, section.ANCHOR)
        for section, shown in ((tenancy_section, p.tenancy), (serving_section, p.serving))
        if shown is not None
    ]
    elevations = (elevations_section.SECTION_KEY, elevations_section.ANCHOR)
    shown = [s for s in SECTIONS if p.options.compare_designs or s[1] != "compare"]
    return (*shown[:-1], *extra, elevations, shown[-1])


def page_setup(p: Proposal) -> PageSetup:
    """A4 with the footer (title, customer, author, date, version, edition; page x of y) on
    every page: the date, version, edition and page number are never shortened; a customer or
    author name is capped, and the title takes the width left (see :class:`FooterPart`)."""
    o, lang = p.options, p.lang
    parts = [
        FooterPart(_title(p), "fill"),
        FooterPart(o.customer, "capped"),
        FooterPart(o.author, "capped"),
        FooterPart(_date(o.date, lang)),
        FooterPart(f"{tr('export.meta.version', lang)} {o.version}"),
        FooterPart(tr(f"export.edition.{o.edition}", lang)),
    ]
    return PageSetup(
        footer_html=footer_template(parts, tr("export.footer_page", lang)),
        header_html=header_template(tr("export.confidential", lang) if p.internal else ""),
    )


def render_pdf(p: Proposal, *, browser: Browser | None = None) -> bytes:
    """The proposal as PDF bytes (charts and printing by the shared long-lived browser).

    Printed twice: Chromium's printing has no ``target-counter()``, so the first print, with a
    contents without numbers, is read back (:func:`planner.report.export.preview.first_pages`)
    to learn where each section starts, and the second fills in the numbers. The contents sits
    on the fixed-height cover, so the numbers move no other page. Without poppler's
    ``pdftotext`` the first print is the document: a contents without page numbers.
    """
    engine = browser or shared_browser()
    images, alt_texts = chart_images_and_alt_texts(p, engine)
    setup = page_setup(p)
    draft = engine.print_pdf(proposal_html(p, images, alt_texts=alt_texts), setup=setup)
    try:
        pages = first_pages(
            draft,
            [tr(key, p.lang) for key, _ in sections(p)],
            ignore=tr("export.confidential", p.lang) if p.internal else "",
        )
    except RenderError:
        return draft
    if pages is None:
        return draft
    return engine.print_pdf(proposal_html(p, images, pages=pages, alt_texts=alt_texts), setup=setup)


# --- files ---------------------------------------------------------------------------------------------


def bom_csv(p: Proposal) -> bytes:
    """The proposed design's BOM as CSV (columns of :mod:`planner.report.export.csv`, by edition)."""
    return bom_csv_module.write_bom_csv(_records(p), edition=p.options.edition)


def scenario_json(p: Proposal) -> bytes:
    """The scenario as JSON that reopens it exactly."""
    return export_scenario_json(p.scenario)


_CSV_KINDS: Mapping[str, ColumnKind] = {
    **dict.fromkeys(bom_csv_module.INTEGER_COLUMNS, "integer"),
    **dict.fromkeys(bom_csv_module.MONEY_COLUMNS, "money"),
    **dict.fromkeys(bom_csv_module.FRACTION_COLUMNS, "fraction"),
}


def _bom_headers(lang: str, currency: str) -> dict[str, str]:
    return {
        "line": tr("export.col.line", lang),
        "category": tr("export.col.category_id", lang),
        "id": tr("export.col.item_id", lang),
        "description": tr("col.description", lang),
        "quantity": tr("col.quantity", lang),
        "unit_price": tr("export.col.unit_price", lang, currency=currency),
        "total_price": tr("export.col.amount", lang, currency=currency),
        "currency": tr("export.col.currency", lang),
        "customer": tr("export.col.customer", lang),
        "project": tr("export.col.project", lang),
        "version": tr("export.col.version", lang),
        "unit_cost": tr("export.col.unit_cost", lang, currency=currency),
        "total_cost": tr("export.col.cost_amount", lang, currency=currency),
        "margin_fraction": tr("export.col.margin", lang),
        "discount_fraction": tr("export.col.discount", lang),
        "source": tr("col.source", lang),
    }


def _frame_sheet(title: str, frame: pd.DataFrame, kinds: Mapping[str, ColumnKind] | None = None) -> Sheet:
    columns = tuple(Column(str(c), str(c), (kinds or {}).get(str(c), "text")) for c in frame.columns)
    rows = tuple({str(k): v for k, v in record.items()} for record in frame.to_dict(orient="records"))
    return Sheet(title=title, columns=columns, rows=rows)


def workbook_sheets(p: Proposal) -> list[Sheet]:
    """Sheets of the XLSX: proposal facts, BOM, design comparison, cabling, assumptions."""
    o, lang, plan = p.options, p.lang, p.plan
    currency = _currency(p)
    item, value = tr("col.item", lang), tr("col.value", lang)
    facts = [
        (tr("export.meta.customer", lang), o.customer),
        (tr("export.meta.project", lang), o.project),
        (tr("export.meta.author", lang), o.author),
        (tr("export.meta.date", lang), o.date.isoformat()),
        (tr("export.meta.version", lang), o.version),
        (tr("export.sheet.edition", lang), tr(f"export.edition.{o.edition}", lang)),
        (tr("export.sheet.language", lang), lang),
        (tr("export.form.proposed", lang), p.names[p.proposed_id]),
        (tr("export.sheet.recommended", lang), p.names[p.recommended_id]),
        (tr("export.meta.scope", lang), _scope(p)),
        (tr("export.notes", lang), o.notes),
    ]
    info = Sheet(
        title=tr("export.sheet.proposal", lang),
        columns=(Column("item", item), Column("value", value)),
        rows=tuple({"item": k, "value": v} for k, v in facts),
        widths={"item": 24, "value": 70},
    )
    headers = _bom_headers(lang, currency)
    bom = Sheet(
        title=tr("export.sheet.bom", lang),
        columns=tuple(
            Column(c, headers[c], _CSV_KINDS.get(c, "text")) for c in bom_csv_module.COLUMNS[o.edition]
        ),
        rows=tuple(_records(p)),
        widths={"description": 60, "source": 60},
    )
    money = tables.money_of(plan)
    summary = tables.summary(p.shown_plans, money)
    metric_columns = [m for m in tables.COMPARE_METRICS if m.column in summary.columns]
    compare_rows = []
    for _, row in summary.iterrows():
        record: dict[str, Any] = {"design": p.names[str(row["design"])]}
        record |= {m.column: float(row[m.column]) for m in metric_columns}
        compare_rows.append(record)
    comparison = Sheet(
        title=tr("export.sheet.compare", lang),
        columns=(
            Column("design", tr("col.design", lang)),
            *(
                Column(
                    m.column,
                    tables.metric_label(m.column, money.currency, lang),
                    "integer" if m.unit == "" else "money" if m.is_money else "number",
                    number_format=None if m.is_money or m.unit == "" else "#,##0." + "0" * max(m.digits, 1),
                )
                for m in metric_columns
            ),
        ),
        rows=tuple(compare_rows),
    )
    cabling = _frame_sheet(tr("export.sheet.cabling", lang), tables.media_table(plan, p.catalog, lang))
    assumptions = _frame_sheet(tr("export.sheet.assumptions", lang), _assumption_rows(p))
    tenancy = tenancy_section.tenancy_sheets(p.tenancy, plan, lang)
    serving = serving_section.serving_sheets(p.serving, p.names, lang)
    return [info, bom, comparison, cabling, *tenancy, *serving, assumptions]


def workbook(p: Proposal) -> bytes:
    """The XLSX workbook (BOM, design comparison, cabling, assumptions) of the edition."""
    return write_xlsx(workbook_sheets(p), title=_title(p), author=p.options.author)


FileKind = Literal["pdf", "csv", "xlsx", "json"]


def file_name(p: Proposal, kind: FileKind) -> str:
    """Sanitised download name, e.g. ``ACME_GPU_pod_proposal_customer_v1.0.pdf``."""
    o = p.options
    what = {"pdf": "proposal", "csv": "bom", "xlsx": "workbook", "json": "scenario"}[kind]
    parts = [o.customer, o.project, what]
    if kind != "json":
        parts += [o.edition, f"v{o.version}"]
    return safe_filename(*parts, ext=kind, fallback=what)


WRITERS: Mapping[str, Callable[[Proposal], bytes]] = {"csv": bom_csv, "xlsx": workbook, "json": scenario_json}
"""Writers of the non-PDF files by kind."""
