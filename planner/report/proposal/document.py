"""The whole proposal document: its HTML, its page setup and its PDF."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from planner.i18n import tr
from planner.progress import Steps, checkpoint
from planner.report import elevations_section, serving_section, tenancy_section
from planner.report.export.browser import Browser, PageSetup, RenderError, shared_browser
from planner.report.export.html import (
    FooterPart,
    HtmlDocument,
    footer_template,
    header_template,
)
from planner.report.export.preview import first_pages
from planner.report.proposal.assumptions import write_assumptions
from planner.report.proposal.body import write_bom, write_compare, write_cost, write_power, write_topology
from planner.report.proposal.contents import sections
from planner.report.proposal.figures import chart_images_and_alt_texts
from planner.report.proposal.model import Proposal, date_text, title
from planner.report.proposal.summary import write_cover, write_summary


def proposal_html(
    p: Proposal,
    images: Mapping[str, str],
    *,
    pages: Sequence[int] | None = None,
    alt_texts: Mapping[str, str] | None = None,
) -> str:
    """The whole document as print-ready HTML (``images``: chart data URIs by name; ``pages``:
    the first page of each section for the contents, ``None`` = a contents without numbers).

    Parameters
    ----------
    p : Proposal
        The proposal.
    images : Mapping[str, str]
        Chart data URIs by chart name.
    pages : Sequence[int] or None
        First page of each section, 1-based [count]; ``None`` for a contents without numbers.
    alt_texts : Mapping[str, str] or None
        Description of each chart by chart name (the images' ``alt``).

    Returns
    -------
    str
        HTML text.
    """
    alt_by_uri = {images[key]: text for key, text in (alt_texts or {}).items() if key in images}
    doc = HtmlDocument(lang="zh-CN" if p.lang == "zh" else "en", title=title(p), alt_texts=alt_by_uri)
    write_cover(doc, p, pages)
    write_summary(doc, p)
    if p.options.compare_designs:
        write_compare(doc, p, images)
    write_topology(doc, p, images)
    write_bom(doc, p, images)
    write_power(doc, p, images)
    write_cost(doc, p)
    tenancy_section.write_section(doc, p.tenancy, p.plan, p.lang)
    serving_section.write_section(doc, p.serving, p.names, p.lang)
    elevations_section.write_section(doc, p.elevations, p.lang)
    write_assumptions(doc, p)
    return doc.render()


def page_setup(p: Proposal) -> PageSetup:
    """A4 with the footer (title, customer, author, date, version, edition; page x of y) on
    every page: the date, version, edition and page number are never shortened; a customer or
    author name is capped, and the title takes the width left (see :class:`FooterPart`).

    Parameters
    ----------
    p : Proposal
        The proposal (options, language, edition).

    Returns
    -------
    PageSetup
        Footer and header HTML for Chromium's printing.
    """
    o, lang = p.options, p.lang
    parts = [
        FooterPart(title(p), "fill"),
        FooterPart(o.customer, "capped"),
        FooterPart(o.author, "capped"),
        FooterPart(date_text(o.date, lang)),
        FooterPart(f"{tr('export.meta.version', lang)} {o.version}"),
        FooterPart(tr(f"export.edition.{o.edition}", lang)),
    ]
    return PageSetup(
        footer_html=footer_template(parts, tr("export.footer_page", lang)),
        header_html=header_template(tr("export.confidential", lang) if p.internal else ""),
    )


def render_pdf(p: Proposal, *, browser: Browser | None = None, steps: Steps | None = None) -> bytes:
    """The proposal as PDF bytes (charts and printing by the shared long-lived browser).

    Printed twice: Chromium's printing has no ``target-counter()``, so the first print, with a
    contents without numbers, is read back (:func:`planner.report.export.preview.first_pages`)
    to learn where each section starts, and the second fills in the numbers. The contents sits
    on the fixed-height cover, so the numbers move no other page. Without poppler's
    ``pdftotext`` the first print is the document: a contents without page numbers.
    ``steps`` hears of each of the three stages (charts, first print, second print) and may stop
    the build before the next (:mod:`planner.progress`).

    Parameters
    ----------
    p : Proposal
        The proposal.
    browser : Browser or None
        Browser drawing and printing; ``None`` takes the shared one.
    steps : Steps or None
        Progress callback told of each stage; ``None`` for none.

    Returns
    -------
    bytes
        The PDF file.
    """
    engine = browser or shared_browser()
    checkpoint(steps, done=0, total=3)
    images, alt_texts = chart_images_and_alt_texts(p, engine)
    setup = page_setup(p)
    checkpoint(steps, done=1, total=3)
    draft = engine.print_pdf(proposal_html(p, images, alt_texts=alt_texts), setup=setup)
    checkpoint(steps, done=2, total=3)
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
