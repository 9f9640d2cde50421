"""The proposal's charts: the app's Plotly figures, drawn once by the shared browser."""

from __future__ import annotations

from typing import Literal

import plotly.graph_objects as go

from planner.report import charts
from planner.report.export.browser import Browser, ChartSpec
from planner.report.export.html import (
    image_data_uri,
)
from planner.report.proposal.model import Proposal

CHART_WIDTH_PX = 820
"""Chart width [CSS px]; printed 180 mm wide, a 12 px label is about 7.5 pt."""


CHART_FORMAT: Literal["svg", "png"] = "svg"
"""Vector charts: sharp at any zoom and print size (PNG would use :data:`PNG_SCALE`)."""


PNG_SCALE = 3.0


def chart_figures(p: Proposal) -> list[tuple[str, go.Figure]]:
    """The app's figures for the document, in the order they appear (shown plans only).

    Parameters
    ----------
    p : Proposal
        The proposal.

    Returns
    -------
    list[tuple[str, go.Figure]]
        Chart name and figure.
    """
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
    """Every figure drawn once by the browser, as data URIs keyed by chart name.

    Parameters
    ----------
    p : Proposal
        The proposal.
    browser : Browser
        Browser that draws the charts.

    Returns
    -------
    dict[str, str]
        Data URI per chart name.
    """
    return chart_images_and_alt_texts(p, browser)[0]


def chart_images_and_alt_texts(p: Proposal, browser: Browser) -> tuple[dict[str, str], dict[str, str]]:
    """Every figure drawn once by the browser (data URIs) and its one-sentence description (the
    image's ``alt`` text, :func:`planner.report.charts.figure_alt_text`), keyed by chart name.

    Parameters
    ----------
    p : Proposal
        The proposal.
    browser : Browser
        Browser that draws the charts.

    Returns
    -------
    tuple[dict[str, str], dict[str, str]]
        Data URI per chart name, and description per chart name.
    """
    figures = chart_figures(p)
    specs = [ChartSpec(fig, CHART_WIDTH_PX, int(fig.layout.height or 400), name=key) for key, fig in figures]
    images = browser.images(specs, fmt=CHART_FORMAT, scale=PNG_SCALE)
    mime = "image/svg+xml" if CHART_FORMAT == "svg" else "image/png"
    uris = {key: image_data_uri(data, mime) for (key, _), data in zip(figures, images, strict=True)}
    return uris, {key: charts.figure_alt_text(fig, p.lang) for key, fig in figures}
