"""Runs with the in-process executor: rows, determinism, cancel then resume, CLI (no Ray)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest

from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import LocalExecutor
from pokerarena.platform.query import query
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import RunStore, list_runs

SPEC = {"kind": "tournament", "name": "t", "seed": 11, "bots": ["random", "call", "maniac"],
        "seats": 2, "hands": 30, "unit_hands": 12,
        "games": [{"variant": ["holdem", "stud7_hilo"], "betting": "pot_limit"},
                  {"variant": "draw5", "betting": "fixed_limit"}]}


def rows(data: Path, run_id: str, table: str) -> list[tuple]:
    """Every row of a table of one run, without run-specific columns, sorted."""
    extra = (", worker, started_at, play_seconds, write_seconds, bytes, bot_think_seconds"
             if table == "units" else "")
    _, out = query(data, f"SELECT * EXCLUDE (run_id{extra}) FROM {table} ORDER BY ALL", run_id)
    return out


def local_run(data: Path, spec: dict, run_id: str | None = None) -> str:
    driver = RunDriver.create(parse_spec(spec), data, LocalExecutor(), run_id=run_id)
    assert driver.run().status == "finished"
    return driver.run_id


def test_rows_are_complete_and_consistent(tmp_path: Path) -> None:
    run = local_run(tmp_path, SPEC)
    hands_total = 3 * 3 * 30  # 3 games x 3 lineups x 30 hands
    _, ((n, distinct),) = query(tmp_path, "SELECT count(*), count(DISTINCT (match, hand)) "
                                "FROM hands", run)
    assert n == distinct == hands_total
    _, ((seats,),) = query(tmp_path, "SELECT count(*) FROM seats", run)
    assert seats == 2 * hands_total
    # chips: nets, rake and the pot carried to the next deal (a passed deal) sum to what
    # came in; pots are what the winners took
    _, bad = query(tmp_path, "SELECT match, hand FROM seats JOIN hands USING (run_id, match, "
                   "hand) GROUP BY match, hand, rake, pot, carry_in, carry_out "
                   "HAVING sum(net) + rake + carry_out - carry_in <> 0 "
                   "OR sum(pot_won) <> pot - rake", run)
    assert bad == []
    # one decision row per counted decision; every hand starts with its forced bets
    _, bad = query(tmp_path, "SELECT h.match, h.hand FROM hands h JOIN (SELECT match, hand, "
                   "count(*) FILTER (WHERE seat >= 0 AND kind IN ('f','cc','cbr','pb','sd','sm'))"
                   " AS d FROM actions GROUP BY ALL) a USING (match, hand) "
                   "WHERE a.d <> h.decisions", run)
    assert bad == []
    # the built-in bots never fault: every decision is the bot's own answer
    _, out = query(tmp_path, "SELECT (SELECT count(*) FROM actions WHERE fault), "
                   "(SELECT count(*) FROM faults), (SELECT sum(faults) FROM seats)", run)
    assert out == [(0, 0, 0)]
    _, cats = query(tmp_path, "SELECT DISTINCT high_category FROM seats WHERE showdown "
                    "AND variant = 'holdem'", run)
    assert {c for (c,) in cats} <= {"high_card", "one_pair", "two_pair", "three_of_a_kind",
                                   "straight", "flush", "full_house", "four_of_a_kind",
                                   "straight_flush"}
    assert cats
    _, lows = query(tmp_path, "SELECT count(*) FROM seats WHERE variant = 'stud7_hilo' AND "
                    "low_category IS NOT NULL", run)
    assert lows[0][0] > 0
    _, units = query(tmp_path, "SELECT count(*), sum(hands) FROM units", run)
    assert units == [(3 * 3 * 3, hands_total)]
    info = RunStore(tmp_path, run).info()
    assert (info.status, info.units_done, info.hands_done) == ("finished", 27, hands_total)


def test_same_seed_same_rows_other_seed_other_rows(tmp_path: Path) -> None:
    small = dict(SPEC, bots=["random", "call"], hands=16, unit_hands=5)
    a = local_run(tmp_path, small)
    b = local_run(tmp_path, small)
    c = local_run(tmp_path, dict(small, seed=12))
    for table in ("hands", "seats", "actions"):
        assert rows(tmp_path, a, table) == rows(tmp_path, b, table)
    assert rows(tmp_path, a, "seats") != rows(tmp_path, c, "seats")


def test_cancel_then_resume_finishes_without_duplicates(tmp_path: Path) -> None:
    small = dict(SPEC, hands=10, unit_hands=5)
    ref = local_run(tmp_path / "ref", small)
    driver = RunDriver.create(parse_spec(small), tmp_path, LocalExecutor(), run_id="r1")
    seen: list[str] = []

    def stop_after_three(result: dict) -> None:
        seen.append(result["unit_id"])
        if len(seen) == 3:
            driver.cancel()

    driver.on_unit = stop_after_three
    assert driver.run().status == "cancelled"
    info = RunStore(tmp_path, "r1").info()
    assert info.status == "cancelled" and info.units_done == 3
    _, ((partial,),) = query(tmp_path, "SELECT count(*) FROM hands", "r1")
    assert partial == 15
    again: list[str] = []
    resumed = RunDriver.resume(tmp_path, "r1", LocalExecutor(),
                               on_unit=lambda r: again.append(r["unit_id"]))
    final = resumed.run()
    assert final.status == "finished" and final.units_skipped == 3
    assert not set(again) & set(seen) and len(again) == final.units_total - 3
    for table in ("hands", "seats", "actions", "units"):
        assert rows(tmp_path, "r1", table) == rows(tmp_path / "ref", ref, table)


def test_cli_run_runs_show_query(tmp_path: Path, pokerarena_cli) -> None:
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(dict(SPEC, hands=8, unit_hands=8)))
    data = str(tmp_path / "data")
    r = subprocess.run([*pokerarena_cli, "run", str(spec), "--local", "--data", data,
                        "--json", "--run-id", "cli1"], capture_output=True, text=True,
                       timeout=180)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["status"] == "finished" and summary["hands_done"] == 72
    assert "run cli1:" in r.stderr

    r = subprocess.run([*pokerarena_cli, "runs", "--json", "--data", data],
                       capture_output=True, text=True, timeout=120)
    listed = json.loads(r.stdout)
    assert [(x["run_id"], x["status"], x["hands_done"]) for x in listed] == [
        ("cli1", "finished", 72)]

    r = subprocess.run([*pokerarena_cli, "show", "cli1", "--json", "--data", data],
                       capture_output=True, text=True, timeout=120)
    shown = json.loads(r.stdout)
    assert {b["bot"] for b in shown["leaderboard"]} == {"random", "call", "maniac"}
    assert sum(b["net"] for b in shown["leaderboard"]) <= 0  # rake only ever removes chips
    r = subprocess.run([*pokerarena_cli, "show", "cli1", "--data", data],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "leaderboard" in r.stdout

    r = subprocess.run([*pokerarena_cli, "query", "SELECT bot, count(*) AS n FROM seats "
                        "GROUP BY bot ORDER BY bot", "--csv", "--data", data],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert list(csv.reader(io.StringIO(r.stdout))) == [["bot", "n"], ["call", "48"],
                                                        ["maniac", "48"], ["random", "48"]]
    r = subprocess.run([*pokerarena_cli, "query", "SELECT count(*) AS n FROM hands",
                        "--run", "cli1", "--json", "--data", data],
                       capture_output=True, text=True, timeout=120)
    assert json.loads(r.stdout) == [{"n": 72}]


@pytest.mark.parametrize(("sql", "words"), [
    ("SELEC 1", "Parser Error"),
    ("SELECT nope FROM hands", "Binder Error"),
    ("SELECT * FROM no_such_table", "no_such_table"),
])
def test_cli_query_errors_exit_2_with_duckdbs_message(tmp_path: Path, pokerarena_cli,
                                                      sql: str, words: str) -> None:
    r = subprocess.run([*pokerarena_cli, "query", sql, "--data", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert words in r.stderr and "Traceback" not in r.stderr


def test_query_of_unknown_run_and_empty_data(tmp_path: Path, pokerarena_cli) -> None:
    _, out = query(tmp_path, "SELECT count(*) FROM hands")
    assert out == [(0,)]
    assert list_runs(tmp_path) == []
    r = subprocess.run([*pokerarena_cli, "query", "SELECT 1", "--run", "nope", "--data",
                        str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "no run 'nope'" in r.stderr


def test_duplicate_deals_give_every_bot_the_same_cards(tmp_path: Path) -> None:
    spec = dict(SPEC, bots=["tag", "call", "random"], seats=3, hands=12, unit_hands=6,
                duplicate=True, games=[{"variant": "holdem", "betting": "fixed_limit"}])
    run = local_run(tmp_path, spec)
    # each deal is played in all 6 seatings of 3 players: each bot holds each seat's
    # cards twice (once against each order of the other two), and every seating occurs
    _, bad = query(tmp_path, "SELECT match, deal, seat, bot FROM seats JOIN hands USING "
                   "(run_id, match, hand) GROUP BY ALL HAVING count(*) <> 2", run)
    assert bad == []
    _, bad = query(tmp_path, "SELECT match, deal, seat FROM seats JOIN hands USING (run_id, "
                   "match, hand) GROUP BY ALL HAVING count(*) <> 6 OR count(DISTINCT bot) <> 3"
                   " OR count(DISTINCT cards) <> 1", run)
    assert bad == []
    _, orders = query(tmp_path, "SELECT match, deal, count(DISTINCT order_) FROM (SELECT "
                      "match, deal, hand, string_agg(bot, ',' ORDER BY seat) AS order_ FROM "
                      "seats JOIN hands USING (run_id, match, hand) GROUP BY ALL) GROUP BY ALL",
                      run)
    assert {n for _, _, n in orders} == {6}
    _, ((deals, hands),) = query(tmp_path, "SELECT count(DISTINCT (match, deal)), count(*) "
                                 "FROM hands", run)
    assert (deals, hands) == (2, 12)
    from pokerarena.platform.spec import SpecError

    with pytest.raises(SpecError, match="^unit_hands: with duplicate deals, a multiple of "
                       "the 6 seatings"):
        parse_spec(dict(spec, unit_hands=3))


def test_faults_are_recorded_per_decision_and_per_kind(tmp_path: Path) -> None:
    # A decision limit of 0.1 microseconds: every answer comes too late, so every decision
    # is the irregularity policy's (check if free, else fold) and is recorded as a fault.
    spec = {"kind": "match", "seed": 2, "bots": ["tag", "call"], "hands": 6,
            "games": [{"variant": "holdem", "betting": "no_limit"}],
            "limits": {"decision_seconds": 1e-7, "max_faults": 2}}
    run = local_run(tmp_path, spec)
    _, out = query(tmp_path, "SELECT bool_and(fault), count(*) FROM actions WHERE seat >= 0 "
                   "AND kind IN ('f', 'cc', 'cbr', 'pb', 'sd', 'sm')", run)
    assert out[0][0] is True and out[0][1] > 0
    _, out = query(tmp_path, "SELECT bot, kind, count(*) FROM faults GROUP BY ALL "
                   "ORDER BY ALL", run)
    # two timeouts each, then the bot is removed; later decisions are the policy's
    # without being asked (still flagged in actions, no new fault rows)
    assert out == [("call", "removed", 1), ("call", "timeout", 2),
                   ("tag", "removed", 1), ("tag", "timeout", 2)]
    _, out = query(tmp_path, "SELECT count(*) FROM actions WHERE kind = 'cbr'", run)
    assert out == [(0,)]  # the policy never bets
    _, out = query(tmp_path, "SELECT sum(faults) FROM seats", run)
    assert out[0][0] == query(tmp_path, "SELECT count(*) FROM actions WHERE fault", run)[1][0][0]


def test_units_record_each_bots_decisions_and_thinking(tmp_path: Path,
                                                       pokerarena_cli: list[str]) -> None:
    """Every unit records its entrants' decisions and think time in lineup order; the
    leaderboard turns them into decisions per second, ``show`` into the bots' share of
    the play time; runs written before these columns still read (NULL)."""
    spec = {"kind": "tournament", "name": "think", "seed": 5, "bots": ["tag", "call"],
            "seats": 2, "hands": 20, "unit_hands": 10,
            "games": [{"variant": "holdem", "betting": "no_limit"}]}
    run = local_run(tmp_path, spec)
    _, units = query(tmp_path, "SELECT bots, bot_decisions, bot_think_seconds, play_seconds "
                     "FROM units", run)
    assert len(units) >= 2
    for bots, decisions, think, play in units:
        assert len(decisions) == len(think) == len(bots.split(",")) == 2
        assert all(d >= 10 for d in decisions)  # at least one decision per hand each
        assert all(t > 0 for t in think) and sum(think) < play
    _, board = query(tmp_path, "SELECT bot, decisions, decisions_per_s FROM leaderboard "
                     "ORDER BY bot", run)
    by_bot = {b: (d, r) for b, d, r in board}
    _, ((tag_decisions,),) = query(
        tmp_path, "SELECT count(*) FROM actions WHERE bot = 'tag' AND seat >= 0 "
        "AND kind IN ('f', 'cc', 'cbr', 'pb', 'sd', 'sm')", run)
    assert by_bot["tag"][0] == tag_decisions
    # decisions per second: each bot's decisions over its thinking time in the units
    # (which of two bots thinks faster depends on the machine: not asserted)
    think: dict[str, list[float]] = {}
    for bots, decisions, secs, _ in units:
        for bot, d, t in zip(bots.split(","), decisions, secs, strict=True):
            think.setdefault(bot, [0, 0.0])
            think[bot][0] += d
            think[bot][1] += t
    for bot, (d, t) in think.items():
        assert by_bot[bot][0] == d and by_bot[bot][1] == round(d / t) > 0
    out = subprocess.run([*pokerarena_cli, "show", run, "--data", str(tmp_path), "--json"],
                         capture_output=True, text=True, check=True)
    info = json.loads(out.stdout)
    assert 0 < info["bots_think_share"] < 1
    assert {r["bot"] for r in info["leaderboard"]} == {"tag", "call"}
    # a run written before the columns existed: its units part without them
    import pyarrow.parquet as pq

    for part in (tmp_path / "runs" / run / "units").glob("unit=*/*.parquet"):
        t = pq.read_table(part)
        pq.write_table(t.drop_columns(["bot_decisions", "bot_think_seconds"]), part)
    _, board = query(tmp_path, "SELECT bot, hands, decisions_per_s FROM leaderboard", run)
    assert len(board) == 2 and all(r[1] == 20 and r[2] is None for r in board)
