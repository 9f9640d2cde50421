"""Plotly chart builders: plan(s) in, ``go.Figure`` out.

Pure functions (no Streamlit) so the PDF export can draw the same figures. Text comes from
:mod:`planner.i18n` in the language passed; money arrives converted to the report currency.

Importing this module makes the house template (:data:`HOUSE_TEMPLATE`, ``plotly_white``) plotly's
default, so a figure takes it when it is built, where plotly sets it without validating a copy;
setting it afterwards (``update_layout(template=...)``) validated and copied the whole template,
about 9 ms of the 15.6 ms a styled figure took (0.8 ms now, same JSON).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from planner import Plan
from planner.compare import Crossover
from planner.cost import BOM_CATEGORIES
from planner.fabric.media import LinkMedia
from planner.facility.power import POWER_CATEGORIES
from planner.i18n import tr, tr_enum
from planner.report import display, fmt
from planner.report.tables import (
    METRICS,
    RADAR_METRICS,
    TIE_TOLERANCE,
    Money,
    money_of,
    rack_groups,
    radar_scores,
    unit_label,
)

HOUSE_TEMPLATE = "plotly_white"
"""The charts' plotly template (module notes: plotly's default once this module is imported)."""
pio.templates.default = HOUSE_TEMPLATE
_HOUSE_PLOT_BGCOLOR = pio.templates[HOUSE_TEMPLATE].layout.plot_bgcolor
FONT = "Noto Sans CJK SC, Noto Sans SC, PingFang SC, Microsoft YaHei, Source Sans Pro, sans-serif"
DESIGN_COLORS = {"rail4-npo": "#0E9F8E", "rail8-npo": "#2F5FD0", "ib-ndr": "#E3821B"}
_FALLBACK_COLORS = ("#8E44AD", "#C0392B", "#16A085", "#7F8C8D", "#D35400", "#2C3E50")
PALETTE = (
    "#0072B2",
    "#56B4E9",
    "#009E73",
    "#E69F00",
    "#D55E00",
    "#F0E442",
    "#CC79A7",
    "#332288",
    "#882255",
    "#000000",
    "#DDDDDD",
)
"""Qualitative colours for categories: the Okabe–Ito set (Okabe & Ito, "Color Universal Design",
2008) without its black, then indigo, wine and pale grey of Paul Tol's muted scheme
(https://personal.sron.nl/~pault/) and black. Every pair stays at least 16 CIE76 ΔE apart in
normal vision and under simulated protan, deutan and tritan vision (``tests/test_charts_readable.py``),
where the previous blue/teal/orange tints fell to 5."""
CATEGORY_COLORS = PALETTE
"""The palette in order, for a chart whose categories have no entry in :data:`CATEGORY_COLOR`."""
CATEGORY_COLOR: dict[str, str] = {
    "gpus": PALETTE[0],
    "servers": PALETTE[1],
    "nics": PALETTE[2],
    "fabric_switches": PALETTE[3],
    "optics": PALETTE[4],
    "cables": PALETTE[5],
    "storage": PALETTE[6],
    "management": PALETTE[7],
    "racks_power": PALETTE[8],
    "cooling": PALETTE[9],
    "services": PALETTE[10],
}
"""The one colour of each BOM and power category (``planner.cost.BOM_CATEGORIES``, whose power
categories are a subset): GPUs are the same blue in the CAPEX stack, the cost bars and the
power donut."""
_SAME_AS: dict[str, dict[str, str]] = {
    "latency_component": {
        "host_nic": "servers",
        "serdes_fec": "nics",
        "optics_and_propagation": "optics",
        "switches": "fabric_switches",
    },
    "failure_class": {
        "gpu": "gpus",
        "host": "servers",
        "nic": "nics",
        "switch": "fabric_switches",
        "link": "optics",
        "software": "storage",
    },
}
"""Categories of other charts drawn in the colour of the hardware they are about."""
_OWN_COLOR: dict[str, dict[str, str]] = {
    "step": {
        "compute": PALETTE[0],
        "tp_comm": PALETTE[3],
        "ep_comm": PALETTE[2],
        "pp_bubble": PALETTE[10],
        "pp_comm": PALETTE[6],
        "dp_comm": PALETTE[4],
        "cp_comm": PALETTE[1],
        "optimizer": PALETTE[7],
        "moe_overhead": PALETTE[5],
        "host_offload": PALETTE[8],
    }
}
"""Training-step components (idle pipeline bubble in grey, compute in the GPUs' blue)."""


def category_color(category: str, group: str = "bom_category") -> str:
    """The colour of ``category`` in every chart that shows it (one mapping for the whole report).

    ``group`` is ``"bom_category"`` (also the power categories), ``"latency_component"``,
    ``"failure_class"`` or ``"step"``; an unknown category gets a palette colour from its name.

    Parameters
    ----------
    category : str
        Category id (BOM, power, latency component, failure class or step).
    group : str
        The category's group (see above).

    Returns
    -------
    str
        Colour as ``#RRGGBB``.

    >>> category_color("gpus"), category_color("switches", "latency_component")
    ('#0072B2', '#E69F00')
    """
    if group in _OWN_COLOR and category in _OWN_COLOR[group]:
        return _OWN_COLOR[group][category]
    key = _SAME_AS.get(group, {}).get(category, category)
    if key in CATEGORY_COLOR:
        return CATEGORY_COLOR[key]
    return PALETTE[sum(map(ord, key)) % len(PALETTE)]


TIER_COLORS = {"top": "#6C3483", "core": "#8E44AD", "spine": "#2F5FD0", "leaf": "#0E9F8E", "node": "#5D6D7E"}


def design_color(design_id: str, index: int = 0) -> str:
    """The colour of a design in every chart: its preset's (a custom design shares it), else a
    fallback colour picked by ``index``.

    Parameters
    ----------
    design_id : str
        Design id, ``-custom`` suffix allowed.
    index : int
        Position of the design among those drawn [count], 0-based.

    Returns
    -------
    str
        Colour as ``#RRGGBB``.
    """
    base = design_id.removesuffix("-custom")
    return DESIGN_COLORS.get(base, _FALLBACK_COLORS[index % len(_FALLBACK_COLORS)])


_LEGENDS = {
    "bottom": {"orientation": "h", "yanchor": "top", "y": -0.22, "xanchor": "left", "x": 0.0},
    "right": {"orientation": "v", "yanchor": "top", "y": 1.0, "xanchor": "left", "x": 1.02},
}


TITLE_WIDTH = 44
"""Longest line of a chart title [display characters, a CJK character counting two]: 16-px type
in the narrowest chart a page draws (the Scaling page's three to a row at 1280 px: 402 px,
measured in Chromium). Plotly neither wraps a title nor shrinks it: a longer line is cut at the
chart's edge, mid-word."""
NOTE_WIDTH = 50
"""Longest line of a note above a plot [display characters]: 11-px type from the plot's left
edge, which sits about 80 px into that 402-px chart (the coincidence notes of the Scaling page's
charts ran 40-70 px past the edge at 80 characters)."""
TITLE_LINE_PX = 20
"""Height one more title line takes [px]."""
NOTE_LINE_PX = 17
"""Height of one line of a note above the plot [px]."""


def _title_lines(fig: go.Figure) -> int:
    return str(fig.layout.title.text or "").count("<br>") + 1


def styled(fig: go.Figure, title: str, *, height: int = 380, legend: str | None = "bottom") -> go.Figure:
    """The house style every chart has, and a figure a page builds itself takes too: title top
    left (broken over lines at :data:`TITLE_WIDTH`, never cut), legend below the plot (never over
    the title or an axis title), white theme.

    Parameters
    ----------
    fig : go.Figure
        The figure (changed in place).
    title : str
        Chart title.
    height : int
        Figure height [px].
    legend : str or None
        Legend position (``bottom``, ``right``) or ``None`` for no legend.

    Returns
    -------
    go.Figure
        ``fig``, styled.
    """
    text = wrapped(title, TITLE_WIDTH) if title else title
    if fig.layout.template.layout.plot_bgcolor != _HOUSE_PLOT_BGCOLOR:  # built under another default
        fig.update_layout(template=HOUSE_TEMPLATE)
    fig.update_layout(
        title={"text": text, "x": 0.0, "xanchor": "left", "pad": {"l": 4}, "font": {"size": 16}},
        font={"family": FONT, "size": 12},
        height=height,
        margin={"l": 10, "r": 10, "t": 50 + TITLE_LINE_PX * text.count("<br>"), "b": 10},
        showlegend=legend is not None,
        legend=_LEGENDS.get(legend or "bottom"),
        separators=".,",
    )
    return fig


_width = fmt.display_width


def wrapped(label: str, width: int = 18) -> str:
    """A long label broken over lines at spaces, or between CJK characters, so axis labels need
    no rotation (chart titles, category axes, a page's own bar chart).

    Parameters
    ----------
    label : str
        The label.
    width : int
        Display columns per line at most (a CJK character counts two) [count].

    Returns
    -------
    str
        The label with ``<br>`` line breaks.

    >>> wrapped("InfiniBand NDR rail-optimized fat tree"), wrapped("InfiniBand NDR 轨道优化胖树", 12)
    ('InfiniBand NDR<br>rail-optimized fat<br>tree', 'InfiniBand<br>NDR<br>轨道优化胖树')
    """
    tokens: list[str] = []
    for word in label.split(" "):
        if _width(word) <= width:
            tokens.append(word)
            continue
        chunk = ""
        for ch in word:
            if chunk and _width(chunk + ch) > width:
                tokens.append(chunk)
                chunk = ""
            chunk += ch
        tokens.append(chunk)
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and _width(line) + 1 + _width(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}".strip()
    return "<br>".join([*lines, line])


def _nice_step(top: float, target: int = 5) -> float:
    raw = top / target
    magnitude = 10.0 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1.0, 2.0, 2.5, 5.0, 10.0) if m * magnitude >= raw)


