"""Pre-flop equity tables for Omaha (four hole cards, a five-card board, high or
high-low eight-or-better): the pot share of every four-card hand against ``n`` random
hands.

The 270,725 four-card hands fall into 16,432 classes under the 24 relabellings of the
suits; each class is dealt ``deals_for(n)`` seeded deals by
:func:`~pokerarena.bots.strength.fastmc.mc_equity` (a few seconds per table on one core) and
every hand of the class reads the class's share. Tables are built for a number of
opponents on request (:func:`prepare`, which the tables' warm-up calls before the first
timed decision) and cached on disk next to the hold'em ones; :func:`lookup` never
builds, so a decision is never held up by a build.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
from numba import njit

from pokerarena.bots.strength import preflop
from pokerarena.bots.strength.fastmc import Plan, mc_equity
from pokerarena.bots.strength.preflop import load_cached, plan_digest, save_cached
from pokerarena.evaluator.tables import cache_dir

# the builder's code (see preflop.BUILDER_FILES): an edit builds the tables again
BUILDER_FILES: tuple[Path, ...] = (Path(__file__), *preflop.BUILDER_FILES)
HANDS = 270725  # four-card hands of a 52-card deck

# colex index of a sorted hand a < b < c < d: a + C(b, 2) + C(c, 3) + C(d, 4)
_C2 = [b * (b - 1) // 2 for b in range(52)]
_C3 = [c * (c - 1) * (c - 2) // 6 for c in range(52)]
_C4 = [d * (d - 1) * (d - 2) * (d - 3) // 24 for d in range(52)]
_PERMS = np.asarray(list(itertools.permutations(range(4))), dtype=np.int64)


def deals_for(opponents: int) -> int:
    """Deals per class in the table for ``opponents`` random hands."""
    return 800 if opponents == 1 else 400


def hand_index(hole: tuple[int, ...] | list[int]) -> int:
    """Index (0..270724) of a four-card hand among all four-card hands (colex order)."""
    a, b, c, d = sorted(hole)
    return a + _C2[b] + _C3[c] + _C4[d]


@njit(cache=True, inline="always")
def _sort4(t):  # pragma: no cover - jit
    """Sort ``t[:4]`` in place: five compare-exchanges (numba's ``sort`` compiles its
    quicksort, 6 s of a fresh machine's start)."""
    for i, j in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):
        if t[j] < t[i]:
            x = t[i]
            t[i] = t[j]
            t[j] = x


@njit(cache=True)
def _canonical_codes(perms):  # pragma: no cover - jit
    """(each hand's cards in colex order, the smallest code of the hand over every
    relabelling of the suits): hands with equal codes are one class."""
    cards = np.empty((HANDS, 4), dtype=np.uint8)
    codes = np.empty(HANDS, dtype=np.int64)
    tmp = np.empty(4, dtype=np.int64)
    i = 0
    for d in range(3, 52):
        for c in range(2, d):
            for b in range(1, c):
                for a in range(b):
                    cards[i, 0] = a
                    cards[i, 1] = b
                    cards[i, 2] = c
                    cards[i, 3] = d
                    best = np.int64(1) << 62
                    for p in range(perms.shape[0]):
                        for j in range(4):
                            x = cards[i, j]
                            tmp[j] = (x >> 2) * 4 + perms[p, x & 3]
                        _sort4(tmp)
                        code = ((tmp[0] * 64 + tmp[1]) * 64 + tmp[2]) * 64 + tmp[3]
                        if code < best:
                            best = code
                    codes[i] = best
                    i += 1
    return cards, codes


_CLASSES: list[tuple[np.ndarray, np.ndarray]] = []


def classes() -> tuple[np.ndarray, np.ndarray]:
    """(class of each hand by :func:`hand_index`, one hand's cards per class)."""
    if not _CLASSES:
        cards, codes = _canonical_codes(_PERMS)
        _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        _CLASSES.append((inverse.astype(np.int32), cards[first]))
    return _CLASSES[0]


def supported(plan: Plan) -> bool:
    """True when ``plan``'s deck is the standard 52 cards (the tables' hands)."""
    return plan.deck.size == 52 and int(plan.deck.max()) == 51


def build(plan: Plan, opponents: int, deals: int) -> np.ndarray:
    """The table for ``opponents`` random hands: a float32 pot share per hand."""
    of_hand, reps = classes()
    players = opponents + 1
    fixed = np.zeros((players + 1, 4), dtype=np.uint8)  # the last row: the board
    fixed_len = np.zeros(players + 1, dtype=np.int64)
    fixed_len[0] = 4
    shares = np.empty(len(reps), dtype=np.float64)
    for k in range(len(reps)):
        fixed[0] = reps[k]
        total, used = mc_equity(plan, fixed, fixed_len, 4, 5, 7_000_003 * opponents + k,
                                deals)
        shares[k] = total / used
    return shares[of_hand].astype(np.float32)


def _key(plan: Plan, opponents: int) -> bytes:
    h = plan_digest(plan, BUILDER_FILES)
    h.update(f"omaha/{opponents}/{deals_for(opponents)}".encode())
    return h.digest()


def _path(plan: Plan, opponents: int) -> Path:
    return cache_dir() / f"preflop-omaha-{_key(plan, opponents).hex()[:16]}.npy"


def lookup(plan: Plan, opponents: int) -> np.ndarray | None:
    """The table in memory or on disk; None when it has not been built (the disk is
    looked at once per process and number of opponents)."""
    key = ("preflop-omaha", opponents)
    found = plan.memo.get(key)
    if found is not None or key in plan.memo:
        return found
    tab = load_cached(_path(plan, opponents), (HANDS,))
    plan.memo[key] = tab
    return tab


def prepare(plan: Plan, opponents: int) -> np.ndarray:
    """The table for ``opponents``, built (and written to the disk cache) if needed."""
    tab = lookup(plan, opponents)
    if tab is None:
        tab = build(plan, opponents, deals_for(opponents))
        save_cached(_path(plan, opponents), tab)
        plan.memo[("preflop-omaha", opponents)] = tab
    return tab
