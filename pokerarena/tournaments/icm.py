"""Chip equity by the independent chip model (Malmuth-Harville) and payout tables.

A player's chance to finish first is its share of the chips; given who finished
first, the chances for second are the shares of the rest, and so on. The equity of a
stack is the payout expected over those finishing orders. Computed exactly over the
subsets of players still unplaced (``2^n · n²`` work, memoised), fine for the
final tables of up to 12 players where it is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

MAX_PLAYERS = 12


def icm_equity(stacks: Sequence[int | float], payouts: Sequence[float]) -> list[float]:
    """Expected payout of each stack; the equities sum to the paid prizes (those of
    places the players can reach). Zero stacks have finished and get nothing here."""
    n = len(stacks)
    if n > MAX_PLAYERS:
        raise ValueError(f"ICM is computed for at most {MAX_PLAYERS} players, not {n}")
    if any(s < 0 for s in stacks):
        raise ValueError("stacks cannot be negative")
    pay = list(payouts) + [0.0] * max(0, n - len(payouts))
    live = tuple(i for i in range(n) if stacks[i] > 0)

    @cache
    def place(mask: int, k: int) -> tuple[float, ...]:
        """Equity of each player in ``mask`` from place ``k`` on."""
        members = [i for i in live if mask >> i & 1]
        out = [0.0] * n
        if not members or k >= len(pay):
            return tuple(out)
        total = float(sum(stacks[i] for i in members))
        for i in members:
            p = stacks[i] / total
            out[i] += p * pay[k]
            rest = place(mask & ~(1 << i), k + 1)
            for j in members:
                if j != i:
                    out[j] += p * rest[j]
        return tuple(out)

    mask = 0
    for i in live:
        mask |= 1 << i
    return list(place(mask, 0))


def payout_table(prize_pool: float, fractions: Sequence[float]) -> list[float]:
    """Prizes from a payout table of fractions (they must sum to 1, largest first):
    the prizes then sum to the pool exactly up to rounding of the last place."""
    if not fractions or any(f < 0 for f in fractions) or abs(sum(fractions) - 1) > 1e-9:
        raise ValueError("payout fractions must be non-negative and sum to 1")
    prizes = [prize_pool * f for f in fractions]
    prizes[-1] = prize_pool - sum(prizes[:-1])
    return prizes
