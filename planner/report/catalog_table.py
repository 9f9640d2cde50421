"""The Catalog page's tables and the catalog field reference (pure: pandas only, no Streamlit).

* :func:`family_records`: one family's records, one readable cell per field; a nested model (a
  design's ``fabric``) becomes one column per field (``fabric.ports_per_gpu``), tuples and
  mappings become text (``air, direct_liquid``; ``32 × 100G, 128 × 25G``), booleans yes/no, an
  empty optional figure a dash. Columns are keyed by field path; :func:`readable_records`
  gives them labels with units (``Board power [W]``) in the reader's language.
* :func:`claim_records`: the designs' vendor claims, apart from the figures: a claim is what a
  vendor says, shown with the design's source, never used in a computation.
* :func:`field_reference`: every field of a family's schema (nested fields included) with type,
  unit, range, default and meaning; :func:`reference_markdown` writes it for every family to
  ``docs/catalog.md`` (``python -m planner.report.catalog_table``; ``tests/test_catalog_page.py``
  fails when the file is stale).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

import pandas as pd
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from planner import Catalog
from planner.catalog import FAMILIES
from planner.catalog.schema import Design, Record
from planner.i18n import tr, tr_enum, translate, translate_text
from planner.i18n.message import Message, msg
from planner.report import fmt

PROVENANCE = ("source", "as_of", "assumption", "reason", "notes")
TRANSLATED_FIELDS = ("name", "description", "reason", "notes", "source", "unit", "region")
"""Record fields shown in the reader's language (the catalog prose of ``catalog.po``: the
extraction's ``DATA_FIELDS``); ids and figures stay as they are, and a translated source keeps
its citations (titles, authors, addresses) as published."""
NESTED_PROSE_SUFFIXES = ("_source", "_reason")
"""A nested model's own provenance prose (``visible_memory.memory_source``,
``host_link.link_reason``), shown in the reader's language like a record's ``source``."""
APART = {"designs": ("claims",)}
"""Fields not shown as columns: a design's vendor claims have their own table (:func:`claim_records`)."""
SAME_IN = {"name_zh": "zh"}
"""Fields left out in a language where they repeat another column (the name is already Chinese)."""
EMPTY = "—"
"""An optional field left empty (no CDU, no source of an assumed figure)."""

