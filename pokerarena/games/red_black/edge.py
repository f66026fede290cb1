"""The banker's edge in red and black: exact by combinatorics over the deck, and
simulated through the game itself, so the two can be put side by side.

A bet's outcome depends only on how many of its five cards are of the declared colour,
and from what a player knows every undealt card is alike, so that count is
hypergeometric over the undealt cards: :func:`bet_ev` is exact. A counting player who
has seen ``d`` cards dealt before his own declares the colour with more cards left;
summing over the hypergeometric number of red cards among those ``d`` gives his exact
expectation (:func:`counted_ev`). The banker's edge is minus the player's expected gain
per unit staked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from pokerarena.games.red_black.actions import Bet
from pokerarena.games.red_black.game import RedBlackGame
from pokerarena.games.red_black.rules import (
    ALL_FIRST,
    BLACK,
    CARDS_EACH,
    RED,
    payout,
    red_black_options,
    rounds_for,
)

BET_TYPES = (RED, BLACK, "counted")


@cache
def bet_ev(own: int, other: int) -> float:
    """The player's exact expected gain per unit staked on a colour with ``own`` cards of
    that colour and ``other`` of the other among the undealt ones."""
    total = math.comb(own + other, CARDS_EACH)
    return sum(math.comb(own, k) * math.comb(other, CARDS_EACH - k) * payout(k)
               for k in range(CARDS_EACH + 1)) / total


def counted_choice(red_left: int, black_left: int) -> str:
    """The colour a counting player declares: the one with more cards left (red on a tie,
    where both are worth the same)."""
    return RED if red_left >= black_left else BLACK


def counted_ev(deck: int, seen: int) -> float:
    """A counting player's exact expected gain per unit when ``seen`` cards have been
    dealt face up from a fresh ``deck`` before he declares."""
    half = deck // 2
    total = math.comb(deck, seen)
    ev = 0.0
    for red_seen in range(max(0, seen - half), min(seen, half) + 1):
        p = math.comb(half, red_seen) * math.comb(half, seen - red_seen) / total
        r, b = half - red_seen, half - (seen - red_seen)
        ev += p * (bet_ev(r, b) if counted_choice(r, b) == RED else bet_ev(b, r))
    return ev


def seen_before(options: Any, players: int, position: int) -> int:
    """Cards dealt face up before the bettor of ``position`` (the ``position``-th
    five-card hand of the game, from 0) declares."""
    o = red_black_options(options)
    if o.order == ALL_FIRST:
        return (position // players) * players * CARDS_EACH
    return position * CARDS_EACH


def exact_edges(options: Any, players: int) -> dict[str, list[float]]:
    """The banker's exact edge (his expected gain per unit staked) against each bet
    type at each position of a game with ``players`` bettors: a fixed ``red`` or
    ``black`` declaration, and the ``counted`` colour."""
    o = red_black_options(options)
    n = rounds_for(o, players) * players
    half = o.deck // 2
    blind = -bet_ev(half, half)
    return {RED: [blind] * n, BLACK: [blind] * n,
            "counted": [-counted_ev(o.deck, seen_before(o, players, j)) for j in range(n)]}


@dataclass(frozen=True)
class Estimate:
    """A simulated mean with its 95% half-width (normal, over ``n`` bets)."""

    mean: float
    ci95: float
    n: int

    def covers(self, value: float) -> bool:
        return abs(self.mean - value) <= self.ci95


def estimate(xs: list[float]) -> Estimate:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else math.inf
    return Estimate(m, 1.96 * sd / math.sqrt(n), n)


def simulate_edges(options: Any, players: int, bet_type: str, games: int,
                   seed: int = 0) -> list[Estimate]:
    """The banker's edge against ``bet_type`` at each position, simulated: ``games``
    games of the real game (banker at seat 0, every player betting one unit of
    ``bet_type``; game ``g`` from seed ``seed * 1_000_003 + g``)."""
    if bet_type not in BET_TYPES:
        raise ValueError(f"bet type {bet_type!r}; known: {BET_TYPES}")
    game = RedBlackGame(options)
    o = game.options
    per: list[list[float]] = []
    for g in range(games):
        hand = game.new_hand(seed * 1_000_003 + g, players + 1, 0)
        while not hand.is_over:
            v = hand.observation(hand.to_act)
            colour = bet_type if bet_type != "counted" else \
                counted_choice(v.red_left, v.black_left)
            hand.apply(Bet(colour, o.min_bet))
        for j, r in enumerate(hand.settled):
            if g == 0:
                per.append([])
            per[j].append(-r.gain / r.stake)
    return [estimate(xs) for xs in per]
