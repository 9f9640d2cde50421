"""``planner netbox push``: the hand-off's objects created in a NetBox through its REST API.

The objects are those of the import files (:mod:`planner.handoff.netbox`): one site, a location
per row of racks, the racks, manufacturers, device types with their interface templates, device
roles, devices (NetBox creates their interfaces from the templates) and cables. The push is
idempotent: each kind is read once by its natural key (slug; name within the site; device and
interface name; for a cable, its A-side interface already holding a cable) and only what is
missing is created, in batches. A second push of the same plan creates nothing.

Reads ask NetBox for the fields the push uses only (``fields=``, NetBox 4.0+ dynamic fields):
NetBox's full interface representation (link peers, connected endpoints, VLANs, MACs...) costs
its server about 4x the time of ``id,name,device,cable`` (measured on NetBox 4.4.10: 1000
interfaces in 12.9 s full vs 2.3 s with the field list, on a loaded 2-core machine).

The client is pynetbox (https://github.com/netbox-community/pynetbox): ``api.dcim.<endpoint>``
with ``filter(**query)``, ``get(**query)`` and ``create(list_of_dicts)``; field names as NetBox
4.x's REST API documents them (https://netboxlabs.com/docs/netbox/en/stable/integrations/rest-api/).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from planner.catalog import Catalog
from planner.errors import InputError, extra_needed
from planner.handoff.cabling import Handoff
from planner.handoff.naming import row_name
from planner.handoff.netbox import (
    CABLE_TYPE,
    ROLE_COLORS,
    SITE,
    STATUS,
    device_models,
    device_type_yaml,
    fabric_family,
    interface_type,
    slug,
)

BATCH = 50
"""Objects per create request (NetBox takes a list per POST and creates it in one transaction).

