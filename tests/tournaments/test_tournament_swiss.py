"""Swiss tournaments as runs: round 1 is the spec's first pairing, each later round is
paired from the rows of the rounds before (no rematch while avoidable, byes for odd
fields, nobody sitting out twice while avoidable), a resumed run derives the same
pairings and plays no unit twice, and Ray gives the rows of one process.

Points per round as in chess: the pairing's winner (more chips over the round's games,
in big blinds) 1, a tie 0.5 each, a bye 1; the scores here are recomputed from the rows
with DuckDB, independently of the driver's reading of the parts."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from pokerarena.platform.api.testing import played, table_rows
from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import LocalExecutor, RayExecutor
from pokerarena.platform.planner import plan
from pokerarena.platform.query import query
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.stages import Schedule, load_summary
from pokerarena.platform.storage import RunStore, part_path
from pokerarena.tournaments.swiss import swiss_pairs, swiss_standings

SPEC = {"kind": "tournament", "format": "swiss", "rounds": 3, "name": "swiss", "seed": 11,
        "bots": ["random", "call", "tag", "rock", "lag"], "seats": 2, "hands": 20,
        "unit_hands": 10, "duplicate": True,
        "games": [{"variant": "holdem", "betting": "fixed_limit"}]}


def stages(data: Path, run_id: str) -> list[tuple]:
    return [(e["round"], e["pairs"], e["byes"], e["matches"])
            for e in RunStore(data, run_id).events() if e["event"] == "stage"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """SPEC played in this process, uninterrupted."""
    data = tmp_path_factory.mktemp("swiss")
    played(data, SPEC, "ref")
    return data, "ref"


def sql_scores(data: Path, run_id: str, rounds: list[tuple]) -> list[dict[str, float]]:
    """Points after each round, from the rows alone (DuckDB)."""
    _, out = query(data, "SELECT s.match, s.bot, sum(s.net / h.bb) FROM seats s JOIN hands h "
                   "USING (run_id, match, hand) GROUP BY ALL", run_id)
    bb = {(m, b): x for m, b, x in out}
    points = dict.fromkeys(SPEC["bots"], 0.0)
    after = []
    for _round, pairs, byes, (lo, hi) in rounds:
        by_pair = {}
        for m in range(lo, hi + 1):
            a, b = next(p for p in pairs if (m, p[0]) in bb and (m, p[1]) in bb)
            by_pair[(a, b)] = (bb[(m, a)], bb[(m, b)])
        for (a, b), (xa, xb) in by_pair.items():
            points[a] += 1.0 if xa > xb else 0.5 if xa == xb else 0.0
            points[b] += 1.0 if xb > xa else 0.5 if xa == xb else 0.0
        for b in byes:
            points[b] += 1.0
        after.append(dict(points))
    return after


def test_first_round_is_the_specs_pairing_and_the_plan() -> None:
    spec = parse_spec(SPEC)
    sched = Schedule(spec, "x", "/nonexistent")
    first = sched.begin([])
    assert first == plan(spec, "x").units
    assert sorted({u.bots for u in first if u.shard == 0}) == sorted(spec.lineups())
    assert (sched.units_total, sched.hands_total) == spec.plan_size()[1:] == (12, 120)
    assert not sched.complete


def test_pairings_avoid_rematches_and_second_byes() -> None:
    """Random results over many fields: R < k rounds never repeat a pairing, an odd
    field's byes go to different bots, and each round pairs the top scorer first."""
    rng = random.Random(3)
    for k in (4, 5, 6, 7, 8, 9):
        bots = [f"b{i}" for i in range(k)]
        done: list[dict] = []
        for _ in range(k - 1):
            scores = {r["bot"]: r["points"] for r in swiss_standings(bots, done)}
            played = {frozenset(x["bots"]) for r in done for x in r["results"]}
            pairs, byes = swiss_pairs(scores, played, {b for r in done for b in r["byes"]})
            assert len(pairs) == k // 2 and len(byes) == k % 2
            assert sorted(itertools.chain(*pairs, byes)) == sorted(bots)
            assert not {frozenset(p) for p in pairs} & played
            top = max(scores.values())
            assert scores[pairs[0][0]] == top
            results = []
            for a, b in pairs:
                xa = rng.choice([-1, 0, 1])
                results.append({"bots": [a, b], "points": [(xa + 1) / 2, (1 - xa) / 2],
                                "exact_bb": [xa, -xa], "hands": [2, 2]})
            done.append({"byes": byes, "results": results})
        all_byes = [b for r in done for b in r["byes"]]
        assert len(all_byes) == len(set(all_byes)) == (k - 1 if k % 2 else 0)


