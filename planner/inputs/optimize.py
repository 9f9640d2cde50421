"""What an optimization asks for: the objective and the limits (the scenario gives everything else).

Each field is the one declaration of its input: the ``planner optimize`` options and the Optimize
page's form are generated from it (:mod:`planner.inputs`); the solver is :mod:`planner.optimize`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from planner.errors import InputError
from planner.i18n.message import msg
from planner.inputs import Input, offered, parse
from planner.inputs.scenario import MAX_GPUS

Objective = Literal["capex", "tco", "max-gpus"]
OBJECTIVE_KEYS: dict[Objective, str] = {
    "capex": "opt.objective.capex",
    "tco": "opt.objective.tco",
    "max-gpus": "opt.objective.max_gpus",
}
"""UI label key of each objective."""
_OBJECTIVE = "opt.group.objective"
_LIMITS = "opt.group.limits"
_CHOICES = "opt.group.choices"
_NO_LIMIT: dict[str, Any] = {"number_format": "%.0f", "placeholder": "opt.placeholder.no_limit"}


def _choice(label: str, description: str) -> Any:
    """A part of the design the optimizer may choose (on by default; a check box of the form)."""
    return offered(Field(default=True, description=description), Input(label=label, group=_CHOICES))


class OptimizeRequest(BaseModel):
    """Objective and limits of one optimization (the scenario gives everything else)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    objective: Annotated[
        Objective,
        Input(
            flag="--objective",
            label="opt.field.objective",
            group=_OBJECTIVE,
            choices=OBJECTIVE_KEYS,
            widget="radio",
        ),
    ] = Field(
        default="capex",
        description="What to optimize: capex or tco (the cheapest), max-gpus (the most GPUs within the limits).",
    )
    max_gpus: Annotated[
        int, Input(flag="--max-gpus", label="opt.field.max_gpus", group=_OBJECTIVE, step=64)
    ] = Field(default=16384, ge=1, le=MAX_GPUS, description="Upper bound of the max-gpus search [count].")
    budget_usd: Annotated[
        float | None,
        Input(flag="--budget-usd", label="opt.field.budget_usd", group=_LIMITS, step=1e6, **_NO_LIMIT),
    ] = Field(default=None, gt=0, le=1e12, description="CAPEX ceiling [USD].")
    power_cap_kw: Annotated[
        float | None,
        Input(flag="--power-cap-kw", label="opt.field.power_cap_kw", group=_LIMITS, step=100.0, **_NO_LIMIT),
    ] = Field(default=None, gt=0, le=1e7, description="Facility power ceiling [kW] (IT x PUE).")
    rack_kw: Annotated[
        float | None,
        Input(
            label="opt.field.rack_kw",
            group=_LIMITS,
            step=5.0,
            number_format="%.0f",
            placeholder="opt.placeholder.rack_kw",
        ),
    ] = Field(default=None, ge=5, le=300, description="Rack power limit [kW]; empty = the scenario's.")
    choose_switches: bool = _choice("opt.field.choose_switches", "Pick switch models per tier.")
    choose_media: bool = _choice("opt.field.choose_media", "Pick copper/optics per link class.")
    choose_cooling: bool = _choice("opt.field.choose_cooling", "Pick the cooling method.")
    time_limit_s: float = Field(default=60, gt=0, le=3600, description="Solver time limit [s].")


def request_from_data(data: dict[str, object]) -> OptimizeRequest:
    """Validate optimizer options; :class:`InputError` names the field and the range.

    Parameters
    ----------
    data : dict of str to object
        The optimizer options.

    Returns
    -------
    OptimizeRequest
        The validated request.

    Raises
    ------
    InputError
        A field is out of range, or ``max-gpus`` has neither a budget nor a power cap.
    """
    request = parse(OptimizeRequest, data)
    if request.objective == "max-gpus" and request.budget_usd is None and request.power_cap_kw is None:
        raise InputError(msg("objective: max-gpus needs budget_usd or power_cap_kw (or both)"))
    return request
