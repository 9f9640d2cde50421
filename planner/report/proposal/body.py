"""The proposal's body sections (HTML): design comparison, topology and cabling, bill of
materials, power and cooling, cost and TCO (with the commercial terms in the internal edition)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from planner.i18n import tr
from planner.report import display, fmt, tables
from planner.report.export import csv as bom_csv_module
from planner.report.export.html import (
    Cell,
    HtmlDocument,
    Row,
    Table,
)
from planner.report.proposal.html_parts import density_note, table_of
from planner.report.proposal.model import (
    Proposal,
    bom_headers,
    bom_records,
    category_label,
    currency_label,
    design_figures,
    ordered_categories,
    text_cell,
)


def write_compare(doc: HtmlDocument, p: Proposal, images: Mapping[str, str]) -> None:
    """The design comparison section: the metrics table (winners marked), the pools, then the
    comparison charts.

    Parameters
    ----------
    doc : HtmlDocument
        The document being written (appended to).
    p : Proposal
        The proposal (shown plans, names, options).
    images : Mapping[str, str]
        Chart data URIs by chart name (:func:`planner.report.proposal.figures.chart_images`).
    """
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
            widths=_label_first_widths(label_pct=34.0, values=len(headers) - 1),
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
            widths=_label_first_widths(label_pct=28.0, values=len(headers) - 1),
            caption=tr("pools.caption", lang),
        )
    )


def _label_first_widths(*, label_pct: float, values: int) -> list[float]:
    """Column widths [% of the table] of a label column of ``label_pct`` followed by ``values``
    columns, one per design, that share the rest evenly."""
    return [label_pct, *[(100.0 - label_pct) / values] * values]


def write_topology(doc: HtmlDocument, p: Proposal, images: Mapping[str, str]) -> None:
    """The topology section: the fabric diagram, switches per tier, media per link class and the
    latency breakdown.

    Parameters
    ----------
    doc : HtmlDocument
        The document being written (appended to).
    p : Proposal
        The proposal (its proposed plan and catalog).
    images : Mapping[str, str]
        Chart data URIs by chart name.
    """
    lang, plan = p.lang, p.plan
    doc.section(tr("export.sec.topology", lang), "topology")
    doc.figure(images["topology"])
    doc.heading(tr("topology.tiers", lang))
    tier = tables.tier_table(plan, lang)
    doc.table(table_of(tier, numeric=list(tier.columns[1:])))
    # an anchor for the per-port cabling appendix planned for a later release to link to
    doc.heading(tr("export.cabling", lang), anchor="cabling")
    media = tables.media_table(plan, p.catalog, lang)
    doc.table(
        table_of(
            media,
            numeric=[tr("col.links", lang), tr("col.length_m", lang)],
            widths=[10.0, 8.0, 8.0, 11.0, 19.0, 22.0, 22.0],
            compact=True,
            caption=tr("export.cabling_caption", lang),
        )
    )
    doc.heading(tr("topology.latency", lang))
    doc.figure(images["latency"])


def write_bom(doc: HtmlDocument, p: Proposal, images: Mapping[str, str]) -> None:
    """The BOM section: amounts per category, the cost chart and the BOM lines of the edition.

    Parameters
    ----------
    doc, p, images
        The document being written, the proposal, and chart data URIs by chart name.
    """
    lang = p.lang
    doc.section(tr("export.sec.bom", lang), "bom")
    records = bom_records(p)
    currency = currency_label(p)
    header = bom_headers(p)
    shown = _money_columns(p)
    total_price = bom_csv_module.total(records)
    categories = ordered_categories(records)

    def amount(category: str, column: str) -> float:
        return round(sum(float(r[column]) for r in records if r["category"] == category), 2)

    doc.heading(tr("export.bom.by_category", lang))
    headers = [tr("col.category", lang), *(header[total] for _, total in shown), tr("export.col.share", lang)]
    rows: list[Row] = []
    for category in categories:
        value = amount(category, "total_price")
        cells = [
            category_label(category, lang),
            *(fmt.number(amount(category, total), 2) for _, total in shown),
            fmt.percent(value / total_price if total_price else 0.0, 1),
        ]
        rows.append(Row(tuple(cells)))
    total_cells = [
        tr("export.bom.total", lang),
        *(fmt.number(bom_csv_module.total(records, total), 2) for _, total in shown),
        fmt.percent(1.0 if total_price else 0.0, 1),
    ]
    rows.append(Row(tuple(total_cells), kind="total"))
    doc.table(Table(headers=tuple(headers), rows=tuple(rows), numeric=frozenset(range(1, len(headers)))))
    doc.figure(images["cost_by_category"])

    doc.heading(tr("export.bom.lines", lang))
    headers = [header[c] for c in ("line", "description", "quantity", *(c for pair in shown for c in pair))]
    lines: list[Row] = []
    for category in categories:
        lines.append(Row((category_label(category, lang),), kind="group"))
        for r in (r for r in records if r["category"] == category):
            description = text_cell(r["description"])  # in the document's language already
            unit = p.cost_plan.bom[int(r["line"]) - 1].quantity_unit  # records follow the BOM's order
            quantity = fmt.number(float(r["quantity"])) + (f" {unit}" if unit else "")
            prices = (fmt.number(float(r[c]), 2) for pair in shown for c in pair)
            lines.append(Row((str(r["line"]), description, quantity, *prices)))
        subtotals = (fmt.number(amount(category, total), 2) for _, total in shown)
        lines.append(Row(_sum_cells(label=tr("export.bom.subtotal", lang), sums=subtotals), kind="subtotal"))
    totals = (fmt.number(bom_csv_module.total(records, total), 2) for _, total in shown)
    lines.append(Row(_sum_cells(label=tr("export.bom.total", lang), sums=totals), kind="total"))
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


def _money_columns(p: Proposal) -> tuple[tuple[str, str], ...]:
    """The (unit, total) BOM columns the edition shows: the cost (internal edition only), then the
    offered price; a customer document never shows the cost."""
    price = ("unit_price", "total_price")
    return (("unit_cost", "total_cost"), price) if p.internal else (price,)


def _sum_cells(*, label: str, sums: Iterable[str]) -> tuple[str, ...]:
    """A subtotal or total line of the BOM lines table: its label under the descriptions, each
    sum under its amount column (the unit-price columns left empty)."""
    return ("", label, "", *(cell for value in sums for cell in ("", value)))


def write_power(doc: HtmlDocument, p: Proposal, images: Mapping[str, str]) -> None:
    """The power and cooling section: IT and facility power in the reader's unit, PUE, rack density
    against the cooling limit, with the power and rack charts.

    Parameters
    ----------
    doc : HtmlDocument
        The document being written (appended to).
    p : Proposal
        The proposal (its proposed plan, options).
    images : Mapping[str, str]
        Chart data URIs by chart name.
    """
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
        doc.callout(density_note(plan, lang), warning=True)
    doc.figure(images["power_by_category"], width_pct=82)
    doc.figure(images["racks"])
    doc.heading(tr("topology.racks", lang))
    racks_frame = tables.rack_table(plan, lang)
    doc.table(
        table_of(
            racks_frame,
            numeric=[tr("col.count", lang), tr("col.kw_per_rack", lang), tr("col.limit_kw", lang)],
            widths=[15.0, 8.0, 41.0, 14.0, 11.0, 11.0],
        )
    )


def write_cost(doc: HtmlDocument, p: Proposal) -> None:
    """The cost section: CAPEX, yearly OPEX by item, TCO and the cost per GPU and per GPU-hour, in
    the report currency.

    Parameters
    ----------
    doc : HtmlDocument
        The document being written (appended to).
    p : Proposal
        The proposal (its proposed plan's cost [USD] and currency).
    """
    lang, plan = p.lang, p.plan
    doc.section(tr("export.sec.cost", lang), "cost")
    money = tables.money_of(plan)
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
    doc.table(_amounts(p, items))
    if not p.internal and p.options.pricing.discount > 0:
        doc.paragraph(tr("export.cost.discounted", lang, discount=fmt.percent(p.options.pricing.discount, 1)))
    doc.heading(tr("export.cost.by_design", lang))
    headers, figures = design_figures(
        p, columns=("capex_usd", "opex_usd_per_year", "tco_usd", "usd_per_gpu_hour")
    )
    rows = [[p.names[design], *values] for design, values in figures]
    doc.table(Table.of(headers, rows, numeric=range(1, len(headers))))
    if p.internal:
        _commercial(doc, p)


def _amounts(p: Proposal, items: list[tuple[str, str]]) -> Table:
    """A two-column table of items and their amounts in the report currency (cost, commercial terms)."""
    amount = tr("export.col.amount", p.lang, currency=currency_label(p))
    return Table.of([tr("col.item", p.lang), amount], items, numeric=[1], widths=[62.0, 38.0])


def _commercial(doc: HtmlDocument, p: Proposal) -> None:
    lang, pricing = p.lang, p.options.pricing
    records = bom_records(p)
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
    doc.table(_amounts(p, items))
    if profit < 0:
        doc.callout(tr("export.commercial.below_cost", lang), warning=True)
