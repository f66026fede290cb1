"""The kernels' table-free rankings (bit-mask highs of any size, deuce-to-seven, badugi,
ace-to-five with jokers, two- and three-card tables) order hands exactly as the
evaluator does, and the equity kernel's shares in the games they serve (razz, stud
low, Cincinnati, three-card) equal :meth:`Profile.shares` on dealt hands."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_check import assert_each_deal_scores

from pokerarena.bots.strength import drawmc, fastmc
from pokerarena.bots.strength.estimate import Profile
from pokerarena.engine import Game
from pokerarena.evaluator import evaluate_batch, ranking


def _dense(v: np.ndarray) -> np.ndarray:
    return np.unique(v, return_inverse=True)[1]


@pytest.mark.parametrize("name,wild,deck,size,mode", [
    ("high", "none", "standard", 5, fastmc.HI_BITS),
    ("high", "none", "standard", 7, fastmc.HI_BITS),
    ("high", "none", "standard", 10, fastmc.HI_BITS),
    ("high", "none", "standard", 3, fastmc.HI_BITS),
    ("27_low", "none", "standard", 5, fastmc.HI_27),
    ("badugi", "none", "standard", 4, fastmc.HI_BADUGI),
    ("a5_low", "jokers", "standard+joker", 5, fastmc.HI_A5_WILD),
    ("three_card", "none", "standard", 3, fastmc.HI_SMALL),
    ("two_card", "none", "standard", 2, fastmc.HI_SMALL),
])
def test_kernel_values_order_hands_like_the_evaluator(name, wild, deck, size, mode):
    rk = ranking(name, wild=wild, deck=deck)
    n = 54 if "joker" in deck else 52
    plan = fastmc.Plan(np.arange(n, dtype=np.uint8), rk, False, False, rk, mode)
    rng = np.random.default_rng(11)
    hands = np.stack([rng.choice(n, size, replace=False) for _ in range(6000)])
    if size >= 5 and name == "high":  # many flushes and straight flushes too
        suited = np.stack([rng.choice(13, size, replace=False) * 4 + (i % 2)
                           for i in range(1500)])
        hands = np.vstack([hands, suited])
    hands = hands.astype(np.uint8)
    got = drawmc.values(plan, hands, mode)
    want = evaluate_batch(hands, rk)
    assert np.array_equal(_dense(got), _dense(want))


def test_mode_for():
    assert fastmc.mode_for(ranking("high"), (7,)) == fastmc.HI_TABLE
    assert fastmc.mode_for(ranking("high"), (10,)) == fastmc.HI_BITS
    assert fastmc.mode_for(ranking("short_deck", deck="short"), (10,)) is None
    assert fastmc.mode_for(ranking("27_low"), (4,)) is None
    assert fastmc.mode_for(ranking("high", wild="deuces"), (5,)) is None


@pytest.mark.parametrize("variant", ["razz", "stud_low", "cincinnati", "three_card",
                                     "two_card", "crisscross"])
def test_kernel_shares_match_numpy_path(variant):
    """One kernel deal with every card known is the exact share; it must equal the
    share by the batch evaluator's values deal by deal (:meth:`Profile.shares` gives
    no pot to a paired ace-to-five low, so low games are checked against the
    evaluator directly)."""
    prof = Profile(Game(variant))
    assert prof.plan is not None and prof.plan.hi_mode != fastmc.HI_TABLE or \
        variant in ("razz", "stud_low")
    rng = np.random.default_rng(5)
    h, nb = prof.hole_final, prof.board_final
    deals = 400
    rows = np.stack([rng.choice(prof.deck, 3 * h + nb, replace=False) for _ in range(deals)])
    mine, opp1, opp2 = rows[:, :h], rows[:, h:2 * h], rows[:, 2 * h:3 * h]
    boards = rows[:, 3 * h:] if nb else None
    rk = prof.high if prof.high is not None else prof.low
    vals = np.stack([evaluate_batch(np.hstack([p, boards]) if nb else p, rk)
                     for p in (mine, opp1, opp2)])
    best = vals.max(axis=0)
    want = np.where(vals[0] == best, 1.0 / (vals == best).sum(axis=0), 0.0)
    if prof.high is not None:
        assert np.allclose(want, prof.shares(mine, [opp1, opp2], boards))
    assert_each_deal_scores(prof, rows, want)


@pytest.mark.parametrize("variant,size", [("badugi", 4), ("draw27_triple", 5),
                                          ("lowball", 5), ("draw5_shotgun", 3),
                                          ("spit", 4)])
def test_draw_percentile_matches_batch_percentile(variant, size):
    prof = Profile(Game(variant))
    assert prof.draw_plan_for(size) is not None
    rng = np.random.default_rng(3)
    for _ in range(300):
        hand = rng.choice(prof.deck, size, replace=False).tolist()
        assert prof.hand_percentile(hand) == pytest.approx(prof.percentile(
            np.asarray([hand], dtype=np.uint8), size)[0])


@pytest.mark.parametrize("nb", [3, 4])
def test_omaha_partial_board_score_is_the_best_two_plus_three(nb):
    """Narrowing scores an Omaha holding on a flop or turn by its best five-card high
    (two hole cards, three of the board): against the evaluator over every choice."""
    import itertools

    from pokerarena.evaluator import evaluate

    prof = Profile(Game("omaha"))
    t = prof.plan.tables
    ck = t.card_keys
    hi = ranking("high")
    rng = np.random.default_rng(17 + nb)
    subkeys = np.zeros(4, dtype=np.uint64)
    subsm = np.zeros((4, 4), dtype=np.int64)
    for _ in range(300):
        cards = rng.choice(52, 4 + nb, replace=False).astype(np.uint8)
        hand, board = cards[:4].copy(), cards[4:].copy()
        nsub = fastmc._board_threes(board, ck, subkeys, subsm)
        assert nsub == (1 if nb == 3 else 4)
        got = fastmc._omaha_partial(hand, 4, subkeys, subsm, nsub, ck, t.flush, t.shift5,
                                    t.offsets5, t.values5, t.ranks_only)
        want = max(evaluate([*two, *three], hi)
                   for two in itertools.combinations(hand.tolist(), 2)
                   for three in itertools.combinations(board.tolist(), 3))
        assert got == want
