"""The tenant set travels with the scenario: the model, JSON/YAML files, the store (SQLite and
PostgreSQL through ``store_fixtures``), the store's export/import, and old saves without it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from store_fixtures import saved_without

from planner.errors import InputError
from planner.inputs.scenario import Scenario, Tenant, load_scenario, scenario_from_data, scenario_to_json
from planner.store import ScenarioStore
from planner.tenancy import tenants as tenancy_tenants
from planner.tenancy.tenants import tenants_from_data

pytest_plugins = ["store_fixtures"]

TENANTS = [
    {"name": "foundation", "gpus": 512, "isolation": "plane", "bandwidth_gbit_per_s_per_gpu": 400.0},
    {"name": "finetune", "gpus": 256, "isolation": "leaf", "storage_gbyte_per_s": 50.0},
    {"name": "研究组", "gpus": 128, "isolation": "shared"},
]


def with_tenants() -> Scenario:
    return scenario_from_data({"name": "shared supernode", "gpus": 1024, "tenants": TENANTS})


def test_the_tenant_file_and_the_scenario_share_one_model() -> None:
    assert tenancy_tenants.Tenant is Tenant
    from_file = tenants_from_data(TENANTS)
    assert from_file.tenants == with_tenants().tenants


def test_a_scenario_without_tenants_has_an_empty_set() -> None:
    assert Scenario().tenants == ()
    assert scenario_from_data({"gpus": 64}).tenants == ()


def test_tenants_round_trip_through_json_and_yaml(tmp_path: Path) -> None:
    original = with_tenants()
    assert scenario_from_data(json.loads(scenario_to_json(original))) == original
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(original.model_dump(mode="json"), allow_unicode=True), encoding="utf-8")
    assert load_scenario(path) == original
    assert [t.name for t in load_scenario(path).tenants] == ["foundation", "finetune", "研究组"]


@pytest.mark.parametrize(
    ("tenants", "needle"),
    [
        ([TENANTS[0], TENANTS[0]], "tenants: Value error, duplicate name 'foundation' (tenant 1)"),
        ([{"name": "a", "gpus": 8, "isolation": "rack"}], "tenants.0.isolation"),
        (
            [{"name": "a", "gpus": 8, "bandwidth_gbit_per_s_per_gpu": -1}],
            "tenants.0.bandwidth_gbit_per_s_per_gpu",
        ),
        ([{"name": "a", "gpus": 8, "colour": "red"}], "tenants.0.colour"),
    ],
)
def test_bad_tenants_in_a_scenario_name_the_field(tenants: list[dict[str, object]], needle: str) -> None:
    with pytest.raises(InputError) as caught:
        scenario_from_data({"gpus": 64, "tenants": tenants})
    assert needle in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_store_keeps_the_tenant_set(store: ScenarioStore) -> None:
    saved = store.create(name="Tenants", scenario=with_tenants())
    loaded = store.load(scenario_id=saved.id)
    assert loaded.scenario.tenants == with_tenants().tenants
    again = store.save(
        scenario_id=saved.id,
        scenario=loaded.scenario.with_updates(tenants=TENANTS[:1]),
        expected_version=1,
    )
    assert [t.name for t in store.load(scenario_id=saved.id).scenario.tenants] == ["foundation"]
    assert again.version.version == 2
    assert store.load(scenario_id=saved.id, version=1).scenario.tenants == with_tenants().tenants


def test_export_and_import_keep_the_tenant_set(store: ScenarioStore) -> None:
    saved = store.create(name="Tenants", scenario=with_tenants())
    imported = store.import_json(text=store.export_json(scenario_id=saved.id))
    assert imported.scenario.tenants == with_tenants().tenants


def test_a_scenario_saved_before_tenants_existed_still_opens(store: ScenarioStore) -> None:
    scenario_id, old_json = saved_without(store, "tenants")
    loaded = store.load(scenario_id=scenario_id)
    assert (loaded.scenario.gpus, loaded.scenario.tenants) == (256, ())
    assert store.import_json(text=json.dumps(old_json)).scenario.tenants == ()
