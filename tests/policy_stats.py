"""Chi-square checks of sampled moves against a declared distribution, shared by the
tests of declared policies (bots, solvers)."""

from __future__ import annotations

import math


def pearson(counts: dict, probs: dict, n: int) -> tuple[float, int]:
    """Pearson's chi-square statistic for ``counts`` of ``n`` draws against ``probs``
    and its degrees of freedom (cells expected under 5 pooled into one)."""
    cells, pooled_obs, pooled_exp = [], 0, 0.0
    for key, p in probs.items():
        e = n * p
        if e < 5:
            pooled_obs += counts.get(key, 0)
            pooled_exp += e
        else:
            cells.append((counts.get(key, 0), e))
    if pooled_exp > 0:
        cells.append((pooled_obs, pooled_exp))
    return sum((o - e) ** 2 / e for o, e in cells), len(cells) - 1


def chi_square_p(counts: dict, probs: dict, n: int) -> float:
    """The p-value of :func:`pearson` (Wilson-Hilferty's normal approximation of the
    chi-square tail)."""
    stat, k = pearson(counts, probs, n)
    if k < 1:
        return 1.0
    z = ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))
