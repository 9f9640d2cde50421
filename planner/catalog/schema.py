"""Catalog schema: one pydantic model per component family.

Every record carries ``source`` and ``as_of`` (where the figures come from and when), or
``assumption: true`` with a ``reason``. Field names carry units. Ranges are checked here;
cross-references (a GPU's default server, a design's switch) are checked after loading in
:mod:`planner.catalog.load`.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from planner.design import SLUG_PATTERN, FabricFamily, FabricParams, SwitchFamily, VendorClaim
from planner.i18n.message import msg


def _date_text(value: object) -> object:
    # YAML reads 2025 as an int and 2024-10-17 as a date; both are meant as text. Anything
    # else goes to the pattern check as it is: str() of a list could be huge.
    is_date = isinstance(value, int | dt.date) and not isinstance(value, bool)
    return str(value) if is_date else value


AsOf = Annotated[
    str | None, Field(pattern=r"^(\d{4}(-\d{2}(-\d{2})?)?|n\.d\.)$"), BeforeValidator(_date_text)
]
"""Date of a source: YYYY, YYYY-MM or YYYY-MM-DD, or n.d. if undated (YAML's year and date read as text)."""

DeviceHeightU = Annotated[int, Field(ge=1, le=48, description="Height [U].")]
"""Height of a rack-mounted device (server, switch, storage unit) [U]."""


def _require_trace(*, source: str | None, as_of: str | None, assumption: bool, reason: str | None) -> None:
    """A figure names where it comes from (source and date) or why it is assumed."""
    has_source = bool(source) and bool(as_of)
    has_reason = assumption and bool(reason)
    if not (has_source or has_reason):
        raise ValueError(msg("needs source and as_of, or assumption: true with a reason"))
    if assumption and not reason:
        raise ValueError(msg("assumption: true needs a reason"))


class Record(BaseModel):
    """Fields shared by every catalog record."""

    # NaN passes no range check and inf breaks every sum: numbers from a file are finite
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    id: str = Field(pattern=SLUG_PATTERN, description="Unique slug within the family.")
    name: str = Field(min_length=1, description="Display name.")
    source: str | None = Field(default=None, description="Where the figures come from.")
    as_of: AsOf = Field(
        default=None, description="Date of the source (YYYY, YYYY-MM or YYYY-MM-DD; n.d. if undated)."
    )
    assumption: bool = Field(default=False, description="True when a figure is assumed.")
    reason: str | None = Field(default=None, description="Why the assumed figure was chosen.")
    notes: str | None = Field(default=None, description="Anything else a reader should know.")

    @model_validator(mode="after")
    def _traceable(self) -> Record:
        _require_trace(source=self.source, as_of=self.as_of, assumption=self.assumption, reason=self.reason)
        return self


class _TracedFigure(BaseModel):
    """A figure nested in a record that names its own provenance, in four fields named with the
    subclass's ``_trace_prefix``: ``<prefix>_source``, ``<prefix>_as_of``, ``<prefix>_assumption`` and
    ``<prefix>_reason``, held to the record's rule (:func:`_require_trace`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
    _trace_prefix: ClassVar[str]

    @model_validator(mode="after")
    def _traceable(self) -> Self:
        prefix = self._trace_prefix
        _require_trace(
            source=getattr(self, f"{prefix}_source"), as_of=getattr(self, f"{prefix}_as_of"),
            assumption=getattr(self, f"{prefix}_assumption"), reason=getattr(self, f"{prefix}_reason"),
        )  # fmt: skip
        return self


def _source_of(figure: str) -> Any:
    """The ``<prefix>_source`` field of a :class:`_TracedFigure` about ``figure``."""
    return Field(default=None, description=f"Where the {figure} comes from.")


def _date_of(source: str) -> Any:
    """The ``<prefix>_as_of`` field: the date of ``source``."""
    return Field(
        default=None, description=f"Date of {source} (YYYY, YYYY-MM or YYYY-MM-DD; n.d. if undated)."
    )


def _assumed(figure: str) -> Any:
    """The ``<prefix>_assumption`` field of a :class:`_TracedFigure` about ``figure``."""
    return Field(default=False, description=f"True when the {figure} is assumed.")


def _reason_for(figure: str) -> Any:
    """The ``<prefix>_reason`` field of a :class:`_TracedFigure` about ``figure``."""
    return Field(default=None, description=f"Why the assumed {figure} was chosen.")


MIB_BYTES = 2**20
"""Bytes in one mebibyte (MiB), the unit nvidia-smi, rocm-smi and npu-smi report memory in [B]."""
GB_BYTES = 1e9
"""Bytes in one gigabyte (GB), the unit of the vendors' marketing memory figures [B]."""


class VisibleMemory(_TracedFigure):
    """Device memory the driver reports to software, with where the figure comes from.

    The marketing figure (``Gpu.hbm_gbyte``) is a rounded capacity in GB; an "80 GB" H100 reports
    81,559 MiB (85.5e9 B) in nvidia-smi, a "180 GB" B200 183,359 MiB (192.3e9 B). The CUDA context,
    NCCL buffers and the allocator's fragmentation come out of this total (the usable-memory
    fraction of the training and serving models), not out of the marketing figure.
    """

    _trace_prefix: ClassVar[str] = "memory"
    total_mib: float = Field(
        ge=1024,
        le=4_194_304,
        description="Total device memory as nvidia-smi, rocm-smi or npu-smi reports it [MiB].",
    )
    memory_source: str | None = _source_of("driver-reported memory")
    memory_as_of: AsOf = _date_of("the driver-reported memory's source")
    memory_assumption: bool = _assumed("driver-reported memory")
    memory_reason: str | None = _reason_for("driver-reported memory")


PCIE_GEN5_X16_GBYTE_PER_S = 64.0
"""Host link of a GPU whose record names none: PCIe Gen5 x16, 128 GB/s both directions together
(Transformer Engine documentation, "CPU Offloading", Hardware Support, 2026), 64 GB/s each way [GB/s]."""


class HostLink(_TracedFigure):
    """The GPU's link to its host CPU's memory (PCIe, NVLink-C2C), with where the figure comes from."""

    _trace_prefix: ClassVar[str] = "link"
    link_gbyte_per_s: float = Field(
        ge=1, le=10_000, description="Host link bandwidth per direction, one GPU [GB/s]."
    )
    link_source: str | None = _source_of("host link bandwidth")
    link_as_of: AsOf = _date_of("the host link's source")
    link_assumption: bool = _assumed("host link bandwidth")
    link_reason: str | None = _reason_for("host link bandwidth")


class Gpu(Record):
    vendor: str = Field(description="Manufacturer.")
    form_factor: Literal["oam", "sxm", "pcie", "other"] = Field(
        description="Module form factor (OAM, SXM, PCIe card, other)."
    )
    tdp_w: float = Field(ge=50, le=3000, description="Board power [W].")
    hbm_gbyte: float = Field(ge=1, le=2048, description="Device memory, the vendor's marketing figure [GB].")
    visible_memory: VisibleMemory | None = Field(
        default=None,
        description="Device memory the driver reports (nvidia-smi, rocm-smi, npu-smi), with its source.",
    )
    hbm_bandwidth_gbyte_per_s: float = Field(ge=10, le=50000, description="Memory bandwidth [GB/s].")
    bf16_dense_tflops: float = Field(ge=1, le=20000, description="Dense BF16 peak [TFLOPS].")
    scale_up_bandwidth_gbyte_per_s: float = Field(
        ge=1, le=20000, description="Scale-up (NVLink/BLink/xGMI) bandwidth per direction [GB/s]."
    )
    nvls_allreduce: bool = Field(
        default=False,
        description="The scale-up switch reduces (NVLink SHARP, NVLS): NVSwitch gen 3+ (H100 class on).",
    )
    unit_cost_usd: float = Field(ge=0, le=1e6, description="Indicative price of one GPU [USD].")
    default_server_id: str = Field(pattern=SLUG_PATTERN, description="Server platform used by default.")
    host_link: HostLink | None = Field(
        default=None,
        description="Link to the host CPU's memory, with its source; empty = PCIe Gen5 x16, 64 GB/s per direction.",
    )


def host_link_byte_per_s(gpu: Gpu) -> float:
    """Bandwidth of one GPU's link to host memory, one direction [B/s]: the record's
    ``host_link``, else PCIe Gen5 x16 (:data:`PCIE_GEN5_X16_GBYTE_PER_S`).

    Source: Transformer Engine documentation, "CPU Offloading" (PCIe Gen5 x16 128 GB/s, GB200's
    NVLink-C2C 900 GB/s per link, both directions together).

    Parameters
    ----------
    gpu : Gpu
        A GPU record (``host_link.link_gbyte_per_s`` [GB/s] when known).

    Returns
    -------
    float
        Host link bandwidth per direction [B/s].
    """
    gbyte = gpu.host_link.link_gbyte_per_s if gpu.host_link is not None else PCIE_GEN5_X16_GBYTE_PER_S
    return gbyte * GB_BYTES


def device_memory_bytes(gpu: Gpu) -> float:
    """Device memory the framework can allocate from, before its own reserves [B].

    ``visible_memory.total_mib`` × 2^20 when the record has it; otherwise the marketing figure read
    as decimal gigabytes, ``hbm_gbyte`` × 10^9 (a record without a driver figure; every GPU of the
    bundled catalog has one, ``tests/test_device_memory.py``). This is the one place the catalog's
    memory figures become bytes for the training and serving models.

    Source: nvidia-smi, rocm-smi and npu-smi report MiB (2^20 B); vendors quote GB (10^9 B).

    Parameters
    ----------
    gpu : Gpu
        A GPU record (``visible_memory.total_mib`` [MiB] when known, ``hbm_gbyte`` [GB]).

    Returns
    -------
    float
        Device memory [B].
    """
    if gpu.visible_memory is not None:
        return gpu.visible_memory.total_mib * MIB_BYTES
    return gpu.hbm_gbyte * GB_BYTES


class Server(Record):
    gpus_per_node: int = Field(ge=1, le=16, description="GPUs in one server [count].")
    form_factors: tuple[Literal["oam", "sxm", "pcie", "other"], ...] = Field(
        min_length=1, description="GPU form factors the platform takes."
    )
    rack_units: DeviceHeightU
    base_power_w: float = Field(
        ge=0, le=20000, description="Power of everything but GPUs and fabric NICs at full load [W]."
    )
    chassis_cost_usd: float = Field(ge=0, le=1e6, description="Price without GPUs and fabric NICs [USD].")
    cooling: tuple[Literal["air", "direct_liquid", "immersion"], ...] = Field(
        min_length=1, description="Cooling methods the platform supports."
    )


class Nic(Record):
    families: tuple[FabricFamily, ...] = Field(
        min_length=1, description="Fabric families it speaks (ethernet, infiniband)."
    )
    ports: int = Field(ge=1, le=8, description="Network ports per adapter [count].")
    port_speed_gbit_per_s: int = Field(ge=25, le=1600, description="Speed per port [Gb/s].")
    power_w: float = Field(ge=0, le=500, description="Adapter power without optics [W].")
    unit_cost_usd: float = Field(ge=0, le=1e5, description="Indicative price of one adapter [USD].")
    latency_ns: float = Field(ge=0, le=10000, description="Host + NIC one-way latency [ns].")
    nccl_efficiency: float = Field(
        gt=0, le=1, description="Achieved NCCL busbw / line rate for large messages [-]."
    )
    alpha_us: float = Field(ge=0, le=1000, description="Per-step software latency of a collective [us].")


class Switch(Record):
    family: SwitchFamily = Field(
        description="Fabric family (ethernet, infiniband; nvlink or scale_up = a scale-up switch)."
    )
    capacity_gbit_per_s: int = Field(ge=100, le=1_000_000, description="Switching capacity [Gb/s].")
    radix_by_speed: dict[int, int] = Field(
        min_length=1, description="Port count at each supported port speed {Gb/s: ports}."
    )
    rack_units: DeviceHeightU
    power_typical_w: float = Field(ge=0, le=50000, description="Typical power without optics [W].")
    power_max_w: float = Field(ge=0, le=50000, description="Maximum power without optics [W].")
    latency_ns: float = Field(ge=0, le=10000, description="Port-to-port latency [ns].")
    unit_cost_usd: float = Field(ge=0, le=1e7, description="Indicative price of one switch [USD].")
    in_network_reduction: bool = Field(default=False, description="Reduces in the switch (SHARP-class).")
    management: bool = Field(default=False, description="A management/storage-class switch.")
    kind: Literal["packet", "circuit"] = Field(
        default="packet",
        description="Packet switch (buffers, switches every packet: latency_ns per hop) or optical "
        "circuit switch (mirrors steer light port to port: no buffering, no per-hop switching latency, "
        "rate-transparent; circuits are set when a job starts).",
    )
    reconfiguration_ms: float | None = Field(
        default=None,
        gt=0,
        le=60000,
        description="Time to set a new circuit map [ms] (circuit switches only).",
    )
    scale_up_attach: Literal["gpu", "server"] = Field(
        default="gpu",
        description="What one scale-up switch connects: every GPU of the domain (NVLink switch tray), "
        "or every server, whose GPUs first meet on the server's board (UB L2 switch behind on-board L1 "
        "switches; an optical circuit switch joining servers).",
    )
    twin_rack: bool = Field(
        default=False,
        description="Half of the ports go to the GPUs of its own rack, half to its twin switch in the "
        "partner rack: two racks form one domain (NVL36x2).",
    )

    def ports_at(self, speed_gbit_per_s: int) -> int | None:
        """Ports usable at a link speed [count]; ``None`` where the switch has no such port.

        A circuit switch steers light whatever its bit rate, so its port count holds at any speed.
        """
        if self.kind == "circuit":
            return max(self.radix_by_speed.values())
        return self.radix_by_speed.get(speed_gbit_per_s)

    @model_validator(mode="after")
    def _circuit_switch_fields(self) -> Switch:
        if self.kind == "circuit":
            if self.reconfiguration_ms is None:
                raise ValueError(msg("kind circuit needs reconfiguration_ms"))
            if self.latency_ns != 0 or self.in_network_reduction or self.twin_rack:
                raise ValueError(
                    msg(
                        "kind circuit: latency_ns must be 0 (no per-hop switching), "
                        "in_network_reduction and twin_rack false"
                    )
                )
        elif self.reconfiguration_ms is not None:
            raise ValueError(msg("reconfiguration_ms is for kind circuit only"))
        return self

    @model_validator(mode="after")
    def _radix_within_capacity(self) -> Switch:
        for speed, ports in self.radix_by_speed.items():
            if speed <= 0 or ports <= 0:
                raise ValueError(msg("radix_by_speed needs positive speeds and port counts"))
            if speed * ports > self.capacity_gbit_per_s * 1.001:
                raise ValueError(
                    msg(
                        "radix_by_speed {ports}x{speed}G exceeds capacity {capacity} Gb/s",
                        ports=ports,
                        speed=speed,
                        capacity=self.capacity_gbit_per_s,
                    )
                )
        if self.power_max_w < self.power_typical_w:
            raise ValueError(msg("power_max_w must be >= power_typical_w"))
        return self


class Optic(Record):
    kind: Literal["pluggable", "lpo", "npo", "cpo"] = Field(
        description="Pluggable (DSP), linear pluggable (LPO), near-package (NPO) or co-packaged (CPO)."
    )
    medium: Literal["mmf", "smf"] = Field(description="Fiber: multimode (mmf) or single-mode (smf).")
    speed_gbit_per_s: int = Field(ge=1, le=1600, description="Speed of one port it serves [Gb/s].")
    ports_per_module: int = Field(
        ge=1, le=8, description="Switch/NIC ports one module serves (2 for twin-port OSFP)."
    )
    max_reach_m: float = Field(gt=0, le=100000, description="Longest supported link [m].")
    power_w: float = Field(ge=0, le=100, description="Power per module (per port for NPO/CPO) [W].")
    unit_cost_usd: float = Field(ge=0, le=1e5, description="Price per module (per port for NPO/CPO) [USD].")
    latency_ns: float = Field(ge=0, le=1000, description="Added one-way latency per end (DSP) [ns].")

    @property
    def integrated(self) -> bool:
        """NPO and CPO optics sit beside the ASIC: no pluggable module, costed per port."""
        return self.kind in ("npo", "cpo")


class Cable(Record):
    kind: Literal["dac", "acc", "aec", "utp", "fiber_mmf", "fiber_smf"] = Field(
        description=(
            "Passive copper (DAC), linear active copper (ACC), retimed copper (AEC), twisted-pair "
            "copper (UTP, BASE-T management ports) or fiber."
        )
    )
    max_speed_gbit_per_s: int = Field(ge=1, le=1600, description="Fastest port it carries [Gb/s].")
    max_reach_m: float = Field(gt=0, le=100000, description="Longest supported length [m].")
    power_w: float = Field(ge=0, le=50, description="Power per cable, both ends [W].")
    unit_cost_usd: float = Field(ge=0, le=1e5, description="Fixed price per cable [USD].")
    cost_usd_per_m: float = Field(ge=0, le=1000, description="Price per metre of length [USD/m].")
    latency_ns: float = Field(ge=0, le=1000, description="Added latency (retimers) [ns].")

    @property
    def is_copper(self) -> bool:
        return self.kind in ("dac", "acc", "aec", "utp")


class Rack(Record):
    rack_units: int = Field(ge=10, le=60, description="Height [U].")
    usable_rack_units: int = Field(ge=1, le=60, description="Height left for equipment [U].")
    unit_cost_usd: float = Field(ge=0, le=1e6, description="Indicative price of one rack [USD].")


class Pdu(Record):
    capacity_kw: float = Field(gt=0, le=500, description="Power one PDU carries [kW].")
    unit_cost_usd: float = Field(ge=0, le=1e5, description="Indicative price of one PDU [USD].")


class Cooling(Record):
    kind: Literal["air", "direct_liquid", "immersion"] = Field(description="Cooling method.")
    pue_default: float = Field(ge=1.0, le=3.0, description="Typical power usage effectiveness [-].")
    max_rack_kw: float = Field(gt=0, le=500, description="Densest rack this method can cool [kW].")
    capex_usd_per_kw: float = Field(
        ge=0, le=50000, description="Cooling capital cost per kW of IT load [USD/kW]."
    )
    liquid_capture_fraction: float = Field(
        ge=0, le=1, description="Share of server heat removed by liquid [-]."
    )
    cdu_capacity_kw: float | None = Field(
        default=None, gt=0, le=10000, description="Heat one coolant distribution unit removes [kW]."
    )
    cdu_unit_cost_usd: float = Field(
        default=0, ge=0, le=1e7, description="Indicative price of one CDU [USD]."
    )
    coolant_delta_t_k: float = Field(default=10, gt=0, le=40, description="Coolant rise [K].")
    air_delta_t_k: float = Field(default=12, gt=0, le=40, description="Air temperature rise [K].")

    @model_validator(mode="after")
    def _cdu_when_liquid(self) -> Cooling:
        if self.liquid_capture_fraction > 0 and self.cdu_capacity_kw is None:
            raise ValueError(msg("liquid cooling needs cdu_capacity_kw"))
        return self


class Storage(Record):
    capacity_tbyte: float = Field(gt=0, le=100000, description="Usable capacity per unit [TB].")
    write_bandwidth_gbyte_per_s: float = Field(gt=0, le=10000, description="Sustained write per unit [GB/s].")
    read_bandwidth_gbyte_per_s: float = Field(gt=0, le=10000, description="Sustained read per unit [GB/s].")
    network_ports: int = Field(ge=1, le=64, description="Network ports per unit [count].")
    port_speed_gbit_per_s: int = Field(ge=10, le=1600, description="Speed of one port [Gb/s].")
    power_w: float = Field(ge=0, le=50000, description="Power per unit [W].")
    rack_units: DeviceHeightU
    unit_cost_usd: float = Field(ge=0, le=1e7, description="Indicative price of one unit [USD].")


class EnergyPrice(Record):
    region: str = Field(description="Where the tariff applies.")
    usd_per_kwh: float = Field(gt=0, le=2, description="Electricity price [USD/kWh].")


class ExchangeRate(Record):
    currency: Literal["CNY"] = Field(description="Currency quoted against the US dollar.")
    per_usd: float = Field(gt=0, le=1000, description="Units of the currency per US dollar [CNY/USD].")


class CostFactor(Record):
    value: float = Field(ge=0, le=100000, description="The factor, in the unit below.")
    unit: str = Field(description="Unit of value, e.g. 'fraction' or 'USD per rack-year'.")


class Design(Record):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", description="Preset id (hyphens allowed: rail4-npo).")
    name_zh: str = Field(description="Display name in Chinese.")
    description: str = Field(description="What the design is and when the source recommends it.")
    fabric: FabricParams = Field(description="The compute fabric parameters.")
    default_gpu_id: str = Field(pattern=SLUG_PATTERN, description="GPU used when the scenario names none.")
    claims: tuple[VendorClaim, ...] = Field(default=(), description="Vendor claims, shown, never computed.")


class SizingRule(Record):
    """A rule for an auxiliary fabric or system (storage, management), or a coefficient of the
    collective model (``data/collectives.yaml``, :mod:`planner.fabric.collectives`)."""

    value: float = Field(ge=0, le=100000, description="The rule's value, in the unit below.")
    unit: str = Field(description="Unit of value.")


FAMILIES: dict[str, type[Record]] = {
    "gpus": Gpu,
    "servers": Server,
    "nics": Nic,
    "switches": Switch,
    "optics": Optic,
    "cables": Cable,
    "racks": Rack,
    "pdus": Pdu,
    "cooling": Cooling,
    "storage": Storage,
    "energy_prices": EnergyPrice,
    "exchange_rates": ExchangeRate,
    "cost_factors": CostFactor,
    "sizing_rules": SizingRule,
    "designs": Design,
}
"""Section name in a catalog file -> record model."""
