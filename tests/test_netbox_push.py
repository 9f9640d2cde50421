"""``planner netbox push``: idempotent creation of the hand-off's objects in NetBox.

Without a NetBox, the push runs against ``tests/netbox_fake.py``, a dict-backed FAKE of the
pynetbox endpoints it calls (not NetBox). With ``PLANNER_TEST_NETBOX_URL`` and
``PLANNER_TEST_NETBOX_TOKEN`` set, the same checks run against that real NetBox.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

import pytest
from handoff_fixtures import CATALOG, preset_handoff
from netbox_fake import FakeNetBox

from planner.cli import run
from planner.handoff.netbox import fabric_family, interface_type
from planner.handoff.netbox_push import BATCH, DEVICE_INTERFACES_PER_BATCH, KINDS, push


def _expected(design_id: str, gpus: int) -> dict[str, int]:
    h = preset_handoff(design_id, gpus)
    return {
        "racks": len(h.layout.racks),
        "devices": len(h.wiring.devices),
        "interfaces": sum(len(d.interfaces) for d in h.wiring.devices),
        "cables": len(h.cables),
    }


@pytest.mark.parametrize(
    ("design_id", "gpus"),
    [pytest.param("rail8-npo", 1024, marks=pytest.mark.slow), ("ib-ndr", 64)],  # 1024: ~4 s CPU
)
def test_a_second_push_creates_nothing_on_the_fake(design_id: str, gpus: int) -> None:
    fake, h = FakeNetBox(), preset_handoff(design_id, gpus)
    first = push(api=fake, handoff=h, catalog=CATALOG)
    counts = fake.counts()
    for kind, number in _expected(design_id, gpus).items():
        assert counts[kind] == number, kind
        # NetBox (and the fake) make a device's interfaces from its type's templates
        assert first.created[kind] == (0 if kind == "interfaces" else number), kind
    assert first.created["sites"] == 1
    second = push(api=fake, handoff=h, catalog=CATALOG)
    assert second.created_total == 0
    assert second.existing == {k: counts[k] for k in KINDS}
    assert fake.counts() == counts


def test_the_fake_holds_the_plans_wiring() -> None:
    fake, h = FakeNetBox(), preset_handoff("rail8-npo", 256)
    push(api=fake, handoff=h, catalog=CATALOG)
    dcim = fake.dcim
    device_name = {r.id: r.name for r in dcim.devices.records.values()}
    interface = {r.id: (device_name[r.device.id], r.name) for r in dcim.interfaces.records.values()}
    pushed = {
        (interface[c.a_terminations[0]["object_id"]], interface[c.b_terminations[0]["object_id"]], c.label)
        for c in dcim.cables.records.values()
    }
    assert pushed == {((c.a_device, c.a_port), (c.b_device, c.b_port), c.label) for c in h.cables}
    racks = {r.id: r.name for r in dcim.racks.records.values()}
    placed = {(r.name, racks[r.rack.id], r.position) for r in dcim.devices.records.values()}
    where = h.layout.location()
    assert placed == {(d, rack.name, p.position_u) for d, (rack, p) in where.items()}


def test_a_partial_netbox_is_completed_not_duplicated() -> None:
    """A push stopped half way (devices there, no cables) is finished by the next one."""
    fake, h = FakeNetBox(), preset_handoff("rail4-npo", 64)
    push(api=fake, handoff=h, catalog=CATALOG)
    cables = fake.dcim.cables.records
    dropped = list(cables)[len(cables) // 2 :]
    for cable_id in dropped:
        for end in cables[cable_id].a_terminations + cables[cable_id].b_terminations:
            fake.dcim.interfaces.records[end["object_id"]].cable = None
        del cables[cable_id]
    again = push(api=fake, handoff=h, catalog=CATALOG)
    assert again.created == {k: (len(dropped) if k == "cables" else 0) for k in KINDS}
    assert len(cables) == len(h.cables)


NETBOX_URL = os.environ.get("PLANNER_TEST_NETBOX_URL")
NETBOX_TOKEN = os.environ.get("PLANNER_TEST_NETBOX_TOKEN")


@pytest.mark.skipif(
    not (NETBOX_URL and NETBOX_TOKEN),
    reason="no NetBox: set PLANNER_TEST_NETBOX_URL and PLANNER_TEST_NETBOX_TOKEN (docs/netbox.md)",
)
def test_push_to_a_real_netbox_reads_back_equal(capsys: pytest.CaptureFixture[str]) -> None:
    from planner.handoff.netbox import SITE, slug
    from planner.handoff.netbox_push import connect

    args = ["netbox", "push", "--url", str(NETBOX_URL), "--token", str(NETBOX_TOKEN)]
    args += ["--gpus", "64", "--design", "rail8-npo", "--format", "json"]
    assert run(args) == 0
    capsys.readouterr()
    assert run(args) == 0
    assert json.loads(capsys.readouterr().out)["created_total"] == 0
    api = connect(url=str(NETBOX_URL), token=str(NETBOX_TOKEN))
    site = api.dcim.sites.get(slug=slug(SITE))
    h = preset_handoff("rail8-npo", 64)
    devices = {d.name: d.id for d in api.dcim.devices.filter(site_id=site.id)}
    assert set(devices) == {d.device_id for d in h.wiring.devices}
    ports = Counter(i.device.name for i in api.dcim.interfaces.filter(site_id=site.id))
    assert ports == Counter({d.device_id: len(d.interfaces) for d in h.wiring.devices})
    labels = {c.label for c in api.dcim.cables.filter(site_id=site.id)}
    assert labels == {c.label for c in h.cables}


def test_create_requests_stay_small() -> None:
    """NetBox spends ~0.4 s per cable and ~0.07 s per device interface (module docstring of
    netbox_push): each request is capped so that none runs into a proxy or worker timeout."""
    fake, h = FakeNetBox(), preset_handoff("rail8-npo", 256)
    seen: list[tuple[str, int, int]] = []
    push(api=fake, handoff=h, catalog=CATALOG, progress=lambda *step: seen.append(step))
    cables = fake.dcim.cables.requests
    assert len(cables) == -(-len(h.cables) // BATCH) and max(map(len, cables)) == BATCH
    ports = {d.device_id: len(d.interfaces) for d in h.wiring.devices}
    name = {r.id: r.name for r in fake.dcim.devices.records.values()}
    for request in fake.dcim.devices.requests:
        work = sum(ports[name[i]] for i in request)
        assert work <= DEVICE_INTERFACES_PER_BATCH or len(request) == 1, work
    # one progress step per request, counting up to what was missing
    assert len(seen) == sum(len(getattr(fake.dcim, k).requests) for k in KINDS)
    assert [s for s in seen if s[0] == "cables"][-1] == ("cables", len(h.cables), len(h.cables))


def _field_names(record: Any) -> set[str]:
    # a pynetbox record iterates as (field, value) pairs; the fake's records are namespaces
    return set(dict(record)) if hasattr(record, "serialize") else set(vars(record))


def _answers_a_field_list(api: Any) -> None:
    """NetBox 4 answers ``fields=a,b`` with those fields only (its dynamic fields): not a filter."""
    h = preset_handoff("rail8-npo", 64)
    push(api=api, handoff=h, catalog=CATALOG)  # creates nothing when the plan is already there
    server = next(d for d in h.wiring.devices if d.role == "gpu-server")
    device = api.dcim.devices.get(name=server.device_id)
    found = list(api.dcim.interfaces.filter(device_id=[device.id], fields="id,name,device,cable"))
    assert len(found) == len(server.interfaces)
    assert all(_field_names(r) == {"id", "name", "device", "cable"} for r in found)
    assert all(r.cable is not None for r in found)  # the plan cables every port of a server (68)


def test_the_fake_answers_a_field_list_like_netbox() -> None:
    # The fake used to take ``fields`` for a filter and answer nothing.
    _answers_a_field_list(FakeNetBox())


@pytest.mark.skipif(not (NETBOX_URL and NETBOX_TOKEN), reason="no NetBox (see the test above)")
def test_a_real_netbox_answers_a_field_list() -> None:
    from planner.handoff.netbox_push import connect

    _answers_a_field_list(connect(url=str(NETBOX_URL), token=str(NETBOX_TOKEN)))


def test_the_cli_pushes_and_reports_counts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeNetBox()
    monkeypatch.setattr("planner.handoff.netbox_push.connect", lambda *, url, token: fake)
    args = ["netbox", "push", "--url", "http://netbox.invalid", "--token", "x"]
    args += ["--gpus", "64", "--design", "rail4-npo", "--format", "csv"]
    assert run(args) == 0
    first, progress = capsys.readouterr()
    assert f"netbox push: cables {len(preset_handoff('rail4-npo', 64).cables)}/" in progress
    assert run(args) == 0
    second = capsys.readouterr().out
    h = preset_handoff("rail4-npo", 64)
    assert f"cables,{len(h.cables)},0" in first
    assert f"cables,0,{len(h.cables)}" in second


def test_an_unreachable_netbox_exits_2_naming_the_url(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["netbox", "push", "--url", "http://127.0.0.1:9", "--token", "x", "--gpus", "64"]
    assert run(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--url http://127.0.0.1:9" in err


def test_interfaces_carry_the_type_of_their_own_port() -> None:
    # a GPU server has compute ports and 1GbE BMC / storage / front-end ports: each interface gets
    # the NetBox type of its own port, whether NetBox made it from a template or the push created it
    # (here: a server whose interfaces were deleted in NetBox, cables first)
    fake, h = FakeNetBox(), preset_handoff("rail8-npo", 64)
    push(api=fake, handoff=h, catalog=CATALOG)
    dcim = fake.dcim
    server = next(d for d in h.wiring.devices if d.role == "gpu-server")
    server_id = next(r.id for r in dcim.devices.records.values() if r.name == server.device_id)
    gone = {i for i, r in dcim.interfaces.records.items() if r.device.id == server_id}
    for cable_id, c in list(dcim.cables.records.items()):
        ends = {e["object_id"] for side in ("a_terminations", "b_terminations") for e in getattr(c, side)}
        if ends & gone:
            for e in ends:
                dcim.interfaces.records[e].cable = None
            del dcim.cables.records[cable_id]
    for i in gone:
        record = dcim.interfaces.records.pop(i)
        dcim.interfaces.keys.discard((server_id, record.name))
    again = push(api=fake, handoff=h, catalog=CATALOG)
    assert again.created["interfaces"] == len(server.interfaces)
    family = fabric_family(h, CATALOG)
    devices = {d.device_id: d for d in h.wiring.devices}
    names = {r.id: r.name for r in dcim.devices.records.values()}
    types = {(names[r.device.id], r.name): r.type for r in dcim.interfaces.records.values()}
    assert types == {(d, p): interface_type(devices[d], family, p) for d, p in types}
    assert len({t for (d, _), t in types.items() if d == server.device_id}) > 1  # not one type for all
