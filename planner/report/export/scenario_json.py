"""Scenario JSON export and import: a file that reopens exactly the same scenario.

The file is :func:`planner.scenario.scenario_to_json` (every field, defaults included, so a
later change of a default does not change what a saved file means); the same file is accepted
by ``planner plan --scenario FILE`` and by the web app's upload.
"""

from __future__ import annotations

import json

from planner.errors import InputError
from planner.scenario import Scenario, scenario_from_data, scenario_to_json

MAX_SCENARIO_BYTES = 1_000_000
"""Largest scenario file accepted [bytes]; real ones are about 2 kB."""


def export_scenario_json(scenario: Scenario) -> bytes:
    """UTF-8 JSON of ``scenario`` that :func:`import_scenario_json` reads back unchanged."""
    return (scenario_to_json(scenario) + "\n").encode("utf-8")


def import_scenario_json(data: bytes | str, *, source: str = "scenario JSON") -> Scenario:
    """The scenario in a JSON file; :class:`InputError` names what is wrong."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > MAX_SCENARIO_BYTES:
        raise InputError(f"{source}: larger than {MAX_SCENARIO_BYTES:,} bytes ({len(raw):,})")
    try:
        parsed = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InputError(f"{source}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(parsed, dict):
        raise InputError(f"{source}: a scenario must be a JSON object of fields")
    return scenario_from_data(parsed, source=source)
