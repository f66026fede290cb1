"""Freeze-outs as runs on Ray (``format = "freezeout"``): a sit-and-go, a multi-table
tournament and tournaments stopped at their round limit, played by the session's Ray
cluster, read back from Parquet through DuckDB.

000_… «Замороженный вклад»: «Перед игрой каждый игрок кладет на стол перед собой
одинаковое количество фишек. Выигрыши добавляются к этой сумме, но ни один игрок не
может добавлять новые фишки. Как только игрок израсходовал все свои фишки, он выбывает
из игры. Игроки играют до тех пор, пока один игрок не выиграет все фишки.»
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest

from pokerarena.cli import main
from pokerarena.platform.api import create_app
from pokerarena.platform.api.executors import MeteredLocalExecutor
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec
from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import LocalExecutor, RayExecutor
from pokerarena.platform.freezeout_standings import run_freezeout_standings
from pokerarena.platform.planner import plan
from pokerarena.platform.query import connect, query
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import RunStore
from pokerarena.tournaments.estimates import t95
from pokerarena.workers.table import execute_unit

pytest.importorskip("ray")

STACK = 300
LEVELS = [{"start": 0, "options": {"blinds": [5, 10]}},
          {"start": 4, "options": {"blinds": [10, 20]}},
          {"start": 8, "options": {"blinds": [25, 50], "ante": 5}},
          {"start": 12, "options": {"blinds": [50, 100], "ante": 10}}]


def _spec(seats: int = 6, hands: int = 500, stack: int = STACK, betting: str = "no_limit",
          **freezeout: Any) -> dict[str, Any]:
    return {"kind": "tournament", "format": "freezeout", "name": "fo", "seed": 7,
            "bots": ["rock", "call", "random"], "seats": seats, "hands": hands,
            "stack": stack, "games": [{"variant": "holdem", "betting": betting}],
            "freezeout": {"tournaments": 4, "entrants": 6, "levels": LEVELS,
                          "payouts": [0.65, 0.35], "buy_in": 10, **freezeout}}


SPECS = {
    "sng": _spec(),  # four sit-and-gos of six at one 6-max table
    "mtt": _spec(seats=4, tournaments=3, entrants=15),  # 4 tables of 4, 4, 4, 3
    # fixed limit, deep stacks, three rounds: nobody can lose everything; ICM decides
    "stop": _spec(seats=4, hands=3, stack=1000, betting="fixed_limit", tournaments=3),
}


@pytest.fixture(scope="module")
def runs(ray_cluster: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three runs, played on two Ray actors."""
    data = tmp_path_factory.mktemp("freezeouts")
    executor = RayExecutor(2)
    executor.start()
    try:
        for run_id, spec in SPECS.items():
            driver = RunDriver.create(parse_spec(spec), data, executor, run_id=run_id,
                                      manage_executor=False)
            assert driver.run().status == "finished"
    finally:
        executor.shutdown()
    return data


def _records(data: Path, run_id: str, sql: str) -> list[dict[str, Any]]:
    cols, rows = query(data, sql, run_id)
    return [dict(zip(cols, r, strict=True)) for r in rows]


def _places(data: Path, run_id: str) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for r in _records(data, run_id, "SELECT * FROM places ORDER BY match, place, entry"):
        out.setdefault(r["match"], []).append(r)
    return out


@pytest.mark.parametrize("run_id", ["sng", "mtt"])
def test_every_tournament_is_played_to_one_winner_with_places_and_prizes(runs, run_id):
    """«Игроки играют до тех пор, пока один игрок не выиграет все фишки»: each
    tournament ends with one entry holding every chip; places are 1..n in competition
    order (entries out in the same round with the same chips share a place and its
    prizes), each entry finishes once, later out places better, prizes sum to the pool."""
    spec = SPECS[run_id]
    n = spec["freezeout"]["entrants"]
    tournaments = _places(runs, run_id)
    assert sorted(tournaments) == list(range(spec["freezeout"]["tournaments"]))
    for rows in tournaments.values():
        assert sorted(r["entry"] for r in rows) == list(range(n))
        assert all(r["finished"] and r["chips_conserved"] for r in rows)
        winner, *rest = rows
        assert winner["place"] == 1 and winner["chips"] == n * STACK
        assert winner["out_round"] is None and all(r["chips"] == 0 for r in rest)
        for r in rows:
            assert r["place"] == 1 + sum(1 for o in rows if o["place"] < r["place"])
            assert all(o["prize"] == r["prize"] for o in rows if o["place"] == r["place"])
        outs = [r["out_round"] for r in rest]
        assert outs == sorted(outs, reverse=True)
        assert sum(r["prize"] for r in rows) == pytest.approx(n * 10)
        assert rows[0]["prize_pool"] == n * 10 and rows[0]["rounds"] > outs[0]


