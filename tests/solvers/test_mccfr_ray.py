"""Hold'em MCCFR in rounds on Ray actors (issue 27): the merge of the slices' regrets is
exact, so the same seed and schedule write the byte-identical strategy file in this
process, on 1 and on 2 actors of the session's cluster, and on a real two-node cluster;
another seed writes another file; the file plays as ``cfr:FILE``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pokerarena.arena.match import play_match
from pokerarena.cli import main
from pokerarena.engine import Game
from pokerarena.solvers.holdem_abstraction import calibrate
from pokerarena.solvers.holdem_mccfr import (
    SliceDelta,
    merge,
    schedule,
    train,
    train_rounds,
    write_holdem,
)
from pokerarena.workers.solve_unit import RaySlices, SolveClusterError, train_on_ray

BUCKETS = (2, 2, 2, 2)
RUN = {"iterations": 1_500, "slices": 4, "slice_iterations": 150}  # 3 rounds, the last short


@pytest.fixture(scope="module")
def ab():
    return calibrate(BUCKETS, samples=50, preflop_samples=500, calibration=300)


@pytest.fixture(scope="module")
def in_process(ab, tmp_path_factory):
    """The reference: the rounds run one slice after the other in this process."""
    path = tmp_path_factory.mktemp("rounds") / "local.json"
    solve = train_rounds(seed=3, abstraction=ab, **RUN)
    write_holdem(path, solve)
    return solve, path.read_bytes()


def _file(solve, path: Path) -> bytes:
    write_holdem(path, solve)
    return path.read_bytes()


def test_the_schedule_covers_every_iteration_once():
    rounds = schedule(1_500, 4, 150)
    assert [len(r) for r in rounds] == [4, 4, 4]      # 600, 600, then 300 split in 4
    starts = [(t.start, t.iterations) for r in rounds for t in r]
    assert sum(n for _, n in starts) == 1_500
    assert all(a + n == b for (a, n), (b, _) in zip(starts, starts[1:], strict=False))
    assert [t.iterations for t in rounds[-1]] == [75, 75, 75, 75]
    assert [len(r) for r in schedule(3, 4, 10)] == [3]   # slices of nothing left out


def test_the_merge_adds_in_slice_order_whatever_order_the_slices_arrive(ab):
    tasks = schedule(3, 3, 1)[0]
    # float addition is not associative: (1 + 1e16) - 1e16 = 0, but (-1e16 + 1e16) + 1 = 1
    deltas = [SliceDelta(t.slice, np.array([0, 2]), np.full((2, 3), v), np.full((2, 3), v))
              for t, v in zip(tasks, (1.0, 1e16, -1e16), strict=True)]
    for arrival in (deltas, deltas[::-1], [deltas[1], deltas[2], deltas[0]]):
        regret, avg = np.zeros((3, 3)), np.zeros((3, 3))
        merge(regret, avg, tasks, arrival)
        assert regret[[0, 2]].tolist() == avg[[0, 2]].tolist() == [[0.0] * 3] * 2
        assert regret[1].tolist() == [0.0] * 3
    with pytest.raises(RuntimeError, match="exactly once"):
        merge(regret, avg, tasks, deltas[:2])


def test_rounds_learn_and_another_seed_writes_another_file(ab, in_process, tmp_path):
    solve, data = in_process
    assert json.loads(data)["schedule"] == {"kind": "rounds", "slices": 4,
                                            "slice_iterations": 150}
    assert b'"seconds"' not in data                    # nothing of the wall clock
    other = _file(train_rounds(seed=4, abstraction=ab, **RUN), tmp_path / "seed4.json")
    assert other != data
    again = _file(train_rounds(seed=3, abstraction=ab, **RUN), tmp_path / "again.json")
    assert again == data
    short = train_rounds(seed=3, abstraction=ab, iterations=300, slices=4,
                         slice_iterations=150)
    assert solve.mean_regret() < 0.75 * short.mean_regret()
    # a round run is not the sequential run (a slice sees a snapshot), but close to it
    seq = train(iterations=1_500, seed=3, abstraction=ab)
    assert not np.array_equal(seq.avg, solve.avg)


def test_one_and_two_ray_workers_write_the_same_file(ab, in_process, ray_cluster, tmp_path):
    """1 actor, then 2; the 2 lose one actor in their second round (killed while its
    slice runs), whose slice the other runs again: the same bytes each time."""
    import ray

    _, data = in_process
    solve, where = train_on_ray(1, seed=3, abstraction=ab, **RUN)
    assert where == {"workers": 1, "nodes": 1}
    assert _file(solve, tmp_path / "w1.json") == data
    runner = RaySlices(2)
    killed = []

    def kill_one(done: int, total: int) -> None:
        if done > 600 and not killed:                 # round 2 under way on both
            killed.append(runner.actors[0])
            ray.kill(runner.actors[0])

    solve = train_rounds(seed=3, abstraction=ab, runner=runner, progress=kill_one, **RUN)
    assert killed and len(runner.pids) == 2 and len(runner.nodes) == 1
    assert _file(solve, tmp_path / "w2.json") == data


def test_too_many_workers_is_one_clear_error(ab, ray_cluster):
    with pytest.raises(SolveClusterError, match="--workers 64: the Ray cluster has"):
        train_rounds(seed=3, abstraction=ab, runner=RaySlices(64), **RUN)


@pytest.mark.parametrize(("argv", "message"), [
    (["holdem", "--algorithm", "mccfr", "--workers", "-1"], "--workers must be at least 0"),
    (["holdem", "--algorithm", "mccfr", "--workers", "1", "--slices", "0"],
     "--slices must be at least 1"),
    (["holdem", "--algorithm", "mccfr", "--workers", "1", "--slice-iterations", "0"],
     "--slice-iterations must be at least 1"),
    (["kuhn", "--workers", "2"], "--workers and --address: holdem --algorithm mccfr only"),
])
def test_bad_worker_arguments_are_one_line_and_status_2(tmp_path, capsys, argv, message):
    out = tmp_path / "x.json"
    assert main(["solve", *argv, "--iterations", "10", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"pokerarena: error: {message}"), err
    assert not out.exists()


def test_the_file_plays_as_a_cfr_bot(in_process, tmp_path):
    path = tmp_path / "rounds.json"
    path.write_bytes(in_process[1])
    res = play_match(Game("holdem", {"betting": "fixed_limit"}), [f"cfr:{path}", "call"],
                     40, seed=2)
    assert not res.faults and res.chips_conserved and res.hands == 40
