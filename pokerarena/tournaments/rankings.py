"""The ACPC's two rankings of one cross table.

``cross[i][j]`` is what bot ``i`` won per hand against bot ``j`` (mbb/hand; the table is
antisymmetric for heads-up play). **Total bankroll** ranks by the average over all
opponents, which rewards exploiting weak bots; **instant run-off** repeatedly removes the
bot that does worst against those still in, which rewards not losing to anyone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _matrix(cross: Sequence[Sequence[float]]) -> np.ndarray:
    m = np.asarray(cross, dtype=np.float64)
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ValueError("the cross table must be square")
    return m


def total_bankroll(bots: Sequence[str], cross: Sequence[Sequence[float]]
                   ) -> list[tuple[str, float]]:
    """(bot, average winnings over its opponents), best first."""
    m = _matrix(cross)
    k = len(bots)
    avg = [(bots[i], float(sum(m[i, j] for j in range(k) if j != i) / max(1, k - 1)))
           for i in range(k)]
    return sorted(avg, key=lambda t: -t[1])


def instant_runoff(bots: Sequence[str], cross: Sequence[Sequence[float]]) -> list[str]:
    """Bots ranked by instant run-off, best first: in each round the bot with the lowest
    total against the remaining bots is eliminated (ties: the later-listed bot goes
    first, a fixed and documented rule)."""
    m = _matrix(cross)
    alive = list(range(len(bots)))
    out: list[int] = []
    while len(alive) > 1:
        totals = [(sum(m[i, j] for j in alive if j != i), -pos)
                  for pos, i in enumerate(alive)]
        worst = min(range(len(alive)), key=lambda q: totals[q])
        out.append(alive.pop(worst))
    out.extend(alive)
    return [bots[i] for i in reversed(out)]
