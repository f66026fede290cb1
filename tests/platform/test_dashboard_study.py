"""A study's page on the dashboard (issue 31), in Debian's chromium: the questions and
their answers first, the cells side by side with intervals, the report embedded and
downloadable; and ``GET /api/runs/{id}/study``, the data it shows."""

from __future__ import annotations

import tomllib

import pytest

from pokerarena.platform.api.testing import served_runs, small_spec


@pytest.fixture(scope="module")
def study_run(ray_cluster, tmp_path_factory, repo_root):
    spec = tomllib.loads((repo_root / "examples/studies/deuces_wild.toml").read_text())
    spec.update(hands=400, unit_hands=200, name="page-study")
    data = tmp_path_factory.mktemp("study-page")
    with served_runs(data, [spec, small_spec(hands=40, unit_hands=40, name="not-a-study")]
                     ) as (url, client, (study, other)):
        yield url, client, study, other, spec


def test_the_study_api_answers_each_question(study_run):
    """One entry per question of the spec, in order; each answer is a rule comparison of
    one of the question's metrics; each side-by-side row has every cell, the baseline
    without a difference and the other cell with one."""
    _url, client, run_id, other, spec = study_run
    st = client.get(f"/api/runs/{run_id}/study").json()
    assert st["title"] == spec["study"]["title"]
    assert [q["text"] for q in st["questions"]] == [q["text"] for q in spec["study"]["questions"]]
    assert st["summary"][0].startswith("2 cells, 800 hands")
    for q, asked in zip(st["questions"], spec["study"]["questions"], strict=True):
        assert {a["metric"] for a in q["answers"]} <= set(asked["metrics"])
        for row in q["rows"]:
            assert row["metric"] in asked["metrics"]
            base, cell = row["cells"]  # a metric may not apply to a cell (wild cards)
            assert cell is not None
            assert cell["lo"] <= cell["value"] <= cell["hi"]
            if base is not None:
                assert base["against"] is None and cell["against"]["baseline"] == 0
    three = st["questions"][0]["rows"][0]
    assert three["metric"] == "category:three_of_a_kind"
    # deuces wild makes three of a kind far more common at the showdown
    assert three["cells"][1]["value"] > three["cells"][0]["value"]
    assert client.get(f"/api/runs/{other}/study").status_code == 409
    assert client.get("/api/runs/no-such-run/study").status_code == 404
    got = client.get(f"/api/runs/{run_id}/report", params={"download": "true"})
    assert got.status_code == 200
    assert got.headers["content-disposition"] == f'attachment; filename="{run_id}-report.html"'


def test_the_study_page_shows_answers_first_then_the_report(browser, study_run, tmp_path):
    url, client, run_id, other, _spec = study_run
    st = client.get(f"/api/runs/{run_id}/study").json()
    page = browser.new_page(viewport={"width": 1280, "height": 1200})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{url}/#{run_id}")
    page.wait_for_selector(f"#study[data-study-for='{run_id}:finished']", timeout=60_000)
    assert page.inner_text("#study-title") == st["title"]
    shown = page.eval_on_selector_all("#study-summary li", "ls => ls.map(l => l.textContent)")
    assert shown == st["summary"]
    for i, q in enumerate(st["questions"]):
        box = f"#study-question-{i}"
        assert page.inner_text(f"{box} h3") == f"Question {i + 1}: {q['text']}"
        answers = page.eval_on_selector_all(f"{box} ul.answer li",
                                            "ls => ls.map(l => l.textContent)")
        assert answers == [a["text"] for a in q["answers"]]
        for row in q["rows"]:
            cell = page.inner_text(f"{box} tr[data-metric='{row['metric']}'] td[data-cell='1']")
            assert cell.splitlines()[0] == row["cells"][1]["text"]
    # the study comes before the leaderboard on its page
    above = page.evaluate("""document.getElementById('study').compareDocumentPosition(
        document.getElementById('leaderboard')) & Node.DOCUMENT_POSITION_FOLLOWING""")
    assert above
    frame = page.frame_locator("#study-report")
    assert frame.locator("h1").inner_text(timeout=60_000) == st["title"]
    assert page.get_attribute("#study-download", "href").endswith("/report?download=true")
    page.screenshot(path=str(tmp_path / "study.png"), full_page=True)
    page.click(f"tr.run[data-run-id='{other}']")  # a match has no study section
    page.wait_for_selector(f"#run-detail[data-results-for='{other}:finished']",
                           timeout=60_000)
    assert page.is_hidden("#study")
    assert errors == []
    page.close()
