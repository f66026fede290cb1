"""A study's report in a real browser (Debian's chromium, headless, driven by
Playwright): an example study spec is POSTed to the service like any run and played on
the session's Ray cluster; ``GET /api/runs/{id}/report`` answers the HTML; chromium
opens it with the network cut off and finds every plot drawn (each an embedded image
that decoded) and every table, the exact tables with their paradox flag included. A run
that is not a study, and a run that does not exist, get one clear error."""

from __future__ import annotations

import tomllib
from pathlib import Path

import duckdb
import httpx
import pyarrow.parquet as pq
import pytest

from pokerarena.cards import parse_cards
from pokerarena.evaluator import evaluate, ranking
from pokerarena.platform.api import create_app
from pokerarena.platform.api.executors import MeteredRayExecutor
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.studies.report import render

TOKEN = "test-token-study"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "studies" / "joker.toml"
PLOTS = ("plot-question-0", "plot-seats", "plot-pots", "plot-categories", "plot-skill")
TABLES = ("table-question-0", "table-cells", "table-metrics", "table-pots",
          "table-categories", "table-win-categories", "table-skill", "table-comparisons",
          "table-exact-0", "table-exact-1")




def _finished(client: httpx.Client, run_id: str) -> dict:
    return wait_for(lambda: (r := client.get(f"/api/runs/{run_id}").json())["status"]
                    in ("finished", "failed") and r, timeout=600, what=f"run {run_id}")


@pytest.fixture(scope="module")
def study(ray_cluster, tmp_path_factory):
    """The joker example, shortened, played through the service; its report's HTML."""
    data = tmp_path_factory.mktemp("study-web")
    app = create_app(data, token=TOKEN, executor_factory=lambda: MeteredRayExecutor(1))
    spec = tomllib.loads(EXAMPLE.read_text())
    spec.update(hands=400, unit_hands=100)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=300) as client:
        r = client.post("/api/runs", json=spec, headers=AUTH)
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        assert _finished(client, run_id)["status"] == "finished"
        yield served.url, client, run_id, data


def test_report_over_http_and_its_errors(study):
    url, client, run_id, data = study
    r = client.get(f"/api/runs/{run_id}/report")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "Does a joker change how often the best starting hand wins?" in r.text
    written = data / "runs" / run_id / "report"
    assert (written / "report.html").is_file() and (written / "comparisons.parquet").is_file(), \
        sorted(p.name for p in written.iterdir())
    # how often the joker is in the winning hand, against the seats counted directly
    got = {(m["cell"], m["metric"]): m["value"]
           for m in pq.read_table(written / "metrics.parquet").to_pylist()}
    (direct,) = duckdb.connect().execute(
        "SELECT avg((cards LIKE '%Jk%')::INT) FROM read_parquet(?, hive_partitioning = true) "
        "WHERE match = 1 AND showdown AND pot_won > 0",
        [str(data / "runs" / run_id / "seats" / "*" / "*.parquet")]).fetchone()
    assert 0 < direct < 1 and got[(1, "wild_in_winner")] == pytest.approx(direct)
    assert (0, "wild_in_winner") not in got  # no wild cards without the joker
    # the best starting hand's wins, scored again here by the evaluator itself
    rows = duckdb.connect().execute(
        "SELECT a.hand, a.target, arg_min(a.cards, a.seq), any_value(s.pot_won) > 0, "
        "any_value(h.passed) FROM read_parquet(?, hive_partitioning = true) a "
        "JOIN read_parquet(?, hive_partitioning = true) s ON s.match = a.match AND "
        "s.hand = a.hand AND s.seat = a.target JOIN read_parquet(?, hive_partitioning = "
        "true) h ON h.match = a.match AND h.hand = a.hand WHERE a.match = 1 AND a.kind = 'dh' "
        "GROUP BY ALL", [str(data / "runs" / run_id / t / "*" / "*.parquet")
                         for t in ("actions", "seats", "hands")]).fetchall()
    jokers = ranking(wild="jokers")
    hands: dict[int, list] = {}
    for hand, _, dealt, won, passed in rows:
        hands.setdefault(hand, []).append((evaluate(parse_cards(dealt), jokers), won, passed))
    best = [sorted(v, reverse=True) for v in hands.values() if not v[0][2]]
    best = [v for v in best if v[0][0] > v[1][0]]
    assert got[(1, "best_start_wins")] == pytest.approx(sum(v[0][1] for v in best) / len(best))
    assert client.get("/api/runs/no-such-run/report").status_code == 404
    m = client.post("/api/runs", json=small_spec(hands=40, unit_hands=20, name="plain"),
                    headers=AUTH).json()["run_id"]
    _finished(client, m)
    r = client.get(f"/api/runs/{m}/report")
    assert r.status_code == 409 and "not a study" in r.json()["error"]


def test_report_in_chromium_has_every_plot_and_table(study, browser, tmp_path):
    url, client, run_id, _ = study
    html = client.get(f"/api/runs/{run_id}/report", params={"exact": "true"}).text
    page_file = tmp_path / "report.html"
    page_file.write_text(html)
    context = browser.new_context(offline=True, viewport={"width": 1300, "height": 900})
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(page_file.as_uri())
    for plot in PLOTS:
        size = page.eval_on_selector(f"figure#{plot} img", "i => [i.complete, i.naturalWidth, "
                                     "i.naturalHeight, i.getBoundingClientRect().width]")
        assert size[0] and size[1] > 200 and size[2] > 100 and size[3] > 200, (plot, size)
    for table in TABLES:
        rows = page.eval_on_selector(f"table#{table}", "t => t.tBodies[0].rows.length")
        assert rows >= 1, table
    assert page.eval_on_selector("#table-cells", "t => t.tBodies[0].rows.length") == 2
    # the summary says in words what differs, and the joker's paradox is flagged
    assert page.inner_text("#summary").startswith("Summary")
    assert "compared with the baseline rules" in page.inner_text("#summary")
    answer = page.inner_text("#answer-0")  # the question answered in words, rule by rule
    assert "best starting hand wins, cell 1 (joker=true) against cell 0" in answer
    flags = page.inner_text("#exact")
    assert "three of a kind" in flags and "ranks above two pair yet is more common" in flags
    assert all(u.startswith(("file:", "data:")) for u in requests), requests
    assert errors == []
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert (tmp_path / "report.png").stat().st_size > 50_000
    context.close()


def test_render_without_significant_differences_says_so():
    """The summary of a study whose cells do not differ."""
    results = {"run_id": "r", "title": "t", "seed": 1, "common_deals": True,
               "settings": {"baseline": 0, "correction": "bh", "alpha": 0.05, "questions": []},
               "cells": [{"cell": 0, "label": "a", "variant": "holdem", "betting": "no_limit",
                          "options": {}, "mix": ["call", "call"], "hands": 10, "deals": 10}],
               "metrics": [], "comparisons": [], "quantiles": [], "ecdf": {}, "skill": [],
               "categories": [], "exact_tables": None}
    page = render(results)
    assert "No difference from the baseline is significant after Benjamini-Hochberg" in page
    assert "exact-none" in page and "<img" not in page  # nothing to plot: no empty plots
