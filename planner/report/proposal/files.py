"""The proposal's table files: the BOM as CSV, the XLSX workbook and the scenario JSON."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import pandas as pd

from planner.i18n import tr
from planner.report import serving_section, tables, tenancy_section
from planner.report.export import csv as bom_csv_module
from planner.report.export.names import safe_filename
from planner.report.export.scenario_json import export_scenario_json
from planner.report.export.xlsx import Column, ColumnKind, Sheet, item_value_sheet, write_xlsx
from planner.report.proposal.assumptions import assumption_rows
from planner.report.proposal.model import Proposal, bom_headers, bom_records, scope_line, title


def bom_csv(p: Proposal) -> bytes:
    """The proposed design's BOM as CSV (columns of :mod:`planner.report.export.csv`, by edition).

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    bytes
        The CSV file.
    """
    return bom_csv_module.write_bom_csv(bom_records(p), edition=p.options.edition)


def scenario_json(p: Proposal) -> bytes:
    """The scenario as JSON that reopens it exactly.

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    bytes
        JSON text, UTF-8.
    """
    return export_scenario_json(p.scenario)


_CSV_KINDS: Mapping[str, ColumnKind] = {
    **dict.fromkeys(bom_csv_module.INTEGER_COLUMNS, "integer"),
    **dict.fromkeys(bom_csv_module.MONEY_COLUMNS, "money"),
    **dict.fromkeys(bom_csv_module.FRACTION_COLUMNS, "fraction"),
}


def _frame_sheet(title: str, frame: pd.DataFrame, kinds: Mapping[str, ColumnKind] | None = None) -> Sheet:
    columns = tuple(Column(str(c), str(c), (kinds or {}).get(str(c), "text")) for c in frame.columns)
    rows = tuple({str(k): v for k, v in record.items()} for record in frame.to_dict(orient="records"))
    return Sheet(title=title, columns=columns, rows=rows)


def workbook_sheets(p: Proposal) -> list[Sheet]:
    """Sheets of the XLSX: proposal facts, BOM, design comparison, cabling, assumptions.

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    list[Sheet]
        The sheets, in workbook order (money in the report currency).
    """
    o, lang, plan = p.options, p.lang, p.plan
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
        (tr("export.meta.scope", lang), scope_line(p)),
        (tr("export.notes", lang), o.notes),
    ]
    info = item_value_sheet(
        title=tr("export.sheet.proposal", lang), headers=(item, value), lines=facts, widths=(24, 70)
    )
    headers = bom_headers(p)
    bom = Sheet(
        title=tr("export.sheet.bom", lang),
        columns=tuple(
            Column(c, headers[c], _CSV_KINDS.get(c, "text")) for c in bom_csv_module.COLUMNS[o.edition]
        ),
        rows=tuple(bom_records(p)),
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
    assumptions = _frame_sheet(tr("export.sheet.assumptions", lang), assumption_rows(p))
    tenancy = tenancy_section.tenancy_sheets(p.tenancy, plan, lang)
    serving = serving_section.serving_sheets(p.serving, p.names, lang)
    return [info, bom, comparison, cabling, *tenancy, *serving, assumptions]


def workbook(p: Proposal) -> bytes:
    """The XLSX workbook (BOM, design comparison, cabling, assumptions) of the edition.

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    bytes
        The ``.xlsx`` file.
    """
    return write_xlsx(workbook_sheets(p), title=title(p), author=p.options.author)


FileKind = Literal["pdf", "csv", "xlsx", "json"]


def file_name(p: Proposal, kind: FileKind) -> str:
    """Sanitised download name, e.g. ``ACME_GPU_pod_proposal_customer_v1.0.pdf``.

    Parameters
    ----------
    p : Proposal
        The proposal (customer, project, edition, version).
    kind : FileKind
        ``pdf``, ``csv``, ``xlsx`` or ``json``.

    Returns
    -------
    str
        The file name.
    """
    o = p.options
    what = {"pdf": "proposal", "csv": "bom", "xlsx": "workbook", "json": "scenario"}[kind]
    parts = [o.customer, o.project, what]
    if kind != "json":
        parts += [o.edition, f"v{o.version}"]
    return safe_filename(*parts, ext=kind, fallback=what)


WRITERS: Mapping[str, Callable[[Proposal], bytes]] = {"csv": bom_csv, "xlsx": workbook, "json": scenario_json}
"""Writers of the non-PDF files by kind."""
