"""The strength bots' one-call Monte-Carlo kernels agree with exact enumeration and with
the general numpy path; early stopping, range narrowing and the discard kernel behave."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.bots.strength.estimate import Profile
from pokerarena.bots.strength.fastmc import Plan, mc_equity, sample_rows, supported
from pokerarena.cards import parse_cards
from pokerarena.engine import Game
from pokerarena.evaluator import ranking
from pokerarena.evaluator.equity import equity

SPOTS = [  # (game, hands, board): pre-flop, flop, turn, three-way, Omaha
    ("holdem", ["AhKh", "QsQd"], ""),
    ("holdem", ["AhKh", "QsQd"], "Qh7h2c"),
    ("holdem", ["9c8c", "AsKd"], "7c6d2h"),
    ("holdem", ["JdTd", "AcAs"], "9d8s2c3h"),
    ("holdem", ["AhKh", "QsQd", "7c6c"], "Jh5c2d"),
    ("omaha", ["AhKhQsJd", "9c8c7d6d"], "Th5c2d"),
    ("omaha_hilo", ["As2h3dKc", "QhQdJsTs"], "4c8h9s"),
]


def _rows(holes, board):
    """fixed/fixed_len for mc_equity: one row per player, then the board."""
    width = max(5, *(len(h) for h in holes))
    fixed = np.zeros((len(holes) + 1, width), dtype=np.uint8)
    for i, h in enumerate([*holes, board]):
        fixed[i, :len(h)] = h
    return fixed, np.array([len(h) for h in [*holes, board]], dtype=np.int64)


@pytest.mark.parametrize("game,hands,board", SPOTS)
def test_kernel_matches_exact_equity(game, hands, board):
    samples = 20000
    holes = [parse_cards(h) for h in hands]
    b = parse_cards(board) if board else []
    prof = Profile(Game(game))
    assert prof.plan is not None
    fixed, lens = _rows(holes, b)
    total, used = mc_equity(prof.plan, fixed, lens, len(holes[0]), 5, 7, samples)
    assert used == samples
    got = total / used
    exact = equity(hands, board, game, exact=len(b) >= 3 or game == "holdem"
                   ).players[0].equity
    se = max(np.sqrt(exact * (1 - exact) / samples), 1e-3)
    assert abs(got - exact) < 4.5 * se + (0.01 if len(b) < 3 and game != "holdem" else 0)


def test_sample_rows_is_seeded_and_distinct():
    remaining = np.arange(10, 52, dtype=np.uint8)
    a = sample_rows(remaining, 200, 9, 3)
    assert np.array_equal(a, sample_rows(remaining, 200, 9, 3))
    assert not np.array_equal(a, sample_rows(remaining, 200, 9, 4))
    assert all(len(set(r)) == 9 and set(r) <= set(remaining.tolist()) for r in a)


def test_early_stop_only_when_clear():
    plan = Plan(np.arange(52, dtype=np.uint8), ranking("high"), False, False)
    fixed, lens = _rows([parse_cards("AsAh"), []], parse_cards("Ad7c2h"))
    th = np.array([0.5])
    total, used = mc_equity(plan, fixed, lens, 2, 5, 1, 300, min_total=32, thresholds=th)
    assert used == 32 and total / used > 0.9  # a set of aces: clear at once
    fixed, lens = _rows([parse_cards("9s8s"), []], parse_cards("7d6c2h"))
    total, used = mc_equity(plan, fixed, lens, 2, 5, 1, 300, min_total=32,
                            thresholds=np.array([0.55]))
    assert used > 32  # an open-ended straight draw near the threshold needs more deals


def test_narrowing_shrinks_a_medium_hand():
    prof = Profile(Game("holdem"))
    fixed, lens = _rows([parse_cards("QsJh"), []], parse_cards("Qd7c2h"))
    plain = mc_equity(prof.plan, fixed, lens, 2, 5, 5, 4000)
    same = mc_equity(prof.plan, fixed, lens, 2, 5, 5, 4000, frac=np.ones(2))
    assert plain == same
    narrow = mc_equity(prof.plan, fixed, lens, 2, 5, 5, 4000, frac=np.array([1.0, 0.3]),
                       score_mode=2)
    assert narrow[0] / narrow[1] < plain[0] / plain[1] - 0.1


@pytest.mark.parametrize("game", ["stud7", "stud7_hilo", "omaha_hilo"])
def test_kernel_agrees_with_the_numpy_path(game):
    """A mid-hand view: the one-call kernel and the general arrays give the same
    estimate within sampling error."""
    from pokerarena.arena.views import build_view

    g = Game(game)
    prof = Profile(g)
    hand = g.new_hand(np.random.default_rng(4), 3, [500] * 3, 0)
    view = build_view(hand, hand.to_act)
    opps = [s for s in range(3) if s != view.seat]
    fast, n = prof._fast_equity(view, view.hole, opps, 20000, np.random.default_rng(1),
                                None, (), 20000)
    slow = prof._numpy_equity(view, view.hole, opps, 20000, np.random.default_rng(2), None)
    assert n == 20000
    assert abs(fast - slow) < 0.02, (fast, slow)


def test_supported():
    assert supported(ranking("high"), 7, False)
    assert supported(ranking("high"), 9, True)
    assert not supported(ranking("high"), 4, False)
    assert not supported(None, 7, False)


def test_discard_kernel_keeps_the_pair():
    prof = Profile(Game("draw5"))
    assert prof.draw_plan is not None
    for seed in range(5):
        disc, score = prof.best_discard(parse_cards("AsAhKd7c2s"), 0, 3,
                                        np.random.default_rng(seed))
        assert set(disc) <= set(parse_cards("Kd7c2s")) and len(disc) >= 2
        assert 0.5 < score < 1
    disc, _ = prof.best_discard(parse_cards("AsKsQsJsTs"), 0, 5, np.random.default_rng(1))
    assert disc == ()


def _numba_quantile(values: np.ndarray, q: float) -> float:
    """numba's ``np.quantile`` formula, in Python: linear interpolation between the two
    closest order statistics, weighted as numba weighs them (numpy's own differs from
    it in the last bit)."""
    s = np.sort(values)
    if q == 1.0 or s.size == 1:
        return float(s[-1]) if q == 1.0 else float(s[0])
    if q == 0.0:
        return float(s[0])
    rank = 1 + (s.size - 1) * (q * 100.0 / 100.0)
    f = np.floor(rank)
    m = rank - f
    return float(s[int(f - 1)] * (1 - m) + s[int(f)] * m)


def test_selection_quantile_is_numbas():
    """The narrowing's cut is numba's ``np.quantile`` computed by selection (no copy, no
    sort; compiling numba's own took 10 s of every cold start): the same floats for
    every size, a single value included, within a rounding of numpy's, and numpy's
    refusal of a level outside [0, 1]."""
    from pokerarena.bots.strength.fastmc import _quantile

    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 10, 257):
        for q in (0.0, 0.05, 0.37, 0.5, 0.9, 1.0):
            values = rng.integers(0, 50, n).astype(np.float64)  # ties included
            got = _quantile(values.copy(), q)
            assert got == _numba_quantile(values, q), (n, q)
            assert got == pytest.approx(np.quantile(values, q), rel=1e-12), (n, q)
    assert np.isnan(_quantile(np.empty(0), 0.5))
    with pytest.raises(ValueError, match=r"range \[0, 1\]"):
        _quantile(np.ones(4), 1.5)
