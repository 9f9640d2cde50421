"""Scenario JSON export and import: a file that reopens exactly the same scenario.

The file is :func:`planner.inputs.scenario.scenario_to_json` (every field, defaults included, so a
later change of a default does not change what a saved file means); the same file is accepted
by ``planner plan --scenario FILE`` and by the web app's upload.
"""

from __future__ import annotations

from planner.errors import InputError
from planner.files import parse_text
from planner.i18n.message import msg
from planner.inputs.scenario import Scenario, scenario_from_data, scenario_to_json

MAX_SCENARIO_BYTES = 1_000_000
"""Largest scenario file accepted [bytes]; real ones are about 2 kB."""


def export_scenario_json(scenario: Scenario) -> bytes:
    """UTF-8 JSON of ``scenario`` that :func:`import_scenario_json` reads back unchanged."""
    return (scenario_to_json(scenario) + "\n").encode("utf-8")


def import_scenario_json(data: bytes | str, *, source: str = "scenario JSON") -> Scenario:
    """The scenario in a JSON file (strict JSON, read by :func:`planner.files.parse_text`);
    :class:`InputError` names what is wrong."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_SCENARIO_BYTES:
        raise InputError(
            msg(
                "{source}: larger than {limit:,} bytes; not a scenario export",
                source=source,
                limit=MAX_SCENARIO_BYTES,
            )
        )
    parsed = parse_text(raw, name=source, error=InputError, syntax="json")
    if not isinstance(parsed, dict):
        raise InputError(
            msg(
                "{source}: expected a JSON object (a scenario export), got a {type}",
                source=source,
                type=type(parsed).__name__,
            )
        )
    return scenario_from_data(parsed, source=source)
