"""Study runs end to end through the CLI: ``pokerarena study`` plays a study spec on
the session's Ray cluster and prints the run id, ``pokerarena report`` writes the report
and its Parquet tables; the cells play the same deals (common random numbers); the
report's figures equal the rows counted directly; the example specs all parse; a user's
mistakes end with one line and status 2."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from pokerarena.platform.spec import load_spec, parse_spec
from pokerarena.platform.study_report import references, study_results
from pokerarena.studies.settings import Question, parse_settings

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "studies"

# Five-card draw with and without a freeze, two mixes: 2 games x 2 mixes = 4 cells.
STUDY = {"kind": "study", "name": "tiny-study", "seed": 21, "bots": ["lag", "maniac", "call"],
         "hands": 240, "unit_hands": 80,
         "mixes": [["lag", "maniac", "call"], ["tag", "call"]],
         "games": [{"variant": "draw5", "betting": "fixed_limit",
                    "sweep": {"freeze_multiple": [0, 3]}}],
         "study": {"baseline": 0, "title": "tiny",
                   "questions": ["does the freeze shorten raising wars?",
                                 {"text": "openers", "metrics": ["passed_rate"]}]}}


def _cli(cli: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def played(ray_cluster, tmp_path_factory, pokerarena_cli):
    """The tiny study played over the session's Ray cluster by ``pokerarena study``."""
    tmp = tmp_path_factory.mktemp("study")
    spec = tmp / "study.json"
    spec.write_text(json.dumps(STUDY))
    data = tmp / "data"
    r = _cli(pokerarena_cli, "study", str(spec), "--data", str(data), "--address",
             ray_cluster, "--workers", "2")
    assert r.returncode == 0, r.stderr[-2000:]
    run_id = r.stdout.strip().splitlines()[-1]
    assert run_id.startswith("tiny-study-")
    return data, run_id


def test_every_example_spec_parses_as_a_study():
    files = sorted(EXAMPLES.glob("*.toml"))
    assert len(files) >= 5
    for f in files:
        spec = load_spec(f)
        assert spec.kind == "study", f
        settings = parse_settings(spec.study or {}, spec.plan_size()[0])
        assert settings.questions and all(isinstance(q, Question) for q in settings.questions)
        assert "#" in f.read_text().splitlines()[0], f"{f.name}: starts with its question"


def test_study_cells_play_the_same_deals(played):
    """Cells with the same deck and table size see the same cards in every hand; the
    freeze changes the betting, not the deal."""
    data, run_id = played
    rows = duckdb.connect().execute(
        "SELECT match, hand, target, arg_min(cards, seq) FROM read_parquet(?, "
        "hive_partitioning = true) WHERE kind = 'dh' GROUP BY ALL ORDER BY 1, 2, 3",
        [str(data / "runs" / run_id / "actions" / "*" / "*.parquet")]).fetchall()
    by_match: dict[int, list] = {}
    for match, hand, seat, cards in rows:  # each seat's first five cards: the deal
        by_match.setdefault(match, []).append((hand, seat, cards))
    assert set(by_match) == {0, 1, 2, 3}
    # cells 0 and 2 (three seats) share every dealt hand, as do 1 and 3 (heads-up)
    assert by_match[0] == by_match[2] and len(by_match[0]) == 3 * 240
    assert by_match[1] == by_match[3]
    assert by_match[0][:2] != by_match[1][:2]