def test_later_rounds_follow_the_scores_in_the_rows(reference) -> None:
    data, run_id = reference
    rounds = stages(data, run_id)
    assert [r[0] for r in rounds] == [1, 2, 3]
    assert [r[3] for r in rounds] == [[0, 1], [2, 3], [4, 5]]  # match numbers continue
    met = [frozenset(p) for r in rounds for p in r[1]]
    assert len(met) == len(set(met)) == 6  # no rematch in 3 rounds of 5 bots
    byes = [b for r in rounds for b in r[2]]
    assert len(byes) == len(set(byes)) == 3  # odd field: a bye a round, never twice
    after = sql_scores(data, run_id, rounds)
    for r in range(1, 3):
        scores = after[r - 1]
        played = {frozenset(p) for rr in rounds[:r] for p in rr[1]}
        gone = {b for rr in rounds[:r] for b in rr[2]}
        assert swiss_pairs(scores, played, gone) == ([tuple(p) for p in rounds[r][1]],
                                                     rounds[r][2])
        assert scores[rounds[r][1][0][0]] == max(scores.values())
    # the rows hold each round's lineups (units.bots, rotated per shard)
    _, units = query(data, "SELECT match, shard, bots FROM units ORDER BY 1, 2", run_id)
    lineups = {m: tuple(b.split(",")) for m, s, b in units if s == 0}
    assert [list(lineups[m]) for m in range(6)] == [p for r in rounds for p in r[1]]
    # the summary: the standings follow the points, Buchholz and mbb/hand
    summary = load_summary(RunStore(data, run_id).run_dir)
    table = summary["standings"]
    assert {r["bot"]: r["points"] for r in table} == after[-1]
    assert sum(r["points"] for r in table) == 3 * 3  # 2 pairings and a bye a round
    keys = [(-r["points"], -r["buchholz"], -r["mbb_per_hand"]) for r in table]
    assert keys == sorted(keys) and [r["rank"] for r in table] == [1, 2, 3, 4, 5]
    info = RunStore(data, run_id).info()
    assert (info.units_done, info.units_total, info.hands_done, info.hands_total) == \
        (12, 12, 120, 120)


def test_resume_after_an_interruption_gives_the_same_pairings_and_rows(
        tmp_path: Path, reference) -> None:
    driver = RunDriver.create(parse_spec(SPEC), tmp_path, LocalExecutor(), run_id="r")
    seen: list[str] = []

    def interrupt(result: dict) -> None:
        seen.append(result["unit_id"])
        if len(seen) == 5:  # round 1 done (4 units), round 2 under way
            raise KeyboardInterrupt

    driver.on_unit = interrupt
    with pytest.raises(KeyboardInterrupt):
        driver.run()
    assert RunStore(tmp_path, "r").info().status == "interrupted"
    again: list[str] = []
    resumed = RunDriver.resume(tmp_path, "r", LocalExecutor(),
                               on_unit=lambda r: again.append(r["unit_id"]))
    final = resumed.run()
    assert final.status == "finished" and final.units_skipped == 5
    assert not set(again) & set(seen) and len(seen) + len(again) == 12
    assert (final.units_done, final.units_total, final.hands_done) == (12, 12, 120)
    ref_data, ref_id = reference
    assert stages(tmp_path, "r") == stages(ref_data, ref_id)  # each round recorded once
    for table in ("hands", "seats", "actions"):
        assert table_rows(tmp_path, "r", table) == table_rows(ref_data, ref_id, table), table
    q = "SELECT unit, match, shard, bots, hands, first_hand, spawn_key FROM units ORDER BY 1"
    assert query(tmp_path, q, "r")[1] == query(ref_data, q, ref_id)[1]


