"""The rail wiring: every server port to its leaf on one plane, one rail emphasised.

A rail is the GPU (its index within the server) behind a port: "GPU i of every server to the
leaf of rail i on each plane". Drawn from the hand-off's port-by-port wiring
(:mod:`planner.handoff.wiring`), not from counts, so the picture shows what the cabling plan
lists: the links of one rail meet only that rail's leaves. One plane at a time (the planes are
wired alike): drawing every plane's leaves under a "plane 1" title was a hairball whose leaf
count disagreed with the topology diagram's leaves per plane.
"""

from __future__ import annotations

import plotly.graph_objects as go

from planner.handoff.wiring import Link, Wiring
from planner.i18n import tr
from planner.report import fmt
from planner.report.charts import PALETTE, styled

MAX_SERVERS = 32
"""Server marks drawn at most: above it, runs of servers share a mark (:func:`server_groups`)."""
RAIL_COLORS = PALETTE[:9]
"""One colour per rail from the shared palette (its pale grey, the dimmed rails' colour, left out)."""
DIM = PALETTE[-1]


def node_leaf_links(wiring: Wiring) -> list[Link]:
    """Server-to-leaf cables of every plane, in wiring order.

    Parameters
    ----------
    wiring : Wiring
        Devices and links of a plan.

    Returns
    -------
    list[Link]
        The ``node_leaf`` links.
    """
    return [link for link in wiring.links if link.link_class == "node_leaf"]


def rail_of(link: Link) -> int:
    """Rail (0-based) of a server-leaf link: the first GPU behind its port.

    Parameters
    ----------
    link : Link
        A server-leaf link.

    Returns
    -------
    int
        Rail, 0-based [count].
    """
    return link.gpu if link.gpu is not None else link.rail


def rails(wiring: Wiring) -> list[int]:
    """The rails (0-based) of the server ports.

    Parameters
    ----------
    wiring : Wiring
        Devices and links of a plan.

    Returns
    -------
    list[int]
        Rails, ascending, 0-based [count].
    """
    return sorted({rail_of(link) for link in node_leaf_links(wiring)})


def plane_of(wiring: Wiring, link: Link) -> int:
    """Plane (0-based) of a server-leaf link: its leaf's.

    Parameters
    ----------
    wiring : Wiring
        Devices and links of a plan.
    link : Link
        A server-leaf link.

    Returns
    -------
    int
        Plane, 0-based [count].
    """
    return wiring.device(link.b_device).plane or 0


def planes(wiring: Wiring) -> list[int]:
    """The planes (0-based) the servers are wired to.

    Parameters
    ----------
    wiring : Wiring
        Devices and links of a plan.

    Returns
    -------
    list[int]
        Planes, ascending, 0-based [count].
    """
    return sorted({plane_of(wiring, link) for link in node_leaf_links(wiring)})


def _rail_color(rail: int) -> str:
    """The colour of rail ``rail`` (0-based), its links' and its leaves' alike; the colours repeat
    after :data:`RAIL_COLORS`."""
    return RAIL_COLORS[rail % len(RAIL_COLORS)]


def server_groups(servers: list[str], max_groups: int) -> list[list[str]]:
    """``servers`` (in wiring order) in at most ``max_groups`` runs of equal size (the last may
    be shorter); one server per group when they fit.

    Parameters
    ----------
    servers : list[str]
        Server ids in wiring order.
    max_groups : int
        Most groups [count].

    Returns
    -------
    list[list[str]]
        Consecutive groups of ``ceil(len(servers) / max_groups)`` servers.

    >>> server_groups(["a", "b", "c", "d", "e"], 2)
    [['a', 'b', 'c'], ['d', 'e']]
    """
    size = -(-len(servers) // max(max_groups, 1))
    return [servers[i : i + size] for i in range(0, len(servers), size)]


def rail_wiring(
    wiring: Wiring, *, rail: int | None, lang: str, plane: int = 0, max_servers: int = MAX_SERVERS
) -> go.Figure:
    """Servers (bottom) wired to the leaves (top) of plane ``plane`` (0-based); rail ``rail``
    (0-based) emphasised.

    One line trace per rail (its legend entry toggles it), each in its own colour; with ``rail``
    set, that rail's links are drawn thick in its colour and the others thin and grey. Every
    server and every leaf of the plane is drawn: above ``max_servers`` servers, runs of servers
    in wiring order share one mark and their links to a leaf one line (a bundle), so the leaves
    drawn are the plane's leaves, as many as the topology counts per plane.

    Parameters
    ----------
    wiring : Wiring
        Devices and links of a plan.
    rail : int or None
        Rail to emphasise, 0-based; ``None`` for none.
    lang : str
        Language of labels (``en`` or ``zh``).
    plane : int
        Plane drawn, 0-based [count].
    max_servers : int
        Most server marks before servers are grouped [count].

    Returns
    -------
    go.Figure
        Two rows of marks (servers, leaves) joined by one line trace per rail.
    """
    links = [link for link in node_leaf_links(wiring) if plane_of(wiring, link) == plane]
    servers = list(dict.fromkeys(link.a_device for link in links))
    groups = server_groups(servers, max_servers)
    group_of = {server: i for i, group in enumerate(groups) for server in group}
    leaves = sorted(
        {link.b_device for link in links},
        key=lambda d: (wiring.device(d).plane or 0, wiring.device(d).rail or 0, d),
    )
    width = max(len(groups), len(leaves), 2) - 1
    x_group = [i * width / max(len(groups) - 1, 1) for i in range(len(groups))]
    x_leaf = {d: i * width / max(len(leaves) - 1, 1) for i, d in enumerate(leaves)}
    fig = go.Figure()
    for r in sorted({rail_of(link) for link in links}):
        bundles = dict.fromkeys(
            (group_of[link.a_device], link.b_device) for link in links if rail_of(link) == r
        )
        xs: list[float | None] = []
        ys: list[float | None] = []
        for group, leaf in bundles:
            xs += [x_group[group], x_leaf[leaf], None]
            ys += [0.0, 1.0, None]
        on = rail is None or rail == r
        color = _rail_color(r)
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
    _add_devices(fig, links, leaves, x_leaf, dict(zip(_group_labels(groups), x_group, strict=True)))
    fig.update_xaxes(visible=False, range=[-0.5, width + 0.5])
    fig.update_yaxes(
        tickvals=[0, 1],
        ticktext=[tr("rail.servers", lang), tr("rail.leaves", lang)],
        range=[-0.25, 1.25],
        showgrid=False,
        zeroline=False,
    )
    counts = {"plane": plane + 1, "servers": fmt.number(len(servers)), "leaves": fmt.number(len(leaves))}
    if len(groups) < len(servers):
        title = tr("chart.rail_wiring_grouped", lang, groups=len(groups), size=len(groups[0]), **counts)
    else:
        title = tr("chart.rail_wiring", lang, **counts)
    return styled(fig, title, height=360)


def _group_labels(groups: list[list[str]]) -> list[str]:
    """A mark's hover text: the server, or the first and last server of a run and how many."""
    return [g[0] if len(g) == 1 else f"{g[0]} … {g[-1]} ({len(g)})" for g in groups]


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
                "color": [DIM if r is None else _rail_color(r) for r in leaf_rail],
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
