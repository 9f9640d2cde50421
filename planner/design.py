"""Network design parameters: what a preset is, and what a custom design sets.

A design is data, not a code branch: a family, ports per GPU, a port speed, a number of planes,
whether leaves are rail-optimized, the switch, NIC and optics, the leaf oversubscription and the
scale-up domain. The three presets (``docs/model.md``, "Designs compared") live in ``data/designs.yaml``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.i18n.message import msg

Slug = str  # validated by the catalog schema's pattern where records are defined
FabricFamily = Literal["ethernet", "infiniband"]
SwitchFamily = Literal["ethernet", "infiniband", "nvlink", "scale_up"]
"""A switch's family: a scale-out fabric family, or ``nvlink`` / ``scale_up`` (UB, optical) for a scale-up switch."""
LinkClassName = Literal["node_leaf", "leaf_spine", "spine_core", "core_top"]
SLUG_PATTERN = r"^[a-z0-9][a-z0-9_]*$"


class FabricParams(BaseModel):
    """The compute fabric of one design. Every field is editable in a custom design."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    family: FabricFamily = Field(description="Fabric protocol family: RoCEv2 Ethernet or InfiniBand.")
    ports_per_gpu: int = Field(
        ge=1, le=16, description="Network ports per GPU (the '4-rail' / '8-rail' of the source)."
    )
    gpus_per_port: int = Field(
        default=1,
        ge=1,
        le=16,
        description="GPUs sharing one network port: 2 = half a port per GPU (4 ports for 8 GPUs) [count].",
    )
    nics_per_server: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Fabric NICs in one server; empty = one per GPU (or per port group) as the NIC's ports allow.",
    )
    ports_per_nic: int | None = Field(
        default=None,
        ge=1,
        le=8,
        description="Ports cabled on each fabric NIC; empty = server ports / NICs.",
    )
    planes_per_port: int = Field(
        default=1,
        ge=1,
        le=8,
        description="Planes one port is split into (a multi-plane NIC: 800G as 2 x 400G on two planes) [count].",
    )
    port_speed_gbit_per_s: int = Field(ge=25, le=1600, description="Speed of one port [Gb/s].")
    planes: int = Field(ge=1, le=16, description="Independent switched networks [count].")
    rail_optimized: bool = Field(
        description="Leaves per GPU-port index (rail) rather than per group of whole nodes."
    )
    switch_id: str = Field(pattern=SLUG_PATTERN, description="Catalog id of the fabric (leaf) switch.")
    spine_switch_id: str | None = Field(
        default=None, pattern=SLUG_PATTERN, description="Spine switch model; defaults to switch_id."
    )
    core_switch_id: str | None = Field(
        default=None, pattern=SLUG_PATTERN, description="Core switch model; defaults to the spine's."
    )
    nic_id: str = Field(pattern=SLUG_PATTERN, description="Catalog id of the GPU's network adapter.")
    optics_id: str = Field(
        pattern=SLUG_PATTERN,
        description="Catalog id of the optics on switch ports (and node ports unless set below).",
    )
    node_optics_id: str | None = Field(
        default=None,
        pattern=SLUG_PATTERN,
        description="Catalog id of the optics on the node (NIC) end; defaults to optics_id.",
    )
    oversubscription: float = Field(
        default=1.0, ge=1.0, le=8.0, description="Leaf down:up bandwidth ratio [-]; 1 = non-blocking."
    )
    scale_up_domain_gpus: int = Field(
        default=8, ge=1, le=1024, description="GPUs joined by the GPU's own links [count]."
    )
    scale_up_switch_id: str | None = Field(
        default=None,
        pattern=SLUG_PATTERN,
        description="Catalog id of the scale-up switch (tray) joining several servers into one domain; "
        "empty = the domain sits inside one server.",
    )
    scale_up_links_per_gpu: int | None = Field(
        default=None,
        ge=1,
        le=72,
        description="Scale-up links of one GPU to the domain's switches [count] (NVLink 5: 18).",
    )
    link_media: dict[LinkClassName, str] = Field(
        default_factory=dict,
        description="Media forced per link class: a cable id (copper) or an optic id; "
        "empty = chosen by reach.",
    )

    @model_validator(mode="after")
    def _ports_divide_into_planes(self) -> FabricParams:
        if self.ports_per_gpu > 1 and self.gpus_per_port > 1:
            raise ValueError(
                msg(
                    "gpus_per_port ({gpus}) and ports_per_gpu ({ports}): set one of them above 1, not both",
                    gpus=self.gpus_per_port,
                    ports=self.ports_per_gpu,
                )
            )
        if self.scale_up_switch_id is not None and self.scale_up_links_per_gpu is None:
            raise ValueError(msg("scale_up_links_per_gpu: needed when scale_up_switch_id is set"))
        if self.port_speed_gbit_per_s % self.planes_per_port:
            raise ValueError(
                msg(
                    "planes_per_port ({planes}) must divide port_speed_gbit_per_s ({gbit})",
                    planes=self.planes_per_port,
                    gbit=self.port_speed_gbit_per_s,
                )
            )
        if self.ports_per_gpu % self.planes and self.planes % self.ports_per_gpu:
            raise ValueError(
                msg(
                    "planes ({planes}) must divide ports_per_gpu ({ports}) or be a multiple of it",
                    planes=self.planes,
                    ports=self.ports_per_gpu,
                )
            )
        return self


class VendorClaim(BaseModel):
    """A performance claim made by a vendor: shown beside computed figures, never used in them."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    metric: str = Field(description="What the claim is about (e.g. latency_vs_infiniband).")
    text_en: str = Field(description="The claim as the vendor words it, in English.")
    text_zh: str = Field(description="The claim as the vendor words it, in Chinese.")
    value_pct: float | None = Field(default=None, description="Claimed change [%], if numeric.")
    status: Literal["not verified", "consistent", "verified"] = Field(
        default="not verified", description="Whether anyone checked the claim against a measurement."
    )