FIELD_LABELS: dict[str, Message] = {
    # every record
    "id": msg("Id"),
    "name": msg("Name"),
    "source": msg("Source"),
    "as_of": msg("Source date"),
    "assumption": msg("Assumed figure"),
    "reason": msg("Reason for the assumption"),
    "notes": msg("Notes"),
    # GPUs and servers
    "vendor": msg("Vendor"),
    "form_factor": msg("Module form factor"),
    "tdp_w": msg("Board power"),
    "hbm_gbyte": msg("Device memory"),
    "visible_memory": msg("Device memory the driver reports"),
    "total_mib": msg("Device memory the driver reports"),
    "memory_source": msg("Source of the driver-reported memory"),
    "memory_as_of": msg("Date of that source"),
    "memory_assumption": msg("Driver-reported memory assumed"),
    "memory_reason": msg("Reason for assuming the driver-reported memory"),
    "hbm_bandwidth_gbyte_per_s": msg("Memory bandwidth"),
    "bf16_dense_tflops": msg("Dense BF16 peak"),
    "scale_up_bandwidth_gbyte_per_s": msg("Scale-up bandwidth per direction"),
    "nvls_allreduce": msg("In-switch reduction on scale-up (NVLS)"),
    "host_link": msg("Link to host memory"),
    "link_gbyte_per_s": msg("Host link bandwidth per direction"),
    "link_source": msg("Source of the host link bandwidth"),
    "link_as_of": msg("Date of the host link's source"),
    "link_assumption": msg("Host link bandwidth assumed"),
    "link_reason": msg("Reason for assuming the host link bandwidth"),
    "unit_cost_usd": msg("Unit price"),
    "default_server_id": msg("Default server"),
    "gpus_per_node": msg("GPUs per server"),
    "form_factors": msg("GPU form factors taken"),
    "rack_units": msg("Height"),
    "base_power_w": msg("Base power without GPUs and fabric NICs"),
    "chassis_cost_usd": msg("Chassis price without GPUs and fabric NICs"),
    "cooling": msg("Cooling methods supported"),
    # NICs, switches, optics, cables
    "families": msg("Fabric families spoken"),
    "ports": msg("Ports per adapter"),
    "port_speed_gbit_per_s": msg("Port speed"),
    "power_w": msg("Power"),
    "latency_ns": msg("Latency"),
    "nccl_efficiency": msg("NCCL bus bandwidth efficiency"),
    "alpha_us": msg("Collective step latency"),
    "family": msg("Fabric family"),
    "capacity_gbit_per_s": msg("Switching capacity"),
    "radix_by_speed": msg("Ports at each speed"),
    "power_typical_w": msg("Typical power"),
    "power_max_w": msg("Maximum power"),
    "in_network_reduction": msg("In-network reduction"),
    "management": msg("Management switch"),
    "kind": msg("Kind"),
    "reconfiguration_ms": msg("Circuit reconfiguration time"),
    "scale_up_attach": msg("Scale-up switch connects"),
    "twin_rack": msg("Twin-rack domain"),
    "medium": msg("Fiber type"),
    "speed_gbit_per_s": msg("Speed per port"),
    "ports_per_module": msg("Ports per module"),
    "max_reach_m": msg("Maximum reach"),
    "max_speed_gbit_per_s": msg("Fastest port carried"),
    "cost_usd_per_m": msg("Price per metre"),
    # racks, PDUs, cooling, storage
    "usable_rack_units": msg("Usable height"),
    "capacity_kw": msg("Power capacity"),
    "pue_default": msg("Typical PUE"),
    "max_rack_kw": msg("Densest rack cooled"),
    "capex_usd_per_kw": msg("Cooling capital cost per kW"),
    "liquid_capture_fraction": msg("Share of heat removed by liquid"),
    "cdu_capacity_kw": msg("Heat removed per CDU"),
    "cdu_unit_cost_usd": msg("CDU price"),
    "coolant_delta_t_k": msg("Coolant temperature rise"),
    "air_delta_t_k": msg("Air temperature rise"),
    "capacity_tbyte": msg("Usable capacity per unit"),
    "write_bandwidth_gbyte_per_s": msg("Sustained write bandwidth"),
    "read_bandwidth_gbyte_per_s": msg("Sustained read bandwidth"),
    "network_ports": msg("Network ports per unit"),
    # economics and rules
    "region": msg("Region"),
    "usd_per_kwh": msg("Electricity price"),
    "currency": msg("Currency"),
    "per_usd": msg("Units per US dollar"),
    "value": msg("Value"),
    "unit": msg("Unit of the value"),
    # designs and their fabric
    "name_zh": msg("Chinese name"),
    "description": msg("Description"),
    "default_gpu_id": msg("Default GPU"),
    "fabric": msg("Fabric"),
    "claims": msg("Vendor claims"),
    "ports_per_gpu": msg("Ports per GPU"),
    "gpus_per_port": msg("GPUs sharing a port"),
    "nics_per_server": msg("Fabric NICs per server"),
    "ports_per_nic": msg("Ports cabled per NIC"),
    "planes_per_port": msg("Planes per port"),
    "planes": msg("Planes"),
    "rail_optimized": msg("Rail-optimized"),
    "switch_id": msg("Leaf switch"),
    "spine_switch_id": msg("Spine switch"),
    "core_switch_id": msg("Core switch"),
    "nic_id": msg("Fabric NIC"),
    "optics_id": msg("Switch-end optics"),
    "node_optics_id": msg("Node-end optics"),
    "oversubscription": msg("Leaf oversubscription"),
    "scale_up_domain_gpus": msg("GPUs per scale-up domain"),
    "scale_up_switch_id": msg("Scale-up switch"),
    "scale_up_links_per_gpu": msg("Scale-up links per GPU"),
    "link_media": msg("Media forced per link class"),
    # a vendor claim
    "metric": msg("Claim metric"),
    "text_en": msg("Claim in English"),
    "text_zh": msg("Claim in Chinese"),
    "value_pct": msg("Claimed change"),
    "status": msg("Claim status"),
}
"""A short column label per field name (a field means the same in every family it appears in);
the unit is added from the schema (:func:`field_unit`)."""

