"""AIVAT in runs (issue 26, part 3, "Where it shows"): ``aivat = true`` stores
``seats.aivat_net`` and the leaderboard puts it beside raw and all-in."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerarena.platform.planner import plan
from pokerarena.platform.query import query
from pokerarena.platform.spec import SpecError, parse_spec
from pokerarena.workers.records import play_unit

SPEC: dict[str, Any] = {
    "kind": "tournament", "name": "aivat", "seed": 11, "bots": ["tag", "lag", "random"],
    "seats": 2, "hands": 40, "unit_hands": 20, "duplicate": True, "aivat": True,
    "games": [{"variant": "holdem", "betting": "fixed_limit"}]}
ESTIMATE_KEYS = {"mbb_per_hand", "ci95", "sd", "blocks", "sd_ratio"}


@pytest.fixture(scope="module")
def runs(ray_cluster: str, tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Any]:
    """SPEC played on the session's Ray cluster with and without ``aivat``."""
    from pokerarena.platform.api.testing import played
    from pokerarena.platform.executors import RayExecutor

    data = tmp_path_factory.mktemp("aivat")
    out = {}
    for on in (True, False):
        spec = {**SPEC, "aivat": on, "name": f"aivat-{'on' if on else 'off'}"}
        out[on] = (data, played(data, spec, executor=RayExecutor(2)).run_id)
    return out


def _seats(data: Path, run_id: str) -> list[tuple]:
    return query(data, "SELECT match, hand, seat, bot, net, equity_net, aivat_net FROM seats "
                 "ORDER BY match, hand, seat", run_id)[1]


def test_aivat_net_is_stored_zero_sum_and_unbiased(runs: dict[bool, Any]) -> None:
    """Every seat row has an ``aivat_net``; the two seats' sum to zero on every hand (the
    value function is zero-sum, no rake), and each bot's mean of AIVAT − raw over the
    deals has a 95% interval that covers 0."""
    data, run_id = runs[True]
    rows = _seats(data, run_id)
    assert len(rows) == 3 * 40 * 2 and all(r[6] is not None for r in rows)
    _, sums = query(data, "SELECT max(abs(s)) FROM (SELECT sum(aivat_net) AS s FROM seats "
                    "GROUP BY match, hand)", run_id)
    assert sums[0][0] < 1e-6
    _, diffs = query(data, "SELECT s.bot, sum(s.aivat_net - s.net) / count(*) FROM seats s "
                     "JOIN hands h USING (run_id, match, hand) GROUP BY s.bot, h.match, h.deal",
                     run_id)
    assert any(abs(d) > 1e-9 for _, d in diffs)  # it corrects something
    for bot in SPEC["bots"]:
        d = np.array([x for b, x in diffs if b == bot])
        half = 2.1 * d.std(ddof=1) / np.sqrt(len(d))
        assert abs(d.mean()) <= half, (bot, d.mean(), half)


def test_leaderboard_json_puts_the_estimators_side_by_side(
        runs: dict[bool, Any], pokerarena_cli: list[str]) -> None:
    """``leaderboard --json``: every bot keeps its keys and gains ``estimators`` (raw,
    allin, aivat) on the same blocks, raw equal to the ranking's figure; the
    variance-reduction rows (JSON and the standings Parquet) gain the AIVAT ratio."""
    data, run_id = runs[True]
    got = subprocess.run([*pokerarena_cli, "leaderboard", run_id, "--json", "--data",
                          str(data)], capture_output=True, text=True, check=True)
    out = json.loads(got.stdout)
    assert {r["bot"] for r in out["bots"]} == set(SPEC["bots"])
    for row in out["bots"]:
        est = row["estimators"]
        assert set(est) == {"raw", "allin", "aivat"}
        for e in est.values():
            assert set(e) == ESTIMATE_KEYS and e["blocks"] == row["blocks"]
            assert e["ci95"][0] <= e["mbb_per_hand"] <= e["ci95"][1] and e["sd"] > 0
        assert est["raw"]["mbb_per_hand"] == pytest.approx(row["value"], abs=0.06)
        assert est["raw"]["sd_ratio"] == 1.0
    for r in out["variance_reduction"]:
        assert r["sd_aivat"] is not None and r["aivat_sd_ratio"] is not None
        assert {"sd_equity", "equity_sd_ratio", "sd_baseline"} <= set(r)
    from pokerarena.platform.standings import write_standings

    write_standings(data, run_id)  # what a run ended by the CLI or the service does
    _, stored = query(data, "SELECT pairing, sd_aivat, aivat_sd_ratio FROM "
                      "variance_reduction ORDER BY 1", run_id)
    assert len(stored) == 3 and all(s is not None and x is not None for _, s, x in stored)