def _money_axis(fig: go.Figure, top: float, lang: str, axis: str = "y", **where: int) -> None:
    """Money ticks in the language's grouping (k/M or 万/亿) instead of Plotly's SI prefixes."""
    if top <= 0:
        return
    step = _nice_step(top)
    ticks = [step * i for i in range(int(top / step) + 2)]
    update = fig.update_yaxes if axis == "y" else fig.update_xaxes
    update(tickvals=ticks, ticktext=[fmt.compact(v, lang, trim=True) for v in ticks], **where)


def _alpha(hex_color: str, alpha: float) -> str:
    r, g, b = (int(hex_color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def _names(plans: Sequence[Plan], names: Mapping[str, str] | None) -> list[str]:
    return [(names or {}).get(p.design_id, p.design_name) for p in plans]


# --- series that hide each other -----------------------------------------------------------------

_OVERLAP_DASHES = ("dash", "dashdot", "longdash", "longdashdot")
_OVERLAP_SYMBOLS = ("circle-open", "square-open", "diamond-open", "triangle-up-open", "x-open")
_OVERLAP_STYLE_FRACTION = 0.5
"""Series that agree on at least this share of their points are drawn apart (dash and markers);
only series that agree on every point are called coincident."""


def overlap_fraction(
    x_a: Sequence[float],
    y_a: Sequence[float],
    x_b: Sequence[float],
    y_b: Sequence[float],
    *,
    tolerance: float = TIE_TOLERANCE,
    span: float | None = None,
) -> float:
    """Share of the points of two series drawn on top of each other: same x, and
    ``|y_a - y_b| <= tolerance * max(|y_a|, |y_b|)`` (the 1 % tie tolerance of the tables), or
    ``<= tolerance * span`` for an axis that does not start at zero (``span`` = its height).

    Series on different x grids share no point.

    Parameters
    ----------
    x_a, y_a : Sequence[float]
        First series' x and y values.
    x_b, y_b : Sequence[float]
        Second series' x and y values.
    tolerance : float
        Relative tie tolerance [fraction].
    span : float or None
        Height of the y axis [y unit] for an axis not starting at zero; ``None`` compares to the
        values.

    Returns
    -------
    float
        Points that coincide over points [fraction].

    >>> overlap_fraction([1, 2, 3, 4], [100, 200, 300, 400], [1, 2, 3, 4], [100.5, 200, 330, 400])
    0.75
    >>> overlap_fraction([1], [98.9], [1], [98.2]), overlap_fraction([1], [98.9], [1], [98.2], span=3.0)
    (1.0, 0.0)
    """
    xs_a, xs_b = [float(v) for v in x_a], [float(v) for v in x_b]
    if not xs_a or xs_a != xs_b:
        return 0.0
    same = sum(
        abs(float(a) - float(b))
        <= tolerance * (span if span is not None else max(abs(float(a)), abs(float(b)))) + 1e-12
        for a, b in zip(y_a, y_b, strict=True)
    )
    return same / len(xs_a)


_COINCIDE_NOTE = "coincide"
"""``name`` of the layout annotations that say lines coincide (read back by the alt text)."""


def _coincidence_note(names: Sequence[str], lang: str, index: int) -> dict[str, object]:
    """A grey line above the plot naming series that lie on top of each other."""
    text = tr("chart.coincide", lang, names=" = ".join(names), tolerance=f"{TIE_TOLERANCE * 100:g}")
    text = wrapped(text, NOTE_WIDTH)
    return {
        "name": _COINCIDE_NOTE,
        "text": text,
        "xref": "paper",
        "yref": "paper",
        "x": 0.0,
        "y": 1.0,
        "xanchor": "left",
        "yanchor": "bottom",
        "yshift": 4 + NOTE_LINE_PX * index,
        "showarrow": False,
        "align": "left",
        "font": {"size": 11, "color": "#5D6D7E"},
    }


def separate_overlapping(
    traces: Sequence[go.Scatter], lang: str, *, span: float | None = None
) -> list[dict[str, object]]:
    """Make lines that lie on top of each other visible, and say so.

    A trace that overlaps an earlier one (at least half its points within the tie tolerance)
    gets the next free dash pattern, and every member of such a group gets markers of its own
    shape (open, so the one below shows through); a group that coincides on every point is
    named in a note above the plot (returned as layout annotations, one per group).
    Changes ``traces`` in place.

    Parameters
    ----------
    traces : Sequence[go.Scatter]
        Line traces of one chart, drawing order.
    lang : str
        Language of the notes (``en`` or ``zh``).
    span : float or None
        Height of the y axis [y unit] when it does not start at zero (:func:`overlap_fraction`).

    Returns
    -------
    list[dict[str, object]]
        Plotly annotations, one per group of coinciding lines.
    """
    points = [([*t.x], [*t.y]) for t in traces]
    group_of: dict[int, int] = {}
    for j in range(len(traces)):
        for i in range(j):
            if overlap_fraction(*points[i], *points[j], span=span) >= _OVERLAP_STYLE_FRACTION:
                group_of[j] = group_of.get(i, i)
                group_of.setdefault(i, i)
                break
    groups: dict[int, list[int]] = {}
    for member, root in sorted(group_of.items()):
        groups.setdefault(root, []).append(member)
    notes: list[dict[str, object]] = []
    for members in groups.values():
        used = {traces[members[0]].line.dash or "solid"}
        for rank, k in enumerate(members):
            trace = traces[k]
            if rank:
                dash = next((d for d in _OVERLAP_DASHES if d not in used), _OVERLAP_DASHES[rank % 4])
                used.add(dash)
                trace.line.dash = dash
            trace.mode = "lines+markers"
            trace.marker = {
                "symbol": _OVERLAP_SYMBOLS[rank % len(_OVERLAP_SYMBOLS)],
                "size": max(6, 11 - 2 * rank),
                "color": trace.line.color,
                "line": {"width": 1.5, "color": trace.line.color},
                "maxdisplayed": 12,
            }
        if all(overlap_fraction(*points[members[0]], *points[k], span=span) == 1.0 for k in members[1:]):
            notes.append(_coincidence_note([str(traces[k].name) for k in members], lang, len(notes)))
    return notes


def _with_notes(fig: go.Figure, notes: Sequence[dict[str, object]]) -> go.Figure:
    """Room above the plot for the coincidence notes (after :func:`styled` set the margins), each
    note above the one before it, however many lines it was broken over."""
    if not notes:
        return fig
    stacked, lines = [], 0
    for note in notes:
        stacked.append({**note, "yshift": 4 + NOTE_LINE_PX * lines})
        lines += str(note["text"]).count("<br>") + 1
    top = 50 + TITLE_LINE_PX * (_title_lines(fig) - 1) + NOTE_LINE_PX * lines
    fig.update_layout(annotations=[*fig.layout.annotations, *stacked], margin={"t": top})
    return fig


# --- alt text -----------------------------------------------------------------------------------

_TAGS = re.compile(r"<[^>]+>")


def _plain(text: object) -> str:
    """Chart text without Plotly's HTML line breaks and tags."""
    return " ".join(_TAGS.sub(" ", str(text or "")).split())


_KIND_KEYS = {
    "bar": "alt.kind.bar",
    "line": "alt.kind.line",
    "pie": "alt.kind.pie",
    "radar": "alt.kind.radar",
    "scatter": "alt.kind.scatter",
    "diagram": "alt.kind.diagram",
}


def _kind(fig: go.Figure) -> str:
    types = {t.type for t in fig.data}
    if "scatterpolar" in types:
        return "radar"
    if "pie" in types:
        return "pie"
    if "bar" in types:
        return "bar"
    if any(t.type == "scatter" and "lines" in (t.mode or "lines") for t in fig.data):
        return "line"
    return "scatter" if types else "diagram"


def _categories(fig: go.Figure) -> list[str]:
    """The text values on a chart's category axis (bar labels, Monte Carlo rows), in order."""
    values: list[str] = []
    for t in fig.data:
        if t.type == "pie":
            values += [_plain(v) for v in (t.labels or ())]
        elif t.type in ("bar", "scatter"):
            for axis in (t.y, t.x):
                if axis is not None and len(axis) and all(isinstance(v, str) for v in axis):
                    values += [_plain(v) for v in axis]
                    break
    return list(dict.fromkeys(values))


def _axis_titles(fig: go.Figure, letter: str) -> list[str]:
    """Titles of every visible x (or y) axis, subplots included, once each."""
    titles: list[str] = []
    layout = fig.layout
    for name in sorted(p for p in layout if p == f"{letter}axis" or p.startswith(f"{letter}axis")):
        axis = layout[name]
        if axis is not None and axis.visible is not False and axis.title.text:
            titles.append(_plain(axis.title.text))
    return list(dict.fromkeys(titles))


def figure_alt_text(fig: go.Figure, lang: str = "en") -> str:
    """One sentence describing ``fig`` for a screen reader (``alt`` of the PDF image, the app's
    aria label): the kind of chart, its title, its series or categories, its axis titles and any
    note that lines coincide.

    Parameters
    ----------
    fig : go.Figure
        The chart.
    lang : str
        Language of the sentence (``en`` or ``zh``).

    Returns
    -------
    str
        The description (plain text).

    >>> figure_alt_text(go.Figure(go.Bar(x=["a", "b"], y=[1, 2], name="A"), layout={
    ...     "title": {"text": "T"}, "yaxis": {"title": {"text": "Power [kW]"}}}))
    'Bar chart “T”: series: A; categories: a, b; y axis: Power [kW].'
    >>> figure_alt_text(go.Figure(layout={"title": {"text": "拓扑"}}), "zh")
    '示意图《拓扑》。'
    """
    sep = tr("alt.list_separator", lang)
    details: list[str] = []
    named = [_plain(t.name) for t in fig.data if t.name and t.showlegend is not False and t.type != "pie"]
    if named:
        details.append(tr("alt.series", lang, names=sep.join(dict.fromkeys(named))))
    if _kind(fig) != "radar" and (categories := _categories(fig)):
        details.append(tr("alt.categories", lang, names=sep.join(categories)))
    for letter, key in (("x", "alt.x_axis"), ("y", "alt.y_axis")):
        if titles := _axis_titles(fig, letter):
            details.append(tr(key, lang, title=sep.join(titles)))
    details += [_plain(a.text) for a in fig.layout.annotations if a.name == _COINCIDE_NOTE]
    kind, title = tr(_KIND_KEYS[_kind(fig)], lang), _plain(fig.layout.title.text)
    if not details:
        return tr("alt.sentence_bare", lang, kind=kind, title=title)
    return tr(
        "alt.sentence", lang, kind=kind, title=title, details=tr("alt.detail_separator", lang).join(details)
    )


# --- one plan -------------------------------------------------------------------------------


def _present_categories(
    *, values: Mapping[str, float], order: Sequence[str], group: str, lang: str
) -> list[tuple[str, str, float]]:
    """``(category, label, value)`` of each category in ``order`` with a positive value (a chart of
    one plan leaves out what the plan does not have); labels of the enum ``group`` in ``lang``."""
    return [(c, tr_enum(group, c, lang), values.get(c, 0.0)) for c in order if values.get(c, 0.0) > 0]


def cost_by_category(plan: Plan, lang: str) -> go.Figure:
    """CAPEX per BOM category (horizontal bars, report currency).

    Parameters
    ----------
    plan : Plan
        The plan (CAPEX per category [USD], report currency).
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Bar chart [report currency].
    """
    money = money_of(plan)
    items = [
        (c, label, money(usd))
        for c, label, usd in _present_categories(
            values=plan.cost.by_category_usd, order=BOM_CATEGORIES, group="bom_category", lang=lang
        )
    ]
    items.sort(key=lambda x: x[2])
    fig = go.Figure(
        go.Bar(
            x=[v for _, _, v in items],
            y=[k for _, k, _ in items],
            orientation="h",
            marker_color=[category_color(c) for c, _, _ in items],
            text=[fmt.money(v, money.currency, lang) for _, _, v in items],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}: %{text}<extra></extra>",
        )
    )
    top = max((v for _, _, v in items), default=1.0)
    fig.update_xaxes(
        title=tr("axis.amount", lang, unit=tr(f"currency.{money.currency}", lang)), range=[0, top * 1.22]
    )
    _money_axis(fig, top, lang, axis="x")
    return styled(fig, tr("chart.cost_by_category", lang), legend=None)


def power_by_category(plan: Plan, lang: str) -> go.Figure:
    """IT power per category at maximum load [kW] (donut).

    Parameters
    ----------
    plan : Plan
        The plan (IT power per category [kW]).
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Donut chart [kW], total IT power in the middle.
    """
    items = _present_categories(
        values=plan.power.by_category_kw, order=POWER_CATEGORIES, group="power_category", lang=lang
    )
    fig = go.Figure(
        go.Pie(
            labels=[k for _, k, _ in items],
            values=[v for _, _, v in items],
            hole=0.55,
            sort=False,
            marker={
                "colors": [category_color(c) for c, _, _ in items],
                "line": {"color": "white", "width": 1},
            },
            texttemplate="%{label}<br>%{percent:.1%}",
            textposition="outside",
            hovertemplate="%{label}: %{value:,.1f} kW<extra></extra>",
        )
    )
    fig.add_annotation(
        text=f"{fmt.number(plan.power.it_kw, 0)} kW<br>{tr('word.it_power', lang)}",
        showarrow=False,
        font={"size": 14},
    )
    return styled(fig, tr("chart.power_by_category", lang), legend=None)


def busbw_curve(
    plans: Sequence[Plan],
    lang: str,
    names: Mapping[str, str] | None = None,
    *,
    units: display.DisplayUnits | None = None,
) -> go.Figure:
    """busbw against message size, all-reduce (solid) and all-to-all (dotted), per design;
    in GB/s or, as the reader chose, Gb/s (``units``).

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans of the designs (each with its busbw curve [bytes, GB/s]).
    lang : str
        Language of labels (``en`` or ``zh``).
    names : Mapping[str, str] or None
        Display name per design id; ``None`` uses the plans' names.
    units : DisplayUnits or None
        The reader's bandwidth unit; ``None`` keeps GB/s.

    Returns
    -------
    go.Figure
        Line chart, log message size [bytes] against busbw [GB/s or Gb/s].
    """
    factor, symbol = display.scale("GB/s", units or display.DisplayUnits())
    traces: list[go.Scatter] = []
    for i, (p, name) in enumerate(zip(plans, _names(plans, names), strict=True)):
        sizes = [s for s, _, _ in p.bandwidth.curve]
        labels = [_bytes(s) for s in sizes]
        color = design_color(p.design_id, i)
        for column, dash, key in ((1, "solid", "word.allreduce"), (2, "dot", "word.alltoall")):
            traces.append(
                go.Scatter(
                    x=sizes,
                    y=[row[column] * factor for row in p.bandwidth.curve],
                    name=f"{name} · {tr(key, lang)}",
                    mode="lines",
                    line={"color": color, "dash": dash, "width": 2},
                    customdata=labels,
                    hovertemplate=f"%{{customdata}}: %{{y:,.1f}} {symbol}<extra>%{{fullData.name}}</extra>",
                )
            )
    y_title = display.retitle(tr("axis.busbw", lang), "GB/s", units or display.DisplayUnits())
    return _busbw_figure(traces, lang, y_title=y_title, title=tr("chart.busbw_curve", lang))


def _busbw_figure(traces: list[go.Scatter], lang: str, *, y_title: str, title: str) -> go.Figure:
    """busbw curves over a log message-size axis (ticks every 8x from 1 KiB), busbw from zero;
    overlapping curves separated and said so under the chart."""
    notes = separate_overlapping(traces, lang)
    fig = go.Figure(data=traces)
    ticks = [2**k for k in range(10, 34, 3)]
    fig.update_xaxes(
        type="log", title=tr("axis.message_size", lang), tickvals=ticks, ticktext=[_bytes(t) for t in ticks]
    )
    fig.update_yaxes(title=y_title, rangemode="tozero")
    return _with_notes(styled(fig, title, height=460), notes)


def _bytes(size: float) -> str:
    for unit, step in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= step:
            return f"{size / step:g} {unit}"
    return f"{size:g} B"


def latency_breakdown(plan: Plan, lang: str) -> go.Figure:
    """Worst-case one-way GPU-to-GPU latency split into its components [ns].

    Parameters
    ----------
    plan : Plan
        The plan (latency components [ns]).
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        One stacked horizontal bar [ns].
    """
    fig = go.Figure()
    for component, ns in plan.latency.components_ns:
        fig.add_trace(
            go.Bar(
                x=[ns],
                y=[tr("word.worst_path", lang, hops=plan.latency.max_switch_hops)],
                orientation="h",
                name=tr_enum("latency_component", component, lang),
                marker_color=category_color(component, "latency_component"),
                text=f"{fmt.number(ns)} ns",
                textposition="inside",
                hovertemplate="%{fullData.name}: %{x:,.0f} ns<extra></extra>",
            )
        )
    fig.update_layout(barmode="stack")
    fig.update_xaxes(title=tr("axis.latency_ns", lang), rangemode="tozero")
    fig = styled(
        fig, tr("chart.latency_breakdown", lang, total=fmt.number(plan.latency.gpu_to_gpu_ns)), height=260
    )
    fig.update_layout(legend={"traceorder": "normal", "y": -0.3})
    return fig


# --- several designs --------------------------------------------------------------------------


_GROUPS = (
    ("group.cost", (("capex_usd", "word.capex"), ("tco_usd", "word.tco"))),
    ("group.power", (("it_kw", "word.it_power"), ("facility_kw", "word.facility_power"))),
    (
        "group.bandwidth",
        (("allreduce_busbw_gbyte_per_s", "word.allreduce"), ("alltoall_busbw_gbyte_per_s", "word.alltoall")),
    ),
    ("group.latency", (("gpu_to_gpu_min_ns", "word.latency_min"), ("gpu_to_gpu_ns", "word.latency_max"))),
)


def _value(plan: Plan, column: str, money: Money, units: display.DisplayUnits | None = None) -> float:
    values = {
        "capex_usd": money(plan.cost.capex_usd),
        "tco_usd": money(plan.cost.tco_usd),
        "it_kw": plan.power.it_kw,
        "facility_kw": plan.power.facility_kw,
        "allreduce_busbw_gbyte_per_s": plan.bandwidth.allreduce_busbw_gbyte_per_s,
        "alltoall_busbw_gbyte_per_s": plan.bandwidth.alltoall_busbw_gbyte_per_s,
        "gpu_to_gpu_min_ns": plan.latency.gpu_to_gpu_min_ns,
        "gpu_to_gpu_ns": plan.latency.gpu_to_gpu_ns,
    }
    unit = "kW" if column.endswith("_kw") else "GB/s" if "gbyte" in column else ""
    return values[column] * display.scale(unit, units or display.DisplayUnits())[0]


def compare_bars(
    plans: Sequence[Plan],
    lang: str,
    names: Mapping[str, str] | None = None,
    *,
    units: display.DisplayUnits | None = None,
) -> go.Figure:
    """Grouped bars per design in four panels: cost, power, bandwidth, latency; power and
    bandwidth in the reader's ``units`` (kW or BTU/h, GB/s or Gb/s).

    Parameters
    ----------
    plans, lang, names, units
        As in :func:`busbw_curve` (the first plan sets the currency).

    Returns
    -------
    go.Figure
        Four bar panels: cost [currency], power [kW or BTU/h], bandwidth [GB/s or Gb/s], latency [ns].
    """
    money = money_of(plans[0])
    shown = units or display.DisplayUnits()
    units_of = (
        tr(f"currency.{money.currency}", lang),
        display.scale("kW", shown)[1],
        display.scale("GB/s", shown)[1],
        "ns",
    )
    fig = make_subplots(
        rows=1,
        cols=4,
        subplot_titles=[f"{tr(g, lang)} [{u}]" for (g, _), u in zip(_GROUPS, units_of, strict=True)],
        horizontal_spacing=0.075,
    )
    for i, (p, name) in enumerate(zip(plans, _names(plans, names), strict=True)):
        for col, (_, metrics) in enumerate(_GROUPS, start=1):
            values = [_value(p, column, money, shown) for column, _ in metrics]
            fig.add_trace(
                go.Bar(
                    x=[tr(key, lang) for _, key in metrics],
                    y=values,
                    name=name,
                    legendgroup=name,
                    showlegend=col == 1,
                    marker_color=design_color(p.design_id, i),
                    text=[
                        fmt.compact(v, display.money_grouping_lang(lang, shown))
                        if col == 1 or v >= 1e5
                        else fmt.significant(v)
                        for v in values
                    ],
                    textposition="outside",
                    textangle=-90,
                    textfont={"size": 11},
                    cliponaxis=False,
                    hovertemplate=f"{name}<br>%{{x}}: %{{text}}<extra></extra>",
                ),
                row=1,
                col=col,
            )
    fig.update_layout(barmode="group", bargap=0.25)
    for col, ((group, metrics), unit) in enumerate(zip(_GROUPS, units_of, strict=True), start=1):
        top = max(_value(p, column, money, shown) for p in plans for column, _ in metrics)
        fig.update_yaxes(
            range=[0, top * 1.3],
            title={"text": f"{tr(group, lang)} [{unit}]", "standoff": 4, "font": {"size": 11}},
            showticklabels=True,
            tickfont={"size": 10},
            row=1,
            col=col,
        )
        if col == 1 or unit == "BTU/h":  # grouped ticks (k/M or 万/亿), not Plotly's SI prefixes
            _money_axis(fig, top * 1.2, display.money_grouping_lang(lang, shown), row=1, col=col)
    fig.update_annotations(font_size=13)
    fig = styled(fig, tr("chart.compare_bars", lang), height=440)
    fig.update_layout(margin={"t": 80})
    return fig


def cost_stack(plans: Sequence[Plan], lang: str, names: Mapping[str, str] | None = None) -> go.Figure:
    """CAPEX per design, stacked by BOM category.

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans of the designs (the first sets the currency).
    lang : str
        Language of labels (``en`` or ``zh``).
    names : Mapping[str, str] or None
        Display name per design id; ``None`` uses the plans' names.

    Returns
    -------
    go.Figure
        Stacked bar chart of CAPEX [report currency].
    """
    money = money_of(plans[0])
    labels = [wrapped(n) for n in _names(plans, names)]
    fig = go.Figure()
    for category in BOM_CATEGORIES:
        values = [money(p.cost.by_category_usd.get(category, 0.0)) for p in plans]
        if not any(values):
            continue
        fig.add_trace(
            go.Bar(
                x=labels,
                y=values,
                name=tr_enum("bom_category", category, lang),
                marker={"color": category_color(category), "line": {"color": "white", "width": 0.5}},
                customdata=[fmt.money(v, money.currency, lang) for v in values],
                hovertemplate="%{x}<br>%{fullData.name}: %{customdata}<extra></extra>",
            )
        )
    totals = [money(p.cost.capex_usd) for p in plans]
    _stack_totals(fig, labels, totals, [fmt.money(v, money.currency, lang) for v in totals])
    fig.update_yaxes(
        title=tr("axis.amount", lang, unit=tr(f"currency.{money.currency}", lang)),
        range=[0, max(totals) * 1.12],
    )
    fig.update_xaxes(tickangle=0, title=tr_enum("metric", "design", lang))
    _money_axis(fig, max(totals), lang)
    return styled(fig, tr("chart.cost_stack", lang), height=480, legend="right")


def _stack_totals(
    fig: go.Figure,
    bars: Sequence[str],
    totals: Sequence[float],
    text: Sequence[str],
    *,
    horizontal: bool = False,
) -> None:
    """Stack ``fig``'s bars and write each bar's total (``text``) at its end: above a vertical bar,
    right of a horizontal one (``horizontal``: ``bars`` on the y axis)."""
    x, y = (totals, bars) if horizontal else (bars, totals)
    position = "middle right" if horizontal else "top center"
    fig.add_trace(
        go.Scatter(
            x=x, y=y, mode="text", text=text, textposition=position, showlegend=False, hoverinfo="skip"
        )
    )
    fig.update_layout(barmode="stack")


RADAR_LABEL_KEYS = {
    "capex_usd": "radar.capex_usd",
    "tco_usd": "radar.tco_usd",
    "facility_kw": "radar.facility_kw",
    "allreduce_busbw_gbyte_per_s": "radar.allreduce_busbw_gbyte_per_s",
    "alltoall_busbw_gbyte_per_s": "radar.alltoall_busbw_gbyte_per_s",
    "gpu_to_gpu_ns": "radar.gpu_to_gpu_ns",
    "switches": "radar.switches",
    "usd_per_gpu_hour": "radar.usd_per_gpu_hour",
}
"""Short axis labels of the radar (its scores have no unit, so the names can be brief)."""
RADAR_LABEL_WIDTH = 11
"""Characters per line of a radar axis label (a CJK character counts two): with the short labels
of :data:`RADAR_LABEL_KEYS` every label fits in two lines beside a circle of a 380 px column."""


def radar(plans: Sequence[Plan], lang: str, names: Mapping[str, str] | None = None) -> go.Figure:
    """Normalised scores (1 = best of the designs shown) on the radar metrics.

    Axis labels are the short names of :data:`RADAR_LABEL_KEYS`, wrapped; the circle starts at the top and
    runs clockwise, and the radial ticks sit between the first two axes, clear of every label.

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans of the designs compared.
    lang : str
        Language of labels (``en`` or ``zh``).
    names : Mapping[str, str] or None
        Display name per design id; ``None`` uses the plans' names.

    Returns
    -------
    go.Figure
        Polar chart of :func:`radar_scores` [fraction].
    """
    scores = radar_scores(plans)
    axes = [wrapped(tr(RADAR_LABEL_KEYS[c], lang), RADAR_LABEL_WIDTH) for c in RADAR_METRICS]
    fig = go.Figure()
    for i, (p, name) in enumerate(zip(plans, _names(plans, names), strict=True)):
        row = scores.iloc[i]
        values = [float(row[c]) for c in RADAR_METRICS]
        fig.add_trace(
            go.Scatterpolar(
                r=[*values, values[0]],
                theta=[*axes, axes[0]],
                name=name,
                mode="lines+markers",
                line={
                    "color": design_color(p.design_id, i),
                    "width": 2,
                    "dash": _OVERLAP_DASHES[(i - 1) % len(_OVERLAP_DASHES)] if i else "solid",
                },
                marker={"symbol": _OVERLAP_SYMBOLS[i % len(_OVERLAP_SYMBOLS)], "size": 7},
                fill="toself",
                fillcolor=_alpha(design_color(p.design_id, i), 0.10),
                hovertemplate="%{theta}: %{r:.2f}<extra>%{fullData.name}</extra>",
            )
        )
    half_step = 180.0 / len(RADAR_METRICS)
    fig.update_layout(
        polar={
            "radialaxis": {
                "range": [0, 1.05],
                "tickvals": [0.5, 1.0],
                "tickfont": {"size": 9, "color": "#5D6D7E"},
                "angle": 90 - half_step,
                "tickangle": 90 - half_step,
                "showline": False,
            },
            "angularaxis": {"tickfont": {"size": 11}, "rotation": 90, "direction": "clockwise"},
            "domain": {"x": [0.22, 0.78], "y": [0.08, 0.88]},
        }
    )
    return styled(fig, tr("chart.radar", lang), height=480)


def _vline(x: float, color: str, dash: str) -> dict[str, object]:
    """A vertical line across the whole plot at ``x`` (a layout shape)."""
    return {
        "type": "line",
        "xref": "x",
        "yref": "paper",
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "line": {"color": color, "dash": dash, "width": 1},
    }


def _crossover_marks(
    frame: pd.DataFrame,
    column: str,
    factor: float,
    crossovers: Sequence[Crossover],
    label_of: Mapping[str, str],
    lang: str,
) -> tuple[list[go.Scatter], list[dict[str, object]]]:
    """A diamond on the design that wins after each crossover, and a dotted line at its size."""
    traces: list[go.Scatter] = []
    shapes: list[dict[str, object]] = []
    for c in crossovers:
        at = frame[(frame["design"] == c.better_after) & (frame["gpus"] == c.gpus_after)]
        if at.empty:
            continue
        shapes.append(_vline(c.gpus_after, "#888", "dot"))
        other = c.design_b if c.better_after == c.design_a else c.design_a
        text = tr(
            "hover.crossover",
            lang,
            gpus=c.gpus_after,
            better=label_of.get(c.better_after, c.better_after),
            other=label_of.get(other, other),
        )
        traces.append(
            go.Scatter(
                x=[c.gpus_after],
                y=[float(at[column].iloc[0]) * factor],
                mode="markers",
                marker={
                    "symbol": "diamond",
                    "size": 11,
                    "color": design_color(c.better_after),
                    "line": {"width": 1, "color": "white"},
                },
                showlegend=False,
                hovertemplate=text + "<extra></extra>",
            )
        )
    return traces, shapes


def scaling(
    frame: pd.DataFrame,
    column: str,
    lang: str,
    *,
    money: Money,
    names: Mapping[str, str] | None = None,
    crossovers: Sequence[Crossover] = (),
    current_gpus: int | None = None,
    units: display.DisplayUnits | None = None,
) -> go.Figure:
    """One metric over GPU counts, a line per design; crossovers marked (sweep frame in USD);
    bandwidth and power in the reader's ``units``.

    Traces and shapes are collected and handed to Plotly once: a Scaling page draws seven of
    these on every rerun, and per-call ``add_trace``/``add_vline`` validation dominated its time.

    Parameters
    ----------
    frame : pd.DataFrame
        Sweep frame: ``design``, ``gpus`` [count] and metric columns (money [USD]).
    column : str
        Metric column drawn, a key of ``METRICS``.
    lang : str
        Language of labels (``en`` or ``zh``).
    money : Money
        Report currency and rate [currency/USD].
    names, crossovers, current_gpus, units
        Display name per design id, crossovers to mark, the scenario's GPU count to mark [count],
        the reader's bandwidth and power units (``None``: engine names, no mark, engine units).

    Returns
    -------
    go.Figure
        Line chart over GPU count (log axis) [metric unit].
    """
    metric = METRICS[column]
    shown = units or display.DisplayUnits()
    factor = money.per_usd if metric.is_money else display.scale(metric.unit, shown)[0]
    digits = max(metric.digits, 2 if metric.is_money else 0)
    label_of = dict(names or {})
    traces: list[go.Scatter] = []
    for i, (design, rows) in enumerate(frame.groupby("design", sort=False)):
        label = label_of.get(str(design), str(design))
        traces.append(
            go.Scatter(
                x=rows["gpus"].to_numpy(),
                y=(rows[column] * factor).to_numpy(),
                name=label,
                mode="lines",
                line={"color": design_color(str(design), i), "width": 2, "shape": "hv"},
                hovertemplate=f"{label}<br>{tr('axis.gpus', lang)} %{{x}}: %{{y:,.{digits}f}}<extra></extra>",
            )
        )
    notes = separate_overlapping(traces, lang)
    marks, shapes = _crossover_marks(frame, column, factor, crossovers, label_of, lang)
    if current_gpus is not None:
        shapes.append(_vline(current_gpus, "#C0392B", "solid"))
    ticks = [8 * 2**k for k in range(8)]
    unit = unit_label(metric, money.currency, lang)
    unit = unit if metric.is_money else display.scale(unit, shown)[1]
    title = tr_enum("metric", column, lang)
    fig = go.Figure(
        data=[*traces, *marks],
        layout={
            "shapes": shapes,
            "xaxis": {
                "type": "log",
                "title": {"text": tr("axis.gpus", lang)},
                "tickvals": ticks,
                "ticktext": [str(t) for t in ticks],
                "range": [math.log10(7), math.log10(1200)],
            },
            "yaxis": {"title": {"text": unit or tr("word.count", lang)}, "rangemode": "tozero"},
        },
    )
    if metric.is_money:
        _money_axis(fig, float((frame[column] * factor).max()), display.money_grouping_lang(lang, shown))
    return _with_notes(styled(fig, title, height=330, legend=None), notes)


# --- topology and racks -------------------------------------------------------------------------


_MAX_BOXES = 9


def _shown(count: int) -> list[int | None]:
    """Indices of the boxes drawn for ``count`` devices; ``None`` marks the ellipsis."""
    if count <= _MAX_BOXES:
        return list(range(count))
    return [*range(_MAX_BOXES - 2), None, count - 1]


def _positions(count: int, width: float = 64.0, center: float = 50.0) -> list[float]:
    if count == 1:
        return [center]
    step = min(width / (count - 1), 9.0)
    start = center - step * (count - 1) / 2
    return [start + step * i for i in range(count)]


_BOX_W, _BOX_H = 5.2, 0.32
"""Size of one device box in the topology diagram [axis units]."""
_LINK_OF_TIER = {"leaf": "node_leaf", "spine": "leaf_spine", "core": "spine_core", "top": "core_top"}
"""The link class that joins a tier to the one below it."""
Shape = dict[str, object]
TierRow = tuple[str, int, int]
"""Tier name, devices per plane, devices in all planes."""


def _note(x: float, y: float, text: str, **style: object) -> Shape:
    """A free-standing annotation (no arrow) at ``(x, y)``."""
    return {"x": x, "y": y, "text": text, "showarrow": False, **style}


def _plane_frames(planes: int, top: float, lang: str) -> tuple[list[Shape], list[Shape]]:
    """The plane drawn, with two offset frames behind it when there are more planes."""
    shapes: list[Shape] = [
        {
            "type": "rect",
            "x0": 10 + depth * 1.2,
            "x1": 90 + depth * 1.2,
            "y0": 0.55 + depth * 0.08,
            "y1": top + depth * 0.08,
            "line": {"color": "#C9D3E3", "width": 1},
            "fillcolor": "#F4F7FB",
            "layer": "below",
        }
        for depth in ((2, 1) if planes > 1 else ())
    ]
    shapes.append(
        {
            "type": "rect",
            "x0": 10,
            "x1": 90,
            "y0": 0.55,
            "y1": top,
            "line": {"color": "#9AA8BF", "width": 1},
            "fillcolor": "#FFFFFF",
            "layer": "below",
        }
    )
    label = tr("topo.plane_label", lang, planes=planes) if planes > 1 else tr("topo.single_plane", lang)
    style = {"xanchor": "right", "yanchor": "top", "font": {"size": 11, "color": "#5D6D7E"}}
    return shapes, [_note(89, top - 0.05, label, **style)]


def _tier_boxes(
    rows: Sequence[TierRow], y_of: Mapping[str, float]
) -> tuple[list[Shape], list[Shape], dict[str, list[float]]]:
    """A box per device drawn (large tiers collapsed around an ellipsis), and the boxes' x."""
    shapes: list[Shape] = []
    notes: list[Shape] = []
    x_of: dict[str, list[float]] = {}
    for name, per_plane, _ in rows:
        shown = _shown(per_plane)
        xs = _positions(len(shown))
        x_of[name] = [x for x, idx in zip(xs, shown, strict=True) if idx is not None]
        y = y_of[name]
        for x, idx in zip(xs, shown, strict=True):
            if idx is None:
                notes.append(_note(x, y, "⋯", font={"size": 20, "color": "#5D6D7E"}))
                continue
            shapes.append(
                {
                    "type": "rect",
                    "x0": x - _BOX_W / 2,
                    "x1": x + _BOX_W / 2,
                    "y0": y - _BOX_H / 2,
                    "y1": y + _BOX_H / 2,
                    "line": {"color": TIER_COLORS[name], "width": 1},
                    "fillcolor": TIER_COLORS[name],
                    "opacity": 0.9,
                }
            )
    return shapes, notes, x_of


def _tier_links(
    plan: Plan,
    rows: Sequence[TierRow],
    x_of: Mapping[str, list[float]],
    y_of: Mapping[str, float],
    lang: str,
) -> tuple[list[float | None], list[float | None], list[Shape]]:
    """Every box joined to every box of the tier above (one trace, ``None`` breaks), and a note
    per tier pair with the link count, speed, medium and length."""
    topo = plan.topology
    media: dict[str, LinkMedia] = {m.link_class: m for m in plan.media}
    line_x: list[float | None] = []
    line_y: list[float | None] = []
    notes: list[Shape] = []
    for lower, upper in itertools.pairwise(rows):
        y0, y1 = y_of[lower[0]] + _BOX_H / 2, y_of[upper[0]] - _BOX_H / 2
        for xa in x_of[lower[0]]:
            for xb in x_of[upper[0]]:
                line_x += [xa, xb, None]
                line_y += [y0, y1, None]
        m = media.get(_LINK_OF_TIER[upper[0]])
        if m is None:
            continue
        text = tr(
            "topo.links",
            lang,
            links=fmt.number(m.links),
            per_plane=fmt.number(m.links // topo.planes),
            speed=topo.port_speed_gbit_per_s,
            medium=tr_enum("medium", m.medium, lang),
            length=f"{m.length_m:g}",
        )
        style = {"xanchor": "left", "align": "left", "font": {"size": 11, "color": "#34495E"}}
        notes.append(_note(91, (y_of[lower[0]] + y_of[upper[0]]) / 2, text, **style))
    return line_x, line_y, notes


def _tier_labels(plan: Plan, rows: Sequence[TierRow], y_of: Mapping[str, float], lang: str) -> list[Shape]:
    """Left of each tier: its devices per plane and in total, radix and port speed."""
    topo = plan.topology
    notes: list[Shape] = []
    for name, per_plane, total in rows:
        if name == "node":
            text = tr(
                "topo.nodes",
                lang,
                nodes=fmt.number(total),
                gpus=fmt.number(plan.gpus),
                per_node=topo.gpus_per_node,
                ports=topo.ports_per_node_per_plane,
            )
        else:
            text = tr(
                "topo.tier",
                lang,
                tier=tr_enum("tier", name, lang),
                per_plane=fmt.number(per_plane),
                total=fmt.number(total),
                radix=topo.radix,
                speed=topo.port_speed_gbit_per_s,
            )
        notes.append(_note(9, y_of[name], text, xanchor="right", align="right", font={"size": 11}))
    return notes


def _auxiliary_note(plan: Plan, lang: str) -> Shape:
    """Below the diagram: storage and the in-band and out-of-band management networks."""
    aux = plan.auxiliary
    text = tr(
        "topo.aux",
        lang,
        storage=fmt.number(aux.storage_units),
        storage_switches=fmt.number(aux.storage_fabric.switches),
        inband=fmt.number(aux.inband_fabric.switches),
        oob=fmt.number(aux.oob_fabric.switches),
    )
    return _note(50, -0.55, text, xanchor="center", font={"size": 11, "color": "#5D6D7E"})


def topology(plan: Plan, lang: str) -> go.Figure:
    """Fabric diagram of one plane (others identical): tiers, counts, links; large tiers collapsed.

    Shapes and annotations are collected and set once (Plotly's ``add_shape`` copies the whole
    list on every call), and the links are one line trace with breaks.

    Parameters
    ----------
    plan : Plan
        The plan (its topology and auxiliary fabrics).
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Diagram of boxes and links (no axes).
    """
    topo = plan.topology
    rows: list[TierRow] = [("node", plan.nodes, plan.nodes)]
    rows += [(t.tier, t.switches_per_plane, t.switches) for t in topo.tier_counts]
    y_of = {name: float(i) for i, (name, _, _) in enumerate(rows)}
    shapes, notes = _plane_frames(topo.planes, len(rows) - 0.45, lang)
    boxes, ellipses, x_of = _tier_boxes(rows, y_of)
    line_x, line_y, link_notes = _tier_links(plan, rows, x_of, y_of, lang)
    notes += [*ellipses, *link_notes, *_tier_labels(plan, rows, y_of, lang), _auxiliary_note(plan, lang)]
    fig = go.Figure(
        go.Scatter(
            x=line_x,
            y=line_y,
            mode="lines",
            line={"color": "#9AA8BF", "width": 0.6},
            hoverinfo="skip",
            showlegend=False,
        )
    )
    fig.update_layout(shapes=[*shapes, *boxes], annotations=notes)
    fig.update_xaxes(visible=False, range=[-42, 128])
    fig.update_yaxes(visible=False, range=[-0.8, len(rows) - 0.3])
    title = tr(
        "chart.topology",
        lang,
        tiers=topo.tiers,
        planes=topo.planes,
        rails=topo.rails,
        switches=fmt.number(topo.switches_total),
    )
    return styled(fig, title, height=170 + 110 * len(rows), legend=None)


MAX_RACK_BARS = 80
"""Above this many racks, draw one bar per group of identical racks (labelled with the range)."""


def rack_layout(plan: Plan, lang: str) -> go.Figure:
    """Power of every rack against the rack power limit (and the cooling method's limit).

    Parameters
    ----------
    plan : Plan
        The plan (racks, power per rack and limits [kW]).
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Bar chart of power per rack (or rack group) [kW] with the limit lines.
    """
    xs: list[str] = []
    ys: list[float] = []
    colors: list[str] = []
    hover: list[str] = []
    grouped = plan.racks.total > MAX_RACK_BARS
    counters = {"compute": 0, "network": 0}
    for g in rack_groups(plan):
        prefix, color = ("C", "#2F5FD0") if g.kind == "compute" else ("N", "#E3821B")
        contents = (
            tr("rack.compute_contents", lang, nodes=g.nodes, gpus=g.nodes * plan.topology.gpus_per_node)
            if g.kind == "compute"
            else tr_enum("rack_kind", "network", lang)
        )
        first = counters[g.kind] + 1
        counters[g.kind] += g.count
        if grouped:
            span = f"{prefix}{first}" if g.count == 1 else f"{prefix}{first}–{prefix}{counters[g.kind]}"
            xs.append(f"{span}<br>× {fmt.number(g.count)}")
            ys.append(g.kw)
            colors.append(color)
            hover.append(contents)
            continue
        for index in range(first, counters[g.kind] + 1):
            xs.append(f"{prefix}{index}")
            ys.append(g.kw)
            colors.append(color)
            hover.append(contents)
    fig = go.Figure(
        go.Bar(
            x=xs,
            y=ys,
            marker_color=colors,
            customdata=hover,
            hovertemplate="%{x}: %{y:.1f} kW<br>%{customdata}<extra></extra>",
        )
    )
    limit = plan.racks.rack_power_limit_kw
    fig.add_hline(
        y=limit,
        line={"color": "#C0392B", "dash": "dash", "width": 1.5},
        annotation_text=tr("rack.limit", lang, kw=f"{limit:g}"),
        annotation_position="top left",
    )
    cooling_limit = plan.cooling.cooling_limit_kw_per_rack
    if cooling_limit < max(limit, max(ys, default=0.0)) * 1.6:
        fig.add_hline(
            y=cooling_limit,
            line={"color": "#8E44AD", "dash": "dot", "width": 1.5},
            annotation_text=tr("rack.cooling_limit", lang, kw=f"{cooling_limit:g}"),
            annotation_position="top right",
        )
    top = max([*ys, limit, min(cooling_limit, limit * 1.6)])
    fig.update_yaxes(title=tr("axis.rack_kw", lang), range=[0, math.ceil(top * 1.15)])
    fig.update_xaxes(title=tr("axis.racks", lang), type="category", tickangle=0 if len(xs) <= 40 else -90)
    title = tr(
        "chart.racks",
        lang,
        compute=plan.racks.compute_racks,
        network=plan.racks.network_racks,
        per_rack=plan.racks.nodes_per_rack,
    )
    return styled(fig, title, height=360, legend=None)