YES, NO = msg("yes"), msg("no")
ENUM_GROUPS: dict[tuple[str, str], str] = {
    ("servers", "cooling"): "cooling",
    ("cooling", "kind"): "cooling",
    ("optics", "kind"): "medium",
    ("optics", "medium"): "medium",
    ("cables", "kind"): "medium",
}
"""Enumerations shown by the app's label of the value (``tr_enum`` group)."""
VALUE_LABELS: dict[str, dict[str, str]] = {
    "form_factor": {"oam": "OAM", "sxm": "SXM", "pcie": msg("PCIe card"), "other": msg("other")},
    "family": {
        "ethernet": msg("Ethernet"),
        "infiniband": "InfiniBand",
        "nvlink": "NVLink",
        "scale_up": msg("scale-up switch"),
    },
    "kind": {"packet": msg("packet switch"), "circuit": msg("optical circuit switch")},
    "scale_up_attach": {"gpu": msg("every GPU of the domain"), "server": msg("every server of the domain")},
}
"""Labels of the other enumerations' values; product names (SXM, InfiniBand) stay as they are.
``form_factors`` and ``families`` (tuples) use the labels of ``form_factor`` and ``family``."""
_VALUE_FIELD = {"form_factors": "form_factor", "families": "family"}
NO_UNIT = ("", "-", "count")


# --- records ------------------------------------------------------------------------------------


def family_records(catalog: Catalog, family: str, lang: str) -> pd.DataFrame:
    """Records of one catalog family, keyed by field path: id and name, the figures (a nested
    model flattened), then where they come from; prose in ``lang``
    (:func:`planner.i18n.translate_text`).

    Parameters
    ----------
    catalog : Catalog
        The catalog.
    family : str
        Catalog family (``gpus``, ``switches``, ...).
    lang : str
        Language of the prose (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per record, columns the field paths (empty cells ``—``).
    """
    rows = [_flat(family, record, lang) for record in catalog.family(family).values()]
    frame = pd.DataFrame(rows)
    for column in frame.columns:
        frame[column] = _dash_empty(frame[column])
    first = [c for c in ("id", "name") if c in frame]
    last = [c for c in PROVENANCE if c in frame]
    return frame[first + [c for c in frame.columns if c not in first + last] + last]


def _flat(family: str, record: BaseModel, lang: str) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for name in type(record).model_fields:
        if name in APART.get(family, ()) or SAME_IN.get(name) == lang:
            continue
        value = getattr(record, name)
        if isinstance(value, BaseModel):
            row |= {f"{name}.{k}": v for k, v in _flat(family, value, lang).items()}
        else:
            row[name] = cell(family, name, value, lang)
    return row


def cell(family: str, name: str, value: Any, lang: str) -> Any:
    """One field's value as the Catalog page shows it: figures as they are, text readable.

    Parameters
    ----------
    family : str
        Catalog family of the record.
    name : str
        Field name.
    value : Any
        The field's value (in the schema's unit).
    lang : str
        Language of text values (``en`` or ``zh``).

    Returns
    -------
    Any
        Numbers unchanged, ``None`` kept, booleans, enums, lists and mappings as text.

    >>> cell("switches", "radix_by_speed", {100: 32, 25: 128}, "en"), cell("gpus", "nvls_allreduce", True, "en")
    ('32 × 100G, 128 × 25G', 'yes')
    >>> cell("servers", "form_factors", ("oam", "pcie"), "en"), cell("cooling", "cdu_capacity_kw", None, "en")
    ('OAM, PCIe card', None)
    """
    if isinstance(value, bool):
        return translate(YES if value else NO, lang)
    if isinstance(value, str):
        if name in TRANSLATED_FIELDS or name.endswith(NESTED_PROSE_SUFFIXES):
            return translate_text(value, lang)
        group = ENUM_GROUPS.get((family, name))
        if group:
            return tr_enum(group, value, lang)
        label = VALUE_LABELS.get(_VALUE_FIELD.get(name, name), {}).get(value)
        return value if label is None else translate(label, lang)
    if isinstance(value, tuple | list):
        return ", ".join(str(cell(family, name, v, lang)) for v in value)
    if isinstance(value, dict):
        return _mapping(name, value, lang)
    return value


def _mapping(name: str, value: dict[Any, Any], lang: str) -> str:
    if name == "radix_by_speed":
        return ", ".join(f"{ports} × {speed}G" for speed, ports in sorted(value.items(), reverse=True))
    if name == "link_media":
        return "; ".join(f"{tr_enum('link_class', k, lang)}: {v}" for k, v in value.items())
    return "; ".join(f"{k}: {v}" for k, v in value.items())


