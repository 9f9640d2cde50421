"""The cover and the executive summary of the proposal (HTML).

The recommendation the rule makes is written by :func:`write_recommendation`; a section that
explains the recommendation further belongs right after it in :func:`write_summary`."""

from __future__ import annotations

from collections.abc import Sequence

from planner.i18n import tr, tr_enum
from planner.report import fmt, recommendation_section, tables
from planner.report.export.html import (
    Cell,
    ContentsEntry,
    HtmlDocument,
    Table,
    logo_data_uri,
)
from planner.report.proposal.contents import sections
from planner.report.proposal.html_parts import density_note, with_bold
from planner.report.proposal.model import (
    Proposal,
    currency_label,
    date_text,
    design_figures,
    per_gpu_hour,
    scope_line,
    title,
)


def write_cover(doc: HtmlDocument, p: Proposal, pages: Sequence[int] | None) -> None:
    """The cover, with the contents (``pages``: each section's first page, ``None`` = unknown).

    Parameters
    ----------
    doc : HtmlDocument
        The document being written (appended to).
    p : Proposal
        The proposal.
    pages : Sequence[int] or None
        First page of each section, 1-based [count].
    """
    o, lang, plan = p.options, p.lang, p.plan
    numbers: Sequence[int | None] = pages if pages is not None else [None] * len(sections(p))
    doc.cover(
        kicker=tr("export.kicker", lang),
        title=title(p),
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
            (tr("export.meta.scope", lang), scope_line(p)),
            (tr("export.meta.author", lang), o.author),
            (tr("export.meta.date", lang), date_text(o.date, lang)),
            (tr("export.meta.version", lang), o.version),
        ],
        edition_label=tr(f"export.edition.{o.edition}", lang),
        edition_note=tr(f"export.edition_note.{o.edition}", lang, currency=currency_label(p)),
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


def write_recommendation(doc: HtmlDocument, p: Proposal) -> None:
    """The recommended design in bold, the rule that chose it, and the runner-up.

    Parameters
    ----------
    doc : HtmlDocument
        The document being written (appended to).
    p : Proposal
        The proposal (recommended, proposed and runner-up designs).
    """
    lang, plan, names = p.lang, p.plan, p.names
    best = p.priced(p.recommended_id)
    common = {"gpus": fmt.number(plan.gpus), "gpu": plan.gpu_name}
    doc.paragraph(
        with_bold(tr("export.summary.recommend", lang, design="\0", **common), names[p.proposed_id]),
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
            value=per_gpu_hour(best, lang),
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
            value=per_gpu_hour(other, lang),
            delta=fmt.percent(other.cost.usd_per_gpu_hour / best.cost.usd_per_gpu_hour - 1, 1),
        )
    )


def _override(doc: HtmlDocument, p: Proposal) -> None:
    """The design proposed when the rule recommends another, and what the recommendation saves."""
    lang, plan, names = p.lang, p.plan, p.names
    proposed, best = p.priced(p.proposed_id), p.priced(p.recommended_id)
    common = {"gpus": fmt.number(plan.gpus), "gpu": plan.gpu_name}
    doc.paragraph(
        with_bold(tr("export.summary.proposed", lang, design="\0", **common), names[p.proposed_id]),
        style="lead",
    )
    doc.paragraph(
        tr(
            "export.summary.override",
            lang,
            best=names[best.design_id],
            delta=fmt.percent(1 - best.cost.usd_per_gpu_hour / proposed.cost.usd_per_gpu_hour, 1),
            value=per_gpu_hour(best, lang),
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
        doc.callout(density_note(plan, lang), warning=True)


def write_summary(doc: HtmlDocument, p: Proposal) -> None:
    """The executive summary: the design proposed and why, the designs left out, the comparison
    at a glance, the key numbers.

    A section that explains the recommendation in more words goes right after the recommendation
    (or the override), before the exclusions: the reader meets the decision, then its reasons.

    Parameters
    ----------
    doc : HtmlDocument
        The document being written (appended to).
    p : Proposal
        The proposal.
    """
    doc.section(tr("export.sec.summary", p.lang), "summary")
    if len(p.cost_plans) == 1:
        doc.paragraph(tr("export.summary.single", p.lang), style="lead")
    elif p.proposed_id == p.recommended_id:
        write_recommendation(doc, p)
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
    headers, figures = design_figures(p, columns=GLANCE_COLUMNS)
    rows = []
    for design, values in figures:
        chosen = design == p.proposed_id
        cells: list[str | Cell] = [Cell(p.names[design], strong=chosen, highlight=chosen)]
        cells += [Cell(value, strong=chosen) for value in values]
        rows.append(cells)
    doc.heading(tr("export.summary.glance", lang))
    doc.table(
        Table.of(headers, rows, numeric=range(1, len(headers)), widths=[25.0, *[12.5] * len(GLANCE_COLUMNS)])
    )
