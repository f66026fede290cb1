"""Shared helpers of the simple built-in bots (cheap discards)."""

from __future__ import annotations

from pokerarena.bots.base import SeatView
from pokerarena.engine.actions import DISCARD_KIND, Action


def keep_pairs_discard(view: SeatView) -> Action:
    """A cheap draw: keep paired ranks (high games) or the lowest distinct ranks (low
    games, by the hand's own order), within the allowed discard counts."""
    legal = view.legal
    assert legal is not None
    hole = list(view.hole)
    counts: dict[int, int] = {}
    for c in hole:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    toss = [c for c in hole if counts[c >> 2] == 1]
    toss.sort(key=lambda c: c >> 2)
    k = max(legal.discard_min, min(legal.discard_max, len(toss)))
    if k > len(toss):
        toss += [c for c in hole if c not in toss]
    return Action(DISCARD_KIND, 0, tuple(toss[:k]))
