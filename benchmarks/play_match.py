"""Hands per second of ``play_match`` (views, fault guard, hooks) against a raw engine
loop (the same bots' decisions without views); prints one JSON line per case.

    python benchmarks/play_match.py [hands]
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from pokerarena.arena.match import play_match
from pokerarena.engine import Game
from pokerarena.engine.actions import CALL_KIND, FOLD_KIND, Action

CASES = [("holdem", "no_limit", ["call", "random"]),
         ("holdem", "no_limit", ["call"] * 6),
         ("stud7", "fixed_limit", ["call", "random", "call"]),
         ("draw5", "fixed_limit", ["call", "random"])]


def raw_rate(game: Game, n: int, hands: int) -> float:
    """Hands/s of the engine alone: every seat checks or calls (folds at a draw: stands
    pat), no views, no bots."""
    rng = np.random.default_rng(0)
    stacks = [game.variant.stakes.stack] * n
    t0 = time.process_time()
    for k in range(hands):
        hand = game.new_hand(rng, n, stacks, k % n)
        while not hand.is_over:
            legal = hand.legal_actions()
            kinds = legal.kinds
            if CALL_KIND in kinds:
                hand.apply(Action(CALL_KIND))
            elif "sd" in kinds:
                hand.apply(Action("sd", 0, ()))
            elif "sm" in kinds:
                seat = hand.to_act
                assert seat is not None  # a seat stands pat
                hand.apply(Action("sm", 0, tuple(hand.observation(seat).hole)))
            elif "pb" in kinds:
                hand.apply(Action("pb"))
            else:
                hand.apply(Action(FOLD_KIND if FOLD_KIND in kinds else kinds[0]))
    return hands / max(time.process_time() - t0, 1e-9)


def main() -> None:
    """Each case once to warm up, then timed (process CPU time)."""
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    for variant, betting, bots in CASES:
        game = Game(variant, {"betting": betting})
        play_match(game, bots, 100, 1)
        t0 = time.process_time()
        res = play_match(game, bots, hands, 2)
        dt = max(time.process_time() - t0, 1e-9)
        print(json.dumps({"variant": variant, "betting": betting, "bots": bots,
                          "hands": hands, "play_match_hands_per_s": round(hands / dt),
                          "raw_engine_call_hands_per_s": round(raw_rate(game, len(bots),
                                                                        hands)),
                          "decisions": sum(e.decisions for e in res.entrants)}))


if __name__ == "__main__":
    main()