def test_without_the_key_nothing_changes_and_the_column_is_null(
        runs: dict[bool, Any]) -> None:
    """The run without ``aivat`` plays the very same hands (reading the policies changes
    no bot's play), stores NULL and shows no estimators."""
    (d_on, on), (d_off, off) = runs[True], runs[False]
    rows_on, rows_off = _seats(d_on, on), _seats(d_off, off)
    assert [r[:6] for r in rows_on] == [r[:6] for r in rows_off]
    assert {r[6] for r in rows_off} == {None}
    from pokerarena.platform.standings import run_standings

    board = run_standings(d_off, off)
    assert all("estimators" not in r for r in board["bots"])
    assert all(r["sd_aivat"] is None and r["aivat_sd_ratio"] is None
               for r in board["variance_reduction"])


def _unit(**changes: Any) -> Any:
    return plan(parse_spec({**SPEC, **changes})).units[0]


def test_duplicate_twins_of_two_calls_correct_alike() -> None:
    """Two copies of ``call`` in duplicate: the two seatings of a deal are the same hand
    seat by seat, and the chance draws are seeded by the deal, so both hands get the
    same ``aivat_net`` in every seat (each entrant's twins cancel)."""
    unit = _unit(kind="match", bots=["call", "call"], seats=None, hands=20, unit_hands=20,
                 name="twins")
    seats = play_unit(unit).tables["seats"].to_pydict()
    av, net = seats["aivat_net"], seats["net"]
    assert av != [float(x) for x in net]
    for k in range(0, len(av), 4):  # deal = hands k/2 and k/2 + 1, two seat rows each
        assert net[k:k + 2] == net[k + 2:k + 4]
        assert av[k:k + 2] == pytest.approx(av[k + 2:k + 4], abs=1e-9)


