"""Pure parts of the store (no database): location, field rules, share links, export documents, diffs."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner import Scenario
from planner.errors import InputError
from planner.store import ConflictError, parse_share_params, share_params, share_query
from planner.store.diff import flatten_scenario, input_changes
from planner.store.exchange import EXPORT_FORMAT, export_json, parse_document
from planner.store.fields import clean_name, clean_tags
from planner.store.location import default_db_path, display_url, normalize_url, resolve_database_url
from planner.store.records import SavedScenario, ScenarioSummary, VersionInfo

# -- where the database lives ---------------------------------------------------------------------


def test_default_path_follows_xdg_then_home(tmp_path: Path) -> None:
    assert (
        default_db_path(env={"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "gpu-cluster-planner/scenarios.db"
    )
    assert (
        default_db_path(env={"HOME": str(tmp_path)})
        == tmp_path / ".local/share/gpu-cluster-planner/scenarios.db"
    )
    assert default_db_path(env={"HOME": str(tmp_path), "XDG_DATA_HOME": " "}).parent.parent == (
        tmp_path / ".local/share"
    )


def test_url_precedence_argument_then_environment(tmp_path: Path) -> None:
    env = {"PLANNER_DATABASE_URL": "postgresql://team@db/plans", "PLANNER_DB_PATH": str(tmp_path / "env.db")}
    assert resolve_database_url(url="postgres://a@b/c", path=tmp_path / "arg.db", env=env) == (
        "postgresql+psycopg://a@b/c"
    )
    assert resolve_database_url(path=tmp_path / "arg.db", env=env).endswith("/arg.db")
    assert resolve_database_url(env=env) == "postgresql+psycopg://team@db/plans"
    assert resolve_database_url(env={"PLANNER_DB_PATH": str(tmp_path / "env.db")}).endswith("/env.db")
    assert resolve_database_url(env={"HOME": str(tmp_path)}).endswith(
        "/.local/share/gpu-cluster-planner/scenarios.db"
    )


@pytest.mark.parametrize("url", ["mysql://u@h/db", "oracle://x", "not a url at all"])
def test_unsupported_or_malformed_urls_are_rejected(url: str) -> None:
    with pytest.raises(InputError, match="database URL"):
        normalize_url(url)


def test_passwords_are_never_shown() -> None:
    assert "secret" not in display_url("postgresql+psycopg://u:secret@h/db")


# -- field rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["", "   ", "a\tb", "x" * 201])
def test_names_must_be_one_short_line(bad: str) -> None:
    with pytest.raises(InputError, match="name"):
        clean_name(bad)


def test_tags_are_normalised() -> None:
    assert clean_tags(["  Big   Deal ", "big deal", "客户"]) == ("big deal", "客户")


# -- share links ----------------------------------------------------------------------------------


def test_share_links_round_trip() -> None:
    assert parse_share_params(share_params(scenario_id=7, version=3)) == parse_share_params(
        {"scenario": ["7"], "version": ["3"]}
    )
    ref = parse_share_params({"scenario": "7"})
    assert ref is not None and (ref.scenario_id, ref.version) == (7, None)
    assert share_query(scenario_id=7, version=3) == "scenario=7&version=3"


@pytest.mark.parametrize("params", [{"scenario": "x"}, {"scenario": "0"}, {"scenario": "1", "version": "-2"}])
def test_bad_share_links_are_input_errors(params: dict[str, str]) -> None:
    with pytest.raises(InputError, match="share link"):
        parse_share_params(params)


# -- export documents -----------------------------------------------------------------------------


def _saved(scenario: Scenario, *, name: str = "n", tags: tuple[str, ...] = ()) -> SavedScenario:
    from datetime import UTC, datetime

    now = datetime(2025, 1, 1, tzinfo=UTC)
    record = ScenarioSummary(
        id=1,
        name=name,
        customer="c",
        notes="",
        tags=tags,
        version=1,
        gpus=scenario.gpus,
        design_id=scenario.design_id,
        created_at=now,
        updated_at=now,
        deleted_at=None,
    )
    version = VersionInfo(
        scenario_id=1,
        version=1,
        saved_at=now,
        author="",
        comment="",
        gpus=scenario.gpus,
        design_id=scenario.design_id,
    )
    return SavedScenario(record=record, version=version, scenario=scenario)


scenarios = st.builds(
    Scenario,
    name=st.text(max_size=40),
    gpus=st.integers(min_value=1, max_value=1_048_576),
    design_id=st.sampled_from(["rail4-npo", "rail8-npo", "ib-ndr"]),
    price_overrides_usd=st.dictionaries(
        st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True),
        st.floats(min_value=0, max_value=1e9, exclude_max=True, allow_nan=False),
        max_size=3,
    ),
)


@settings(max_examples=50, deadline=None)
@given(scenario=scenarios, tags=st.lists(st.sampled_from(["a", "b", "npo", "客户"]), max_size=3))
def test_export_documents_read_back_exactly(scenario: Scenario, tags: list[str]) -> None:
    document = parse_document(export_json(_saved(scenario, tags=tuple(sorted(set(tags))))), source="x")
    assert document.scenario == scenario
    assert document.tags == tuple(sorted(set(tags)))
    assert json.loads(export_json(_saved(scenario)))["format"] == EXPORT_FORMAT


# -- input diffs ----------------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(before=scenarios, after=scenarios)
def test_input_changes_are_exactly_the_differing_fields(before: Scenario, after: Scenario) -> None:
    changes = input_changes(before=before, after=after)
    assert (changes == ()) == (before == after)
    assert input_changes(before=before, after=before) == ()
    old, new = flatten_scenario(before), flatten_scenario(after)
    for change in changes:
        assert (old.get(change.field), new.get(change.field)) == (change.before, change.after)
    assert {c.field for c in changes} == {k for k in old.keys() | new.keys() if old.get(k) != new.get(k)}


def test_nested_and_fabric_changes_are_dotted_paths() -> None:
    before = Scenario(gpus=64)
    after = Scenario.model_validate(
        {
            "gpus": 64,
            "facility": {"link_lengths": {"node_leaf_m": 5.0}},
            "price_overrides_usd": {"br100": 1.0},
        }
    )
    assert [(c.field, c.before, c.after) for c in input_changes(before=before, after=after)] == [
        ("facility.link_lengths.node_leaf_m", 10.0, 5.0),
        ("price_overrides_usd.br100", None, 1.0),
    ]


def test_conflict_error_pickles_with_its_payload() -> None:
    error = ConflictError(scenario_id=3, expected_version=1, current_version=2, rejected=Scenario(gpus=8))
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.scenario_id, copy.current_version, copy.rejected, str(copy)) == (
        3,
        2,
        Scenario(gpus=8),
        str(error),
    )
