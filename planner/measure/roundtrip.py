"""The calibration round trip of the validation suite (``validation/calibration_round_trip.yaml``).

Each case writes the nccl-tests output a cluster with known coefficients would print
(:func:`planner.measure.synthetic.synthetic_run`, with noise), reads it back with the strict
reader, fits it (:func:`planner.measure.calibrate.calibrate`) and compares each checked
coefficient with the one that generated the data. It checks the fitting; no published figure is
involved, so it says nothing about the model's accuracy (``docs/measure.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from planner.catalog import Catalog
from planner.engine import plan
from planner.errors import InputError
from planner.files import read_mapping
from planner.i18n.message import msg
from planner.inputs.scenario import scenario_from_data
from planner.measure.calibrate import calibrate
from planner.measure.model import PARAMETERS, baseline
from planner.measure.nccl import parse_nccl_tests
from planner.measure.synthetic import synthetic_run
from planner.measure.text import read_lines

CASES = Path(__file__).resolve().parents[2] / "validation" / "calibration_round_trip.yaml"


@dataclass(frozen=True)
class RoundTrip:
    """One checked coefficient of one case and seed."""

    case: str
    seed: int
    coefficient: str
    known: float
    fitted: float | None
    tolerance_fraction: float

    @property
    def error_fraction(self) -> float | None:
        return None if self.fitted is None else self.fitted / self.known - 1.0

    @property
    def passed(self) -> bool:
        error = self.error_fraction
        return error is not None and abs(error) <= self.tolerance_fraction


def load_round_trips(path: Path = CASES) -> list[Mapping[str, Any]]:
    """The cases of the round-trip file (a mapping with a ``cases`` list).

    Parameters
    ----------
    path : Path
        The round-trip cases file (YAML).

    Returns
    -------
    list of mapping
        The cases, each with its id, plan, known coefficients, runs and noise.

    Raises
    ------
    InputError
        The file has no ``cases`` list, or a case names an unknown coefficient.
    """
    data = read_mapping(path, what=msg("round-trip file"), error=InputError, trusted=True) or {}
    cases = data.get("cases")
    if not isinstance(cases, list) or not cases:
        raise InputError(msg("{file}: expected a non-empty list 'cases'", file=str(path)))
    for case in cases:
        unknown = set(case.get("known", {})) - set(PARAMETERS)
        if unknown:
            raise InputError(
                msg(
                    "{file}: case {case}: unknown coefficients {names}",
                    file=str(path),
                    case=case.get("id"),
                    names=sorted(unknown),
                )
            )
    return cases


def run_round_trip(case: Mapping[str, Any], *, catalog: Catalog, seed: int) -> list[RoundTrip]:
    """Write, read and fit one case for one seed; one result per checked coefficient.

    Parameters
    ----------
    case : mapping
        One case of :func:`load_round_trips`.
    catalog : Catalog
        The catalog the case's plan is made with.
    seed : int
        Seed of the synthetic noise [dimensionless].

    Returns
    -------
    list of RoundTrip
        Per checked coefficient: known and fitted value and tolerance [fraction].
    """
    data = {"gpus": case["gpus"], "design_id": case["design_id"]}
    if case.get("gpu_id"):
        data["gpu_id"] = case["gpu_id"]
    the_plan = plan(scenario=scenario_from_data(data, source=str(case["id"])), catalog=catalog)
    base = baseline(plan=the_plan, catalog=catalog)
    known: Mapping[str, float] = case["known"]
    texts: Sequence[str] = [
        synthetic_run(
            base,
            values=known,
            collective=collective,
            hosts=[f"host-{i}" for i in range(hosts)],
            gpus_per_host=case["gpus_per_host"],
            noise_fraction=case["noise_fraction"],
            seed=seed * 1000 + index,
        )
        for index, (collective, host_counts) in enumerate(case["runs"].items())
        for hosts in host_counts
    ]
    runs = parse_nccl_tests(read_lines("".join(texts).encode("utf-8"), name=f"{case['id']}.txt"))
    fitted = calibrate(plan=the_plan, catalog=catalog, runs=runs, files=())
    values = {c.name: c.fitted for c in fitted.coefficients}
    tolerance = float(case["tolerance"]["relative"])
    return [
        RoundTrip(case["id"], seed, name, float(known[name]), values[name], tolerance)
        for name in case["checked"]
    ]
