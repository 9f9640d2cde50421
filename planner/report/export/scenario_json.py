"""Scenario JSON export and import: a file that reopens exactly the same scenario.

The file is :func:`planner.inputs.scenario.scenario_to_json` (every field, defaults included, so a
later change of a default does not change what a saved file means); the same file is accepted
by ``planner plan --scenario FILE`` and by the web app's upload.
"""

from __future__ import annotations

from planner.files import parse_scenario_export
from planner.inputs.scenario import Scenario, scenario_from_data, scenario_to_json

MAX_SCENARIO_BYTES = 1_000_000
"""Largest scenario file accepted [bytes]; real ones are about 2 kB."""


def export_scenario_json(scenario: Scenario) -> bytes:
    """UTF-8 JSON of ``scenario`` that :func:`import_scenario_json` reads back unchanged.

    Parameters
    ----------
    scenario : Scenario
        The scenario.

    Returns
    -------
    bytes
        JSON text, UTF-8, ending with a newline.
    """
    return (scenario_to_json(scenario) + "\n").encode("utf-8")


def import_scenario_json(data: bytes | str, *, source: str = "scenario JSON") -> Scenario:
    """The scenario in a JSON file (strict JSON, read by :func:`planner.files.parse_scenario_export`);
    :class:`InputError` names what is wrong.

    Parameters
    ----------
    data : bytes or str
        The file, at most ``MAX_SCENARIO_BYTES`` [bytes].
    source : str
        Name of the input in error messages.

    Returns
    -------
    Scenario
        The validated scenario.
    """
    parsed = parse_scenario_export(data, source=source, limit_bytes=MAX_SCENARIO_BYTES)
    return scenario_from_data(parsed, source=source)
