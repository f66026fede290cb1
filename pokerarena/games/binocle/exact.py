"""Exact expectations of binocle positions, from what every seat sees.

:func:`value_now` prepares the kernel's arrays (:mod:`.kernels`) from a position with no
stake pending; :func:`move_values` plays the stake being asked out in both ways (stake,
drop) and the rest of the turned card's stakes (everyone else staking), then takes the
exact value of what follows. The stock's make-up follows from the face-up cards: each
rank has four cards, less those in the hands and those turned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from pokerarena.games.binocle.kernels import expected_delta
from pokerarena.games.binocle.rules import (
    DEALER,
    SPLIT,
    BinocleOptions,
    playing_seats,
    rank_index,
    share,
)
from pokerarena.games.binocle.view import BinocleView

Position = BinocleView
"""A position is a view: the table between two stakes, as every seat sees it (the
fields read here: options, dealer, order, hands, covered, staked, active, turned)."""


def stock_counts(hands: Sequence[Sequence[int]], turned: Sequence[int]) -> list[int]:
    """Cards of each rank (ace … king) still in the stock."""
    left = [4] * 13
    for c in [*[c for h in hands for c in h], *turned]:
        left[rank_index(c)] -= 1
    return left


def value_now(pos: Position, seat: int) -> float:
    """``seat``'s exact expected chips won from ``pos`` on, every player still in staking
    every card to the end (``restake`` is not modelled: covered cards ask nothing)."""
    left = stock_counts(pos.hands, pos.turned)
    players = [s for s in pos.order if pos.active[s]]
    open_ranks = {s: [rank_index(c) for c, cov in zip(pos.hands[s], pos.covered[s],
                                                     strict=True) if not cov]
                  for s in players}
    relevant = sorted({r for s in players for r in open_ranks[s] if left[r] > 0})
    col = {r: j for j, r in enumerate(relevant)}
    need = np.zeros(len(players), dtype=np.int64)
    dead = np.zeros(len(players), dtype=np.bool_)
    stakes = np.zeros((len(players), len(relevant)))
    for q, s in enumerate(players):
        for r in open_ranks[s]:
            if left[r] == 0:
                dead[q] = True
            else:
                need[q] |= 1 << col[r]
                stakes[q, col[r]] += r + 1
    keeper = 0
    if pos.options.unclaimed == DEALER:
        keeper = 1 if seat == pos.dealer else -1
    me = players.index(seat) if seat in players else -1
    cnt = np.array([float(left[r]) for r in relevant])
    return float(expected_delta(cnt, need, dead, stakes, float(sum(pos.staked)), me,
                                float(pos.staked[seat]), pos.options.tie == SPLIT, keeper))


def _settle(pos: Position, winners: list[int], seat: int) -> float:
    chips = dict(zip(winners, share(sum(pos.staked), len(winners)), strict=True))
    return chips.get(seat, 0) - pos.staked[seat]


def _stake(pos: Position, s: int, rank: int) -> Position:
    covered = list(pos.covered)
    covered[s] = tuple(cov or rank_index(c) == rank
                       for c, cov in zip(pos.hands[s], pos.covered[s], strict=True))
    staked = list(pos.staked)
    staked[s] += (rank + 1) * sum(1 for c, cov in zip(pos.hands[s], pos.covered[s],
                                                      strict=True)
                                  if rank_index(c) == rank and not cov)
    return replace(pos, covered=tuple(covered), staked=tuple(staked))


def move_values(view: BinocleView) -> tuple[float, float]:
    """The exact expectation of the seat to act if it stakes, and if it drops out
    (everyone else staking to the end)."""
    pos = view
    me = view.to_act
    rank = rank_index(view.turned[-1])
    done = [s for s in view.order[:view.order.index(me)]
            if view.active[s] and all(view.covered[s])]  # covered earlier on this card
    after = [s for s in view.order[view.order.index(me) + 1:] if view.active[s] and
             any(rank_index(c) == rank and not cov
                 for c, cov in zip(view.hands[s], view.covered[s], strict=True))]
    out = []
    for stake in (True, False):
        p = _stake(pos, me, rank) if stake else replace(
            pos, active=tuple(a and s != me for s, a in enumerate(pos.active)))
        winners = list(done)
        for s in ([me] if stake else []) + after:
            if s != me:
                p = _stake(p, s, rank)
            if all(p.covered[s]):
                winners.append(s)
                if p.options.tie != SPLIT:
                    break
        out.append(_settle(p, winners, me) if winners else value_now(p, me))
    return out[0], out[1]


def deal_values(options: BinocleOptions, dealer: int, players: int,
                hands: Sequence[tuple[int, ...]]) -> list[float]:
    """Each seat's exact expected chips won from the deal (``hands[s]``: seat ``s``'s
    cards, empty for a dealer who does not play), before any card is turned."""
    order = playing_seats(options, players, dealer)
    pos = BinocleView(seat=-1, players=players, dealer=dealer, options=options, order=order,
                      hands=tuple(hands), covered=tuple(tuple(False for _ in h) for h in hands),
                      staked=(0,) * players, active=tuple(bool(h) for h in hands), turned=(),
                      stock=52 - sum(len(h) for h in hands), winners=(), to_act=-1, legal=())
    return [value_now(pos, s) for s in range(players)]


__all__ = ["Position", "deal_values", "move_values", "stock_counts", "value_now"]
