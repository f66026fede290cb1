"""The kernels' reused workspace and dead-card masks give the reference results on
dealt hands: the Monte-Carlo kernel with the shared workspace equals it with a fresh
one each call, and the discard kernel drawing from the deck less a dead-card mask
equals it drawing from :func:`drawmc.remaining_cards`."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

from pokerarena.bots.strength import drawmc, fastmc
from pokerarena.bots.strength.estimate import _discard_masks, profile
from pokerarena.engine.game import Game
from pokerarena.evaluator import kernels


def _run(plan, cards, players, hole_final, board_final, seed, ws):
    t = (0.4, 0.6, 0.0, 0.0)
    return fastmc.mc_kernel(cards, players, hole_final, board_final, seed, 150, 32, 16,
                             2.0, 2, *t, fastmc._NO_NARROW, fastmc.SCORE_NONE, 0,
                             plan.deck, *plan.packed, ws)


@pytest.mark.parametrize("variant", ["holdem", "omaha", "omaha_hilo", "cincinnati",
                                     "stud7", "razz"])
def test_shared_workspace_matches_a_fresh_one(variant):
    prof = profile(Game(variant))
    plan = prof.plan
    assert plan is not None
    rng = random.Random(3)
    deck = prof.deck_list
    for i in range(30):
        cards = rng.sample(deck, 40)
        players = 2 + i % 3
        per = prof.hole_final if i % 2 else max(0, prof.hole_final - 2)
        rows = [cards[:per]] + [cards[8 * p:8 * p + i % 3] for p in range(1, players)]
        nb = min(prof.board_final, (0, 3, 4)[i % 3])
        board = cards[32:32 + nb]
        dead = cards[38:39] if i % 4 == 0 else []
        packed = fastmc.pack(rows, board, dead)
        seed = rng.getrandbits(31)
        want = _run(plan, packed, players, prof.hole_final, prof.board_final, seed,
                    np.zeros(4096, dtype=np.uint8))
        small = _run(plan, packed, players, prof.hole_final, prof.board_final, seed,
                     np.zeros(1, dtype=np.uint8))  # too small: the kernel allocates
        got = _run(plan, packed, players, prof.hole_final, prof.board_final, seed,
                   fastmc._WS)
        assert got == want == small


@pytest.mark.parametrize("variant", ["draw5", "draw27_triple", "badugi", "lowball"])
def test_discard_dead_mask_matches_remaining_cards(variant):
    prof = profile(Game(variant))
    n = prof.hole_final
    plan = prof.draw_plan_for(n)
    assert plan is not None
    ref = prof.kernel_reference(n)
    masks, _ = _discard_masks(n, 0, n)
    rng = random.Random(5)
    for i in range(25):
        cards = rng.sample(prof.deck_list, n + i % 6)
        hole, dead = cards[:n], cards[n:]
        gone = 0
        for c in cards:
            gone |= 1 << c
        seed = rng.getrandbits(31)
        hole_arr = np.asarray(hole, dtype=np.uint8)
        want = drawmc.discard_scores(plan, hole_arr,
                                     drawmc.remaining_cards(prof.deck, cards), masks, 20,
                                     seed, ref, 1.5)
        got = drawmc.discard_scores_dead(plan, hole_arr, gone, masks, 20, seed, ref, 1.5)
        assert np.array_equal(got, want)
        mine = set(dead)
        assert (prof.best_discard(hole, 0, n, random.Random(i), 2, 20, dead=mine)
                == prof._best_discard(hole, 0, n, random.Random(i), 2, 20, gone))


@pytest.mark.parametrize("variant", ["holdem", "omaha_hilo", "cincinnati", "two_card",
                                     "lowball"])
def test_packed_tables_match_the_plain_arguments(variant):
    prof = profile(Game(variant))
    plan = prof.plan if prof.plan is not None else prof.draw_plan
    assert plan is not None
    rng = random.Random(9)
    if prof.plan is not None:
        for _ in range(20):
            cards = rng.sample(prof.deck_list, 30)
            packed = fastmc.pack([cards[:prof.hole_final - 1], []], cards[20:23])
            seed = rng.getrandbits(31)
            args = (packed, 2, prof.hole_final, prof.board_final, seed, 150, 32, 16, 2.0, 1,
                    0.5, 0.0, 0.0, 0.0)
            want = fastmc._mc_core(*args, plan.hi_mode, plan.lo_mode, fastmc._NO_NARROW,
                                   fastmc.SCORE_NONE, 0, plan.deck, plan.tables,
                                   *plan.extra, np.zeros(4096, dtype=np.uint8))
            got = fastmc.mc_kernel(*args, fastmc._NO_NARROW, fastmc.SCORE_NONE, 0,
                                    plan.deck, *plan.packed, fastmc._WS)
            assert got == want
    else:
        n = prof.hole_final
        masks, _ = _discard_masks(n, 0, n)
        ref = prof.kernel_reference(n)
        for _ in range(20):
            hole = np.asarray(rng.sample(prof.deck_list, n), dtype=np.uint8)
            seed = rng.getrandbits(31)
            want = np.empty(masks.size)
            drawmc._discard_core(hole, plan.deck, 0, masks, 20, seed, ref, 1.0, 6, 6,
                                 plan.hi_mode, plan.tables, *plan.extra, want)
            got = drawmc.discard_scores(plan, hole, plan.deck, masks, 20, seed, ref, 1.0)
            assert np.array_equal(got, want)


def test_best_discard_kernel_matches_argmax_and_searchsorted():
    prof = profile(Game("draw27_triple"))
    plan = prof.draw_plan_for(5)
    ref = prof.kernel_reference(5)
    masks, penalty = _discard_masks(5, 0, 5)
    rng = random.Random(2)
    for i in range(40):
        cards = rng.sample(prof.deck_list, 5 + i % 4)
        gone = 0
        for c in cards:
            gone |= 1 << c
        hole = np.asarray(cards[:5], dtype=np.uint8)
        expo = (1.0, 1.5, 2.0)[i % 3]
        seed = rng.getrandbits(31)
        scores = drawmc.discard_scores_dead(plan, hole, gone, masks, 20, seed, ref,
                                            expo) - penalty
        j = int(np.argmax(scores))
        assert drawmc.best_discard_dead(plan, hole, gone, masks, penalty, 20, seed, ref,
                                        expo) == (j, float(scores[j]))
    values = drawmc.values(plan, np.asarray([rng.sample(prof.deck_list, 5)
                                             for _ in range(300)], dtype=np.uint8))
    for v in [*values, int(ref[0]), int(ref[-1]), int(ref[0]) - 1, int(ref[-1]) + 1]:
        want = int(np.searchsorted(ref, v))
        assert _lower_bound_of(ref, v) == want


@njit
def _lower_bound_of(ref, v):
    return drawmc._lower_bound(ref, v)


@pytest.mark.parametrize("variant", ["draw27_triple", "spit", "draw5"])
def test_word_and_key_discards_match_the_evaluated_hands(variant):
    prof = profile(Game(variant))
    n = prof.hole_final
    plan = prof.draw_plan_for(n)
    assert plan.hi_mode in (fastmc.HI_27, fastmc.HI_BITS, fastmc.HI_TABLE)
    ref = prof.kernel_reference(n)
    masks, _ = _discard_masks(n, 0, n)
    rng = random.Random(4)
    for _ in range(10):
        cards = rng.sample(prof.deck_list, n + 2)
        hole = np.asarray(cards[:n], dtype=np.uint8)
        remaining = drawmc.remaining_cards(prof.deck, cards)
        seed = rng.getrandbits(31)
        got = drawmc.discard_scores(plan, hole, remaining, masks, 12, seed, ref, 1.0,
                                    first=12, keep=masks.size)
        rows = fastmc.sample_rows(remaining, 12, n, seed)
        for c, m in enumerate(masks.tolist()):
            hands = []
            for s in range(1 if m == 0 else 12):
                drawn = iter(rows[s].tolist())
                hands.append([next(drawn) if (m >> j) & 1 else int(hole[j])
                              for j in range(n)])
            pct = np.searchsorted(ref, drawmc.values(plan, np.asarray(hands, np.uint8)))
            total = 0.0
            for p in pct.tolist():
                total += p / ref.size
            assert got[c] == total / len(hands)


def test_fast_badugi_matches_the_subset_search():
    rng = random.Random(6)
    for n in range(1, 7):
        for _ in range(400):
            hand = np.asarray(rng.sample(range(52), n), dtype=np.uint8)
            assert kernels.badugi_fast(hand, n) == kernels.badugi_bits(hand, n)
