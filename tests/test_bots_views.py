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


@pytest.mark.parametrize(("variant", "betting"), GAMES, ids=[g[0] + "-" + g[1] for g in GAMES])
def test_incremental_views_equal_fresh_views(variant, betting):
    game = Game(variant, {"betting": betting})
    n = min(5, game.variant.players[1])
    rng = np.random.default_rng(11)
    checked = 0
    for h in range(6):
        stacks = [int(x) for x in rng.integers(3, 60, n)]  # short stacks: all-ins, side pots
        hand = game.new_hand(rng, n, stacks, h % n)
        maker = ViewMaker(hand, hand_no=h)
        bots = [RandomBot(100 * h + s) for s in range(n)]
        while not hand.is_over:
            seat = hand.to_act
            for s in (seat, (seat + 1) % n):  # the seat to act and one that waits
                assert maker.view(s) == build_view(hand, s, hand_no=h), (variant, h, s)
                checked += 1
            hand.apply(bots[seat].act(maker.view(seat)))
    assert checked > 20
