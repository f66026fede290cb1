"""Hostile run specs: numbers the engine or the columns cannot hold, names that make no
reachable run id, plans too large to make; in-process and over real HTTP (uvicorn on
loopback, in-process executor)."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import httpx
import pytest

from pokerarena.platform.api import create_app
from pokerarena.platform.api.app import RUN_ID
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.platform.planner import plan
from pokerarena.platform.spec import (
    MAX_UNITS,
    NAME_PATTERN,
    OPTION_MAX,
    RUN_ID_PATTERN,
    SpecError,
    load_spec,
    parse_spec,
    run_id_problem,
)
from pokerarena.platform.storage import RunStore, new_run_id

TOKEN = "test-token-hostile"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
TERMINAL = ("finished", "cancelled", "failed", "interrupted")


def with_options(spec: dict, **options) -> dict:
    spec = json.loads(json.dumps(spec))
    spec["games"][0]["options"].update(options)
    return spec


# numbers ------------------------------------------------------------------------------

BAD_NUMBERS = [
    (with_options(small_spec(), blinds=[-1, -2]), "games[0].options.blinds[0]", "negative"),
    (with_options(small_spec(), antes=[0, -1]), "games[0].options.antes[1]", "negative"),
    (with_options(small_spec(), ante=-5), "games[0].options.ante", "negative"),
    (with_options(small_spec(), blinds=[1, 2**40]), "games[0].options.blinds[1]",
     str(OPTION_MAX)),
    (with_options(small_spec(), max_raises=2**70), "games[0].options.max_raises",
     str(OPTION_MAX)),
    ({**small_spec(), "stack": 2**70}, "stack", "less than or equal"),
    ({**small_spec(), "limits": {"max_faults": 2**70}}, "limits.max_faults",
     "less than or equal"),
    ({**small_spec(), "limits": {"unit_seconds": 1e300}}, "limits.unit_seconds",
     "less than or equal"),
]


@pytest.mark.parametrize(("data", "field", "words"), BAD_NUMBERS,
                         ids=[f for _, f, _ in BAD_NUMBERS])
def test_numbers_out_of_range_name_the_field(data, field, words):
    with pytest.raises(SpecError) as info:
        parse_spec(data)
    message = str(info.value)
    assert message.startswith(f"{field}:"), message
    assert words in message and "\n" not in message


def test_sweep_values_are_checked_too():
    data = small_spec()
    data["kind"] = "simulation"
    data["games"][0]["sweep"] = {"blinds": [[1, 2], [1, -2]]}
    with pytest.raises(SpecError, match=r"^games\[0\]\.sweep\.blinds\[1\]\[1\]: -2 is negative"):
        parse_spec(data)


@pytest.mark.parametrize(("where", "value", "text"), [
    ("limits.unit_seconds", float("inf"), "Infinity"),
    ("limits.decision_seconds", float("nan"), "NaN"),
    ("games[0].options.rake_percent", float("-inf"), "-Infinity"),
])
def test_non_finite_floats_are_refused_anywhere(where, value, text):
    data = small_spec()
    if where.startswith("limits"):
        data["limits"] = {where.split(".")[1]: value}
    else:
        data["games"][0]["options"]["rake_percent"] = value
    with pytest.raises(SpecError) as info:
        parse_spec(data)
    assert str(info.value) == f"{where}: {text} is not a finite number"


def test_numbers_at_the_limits_are_accepted():
    spec = parse_spec(with_options(small_spec(), blinds=[1, 2], ante=0, max_raises=OPTION_MAX))
    assert spec.games[0].options["max_raises"] == OPTION_MAX


def test_deeply_nested_data_is_refused_without_recursion(tmp_path: Path):
    data = small_spec()
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    data["games"][0]["options"]["blinds"] = deep
    with pytest.raises(SpecError, match=r"nested more than 32 levels deep"):
        parse_spec(data)
    for suffix, text in ((".json", "[" * 5000 + "]" * 5000),
                         (".toml", "a = " + "[" * 5000 + "]" * 5000)):
        path = tmp_path / f"deep{suffix}"
        path.write_text(text)
        with pytest.raises(SpecError, match="nested too deeply"):
            load_spec(path)
    binary = tmp_path / "spec.toml"
    binary.write_bytes(b"\xff\xfe\x00kind")
    with pytest.raises(SpecError, match=r"not UTF-8 text \(byte 0\)"):
        load_spec(binary)


# plan size ----------------------------------------------------------------------------


def test_plans_over_the_bound_are_refused_from_counts():
    with pytest.raises(SpecError) as info:
        parse_spec(small_spec(hands=10**6, unit_hands=1))
    message = str(info.value)
    assert message.startswith("unit_hands:") and "at least 10" in message
    with pytest.raises(SpecError, match=r"^unit_hands: .* at least 10,000$"):
        parse_spec(small_spec(hands=10**9, unit_hands=1000))
    data = small_spec(hands=10, unit_hands=10)
    data["kind"] = "simulation"
    data["games"][0]["sweep"] = {"ante": list(range(40)), "max_raises": list(range(40))}
    with pytest.raises(SpecError, match=r"^games: .*1,600 games; a run plays at most 1,000"):
        parse_spec(data)


def test_plan_size_counts_what_the_planner_makes():
    for path in sorted(Path(__file__).parents[2].glob("examples/*.toml")):
        spec = load_spec(path)
        units = plan(spec).units
        # a Swiss run plans its first round; each later round has as many matches
        rounds = spec.rounds if spec.format == "swiss" else 1
        assert spec.plan_size()[1:] == (rounds * len(units),
                                        rounds * sum(u.hands for u in units))
    spec = parse_spec(small_spec(hands=MAX_UNITS, unit_hands=1))  # the most allowed
    units = plan(spec).units
    assert len(units) == MAX_UNITS and units[-1].unit_id == "m00000s99999"
    assert units[0].options is units[1].options  # one dict per match, not per unit
    assert units[0].to_dict()["options"] is not units[0].options


# names and ids ------------------------------------------------------------------------


@pytest.mark.parametrize("name", [".hidden", "..", "-x", ".", "-", "a/b", "a b"])
def test_names_that_make_no_reachable_id_are_refused(name):
    with pytest.raises(SpecError, match=r"^name: "):
        parse_spec(small_spec(name=name))


@pytest.mark.parametrize("name", ["", "a", "_x", "x.y", "a-", "9", "a..b", "Z" * 64])
def test_every_id_made_from_a_name_is_reachable(name, tmp_path):
    spec = parse_spec(small_spec(name=name))
    run_id = new_run_id(spec)
    assert re.fullmatch(RUN_ID, run_id), run_id
    assert run_id_problem(run_id) is None
    RunStore(tmp_path, run_id)  # storage takes it too


def test_one_rule_for_run_ids():
    assert RUN_ID_PATTERN == RUN_ID  # the API's path pattern is the spec's rule
    assert re.fullmatch(NAME_PATTERN, "-x") is None and re.fullmatch(NAME_PATTERN, ".a") is None
    assert run_id_problem("-x") and run_id_problem("..") and run_id_problem("")


# over HTTP ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    data = tmp_path_factory.mktemp("api-hostile")
    app = create_app(data, token=TOKEN, web_dir=None)
    # No keep-alive: a test thread kept from the GIL a while (a run's thread building the
    # evaluator's tables) must not send on a connection uvicorn has meanwhile closed.
    limits = httpx.Limits(max_keepalive_connections=0)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=60,
                                                limits=limits) as client:
        yield client, data


def _ended(client: httpx.Client, run_id: str) -> dict | None:
    run = client.get(f"/api/runs/{run_id}").json()
    return run if run["status"] in TERMINAL else None


def _post(client: httpx.Client, spec: dict) -> httpx.Response:
    return client.post("/api/runs", json=spec, headers=AUTH)


def test_http_refuses_a_plan_too_large_with_422(service):
    client, _ = service
    r = _post(client, small_spec(hands=10**6, unit_hands=1, name="huge"))
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("unit_hands:")
    assert all(x["run_id"].split("-")[0] != "huge" for x in client.get("/api/runs").json())


@pytest.mark.parametrize(("data", "field", "words"), BAD_NUMBERS,
                         ids=[f for _, f, _ in BAD_NUMBERS])
def test_http_refuses_bad_numbers_naming_the_field(service, data, field, words):
    client, _ = service
    r = _post(client, data)
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith(f"{field}:"), r.text


def test_http_refuses_infinity_and_nan(service):
    client, data_dir = service
    before = set((data_dir / "runs").glob("*")) if (data_dir / "runs").exists() else set()
    for literal, text in (("Infinity", "Infinity"), ("NaN", "NaN"), ("-Infinity", "-Infinity")):
        body = json.dumps(small_spec(name="inf")).replace(
            '"unit_hands": 50', f'"unit_hands": 50, "limits": {{"unit_seconds": {literal}}}')
        r = client.post("/api/runs", content=body,
                        headers={**AUTH, "Content-Type": "application/json"})
        assert r.status_code == 422, r.text
        assert r.json()["error"] == f"limits.unit_seconds: {text} is not a finite number"
    after = set((data_dir / "runs").glob("*")) if (data_dir / "runs").exists() else set()
    assert after == before  # no spec.json was written


@pytest.mark.parametrize("name", [".hidden", "..", "-x"])
def test_http_names_give_422_not_500(service, name):
    client, _ = service
    r = _post(client, small_spec(name=name))
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("name:")


def test_http_every_created_id_can_be_fetched_and_cancelled(service):
    client, _ = service
    for name in ("a", "_x", "x.y", "a-", "9", "Z" * 64, ""):
        r = _post(client, small_spec(hands=10**6, unit_hands=100, name=name))
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        assert re.fullmatch(RUN_ID, run_id)
        assert client.get(f"/api/runs/{run_id}").status_code == 200
        c = client.post(f"/api/runs/{run_id}/cancel", headers=AUTH)
        assert c.status_code in (202, 409), c.text
        run = wait_for(lambda rid=run_id: _ended(client, rid), 120, what="run ended")
        assert run["status"] in ("cancelled", "finished")


def test_http_lists_runs_while_a_run_is_being_planned(service, monkeypatch):
    """Planning happens in the run's thread: with the planner held back, the submit has
    already answered, and listing, fetching and cancelling the run all answer."""
    import pokerarena.platform.stages as driver_module  # where the run is planned

    client, _ = service
    release = threading.Event()
    entered = threading.Event()
    real_plan = driver_module.plan

    def held_plan(*args, **kwargs):
        entered.set()
        release.wait(120)
        return real_plan(*args, **kwargs)

    monkeypatch.setattr(driver_module, "plan", held_plan)
    try:
        r = _post(client, small_spec(hands=MAX_UNITS, unit_hands=1, name="planning"))
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        assert entered.wait(60)
        listed = {x["run_id"]: x for x in client.get("/api/runs").json()}
        assert listed[run_id]["status"] == "running" and listed[run_id]["planning"] is True
        assert listed[run_id]["units_total"] == MAX_UNITS
        run = client.get(f"/api/runs/{run_id}").json()
        assert run["planning"] is True and run["hands_total"] == MAX_UNITS
        c = client.post(f"/api/runs/{run_id}/cancel", headers=AUTH)
        assert c.status_code == 202 and c.json()["status"] == "cancelling"
        assert client.get(f"/api/runs/{run_id}").json()["status"] == "cancelling"
    finally:
        release.set()
    run = wait_for(lambda: _ended(client, run_id), 120, what="run cancelled")
    assert run["status"] == "cancelled" and run["units_done"] == 0


def test_http_a_large_allowed_plan_is_accepted_and_listed(service):
    client, _ = service
    r = _post(client, small_spec(hands=MAX_UNITS, unit_hands=1, name="large"))
    assert r.status_code == 201, r.text
    run_id = r.json()["run_id"]
    assert r.json()["units_total"] == MAX_UNITS
    listed = client.get("/api/runs")
    assert listed.status_code == 200 and run_id in {x["run_id"] for x in listed.json()}
    assert client.post(f"/api/runs/{run_id}/cancel", headers=AUTH).status_code in (202, 409)
    run = wait_for(lambda: _ended(client, run_id), 120, what="run cancelled")
    assert run["status"] == "cancelled"