def _dash_empty(column: pd.Series) -> pd.Series:
    """An empty optional field shown as a dash; the figures of a column that has one then become
    text too (one column, one type: a mixed column would be shown as raw objects).

    >>> list(_dash_empty(pd.Series([1200.0, None, 2.5e6])))
    ['1200', '—', '2500000']
    """
    if not column.isna().any():
        return column
    return column.map(lambda v: EMPTY if v is None or v != v else v if isinstance(v, str) else f"{v:.12g}")


def column_label(family: str, path: str, lang: str) -> str:
    """The header of a column: its label in ``lang`` and the unit of the schema field.

    Parameters
    ----------
    family : str
        Catalog family.
    path : str
        Field path (``fabric.port_speed_gbit_per_s``).
    lang : str
        Language of the label (``en`` or ``zh``).

    Returns
    -------
    str
        Label with the unit in brackets (no brackets for a unitless field).

    >>> column_label("gpus", "tdp_w", "en"), column_label("designs", "fabric.port_speed_gbit_per_s", "en")
    ('Board power [W]', 'Port speed [Gb/s]')
    >>> column_label("servers", "gpus_per_node", "en"), column_label("cooling", "pue_default", "zh")
    ('GPUs per server', '典型 PUE')
    """
    label, unit = label_and_unit(family, path, lang)
    return label if unit in NO_UNIT else f"{label} [{unit}]"


def label_and_unit(family: str, path: str, lang: str) -> tuple[str, str]:
    """A field's label in ``lang`` and its unit (from the schema), apart.

    Parameters
    ----------
    family : str
        Catalog family.
    path : str
        Field path.
    lang : str
        Language of the label (``en`` or ``zh``).

    Returns
    -------
    tuple[str, str]
        Label and unit symbol (empty when none).

    >>> label_and_unit("gpus", "tdp_w", "en")
    ('Board power', 'W')
    """
    name = path.rsplit(".", 1)[-1]
    info = _field_info(family, path)
    return translate(FIELD_LABELS[name], lang), field_unit(name, info.description if info else None)


def readable_records(catalog: Catalog, family: str, lang: str) -> pd.DataFrame:
    """:func:`family_records` with every column headed by :func:`column_label`.

    Parameters
    ----------
    catalog : Catalog
        The catalog.
    family : str
        Catalog family.
    lang : str
        Language of headers and prose (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per record, columns headed ``label [unit]``.
    """
    frame = family_records(catalog, family, lang)
    return frame.rename(columns={c: column_label(family, c, lang) for c in frame.columns})


def _field_info(family: str, path: str) -> FieldInfo | None:
    model: type[BaseModel] = FAMILIES[family]
    info: FieldInfo | None = None
    for part in path.split("."):
        info = model.model_fields.get(part)
        if info is None:
            return None
        nested = _model_of(info.annotation)
        if nested is not None:
            model = nested
    return info


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds (``FabricParams``), or one of a tuple of (``VendorClaim``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    args = [a for a in get_args(annotation) if a is not Ellipsis]
    if get_origin(annotation) is tuple and len(args) == 1:
        return _model_of(args[0])
    return None


# --- vendor claims --------------------------------------------------------------------------------


def claim_records(catalog: Catalog, lang: str) -> pd.DataFrame:
    """Every design's vendor claims: the claim as the vendor words it, the claimed change, its
    status (not verified unless checked) and the design's source. The engine never uses them.

    Parameters
    ----------
    catalog : Catalog
        The catalog (its designs' claims).
    lang : str
        Language of the labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per claim: design, claim, claimed change [%], status, source.
    """
    rows = [
        {
            tr("col.design", lang): translate_text(design.name, lang),
            tr("col.claim", lang): claim.text_zh if lang == "zh" else claim.text_en,
            tr("col.claimed", lang): EMPTY
            if claim.value_pct is None
            else fmt.percent(claim.value_pct / 100, signed=True),
            tr("col.status", lang): tr_enum("claim_status", claim.status, lang),
            tr("col.source", lang): _cited(design, lang),
        }
        for design in catalog.designs.values()
        for claim in design.claims
    ]
    return pd.DataFrame(rows)


def _cited(design: Design, lang: str) -> str:
    if not design.source:
        return EMPTY
    source = translate_text(design.source, lang)
    return f"{source}（{design.as_of}）" if lang == "zh" else f"{source} ({design.as_of})"


# --- field reference --------------------------------------------------------------------------------

_UNIT_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("_gbit_per_s", "Gb/s"),
    ("_gbyte_per_s", "GB/s"),
    ("_usd_per_kw", "USD/kW"),
    ("_usd_per_m", "USD/m"),
    ("_usd", "USD"),
    ("_kw", "kW"),
    ("_w", "W"),
    ("_ns", "ns"),
    ("_us", "µs"),
    ("_m", "m"),
    ("_tbyte", "TB"),
    ("_gbyte", "GB"),
    ("_tflops", "TFLOPS"),
    ("_k", "K"),
    ("_fraction", "—"),
)


