"""The tenant set: who rents how many GPUs, with which isolation and which guarantees.

The :class:`Tenant` model itself is :class:`planner.inputs.scenario.Tenant` (a scenario carries its
tenants); this module reads tenant files and checks a set as a whole.

A tenant file (YAML or JSON, read by :mod:`planner.files`) is a list of tenants, or a mapping
with the list under ``tenants``::

    - {name: training, gpus: 512, isolation: plane, bandwidth_gbit_per_s_per_gpu: 400}
    - {name: research, gpus: 128, isolation: shared, storage_gbyte_per_s: 20}

Isolation levels (docs/model.md, "Multi-tenant supernode"):

- ``shared``: GPUs given in port-sized groups, switches shared, bandwidth by QoS weights;
- ``leaf``: whole leaf groups (every leaf the tenant's servers reach is its own);
- ``plane``: whole planes of the scale-out fabric (every switch of the plane is its own);
- ``domain``: whole scale-up domains (no other tenant inside its NVLink/NVSwitch domain).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from planner.errors import InputError, shorten
from planner.files import parse_text, read_bytes
from planner.i18n.message import msg
from planner.inputs import parse
from planner.inputs.scenario import ISOLATIONS, MAX_TENANTS, Isolation, Tenant

TENANT_FILE = msg("tenant file")
"""``what`` of a tenant file, for the file reader's messages."""

__all__ = [
    "ISOLATIONS",
    "MAX_TENANTS",
    "TENANT_FILE",
    "Isolation",
    "Tenant",
    "TenantSet",
    "check_fits",
    "load_tenants",
    "tenants_from_data",
]


class TenantSet(BaseModel):
    """Tenants in the order the user gave them (names unique)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tenants: tuple[Tenant, ...] = Field(min_length=1, max_length=MAX_TENANTS)

    @property
    def gpus(self) -> int:
        """GPUs the tenants ask for [count]."""
        return sum(t.gpus for t in self.tenants)


def tenants_from_data(data: Any, *, source: str = "tenants") -> TenantSet:
    """Validate parsed data (a list, or ``{tenants: [...]}``) into a tenant set.

    Parameters
    ----------
    data : Any
        Parsed YAML or JSON: a list of tenants, or a mapping with a ``tenants`` list.
    source : str
        How messages name the data (its file name).

    Returns
    -------
    TenantSet
        Tenants with their name, GPUs [count], isolation and bandwidth [Gb/s per GPU].

    Raises
    ------
    InputError
        One line naming the field: no tenant, more than :data:`MAX_TENANTS`, a value out of
        range, or a duplicate name.

    >>> tenants_from_data([{"name": "a", "gpus": 8}]).tenants[0].isolation
    'shared'
    >>> tenants_from_data([{"name": "a", "gpus": 8, "isolation": "rack"}])
    Traceback (most recent call last):
    ...
    planner.errors.InputError: tenants: tenants.0.isolation: Input should be 'shared', 'leaf', 'plane' or 'domain' (got 'rack')
    """
    items = data.get("tenants") if isinstance(data, dict) else data
    if not isinstance(items, list) or not items:
        raise InputError(msg("{source}: tenants: a list of at least one tenant is required", source=source))
    if len(items) > MAX_TENANTS:
        raise InputError(
            msg(
                "{source}: tenants: at most {limit} tenants (got {count})",
                source=source,
                limit=MAX_TENANTS,
                count=len(items),
            )
        )
    tenants = [
        parse(Tenant, item, source=source, prefix=f"tenants.{index}.") for index, item in enumerate(items)
    ]
    tenant_set = TenantSet(tenants=tuple(tenants))
    seen: set[str] = set()
    for index, tenant in enumerate(tenant_set.tenants):
        if tenant.name in seen:
            raise InputError(
                msg(
                    "{source}: tenants.{index}.name: duplicate name {name}",
                    source=source,
                    index=index,
                    name=shorten(repr(tenant.name)),
                )
            )
        seen.add(tenant.name)
    return tenant_set


def load_tenants(source: Path | bytes, *, name: str | None = None) -> TenantSet:
    """Read and validate a tenant file (a path, or an upload's bytes named ``name``).

    Parameters
    ----------
    source : Path or bytes
        The file, or its content.
    name : str or None
        Name used in messages; defaults to ``str(source)``.

    Returns
    -------
    TenantSet
        As :func:`tenants_from_data` returns it.

    Raises
    ------
    InputError
        The file cannot be read or parsed, is empty, or holds a bad tenant (names the field).
    """
    label = name if name is not None else str(source)
    content = read_bytes(source, name=label, what=TENANT_FILE, error=InputError)
    data = parse_text(content, name=label, error=InputError)
    if data is None:
        raise InputError(msg("{file}: the {what} is empty", file=shorten(label), what=TENANT_FILE))
    return tenants_from_data(data, source=shorten(label))


def check_fits(tenant_set: TenantSet, *, cluster_gpus: int, source: str = "tenants") -> None:
    """Refuse tenants that ask for more GPUs than the cluster has.

    Parameters
    ----------
    tenant_set : TenantSet
        The tenants.
    cluster_gpus : int
        GPUs of the cluster [count].
    source : str
        How the message names the tenant set.

    Returns
    -------
    None
        When the tenants fit.

    Raises
    ------
    InputError
        Naming ``gpus``: the GPUs asked [count] and the cluster's [count].
    """
    if tenant_set.gpus > cluster_gpus:
        raise InputError(
            msg(
                "{source}: gpus: the tenants ask for {asked} GPUs, the cluster has {gpus}",
                source=source,
                asked=tenant_set.gpus,
                gpus=cluster_gpus,
            )
        )