Kept small because NetBox's server time per object is large: measured on NetBox 4.4.10 on a
loaded 2-core machine, a cable took 0.37 s (its path tracing and change log) and a device 0.07 s
per interface made from its type's templates, so the 500-object requests first used ran 190 s
for 500 cables and 210 s for 20 devices: past the 120 s worker timeout of NetBox's sample
gunicorn configuration, which would kill the request and roll back the whole batch. NetBox
4.6.8 on the same machine: 0.17 s per cable, 9 ms per interface; a 50-cable request ~8 s."""
DEVICE_INTERFACES_PER_BATCH = 250
"""Interfaces (made from the templates) per device create request: a device is one object in the
request but each of its interfaces is server work (see :data:`BATCH`); a device with more goes
alone."""
DEVICES_PER_QUERY = 50
"""Devices per interface query (``device_id`` repeated in the URL; keeps the URL short)."""

KINDS = (
    "sites",
    "locations",
    "racks",
    "manufacturers",
    "device_types",
    "interface_templates",
    "device_roles",
    "devices",
    "interfaces",
    "cables",
)
"""Object kinds in creation order (the pynetbox endpoint names under ``dcim``)."""


class Endpoint(Protocol):
    """The calls of a pynetbox endpoint that the push uses."""

    def filter(self, *args: Any, **kwargs: Any) -> Iterable[Any]: ...

    def get(self, *args: Any, **kwargs: Any) -> Any: ...

    def create(self, *args: Any, **kwargs: Any) -> Any: ...


@dataclass(frozen=True)
class PushReport:
    """What a push did, per kind (:data:`KINDS`): objects created and objects found."""

    created: dict[str, int]
    existing: dict[str, int]

    @property
    def created_total(self) -> int:
        return sum(self.created.values())

    def rows(self) -> list[dict[str, object]]:
        return [{"object": k, "created": self.created[k], "existing": self.existing[k]} for k in KINDS]


def connect(*, url: str, token: str) -> Any:
    """A pynetbox API for ``url``; the status call fails early on a wrong address or token.

    Parameters
    ----------
    url : str
        Base address of the NetBox server (dimensionless).
    token : str
        NetBox API token (dimensionless, never logged).

    Returns
    -------
    Any
        The pynetbox API object, its status call answered.

    Raises
    ------
    InputError
        NetBox did not answer at ``url`` or refused ``token``.
    """
    with extra_needed(extra="netbox", feature="planner netbox push"):
        import pynetbox

    api = pynetbox.api(url, token=token)
    try:
        api.status()
    except Exception as exc:  # requests and pynetbox raise several unrelated types here
        raise InputError(f"--url {url}: NetBox did not answer ({type(exc).__name__}: {exc})") from None
    return api


def _ref(value: Any) -> int:
    """Id of a nested object (pynetbox returns a record with ``.id``; ids are ints)."""
    return value if isinstance(value, int) else int(value.id)


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _batches(keys: Sequence[Any], work: Callable[[Any], int], limit: int) -> Iterator[list[Any]]:
    """Consecutive batches of at most :data:`BATCH` keys whose ``work`` adds up to at most
    ``limit`` (a key whose work alone exceeds it makes a batch of its own)."""
    batch: list[Any] = []
    total = 0
    for key in keys:
        if batch and (len(batch) == BATCH or total + work(key) > limit):
            yield batch
            batch, total = [], 0
        batch.append(key)
        total += work(key)
    if batch:
        yield batch


Progress = Callable[[str, int, int], None]
"""Called after each create request with the kind, the objects created so far of that kind in
this push and the number missing when the push reached the kind."""


class _Push:
    def __init__(self, api: Any, progress: Progress | None) -> None:
        self.dcim = api.dcim
        self.progress = progress
        self.created = dict.fromkeys(KINDS, 0)
        self.existing = dict.fromkeys(KINDS, 0)

    def ensure(
        self,
        kind: str,
        found: Iterable[Any],
        key_of_record: Callable[[Any], Any],
        wanted: dict[Any, dict[str, Any]],
        work: Callable[[Any], int] = lambda key: 1,
        limit: int = BATCH,
    ) -> dict[Any, int]:
        """Ids by natural key of every wanted object, creating the missing ones in batches
        (:func:`_batches` with ``work`` per key and ``limit`` per request)."""
        ids = {key_of_record(r): int(r.id) for r in found}
        missing = [key for key in wanted if key not in ids]
        self.existing[kind] += len(wanted) - len(missing)
        endpoint: Endpoint = getattr(self.dcim, kind)
        for batch in _batches(missing, work, limit):
            records = endpoint.create([wanted[key] for key in batch])
            for key, record in zip(batch, records, strict=True):
                ids[key] = int(record.id)
            self.created[kind] += len(batch)
            if self.progress is not None:
                self.progress(kind, self.created[kind], len(missing))
        return {key: ids[key] for key in wanted}


def push(*, api: Any, handoff: Handoff, catalog: Catalog, progress: Progress | None = None) -> PushReport:
    """Create the hand-off's objects in the NetBox behind ``api`` that it does not hold yet.

    Parameters
    ----------
    api
        A pynetbox API (:func:`connect`) or anything with the same ``dcim`` endpoints.
    handoff, catalog
        The plan's hand-off and the catalog it was built with.
    progress
        Told after each create request (:data:`Progress`); a first push of 1024 GPUs makes
        about 54,000 objects, which takes a small NetBox server most of an hour or more.

    Returns
    -------
    PushReport
        Objects created and objects already present, per kind [count].
    """
    run = _Push(api, progress)
    family = fabric_family(handoff, catalog)
    site_id, location_ids, rack_ids = _push_places(run, handoff)
    type_ids, role_ids = _push_types(run, handoff, catalog, family)
    device_ids = _push_devices(run, handoff, site_id, location_ids, rack_ids, type_ids, role_ids)
    _push_interfaces_and_cables(run, handoff, catalog, family, device_ids)
    return PushReport(created=run.created, existing=run.existing)


def _push_places(run: _Push, handoff: Handoff) -> tuple[int, dict[Any, int], dict[Any, int]]:
    """The site, its rows (NetBox locations) and racks: their ids."""
    dcim, layout = run.dcim, handoff.layout
    site = dcim.sites.get(slug=slug(SITE))
    site_ids = run.ensure(
        "sites",
        [site] if site is not None else [],
        lambda r: r.slug,
        {slug(SITE): {"name": SITE, "slug": slug(SITE), "status": STATUS}},
    )
    site_id = site_ids[slug(SITE)]
    rows = sorted({r.row for r in layout.racks})
    location_ids = run.ensure(
        "locations",
        dcim.locations.filter(site_id=site_id, fields="id,slug"),
        lambda r: r.slug,
        {
            slug(row_name(r)): {
                "name": row_name(r),
                "slug": slug(row_name(r)),
                "site": site_id,
                "status": STATUS,
            }
            for r in rows
        },
    )
    rack_ids = run.ensure(
        "racks",
        dcim.racks.filter(site_id=site_id, fields="id,name"),
        lambda r: r.name,
        {
            r.name: {
                "name": r.name,
                "site": site_id,
                "location": location_ids[slug(row_name(r.row))],
                "status": STATUS,
                "width": 19,
                "u_height": r.rack_units,
            }
            for r in layout.racks
        },
    )
    return site_id, location_ids, rack_ids


def _push_types(
    run: _Push, handoff: Handoff, catalog: Catalog, family: str
) -> tuple[dict[Any, int], dict[Any, int]]:
    """Manufacturers, device types with their interface templates, and device roles: the ids of
    the types and of the roles."""
    dcim, wiring = run.dcim, handoff.wiring
    types, maker = device_models(wiring=wiring, catalog=catalog)
    maker_ids = run.ensure(
        "manufacturers",
        dcim.manufacturers.filter(slug=sorted({slug(m) for m in maker.values()}), fields="id,slug"),
        lambda r: r.slug,
        {slug(m): {"name": m, "slug": slug(m)} for m in sorted(set(maker.values()))},
    )
    shapes = {model_id: device_type_yaml(d, family, maker[model_id]) for model_id, d in types.items()}
    type_ids = run.ensure(
        "device_types",
        dcim.device_types.filter(slug=sorted(str(s["slug"]) for s in shapes.values()), fields="id,slug"),
        lambda r: r.slug,
        {
            str(s["slug"]): {
                "manufacturer": maker_ids[slug(maker[model_id])],
                "model": s["model"],
                "slug": s["slug"],
                "u_height": s["u_height"],
                "is_full_depth": s["is_full_depth"],
            }
            for model_id, s in shapes.items()
        },
    )
    templates: dict[tuple[int, str], dict[str, Any]] = {}
    for s in shapes.values():
        type_id = type_ids[str(s["slug"])]
        for port in s["interfaces"]:  # type: ignore[attr-defined]
            templates[(type_id, port["name"])] = {"device_type": type_id, **port}
    run.ensure(
        "interface_templates",
        dcim.interface_templates.filter(
            device_type_id=sorted(type_ids.values()), fields="id,name,device_type"
        ),
        lambda r: (_ref(r.device_type), r.name),
        templates,
    )
    roles = sorted({d.role for d in wiring.devices})
    role_ids = run.ensure(
        "device_roles",
        dcim.device_roles.filter(slug=roles, fields="id,slug"),
        lambda r: r.slug,
        {r: {"name": r, "slug": r, "color": ROLE_COLORS[r]} for r in roles},
    )
    return type_ids, role_ids


def _push_devices(
    run: _Push,
    handoff: Handoff,
    site_id: int,
    location_ids: dict[Any, int],
    rack_ids: dict[Any, int],
    type_ids: dict[Any, int],
    role_ids: dict[Any, int],
) -> dict[Any, int]:
    """Every device in its rack and unit: ids by device name."""
    dcim, layout, wiring = run.dcim, handoff.layout, handoff.wiring
    where = layout.location()
    ports = {d.device_id: len(d.interfaces) for d in wiring.devices}
    device_ids = run.ensure(
        "devices",
        dcim.devices.filter(site_id=site_id, fields="id,name"),
        lambda r: r.name,
        {
            d.device_id: {
                "name": d.device_id,
                "role": role_ids[d.role],
                "device_type": type_ids[slug(d.model_id.replace("_", "-"))],
                "site": site_id,
                "location": location_ids[slug(row_name(where[d.device_id][0].row))],
                "rack": rack_ids[where[d.device_id][0].name],
                "position": where[d.device_id][1].position_u,
                "face": "front",
                "status": STATUS,
            }
            for d in wiring.devices
        },
        work=lambda name: max(1, ports[name]),
        limit=DEVICE_INTERFACES_PER_BATCH,
    )
    return device_ids


def _push_interfaces_and_cables(
    run: _Push, handoff: Handoff, catalog: Catalog, family: str, device_ids: dict[Any, int]
) -> None:
    """The devices' interfaces and every cable not in NetBox yet."""
    dcim, wiring = run.dcim, handoff.wiring
    # NetBox gives a device its type's interfaces when the device is created; a device that
    # existed before its type had templates gets the missing ones here.
    name_of_device = {v: k for k, v in device_ids.items()}
    found = [
        record
        for batch in _chunks(sorted(device_ids.values()), DEVICES_PER_QUERY)
        for record in dcim.interfaces.filter(device_id=list(batch), fields="id,name,device,cable")
    ]
    cabled = {(name_of_device[_ref(r.device)], r.name) for r in found if r.cable is not None}
    interface_ids = run.ensure(
        "interfaces",
        found,
        lambda r: (name_of_device[_ref(r.device)], r.name),
        {
            (d.device_id, port): {
                "device": device_ids[d.device_id],
                "name": port,
                "type": interface_type(d, family, port),
            }
            for d in wiring.devices
            for port in d.interfaces
        },
    )
    new_cables = {
        (c.a_device, c.a_port): {
            "a_terminations": [
                {"object_type": "dcim.interface", "object_id": interface_ids[(c.a_device, c.a_port)]}
            ],
            "b_terminations": [
                {"object_type": "dcim.interface", "object_id": interface_ids[(c.b_device, c.b_port)]}
            ],
            "type": CABLE_TYPE[catalog.cables[c.cable_part].kind],
            "status": STATUS,
            "label": c.label,
            "length": round(c.length_m, 2),
            "length_unit": "m",
        }
        for c in handoff.cables
    }
    # A cable's natural key is its A-side interface: NetBox allows one cable per interface.
    run.ensure("cables", [], lambda r: r, {k: v for k, v in new_cables.items() if k not in cabled})
    run.existing["cables"] = len(new_cables) - run.created["cables"]
