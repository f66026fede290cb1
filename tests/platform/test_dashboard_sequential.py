"""A tournament's sequential tests on the dashboard (issue 31): ``GET
/api/runs/{id}/sequential`` rebuilds each match's test from the landed units, and the
page draws each log-likelihood ratio between its bounds with the decision, in chromium."""

from __future__ import annotations

import json

import pytest

from pokerarena.platform.api.testing import served_runs, small_spec

SPEC = {"kind": "tournament", "name": "seq-page", "seed": 3, "seats": 2,
        "bots": ["tag", "call", "random"], "hands": 4000, "unit_hands": 200,
        "duplicate": True, "stop": {"h0": 0, "h1": 100},
        "games": [{"variant": "holdem", "betting": "fixed_limit"}]}


@pytest.fixture(scope="module")
def tested(ray_cluster, tmp_path_factory):
    data = tmp_path_factory.mktemp("sequential")
    with served_runs(data, [SPEC, small_spec(hands=40, unit_hands=40, name="untested")]
                     ) as (url, client, (run_id, untested)):
        yield url, client, run_id, untested, data / "runs" / run_id


def test_the_tests_are_the_drivers(tested):
    """Each match's decision and LLR are the ones the driver recorded in the manifest;
    the path ends at the test's LLR, a decided test's LLR lies beyond the bound it
    crossed, and the looks are the shards (100 pairs each)."""
    _url, client, run_id, untested, run_dir = tested
    d = client.get(f"/api/runs/{run_id}/sequential").json()
    assert d["stop"]["h1"] == 100 and d["stop"]["two_sided"] is True
    recorded = {e["match"]: e for e in map(json.loads, (run_dir / "manifest.jsonl")
                                           .read_text().splitlines())
                if e.get("event") == "decision"}
    assert len(d["tests"]) == 3 and set(recorded) == {t["match"] for t in d["tests"]}
    for t in d["tests"]:
        e = recorded[t["match"]]
        assert t["decision"] == e["decision"] and t["ahead"] == e["ahead"]
        assert t["state"]["llr"] == pytest.approx(e["llr"], abs=1e-3)
        assert t["path"][-1] == [t["state"]["pairs"], pytest.approx(t["state"]["llr"], abs=1e-3)]
        assert [p[0] for p in t["path"]] == list(range(100, t["state"]["pairs"] + 1, 100))
        lo, hi = t["state"]["bounds"]
        mirror = t["mirror_path"][-1][1]
        if t["decision"] == "H1":
            assert t["state"]["llr"] >= hi or mirror >= hi
        elif t["decision"] == "H0":
            assert t["state"]["llr"] <= lo and mirror <= lo
    none = client.get(f"/api/runs/{untested}/sequential").json()
    assert none["stop"] is None and none["tests"] == []
    assert client.get("/api/runs/nope/sequential").status_code == 404


def test_the_page_draws_each_test_between_its_bounds(browser, tested, tmp_path):
    url, client, run_id, untested, _ = tested
    d = client.get(f"/api/runs/{run_id}/sequential").json()
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{url}/#{run_id}")
    page.wait_for_selector(f"#sequential-section[data-sequential-for='{run_id}:finished']",
                           timeout=60_000)
    rows = page.eval_on_selector_all(
        "#sequential tbody tr", "rs => rs.map(r => [Number(r.dataset.match), r.dataset.decision])")
    assert rows == [[t["match"], t["decision"]] for t in d["tests"]]
    drawn = page.evaluate("""document.getElementById('chart-sequential').data
        .filter(t => !t.meta.mirror).map(t => ({match: t.meta.match, y: t.y}))""")
    for trace, t in zip(drawn, d["tests"], strict=True):
        assert trace["match"] == t["match"]
        assert trace["y"] == [0] + [p[1] for p in t["path"]]
    bounds = page.evaluate("document.getElementById('chart-sequential').layout.shapes"
                           ".map(s => s.y0)")
    assert bounds == d["tests"][0]["state"]["bounds"]
    page.screenshot(path=str(tmp_path / "sequential.png"), full_page=True)
    page.click(f"tr.run[data-run-id='{untested}']")
    page.wait_for_selector(f"#run-detail[data-results-for='{untested}:finished']",
                           timeout=60_000)
    page.wait_for_function("document.getElementById('sequential-section').hidden")
    assert errors == []
    page.close()
