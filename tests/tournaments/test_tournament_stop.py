"""Early stopping of tournament matches (``stop``): a heads-up match runs a generalized
SPRT on the first bot's duplicate pairs, looked at after each shard in shard order, and
once it decides its later shards are never played. The rows do not depend on the
number of workers; the decision is in the manifest, the run's totals and the summary
the leaderboard shows; a resumed run derives the same decision."""

from __future__ import annotations

import json
import math
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from pokerarena.platform.api.testing import played, table_rows
from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import LocalExecutor, RayExecutor
from pokerarena.platform.query import query
from pokerarena.platform.spec import StopRule, parse_spec
from pokerarena.platform.stages import MatchTest, load_summary
from pokerarena.platform.storage import RunStore

SPEC = {"kind": "tournament", "name": "stop", "seed": 7, "bots": ["tag", "random"],
        "seats": 2, "hands": 4000, "unit_hands": 100, "duplicate": True,
        "games": [{"variant": "holdem", "betting": "fixed_limit"}],
        "stop": {"h0": 0, "h1": 300}}


def decisions(data: Path, run_id: str) -> list[dict]:
    """The run's stopping decisions by match: their content is a function of the rows,
    the order they were logged in is the order the workers happened to land units."""
    return sorted(({k: v for k, v in e.items() if k != "time"}
                   for e in RunStore(data, run_id).events() if e["event"] == "decision"),
                  key=lambda d: d["match"])


@pytest.fixture(scope="module")
def strong_weak(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, RunDriver]:
    data = tmp_path_factory.mktemp("stop")
    return data, "tw", played(data, SPEC, "tw")


def test_a_strong_bot_is_found_ahead_long_before_the_hand_limit(strong_weak) -> None:
    data, run_id, driver = strong_weak
    (d,) = decisions(data, run_id)
    assert (d["decision"], d["ahead"], d["bots"]) == ("H1", "tag", ["tag", "random"])
    assert d["shards"] <= 4 and d["hands"] == 100 * d["shards"] <= SPEC["hands"] / 10
    assert d["pairs"] == 50 * d["shards"] >= 40  # looked at after whole shards only
    # two-sided (the default): alpha/2 per side, so alpha for the whole match
    assert d["llr"] >= d["bounds"][1] == pytest.approx(math.log(0.95 / 0.025), abs=1e-3)
    assert d["hands_saved"] == SPEC["hands"] - d["hands"] and d["units_saved"] == 40 - d["shards"]
    lo, hi = d["ci95"]
    assert 0 < lo < d["mbb_per_hand"] < hi
    # the rows hold exactly the shards played
    _, units = query(data, "SELECT shard FROM units ORDER BY 1", run_id)
    assert [s for (s,) in units] == list(range(d["shards"]))
    # the LLR again, from the rows alone: tag's result per deal, in mbb/hand
    _, pairs = query(data, "SELECT sum(s.net / h.bb) * 1000 / count(*) FROM seats s JOIN "
                     "hands h USING (run_id, match, hand) WHERE s.bot = 'tag' "
                     "GROUP BY h.deal ORDER BY h.deal", run_id)
    x = np.array([p for (p,) in pairs])
    llr = len(x) * 300 * (2 * x.mean() - 300) / (2 * x.var(ddof=1))
    assert len(x) == d["pairs"] and llr == pytest.approx(d["llr"], abs=2e-3)
    # honest totals: the run, its progress and its summary count what it played
    p = driver.progress()
    assert (p.units_total, p.hands_total, p.hands_saved, p.decisions) == \
        (d["shards"], d["hands"], d["hands_saved"], 1)
    info = RunStore(data, run_id).info()
    assert (info.units_done, info.units_total, info.hands_done, info.hands_total) == \
        (d["shards"], d["shards"], d["hands"], d["hands"])
    summary = load_summary(RunStore(data, run_id).run_dir)
    assert summary["decisions"] == [{k: v for k, v in d.items() if k != "event"}]
    assert summary["hands_saved"] == d["hands_saved"] and summary["hands_planned"] == 4000


@pytest.mark.parametrize(("bots", "h1", "hands"), [
    (["call", "call?seed=1"], 100, 400),       # same deterministic bot: every pair is 0
    (["random", "random?seed=1"], 1000, 2000)])
def test_two_copies_of_a_bot_run_to_the_limit_or_accept_h0(tmp_path: Path, bots, h1,
                                                          hands) -> None:
    spec = dict(SPEC, bots=bots, hands=hands, stop={"h0": 0, "h1": h1})
    played(tmp_path, spec, "same")
    (d,) = decisions(tmp_path, "same")
    assert d["decision"] in ("H0", "inconclusive") and d["ahead"] is None
    if d["decision"] == "inconclusive":
        assert d["hands"] == hands and d["hands_saved"] == 0
    else:
        assert d["llr"] <= d["bounds"][0] and d["llr_mirror"] <= d["bounds"][0]
    if bots[0] == "call":
        assert (d["decision"], d["mbb_per_hand"], d["hands"]) == ("inconclusive", 0.0, hands)


