"""Layout page: racks in rows (a floor plan), one elevation per rack type, and the hand-off
downloads (cabling plan CSV/XLSX, elevations, NetBox import files, draw.io)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pandas as pd
import streamlit as st

from planner import Plan
from planner.handoff.cabling import Handoff, build_handoff, length_summary
from planner.handoff.drawio import drawio_file
from planner.handoff.elevation import elevation_svg, floor_svg, rack_types
from planner.handoff.netbox import netbox_files
from planner.handoff.pricing import layout_cable_pricing, pricing_rows
from planner.handoff.tables import cabling_csv, rack_rows
from planner.report.export.cabling import cabling_xlsx
from ui import engine, keys, sidebar, state, widgets
from ui.state import t, tx

KIND_KEYS = {
    "compute": "layout.kind.compute",
    "network": "layout.kind.network",
    "storage": "layout.kind.storage",
    "management": "layout.kind.management",
}
LINK_KEYS = {
    "node_leaf": "layout.link.node_leaf",
    "leaf_spine": "layout.link.leaf_spine",
    "spine_core": "layout.link.spine_core",
    "storage_access": "layout.link.storage_access",
    "storage_uplink": "layout.link.storage_uplink",
    "frontend_access": "layout.link.frontend_access",
    "frontend_uplink": "layout.link.frontend_uplink",
    "inband_access": "layout.link.inband_access",
    "inband_uplink": "layout.link.inband_uplink",
    "oob_access": "layout.link.oob_access",
    "oob_uplink": "layout.link.oob_uplink",
}
COLUMN_KEYS = {
    "rack": "layout.col.rack",
    "row": "layout.col.row",
    "kind": "layout.col.kind",
    "devices": "layout.col.devices",
    "used_u": "layout.col.used_u",
    "usable_u": "layout.col.usable_u",
    "power_kw": "layout.col.power_kw",
    "power_limit_kw": "layout.col.power_limit_kw",
    "link_class": "layout.col.link_class",
    "cables": "layout.col.cables",
    "min_m": "layout.col.min_m",
    "mean_m": "layout.col.mean_m",
    "max_m": "layout.col.max_m",
    "medium_for_m": "layout.col.plan_m",
    "cable_part": "layout.col.cable_part",
    "ordered_lengths": "layout.col.ordered_lengths",
    "layout_usd": "layout.col.layout_usd",
}


@st.cache_data(show_spinner=False, max_entries=16)
def _handoff(scenario_json: str, override_json: str) -> Handoff:
    del override_json  # part of the key: the plan below was made with it
    scenario = engine.scenario_of(scenario_json)
    return build_handoff(
        plan=engine.plan_for(scenario), catalog=engine.catalog(), params=scenario.layout_floor
    )


def floor_inputs() -> None:
    """Row length and the rows the room holds (empty = any): scenario inputs (``Scenario.floor``),
    so the BOM, the TCO and the proposal price the cables of this floor; a number out of range
    keeps the value in use and says so under its field."""
    cells = st.columns(2)
    for cell, (name, number_format) in zip(cells, (("row_m", "%.1f"), ("max_rows", "%d")), strict=True):
        with cell:
            sidebar.number_field(
                st, name, state.prepare_widget(name), number_format, empty=t("layout.any_rows")
            )
            typed = (st.session_state.get(keys.RANGE_ERRORS) or {}).get(name)
            if typed is not None:
                st.error(sidebar.range_error_text(name, typed), icon=":material/warning:")


def handoff(plan: Plan) -> Handoff:
    """The cached hand-off of the plan on its scenario's floor; a floor that holds no layout shows
    its one-line error and stops."""
    scenario_json = engine.canonical_json(plan.scenario)
    return widgets.computed(_handoff, scenario_json, state.catalog_override())


def drawing(svg: str, css_class: str) -> None:
    """Draw one of the hand-off's SVG drawings in the page, scaled down to its column's width.

    Not ``st.html``: Streamlit sanitises that with DOMPurify's HTML-only profile, which drops
    every SVG element (the page showed empty boxes). A Markdown HTML block keeps the SVG: it opens
    with ``<div`` and must hold no blank line (a blank line would end the block). The SVG is the
    engine's own drawing; every text in it is escaped there (:mod:`planner.handoff.elevation`).
    """
    lines = "\n".join(line for line in svg.splitlines() if line.strip())
    scaled = lines.replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1)
    block = f'<div class="{css_class}" style="overflow-x:auto">{scaled}</div>'  # markup, no words
    st.markdown(block, unsafe_allow_html=True)


def summary(h: Handoff) -> None:
    cells = st.columns(4)
    values = (
        ("layout.racks", len(h.layout.racks)),
        ("layout.rows", h.layout.rows),
        ("layout.devices", len(h.wiring.devices)),
        ("layout.cables", len(h.cables)),
    )
    for cell, (key, value) in zip(cells, values, strict=True):
        cell.metric(t(key), f"{value:,}", border=True)
    for note in h.layout.notes:
        st.warning(tx(note))


def rows(h: Handoff) -> None:
    """The floor plan and the rack table."""
    st.subheader(t("layout.floor"))
    names = {kind: t(key) for kind, key in KIND_KEYS.items()}
    drawing(floor_svg(h.layout, kind_names=names), "floor-plan")
    st.caption(t("layout.floor_caption", per_row=h.layout.racks_per_row))
    frame = pd.DataFrame(rack_rows(h))
    frame["kind"] = frame["kind"].map(names)
    headers = {column: t(key) for column, key in COLUMN_KEYS.items()}
    st.dataframe(frame.rename(columns=headers), hide_index=True, width="stretch")
    lengths = pd.DataFrame(length_summary(h))
    if not lengths.empty:
        st.subheader(t("layout.lengths"))
        lengths["link_class"] = lengths["link_class"].map({c: t(k) for c, k in LINK_KEYS.items()})
        st.dataframe(lengths.rename(columns=headers), hide_index=True)
        st.caption(t("layout.lengths_caption"))
        cable_prices(h, headers)


def cable_prices(h: Handoff, headers: dict[str, str]) -> None:
    """The cables this floor orders, per ordered length and priced, and the check that the BOM
    orders the same ones (it prices the layout of the scenario's floor)."""
    pricing = layout_cable_pricing(h, engine.catalog())
    prices = pd.DataFrame(pricing_rows(pricing))
    if prices.empty:
        return
    st.subheader(t("layout.prices"))
    prices["link_class"] = prices["link_class"].map({c: t(k) for c, k in LINK_KEYS.items()})
    shown = ["link_class", "cable_part", "cables", "ordered_lengths", "layout_usd"]
    st.dataframe(prices[shown].rename(columns=headers), hide_index=True)
    differ = [t(LINK_KEYS[p.link_class]) for p in pricing if p.bom_m != p.ordered_m]
    if differ:
        st.warning(t("layout.prices_differ", classes=", ".join(differ)), icon=":material/warning:")
    else:
        st.success(t("layout.prices_agree"), icon=":material/check:")
    st.caption(t("layout.prices_caption"))


def elevations(h: Handoff) -> None:
    """One front view per rack type, three to a line."""
    st.subheader(t("layout.elevations"))
    types = rack_types(h.layout, h.wiring)
    for start in range(0, len(types), 3):
        for cell, rack_type in zip(st.columns(3), types[start : start + 3], strict=False):
            title = t(
                "layout.rack_type",
                kind=t(KIND_KEYS[rack_type.kind]),
                name=rack_type.key,
                count=len(rack_type.racks),
            )
            with cell:
                drawing(elevation_svg(rack_type, h.wiring, title=title, lang=state.lang()), "elevation")


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            archive.writestr(name, data)
    return buffer.getvalue()


@st.cache_data(show_spinner=False, max_entries=16)
def _file(kind: str, scenario_json: str, override_json: str, lang: str) -> bytes:
    """One download file of a hand-off, built when first asked for (the XLSX of a 1024-GPU
    rail8-npo plan takes seconds), then cached."""
    h = _handoff(scenario_json, override_json)
    if kind == "csv":
        return cabling_csv(h)
    if kind == "xlsx":
        return cabling_xlsx(h, lang)
    if kind == "elevations":
        svgs = {
            f"{rt.key}.svg": elevation_svg(rt, h.wiring).encode("utf-8")
            for rt in rack_types(h.layout, h.wiring)
        }
        return _zip(svgs)
    if kind == "netbox":
        return _zip(netbox_files(h, engine.catalog()))
    return drawio_file(h)


def downloads(h: Handoff) -> None:
    """Cabling plan CSV and XLSX, elevations, NetBox files and the draw.io file, each built on click."""
    st.subheader(t("layout.downloads"))
    stem = f"{h.plan.design_id}_{h.plan.gpus}gpu"
    inputs = (
        engine.canonical_json(h.plan.scenario),
        state.catalog_override(),
        state.lang(),
    )

    def deferred(kind: str) -> Callable[[], bytes]:
        return lambda: _file(kind, *inputs)

    items = (
        ("layout.download_cabling_csv", "csv", f"cabling_{stem}.csv", "text/csv"),
        (
            "layout.download_cabling_xlsx",
            "xlsx",
            f"cabling_{stem}.xlsx",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ),
        ("layout.download_elevations", "elevations", f"elevations_{stem}.zip", "application/zip"),
        ("layout.download_netbox", "netbox", f"netbox_{stem}.zip", "application/zip"),
        ("layout.download_drawio", "drawio", f"{stem}.drawio", "application/xml"),
    )
    cells = st.columns(len(items))
    for cell, (key, kind, name, mime) in zip(cells, items, strict=True):
        cell.download_button(
            t(key), data=deferred(kind), file_name=name, mime=mime, icon=":material/download:"
        )
    st.caption(t("layout.downloads_caption"))
