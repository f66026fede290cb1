"""The strength bots' one-call Monte-Carlo kernel agrees with exact enumeration."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.bots.fastmc import deal_values, share_mean, supported
from pokerarena.bots.strength import _sample
from pokerarena.cards import parse_cards
from pokerarena.evaluator import evaluate_batch, ranking
from pokerarena.evaluator.equity import equity

SPOTS = [  # (hands, board): pre-flop, flop, turn, three-way
    (["AhKh", "QsQd"], ""),
    (["AhKh", "QsQd"], "Qh7h2c"),
    (["9c8c", "AsKd"], "7c6d2h"),
    (["JdTd", "AcAs"], "9d8s2c3h"),
    (["AhKh", "QsQd", "7c6c"], "Jh5c2d"),
]


@pytest.mark.parametrize("hands,board", SPOTS)
def test_kernel_matches_exact_equity(hands, board):
    samples = 20000
    holes = [parse_cards(h) for h in hands]
    b = parse_cards(board) if board else []
    known = {c for h in holes for c in h} | set(b)
    remaining = np.asarray([c for c in range(52) if c not in known], dtype=np.uint8)
    need_board = 5 - len(b)
    _, vals = deal_values(ranking("high"), remaining, 7, samples, holes,
                          [0] * len(holes), b, need_board)
    got = share_mean(vals, np.ones(samples, dtype=np.bool_))
    exact = equity(hands, board, "holdem", exact=True).players[0].equity
    se = max(np.sqrt(exact * (1 - exact) / samples), 1e-3)
    assert abs(got - exact) < 4.5 * se, (got, exact)


def test_kernel_deals_like_sample():
    """Same seed, same cards as the general path's sampler; random opponents' cards."""
    remaining = np.arange(10, 52, dtype=np.uint8)
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    want = _sample(rng_a, remaining, 50, 9)  # board, then two opponents
    drawn, vals = deal_values(ranking("high"), remaining,
                              int(rng_b.integers(0, 2**31 - 1)), 50,
                              [[0, 1], [], []], [0, 2, 2], [], 5)
    assert np.array_equal(drawn, want)
    assert vals.shape == (50, 3)
    mine = np.hstack([np.tile(np.uint8([0, 1]), (50, 1)), want[:, :5]])
    assert np.array_equal(vals[:, 0], evaluate_batch(mine, ranking("high")))
    opp = np.hstack([want[:, 5:7], want[:, :5]])
    assert np.array_equal(vals[:, 1], evaluate_batch(opp, ranking("high")))


def test_supported():
    assert supported(ranking("high"), 7, False)
    assert not supported(ranking("high"), 7, True)
    assert not supported(ranking("high"), 4, False)
    assert not supported(None, 7, False)
