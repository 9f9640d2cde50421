"""planner.fabric.frozen.maker: the objects a plan builds by the dozen, built alike at less cost."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from planner.bom import Equipment
from planner.cost import BomLine
from planner.engine import Plan, SizedCluster
from planner.fabric.auxiliary import AuxiliaryFabrics, AuxLinkCount
from planner.fabric.collectives import Bandwidth, CollectiveTime, FabricLevel
from planner.fabric.frozen import maker
from planner.fabric.media import LinkEnd, LinkMedia
from planner.fabric.network import Latency
from planner.fabric.pools import FrontendPool, StoragePool
from planner.fabric.scale_up import ScaleUpDomain
from planner.fabric.topology import ServerPorts, SmallClos, TierCount, Topology


@dataclasses.dataclass(frozen=True)
class _Run:
    links: int
    length_m: float = 3.0
    link_classes: tuple[str, ...] = ()


def test_made_objects_equal_the_class_s_own() -> None:
    make = maker(_Run)
    made, built = make(links=4, length_m=2.5), _Run(links=4, length_m=2.5)
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert type(made) is _Run and dataclasses.asdict(made) == dataclasses.asdict(built)
    assert make(links=4) == _Run(4)  # defaults filled
    assert pickle.loads(pickle.dumps(made)) == built


def test_made_objects_stay_frozen() -> None:
    made = maker(_Run)(links=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.links = 2  # type: ignore[misc]


def test_a_call_it_does_not_take_goes_to_the_class() -> None:
    make = maker(_Run)
    assert make(7) == _Run(7)  # positional: the class builds it
    with pytest.raises(TypeError, match="links"):
        make()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="lenght_m"):
        make(links=1, lenght_m=2.0)  # type: ignore[call-arg]


def test_only_plain_frozen_dataclasses() -> None:
    @dataclasses.dataclass
    class Mutable:
        x: int

    @dataclasses.dataclass(frozen=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            if self.x < 0:
                raise ValueError("x")

    @dataclasses.dataclass(frozen=True)
    class Factory:
        xs: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        x: int

    for cls in (Mutable, Checked, Factory, Slotted, int):
        with pytest.raises(TypeError, match="maker"):
            maker(cls)


@pytest.mark.parametrize(
    "cls",
    [
        BomLine,
        LinkEnd,
        LinkMedia,
        AuxLinkCount,
        SmallClos,
        TierCount,
        Topology,
        Plan,
        Bandwidth,
        Equipment,
        Latency,
        StoragePool,
        FrontendPool,
        ScaleUpDomain,
        AuxiliaryFabrics,
        SizedCluster,
        CollectiveTime,
        FabricLevel,
        ServerPorts,
    ],
)
def test_the_classes_a_plan_makes_this_way_take_it(cls: type) -> None:
    """A __post_init__ or slots added to one of them later fails here (and at import)."""
    maker(cls)