def field_unit(name: str, description: str | None) -> str:
    """The unit of a schema field: the bracket in its description, else its name's suffix.

    Parameters
    ----------
    name : str
        Field name.
    description : str or None
        The field's schema description.

    Returns
    -------
    str
        Unit symbol; empty when none.

    >>> field_unit("tdp_w", "Board power [W]."), field_unit("max_reach_m", None), field_unit("kind", None)
    ('W', 'm', '')
    """
    if description and "[" in description and "]" in description:
        return description[description.rindex("[") + 1 : description.rindex("]")]
    for suffix, unit in _UNIT_SUFFIXES:
        if name.endswith(suffix):
            return unit
    return ""


def _type_name(annotation: Any) -> str:
    """``float``, ``str | None``, ``oam | sxm | pcie`` (a Literal's values), ``tuple[...]``.

    >>> from typing import Literal
    >>> _type_name(Literal["air", "immersion"]), _type_name(int | None), _type_name(tuple[Literal["a", "b"], ...])
    ('air | immersion', 'int | None', 'tuple[a | b, ...]')
    """
    if get_origin(annotation) is Literal:
        return " | ".join(str(v) for v in get_args(annotation))
    args = get_args(annotation)
    origin = get_origin(annotation)
    if origin in (UnionType, Union):
        return " | ".join(_type_name(a) for a in args)
    if origin is not None and args:
        inner = ", ".join("..." if a is Ellipsis else _type_name(a) for a in args)
        return f"{getattr(origin, '__name__', str(origin))}[{inner}]"
    text = getattr(annotation, "__name__", None) or str(annotation)
    return text.replace("typing.", "").replace("NoneType", "None")


def schema_fields(model: type[BaseModel], prefix: str = "") -> Iterator[tuple[str, FieldInfo]]:
    """``(path, field)`` of every field of ``model``, a nested model's fields after its own row
    (``fabric``, ``fabric.family`` ...; a tuple of models as ``claims[].metric``).

    Parameters
    ----------
    model : type[BaseModel]
        A catalog record schema.
    prefix : str
        Path prefix of nested fields.

    Yields
    ------
    tuple[str, FieldInfo]
        Field path and its pydantic field.
    """
    for name, info in model.model_fields.items():
        yield f"{prefix}{name}", info
        nested = _model_of(info.annotation)
        if nested is not None:
            inner = f"{prefix}{name}[]." if get_origin(info.annotation) is tuple else f"{prefix}{name}."
            yield from schema_fields(nested, inner)


def _range(info: FieldInfo) -> str:
    lo = hi = None
    for meta in info.metadata:
        lo = next((getattr(meta, a) for a in ("ge", "gt") if getattr(meta, a, None) is not None), lo)
        hi = next((getattr(meta, a) for a in ("le", "lt") if getattr(meta, a, None) is not None), hi)
    if lo is not None or hi is not None:
        return f"{_bound(lo, '-∞')} … {_bound(hi, '∞')}"
    pattern = next((getattr(m, "pattern", None) for m in info.metadata if getattr(m, "pattern", None)), None)
    return f"/{pattern}/" if pattern else ""


def _bound(value: Any, infinite: str) -> str:
    return infinite if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def _default(info: FieldInfo, lang: str) -> str:
    """The default as the records table shows it: empty as a dash, a boolean as yes/no."""
    value = info.get_default(call_default_factory=True)
    if value is None or (isinstance(value, dict | tuple | list) and not value):
        return EMPTY
    return translate(YES if value else NO, lang) if isinstance(value, bool) else str(value)


