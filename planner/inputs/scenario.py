"""Scenario: what the user asks for, validated once at the boundary.

A scenario names a GPU count, a design preset (or an explicit fabric), the GPU and server, the
facility, price overrides, the tenants who share the cluster and the workload mix the cluster is
bought for (training jobs and serving loads). It is frozen and rejects unknown keys, so a typo in a scenario file
is an error, not a silently ignored setting.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from planner.design import SLUG_PATTERN, FabricParams
from planner.errors import InputError, shorten
from planner.files import SCENARIO_FILE
from planner.i18n.message import msg
from planner.inputs import Input, parse, read_input_file, switch_option
from planner.inputs.calibration import CalibrationOverride
from planner.inputs.layout import LayoutParams
from planner.inputs.serving import ServingRequest
from planner.inputs.training import TrainingJob

MAX_GPUS = 1_048_576
"""Hard ceiling on the GPU count; the real limit is the chosen switch's three-tier size."""

MAX_PRICE_USD = 1e9
"""Ceiling of a unit-price override [USD], as in the web app's URL: no catalog part costs more,
and 1e308 would overflow every sum it enters."""

PRODUCT_RANGE_GPUS = (8, 1024)
"""The range the product centres on; counts above it are accepted with a note."""


class LinkLengths(BaseModel):
    """Cable length per link class [m]; media follow from reach (copper, multimode, single-mode)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    node_leaf_m: float = Field(default=10.0, gt=0, le=2000, description="Node to leaf cable length [m].")
    leaf_spine_m: float = Field(default=30.0, gt=0, le=2000, description="Leaf to spine cable length [m].")
    spine_core_m: float = Field(default=60.0, gt=0, le=2000, description="Spine to core cable length [m].")


class Facility(BaseModel):
    """Site, energy and money: everything outside the cluster's bill of materials."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    rack_power_limit_kw: Annotated[float, Input(flag="--rack-kw")] = Field(
        default=40.0, ge=5, le=300, description="Power budget of one rack [kW]."
    )
    rack_id: str = Field(default="rack_42u_std", pattern=SLUG_PATTERN, description="Rack model.")
    cooling_id: Annotated[str, Input(flag="--cooling", cli_note="a cooling catalog id")] = Field(
        default="direct_liquid", pattern=SLUG_PATTERN, description="Cooling method."
    )
    pue_override: float | None = Field(
        default=None, ge=1.0, le=3.0, description="Power usage effectiveness; empty = cooling default."
    )
    electricity_usd_per_kwh: float | None = Field(
        default=None, gt=0, le=2, description="Electricity price [USD/kWh]; empty = catalog default."
    )
    energy_price_id: str = Field(
        default="us_industrial_2023", pattern=SLUG_PATTERN, description="Catalog electricity price."
    )
    years: int = Field(default=5, ge=1, le=15, description="TCO horizon [years].")
    discount_rate: float = Field(default=0.08, ge=0, le=0.5, description="Yearly discount rate [-].")
    load_factor: float = Field(
        default=0.8, ge=0.05, le=1.0, description="Average power as a share of maximum [-]."
    )
    utilization: float = Field(default=0.9, gt=0, le=1.0, description="Share of GPU-hours sold or used [-].")
    currency: Annotated[Literal["USD", "CNY"], Input(flag="--currency")] = Field(
        default="USD", description="Currency of reports."
    )
    usd_to_cny: float | None = Field(
        default=None, gt=0, le=100, description="Exchange rate [CNY per USD]; empty = catalog."
    )
    link_lengths: LinkLengths = Field(default_factory=LinkLengths)


