"""The SPRT between real bots: honest error rates and intervals measured over many
seeds, the same decision on one worker or on Ray, and the command as a user runs it."""

from __future__ import annotations

import json
import math
import subprocess

import numpy as np
import pytest

from pokerarena.tournaments.estimates import block_rate
from pokerarena.tournaments.sequential import PairBatch, batches, play_batch, run_test
from pokerarena.tournaments.sprt import Sprt

SAME = ("random", "random")  # two copies of one stochastic bot: a true difference of 0


def _band(p: float, n: int) -> tuple[float, float]:
    half = 3.5 * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


def test_same_bot_intervals_cover_zero_95_percent_of_the_time():
    """200 seeds of 50 duplicate pairs of ``random`` against itself (fixed-limit
    hold'em): the 95% interval of the pair results covers the true 0 in 95% of them
    (within binomial noise of 200 trials)."""
    trials, covered = 200, 0
    for seed in range(trials):
        pairs = play_batch(PairBatch("holdem", "fixed_limit", {}, SAME, 0, 50, seed))
        covered += block_rate(pairs, [1] * len(pairs)).covers(0.0)
    lo, hi = _band(0.95, trials)
    assert lo <= covered / trials <= hi, covered


def test_same_bot_sprt_accepts_h1_at_most_alpha_of_the_time():
    """An SPRT of H0 = 0 against H1 = +1000 mbb/hand between two copies of ``random``:
    over 150 seeds it accepts H1 at most α = 5% of the time (binomial noise allowed),
    and it decides every time well before the hand limit."""
    trials, false_h1, decided = 150, 0, 0
    for seed in range(trials):
        test = Sprt(0.0, 1000.0)
        state = run_test(test, map(play_batch, batches(
            "holdem", "fixed_limit", {}, SAME, seed, 100, 2000)))
        false_h1 += state["decision"] == "H1"
        decided += state["decision"] != "inconclusive"
    assert false_h1 / trials <= _band(0.05, trials)[1], false_h1
    assert decided >= 0.95 * trials


def test_batches_are_a_function_of_the_seed_and_index_only():
    a = play_batch(PairBatch("holdem", "fixed_limit", {}, ("call", "random"), 3, 20, 9))
    b = play_batch(PairBatch("holdem", "fixed_limit", {}, ("call", "random"), 3, 20, 9))
    c = play_batch(PairBatch("holdem", "fixed_limit", {}, ("call", "random"), 4, 20, 9))
    assert a == b and a != c and len(a) == 20


def test_the_decision_is_the_same_on_ray_as_in_process(ray_cluster):
    from pokerarena.commands.tournaments import _on_ray

    todo = list(batches("holdem", "fixed_limit", {}, ("maniac", "call"), 5, 40, 1000))
    local = run_test(Sprt(0.0, 300.0, min_pairs=20), map(play_batch, todo))
    remote = run_test(Sprt(0.0, 300.0, min_pairs=20), _on_ray(todo, ray_cluster, 2))
    assert local == remote
    assert local["pairs"] < 1000 or local["decision"] == "inconclusive"


def test_sprt_command_prints_progress_and_ends_with_json(pokerarena_cli):
    out = subprocess.run(
        [*pokerarena_cli, "sprt", "--bots", "maniac,call", "--betting", "fixed_limit",
         "--h0", "0", "--h1", "500", "--max-hands", "2000", "--batch-pairs", "100",
         "--local", "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    final = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(final) >= {"decision", "hands", "llr", "bounds", "mbb_per_hand", "ci95"}
    assert final["decision"] in ("H0", "H1", "inconclusive")
    assert final["hands"] <= 2000 and final["bounds"] == [-2.944, 2.944]
    assert final["ci95"][0] <= final["mbb_per_hand"] <= final["ci95"][1]
    progress = [ln for ln in out.stderr.splitlines() if "llr" in ln]
    assert progress and "●" in progress[0]
    if final["decision"] != "inconclusive":
        lo, hi = final["bounds"]
        assert final["llr"] >= hi or final["llr"] <= lo


def test_sprt_command_user_errors_are_one_line(pokerarena_cli):
    for args, message in [(["--bots", "call"], "exactly two"),
                          (["--bots", "call,call", "--h0", "5", "--h1", "5"], "differ"),
                          (["--bots", "call,shark"], "shark"),
                          (["--bots", "call,call", "--alpha", "0.7"], "alpha"),
                          (["--bots", "call,call", "--h1", "nan"], "finite")]:
        out = subprocess.run([*pokerarena_cli, "sprt", *args, "--local"],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 2, (args, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def test_pair_results_are_duplicate_pairs():
    """Two copies of ``call`` play identically in both seats: every pair sums to
    exactly zero, which a non-duplicate pairing of hands would not."""
    pairs = play_batch(PairBatch("holdem", "no_limit", {}, ("call", "call"), 0, 30, 2))
    assert pairs == [0.0] * 30
    assert np.isfinite(pairs).all()


@pytest.mark.parametrize("estimator", ["allin", "aivat"])
def test_corrected_pairs_of_two_copies_cancel_exactly(estimator):
    """Two copies of ``call`` under all-in settlement or AIVAT: the twins of a deal see
    the same states and draw the same chance samples, so every pair's corrections
    cancel as its chips do (a twin corrected on other samples would not)."""
    batch = PairBatch("holdem", "no_limit", {}, ("call", "call"), 0, 12, 3, estimator)
    pairs = play_batch(batch)
    assert len(pairs) == 12
    assert np.allclose(pairs, 0.0, atol=1e-6), pairs


def test_sprt_command_tests_aivat_pairs(pokerarena_cli):
    """``--estimator aivat`` runs the same test on AIVAT-corrected pairs and says so."""
    out = subprocess.run(
        [*pokerarena_cli, "sprt", "--bots", "call,random", "--betting", "fixed_limit",
         "--h0", "0", "--h1", "2000", "--max-hands", "400", "--batch-pairs", "50",
         "--estimator", "aivat", "--local", "--json"],
        capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    final = json.loads(out.stdout.strip().splitlines()[-1])
    assert final["estimator"] == "aivat" and final["hands"] <= 400
    assert final["ci95"][0] <= final["mbb_per_hand"] <= final["ci95"][1]