def field_reference(family: str, lang: str) -> pd.DataFrame:
    """Every field of a catalog family's schema, nested ones included: type, unit, range,
    required or default, meaning (the schema's description, in ``lang``).

    Parameters
    ----------
    family : str
        Catalog family.
    lang : str
        Language of headers and meanings (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per field path: type, unit, range, required or default, meaning.
    """
    rows = [
        {
            tr("col.field", lang): path,
            tr("col.type", lang): _type_name(info.annotation),
            tr("col.unit", lang): field_unit(path.rsplit(".", 1)[-1], info.description),
            tr("col.range", lang): _range(info),
            tr("col.required", lang): tr("word.required", lang)
            if info.is_required()
            else f"{tr('word.default', lang)}: {_default(info, lang)}",
            tr("col.description_field", lang): translate_text(info.description or "", lang),
        }
        for path, info in schema_fields(FAMILIES[family])
    ]
    return pd.DataFrame(rows)


# --- docs/catalog.md ----------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
DOCS_PATH = ROOT / "docs/catalog.md"
_INTRO = """\
# Catalog field reference

Generated from the catalog schema (`planner/catalog/schema.py`, the fabric of a design and its
vendor claims from `planner/design.py`) by `python -m planner.report.catalog_table`; do not edit
by hand (`tests/test_catalog_page.py` fails when this file is stale). The Catalog page shows the
same reference per family, in English and Chinese, under its records table.

Every record also carries where its figures come from: `source` and `as_of`, or
`assumption: true` with a `reason`. The records are in `data/*.yaml`, one section per family; an
override file (the Catalog page's upload, `planner plan --catalog FILE`) uses the same sections
and field names. The Catalog page labels each column with the short label below and the unit.

A design's `claims` are vendor claims: the page shows them in their own table with the design's
source and their status (not verified unless checked); no computation uses them. Every family
below also has the fields of every record (an id, a name and where its figures come from).
"""


def _markdown_rows(fields: Iterator[tuple[str, FieldInfo]]) -> list[str]:
    rows = [
        "| Field | Label | Type | Unit | Range | Required / default | Meaning |",
        "|---|---|---|---|---|---|---|",
    ]
    for path, info in fields:
        name = path.rsplit(".", 1)[-1]
        rng = _range(info)
        cells = (
            f"`{path}`",
            FIELD_LABELS.get(name, ""),
            f"`{_type_name(info.annotation)}`",
            field_unit(name, info.description),
            f"`{rng}`" if rng.startswith("/") else rng,
            "required" if info.is_required() else f"default: {_default(info, 'en')}",
            info.description or "",
        )
        rows.append("| " + " | ".join(fmt.markdown_cell(c) for c in cells) + " |")
    return rows


def reference_markdown() -> str:
    """``docs/catalog.md``: the fields every record has, then per family its own fields (path,
    label, type, unit, range, required or default, meaning), in English.

    Returns
    -------
    str
        Markdown text of ``docs/catalog.md``.
    """
    common = Record.model_fields
    parts = [_INTRO, "## Fields of every record", "", *_markdown_rows(iter(common.items()))]
    for family, model in FAMILIES.items():
        own = (
            (path, info)
            for path, info in schema_fields(model)
            if path not in common or repr(info) != repr(common[path])
        )
        parts += ["", f"## {tr_enum('family', family, 'en')} (`{family}`)", ""]
        if model.__doc__:
            parts += [" ".join(model.__doc__.split()), ""]
        parts += _markdown_rows(own)
    return "\n".join(parts) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write ``docs/catalog.md``; ``--check`` only reports (exit 1) when it is stale.

    Parameters
    ----------
    argv : Sequence[str] or None
        Arguments (``--check`` or none); ``None`` reads ``sys.argv``.

    Returns
    -------
    int
        Exit status: 0, or 1 when ``--check`` finds the file stale.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    text = reference_markdown()
    current = DOCS_PATH.read_text(encoding="utf-8") if DOCS_PATH.exists() else ""
    if "--check" in args:
        print("docs/catalog.md is current" if current == text else "docs/catalog.md is stale")
        return 0 if current == text else 1
    if current != text:
        DOCS_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {DOCS_PATH.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
