"""The proposal's assumptions pages (HTML) and the assumptions table the workbook shares."""

from __future__ import annotations

import pandas as pd

from planner.catalog import FAMILIES
from planner.i18n import tr, tr_enum, translate
from planner.i18n.message import msg
from planner.report import tables
from planner.report.export.html import (
    Cell,
    HtmlDocument,
    Table,
)
from planner.report.proposal import plain
from planner.report.proposal.html_parts import table_of
from planner.report.proposal.model import Proposal, clean_text

ANALYSIS_TOPICS = (
    "sizing_rules.training_",
    "sizing_rules.serving_",
    "sizing_rules.checkpoint_",
    "sizing_rules.failure_rate_",
    "sizing_rules.hpn_",
    "sizing_rules.moe_",
    "sizing_rules.tenancy_jobs_",
)
"""Catalog coefficients of the analyses a proposal does not contain (training and serving
estimates, mixture-of-experts kernels, reliability, the job-mix simulation): their calibration notes are internal model notes, so the customer
edition leaves them out; the internal edition lists every assumption of the plan."""


def assumption_rows(p: Proposal, *, remarks: bool | None = None) -> pd.DataFrame:
    """The assumptions and sources table, texts translated and cleaned for the edition.

    ``remarks`` (default: the internal edition) keeps the catalog's own text: each record's
    field names and the reasons behind its figures, every coefficient, each topic by its record
    id (``servers.biren_hearten_8oam``). Without remarks the table is the customer's: each
    assumption in plain words, its figures with their units (:mod:`.plain`), each source
    without the remarks in its brackets, each topic by its catalog family ("Servers"), and
    without the coefficients of analyses the document does not contain (:data:`ANALYSIS_TOPICS`)
    or the rows whose text the edition loses entirely.

    Parameters
    ----------
    p : Proposal
        The proposal (plan, catalog, language, edition).
    remarks : bool or None
        Keep the catalog's own text; ``None`` follows the edition (internal: yes).

    Returns
    -------
    pd.DataFrame
        One row per assumption shown: kind, topic, text, source.
    """
    lang = p.lang
    frame = tables.assumptions_table(p.plan, lang)
    text_col, source_col, topic_col = tr("col.text", lang), tr("col.source", lang), tr("col.topic", lang)
    if remarks if remarks is not None else p.internal:
        frame[text_col] = [clean_text(v, p) for v in frame[text_col]]
        frame[source_col] = [clean_text(v, p) or "—" for v in frame[source_col]]
        return frame[frame[text_col].str.strip() != ""]
    topics = [a.topic for a in p.plan.assumptions]
    # a plain text is written here from names and figures, prices left out (no redaction to do:
    # it would drop a name such as 人民币兑美元汇率); an engine text is cleaned for the edition
    plain_texts = [plain.assumption_text(topic, p.catalog, lang) for topic in topics]
    frame[text_col] = [
        clean_text(text, p) if written is None else written
        for written, text in zip(plain_texts, frame[text_col], strict=True)
    ]
    frame[source_col] = [plain.plain_source(clean_text(v, p)) or "—" for v in frame[source_col]]
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
    return Table.of(columns, rows, widths=REFERENCE_WIDTHS_PCT, compact=True, caption=caption)


REFERENCE_WIDTHS_PCT = (13.0, 16.0, 49.0, 22.0)
"""Column widths of the assumptions table [% of the text width]: the kind column holds
"Assumption" on one line at the table's 7.5 pt (it broke as "Assumptio/n" at 10 %)."""


def write_assumptions(doc: HtmlDocument, p: Proposal) -> None:
    """The assumptions section: the scenario as resolved, the vendor claims beside what the model
    computes, then the list of cited sources and assumptions of the edition.

    Parameters
    ----------
    doc : HtmlDocument
        The document being written (appended to).
    p : Proposal
        The proposal (plans, catalog, language, edition).
    """
    lang, plan = p.lang, p.plan
    doc.section(tr("export.sec.assumptions", lang), "assumptions")
    doc.paragraph(tr("export.disclaimer", lang), style="note")
    doc.heading(tr("export.assumptions.scenario", lang))
    doc.table(table_of(tables.scenario_rows(plan, p.catalog, lang), widths=[35.0, 65.0]))
    doc.heading(tr("compare.claims", lang))
    claims = tables.claims_table(p.shown_plans, p.catalog, dict(p.names), lang)
    if claims.empty:
        doc.paragraph(tr("compare.no_claims", lang))
    else:
        doc.table(
            table_of(
                claims,
                widths=[18.0, 30.0, 9.0, 30.0, 13.0],
                compact=True,
                caption=tr("compare.claims_caption", lang),
            )
        )
    doc.heading(tr("export.assumptions.list", lang))
    frame = assumption_rows(p, remarks=False)
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
    notes = [clean_text(n, p) for n in plan.notes]
    notes = [n for n in notes if n]
    if notes:
        doc.heading(translate(msg("Further model notes"), lang))
        for note in notes:
            doc.paragraph("• " + note, style="note")
    if p.internal:
        _internal_appendix(doc, p)


def _internal_appendix(doc: HtmlDocument, p: Proposal) -> None:
    """The catalog's own text behind the plain table, for the people who keep the model: field
    names, the reasons for each figure, every coefficient (internal edition only)."""
    lang = p.lang
    doc.heading(tr("export.assumptions.appendix", lang))
    doc.paragraph(tr("export.assumptions.appendix_note", lang), style="note")
    frame = assumption_rows(p, remarks=True)
    doc.table(_references_table(frame, tr("col.source", lang), caption=""))
