"""A tournament's standings as Parquet beside the run (``<run>/standings/``): written
when a tournament run finishes (CLI and service), on demand (``leaderboard --write``,
``POST /api/runs/{id}/standings/write``), read back with real DuckDB and through the
query views, equal to the leaderboard's JSON; atomic, idempotent, never touching the
run's parts, and refused while a run is still being driven."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import duckdb
import httpx
import pyarrow.parquet as pq
import pytest

from pokerarena.cli import main
from pokerarena.platform import standings as standings_mod
from pokerarena.platform.api import create_app
from pokerarena.platform.api.executors import MeteredLocalExecutor
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.platform.query import STANDINGS_TABLES, query
from pokerarena.platform.standings import RunStillRunning, write_standings
from pokerarena.platform.storage import RunStore

SPEC = """
kind = "tournament"
name = "tables"
seed = 11
seats = 2
bots = ["random", "call", "maniac"]
hands = 120
unit_hands = 60
duplicate = true
[[games]]
variant = "holdem"
betting = "fixed_limit"
[[games]]
variant = "holdem"
betting = "no_limit"
"""


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> tuple[Path, str]:
    """A three-bot duplicate round robin of two games, played by ``pokerarena run``."""
    root = tmp_path_factory.mktemp("standings-tables")
    spec = root / "t.toml"
    spec.write_text(SPEC)
    data = root / "data"
    assert main(["run", str(spec), "--local", "--data", str(data), "--run-id", "rr"]) == 0
    return data, "rr"


def _read(path: Path) -> list[dict]:
    """A Parquet file's rows through DuckDB (not pyarrow: what a user's DuckDB sees)."""
    con = duckdb.connect()
    try:
        cur = con.execute("SELECT * FROM read_parquet(?)", [str(path)])
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
    finally:
        con.close()


def _fingerprint(run_dir: Path, skip: str = "standings") -> dict[str, str]:
    return {str(p.relative_to(run_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(run_dir.rglob("*")) if p.is_file()
            and p.relative_to(run_dir).parts[0] != skip}


def test_a_finished_tournament_has_its_tables_equal_to_the_leaderboard(finished_run, capsys):
    data, run_id = finished_run
    folder = data / "runs" / run_id / "standings"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [f"{t}.parquet" for t in STANDINGS_TABLES] + ["summary.json"]
    )  # and no temporary left behind (summary.json: what later leaderboards read)
    rc, out, _ = _cli(capsys, "leaderboard", run_id, "--data", str(data), "--json")
    assert rc == 0
    board = json.loads(out)

    ranking = _read(folder / "ranking.parquet")
    assert [r["bot"] for r in ranking] == [b["bot"] for b in board["bots"]]
    for row, b in zip(ranking, board["bots"], strict=True):
        assert (row["mbb_per_hand"], row["lo"], row["hi"], row["ci95"], row["hands"],
                row["blocks"]) == (b["value"], b["lo"], b["hi"], b["ci95"], b["hands"],
                                   b["blocks"])
        assert row["run_id"] == run_id
    by_rank = sorted(ranking, key=lambda r: r["total_bankroll_rank"])
    assert [r["bot"] for r in by_rank] == [r["bot"] for r in board["total_bankroll"]]
    by_runoff = sorted(ranking, key=lambda r: r["instant_runoff_rank"])
    assert [r["bot"] for r in by_runoff] == board["instant_runoff"]

    names = board["cross"]["bots"]
    cross = {(r["bot"], r["opponent"]): r for r in _read(folder / "cross_table.parquet")}
    assert len(cross) == 6  # every ordered pair of three bots met
    for i, a in enumerate(names):
        for j, c in enumerate(names):
            if i != j:
                assert cross[(a, c)]["mbb_per_hand"] == board["cross"]["mbb_per_hand"][i][j]
                assert cross[(a, c)]["ci95"] == board["cross"]["ci95"][i][j]

    ratings = {r["bot"]: r for r in _read(folder / "ratings.parquet")}
    for r in board["openskill"]:
        assert (ratings[r["bot"]]["openskill_mu"], ratings[r["bot"]]["openskill_lo"],
                ratings[r["bot"]]["openskill_hi"]) == (r["rating"], r["lo"], r["hi"])
    for r in board["bradley_terry"]:
        assert ratings[r["bot"]]["bt_rating"] == r["rating"]
        assert ratings[r["bot"]]["bt_lo"] == r["lo"]

    history = _read(folder / "rating_history.parquet")
    assert len(history) == len(board["openskill_history"]) * len(names)
    last = max(h["point"] for h in history)
    assert [h["mu"] for h in history if h["point"] == last] == board["openskill_history"][-1]

    cumulative = _read(folder / "cumulative.parquet")
    for bot, c in board["cumulative"].items():
        mine = sorted((r for r in cumulative if r["bot"] == bot), key=lambda r: r["point"])
        assert [r["bb"] for r in mine] == c["bb"] and [r["band"] for r in mine] == c["band"]

    profiles = _read(folder / "profiles.parquet")
    assert [{k: v for k, v in p.items() if k != "run_id"} for p in profiles] == \
        board["profiles"]
    assert {(p["bot"], p["betting"]) for p in profiles} == {
        (b, g) for b in names for g in ("fixed_limit", "no_limit")}
    reduction = _read(folder / "variance_reduction.parquet")
    assert [{k: v for k, v in r.items() if k != "run_id"} for r in reduction] == \
        board["variance_reduction"]


def test_the_tables_are_query_views(finished_run, capsys):
    data, run_id = finished_run
    rc, out, _ = _cli(capsys, "query", "SELECT bot, rank, instant_runoff_rank FROM ranking "
                      "ORDER BY rank", "--run", run_id, "--data", str(data), "--json")
    assert rc == 0
    rows = json.loads(out)
    cols, direct = query(data, "SELECT bot, rank, instant_runoff_rank FROM ranking "
                         "ORDER BY rank", run_id)
    assert rows == [dict(zip(cols, r, strict=True)) for r in direct] and len(rows) == 3
    # a join of two written tables and a live view, over every run of the directory
    _, joined = query(data, "SELECT r.bot, r.mbb_per_hand, t.openskill_mu, l.hands "
                      "FROM ranking r JOIN ratings t USING (run_id, bot) "
                      "JOIN leaderboard l USING (run_id, bot) ORDER BY r.rank")
    assert [j[0] for j in joined] == [r["bot"] for r in rows]
    assert all(j[3] > 0 for j in joined)


def test_writing_again_is_idempotent_and_touches_no_part(finished_run, capsys):
    data, run_id = finished_run
    run_dir = data / "runs" / run_id
    before = _fingerprint(run_dir)
    tables_before = _fingerprint(run_dir / "standings", skip="")
    rc, _, err = _cli(capsys, "leaderboard", run_id, "--data", str(data), "--write")
    assert rc == 0 and "ranking (3 rows)" in err
    assert _fingerprint(run_dir / "standings", skip="") == tables_before  # byte for byte
    assert _fingerprint(run_dir) == before  # parts, manifest and spec untouched
    meta = json.loads(pq.read_schema(run_dir / "standings" / "ranking.parquet")
                      .metadata[b"pokerarena.standings"])
    assert meta == {"run_id": run_id, "status": "finished", "units_done": 12, "hands": 720}


def test_a_write_that_fails_halfway_leaves_the_old_tables(finished_run, monkeypatch):
    """Every table goes to a temporary name first: when one cannot be written, none of
    the finished files is replaced and no temporary is left."""
    data, run_id = finished_run
    folder = data / "runs" / run_id / "standings"
    before = _fingerprint(folder, skip="")
    real = pq.write_table
    calls = []

    def failing(table, where, **kw):
        calls.append(where)
        if len(calls) == 3:
            raise OSError("disk full")
        return real(table, where, **kw)

    monkeypatch.setattr(standings_mod.pq, "write_table", failing)
    out = standings_mod.run_standings(data, run_id)
    out["bots"][0]["value"] += 1.0  # new numbers, so a replaced file would show
    with pytest.raises(OSError, match="disk full"):
        write_standings(data, run_id, out)
    assert len(calls) == 3
    assert _fingerprint(folder, skip="") == before
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [f"{t}.parquet" for t in STANDINGS_TABLES] + ["summary.json"])


def test_a_run_still_being_driven_is_refused(finished_run, capsys):
    """A resumed drive holds the run's lock and has started: no tables are written (the
    standings of a run still going are read live), with one clear line."""
    data, run_id = finished_run
    store = RunStore(data, run_id)
    folder = store.run_dir / "standings"
    before = _fingerprint(folder, skip="")
    with store.lock():
        store.append({"event": "start", "units": 12, "hands": 720, "skipped": 12})
        with pytest.raises(RunStillRunning, match="still running"):
            write_standings(data, run_id)
        rc, _, err = _cli(capsys, "leaderboard", run_id, "--data", str(data), "--write")
        assert rc == 2 and "still running" in err and "Traceback" not in err
        store.append({"event": "end", "status": "finished"})
    assert _fingerprint(folder, skip="") == before


TOKEN = "test-token-standings"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    data = tmp_path_factory.mktemp("standings-api")
    app = create_app(data, token=TOKEN, executor_factory=MeteredLocalExecutor, web_dir=None)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=60) as client:
        yield client, data


def _finished(client: httpx.Client, run_id: str) -> bool:
    return client.get(f"/api/runs/{run_id}").json()["status"] == "finished"


def test_the_service_writes_a_finished_tournaments_tables(service):
    client, data = service
    spec = {"kind": "tournament", "name": "api-tables", "seed": 5, "seats": 2,
            "bots": ["random", "call", "maniac"], "hands": 60, "unit_hands": 60,
            "duplicate": True, "games": [{"variant": "holdem", "betting": "fixed_limit"}]}
    r = client.post("/api/runs", json=spec, headers=AUTH)
    assert r.status_code == 201, r.text
    run_id = r.json()["run_id"]
    ranking = data / "runs" / run_id / "standings" / "ranking.parquet"
    wait_for(lambda: _finished(client, run_id) and ranking.is_file(), 120,
             what="the tournament's tables")
    st = client.get(f"/api/runs/{run_id}/standings").json()
    q = client.post("/api/query", json={"sql": "SELECT bot, mbb_per_hand, ci95 FROM ranking "
                                        "ORDER BY rank", "run_id": run_id})
    assert q.status_code == 200, q.text
    assert q.json()["rows"] == [[b["bot"], b["value"], b["ci95"]] for b in st["bots"]]
    assert client.post(f"/api/runs/{run_id}/standings/write").status_code == 401
    again = client.post(f"/api/runs/{run_id}/standings/write", headers=AUTH)
    assert again.status_code == 200, again.text
    assert again.json()["tables"]["cross_table"] == 6
    assert again.json()["path"] == f"runs/{run_id}/standings"


def test_the_service_writes_other_runs_on_demand_and_refuses_running_ones(service):
    client, data = service
    r = client.post("/api/runs", json=small_spec(hands=40, unit_hands=20, name="plain"),
                    headers=AUTH)
    run_id = r.json()["run_id"]
    wait_for(lambda: _finished(client, run_id), 120, what="the match")
    folder = data / "runs" / run_id / "standings"
    assert not folder.exists()  # a match is not a tournament: nothing written by itself
    w = client.post(f"/api/runs/{run_id}/standings/write", headers=AUTH)
    assert w.status_code == 200, w.text
    assert (folder / "ranking.parquet").is_file()
    assert len(_read(folder / "ranking.parquet")) == 2

    store = RunStore(data, run_id)
    with store.lock():  # another process resumes it
        store.append({"event": "start", "units": 2, "hands": 40, "skipped": 2})
        busy = client.post(f"/api/runs/{run_id}/standings/write", headers=AUTH)
        store.append({"event": "end", "status": "finished"})
    assert busy.status_code == 409 and "still running" in busy.json()["error"]
    missing = client.post("/api/runs/nosuchrun/standings/write", headers=AUTH)
    assert missing.status_code == 404


def test_linked_standings_are_never_read(finished_run, tmp_path):
    """A table file (or folder) below ``runs/`` that is a symbolic link is left out of
    the views, as the row parts' links are."""
    from pokerarena.platform.query import standings_files

    data, run_id = finished_run
    other = tmp_path / "data"
    run = other / "runs" / "linked"
    (run / "standings").mkdir(parents=True)
    real = data / "runs" / run_id / "standings"
    (run / "standings" / "ranking.parquet").symlink_to(real / "ranking.parquet")
    (other / "runs" / "folder" / "").mkdir(parents=True)
    (other / "runs" / "folder" / "standings").symlink_to(real)
    found = standings_files(other)
    assert found == {t: [] for t in STANDINGS_TABLES}
    assert standings_files(data)["ranking"] == [str((real / "ranking.parquet").resolve())]
