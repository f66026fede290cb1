"""Who plays whom, in which seats, on which deals.

- :func:`round_robin`: every lineup of ``seats`` bots out of the field.
- :func:`gauntlet`: one challenger against each lineup of the rest.
- :func:`swiss_round`: bots of similar score meet, no pairing twice while avoidable.
- :func:`seatings`: the seatings a duplicate deal is played in: every permutation of
  the seats up to four players (heads-up 2, three players 6, four 24), cyclic
  rotations beyond (each bot in each seat once), so card luck cancels within a block.
- :func:`deal_seed`: the seed of deal ``k`` of game ``g`` depends on the run seed, the
  game and ``k`` only, never on the pairing: deal ``k`` of A-B is deal ``k`` of A-C and
  of B-C, and the cross table shares its card luck.
- :func:`ring_tables`: bots drawn into n-max tables round after round so that every
  pair of bots meets about equally often.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from pokerarena.arena.match import seatings

__all__ = ["deal_seed", "gauntlet", "ring_tables", "round_robin", "seatings",
           "swiss_round"]



def round_robin(bots: Sequence[str], seats: int = 2) -> list[tuple[str, ...]]:
    """Every combination of ``seats`` distinct bots, in field order."""
    if not 2 <= seats <= len(bots):
        raise ValueError(f"a round robin of {len(bots)} bots cannot seat {seats} per table")
    return list(itertools.combinations(bots, seats))


def gauntlet(challenger: str, field: Sequence[str], seats: int = 2) -> list[tuple[str, ...]]:
    """The challenger against every lineup of ``seats - 1`` bots of the field."""
    others = [b for b in field if b != challenger]
    if not 1 <= seats - 1 <= len(others):
        raise ValueError(f"a gauntlet against {len(others)} bots cannot seat {seats}")
    return [(challenger, *rest) for rest in itertools.combinations(others, seats - 1)]


def deal_seed(run_seed: int, game: int, deal: int) -> int:
    """The seed of deal ``deal`` of game ``game`` (independent of who plays it)."""
    ss = np.random.SeedSequence(run_seed, spawn_key=(0xDEA1, game, deal))
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def swiss_round(scores: dict[str, float], played: set[frozenset[str]]
                ) -> list[tuple[str, str]]:
    """Heads-up pairs for the next Swiss round: bots sorted by score (ties by name) are
    paired top down, each with the nearest bot it has not met, backtracking when the
    greedy choice strands someone; with an odd field the lowest bot that can sits out.
    Rematches happen only when no pairing without one exists."""
    order = sorted(scores, key=lambda b: (-scores[b], b))
    for allow_rematch in (False, True):
        pairs = _pair_up(order, played, allow_rematch)
        if pairs is not None:
            return pairs
    raise ValueError("no Swiss pairing exists")  # pragma: no cover - rematches always pair


def _pair_up(order: list[str], played: set[frozenset[str]], rematch: bool
             ) -> list[tuple[str, str]] | None:
    """Pairs of ``order`` (best first) by backtracking, or None."""
    if len(order) % 2:
        for bye in reversed(order):
            rest = [b for b in order if b != bye]
            pairs = _pair_up(rest, played, rematch)
            if pairs is not None:
                return pairs
        return None
    if not order:
        return []
    first, rest = order[0], order[1:]
    for k, other in enumerate(rest):
        if not rematch and frozenset((first, other)) in played:
            continue
        tail = _pair_up(rest[:k] + rest[k + 1:], played, rematch)
        if tail is not None:
            return [(first, other), *tail]
    return None


def ring_tables(bots: Sequence[str], size: int, rounds: int, seed: int = 0
                ) -> list[list[list[str]]]:
    """``rounds`` rounds of tables of ``size`` seats (the field split as evenly as it
    goes, no table under two): each round starts from a random order and greedily swaps
    bots between tables while that lowers how often the pairs already met, so every pair
    meets about equally often. ``out[r][t]`` is table ``t`` of round ``r``."""
    k = len(bots)
    if size < 2 or k < 2:
        raise ValueError("ring tables need at least two bots and two seats")
    tables = -(-k // size)
    if k // tables < 2:
        raise ValueError(f"{k} bots cannot fill {tables} tables of at least two")
    met = np.zeros((k, k))
    rng = np.random.default_rng(seed)
    out: list[list[list[str]]] = []
    for _ in range(rounds):
        groups = [list(g) for g in np.array_split(rng.permutation(k), tables)]
        _improve(groups, met)
        for g in groups:
            for a, b in itertools.combinations(g, 2):
                met[a, b] += 1
                met[b, a] += 1
        out.append([[bots[i] for i in g] for g in groups])
    return out


def _cost(group: list[int], met: np.ndarray) -> float:
    return float(sum(met[a, b] ** 2 for a, b in itertools.combinations(group, 2)))


def _improve(groups: list[list[int]], met: np.ndarray) -> None:
    """Swap bots between tables while a swap lowers the sum of squared meeting counts."""
    better = True
    while better:
        better = False
        for g, h in itertools.combinations(range(len(groups)), 2):
            for i, j in itertools.product(range(len(groups[g])), range(len(groups[h]))):
                a, b = groups[g][i], groups[h][j]
                before = _cost(groups[g], met) + _cost(groups[h], met)
                groups[g][i], groups[h][j] = b, a
                if _cost(groups[g], met) + _cost(groups[h], met) < before:
                    better = True
                else:
                    groups[g][i], groups[h][j] = a, b