def test_each_hand_is_what_the_engine_estimator_gives() -> None:
    """The unit's ``aivat_net`` are, hand by hand, what ``aivat_engine``'s pieces give
    when wired by hand around the same ``play_match`` (as ``play_engine_aivat`` does):
    the bots' states copied before each decision, the last street played ahead."""
    from pokerarena.arena.match import play_match
    from pokerarena.bots.base import snapshot_of
    from pokerarena.tournaments.aivat_engine import (
        EngineWalk,
        PolicyRecorder,
        Snapshot,
        _deal_seed,
        _Recording,
        default_value,
    )
    from pokerarena.tournaments.aivat_lookahead import LookaheadAivat
    from pokerarena.workers.records import unit_table

    unit = _unit(bots=["tag", "random"], hands=12, unit_hands=12)
    stored = play_unit(unit).tables["seats"].to_pydict()["aivat_net"]
    t = unit_table(unit)
    walk = EngineWalk(unit.variant, unit.options)
    est = LookaheadAivat(walk, default_value(walk.game))   # what a two-seat table uses
    seated = [PolicyRecorder(b) for b in t.entrants]
    for r in seated:
        r.before = lambda view: Snapshot(view.match_no, view.hand_no,
                                         tuple(snapshot_of(b) for b in t.entrants))
    rec = _Recording(seated)
    seed = unit.deal_seed()
    assert seed is not None  # a tournament's common deals
    mine: list[float] = []

    def on_hand(no: int, hand: Any, seat_of: list[int]) -> None:
        pols, snaps = rec.take(seat_of)
        est.seat_of = list(seat_of)
        got = est.hand(hand, seed=_deal_seed(seed, (unit.first_hand + no) // 2),
                       declared=pols, snapshots=snaps)[1]
        mine.extend(got)

    play_match(t.game, seated, unit.hands, t.table_seed, policy=t.policy, duplicate=True,
               stack=t.stack, match_no=unit.match, on_hand=on_hand,
               on_decision=rec.on_decision, deal_seed=seed)
    assert est.counts["ahead"] > 0
    assert stored == pytest.approx(mine, abs=1e-9)


@pytest.mark.parametrize(("changes", "words"), [
    ({"aivat": "maybe"}, "aivat"),
    ({"seats": 3, "duplicate": False},
     "aivat: AIVAT corrects heads-up tables (2 seats), not tables of 3"),
    ({"kind": "tournament", "bots": ["random", "rule"], "seats": 2,
      "games": [{"variant": "painted"}]}, "aivat: AIVAT corrects heads-up betting poker"),
])
def test_a_bad_value_or_table_is_one_clear_error(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(SpecError, match=re.escape(words)) as exc:
        parse_spec({**SPEC, **changes})
    assert "\n" not in str(exc.value).strip()


def test_units_with_aivat_leave_the_fast_table() -> None:
    """An AIVAT unit is one the fast table refuses by name (its policies are read on the
    reference table); without the key, the same unit may go there."""
    from pokerarena.workers import fasttable
    from pokerarena.workers.records import unit_table

    unit = _unit(duplicate=False, bots=["tag", "lag"])
    t = unit_table(unit)
    assert "AIVAT" in (fasttable.unsupported(unit, t.game, t.entrants) or "")
    plain = dataclasses.replace(unit, aivat=False)
    assert fasttable.unsupported(plain, t.game, t.entrants) is None


def test_a_stop_rule_tests_the_aivat_pairs(tmp_path: Path) -> None:
    """``stop.estimator = "aivat"``: the match's sequential test runs on each deal's
    AIVAT-corrected result, recomputed here from the stored ``aivat_net`` (the raw
    nets would give another LLR); without ``aivat = true`` it is one clear error."""
    from pokerarena.platform.api.testing import played
    from pokerarena.platform.storage import RunStore

    spec = {**SPEC, "name": "aivat-stop", "bots": ["tag", "random"], "hands": 400,
            "unit_hands": 40, "stop": {"h0": 0, "h1": 300, "estimator": "aivat"}}
    played(tmp_path, spec, "st")
    (d,) = [e for e in RunStore(tmp_path, "st").events() if e["event"] == "decision"]
    _, rows = query(tmp_path, "SELECT sum(s.aivat_net / h.bb) * 1000 / count(*), "
                    "sum(s.net / h.bb) * 1000 / count(*) FROM seats s JOIN hands h "
                    "USING (run_id, match, hand) WHERE s.bot = 'tag' GROUP BY h.deal "
                    "ORDER BY h.deal", "st")
    x, raw = np.array([r[0] for r in rows]), np.array([r[1] for r in rows])
    assert len(x) == d["pairs"] and not np.allclose(x, raw)
    llr = len(x) * 300 * (2 * x.mean() - 300) / (2 * x.var(ddof=1))
    assert llr == pytest.approx(d["llr"], abs=2e-3)
    with pytest.raises(SpecError, match="add aivat = true"):
        parse_spec({**spec, "aivat": False})


def test_the_dashboard_ranks_by_every_estimator(runs: dict[bool, Any], browser) -> None:
    """Issue 31's tournament page: the ranking drawn by raw, all-in and AIVAT, each bot
    with its interval per estimator, and the table of the three with AIVAT's ratio of
    standard deviations, as the standings API gives them; a run without AIVAT shows
    the raw ranking alone."""
    import httpx

    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.server import ServedApp

    data, run_id = runs[True]
    _, plain = runs[False]
    with ServedApp(create_app(data, token="t")) as served, \
            httpx.Client(base_url=served.url, timeout=60) as client:
        st = client.get(f"/api/runs/{run_id}/standings").json()
        page = browser.new_page(viewport={"width": 1280, "height": 1400})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{served.url}/#{run_id}")
        page.wait_for_selector(f"#standings[data-standings-for='{run_id}']", timeout=60_000)
        drawn = page.evaluate("""document.getElementById('chart-ranking').data.map(t => ({
            est: t.meta.estimator, bots: t.y, x: t.x, hi: t.error_x.array}))""")
        assert [t["est"] for t in drawn] == ["raw", "allin", "aivat"]
        for t in drawn[1:]:
            assert t["bots"] == [b["bot"] for b in st["bots"]]
            want = [b["estimators"][t["est"]] for b in st["bots"]]
            assert t["x"] == [e["mbb_per_hand"] for e in want]
            assert t["hi"] == pytest.approx([e["ci95"][1] - e["mbb_per_hand"] for e in want])
        b = st["bots"][0]
        row = f"#estimators tr[data-bot='{b['bot']}']"
        aivat = b["estimators"]["aivat"]
        assert page.inner_text(f"{row} td[data-estimator='aivat']").replace("\n", " ") == (
            f"{aivat['mbb_per_hand']:,.1f} [{aivat['ci95'][0]:,.1f}, {aivat['ci95'][1]:,.1f}]")
        page.click(f"tr.run[data-run-id='{plain}']")
        page.wait_for_selector(f"#standings[data-standings-for='{plain}']", timeout=60_000)
        assert page.is_hidden("#estimators")
        assert len(page.evaluate("document.getElementById('chart-ranking').data")) == 1
        page.close()
    assert errors == []


def test_the_standings_parquet_has_every_estimator(runs: dict[bool, Any]) -> None:
    """``estimators.parquet``: each bot's raw, all-in and AIVAT rate with its interval
    and ratio of standard deviations, the leaderboard's figures; no rows without AIVAT."""
    import pyarrow.parquet as pq

    from pokerarena.platform.standings import run_standings, write_standings

    for on in (True, False):
        data, run_id = runs[on]
        write_standings(data, run_id)
        rows = pq.read_table(data / "runs" / run_id / "standings" / "estimators.parquet"
                             ).to_pylist()
        if not on:
            assert rows == []
            continue
        want = run_standings(data, run_id)["bots"]
        assert len(rows) == 3 * len(want)
        for b in want:
            for name, e in b["estimators"].items():
                (row,) = [r for r in rows if (r["bot"], r["estimator"]) == (b["bot"], name)]
                assert (row["mbb_per_hand"], row["lo"], row["hi"], row["sd_ratio"]) == (
                    e["mbb_per_hand"], e["ci95"][0], e["ci95"][1], e["sd_ratio"])