class Pools(BaseModel):
    """Storage and front-end pools sized from their own targets, independent of the GPU count.

    Empty targets keep today's per-GPU storage rule and no dedicated front-end network
    (``planner/fabric/pools.py``; ``docs/model.md``, "Disaggregated pools").
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    storage_write_gbyte_per_s: Annotated[float | None, Input(flag="--storage-write-gbyte-per-s")] = Field(
        default=None, gt=0, le=1e6, description="Checkpoint write target of the storage pool [GB/s]."
    )
    storage_read_gbyte_per_s: Annotated[float | None, Input(flag="--storage-read-gbyte-per-s")] = Field(
        default=None, gt=0, le=1e6, description="Dataset read target of the storage pool [GB/s]."
    )
    storage_capacity_tbyte: Annotated[float | None, Input(flag="--storage-capacity-tbyte")] = Field(
        default=None, gt=0, le=1e7, description="Usable capacity target of the storage pool [TB]."
    )
    frontend_gbit_per_s_per_gpu: Annotated[float | None, Input(flag="--frontend-gbit-per-gpu")] = Field(
        default=None, gt=0, le=3200, description="Front-end (north-south) bandwidth per GPU [Gb/s]."
    )
    frontend_gbit_per_s_per_node: Annotated[float | None, Input(flag="--frontend-gbit-per-node")] = Field(
        default=None, gt=0, le=25600, description="Front-end (north-south) bandwidth per server [Gb/s]."
    )
    frontend_egress_gbit_per_s: Annotated[float, Input(flag="--frontend-egress-gbit")] = Field(
        default=0.0, ge=0, le=1e7, description="Front-end uplink capacity to the site network [Gb/s]."
    )
    frontend_nic_id: Annotated[str, Input(flag="--frontend-nic", cli_note="a NIC catalog id")] = Field(
        default="cx7_2x200g", pattern=SLUG_PATTERN, description="Catalog id of the front-end NIC."
    )

    @model_validator(mode="after")
    def _one_frontend_target(self) -> Pools:
        if self.frontend_gbit_per_s_per_gpu is not None and self.frontend_gbit_per_s_per_node is not None:
            raise ValueError(
                msg("frontend_gbit_per_s_per_gpu and frontend_gbit_per_s_per_node: set one of them, not both")
            )
        return self


Isolation = Literal["shared", "leaf", "plane", "domain"]
ISOLATIONS: tuple[str, ...] = ("shared", "leaf", "plane", "domain")

MAX_TENANTS = 256
"""Most tenants in one set [count]: one per leaf group of the largest two-tier plans."""


class Tenant(BaseModel):
    """One tenant of the cluster: an entry of a tenant file and of :attr:`Scenario.tenants`.

    It lives here, below the tenancy engine, so that a scenario carries its tenant set through the
    store, the JSON/YAML export and the share link (docs/model.md, "Multi-tenant supernode").
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    name: str = Field(min_length=1, max_length=64, description="Tenant name, unique in the set.")
    gpus: int = Field(ge=1, le=MAX_GPUS, strict=True, description="GPUs rented [count].")
    isolation: Isolation = Field(default="shared", description="shared, leaf, plane or domain.")
    bandwidth_gbit_per_s_per_gpu: float = Field(
        default=0.0, ge=0, le=100_000, description="Guaranteed scale-out bandwidth per GPU [Gb/s]."
    )
    storage_gbyte_per_s: float = Field(
        default=0.0, ge=0, le=1_000_000, description="Guaranteed storage read bandwidth [GB/s]."
    )


InSwitchReduction = Literal["auto", "none", "nvls", "sharp"]
"""Where an all-reduce may reduce in the switches (:func:`planner.fabric.collectives.with_reduction`)."""


MAX_WORKLOAD_ENTRIES = 32
"""Most entries in one workload mix [count]."""

WorkloadKind = Literal["training", "serving"]
_DEMANDS = ("weight", "required_tokens_per_s", "required_tokens_per_day", "deadline_days")
"""What an entry asks of the cluster: a share of its time, or one required rate."""


