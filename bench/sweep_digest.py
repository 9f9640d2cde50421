"""Everything a sweep computes, as canonical JSON: run it before and after a change to the engine's
speed, and compare (``cmp``): the two files must be byte for byte the same.

    .venv/bin/python bench/sweep_digest.py /tmp/before.json     # on the old commit
    .venv/bin/python bench/sweep_digest.py /tmp/after.json      # on the new one
    cmp /tmp/before.json /tmp/after.json

Written: the default sweep's rows and skipped runs (3 preset designs x 128 sizes), the same on a
second scenario (air cooling, price overrides, a floor, other link lengths, SHARP) with 4 designs
and sizes past the NVL72 and rail-4 limits; every field of every one of those plans (each at the
sweep's one cable length per class, the way a sweep plans them), a few plans with their cables laid
out, and the rows of a small grid sweep (:func:`planner.sweep.evaluate_batch`). Engine messages are
written with their template and parameters, so a change in what a translation sees counts too;
floats with ``repr`` (every bit).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import BaseModel

from planner import Scenario, load_catalog, sweep
from planner.compare import default_sizes
from planner.engine import plan
from planner.errors import PlannerError
from planner.i18n import error_text
from planner.i18n.message import Message
from planner.sweep import SweepJob, evaluate_batch, grid_from_data

OTHER = {
    "facility": {"cooling_id": "air", "rack_power_limit_kw": 30, "link_lengths": {"node_leaf_m": 3}},
    "price_overrides_usd": {"br100": 20_000, "dac_400g": 90},
    "floor": {"row_length_m": 20},
    "in_switch_reduction": "sharp",
}
"""A second scenario, unlike the default one in as many inputs as a sweep carries over."""
OTHER_DESIGNS = ("rail4-npo", "rail8-npo", "ib-ndr", "ib-xdr", "gb200-nvl72-ib-ndr")
RACK_SCALE = ("gb200-nvl72-ib-ndr", "gb200-nvl36x2-ib-ndr")
"""Designs whose scale-up domain spans servers, swept on their own GPU."""


def _written(cls: type) -> list[str]:
    """A dataclass's fields and the values it works out when first read (``cached_property``:
    the busbw curve), so a value made lazily is compared like a field."""
    lazy = [name for name, attr in vars(cls).items() if isinstance(attr, functools.cached_property)]
    return [f.name for f in dataclasses.fields(cls)] + lazy


def canonical(value: Any) -> Any:
    """``value`` as plain JSON: messages with their template and parameters, floats by repr."""
    if isinstance(value, Message):
        return {"text": str(value), "template": value.template, "params": canonical(dict(value.params))}
    if isinstance(value, BaseModel):
        return canonical(value.model_dump())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: canonical(getattr(value, name)) for name in _written(type(value))}
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if isinstance(value, float):
        return repr(value)
    return value


def plans_of(scenario: Scenario, designs: tuple[str, ...], *, laid_out: bool) -> list[Any]:
    """Every field of the plan of each design and default size (or its refusal)."""
    catalog = load_catalog()
    out: list[Any] = []
    sizes = default_sizes() if not laid_out else (8, 72, 256, 1024)
    for design in designs:
        for size in sizes:
            one = scenario.with_updates(design_id=design, gpus=size)
            try:
                out.append(canonical(plan(scenario=one, catalog=catalog, layout_cable_lengths=laid_out)))
            except PlannerError as exc:
                out.append({"refused": canonical(error_text(exc))})
    return out


def digest() -> dict[str, Any]:
    """The sweeps, plans and grid rows (see the module notes)."""
    catalog = load_catalog()
    other = Scenario.model_validate(OTHER)
    grid = grid_from_data(
        {"gpus": {"start": 64, "stop": 4096, "step": 192}, "design_id": ["rail8-npo", "ib-ndr"]},
        base=Scenario(),
        catalog=catalog,
        max_points=None,
    )
    job = SweepJob(grid=grid, base=Scenario().model_dump(), catalog=catalog)
    out: dict[str, Any] = {}
    for name, scenario, designs in (
        ("default", Scenario(), ("rail4-npo", "rail8-npo", "ib-ndr")),
        ("other", other, OTHER_DESIGNS),
        ("rack_scale", Scenario(gpu_id="gb200"), RACK_SCALE),
    ):
        result = sweep(scenario=scenario, catalog=catalog, design_ids=designs)
        out[f"{name}.sweep.rows"] = canonical(result.rows)
        out[f"{name}.sweep.skipped"] = canonical(result.skipped)
        out[f"{name}.plans"] = plans_of(scenario, designs, laid_out=False)
        out[f"{name}.plans.laid_out"] = plans_of(scenario, designs, laid_out=True)
    out["grid.rows"] = canonical(evaluate_batch(job, 0, job.grid.count()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="JSON file to write")
    args = parser.parse_args()
    args.out.write_text(json.dumps(digest(), sort_keys=True, indent=0, ensure_ascii=False), encoding="utf-8")
    print(f"{args.out}: {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