def test_report_figures_match_the_rows(played, pokerarena_cli, tmp_path):
    data, run_id = played
    out = tmp_path / "report"
    r = _cli(pokerarena_cli, "report", run_id, "--data", str(data), "--out", str(out),
             "--no-exact")
    assert r.returncode == 0, r.stderr[-2000:]
    assert Path(r.stdout.strip()) == out / "report.html"
    html = (out / "report.html").read_text()
    assert html.startswith("<!doctype html>") and "tiny" in html
    assert "http://" not in html and "https://" not in html  # nothing fetched
    tables = {p.stem: pq.read_table(p).to_pylist() for p in out.glob("*.parquet")}
    assert {"cells", "metrics", "comparisons", "pot_quantiles", "skill"} <= set(tables)
    assert [c["cell"] for c in tables["cells"]] == [0, 1, 2, 3]
    # the showdown and passed rates of each cell, counted from the hands directly
    direct = dict(((m, k), v) for m, k, v in duckdb.connect().execute(
        "SELECT match, unnest(['showdown_rate', 'passed_rate']), "
        "unnest([avg(showdown::INT), avg(passed::INT)]) FROM read_parquet(?, "
        "hive_partitioning = true) GROUP BY match",
        [str(data / "runs" / run_id / "hands" / "*" / "*.parquet")]).fetchall())
    got = {(m["cell"], m["metric"]): m for m in tables["metrics"]}
    for key, value in direct.items():
        assert got[key]["value"] == pytest.approx(value)
        assert got[key]["lo"] <= value <= got[key]["hi"]
    # every comparison names its reference: the baseline rules with the same bots
    refs = {(c["cell"], c["baseline"]) for c in tables["comparisons"]}
    assert refs == {(1, 0), (2, 0), (3, 1)} == set(references(0, 4, 2).items())
    assert all(0 <= c["p_adjusted"] <= 1 and c["p"] <= c["p_adjusted"] + 1e-12
               for c in tables["comparisons"])


def test_identical_cells_differ_by_nothing(tmp_path):
    """Two cells of the same rules and bots on common deals: every paired difference is
    exactly zero (the card luck cancels completely), none significant."""
    from pokerarena.platform.driver import RunDriver
    from pokerarena.platform.executors import LocalExecutor

    spec = {**STUDY, "name": "twins", "hands": 120, "unit_hands": 60,
            "mixes": [["maniac", "call"], ["maniac", "call"]],
            "games": [{"variant": "holdem", "betting": "fixed_limit"}],
            "study": {"baseline": 0}}
    driver = RunDriver.create(parse_spec(spec), tmp_path, LocalExecutor(), run_id="twins")
    assert driver.run().status == "finished"
    res = study_results(tmp_path, "twins", exact=False)
    assert res["comparisons"] and all(c["diff"] == pytest.approx(0, abs=1e-12)
                                      and not c["significant"] for c in res["comparisons"])
    # hold'em has no low half: every split showdown is a tie, counted from the hands
    (ties,) = duckdb.connect().execute(
        "SELECT avg((winners > 1)::INT) FILTER (WHERE showdown) FROM read_parquet(?, "
        "hive_partitioning = true) WHERE match = 0",
        [str(tmp_path / "runs" / "twins" / "hands" / "*" / "*.parquet")]).fetchone()
    got = {m["metric"]: m["value"] for m in res["metrics"] if m["cell"] == 0}
    assert ties > 0 and got["tie_rate"] == pytest.approx(ties) == got["split_rate"]


def test_user_mistakes_end_with_one_line(played, pokerarena_cli, tmp_path, repo_root):
    data, run_id = played
    r = _cli(pokerarena_cli, "study", str(repo_root / "examples" / "match.toml"), "--local",
             "--data", str(tmp_path))
    assert r.returncode == 2 and "plays kind = \"study\"" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**STUDY, "study": {"baseline": 9}}))
    r = _cli(pokerarena_cli, "study", str(bad), "--local", "--data", str(tmp_path))
    assert r.returncode == 2 and "study: baseline: cell 9" in r.stderr
    bad.write_text(json.dumps({**STUDY, "study": {"questions": [
        {"text": "q", "metrics": ["no_such_metric"]}]}}))
    r = _cli(pokerarena_cli, "study", str(bad), "--local", "--data", str(tmp_path))
    assert r.returncode == 2 and "unknown metric 'no_such_metric'" in r.stderr
    r = _cli(pokerarena_cli, "report", "no-such-run", "--data", str(data))
    assert r.returncode == 2 and "no run 'no-such-run'" in r.stderr