def test_an_even_field_on_ray_gives_the_rows_of_one_process(ray_cluster: str,
                                                            tmp_path: Path) -> None:
    spec = dict(SPEC, bots=[*SPEC["bots"], "maniac"], rounds=4, hands=10)
    played(tmp_path / "ref", spec, "ref")
    ray = played(tmp_path / "ray", spec, "ray", RayExecutor(2))
    for table in ("hands", "seats", "actions", "faults"):
        assert table_rows(tmp_path / "ray", "ray", table) == \
            table_rows(tmp_path / "ref", "ref", table)
    assert stages(tmp_path / "ray", "ray") == stages(tmp_path / "ref", "ref")
    rounds = stages(tmp_path / "ray", "ray")
    met = [frozenset(p) for r in rounds for p in r[1]]
    assert len(met) == len(set(met)) == 12 and not any(r[2] for r in rounds)
    assert ray.progress().units_done == ray.progress().units_total == 4 * 3


def test_a_damaged_first_round_unit_is_replayed_and_later_rounds_are_kept(
        tmp_path: Path, reference) -> None:
    """A resume that must pair round 2 again after replaying a round-1 unit finds
    rounds 2 and 3 landed: it plays only the damaged unit and counts the rest done."""
    played(tmp_path, SPEC, "d")
    store = RunStore(tmp_path, "d")
    seats = part_path(store.run_dir, "seats", "m00001s00001")
    seats.write_bytes(seats.read_bytes()[: seats.stat().st_size // 2])
    again: list[str] = []
    final = RunDriver.resume(tmp_path, "d", LocalExecutor(),
                             on_unit=lambda r: again.append(r["unit_id"])).run()
    assert again == ["m00001s00001"] and final.status == "finished"
    assert (final.units_done, final.units_skipped, final.hands_done) == (12, 11, 120)
    ref_data, ref_id = reference
    assert stages(tmp_path, "d") == stages(ref_data, ref_id)
    for table in ("hands", "seats", "actions"):
        assert table_rows(tmp_path, "d", table) == table_rows(ref_data, ref_id, table), table


def test_swiss_rounds_with_early_stopping(tmp_path: Path) -> None:
    """Every Swiss match is heads-up, so each may stop early: a round is complete once
    each of its matches is played out or stopped, and points count the hands played."""
    spec = dict(SPEC, bots=["tag", "random", "call", "rock"], rounds=2, hands=400,
                unit_hands=100, stop={"h0": 0, "h1": 300})
    driver = played(tmp_path, spec, "ss")
    events = RunStore(tmp_path, "ss").events()
    decided = [e for e in events if e["event"] == "decision"]
    assert sorted(e["match"] for e in decided) == [0, 1, 2, 3]
    assert [e["round"] for e in sorted(decided, key=lambda e: e["match"])] == [1, 1, 2, 2]
    assert any(e["hands_saved"] for e in decided)
    order = [e["event"] for e in events if e["event"] in ("stage", "decision")]
    assert order == ["stage", "decision", "decision"] * 2  # round 2 paired after round 1
    p = driver.progress()
    assert p.units_done == p.units_total == sum(e["shards"] for e in decided)
    _, ((hands,),) = query(tmp_path, "SELECT count(*) FROM hands", "ss")
    assert hands == p.hands_done == 2 * 2 * 400 - sum(e["hands_saved"] for e in decided)
    summary = load_summary(RunStore(tmp_path, "ss").run_dir)
    assert [len(r["results"]) for r in summary["rounds"]] == [2, 2]
    assert sum(r["points"] for r in summary["standings"]) == 4
