"""A small pure-Python evaluator: the engine's fallback and the tests' oracle.

It returns comparable tuples (higher = better, also for lows) for the rankings the
shipped variants use without wild cards: ``high``, ``short_deck``, ``a5_low``,
``27_low``, ``badugi``. The real evaluator is :mod:`pokerarena.evaluator`; this one is
only used when that package cannot be imported, and to cross-check it in tests.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

# Categories (high): 0 high card .. 8 straight flush.
_HC, _PAIR, _TWO, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _QUADS, _SF = range(9)


def _straight_top(ranks: set[int], low_ace_below: int) -> int:
    """Top rank of the best straight in ``ranks`` (0..12), or -1. The ace also plays
    just below ``low_ace_below`` (0 for the standard deck, 4 for the short deck)."""
    rs = set(ranks)
    if 12 in rs:
        rs.add(low_ace_below - 1)
    best = -1
    for top in range(12, low_ace_below + 2, -1):
        if all((top - i) in rs for i in range(5)):
            return top
    return best


def _high5(cards: tuple[int, ...], short: bool) -> tuple:
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    counts = Counter(ranks)
    flush = len({c & 3 for c in cards}) == 1 and len(cards) == 5
    straight = _straight_top(set(ranks), 4 if short else 0) if len(counts) == 5 else -1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    order = tuple(r for r, _ in groups)
    if straight >= 0 and flush:
        cat = _SF
        order = (straight,)
    elif shape[0] == 4:
        cat = _QUADS
    elif shape[:2] == (3, 2):
        cat = _FULL
    elif flush:
        cat = _FLUSH
    elif straight >= 0:
        cat, order = _STRAIGHT, (straight,)
    elif shape[0] == 3:
        cat = _TRIPS
    elif shape[:2] == (2, 2):
        cat = _TWO
    elif shape[0] == 2:
        cat = _PAIR
    else:
        cat = _HC
    if short:  # flush beats full house
        cat = {_FLUSH: _FULL, _FULL: _FLUSH}.get(cat, cat)
    return (cat, order)


def _a5_low5(cards: tuple[int, ...]) -> tuple:
    ranks = [((c >> 2) + 1) % 13 for c in cards]  # ace = 0
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    order = tuple(r for r, _ in groups)
    # Lower is better: negate to make higher better.
    return tuple(-x for x in shape) + tuple(-r for r in order)


def _low27_5(cards: tuple[int, ...]) -> tuple:
    cat, order = _high5(cards, short=False)
    return (-cat,) + tuple(-r for r in order)


def _badugi(cards: tuple[int, ...]) -> tuple:
    best: tuple = ()
    for k in range(min(4, len(cards)), 0, -1):
        for sub in combinations(cards, k):
            if len({c >> 2 for c in sub}) == k and len({c & 3 for c in sub}) == k:
                ranks = sorted((((c >> 2) + 1) % 13 for c in sub), reverse=True)
                key = (k,) + tuple(-r for r in ranks)
                if key > best:
                    best = key
        if best:
            return best
    return best


def evaluate(cards, name: str) -> tuple:
    """Best value of ``cards`` (any number) under ranking ``name``."""
    cards = tuple(int(c) for c in cards)
    if name == "badugi":
        return _badugi(cards)
    five = min(5, len(cards))
    if name in ("high", "short_deck"):
        def fn(h):
            return (_high5(h, name == "short_deck"))
    elif name == "a5_low":
        fn = _a5_low5
    elif name == "27_low":
        fn = _low27_5
    else:
        raise ValueError(f"the fallback evaluator has no ranking {name!r}")
    return max(fn(h) for h in combinations(cards, five))


def evaluate_omaha(hole, board, name: str) -> tuple:
    """Best value using exactly two hole cards and three board cards."""
    return max(evaluate(h + b, name) for h in combinations(tuple(hole), 2)
               for b in combinations(tuple(board), 3))


def qualifies_low(value: tuple, name: str, limit: int = 8) -> bool:
    """Eight-or-better (or ``limit``-or-better) for an ``a5_low`` value of this module."""
    if name != "a5_low":
        return True
    n = len(value) // 2
    shape = [-x for x in value[:n]]
    ranks = [-x for x in value[n:]]
    return all(s == 1 for s in shape) and len(ranks) == 5 and ranks[0] <= limit - 1