def test_identical_rows_and_decisions_on_one_and_two_ray_workers(ray_cluster: str,
                                                                 tmp_path: Path) -> None:
    spec = dict(SPEC, bots=["tag", "random", "call"], hands=1000)
    local = played(tmp_path / "local", spec, "local")
    runs = {w: played(tmp_path / f"ray{w}", spec, f"ray{w}", RayExecutor(w)) for w in (1, 2)}
    want = decisions(tmp_path / "local", "local")
    assert len(want) == 3 and any(d["hands_saved"] for d in want)
    for w, driver in runs.items():
        data = tmp_path / f"ray{w}"
        assert driver.progress().workers == w
        for table in ("hands", "seats", "actions", "faults"):
            assert table_rows(data, f"ray{w}", table) == \
                table_rows(tmp_path / "local", "local", table)
        assert decisions(data, f"ray{w}") == want
        assert driver.progress().units_total == local.progress().units_total


def test_resume_derives_the_same_decision_once(tmp_path: Path, strong_weak) -> None:
    driver = RunDriver.create(parse_spec(SPEC), tmp_path, LocalExecutor(), run_id="r")

    def interrupt(result: dict) -> None:  # the unit is recorded, its test not yet fed
        raise KeyboardInterrupt

    driver.on_unit = interrupt
    with pytest.raises(KeyboardInterrupt):
        driver.run()
    assert decisions(tmp_path, "r") == []
    final = RunDriver.resume(tmp_path, "r", LocalExecutor()).run()
    ref_data, ref_id, _ = strong_weak
    assert final.status == "finished" and final.units_skipped == 1
    assert [dict(d, match=0) for d in decisions(tmp_path, "r")] == decisions(ref_data, ref_id)
    for table in ("hands", "seats", "actions"):
        assert table_rows(tmp_path, "r", table) == table_rows(ref_data, ref_id, table)
    # a third drive finds everything decided: nothing is played, nothing recorded twice
    again = RunDriver.resume(tmp_path, "r", LocalExecutor()).run()
    assert again.units_done == again.units_total == final.units_total
    assert len(decisions(tmp_path, "r")) == 1


def test_the_two_sided_test_says_which_bot_is_ahead() -> None:
    rng = np.random.default_rng(1)
    rule = StopRule(h0=0, h1=300)
    ahead_second = MatchTest(rule, ("a", "b"))
    ahead_second.add(rng.normal(-600, 800, 39))
    assert ahead_second.check() is None  # fewer than 40 pairs: no decision
    ahead_second.add(rng.normal(-600, 800, 200))
    assert ahead_second.check() == ("H1", "b")
    one_sided = MatchTest(StopRule(h0=0, h1=300, two_sided=False), ("a", "b"))
    one_sided.add(rng.normal(-600, 800, 240))
    assert one_sided.check() == ("H0", None)
    even = MatchTest(rule, ("a", "b"))
    even.add(rng.normal(0, 300, 400))
    assert even.check() == ("H0", None)  # both sides accept "not ahead by 300"
    assert even.tests[0].decision == even.tests[1].decision == "H0"


def test_show_lists_the_decisions(strong_weak, pokerarena_cli) -> None:
    data, run_id, _ = strong_weak
    r = subprocess.run([*pokerarena_cli, "show", run_id, "--data", str(data), "--json"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert [d["decision"] for d in info["decisions"]] == ["H1"]
    assert info["units_total"] == info["units_done"] and info["hands_saved"] > 0


def _outcomes(mean: float, two_sided: bool, trials: int = 400) -> Counter:
    """Decisions of ``trials`` matches of heavy-tailed pair results (Student's t with
    5 degrees of freedom, sd 800 mbb/hand, true mean ``mean``), H0 0 against H1 100,
    looked at after shards of 50 pairs, at most 80 shards."""
    rng = np.random.default_rng(1)
    out: Counter = Counter()
    for _ in range(trials):
        test = MatchTest(StopRule(h0=0, h1=100, two_sided=two_sided), ("a", "b"))
        verdict = None
        for _shard in range(80):
            test.add(mean + 800 / math.sqrt(5 / 3) * rng.standard_t(5, 50))
            if (verdict := test.check()) is not None:
                break
        out[verdict] += 1
    return out


def test_error_rates_of_the_shard_by_shard_test() -> None:
    """Measured (400 matches each): one-sided, a true 0 is taken for H1 9 times (2.2%,
    alpha 5%) and a true +100 accepted as H1 385 times (96%, 1 - beta 95%); two-sided, a
    true 0 has one side or the other found ahead 12 times (3%: alpha/2 per side, alpha in
    all; it was 25 times, 6.2%, when each side spent alpha), a true -100 finds the
    second bot ahead 389 times."""
    noise = 3 * math.sqrt(400 * 0.05 * 0.95)  # three binomial standard deviations
    one = _outcomes(0, False)
    assert one[("H1", "a")] <= 400 * 0.05 + noise and one[None] == 0
    assert _outcomes(100, False)[("H1", "a")] >= 400 * 0.95 - noise
    two = _outcomes(0, True)
    assert max(two[("H1", "a")], two[("H1", "b")]) <= 400 * 0.05 + noise
    assert two[("H1", "a")] + two[("H1", "b")] <= 400 * 0.05 + noise
    assert _outcomes(-100, True)[("H1", "b")] >= 400 * 0.95 - noise
