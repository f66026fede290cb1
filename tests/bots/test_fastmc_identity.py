"""The strength bots' Monte-Carlo kernel gives exactly the results it gave when its calls
were recorded: every ``fastmc.mc_kernel`` call of a few seeded units (hold'em at 2, 3,
6 and 9 seats under no, pot and fixed limit with the equity bot's narrowed ranges,
Omaha, Omaha hi-lo, seven-card stud, stud hi-lo, razz, short deck, Cincinnati, Lame
Brain Pete, criss-cross, three-card, wild-card stud), replayed from
``tests/data/fastmc_corpus.npz``, recorded by ``benchmarks/fastmc_corpus.py`` with the
kernel as it was before it was tuned. The kernel is tuned for speed; a changed float,
deal count or early stop is a bug: the fast table compares its rows with the
reference path's bit for bit."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import fastmc_corpus as corpus  # noqa: E402

from pokerarena.bots.strength import fastmc  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "fastmc_corpus.npz"
# the recorded results' digest (corpus.results_digest): the file is the one recorded
DIGEST = "dbe46c9f4e4d511dca37"
# a compact sample written out: (flat cards, players, hole_final, board_final, seed,
# max_total, min_total, batch, z, nth, t0..t3, frac of the opponents, score_mode,
# pilot, game) and the result (total as float.hex, used, dealt)
SAMPLE = [  # one call of each group of the corpus (its first)
    (b'\x02\x082\x00\x03&\x02 \x00', 2, 2, 5, 1546249390, 150, 16, 8, 2.0,
     1, 0.56, 0.0, 0.0, 0.0, [1.0],
     0, 0, 'holdem', '0x1.4a00000000000p+6', 150, 150),
    (b'\x02(\x0c\x00\x05&\x02 $1\x00', 2, 2, 5, 456797652, 300, 16, 8, 2.0,
     2, 0.6499999999999999, 0.28555555555555556, 0.0, 0.0, [0.7300000000000001],
     2, 48, 'holdem', '0x1.8000000000000p+0', 16, 20),
    (b'\x02\x1d\x1b\x00\x00\x00\x00\x00', 4, 2, 5, 118626593, 300, 16, 8, 2.0,
     2, 0.531441, 0.38738738738738737, 0.0, 0.0, [0.7250940449970257] * 3,
     1, 48, 'holdem', '0x1.4000000000000p+1', 16, 38),
    (b'\x02&1\x00\x00\x03+3,\x00', 3, 2, 5, 1613669626, 300, 16, 8, 2.0,
     1, 0.36, 0.0, 0.0, 0.0, [0.8319013704780385] * 2,
     2, 48, 'holdem', '0x1.9000000000000p+3', 16, 23),
    (b'\x02#\x19\x00\x00\x03+3,\x00', 3, 2, 5, 1068147483, 150, 16, 8, 2.0,
     2, 0.48999999999999994, 0.36571428571428566, 0.0, 0.0, [1.0] * 2,
     0, 0, 'holdem', '0x1.1000000000000p+5', 120, 120),
    (b'\x04$&\x02 \x00\x03#\x131\x00', 2, 4, 5, 1897597327, 150, 16, 8, 2.0,
     2, 0.6699999999999999, 0.31034482758620685, 0.0, 0.0, [1.0],
     0, 0, 'omaha', '0x1.6000000000000p+4', 48, 48),
    (b'\x04 %3\x07\x00\x03\x1f\x152\x00', 2, 4, 5, 1546249390, 300, 16, 8, 2.0,
     2, 0.6499999999999999, 0.2925, 0.0, 0.0, [0.7469448521860451],
     2, 48, 'omaha', '0x1.9a00000000000p+7', 300, 400),
    (b'\x042,$-\x00\x00\x03\x10*!\x00', 3, 4, 5, 1845165645, 150, 16, 8, 2.0,
     1, 0.3844, 0.0, 0.0, 0.0, [1.0] * 2,
     0, 0, 'omaha', '0x1.5000000000000p+3', 16, 16),
    (b'\x04\x19.\x02&\x00\x00\x03\x10*!\x00', 3, 4, 5, 1417275441, 300, 16, 8, 2.0,
     2, 0.4488999999999999, 0.2830188679245283, 0.0, 0.0, [0.7532979605800553] * 2,
     2, 48, 'omaha', '0x1.2c00000000000p+6', 275, 528),
    (b'\x05\x0c/\x01\x082\x00\x00\x01$\x00', 3, 5, 5, 1546249390, 150, 16, 8, 2.0,
     1, 0.3844, 0.0, 0.0, 0.0, [1.0] * 2,
     0, 0, 'cincinnati', '0x1.c000000000000p+2', 32, 32),
    (b'\x05\x05\x1b\x0b,(\x00\x01$\x00', 2, 5, 5, 252457781, 150, 16, 8, 2.0,
     3, 0.6300000000000001, 0.2657142857142857, 0.3, 0.0, [1.0],
     0, 0, 'cincinnati', '0x1.2400000000000p+5', 72, 72),
    (b'\x05&\x02 3\x00\x00\x03$1\x13\x00', 2, 5, 5, 2090712486, 300, 16, 8, 2.0,
     1, 0.58, 0.0, 0.0, 0.0, [0.7300000000000001],
     2, 48, 'cincinnati', '0x1.6800000000000p+7', 300, 365),
    (b'\x05"*\x1c\x1b\x17\x00\x00\x03%\x0b2\x00', 3, 5, 5, 795984358, 300, 16, 8, 2.0,
     1, 0.36, 0.0, 0.0, 0.0, [1.0, 0.5816999732750144],
     2, 48, 'cincinnati', '0x1.0000000000000p+1', 16, 26),
    (b'\x012\x00\x00\x00\x00', 3, 3, 0, 1546249390, 150, 16, 8, 2.0,
     1, 0.3844, 0.0, 0.0, 0.0, [1.0] * 2,
     0, 0, 'three_card', '0x1.1000000000000p+5', 64, 64),
    (b'\x01\x01\x00\x00\x00', 2, 3, 0, 1897597327, 300, 16, 8, 2.0,
     2, 0.6499999999999999, 0.2657142857142857, 0.0, 0.0, [1.0],
     0, 0, 'three_card', '0x1.3000000000000p+4', 40, 40),
]


@pytest.fixture(scope="module")
def recorded():
    calls, total, counts = corpus.load(str(CORPUS))
    return calls, total, counts


def test_corpus_is_the_recorded_one(recorded):
    calls, total, counts = recorded
    assert len(calls) > 5000
    assert corpus.results_digest(total, counts) == DIGEST
    groups = {corpus.mode_of(c) for c in calls}
    # heads-up and multi-way; no narrowing, pre-flop and made-hand narrowing; the
    # fast tables, Omaha, bit-mask highs and the two/three-card table
    assert {("hu", 0, 1), ("hu", 2, 1), ("multi", 1, 1), ("multi", 2, 1), ("hu", 0, 2),
            ("multi", 2, 2), ("hu", 2, 3), ("multi", 2, 3), ("multi", 0, 4)} <= groups


def test_recorded_calls_rerun_exactly(recorded):
    calls, total, counts = recorded
    got = corpus.replay(calls)
    assert [g[0] for g in got] == total.tolist()  # float equality: the same bits
    assert [list(g[1:]) for g in got] == counts.tolist()


def test_flat_as_uint8_array_same_as_bytes(recorded):
    """The fast table calls the kernel with its rows in a uint8 array, not bytes."""
    calls, total, counts = recorded
    for i in range(0, len(calls), 37):
        c = calls[i]
        flat = np.frombuffer(c[0], dtype=np.uint8).copy()
        got = fastmc.mc_kernel(flat, *c[1:], fastmc._WS)
        assert got == (total[i], counts[i][0], counts[i][1])


@pytest.mark.parametrize("call", SAMPLE)
def test_sample_calls_give_their_recorded_results(call):
    from pokerarena.bots.strength.estimate import Profile
    from pokerarena.engine import Game

    *args, fr, score_mode, pilot, game, total, used, dealt = call
    plan = Profile(Game(game)).plan
    frac = np.ones(16, dtype=np.float64)
    frac[1:args[1]] = fr
    got = fastmc.mc_kernel(*args, frac, score_mode, pilot, plan.deck, *plan.packed,
                            fastmc._WS)
    assert got == (float.fromhex(total), used, dealt)


# the results' digest of corpus.synthetic_calls() under the kernel before it was tuned
# (``benchmarks/fastmc_corpus.py synthetic - OLD.py``)
SYNTHETIC_DIGEST = "90d164863dfd6d6bc1b6"


def test_synthetic_spots_give_the_old_kernels_results():
    """Spots the units make seldom: flushes while a range is narrowed on the flop and
    turn, narrow multi-way ranges, four thresholds, dead cards, a short pilot."""
    calls = corpus.synthetic_calls()
    assert len(calls) == 60 * len(corpus.SYNTHETIC)
    assert {(c[1], c[15]) for c in calls} >= {(2, 1), (5, 1), (2, 2), (5, 2), (3, 0)}
    got = corpus.replay(calls)
    assert corpus.results_digest([g[0] for g in got], [g[1:] for g in got]) \
        == SYNTHETIC_DIGEST
