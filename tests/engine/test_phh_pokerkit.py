"""Differential test: random hands played by the engine, exported as PHH, replayed by
PokerKit (the peer, when installed) to the same finishing stacks, for every PHH code.

The engine runs with PokerKit's conventions where the rules documents leave a choice:
odd chips by position and a cap of a bet and three raises even heads-up.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from pokerarena.arena.session import play_hand
from pokerarena.bots import RandomBot
from pokerarena.engine import Game
from pokerarena.engine.phh import dumps_phh, loads_phh, replay
from pokerarena.rules import phh_codes

pk = pytest.importorskip("pokerkit", reason="the peers extra (PokerKit) is not installed")

CODES = sorted(phh_codes())


@pytest.mark.parametrize("code", CODES)
def test_engine_hands_replay_identically_in_pokerkit(code):
    variant_id, system = phh_codes()[code]
    game = Game(variant_id, {"betting": system, "odd_chip": "position",
                             "open_pair_big_bet": False, "max_raises": 3,
                             "heads_up_max_raises": 3})
    lo, hi = game.variant.players
    for seed in range(12):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(lo, min(hi, 6) + 1))
        stacks = [int(x) for x in rng.integers(10, 200, n)]
        hand = game.new_hand(rng, n, stacks, int(rng.integers(0, n)))
        play_hand(hand, [RandomBot(seed * 7 + i) for i in range(n)])
        text = dumps_phh(hand)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            states = list(pk.HandHistory.loads(text))
        state = states[-1]
        theirs = [int(x) for x in state.stacks]
        ours = [hand.stack[p] for p in range(n)]
        assert ours == theirs, text
        assert replay(loads_phh(text), odd_chip="position").finishing_stacks == ours
