"""What the hand-off reads of a plan: the sized cluster, before any price.

The wiring and the layout need the counts the engine has sized (topology, media, auxiliary
fabrics, scale-up domains, racks, node power), not its prices. :class:`Sized` names them, so the
engine can lay out the cables of a plan before it writes the BOM (:mod:`planner.handoff.runs`
gives the BOM the cable lengths of the layout), and a finished :class:`planner.engine.Plan`,
which has every one of these attributes, is a :class:`Planned`.
"""

from __future__ import annotations

from typing import Protocol

from planner.cost import BomLine
from planner.fabric.auxiliary import AuxiliaryFabrics
from planner.fabric.media import LinkMedia
from planner.fabric.scale_up import ScaleUpDomain
from planner.fabric.topology import ServerPorts, Topology
from planner.facility.power import Power, Racks
from planner.inputs.scenario import Scenario


class SwitchIds(Protocol):
    """Catalog id of the compute-fabric switch model of each tier."""

    @property
    def leaf_id(self) -> str: ...
    @property
    def spine_id(self) -> str | None: ...
    @property
    def core_id(self) -> str | None: ...


class Sized(Protocol):
    """A cluster sized by the engine: what the wiring and the layout read."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def nodes(self) -> int: ...
    @property
    def server_id(self) -> str: ...
    @property
    def topology(self) -> Topology: ...
    @property
    def media(self) -> tuple[LinkMedia, ...]: ...
    @property
    def aux_media(self) -> tuple[LinkMedia, ...]: ...
    @property
    def auxiliary(self) -> AuxiliaryFabrics: ...
    @property
    def scale_up(self) -> ScaleUpDomain: ...
    @property
    def server_ports(self) -> ServerPorts: ...
    @property
    def switch_models(self) -> SwitchIds: ...
    @property
    def power(self) -> Power: ...
    @property
    def racks(self) -> Racks: ...


class Planned(Sized, Protocol):
    """A finished plan: the sized cluster with its design, GPU count, BOM and compute-fabric
    cables and transceivers [count]."""

    @property
    def design_id(self) -> str: ...
    @property
    def gpus(self) -> int: ...
    @property
    def bom(self) -> tuple[BomLine, ...]: ...
    @property
    def cables(self) -> int: ...
    @property
    def transceivers(self) -> int: ...
