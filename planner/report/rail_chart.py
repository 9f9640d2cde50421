"""The rail wiring: every server port to its leaf on every plane, one rail emphasised.

A rail is the GPU (its index within the server) behind a port: "GPU i of every server to the
leaf of rail i on each plane". Drawn from the hand-off's port-by-port wiring
(:mod:`planner.handoff.wiring`), not from counts, so the picture shows what the cabling plan
lists: the links of one rail meet only that rail's leaves (or, on a multi-plane design, the
leaves of that rail's plane).
"""

from __future__ import annotations

import plotly.graph_objects as go

from planner.handoff.wiring import Link, Wiring
from planner.i18n import tr
from planner.report import fmt
from planner.report.charts import _style

MAX_SERVERS = 32
"""Servers drawn: the first ones (in rack order); the wiring of the others repeats theirs."""
RAIL_COLORS = ("#2F5FD0", "#E3821B", "#0E9F8E", "#C0392B", "#8E44AD", "#B7950B", "#D35400", "#1B4F72")
DIM = "#C5CCD8"


def node_leaf_links(wiring: Wiring) -> list[Link]:
    """Server-to-leaf cables of every plane, in wiring order."""
    return [link for link in wiring.links if link.link_class == "node_leaf"]


def rail_of(link: Link) -> int:
    """Rail (0-based) of a server-leaf link: the first GPU behind its port."""
    return link.gpu if link.gpu is not None else link.rail


def rails(wiring: Wiring) -> list[int]:
    """The rails (0-based) of the server ports."""
    return sorted({rail_of(link) for link in node_leaf_links(wiring)})


def rail_wiring(wiring: Wiring, *, rail: int | None, lang: str, max_servers: int = MAX_SERVERS) -> go.Figure:
    """Servers (bottom) wired to the leaves (top, by plane); rail ``rail`` (0-based) emphasised.

    One line trace per rail (its legend entry toggles it); with ``rail`` set, that rail's links
    are drawn thick in its colour and the others thin and grey. At most ``max_servers`` servers
    are drawn, with a note giving the total.
    """
    links = node_leaf_links(wiring)
    servers = list(dict.fromkeys(link.a_device for link in links))
    shown = set(servers[:max_servers])
    links = [link for link in links if link.a_device in shown]
    leaves = sorted(
        {link.b_device for link in links},
        key=lambda d: (wiring.device(d).plane or 0, wiring.device(d).rail or 0, d),
    )
    width = max(len(shown), len(leaves), 2) - 1
    x_server = {d: i * width / max(len(shown) - 1, 1) for i, d in enumerate(servers[:max_servers])}
    x_leaf = {d: i * width / max(len(leaves) - 1, 1) for i, d in enumerate(leaves)}
    fig = go.Figure()
    for r in sorted({rail_of(link) for link in links}):
        xs: list[float | None] = []
        ys: list[float | None] = []
        for link in links:
            if rail_of(link) == r:
                xs += [x_server[link.a_device], x_leaf[link.b_device], None]
                ys += [0.0, 1.0, None]
        on = rail is None or rail == r
        color = RAIL_COLORS[r % len(RAIL_COLORS)]
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                name=tr("rail.name", lang, rail=r + 1),
                line={"color": color if on else DIM, "width": 2.6 if rail == r else 1.0 if on else 0.5},
                opacity=1.0 if on else 0.45,
                hoverinfo="skip",
            )
        )
    _add_devices(fig, links, leaves, x_leaf, x_server)
    fig.update_xaxes(visible=False, range=[-0.5, width + 0.5])
    fig.update_yaxes(
        tickvals=[0, 1],
        ticktext=[tr("rail.servers", lang), tr("rail.leaves", lang)],
        range=[-0.25, 1.25],
        showgrid=False,
        zeroline=False,
    )
    title = tr(
        "chart.rail_wiring",
        lang,
        shown=fmt.number(len(shown)),
        servers=fmt.number(len(servers)),
        leaves=fmt.number(len(leaves)),
    )
    return _style(fig, title, height=360)


def _add_devices(
    fig: go.Figure,
    links: list[Link],
    leaves: list[str],
    x_leaf: dict[str, float],
    x_server: dict[str, float],
) -> None:
    """The leaves (top, each in the colour of the one rail it serves) and the servers (bottom)."""
    # a leaf takes the colour of the one rail it serves (grey when it serves several)
    served: dict[str, set[int]] = {}
    for link in links:
        served.setdefault(link.b_device, set()).add(rail_of(link))
    leaf_rail = [next(iter(served[d])) if len(served[d]) == 1 else None for d in leaves]
    fig.add_trace(
        go.Scatter(
            x=[x_leaf[d] for d in leaves],
            y=[1.0] * len(leaves),
            mode="markers",
            marker={
                "symbol": "square",
                "size": 12,
                "color": [DIM if r is None else RAIL_COLORS[r % len(RAIL_COLORS)] for r in leaf_rail],
                "line": {"color": "#34495E", "width": 1},
            },
            text=leaves,
            hovertemplate="%{text}<extra></extra>",
            showlegend=False,
        )
    )
    fig.add_trace(
        go.Scatter(
            x=list(x_server.values()),
            y=[0.0] * len(x_server),
            mode="markers",
            marker={"symbol": "square", "size": 9, "color": "#5D6D7E"},
            text=list(x_server),
            hovertemplate="%{text}<extra></extra>",
            showlegend=False,
        )
    )
