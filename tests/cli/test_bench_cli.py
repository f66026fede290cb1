"""``pokerarena bench evaluator``: runs, prints valid JSON (no timing assertions)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import numpy as np
import pytest

from pokerarena.bench.evaluator import _orders_agree


def _bench(*args):
    return subprocess.run(
        [sys.executable, "-m", "pokerarena.cli", "bench", "evaluator", *args],
        capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(
    ("args", "cards", "game"),
    [
        (["--cards", "7"], 7, "holdem"),
        (["--cards", "5"], 5, "holdem"),
        (["--game", "omaha"], 9, "omaha"),
    ],
)
def test_bench_evaluator_json(args, cards, game):
    out = _bench(*args, "--hands", "3000", "--repeats", "2", "--json")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["cards"] == cards and data["game"] == game and data["hands"] == 3000
    assert data["evals_per_sec"] > 0
    assert data["single_call_us"] > 0
    assert isinstance(data["peers"], dict)
    for rate in data["peers"].values():
        assert rate > 0
    # Every peer that ran must order the hands exactly as our evaluator does (the field
    # is there, one verdict per peer timed, each true).
    agree = data["peers_agree"]
    assert set(agree) == set(data["peers"])
    assert all(ok is True for ok in agree.values())
    if game == "omaha":
        assert "eval7" not in data["peers"]


def test_orders_agree_judges_the_order_only():
    """``peers_agree``'s verdict: the same order under any strictly monotone relabelling
    (either way), never when ties or order differ."""
    ours = np.array([5, 1, 9, 1, 7], dtype=np.int32)
    assert _orders_agree(ours, ours * 3 + 2) and _orders_agree(ours, -ours)
    assert not _orders_agree(ours, np.array([5, 2, 9, 1, 7]))  # a tie split
    assert not _orders_agree(ours, np.array([5, 1, 9, 1, 1]))  # ties made
    assert not _orders_agree(ours, np.array([5, 1, 7, 1, 9]))  # an order swapped


def test_bench_evaluator_human_output():
    out = _bench("--hands", "2000", "--repeats", "1", "--no-peers")
    assert out.returncode == 0, out.stderr
    assert "evals/s" in out.stdout


def test_bench_bad_hands_exit_2():
    out = _bench("--hands", "0")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr


def test_bench_group_accepts_more_children():
    from pokerarena.commands import bench

    def register_extra(sub):
        p = sub.add_parser("extra-test-child")
        p.set_defaults(func=lambda args: 0)

    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers(dest="command")
    bench.add_benchmark(register_extra)
    try:
        bench.register(subparsers)
    finally:
        bench._EXTRA.remove(register_extra)
    args = parser.parse_args(["bench", "extra-test-child"])
    assert args.func(args) == 0
    args = parser.parse_args(["bench", "evaluator", "--hands", "10"])
    assert args.hands == 10 and args.func is bench.run_evaluator
