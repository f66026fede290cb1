"""``pokerarena bench evaluator --peer-bin``: the native-driver protocol, the ordering
check of the driver's values, and bad options (exit 2).

The drivers here are small Python programs speaking the protocol of
pokerarena/bench/evaluator.py (the real ones are built from the peers' sources, outside
the project: docs/evaluator.md); one orders hands as we do, one does not.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pokerarena.bench.evaluator import bench_evaluator, time_sequential
from pokerarena.errors import UserError

DRIVER = '''\
import json, sys
kind, path, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
if kind in "{lacks}".split(","):
    sys.exit(3)  # built without this kind
result = json.dumps({{"kind": kind, "evals_per_sec": 1e6, "evals_per_cpu_sec": 2e6}})
if len(sys.argv) <= 5:  # no values asked for: the timing line alone
    print(result)
    sys.exit(0)
import numpy as np
from pokerarena.evaluator import evaluate_batch, evaluate_omaha_batch
rows = np.fromfile(path, dtype=np.uint8).reshape(-1, k)
if kind == "phe_omaha":
    values = evaluate_omaha_batch(np.ascontiguousarray(rows[:, :4]),
                                  np.ascontiguousarray(rows[:, 4:]))
else:
    values = evaluate_batch(rows)
ranks = np.unique(values, return_inverse=True)[1].astype(np.uint16)
if kind == "phe7":
    ranks = (ranks.max() - ranks).astype(np.uint16)  # lower is better, as PHEvaluator
if "{broken}" == "yes":
    ranks = ranks[::-1].copy()  # each hand gets another's value
if len(sys.argv) > 5:
    ranks.tofile(sys.argv[5])
print(result)
'''


def _driver(tmp_path: Path, broken: bool, lacks: str = "") -> str:
    script = tmp_path / ("broken" if broken else "driver")
    script.write_text(f"#!{sys.executable}\n"
                      + DRIVER.format(broken="yes" if broken else "no", lacks=lacks))
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_native_rounds_against_a_driver(tmp_path: Path, game: str) -> None:
    rounds = 2 if game == "holdem" else 1
    r = bench_evaluator(game=game, hands=4000, repeats=1, peers=False,
                        peer_bin=_driver(tmp_path, broken=False), rounds=rounds)
    native = r["native"]
    names = ({"phevaluator_c_omaha"} if game == "omaha"
             else {"ompeval", "ompeval_prebuilt", "phevaluator_c"})
    assert set(native["agree"]) == names and all(native["agree"].values())
    assert set(native["evals_per_sec"]) == names | {"pokerarena"}
    for name in names:
        assert native["evals_per_sec"][name] == 1e6
        assert native["evals_per_cpu_sec"][name] == 2e6
        assert native["ratio"][name] == native["evals_per_sec"]["pokerarena"] / 1e6
        assert native["cpu_ratio"][name] == native["evals_per_cpu_sec"]["pokerarena"] / 2e6
    assert native["rounds"] == rounds and len(native["load_avg_1min"]) == 2
    assert native["unsupported"] == []
    assert native["machine"]["logical_cpus"] == os.cpu_count() and native["machine"]["cpu"]


def test_a_driver_that_orders_otherwise_is_reported(tmp_path: Path) -> None:
    r = bench_evaluator(hands=3000, repeats=1, peers=False,
                        peer_bin=_driver(tmp_path, broken=True), rounds=1)
    assert r["native"]["agree"] == {"ompeval": False, "ompeval_prebuilt": False,
                                    "phevaluator_c": False}


def test_kinds_a_driver_was_built_without_are_left_out(tmp_path: Path) -> None:
    """A driver of OMPEval alone (exit 3 for PHEvaluator's kind): the others are timed;
    without ``omp_seq``, ``--sequential`` is one clear error."""
    driver = _driver(tmp_path, broken=False, lacks="phe7,omp_seq")
    native = bench_evaluator(hands=3000, repeats=1, peers=False, rounds=1,
                             peer_bin=driver)["native"]
    assert native["unsupported"] == ["phevaluator_c"]
    assert set(native["evals_per_sec"]) == {"pokerarena", "ompeval", "ompeval_prebuilt"}
    assert set(native["ratio"]) == set(native["agree"]) == {"ompeval", "ompeval_prebuilt"}
    with pytest.raises(UserError, match="without the omp_seq kind"):
        time_sequential(driver, 1)


def test_a_failing_driver_is_one_clear_error(pokerarena_cli: list[str],
                                             tmp_path: Path) -> None:
    crashing = tmp_path / "crash"
    crashing.write_text("#!/bin/sh\necho boom >&2\nexit 1\n")
    crashing.chmod(0o755)
    proc = subprocess.run([*pokerarena_cli, "bench", "evaluator", "--hands", "1000",
                           "--no-peers", "--rounds", "1", "--peer-bin", str(crashing)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 2, proc.stderr
    assert "exit 1: boom" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("args", "needle"), [
    (["--peer-bin", "/nonexistent/peerbench"], "not an executable file"),
    (["--peer-bin", sys.executable, "--rounds", "0"], "--rounds must be at least 1"),
])
def test_bad_native_options_exit_2(pokerarena_cli: list[str], args: list[str],
                                   needle: str) -> None:
    proc = subprocess.run([*pokerarena_cli, "bench", "evaluator", "--hands", "1000", *args],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 2
    assert needle in proc.stderr and "Traceback" not in proc.stderr
