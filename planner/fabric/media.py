"""Media per link class: copper, multimode or single-mode optics, chosen by reach.

Notes
-----
Counting conventions of published reference designs (``docs/model.md``, "Topology and counts"):

- one cable per link; an optical link has a transceiver at each end;
- a twin-port module (OSFP 2x400G) serves two ports of one switch: ``ceil(ports / 2)`` per switch;
- NPO/CPO ports have no pluggable module: their optics are counted, powered and priced per port;
- copper (DAC, then ACC, then AEC) where the link is short enough and the ports are pluggable,
  the design's optics where they reach, else a single-mode optic of the same speed and shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from planner.catalog import Catalog
from planner.catalog.memo import per_catalog
from planner.catalog.schema import Cable, Optic
from planner.errors import InputError
from planner.i18n.message import msg
from planner.units import FIBER_PROPAGATION_NS_PER_M, ceil_div

LinkClass = Literal["node_leaf", "leaf_spine", "spine_core", "core_top"]
LINK_CLASSES: tuple[LinkClass, ...] = ("node_leaf", "leaf_spine", "spine_core")
"""The link classes of fabrics up to three tiers (what the optimizer and the link lengths cover)."""
FABRIC_LINK_CLASSES: tuple[LinkClass, ...] = (*LINK_CLASSES, "core_top")
"""Every link class bottom up; ``core_top`` joins cores to the top switches of a four-tier fabric
and takes the spine-core cable length."""
AuxLinkClass = Literal[
    "storage_access",
    "storage_uplink",
    "frontend_access",
    "frontend_uplink",
    "inband_access",
    "inband_uplink",
    "oob_access",
    "oob_uplink",
]
"""Link classes of the storage, front-end, in-band and out-of-band fabrics: ``*_access`` from
the servers' and storage units' ports (and, out of band, every switch's management port) to the
fabric's leaves, ``*_uplink`` between its tiers (:mod:`planner.fabric.auxiliary`)."""
AUX_LINK_CLASSES: tuple[AuxLinkClass, ...] = get_args(AuxLinkClass)

_LENGTH_OF: dict[str, str] = {
    "node_leaf": "node_leaf_m",
    "leaf_spine": "leaf_spine_m",
    "spine_core": "spine_core_m",
    "core_top": "spine_core_m",
}


def length_field(link_class: str) -> str:
    """The ``facility.link_lengths`` field whose length a link class is priced and sized at.

    Auxiliary access links run from the compute racks (and the storage units) to the network
    racks like node-leaf links; the auxiliary fabrics' uplinks join network racks like leaf-spine
    links (every auxiliary switch sits in the network racks).

    Parameters
    ----------
    link_class : str
        A compute or auxiliary link class (``node_leaf``, ``storage_access``, ``oob_uplink`` ...).

    Returns
    -------
    str
        Name of the ``facility.link_lengths`` field [dimensionless].

    Examples
    --------
    >>> length_field("storage_access"), length_field("oob_uplink"), length_field("core_top")
    ('node_leaf_m', 'leaf_spine_m', 'spine_core_m')
    """
    if link_class in _LENGTH_OF:
        return _LENGTH_OF[link_class]
    return "node_leaf_m" if link_class.endswith("_access") else "leaf_spine_m"


@dataclass(frozen=True)
class LinkEnd:
    """The optics at one end of a link class (``None`` for copper)."""

    optic_id: str | None
    devices: int
    ports: int
    units: int
    """Pluggable modules, or ports for NPO/CPO (which are priced per port)."""


@dataclass(frozen=True)
class LinkMedia:
    """How one link class is built."""

    link_class: LinkClass | AuxLinkClass
    links: int
    length_m: float
    medium: str
    cable_id: str
    lower: LinkEnd
    upper: LinkEnd
    power_w: float
    latency_ns_per_link: float

    @property
    def transceivers(self) -> int:
        return self.lower.units + self.upper.units


def units_on_devices(*, ports: int, devices: int, ports_per_module: int) -> int:
    """Modules needed when ``ports`` are spread evenly over ``devices``, each rounding up.

    Parameters
    ----------
    ports : int
        Ports to serve [count].
    devices : int
        Devices they are spread over [count].
    ports_per_module : int
        Ports one module serves [count].

    Returns
    -------
    int
        Modules [count]; 0 when there are no ports or no devices.

    Examples
    --------
    >>> units_on_devices(ports=64, devices=2, ports_per_module=2)
    32
    >>> units_on_devices(ports=3, devices=3, ports_per_module=2)
    3
    """
    if ports == 0 or devices == 0:
        return 0
    base, extra = divmod(ports, devices)
    return extra * ceil_div(base + 1, ports_per_module) + (devices - extra) * ceil_div(base, ports_per_module)


def _cheapest(items: list[Cable] | list[Optic]) -> Cable | Optic | None:
    return min(items, key=lambda item: (item.unit_cost_usd, item.id), default=None)


def _reaching_optic(catalog: Catalog, preferred: Optic, length_m: float) -> Optic:
    """The preferred optic if it reaches; else the cheapest single-mode optic of the same shape."""
    if preferred.max_reach_m >= length_m:
        return preferred
    found = _cheapest_optic(
        catalog, preferred.kind, preferred.speed_gbit_per_s, preferred.ports_per_module, length_m
    )
    if found is None:
        raise InputError(
            msg(
                "facility.link_lengths: {length_m:g} m exceeds the reach of {optic} ({reach_m:g} m) "
                "and no {kind} optic of the same shape reaches it",
                length_m=length_m,
                optic=preferred.id,
                reach_m=preferred.max_reach_m,
                kind=preferred.kind,
            )
        )
    return found


@per_catalog
def _cheapest_optic(
    catalog: Catalog, kind: str, speed_gbit_per_s: int, ports_per_module: int, length_m: float
) -> Optic | None:
    """The cheapest optic of a kind, speed and ports per module that reaches ``length_m``."""
    found = _cheapest(
        [
            o
            for o in catalog.optics.values()
            if o.kind == kind
            and o.speed_gbit_per_s == speed_gbit_per_s
            and o.ports_per_module == ports_per_module
            and o.max_reach_m >= length_m
        ]
    )
    return found if isinstance(found, Optic) else None


def _fiber_for(catalog: Catalog, optic: Optic, length_m: float) -> Cable:
    kind = "fiber_mmf" if optic.medium == "mmf" else "fiber_smf"
    found = _cheapest_cable(catalog, kind, length_m)
    if found is None:
        raise InputError(msg("catalog: no {kind} cable reaches {length_m:g} m", kind=kind, length_m=length_m))
    return found


@per_catalog
def _cheapest_cable(catalog: Catalog, kind: str, length_m: float) -> Cable | None:
    """The cheapest cable of ``kind`` that reaches ``length_m``."""
    found = _cheapest([c for c in catalog.cables.values() if c.kind == kind and c.max_reach_m >= length_m])
    return found if isinstance(found, Cable) else None


def _reaching_copper(catalog: Catalog, *, speed_gbit_per_s: int, length_m: float) -> list[Cable]:
    """Copper cables that carry ``speed_gbit_per_s`` [Gbit/s] over ``length_m`` [m], in catalog order."""
    return [
        c
        for c in catalog.cables.values()
        if c.is_copper and c.max_speed_gbit_per_s >= speed_gbit_per_s and c.max_reach_m >= length_m
    ]


@per_catalog
def _copper_for(catalog: Catalog, speed_gbit_per_s: int, length_m: float) -> Cable | None:
    found = _cheapest(_reaching_copper(catalog, speed_gbit_per_s=speed_gbit_per_s, length_m=length_m))
    return found if isinstance(found, Cable) else None


def _forced(
    *,
    catalog: Catalog,
    forced_id: str,
    link_class: LinkClass | AuxLinkClass,
    length_m: float,
    speed_gbit_per_s: int,
    integrated: bool,
    lower_optic: Optic,
) -> tuple[Cable | None, Optic, Optic]:
    """Check a forced medium and return (copper cable or None, lower optic, upper optic)."""
    field = f"fabric.link_media.{link_class}"
    # what the link needs, named by both messages of a part that falls short of it
    need = {"field": field, "id": forced_id, "need_speed": speed_gbit_per_s, "length_m": length_m}
    if forced_id in catalog.cables:
        cable = catalog.cables[forced_id]
        if not cable.is_copper:
            raise InputError(
                msg("{field}: {id} is a fiber; name the optic instead", field=field, id=forced_id)
            )
        if integrated:
            raise InputError(
                msg("{field}: NPO/CPO ports take no copper cable ({id})", field=field, id=forced_id)
            )
        if cable.max_speed_gbit_per_s < speed_gbit_per_s or cable.max_reach_m < length_m:
            raise InputError(
                msg(
                    "{field}: {id} carries {speed}G over {reach_m:g} m, the link needs {need_speed}G over "
                    "{length_m:g} m",
                    speed=cable.max_speed_gbit_per_s,
                    reach_m=cable.max_reach_m,
                    **need,
                )
            )
        return cable, lower_optic, lower_optic
    optic = catalog.optics[forced_id]
    if optic.speed_gbit_per_s != speed_gbit_per_s or optic.max_reach_m < length_m:
        raise InputError(
            msg(
                "{field}: {id} serves {speed}G over {reach_m:g} m, the link needs {need_speed}G over "
                "{length_m:g} m",
                speed=optic.speed_gbit_per_s,
                reach_m=optic.max_reach_m,
                **need,
            )
        )
    if integrated != optic.integrated:
        raise InputError(
            msg(
                "{field}: {id} does not fit the design's {kind} ports",
                field=field,
                id=forced_id,
                kind=lower_optic.kind,
            )
        )
    lower = optic
    if link_class == "node_leaf" and optic.ports_per_module > 1:
        # NIC cages take single-port modules: the same kind and medium, one port each.
        singles = [
            o
            for o in catalog.optics.values()
            if o.kind == optic.kind
            and o.medium == optic.medium
            and o.speed_gbit_per_s == speed_gbit_per_s
            and o.ports_per_module == 1
            and o.max_reach_m >= length_m
        ]
        lower = min(singles, key=lambda o: (o.unit_cost_usd, o.id), default=optic)
    return None, lower, optic


def cable_unit_cost_usd(cable: Cable, length_m: float) -> float:
    """Price of one cable [USD]: fixed part + per-metre part x length.

    Parameters
    ----------
    cable : Cable
        The cable model: fixed price [USD] and price per metre [USD/m].
    length_m : float
        Cable length [m].

    Returns
    -------
    float
        Price of one cable [USD].
    """
    return cable.unit_cost_usd + cable.cost_usd_per_m * length_m


def _copper_media(
    copper: Cable,
    *,
    link_class: LinkClass | AuxLinkClass,
    links: int,
    length_m: float,
    lower_devices: int,
    upper_devices: int,
    lower_ports: int,
) -> LinkMedia:
    """A link class on copper: one cable per link, no optics."""
    return LinkMedia(
        link_class=link_class,
        links=links,
        length_m=length_m,
        medium=copper.kind,
        cable_id=copper.id,
        lower=LinkEnd(optic_id=None, devices=lower_devices, ports=lower_ports, units=0),
        upper=LinkEnd(optic_id=None, devices=upper_devices, ports=links, units=0),
        power_w=links * copper.power_w,
        latency_ns_per_link=copper.latency_ns + FIBER_PROPAGATION_NS_PER_M * length_m,
    )


def build_aux_link_media(
    *,
    catalog: Catalog,
    link_class: AuxLinkClass,
    links: int,
    length_m: float,
    speed_gbit_per_s: int,
    lower_devices: int,
    upper_devices: int,
    length_field: str,
) -> LinkMedia:
    """Media of one auxiliary link class (storage, front-end, management), chosen by reach.

    The compute rule (:func:`build_link_media`): the cheapest copper cable of the speed that
    reaches ``length_m`` (twisted pair for 1GbE management ports, DAC/ACC/AEC above), else the
    cheapest single-port pluggable optic of the speed that reaches it at both ends with its fiber.
    Single-port modules only: the ports of these fabrics are spread over many small devices
    (servers, storage units, management switches), so a twin-port module would serve one port
    on most of them.

    Parameters
    ----------
    catalog : Catalog
        Cables, optics and fibers to choose from.
    link_class : AuxLinkClass
        The auxiliary link class.
    links : int
        Links of the class [count].
    length_m : float
        Link length [m].
    speed_gbit_per_s : int
        Port speed [Gbit/s].
    lower_devices : int
        Devices at the lower end (servers, storage units, leaves) [count].
    upper_devices : int
        Switches at the upper end [count].
    length_field : str
        The input field ``length_m`` comes from, named in the error [dimensionless].

    Returns
    -------
    LinkMedia
        The medium, cable and optic counts at each end, power [W] and latency per link [ns].

    Raises
    ------
    InputError
        Neither copper nor an optic of the catalog carries ``speed_gbit_per_s`` over
        ``length_m``; the message names ``length_field``.
    """
    return _kept_aux_media(
        catalog,
        link_class,
        links,
        length_m,
        type(length_m),
        speed_gbit_per_s,
        lower_devices,
        upper_devices,
        length_field,
    )


@per_catalog
def _kept_aux_media(
    catalog: Catalog,
    link_class: AuxLinkClass,
    links: int,
    length_m: float,
    _length_type: type,
    speed_gbit_per_s: int,
    lower_devices: int,
    upper_devices: int,
    length_field: str,
) -> LinkMedia:
    """:func:`build_aux_link_media`, remembered per catalog and arguments: a sweep's designs
    share the storage, front-end and in-band fabrics at each size (about 3 in 4 of a default
    sweep's auxiliary link classes are asked again). ``_length_type`` keeps an int length apart
    from the equal float, so the result carries the length as it was given."""
    medium: Cable | tuple[Optic, Optic] | None = _copper_for(catalog, speed_gbit_per_s, length_m)
    if medium is None:
        optic = _cheapest_optic(catalog, "pluggable", speed_gbit_per_s, 1, length_m)
        if optic is None:
            raise InputError(
                msg(
                    "{field}: no cable or single-port optic of the catalog carries {speed}G over "
                    "{length_m:g} m ({link_class} links)",
                    field=length_field,
                    speed=speed_gbit_per_s,
                    length_m=length_m,
                    link_class=link_class,
                )
            )
        medium = (optic, optic)
    return _media(
        catalog,
        medium,
        link_class=link_class,
        links=links,
        length_m=length_m,
        devices=(lower_devices, upper_devices),
        links_per_lower_port=1,
    )


def build_link_media(
    *,
    catalog: Catalog,
    link_class: LinkClass | AuxLinkClass,
    links: int,
    length_m: float,
    speed_gbit_per_s: int,
    lower_devices: int,
    upper_devices: int,
    lower_optic: Optic,
    upper_optic: Optic,
    forced_id: str | None = None,
    links_per_lower_port: int = 1,
) -> LinkMedia:
    """Choose media for ``links`` links of one class and count cables and optics.

    ``lower`` is the node end (node-leaf) or the lower switch; ``upper`` the switch above.
    ``forced_id`` names a cable (copper) or optic the design insists on for this class.
    ``links_per_lower_port`` > 1 is a multi-plane port: one lower-end port (and its module)
    fans out into that many links, one per plane.

    Parameters
    ----------
    catalog : Catalog
        Cables, optics and fibers to choose from.
    link_class : LinkClass or AuxLinkClass
        The link class.
    links : int
        Links of the class [count].
    length_m : float
        Link length [m].
    speed_gbit_per_s : int
        Link speed [Gbit/s].
    lower_devices : int
        Devices at the lower end [count].
    upper_devices : int
        Switches at the upper end [count].
    lower_optic : Optic
        The optic of the lower end when the link is optical.
    upper_optic : Optic
        The optic of the upper end when the link is optical.
    forced_id : str or None
        Cable or optic id the design insists on; ``None`` to choose.
    links_per_lower_port : int
        Links one lower-end port fans out into (planes per port) [count].

    Returns
    -------
    LinkMedia
        The medium, cable and optic counts at each end, power [W] and latency per link [ns].
    """
    args = (link_class, links, length_m, type(length_m), speed_gbit_per_s, lower_devices, upper_devices)
    if (
        catalog.optics.get(lower_optic.id) is lower_optic
        and catalog.optics.get(upper_optic.id) is upper_optic
    ):
        # the catalog's own records: their ids name them, so the answer can be kept per catalog
        return _kept_link_media(
            catalog, *args, lower_optic.id, upper_optic.id, forced_id, links_per_lower_port
        )
    return _link_media(catalog, *args, lower_optic, upper_optic, forced_id, links_per_lower_port)


@per_catalog
def _kept_link_media(
    catalog: Catalog,
    link_class: LinkClass | AuxLinkClass,
    links: int,
    length_m: float,
    length_type: type,
    speed_gbit_per_s: int,
    lower_devices: int,
    upper_devices: int,
    lower_optic_id: str,
    upper_optic_id: str,
    forced_id: str | None,
    links_per_lower_port: int,
) -> LinkMedia:
    """:func:`build_link_media` on the catalog's own optics, remembered per catalog and arguments
    (a sweep asks for the same leaf-spine class at many sizes)."""
    optics = catalog.optics
    return _link_media(
        catalog,
        link_class,
        links,
        length_m,
        length_type,
        speed_gbit_per_s,
        lower_devices,
        upper_devices,
        optics[lower_optic_id],
        optics[upper_optic_id],
        forced_id,
        links_per_lower_port,
    )


def _link_media(
    catalog: Catalog,
    link_class: LinkClass | AuxLinkClass,
    links: int,
    length_m: float,
    _length_type: type,
    speed_gbit_per_s: int,
    lower_devices: int,
    upper_devices: int,
    lower_optic: Optic,
    upper_optic: Optic,
    forced_id: str | None,
    links_per_lower_port: int,
) -> LinkMedia:
    """:func:`build_link_media`, every time (``_length_type``: see :func:`_kept_aux_media`)."""
    integrated = lower_optic.integrated or upper_optic.integrated
    copper = None if integrated else _copper_for(catalog, speed_gbit_per_s, length_m)
    if forced_id is not None:
        copper, lower_optic, upper_optic = _forced(
            catalog=catalog,
            forced_id=forced_id,
            link_class=link_class,
            length_m=length_m,
            speed_gbit_per_s=speed_gbit_per_s,
            integrated=integrated,
            lower_optic=lower_optic,
        )
    return _media(
        catalog,
        copper if copper is not None else (lower_optic, upper_optic),
        link_class=link_class,
        links=links,
        length_m=length_m,
        devices=(lower_devices, upper_devices),
        links_per_lower_port=links_per_lower_port,
    )


def _media(
    catalog: Catalog,
    medium: Cable | tuple[Optic, Optic],
    *,
    link_class: LinkClass | AuxLinkClass,
    links: int,
    length_m: float,
    devices: tuple[int, int],
    links_per_lower_port: int,
) -> LinkMedia:
    """The link class on a copper cable, or on (lower, upper) optics, each swapped for the
    cheapest of its form that reaches, with the fiber between them."""
    lower_devices, upper_devices = devices
    if isinstance(medium, Cable):
        return _copper_media(
            medium,
            link_class=link_class,
            links=links,
            length_m=length_m,
            lower_devices=lower_devices,
            upper_devices=upper_devices,
            lower_ports=links // links_per_lower_port,
        )
    lower_optic, upper_optic = medium
    lower = _reaching_optic(catalog, lower_optic, length_m)
    upper = _reaching_optic(catalog, upper_optic, length_m)
    fiber = _fiber_for(catalog, upper, length_m)

    def end(optic: Optic, devices: int, ports: int) -> LinkEnd:
        per_module = 1 if optic.integrated else optic.ports_per_module
        units = units_on_devices(ports=ports, devices=devices, ports_per_module=per_module)
        return LinkEnd(optic_id=optic.id, devices=devices, ports=ports, units=units)

    lower_end = end(lower, lower_devices, links // links_per_lower_port)
    upper_end = end(upper, upper_devices, links)
    power_w = lower_end.units * lower.power_w + upper_end.units * upper.power_w + links * fiber.power_w
    propagation_ns = FIBER_PROPAGATION_NS_PER_M * length_m
    return LinkMedia(
        link_class=link_class,
        links=links,
        length_m=length_m,
        medium=upper.kind if upper.integrated else upper.medium,
        cable_id=fiber.id,
        lower=lower_end,
        upper=upper_end,
        power_w=power_w,
        latency_ns_per_link=lower.latency_ns + upper.latency_ns + fiber.latency_ns + propagation_ns,
    )


@dataclass(frozen=True)
class MediaOption:
    """One way to build a link class, priced and powered per link (for the optimizer).

    Module counts are spread per link here (a twin-port module is half a module per port); the
    engine rounds up per switch, so its figure can be higher by under one module per switch.
    """

    media_id: str | None
    """Cable or optic id to force, or ``None`` for the design's own (NPO/CPO) optics."""
    medium: str
    cost_usd_per_link: float
    power_w_per_link: float
    node_end_power_w_per_link: float


def media_options(
    *,
    catalog: Catalog,
    link_class: LinkClass,
    length_m: float,
    speed_gbit_per_s: int,
    lower_optic: Optic,
    upper_optic: Optic,
    nic_ports: int = 1,
) -> tuple[MediaOption, ...]:
    """Every medium that can build ``link_class`` at this length and speed, cheapest first.

    Parameters
    ----------
    catalog : Catalog
        Cables, optics and fibers to choose from.
    link_class : LinkClass
        The compute link class.
    length_m : float
        Link length [m].
    speed_gbit_per_s : int
        Link speed [Gbit/s].
    lower_optic, upper_optic : Optic
        The design's optics at the lower and upper end.
    nic_ports : int
        The port count of one NIC [count]: at the node end a module serves at most one NIC.

    Returns
    -------
    tuple of MediaOption
        Each medium's id, kind, and per link its price [USD], power [W] and node-end power [W].
    """

    def priced(media_id: str | None, copper: Cable | None, lower: Optic, upper: Optic) -> MediaOption:
        if copper is not None:
            cost = cable_unit_cost_usd(copper, length_m)
            return MediaOption(media_id, copper.kind, cost, copper.power_w, 0.0)
        fiber = _fiber_for(catalog, upper, length_m)
        lower_ppm: float = 1 if lower.integrated else lower.ports_per_module
        if link_class == "node_leaf" and not lower.integrated:
            # modules per NIC = ceil(NIC ports / ports per module), spread over the NIC's ports
            lower_ppm = nic_ports / ceil_div(nic_ports, lower.ports_per_module)
        upper_ppm = 1 if upper.integrated else upper.ports_per_module
        cost = (
            cable_unit_cost_usd(fiber, length_m)
            + lower.unit_cost_usd / lower_ppm
            + upper.unit_cost_usd / upper_ppm
        )
        lower_w = lower.power_w / lower_ppm
        power = lower_w + upper.power_w / upper_ppm + fiber.power_w
        medium = upper.kind if upper.integrated else upper.medium
        return MediaOption(media_id, medium, cost, power, lower_w if link_class == "node_leaf" else 0.0)

    integrated = lower_optic.integrated or upper_optic.integrated
    if integrated:
        lower = _reaching_optic(catalog, lower_optic, length_m)
        upper = _reaching_optic(catalog, upper_optic, length_m)
        return (priced(None, None, lower, upper),)
    options = []
    candidates = [
        c.id for c in _reaching_copper(catalog, speed_gbit_per_s=speed_gbit_per_s, length_m=length_m)
    ] + [
        o.id
        for o in catalog.optics.values()
        if not o.integrated and o.speed_gbit_per_s == speed_gbit_per_s and o.max_reach_m >= length_m
    ]
    for media_id in sorted(candidates):
        copper, lower, upper = _forced(
            catalog=catalog,
            forced_id=media_id,
            link_class=link_class,
            length_m=length_m,
            speed_gbit_per_s=speed_gbit_per_s,
            integrated=False,
            lower_optic=lower_optic,
        )
        options.append(priced(media_id, copper, lower, upper))
    return tuple(sorted(options, key=lambda o: (o.cost_usd_per_link, o.media_id or "")))
