"""One-click scenarios for workshops (data, not code branches: each is a set of input values)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Preset:
    id: str
    label_key: str
    """i18n key of the button label."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """Inputs the preset sets; every other scenario input returns to its default."""


PRESETS: tuple[Preset, ...] = (
    Preset(
        id="rail8_1024",
        label_key="preset.rail8_1024",
        values={"gpus": 1024, "design": "rail8-npo", "gpu": None, "cooling": "direct_liquid"},
    ),
    Preset(
        id="rail4_256",
        label_key="preset.rail4_256",
        values={"gpus": 256, "design": "rail4-npo", "gpu": None, "cooling": "direct_liquid"},
    ),
    Preset(
        id="ib_1024",
        label_key="preset.ib_1024",
        values={"gpus": 1024, "design": "ib-ndr", "gpu": None, "cooling": "direct_liquid"},
    ),
)
BY_ID: dict[str, Preset] = {p.id: p for p in PRESETS}

PREFERENCES = ("lang", "currency")
"""Inputs a preset leaves alone: they are the user's, not the scenario's."""
