"""A ViewMaker's incremental views (kept history, reused by-seat tuples) always equal a view
built from scratch for the same moment, whatever the bots do."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.arena.views import ViewMaker, build_view
from pokerarena.bots import RandomBot
from pokerarena.engine import Game

GAMES = [("holdem", "no_limit"), ("holdem", "fixed_limit"), ("omaha_hilo", "pot_limit"),
         ("stud7", "fixed_limit"), ("razz", "fixed_limit"), ("draw5", "fixed_limit"),
         ("draw27_triple", "fixed_limit"), ("badugi", "fixed_limit"),
         ("cincinnati", "no_limit"), ("knock", "fixed_limit")]


@pytest.mark.parametrize("fast", [True, False], ids=["fast-path", "observation-path"])
@pytest.mark.parametrize(("variant", "betting"), GAMES, ids=[g[0] + "-" + g[1] for g in GAMES])
def test_incremental_views_equal_fresh_views(variant, betting, fast):
    game = Game(variant, {"betting": betting})
    n = min(5, game.variant.players[1])
    rng = np.random.default_rng(11)
    checked = 0
    for h in range(6):
        stacks = [int(x) for x in rng.integers(3, 60, n)]  # short stacks: all-ins, side pots
        hand = game.new_hand(rng, n, stacks, h % n)
        maker = ViewMaker(hand, hand_no=h, fast=fast)
        bots = [RandomBot(100 * h + s) for s in range(n)]
        while not hand.is_over:
            seat = hand.to_act
            for s in (seat, (seat + 1) % n):  # the seat to act and one that waits
                fresh = build_view(hand, s, hand_no=h, fast=fast)
                assert maker.view(s) == fresh, (variant, h, s)
                checked += 1
            hand.apply(bots[seat].act(maker.view(seat)))
    assert checked > 20


@pytest.mark.parametrize(("variant", "betting"), GAMES, ids=[g[0] + "-" + g[1] for g in GAMES])
def test_fast_and_observation_paths_give_the_same_views(variant, betting):
    """Both paths follow the one visibility rule: every seat's view is the same."""
    game = Game(variant, {"betting": betting})
    n = min(4, game.variant.players[1])
    rng = np.random.default_rng(5)
    compared = 0
    for h in range(5):
        hand = game.new_hand(rng, n, [40] * n, h % n)
        fast, slow = ViewMaker(hand, hand_no=h), ViewMaker(hand, hand_no=h, fast=False)
        bots = [RandomBot(7 * h + s) for s in range(n)]
        while not hand.is_over:
            for s in range(n):
                assert fast.view(s) == slow.view(s), (variant, h, s)
                compared += 1
            hand.apply(bots[hand.to_act].act(fast.view(hand.to_act)))
    assert compared > 40
