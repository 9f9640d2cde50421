"""What the reliability estimate needs beyond the plan: the checkpoint, restart and failure settings.

See ``docs/model.md`` (Reliability) for what each field does to the estimate; the model that uses
them is :mod:`planner.performance.reliability`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.i18n.message import msg
from planner.inputs import Input, parse

_CHECKPOINT = "rel.group.checkpoint"
_STORAGE = "rel.group.storage"
_FAILURES = "rel.group.failures"


class ReliabilityParams(BaseModel):
    """What the reliability estimate needs beyond the plan."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    params_b: Annotated[
        float | None,
        Input(
            flag="--params-b",
            label="rel.field.params_b",
            group=_CHECKPOINT,
            form_default=70.0,
            step=1.0,
            number_format="%.1f",
            placeholder="rel.placeholder.params_b",
        ),
    ] = Field(
        default=None, gt=0, le=100_000, description="Model parameters [billions]; sizes the checkpoint."
    )
    checkpoint_gbyte: Annotated[
        float | None,
        Input(
            flag="--checkpoint-gbyte",
            label="rel.field.checkpoint_gbyte",
            group=_CHECKPOINT,
            step=100.0,
            number_format="%.0f",
            placeholder="rel.placeholder.checkpoint_gbyte",
        ),
    ] = Field(default=None, gt=0, le=10_000_000, description="Checkpoint size [GB]; overrides params_b.")
    checkpoint_bytes_per_param: Annotated[
        float | None,
        Input(
            flag="--checkpoint-bytes-per-param",
            label="rel.field.bytes_per_param",
            group=_CHECKPOINT,
            catalog_rule="checkpoint_bytes_per_param",
            step=1.0,
            number_format="%.1f",
        ),
    ] = Field(
        default=None,
        ge=1,
        le=64,
        description="Checkpoint bytes per parameter [B]; empty = the catalog's checkpoint_bytes_per_param.",
    )
    write_bandwidth_gbyte_per_s: Annotated[
        float | None,
        Input(
            flag="--write-gbyte-per-s",
            label="rel.field.write_bandwidth",
            group=_STORAGE,
            step=10.0,
            number_format="%.0f",
            placeholder="rel.placeholder.write_bandwidth",
        ),
    ] = Field(
        default=None,
        gt=0,
        le=1_000_000,
        description="Checkpoint write bandwidth [GB/s]; empty = the plan's storage.",
    )
    restart_min: Annotated[
        float | None,
        Input(
            flag="--restart-min",
            label="rel.field.restart_min",
            group=_STORAGE,
            catalog_rule="checkpoint_restart_min",
            step=1.0,
            number_format="%.1f",
        ),
    ] = Field(
        default=None,
        ge=0,
        le=1440,
        description="Restart time without the checkpoint read [min]; empty = the catalog's checkpoint_restart_min.",
    )
    checkpoint_interval_min: Annotated[
        float | None,
        Input(
            flag="--interval-min",
            label="rel.field.interval_min",
            group=_STORAGE,
            step=5.0,
            number_format="%.1f",
            placeholder="rel.placeholder.interval_min",
        ),
    ] = Field(
        default=None, gt=0, le=100_000, description="Evaluate at this interval [min]; empty = the optimum."
    )
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
    """Validate a mapping; :class:`~planner.errors.InputError` names the field and its range."""
    return parse(ReliabilityParams, data, source=source)
