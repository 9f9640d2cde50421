"""The proposal's document model: what the architect types (:class:`ProposalOptions`), the plans
behind the document and the design it proposes (:class:`Proposal`, :func:`build_proposal`), and the
small texts every part of the document shares (title, currency, dates, the BOM records)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from planner import Catalog, Plan, Scenario
from planner import plan as plan_scenario
from planner.compare import DEFAULT_DESIGNS, compare
from planner.cost import BOM_CATEGORIES
from planner.decision.draws import Decision
from planner.errors import InputError
from planner.i18n import tr, tr_enum, translate_text
from planner.inputs import parse
from planner.report import (
    elevations_section,
    fmt,
    recommendation_section,
    serving_section,
    tables,
    tenancy_section,
)
from planner.report.display import DisplayUnits
from planner.report.export import csv as bom_csv_module
from planner.report.export.html import (
    logo_data_uri,
)
from planner.report.export.pricing import Edition, Pricing, priced_plan, redact_prices
from planner.report.export.redact import redact_paths

Lang = Literal["en", "zh"]


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
    """Validate proposal options (and the logo image); :class:`InputError` names field and range.

    Parameters
    ----------
    data : Mapping[str, Any]
        Proposal options (customer, edition, pricing, designs, logo, ...).
    source : str
        Name of the input in error messages.

    Returns
    -------
    ProposalOptions
        The validated options.
    """
    options = parse(ProposalOptions, data, source=source)
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

    Parameters
    ----------
    scenario : Scenario
        The scenario.
    catalog : Catalog
        The catalog.
    options : ProposalOptions
        Document options (designs compared, pricing, edition, language).

    Returns
    -------
    Proposal
        Plans at cost and at offered prices, the proposed and recommended designs, names and the
        decision.
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


def date_text(day: dt.date, lang: str) -> str:
    """``2026-05-14`` or ``2026年5月14日``.

    Parameters
    ----------
    day : dt.date
        The date.
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        The date text.
    """
    return f"{day.year}年{day.month}月{day.day}日" if lang == "zh" else day.isoformat()


def title(p: Proposal) -> str:
    """The document title: the project's name, else the default title in the document's language.

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    str
        The title.
    """
    return p.options.project or tr("export.doc_title", p.lang)


def currency_label(p: Proposal) -> str:
    """The report currency's name in the document's language.

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    str
        The currency name.
    """
    return tr(f"currency.{p.plan.cost.currency}", p.lang)


def bom_records(p: Proposal) -> list[bom_csv_module.Record]:
    """The proposed design's BOM lines for the edition, each description in the document's
    language (the PDF, the CSV and the XLSX then say the same words).

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    list[Record]
        One record per BOM line (money at offered prices in the report currency).
    """
    o = p.options
    records = bom_csv_module.bom_records(
        p.cost_plan,
        pricing=o.pricing,
        edition=o.edition,
        customer=o.customer,
        project=o.project,
        version=o.version,
    )
    return [r | {"description": translate_text(text_cell(r["description"]), p.lang)} for r in records]


BOM_HEADER_KEYS: Mapping[str, str] = {
    "line": "export.col.line",
    "category": "export.col.category_id",
    "id": "export.col.item_id",
    "description": "col.description",
    "quantity": "col.quantity",
    "unit_price": "export.col.unit_price",
    "total_price": "export.col.amount",
    "currency": "export.col.currency",
    "customer": "export.col.customer",
    "project": "export.col.project",
    "version": "export.col.version",
    "unit_cost": "export.col.unit_cost",
    "total_cost": "export.col.cost_amount",
    "margin_fraction": "export.col.margin",
    "discount_fraction": "export.col.discount",
    "source": "col.source",
}
"""The BOM file's column -> its header key (money headers name the ``{currency}``)."""


def bom_headers(p: Proposal) -> dict[str, str]:
    """The header of each BOM column in the document's language, money headers naming the report
    currency (the PDF's BOM tables and the workbook's BOM sheet say the same words).

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    dict[str, str]
        Header per column of :data:`BOM_HEADER_KEYS`.
    """
    currency = currency_label(p)
    return {column: tr(key, p.lang, currency=currency) for column, key in BOM_HEADER_KEYS.items()}


def text_cell(value: bom_csv_module.Cell) -> str:
    """A record's text as it is (a :class:`~planner.i18n.message.Message` stays one).

    Parameters
    ----------
    value : Cell
        A record cell.

    Returns
    -------
    str
        The text.
    """
    return value if isinstance(value, str) else str(value)


def clean_text(text: str, p: Proposal) -> str:
    """An engine or catalog text in the document's language, as the edition may show it
    (customer: no price references, no repository paths or file names).

    Parameters
    ----------
    text : str
        Engine or catalog text.
    p : Proposal
        The proposal (language, edition).

    Returns
    -------
    str
        The text shown.
    """
    shown = translate_text(text, p.lang)
    return shown if p.internal else redact_paths(redact_prices(shown))


def scope_line(p: Proposal) -> str:
    """The cluster in one line (GPUs, servers, racks), for the cover and the workbook's facts.

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    str
        The line (counts [count]).
    """
    plan = p.plan
    return tr(
        "export.meta.scope_value",
        p.lang,
        gpus=fmt.number(plan.gpus),
        nodes=fmt.number(plan.nodes),
        racks=fmt.number(plan.racks.total),
    )


def per_gpu_hour(plan: Plan, lang: str) -> str:
    """``2.41 USD/GPU-hour`` in the plan's report currency.

    Parameters
    ----------
    plan : Plan
        The plan.
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        Price per GPU-hour with its unit [report currency/GPU-hour].
    """
    money = tables.money_of(plan)
    unit = tables.unit_label(tables.METRICS["usd_per_gpu_hour"], money.currency, lang)
    return f"{fmt.number(money(plan.cost.usd_per_gpu_hour), 2)} {unit}"


def design_figures(p: Proposal, *, columns: Sequence[str]) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The shown designs' figures on ``columns`` as the document writes them, in the report
    currency and the reader's units.

    Parameters
    ----------
    p : Proposal
        The proposal (shown plans, language, units).
    columns : Sequence[str]
        Metric columns of :data:`planner.report.tables.METRICS`.

    Returns
    -------
    tuple[list[str], list[tuple[str, list[str]]]]
        Headers (design, then each metric with its unit), and per design its id and one text per
        column.
    """
    lang, units = p.lang, p.options.units
    money = tables.money_of(p.plan)
    frame = tables.summary(p.shown_plans, money)
    headers = [
        tr("col.design", lang),
        *[tables.metric_label(c, money.currency, lang, units) for c in columns],
    ]
    figures = [
        (str(row["design"]), [tables.metric_value(c, float(row[c]), lang, units) for c in columns])
        for _, row in frame.iterrows()
    ]
    return headers, figures


def category_label(category: str, lang: str) -> str:
    """A BOM category in the document's language; an unknown category as given.

    Parameters
    ----------
    category : str
        BOM category.
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        The label.
    """
    return tr_enum("bom_category", category, lang) if category in BOM_CATEGORIES else category


def ordered_categories(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The BOM categories present in ``records``, in :data:`BOM_CATEGORIES` order, unknown ones after.

    Parameters
    ----------
    records : Sequence[Mapping[str, Any]]
        BOM records.

    Returns
    -------
    list[str]
        The categories.
    """
    present = list(dict.fromkeys(str(r["category"]) for r in records))
    return [c for c in BOM_CATEGORIES if c in present] + [c for c in present if c not in BOM_CATEGORIES]