@pytest.mark.parametrize("run_id", ["sng", "mtt", "stop"])
def test_chips_are_conserved_at_every_round_over_all_tables(runs, run_id):
    """«ни один игрок не может добавлять новые фишки»: at the start of every round, the
    seats of all its hands (every table) hold entrants x the stack between them (no pot
    is carried in hold'em); every entry still in is dealt in; no hand makes or loses a
    chip."""
    n = SPECS[run_id]["freezeout"]["entrants"]
    stack = SPECS[run_id]["stack"]
    rounds = _records(runs, run_id, """
        SELECT h.match, h.deal AS round, sum(s.start_stack) AS chips, count(*) AS seated,
               sum(s.net) AS net, min(s.start_stack) AS smallest, any_value(h.stack) AS stack,
               sum(h.carry_in) AS carry
        FROM seats s JOIN hands h USING (run_id, match, hand)
        GROUP BY 1, 2 ORDER BY 1, 2""")
    out = {(r["match"], r["entry"]): r["out_round"] for rows in _places(runs, run_id).values()
           for r in rows}
    assert rounds
    for r in rounds:
        assert r["chips"] == n * stack == n * r["stack"], r
        assert r["net"] == 0 and r["carry"] == 0 and r["smallest"] > 0
        alive = sum(1 for (m, _e), o in out.items() if m == r["match"]
                    and (o is None or o >= r["round"]))
        assert r["seated"] == alive
    per_tournament = {m: max(r["round"] for r in rounds if r["match"] == m) + 1
                      for m in {r["match"] for r in rounds}}
    played = _records(runs, run_id, "SELECT match, any_value(rounds) AS rounds, "
                      "any_value(hands) AS hands FROM places GROUP BY 1")
    hands = dict(query(runs, "SELECT match, count(*) FROM hands GROUP BY 1", run_id)[1])
    for r in played:
        assert per_tournament[r["match"]] == r["rounds"] and hands[r["match"]] == r["hands"]


def test_multi_table_tables_stay_within_one_player_and_break_down_to_a_final_table(runs):
    """Fifteen entries at 4-max: four tables, then fewer as entries bust, within one
    player of each other at every round (the hands of a round are one per table, with
    that table's seats), a table broken as soon as the others can seat its players,
    and a final table."""
    rows = _records(runs, "mtt", "SELECT match, deal AS round, list(players ORDER BY hand) "
                    "AS tables FROM hands GROUP BY 1, 2 ORDER BY 1, 2")
    for m in {r["match"] for r in rows}:
        history = [r["tables"] for r in rows if r["match"] == m]
        assert history[0] == [4, 4, 4, 3]
        for sizes in history:
            assert max(sizes) - min(sizes) <= 1 and max(sizes) <= 4
            assert sum(sizes) > 4 * (len(sizes) - 1)
        counts = [len(s) for s in history]
        assert counts == sorted(counts, reverse=True) and counts[-1] == 1


@pytest.mark.parametrize("run_id", ["sng", "mtt"])
def test_blinds_and_antes_follow_the_levels_by_rounds_played(runs, run_id):
    """Each hand's blinds and ante are those of the last level started by its round."""
    rows = _records(runs, run_id, "SELECT DISTINCT deal AS round, small_blind, big_blind, "
                    "ante FROM hands ORDER BY 1")
    assert max(r["round"] for r in rows) >= 8  # the levels do rise
    for r in rows:
        level = [lv for lv in LEVELS if lv["start"] <= r["round"]][-1]["options"]
        assert [r["small_blind"], r["big_blind"]] == level["blinds"], r
        assert r["ante"] == level.get("ante", 0), r


def test_a_rerun_with_the_same_seed_gives_the_same_rows_in_process(runs, tmp_path):
    """The units' seeds decide everything: the multi-table run played again in this
    process writes the very rows the Ray actors wrote; another seed does not."""
    tables = ("hands", "seats", "actions", "faults", "places")

    def rows(data: Path, run_id: str) -> dict[str, list]:
        return {t: query(data, f"SELECT * EXCLUDE (run_id) FROM {t} ORDER BY ALL",
                         run_id)[1] for t in tables}

    for run_id, seed in (("again", 7), ("other", 8)):
        spec = parse_spec({**SPECS["mtt"], "seed": seed})
        assert RunDriver.create(spec, tmp_path, LocalExecutor(), run_id=run_id).run() \
            .status == "finished"
    ray_rows = rows(runs, "mtt")
    assert rows(tmp_path, "again") == ray_rows and ray_rows["actions"]
    assert rows(tmp_path, "other")["places"] != ray_rows["places"]