class WorkloadEntry(BaseModel):
    """One job of the workload mix: a training run or a serving load, with its share of the cluster
    or the rate it must reach.

    An entry gives either ``weight``, its share of the cluster's time (relative: normalised over
    the entries that give one), or one required rate: ``required_tokens_per_s``,
    ``required_tokens_per_day`` or (training) ``deadline_days`` for the job's ``tokens_b``. None
    of them is ``weight = 1``. The share a rate needs follows from each design's own throughput
    (:func:`planner.decision.outcome.shares_of_time`: rates first, shares split the rest). A
    workload file writes an entry flat (``kind``, ``weight`` or a rate, ``name`` and the job's own
    fields); the scenario keeps the job under ``training`` or ``serving``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    kind: WorkloadKind = Field(description="training or serving.")
    weight: float | None = Field(
        default=None, gt=0, le=1e6, description="Share of the cluster's time (relative, normalised) [-]."
    )
    required_tokens_per_s: float | None = Field(
        default=None, gt=0, le=1e12, description="Tokens per second the entry must reach [1/s]."
    )
    required_tokens_per_day: float | None = Field(
        default=None, gt=0, le=1e17, description="Tokens per day the entry must reach [1/day]."
    )
    deadline_days: float | None = Field(
        default=None, gt=0, le=3650, description="Train the job's tokens_b within this time [days]."
    )
    name: str = Field(
        default="", max_length=64, description="Label of the entry; empty = its kind and model."
    )
    training: TrainingJob | None = Field(default=None, description="The training job (kind training).")
    serving: ServingRequest | None = Field(default=None, description="The serving load (kind serving).")

    @model_validator(mode="before")
    @classmethod
    def _flat_job(cls, data: Any) -> Any:
        """A flat entry (the workload file's form): every key but the entry's own is the job's."""
        if not isinstance(data, Mapping) or "training" in data or "serving" in data:
            return data
        own = {"kind", "name", *_DEMANDS}
        job = {k: v for k, v in data.items() if k not in own}
        kind = data.get("kind")
        if kind not in ("training", "serving"):
            return {k: v for k, v in data.items() if k in own}
        return {**{k: v for k, v in data.items() if k in own}, kind: job}

    @model_validator(mode="after")
    def _job_of_kind(self) -> WorkloadEntry:
        job = self.training if self.kind == "training" else self.serving
        other = self.serving if self.kind == "training" else self.training
        if job is None:
            raise ValueError(msg("{kind}: the job's fields are missing", kind=self.kind))
        if other is not None:
            raise ValueError(msg("kind {kind}: give one job, not both", kind=self.kind))
        given = [name for name in _DEMANDS if getattr(self, name) is not None]
        if len(given) > 1:
            raise ValueError(
                msg("{fields}: give a share (weight) or one required rate, not both", fields=", ".join(given))
            )
        if self.deadline_days is not None and self.kind != "training":
            raise ValueError(msg("deadline_days: only a training job has a deadline (serving: give a rate)"))
        return self

    @property
    def required_rate_tokens_per_s(self) -> float | None:
        """The rate the entry must reach [1/s], or ``None`` for an entry with a share:
        ``required_tokens_per_day / 86400``, or ``tokens_b 10^9 / (deadline_days 86400)``."""
        if self.required_tokens_per_s is not None:
            return self.required_tokens_per_s
        if self.required_tokens_per_day is not None:
            return self.required_tokens_per_day / 86_400.0
        if self.deadline_days is not None and self.training is not None:
            return self.training.tokens_b * 1e9 / (self.deadline_days * 86_400.0)
        return None

    @property
    def share_weight(self) -> float | None:
        """The relative share of the cluster's time (``weight``, 1 when nothing is given), or
        ``None`` for an entry with a required rate [-]."""
        return None if self.required_rate_tokens_per_s is not None else (self.weight or 1.0)

    @property
    def label(self) -> str:
        """The entry's name, else its kind and model size (``training 70B``)."""
        job = self.training or self.serving
        size = f"{job.params_b:g}B" if job is not None else ""
        return self.name or f"{self.kind} {size}"


OptionalCatalogId = Annotated[str | None, Field(pattern=SLUG_PATTERN)]
"""A catalog record's id, or empty for the default the description names."""


class Scenario(BaseModel):
    """One cluster to plan: the boundary object of every engine entry point."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    name: str = Field(default="", max_length=200, description="Free text label.")
    gpus: int = Field(default=1024, ge=1, le=MAX_GPUS, strict=True, description="GPUs requested [count].")
    design_id: str = Field(
        default="rail8-npo", pattern=r"^[a-z0-9][a-z0-9_-]*$", description="Design preset id."
    )
    fabric: FabricParams | None = Field(
        default=None, description="Explicit fabric; replaces the preset's fabric when set."
    )
    gpu_id: OptionalCatalogId = Field(default=None, description="GPU; empty = the design's default GPU.")
    server_id: OptionalCatalogId = Field(
        default=None, description="Server; empty = the GPU's default server."
    )
    storage_id: OptionalCatalogId = Field(
        default=None, description="Storage system; empty = first in catalog."
    )
    force_scale_out_fabric: bool = switch_option(
        "--force-scale-out-fabric",
        description="Plan a scale-out fabric even when the cluster fits one scale-up domain.",
    )
    in_switch_reduction: Annotated[InSwitchReduction, Input(flag="--in-switch-reduction")] = Field(
        default="auto",
        description=(
            "All-reduce in the switches: auto = NVLink SHARP (NVLS, NVLS tree across domains) where the "
            "GPU supports it; none = rings and trees only; nvls = NVLS asked for; sharp = NVLS and SHARP "
            "in the network switches where they reduce."
        ),
    )
    facility: Annotated[Facility, Input()] = Field(default_factory=Facility)
    pools: Annotated[Pools, Input()] = Field(default_factory=Pools)
    price_overrides_usd: dict[str, float] = Field(
        default_factory=dict,
        description="Unit price overrides by catalog id [USD]; must be >= 0 and below 1e9.",
    )
    tenants: tuple[Tenant, ...] = Field(
        default=(),
        max_length=MAX_TENANTS,
        description="Tenants sharing the cluster (names unique); empty = one owner.",
    )
    serving: ServingRequest | None = Field(
        default=None,
        description="Model and request mix to serve (Serving page, Compare rows, proposal); empty = none.",
    )
    workload: tuple[WorkloadEntry, ...] = Field(
        default=(),
        max_length=MAX_WORKLOAD_ENTRIES,
        description="Workload mix the designs are compared on (cost per outcome); empty = price per GPU-hour.",
    )
    calibration: CalibrationOverride | None = Field(
        default=None,
        description="Catalog override fitted to the customer's measurements, with its provenance; empty = none.",
    )
    floor: LayoutParams | None = Field(
        default=None,
        description=(
            "Floor the racks are laid out on (row length, rows, aisles, slack); the BOM prices every "
            "cable at the length this layout gives it; empty = the default floor."
        ),
    )

    @field_validator("tenants")
    @classmethod
    def _unique_tenant_names(cls, tenants: tuple[Tenant, ...]) -> tuple[Tenant, ...]:
        names = [t.name for t in tenants]
        for index, name in enumerate(names):
            if name in names[:index]:
                raise ValueError(
                    msg("duplicate name {name} (tenant {index})", name=shorten(repr(name)), index=index)
                )
        return tenants

    @property
    def layout_floor(self) -> LayoutParams:
        """The floor the plan's racks and cables are laid out on: :attr:`floor`, else the default."""
        return self.floor or LayoutParams()

    def with_updates(self, **changes: Any) -> Scenario:
        """A validated copy with top-level fields replaced (pydantic's model_copy skips checks)."""
        return scenario_from_data({**self.model_dump(), **changes})


_SCENARIO = msg("scenario")
"""How messages name a scenario that came from no file."""


def scenario_from_data(data: Mapping[str, Any], *, source: str = _SCENARIO) -> Scenario:
    """Validate a mapping into a :class:`Scenario`; :class:`InputError` names field and range.

    Parameters
    ----------
    data : mapping of str to Any
        The scenario's fields.
    source : str
        What the values came from (a file name), opening the message.

    Returns
    -------
    Scenario
        The validated scenario.
    """
    scenario = parse(Scenario, data, source=source)
    bad_prices = {k: v for k, v in scenario.price_overrides_usd.items() if not 0 <= v < MAX_PRICE_USD}
    if bad_prices:
        key, value = sorted(bad_prices)[0], bad_prices[sorted(bad_prices)[0]]
        if value < 0:
            raise InputError(
                msg(
                    "{source}: price_overrides_usd.{key}: must be >= 0 (got {value})",
                    source=source,
                    key=shorten(key),
                    value=value,
                )
            )
        raise InputError(
            msg(
                "{source}: price_overrides_usd.{key}: must be below {limit} (got {value})",
                source=source,
                key=shorten(key),
                limit=f"{MAX_PRICE_USD:g}",
                value=value,
            )
        )
    return scenario


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario from a YAML or JSON file.

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    Scenario
        The validated scenario.

    Raises
    ------
    InputError
        The file cannot be read, is empty, or a field is out of range.
    """
    data, name = read_input_file(Path(path), what=SCENARIO_FILE)
    return scenario_from_data(data, source=name)


WORKLOAD_FILE = msg("workload file")
"""``what`` of a workload file (``planner compare --workload``)."""


def workload_from_data(data: Any, *, source: str = "workload") -> tuple[WorkloadEntry, ...]:
    """Validate a list of flat entries (or ``{workload: [...]}``) into a workload mix.

    :class:`InputError` names the entry and the field, with its allowed range.

    Parameters
    ----------
    data : Any
        A list of entries, or a mapping with only ``workload``.
    source : str
        What the values came from, opening the message.

    Returns
    -------
    tuple of WorkloadEntry
        The workload mix, in the given order.
    """
    if isinstance(data, Mapping) and set(data) == {"workload"}:
        data = data["workload"]
    if not isinstance(data, list) or not data:
        raise InputError(msg("{source}: a workload is a non-empty list of entries", source=source))
    if len(data) > MAX_WORKLOAD_ENTRIES:
        raise InputError(
            msg(
                "{source}: {count} entries (allowed: 1 to {limit})",
                source=source,
                count=len(data),
                limit=MAX_WORKLOAD_ENTRIES,
            )
        )
    return tuple(
        parse(WorkloadEntry, item, source=source, prefix=f"workload.{index}.")
        for index, item in enumerate(data)
    )


def load_workload(source: str | Path | bytes, *, name: str | None = None) -> tuple[WorkloadEntry, ...]:
    """Read a workload file (a path, or an upload's bytes named by ``name``): a YAML or JSON list of
    entries, each ``kind: training|serving``, the job's fields and ``weight`` (share of the
    cluster's time) or a required rate (:class:`WorkloadEntry`).

    Parameters
    ----------
    source : str, Path or bytes
        The file, or an upload's bytes.
    name : str or None
        The upload's file name (used in messages); ``None`` for a path.

    Returns
    -------
    tuple of WorkloadEntry
        The workload mix.
    """
    data, name = read_input_file(source, name=name, what=WORKLOAD_FILE, mapping=False)
    return workload_from_data(data, source=name)


def scenario_to_json(scenario: Scenario) -> str:
    """Serialise a scenario so that :func:`scenario_from_data` reads it back unchanged.

    Parameters
    ----------
    scenario : Scenario
        The scenario.

    Returns
    -------
    str
        Indented JSON text.
    """
    return scenario.model_dump_json(indent=2)
