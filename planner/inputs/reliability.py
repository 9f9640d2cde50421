"""What the reliability estimate needs beyond the plan: the checkpoint, restart and failure settings.

See ``docs/model.md`` (Reliability) for what each field does to the estimate; the model that uses
them is :mod:`planner.performance.reliability`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.i18n.message import msg
from planner.inputs import Input, offered, parse

_CHECKPOINT = "rel.group.checkpoint"
_STORAGE = "rel.group.storage"
_FAILURES = "rel.group.failures"


def _optional_amount(
    flag: str,
    label: str,
    group: str,
    step: float,
    number_format: str,
    *,
    le: float,
    description: str,
    gt: float | None = None,
    ge: float | None = None,
    placeholder: str | None = None,
    catalog_rule: str | None = None,
    form_default: float | None = None,
) -> Any:
    """An optional positive amount of the estimate (empty: derived, or the catalog's
    ``catalog_rule``), offered as a command-line option and a number input of the form."""
    bounds = {"gt": gt} if gt is not None else {"ge": ge}
    spec = Input(flag=flag, label=label, group=group, catalog_rule=catalog_rule, form_default=form_default,
                 step=step, number_format=number_format, placeholder=placeholder)  # fmt: skip
    return offered(Field(default=None, le=le, description=description, **bounds), spec)


class ReliabilityParams(BaseModel):
    """What the reliability estimate needs beyond the plan."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    params_b: float | None = _optional_amount(
        "--params-b", "rel.field.params_b", _CHECKPOINT, 1.0, "%.1f",
        gt=0, le=100_000, description="Model parameters [billions]; sizes the checkpoint.",
        placeholder="rel.placeholder.params_b", form_default=70.0,
    )  # fmt: skip
    checkpoint_gbyte: float | None = _optional_amount(
        "--checkpoint-gbyte", "rel.field.checkpoint_gbyte", _CHECKPOINT, 100.0, "%.0f",
        gt=0, le=10_000_000, description="Checkpoint size [GB]; overrides params_b.",
        placeholder="rel.placeholder.checkpoint_gbyte",
    )  # fmt: skip
    checkpoint_bytes_per_param: float | None = _optional_amount(
        "--checkpoint-bytes-per-param", "rel.field.bytes_per_param", _CHECKPOINT, 1.0, "%.1f",
        ge=1, le=64,
        description="Checkpoint bytes per parameter [B]; empty = the catalog's checkpoint_bytes_per_param.",
        catalog_rule="checkpoint_bytes_per_param",
    )  # fmt: skip
    write_bandwidth_gbyte_per_s: float | None = _optional_amount(
        "--write-gbyte-per-s", "rel.field.write_bandwidth", _STORAGE, 10.0, "%.0f",
        gt=0, le=1_000_000, description="Checkpoint write bandwidth [GB/s]; empty = the plan's storage.",
        placeholder="rel.placeholder.write_bandwidth",
    )  # fmt: skip
    restart_min: float | None = _optional_amount(
        "--restart-min", "rel.field.restart_min", _STORAGE, 1.0, "%.1f",
        ge=0, le=1440,
        description="Restart time without the checkpoint read [min]; empty = the catalog's checkpoint_restart_min.",
        catalog_rule="checkpoint_restart_min",
    )  # fmt: skip
    checkpoint_interval_min: float | None = _optional_amount(
        "--interval-min", "rel.field.interval_min", _STORAGE, 5.0, "%.1f",
        gt=0, le=100_000, description="Evaluate at this interval [min]; empty = the optimum.",
        placeholder="rel.placeholder.interval_min",
    )  # fmt: skip
    failure_rate_scale: Annotated[
        float,
        Input(
            flag="--failure-rate-scale",
            label="rel.field.failure_rate_scale",
            group=_FAILURES,
            step=0.1,
            number_format="%.2f",
        ),
    ] = Field(default=1.0, gt=0, le=100, description="Multiplier on every calibrated failure rate [-].")
    network_failover: Annotated[
        bool, Input(flag="--network-failover", label="rel.field.network_failover", group=_FAILURES)
    ] = Field(
        default=False,
        description="The job survives network failures that leave every GPU connected (other planes, rerouting).",
    )

    @model_validator(mode="after")
    def _size_given(self) -> ReliabilityParams:
        if self.params_b is None and self.checkpoint_gbyte is None:
            raise ValueError(msg("give params_b or checkpoint_gbyte"))
        return self


def reliability_params(data: Mapping[str, object], *, source: str = "reliability") -> ReliabilityParams:
    """Validate a mapping; :class:`~planner.errors.InputError` names the field and its range.

    Parameters
    ----------
    data : mapping of str to object
        The reliability inputs.
    source : str
        What the values came from, opening the message.

    Returns
    -------
    ReliabilityParams
        The validated parameters.
    """
    return parse(ReliabilityParams, data, source=source)