def test_tournaments_stopped_at_the_round_limit_get_icm_chip_equity(runs):
    """After ``hands`` rounds the entries still in are placed by chips and valued by ICM:
    the equities sum to the prizes those places pay, and the leaderboard reports each
    bot's ICM chip-EV."""
    for rows in _places(runs, "stop").values():
        assert not any(r["finished"] for r in rows) and rows[0]["rounds"] == 3
        alive = [r for r in rows if r["out_round"] is None]
        assert len(alive) >= 2 and all(r["icm"] is not None for r in alive)
        assert sum(r["icm"] for r in alive) == pytest.approx(sum(r["prize"] for r in alive))
        assert sum(r["chips"] for r in rows) == 6 * 1000
    out = run_freezeout_standings(runs, "stop")
    assert out["stopped"] == 3 and out["finished"] == 0
    for b in out["bots"]:
        assert b["stopped_entries"] == 6
        assert b["icm_ev"]["lo"] <= b["icm_ev"]["value"] <= b["icm_ev"]["hi"]
    assert sum(b["icm_ev"]["value"] * b["entries"] for b in out["bots"]) == pytest.approx(
        3 * 60, abs=0.01)  # the figures are rounded to 4 decimals


def _student(values: list[float]) -> tuple[float, float, float]:
    x = np.asarray(values)
    half = t95(len(x) - 1) * float(x.std(ddof=1)) / np.sqrt(len(x))
    return float(x.mean()), float(x.mean() - half), float(x.mean() + half)


