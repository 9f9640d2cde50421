"""Floor inputs of the rack layout the hand-off draws (:mod:`planner.handoff.layout`): row length,
rows, rack and aisle sizes, cable slack. Each field is the one declaration of its input: the
``--row-length-m`` ... options of ``planner export`` and ``planner layout`` are generated from it.
A scenario carries its floor as ``Scenario.floor`` (:mod:`planner.inputs.scenario`).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from planner.inputs import Input, count_option


class LayoutParams(BaseModel):
    """Floor inputs of the layout (all lengths in metres)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    row_length_m: Annotated[float, Input(flag="--row-length-m")] = Field(
        default=12.0, gt=0, le=500, description="Longest row the room allows [m]."
    )
    max_rows: int | None = count_option("--max-rows", le=500, description="Rows the room holds; empty = any.")
    rack_width_m: Annotated[float, Input(flag="--rack-width-m")] = Field(
        default=0.6, ge=0.3, le=1.5, description="Rack width [m]."
    )
    rack_depth_m: float = Field(default=1.2, ge=0.6, le=2.0, description="Rack depth [m].")
    cold_aisle_m: float = Field(default=1.2, ge=0.6, le=5.0, description="Cold aisle width [m].")
    hot_aisle_m: float = Field(default=1.2, ge=0.6, le=5.0, description="Hot aisle width [m].")
    tray_height_m: float = Field(
        default=0.3, ge=0, le=3.0, description="Cable tray height above the rack top [m]."
    )
    slack_m: Annotated[float, Input(flag="--slack-m")] = Field(
        default=1.5, ge=0, le=20.0, description="Service loop per cable [m]."
    )
