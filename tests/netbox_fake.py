"""An in-process, dict-backed FAKE of the few pynetbox endpoints ``planner netbox push`` calls.

This is not NetBox: it keeps objects in dicts and answers ``filter``/``get``/``create`` the way
pynetbox does for the fields the push uses (``<field>_id`` and plain-field queries, list values
as OR, ``fields=`` as the field list of the answer, nested objects as records with ``.id``, an
interface's ``cable`` set when a cable ends on it, device interfaces created from the type's
templates). It refuses what NetBox refuses that a push could get wrong: a duplicate natural
key and a second cable on one interface. The real NetBox is tested in
``tests/test_netbox_push.py`` when ``PLANNER_TEST_NETBOX_URL`` is set (``deploy/netbox_local.sh``
starts one; docs/netbox.md).
"""

from __future__ import annotations

from itertools import count
from types import SimpleNamespace
from typing import Any

# the natural keys NetBox enforces as unique constraints (per kind)
UNIQUE: dict[str, tuple[str, ...]] = {
    "sites": ("slug",),
    "locations": ("site", "slug"),
    "racks": ("location", "name"),
    "manufacturers": ("slug",),
    "device_types": ("manufacturer", "slug"),
    "interface_templates": ("device_type", "name"),
    "device_roles": ("slug",),
    "devices": ("site", "name"),
    "interfaces": ("device", "name"),
    "cables": (),
}
# fields holding another object (NetBox returns them nested, with an id)
REFERENCES = {"site", "location", "rack", "manufacturer", "device_type", "role", "device"}


class Ref(SimpleNamespace):
    id: int


class FakeEndpoint:
    def __init__(self, fake: FakeNetBox, kind: str) -> None:
        self.fake, self.kind = fake, kind
        self.records: dict[int, SimpleNamespace] = {}
        self.keys: set[tuple[Any, ...]] = set()
        self.calls = {"filter": 0, "get": 0, "create": 0}
        self.requests: list[list[int]] = []  # ids of the records made by each create call

    def _matches(self, record: SimpleNamespace, query: dict[str, Any]) -> bool:
        for key, wanted in query.items():
            field = key.removesuffix("_id") if key.endswith("_id") else key
            value = getattr(record, field, None)
            if field in REFERENCES and value is not None:
                value = value.id
            options = wanted if isinstance(wanted, list) else [wanted]
            if value not in options:
                return False
        return True

    def filter(self, *, fields: str | None = None, **query: Any) -> list[SimpleNamespace]:
        """Matching records; with ``fields="a,b"`` (NetBox 4's dynamic fields, not a filter)
        copies holding only those fields, so that a push reading another field fails here
        (against NetBox, pynetbox would fetch each record in full: one request per record)."""
        self.calls["filter"] += 1
        found = [r for r in self.records.values() if self._matches(r, query)]
        if fields is None:
            return found
        names = fields.split(",")
        return [SimpleNamespace(**{n: getattr(r, n) for n in names if hasattr(r, n)}) for r in found]

    def get(self, **query: Any) -> SimpleNamespace | None:
        self.calls["get"] += 1
        found = [r for r in self.records.values() if self._matches(r, query)]
        if len(found) > 1:
            raise ValueError("get() returned more than one result")
        return found[0] if found else None

    def create(self, data: dict[str, Any] | list[dict[str, Any]]) -> Any:
        self.calls["create"] += 1
        items = data if isinstance(data, list) else [data]
        made = [self._create_one(dict(item)) for item in items]
        self.requests.append([r.id for r in made])
        return made if isinstance(data, list) else made[0]

    def _create_one(self, item: dict[str, Any]) -> SimpleNamespace:
        for field in REFERENCES & item.keys():
            item[field] = Ref(id=item[field])
        key = tuple(getattr(item.get(f), "id", item.get(f)) for f in UNIQUE[self.kind])
        if key and key in self.keys:
            raise ValueError(f"{self.kind}: duplicate {dict(zip(UNIQUE[self.kind], key, strict=True))}")
        if key:
            self.keys.add(key)
        record = SimpleNamespace(id=next(self.fake.ids), **item)
        if self.kind == "interfaces":
            record.cable = None
        if self.kind == "cables":
            for side in ("a_terminations", "b_terminations"):
                for end in item[side]:
                    interface = self.fake.dcim.interfaces.records[end["object_id"]]
                    if interface.cable is not None:
                        raise ValueError(f"interface {interface.name} already has a cable")
                    interface.cable = Ref(id=record.id)
        self.records[record.id] = record
        if self.kind == "devices":
            templates = self.fake.dcim.interface_templates.records.values()
            for t in templates:
                if t.device_type.id == record.device_type.id:
                    self.fake.dcim.interfaces._create_one(
                        {"device": record.id, "name": t.name, "type": t.type}
                    )
        return record


class FakeNetBox:
    """``FakeNetBox().dcim.<kind>`` for every kind the push uses."""

    def __init__(self) -> None:
        self.ids = count(1)
        self.dcim = SimpleNamespace(**{kind: FakeEndpoint(self, kind) for kind in UNIQUE})

    def counts(self) -> dict[str, int]:
        return {kind: len(getattr(self.dcim, kind).records) for kind in UNIQUE}
