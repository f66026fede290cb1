"""The study question of binocle: what each seat wins or loses per game by its place at
the table (the staking order from the dealer's left settles ties: «первым расставит
фишки»), exact where it can be computed and simulated.

Given the deal, each seat's expectation is exact (:func:`.exact.deal_values`); over all
deals it is the mean of those exact values, estimated over sampled deals with an
interval far narrower than a plain simulation's, which plays the same deals through the
game (:func:`seat_edges` returns both). :func:`deal_check` fixes one deal and plays many
stocks, to set the exact value against the simulated one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerarena.games.binocle.exact import deal_values
from pokerarena.games.binocle.game import BinocleGame, BinocleHand
from pokerarena.games.red_black.edge import Estimate, estimate  # one mean-and-interval helper


def _play_out(hand: BinocleHand) -> tuple[float, ...]:
    """Every stake made (the document's compulsory stakes)."""
    while not hand.is_over:
        hand.apply(next(m for m in hand.legal_actions() if m.kind == "stake"))
    return hand.result().deltas


def seat_edges(options: Any, seats: int, games: int,
               seed: int = 0) -> dict[str, list[Estimate]]:
    """Each seat's chips won per game with the dealer at seat 0 (seat 1 stakes first):
    ``exact`` the mean of each deal's exact expectation, ``simulated`` the mean of the
    same deals played through the game (game ``g`` from seed ``seed * 1_000_003 + g``)."""
    game = BinocleGame(options)
    exact: list[list[float]] = [[] for _ in range(seats)]
    sim: list[list[float]] = [[] for _ in range(seats)]
    for g in range(games):
        hand = game.new_hand(seed * 1_000_003 + g, seats, 0)
        ev = deal_values(game.options, 0, seats, hand.hands)
        for s, (e, d) in enumerate(zip(ev, _play_out(hand), strict=True)):
            exact[s].append(e)
            sim[s].append(d)
    return {"exact": [estimate(x) for x in exact], "simulated": [estimate(x) for x in sim]}


def deal_check(options: Any, seats: int, deal_seed: int, games: int,
               seed: int = 0) -> tuple[list[float], list[Estimate]]:
    """One deal (that of seed ``deal_seed``, dealer at seat 0): each seat's exact
    expectation, and its mean over ``games`` stocks shuffled afresh from ``seed``."""
    game = BinocleGame(options)
    first = game.new_hand(deal_seed, seats, 0)
    dealt = [c for s in first.seats for c in first.hands[s]]
    rest = np.array([c for c in game.deck if c not in set(dealt)], dtype=np.int16)
    rng = np.random.default_rng(seed)
    runs: list[list[float]] = [[] for _ in range(seats)]
    for _ in range(games):
        hand = BinocleHand(game, seats, 0, dealt + [int(c) for c in rng.permutation(rest)])
        for s, d in enumerate(_play_out(hand)):
            runs[s].append(d)
    return deal_values(game.options, 0, seats, first.hands), [estimate(x) for x in runs]
