"""LBR in units on Ray actors (issue 27, ``exploit --workers N``): a pair's result depends
on the seed and its number only, so any cut of the pairs into units, played in any order,
in this process or on 1 or 2 actors of the session's cluster (one of them killed while
the run goes on), gives the same pairs and the same document; bad ``--workers`` values
are one line and status 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokerarena.cli import main
from pokerarena.solvers.lbr import (
    LbrConfig,
    LbrJob,
    PairPlayer,
    PairRunner,
    lbr_value,
    pair_seeds,
    units_of,
)
from pokerarena.workers.lbr_unit import LbrClusterError, RayPairs, lbr_on_ray

FL = {"betting": "fixed_limit"}
CLOCK = ("seconds", "hands_per_second", "cpu_seconds")  # the clocks: the only keys that differ


def _figures(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in CLOCK}


@pytest.fixture(scope="module")
def reference():
    """Fixed-limit hold'em against ``random`` (its own generator and LBR's rollouts both
    draw), 24 hands in this process: the per-pair totals and the document."""
    totals = PairPlayer("holdem", FL, "random", seed=5).run(0, 12).totals
    return totals, lbr_value("holdem", FL, "random", 24, seed=5)


def test_a_range_of_pairs_is_the_same_wherever_it_starts(reference):
    totals, _ = reference
    assert pair_seeds(5, 4, 9) == pair_seeds(5, 0, 9)[4:]
    assert units_of(12, 5) == [(0, 5), (5, 10), (10, 12)]
    player = PairPlayer("holdem", FL, "random", seed=5)   # the later pairs first
    late, early = player.run(7, 12), player.run(0, 7)
    assert late.start == 7 and np.array_equal(np.concatenate([early.totals, late.totals]),
                                              totals)
    other = PairPlayer("holdem", FL, "random", seed=6).run(0, 12).totals
    assert not np.array_equal(other, totals)              # and the seed matters


def test_the_unit_size_does_not_move_the_figures(reference):
    _, doc = reference
    for unit in (1, 5):
        got = lbr_value("holdem", FL, "random", 24, seed=5, runner=PairRunner(),
                        unit_pairs=unit)
        assert _figures(got) == _figures(doc)


def test_one_actor_gives_the_document_of_this_process(reference, ray_cluster):
    _, doc = reference
    got, where = lbr_on_ray(1, "holdem", FL, "random", 24, seed=5, unit_pairs=3)
    assert where == {"workers": 1, "nodes": 1}
    assert _figures(got) == _figures(doc)


def test_two_actors_one_killed_give_the_same_pairs(reference, ray_cluster):
    """Six units on two actors; one actor is killed after the first unit comes back, so
    its unit (or its next) is played again by the other: every pair's total is the same."""
    import ray

    totals, _ = reference
    job = LbrJob("holdem", FL, "random", LbrConfig(), 5)
    runner = RayPairs(2)
    runner.start(job)
    victim = runner.actors[0]
    killed = []

    def kill_one(n: int) -> None:
        if not killed:
            killed.append(victim)
            ray.kill(victim)

    try:
        parts = runner.run(job, units_of(12, 2), kill_one)
    finally:
        runner.close()
    assert killed and runner.replayed >= 1 and len(runner.pids) == 2
    parts.sort(key=lambda r: r.start)
    assert [p.start for p in parts] == [0, 2, 4, 6, 8, 10]
    assert np.array_equal(np.concatenate([p.totals for p in parts]), totals)


def test_the_command_prints_the_same_document_on_two_workers(capsys, ray_cluster):
    argv = ["exploit", "--variant", "leduc", "--method", "lbr", "--bot", "random",
            "--hands", "30", "--seed", "2", "--json"]
    assert main(argv) == 0
    here = json.loads(capsys.readouterr().out)
    assert main([*argv, "--workers", "2", "--unit-pairs", "4",
                 "--address", ray_cluster]) == 0
    there = json.loads(capsys.readouterr().out)
    assert here["method"] == "lbr" and here["hands"] == 30 and here["pairs"] == 15
    assert _figures(there) == _figures(here)


@pytest.mark.parametrize(("extra", "message"), [
    (["--workers", "-1"], "exploit: --workers must be at least 0, got -1"),
    (["--workers", "1", "--unit-pairs", "0"], "exploit: --unit-pairs must be at least 1"),
    (["--address", "127.0.0.1:1"], "exploit: --address needs --workers N"),
    (["--workers", "64"], "--workers 64: the Ray cluster has 2 CPUs"),
    (["--workers", "1", "--bot", "nosuchbot"], "nosuchbot"),
])
def test_bad_worker_arguments_are_one_line_and_status_2(capsys, ray_cluster, extra,
                                                         message):
    argv = ["exploit", "--variant", "leduc", "--method", "lbr", "--bot", "random",
            "--hands", "4", "--json", *extra]
    if "--workers" in extra and extra[extra.index("--workers") + 1] != "-1":
        argv += ["--address", ray_cluster]
    assert main(argv) == 2
    out = capsys.readouterr()
    err = out.err.strip().splitlines()
    assert out.out == "" and len(err) == 1 and message in err[0], err


def test_workers_are_for_lbr_only(capsys):
    assert main(["exploit", "--variant", "leduc", "--bot", "call", "--workers", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--workers and --address are for LBR" in err[0], err


def test_the_ray_runner_wants_a_worker():
    with pytest.raises(LbrClusterError, match="at least 1"):
        RayPairs(0)
