"""Plans and hand-offs of the presets at the sizes the hand-off tests check (built once per run)."""

from __future__ import annotations

from functools import cache
from typing import Any

from planner import Catalog, load_catalog, plan
from planner.engine import Plan
from planner.handoff.cabling import Handoff, build_handoff
from planner.inputs.scenario import scenario_from_data

CATALOG: Catalog = load_catalog()

SIZES = (64, 256, 1024)
PRESETS = tuple(CATALOG.designs)

# the DGX A100 of ib-hdr is air-cooled only, and its 50 m SR optics do not reach the default 60 m
# spine-core length (the engine refuses it), so its spine-core runs are set to the optics' reach
FACILITY: dict[str, dict[str, Any]] = {
    "ib-hdr": {"cooling_id": "air", "link_lengths": {"spine_core_m": 50}},
}


def gpus_for(design_id: str, gpus: int) -> int:
    """``gpus``, at least one scale-up domain (72 for an NVL72 preset at 64 GPUs)."""
    return max(gpus, CATALOG.designs[design_id].fabric.scale_up_domain_gpus)


def cases() -> list[tuple[str, int]]:
    return [(d, gpus_for(d, g)) for d in PRESETS for g in SIZES]


@cache
def preset_plan(design_id: str, gpus: int) -> Plan:
    data = {"gpus": gpus, "design_id": design_id, "facility": FACILITY.get(design_id, {})}
    return plan(scenario=scenario_from_data(data), catalog=CATALOG)


@cache
def preset_handoff(design_id: str, gpus: int) -> Handoff:
    return build_handoff(plan=preset_plan(design_id, gpus), catalog=CATALOG)
