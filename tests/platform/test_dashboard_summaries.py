"""The dashboard's answers read from page summaries (issue 31, "Live, and light"): the
same JSON as the answers computed from every hand, on small real runs; a unit that lands
after a summary was written changes the answer; the sequential view reads only the
units landed since its last answer."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pokerarena.platform import page_summaries as ps
from pokerarena.platform import sequential_view
from pokerarena.platform.api import create_app
from pokerarena.platform.api.testing import played
from pokerarena.platform.storage import RunStore

MATCH = {"kind": "match", "name": "three", "seed": 5, "bots": ["random", "call", "tag"],
         "hands": 300, "unit_hands": 100,
         "games": [{"variant": "holdem", "betting": "no_limit",
                    "options": {"blinds": [1, 2]}}]}
TOURNAMENT = {"kind": "tournament", "name": "seq", "seed": 3, "seats": 2,
              "bots": ["tag", "call", "random"], "hands": 1200, "unit_hands": 200,
              "duplicate": True, "stop": {"h0": 0, "h1": 100},
              "games": [{"variant": "holdem", "betting": "fixed_limit"}]}
PAGE = ["/leaderboard", "/charts", "/games", "/hands?order=pot&limit=10",
        "/hands?order=loss&limit=10", "/hands?order=win&limit=10&offset=5",
        "/hands?order=luck&limit=10", "/hands?order=loss&limit=5&bot=call",
        "/sequential", "/standings"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    data = tmp_path_factory.mktemp("summaries")
    match = played(data, MATCH, run_id="match").run_id
    tour = played(data, TOURNAMENT, run_id="tour").run_id
    study = tomllib.loads((Path(__file__).parents[2] / "examples/studies/deuces_wild.toml"
                           ).read_text())
    study.update(hands=400, unit_hands=200, name="study")
    played(data, study, run_id="study")
    app = create_app(data, token="t", resume=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield data, client, match, tour


def _answers(client, run_id, monkeypatch, on: bool) -> dict[str, str]:
    if on:
        monkeypatch.delenv(ps.SWITCH, raising=False)
    else:
        monkeypatch.setenv(ps.SWITCH, "off")
    out = {}
    for path in PAGE:
        r = client.get(f"/api/runs/{run_id}{path}")
        assert r.status_code == 200, (path, r.text)
        out[path] = r.json()
    return out


def _forget(data, run_id):
    shutil.rmtree(data / "runs" / run_id / ps.SUMMARY_DIR, ignore_errors=True)
    (data / "runs" / run_id / "standings" / "summary.json").unlink(missing_ok=True)


@pytest.mark.parametrize("which", ["match", "tour"])
def test_summaries_answer_as_every_hand(runs, monkeypatch, which):
    """From every hand (summaries off), computed on the first request and stored, read
    back from the stored files, and written at the run's end by ``write_all``: the
    same JSON, every route of the page."""
    data, client, match, tour = runs
    run_id = match if which == "match" else tour
    _forget(data, run_id)
    every = _answers(client, run_id, monkeypatch, on=False)
    assert not (data / "runs" / run_id / ps.SUMMARY_DIR).exists()
    first = _answers(client, run_id, monkeypatch, on=True)
    store = RunStore(data, run_id)
    key = ps.rows_key(store)
    stored = {n: ps.read(store, n, key) for n in ("leaderboard", "charts", "games",
                                                   ps.hands_name("pot", None, None))}
    assert all(v is not None for v in stored.values())
    assert stored["leaderboard"]["leaderboard"] == every["/leaderboard"]["leaderboard"]
    again = _answers(client, run_id, monkeypatch, on=True)
    _forget(data, run_id)
    written = ps.write_all(data, run_id)
    assert "leaderboard" in written and ps.hands_name("luck", None, None) in written
    at_end = _answers(client, run_id, monkeypatch, on=True)
    assert first == every and again == every and at_end == every
    assert every["/leaderboard"]["cross_table"] and every["/hands?order=pot&limit=10"]["hands"]
    if which == "tour":
        assert every["/sequential"]["tests"]
        assert ps.read(store, "sequential", sequential_view._summary_key(
            store, list(store.events()))) == every["/sequential"]


def _land_a_unit(data, run_id: str) -> str:
    """A unit that lands after the summaries: a landed unit's tables written again as
    a new unit with its own match number (as ``bench storage`` synthesises them)."""
    from pokerarena.bench.storage_bench import _with
    from pokerarena.workers import parts

    store = RunStore(data, run_id)
    first = sorted(store.info().done_ids)[0]
    new = "m00099s00000"
    for table in sorted(p.name for p in store.run_dir.iterdir()
                        if (p / f"unit={first}").is_dir()):
        t = parts.read_part(store.run_dir, table, first)
        parts.write_part(_with(t, "match", 99), store.run_dir, table, new)
    store.append({"event": "unit", "unit": new, "hands": 100, "attempt": 1})
    return new


def test_a_unit_landing_later_changes_the_answer(runs, monkeypatch):
    """Summaries stored, then a unit lands (a resumed run): every answer is the one
    from every hand again, and the leaderboard's hands grew by the unit's."""
    data, client, match, _ = runs
    before = _answers(client, match, monkeypatch, on=True)
    _land_a_unit(data, match)
    after = _answers(client, match, monkeypatch, on=True)
    every = _answers(client, match, monkeypatch, on=False)
    assert after == every
    hands = {r["bot"]: r["hands"] for r in before["/leaderboard"]["leaderboard"]}
    assert {r["bot"]: r["hands"] for r in after["/leaderboard"]["leaderboard"]} == {
        b: n + 100 for b, n in hands.items()}
    assert after["/games"] != before["/games"]


def test_sequential_reads_only_new_units(runs, monkeypatch):
    """A poll reads the units landed since the last one only (none here: the same
    answer again without a unit read), and a fresh process's first answer equals it."""
    data, _client, _, tour = runs
    monkeypatch.delenv(ps.SWITCH, raising=False)
    store = RunStore(data, tour)
    sequential_view.UNIT_RESULTS = sequential_view.UnitResults()
    first = sequential_view.compute_tests(store)
    read = sequential_view.UNIT_RESULTS.reads
    fed = sum(t["shards"] for t in first["tests"])
    assert read == fed > 0
    again = sequential_view.compute_tests(store)
    assert sequential_view.UNIT_RESULTS.reads == read and again == first
    monkeypatch.setenv(ps.SWITCH, "off")
    assert sequential_view.compute_tests(store) == first


def test_the_study_answer_is_kept(runs, monkeypatch):
    """A study's page answer: from every hand, computed and kept, then read back: the
    same JSON; the kept file is the answer."""
    data, client, _, _ = runs
    _forget(data, "study")
    monkeypatch.setenv(ps.SWITCH, "off")
    every = client.get("/api/runs/study/study").json()
    monkeypatch.delenv(ps.SWITCH)
    first = client.get("/api/runs/study/study").json()
    store = RunStore(data, "study")
    assert ps.read(store, "study", ps.rows_key(store)) == every
    assert client.get("/api/runs/study/study").json() == first == every
    assert every["questions"]