def test_leaderboard_intervals_are_over_tournaments(runs, capsys):
    """Per bot: the mean over tournaments of its entries' place, in-the-money rate and
    prize, each with Student's 95% interval over the tournaments (the independent
    unit), bounded by what the figure can be; ROI is (prize - buy-in) / buy-in; the
    run's checks hold. ``pokerarena leaderboard RUN --json`` prints the same."""
    out = run_freezeout_standings(runs, "sng")
    places = _places(runs, "sng")
    assert [b["entries"] for b in out["bots"]] == [8, 8, 8]
    assert out["checks"]["chips_conserved"] and out["checks"]["payouts_sum_to_pool"]
    assert out["checks"]["rounds_checked"] == sum(r[0]["rounds"] for r in places.values())
    for b in out["bots"]:
        mine = [[r for r in rows if r["bot"] == b["bot"]] for rows in places.values()]
        for key, f, low, high in (("place", lambda r: r["place"], 1, 6),
                                  ("itm", lambda r: r["prize"] > 0, 0, 1),
                                  ("prize", lambda r: r["prize"], 0, 60)):
            value, lo, hi = _student([float(np.mean([f(r) for r in t])) for t in mine])
            got = b[key]
            assert got["value"] == pytest.approx(value, abs=1e-4), key
            assert got["lo"] == pytest.approx(max(lo, low), abs=1e-4), key
            assert got["hi"] == pytest.approx(min(hi, high), abs=1e-4), key
            assert got["tournaments"] == 4 and got["method"] == "normal"
        assert b["roi"]["value"] == pytest.approx((b["prize"]["value"] - 10) / 10, abs=1e-4)
        assert b["icm_ev"] is None
    prizes = [b["prize"]["value"] for b in out["bots"]]
    assert prizes == sorted(prizes, reverse=True)
    capsys.readouterr()
    assert main(["leaderboard", "sng", "--data", str(runs), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == out
    assert main(["leaderboard", "sng", "--data", str(runs)]) == 0
    text = capsys.readouterr().out
    assert "4 freeze-outs of 6 entries" in text and "chips conserved: yes" in text


def test_standings_over_http_are_the_leaderboards(runs):
    """``GET /api/runs/{id}/standings`` of a freeze-out run answers the same standings
    (through the query pool)."""
    app = create_app(runs, token="t", executor_factory=MeteredLocalExecutor, web_dir=None)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=60) as client:
        got = client.get("/api/runs/mtt/standings")
    assert got.status_code == 200, got.text
    assert got.json() == run_freezeout_standings(runs, "mtt")


def test_ordinary_units_write_an_empty_places_part_and_old_runs_still_open(tmp_path):
    """Every unit writes every table (an ordinary one an empty ``places`` part); a run
    written before ``places`` existed (no folder) still reads complete, not damaged."""
    spec = parse_spec(small_spec(hands=20, unit_hands=10))
    assert RunDriver.create(spec, tmp_path, LocalExecutor(), run_id="old").run() \
        .status == "finished"
    store = RunStore(tmp_path, "old")
    assert len(list((store.run_dir / "places").iterdir())) == 2
    assert query(tmp_path, "SELECT count(*) FROM places", "old")[1] == [(0,)]
    shutil.rmtree(store.run_dir / "places")
    assert store.damaged_units() == {}
    con = connect(tmp_path, "old")
    try:
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (20,)
        assert con.execute("SELECT count(*) FROM places").fetchone() == (0,)
    finally:
        con.close()
    # with the folder there, a unit whose places part went missing is damage
    (store.run_dir / "places").mkdir()
    assert set(store.damaged_units()) == {"m00000s00000", "m00000s00001"}


def test_a_freezeout_unit_reports_the_hands_it_played_not_its_round_limit(tmp_path):
    """A freeze-out unit's ``hands`` is its round limit; what it reports (and the driver
    can count) is the hands it played, as many as its ``hands`` rows."""
    spec = parse_spec(SPECS["stop"])
    store = RunStore(tmp_path, "one")
    store.create(spec)
    unit = plan(spec, "one").units[0]
    done = execute_unit(unit, str(store.run_dir))
    assert unit.hands == 3 and done["hands"] == done["rows"]["hands"] == 6
    assert done["rows"]["places"] == 6 and done["rows"]["seats"] == 18


def test_a_multi_table_tournament_stopped_with_more_than_twelve_left_gets_sampled_icm():
    """Exact ICM stops at twelve stacks; a bigger field stopped at its limit gets the
    same model's equity from seeded finishing orders (chips as exponential rates): the
    equities sum to the paid prizes, agree with the exact ones where both exist, and the
    same seed gives the same figures."""
    from pokerarena.tournaments.freezeout import Level, chip_equity, play_freeze_out
    from pokerarena.tournaments.icm import icm_equity

    def stopped() -> list:
        res = play_freeze_out("holdem", ["call", "random"] * 10, betting="no_limit",
                              stack=500, levels=[Level(0, {"blinds": [5, 10]})],
                              table_size=6, max_rounds=2, seed=1)
        assert not res.finished
        return [s for s in res.standings if s.out_round is None]

    alive = stopped()
    assert len(alive) > 12 and all(s.icm is not None and s.icm >= 0 for s in alive)
    assert sum(s.icm for s in alive) == pytest.approx(sum(s.prize for s in alive))
    assert [s.icm for s in stopped()] == [s.icm for s in alive]
    stacks, prizes = [900, 500, 300, 300, 120, 1000, 40, 700], [50.0, 30.0, 20.0]
    sampled = chip_equity(stacks, prizes, np.random.default_rng(1), exact_up_to=0)
    assert sum(sampled) == pytest.approx(100)
    assert sampled == pytest.approx(icm_equity(stacks, prizes), abs=0.6)  # ~4 s.e.


def test_pokerarena_run_of_a_freezeout_writes_no_cash_game_standings(tmp_path, capsys):
    """``pokerarena run`` writes a finished tournament's mbb/hand standings beside it; a
    freeze-out's standings are its places, read live by ``pokerarena leaderboard``."""
    spec = tmp_path / "fo.json"
    spec.write_text(json.dumps(SPECS["stop"]))
    data = tmp_path / "data"
    assert main(["run", str(spec), "--local", "--data", str(data), "--run-id", "cli"]) == 0
    assert not (data / "runs" / "cli" / "standings").exists()
    capsys.readouterr()
    assert main(["leaderboard", "cli", "--data", str(data)]) == 0
    assert "3 freeze-outs of 6 entries" in capsys.readouterr().out


def test_a_freezeout_units_faults_are_rows_of_its_hands():
    """A bot that fails every decision is played by the irregularity policy (check or
    fold): each fault is a ``faults`` row naming a hand of the tournament, counted in
    that hand's seat row and marked in its actions."""
    from pokerarena.workers.freezeout_unit import play_freezeout_unit

    spec = parse_spec({**SPECS["sng"], "bots": ["faulty_bots:RaisingBot", "call"],
                       "freezeout": {**SPECS["sng"]["freezeout"], "tournaments": 1,
                                     "entrants": 4}})
    tables = play_freezeout_unit(plan(spec, "f").units[0]).tables
    faults = tables["faults"].to_pylist()
    hands = set(tables["hands"].column("hand").to_pylist())
    assert faults and all(f["kind"] == "exception" and f["hand"] in hands for f in faults)
    seats = tables["seats"].to_pylist()
    assert sum(s["faults"] for s in seats) == len(faults)
    assert sum(a["fault"] for a in tables["actions"].to_pylist()) == len(faults)
    assert all(s["faults"] == 0 for s in seats if s["bot"] == "call")
    places = tables["places"].to_pylist()
    assert len(places) == 4 and places[0]["bot"] == "call"  # folding loses it all
