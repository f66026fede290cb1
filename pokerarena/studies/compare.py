"""Differences of a study's cells against its baseline cell, with intervals, corrected
for their number.

A difference of two ratio metrics (:class:`~pokerarena.studies.metrics.Moments`) is
estimated on the deals both cells played. The cells of a study play the same deals
(common random numbers), so the difference is *paired* by deal: its variance is the
variance of the per-deal difference of the two linearised ratios, which subtracts
their covariance, the card luck both cells share. Cells without common deals get the
unpaired (Welch) difference. Intervals and p-values are normal over deals (studies
have hundreds of deals and more). The p-values are then corrected for the number of
comparisons: Holm's step-down (the chance of any false claim stays under alpha) or
Benjamini-Hochberg's step-up (the expected share of false claims among the claimed,
for large grids). Tests measure the coverage and both error rates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from pokerarena.studies.metrics import Z95, Moments

__all__ = ["Comparison", "CrossMoments", "Difference", "adjust", "bh", "correct", "holm",
           "paired_difference", "unpaired_difference"]


@dataclass(frozen=True)
class CrossMoments:
    """Over the deals two cells share: each cell's :class:`Moments` on those deals and
    the cross sums ``sum(x_c x_b)``, ``sum(x_c y_b)``, ``sum(y_c x_b)``, ``sum(y_c y_b)``
    (``c``: the cell, ``b``: the baseline)."""

    cell: Moments
    base: Moments
    xx: float
    xy: float
    yx: float
    yy: float

    @classmethod
    def of(cls, xc: Sequence[float], yc: Sequence[float], xb: Sequence[float],
           yb: Sequence[float]) -> CrossMoments:
        """From per-deal values, deal ``i`` at index ``i`` in all four."""
        return cls(Moments.of(xc, yc), Moments.of(xb, yb),
                   sum(a * b for a, b in zip(xc, xb, strict=True)),
                   sum(a * b for a, b in zip(xc, yb, strict=True)),
                   sum(a * b for a, b in zip(yc, xb, strict=True)),
                   sum(a * b for a, b in zip(yc, yb, strict=True)))


@dataclass(frozen=True)
class Difference:
    """``cell - baseline`` with its standard error, 95% interval, two-sided p-value
    (normal) and the deals it rests on; ``paired``: over common deals."""

    diff: float
    se: float
    lo: float
    hi: float
    p: float
    n: int
    paired: bool


def _difference(d: float, var: float, n: int, paired: bool) -> Difference:
    if n < 2 or math.isnan(d) or math.isnan(var):
        return Difference(d, math.nan, -math.inf, math.inf, 1.0, n, paired)
    se = math.sqrt(max(var, 0.0))
    if se == 0:
        p = 1.0 if d == 0 else 0.0
        return Difference(d, 0.0, d, d, p, n, paired)
    p = math.erfc(abs(d) / se / math.sqrt(2))
    return Difference(d, se, d - Z95 * se, d + Z95 * se, p, n, paired)


def paired_difference(m: CrossMoments) -> Difference:
    """The paired difference of the two ratios over their common deals: the variance of
    ``u_c - u_b`` per deal, ``u = (x - R y) / mean(y)`` for each cell."""
    c, b, n = m.cell, m.base, m.cell.n
    if n != b.n:
        raise ValueError("paired moments must come from the same deals")
    rc, rb = c.ratio, b.ratio
    if n < 2 or math.isnan(rc) or math.isnan(rb):
        return _difference(rc - rb, math.nan, n, True)
    ybc, ybb = c.sy / n, b.sy / n
    # sum(u_c u_b) expanded over the cross sums (each u sums to zero over the deals)
    cross = (m.xx - rb * m.xy - rc * m.yx + rc * rb * m.yy) / (ybc * ybb)
    cov = cross / (n - 1)
    var = (c.linear_variance() + b.linear_variance() - 2 * cov) / n
    return _difference(rc - rb, var, n, True)


def unpaired_difference(c: Moments, b: Moments) -> Difference:
    """The difference of two ratios over independent deals (Welch)."""
    var = c.linear_variance() / c.n + b.linear_variance() / b.n if min(c.n, b.n) >= 2 \
        else math.nan
    return _difference(c.ratio - b.ratio, var, min(c.n, b.n), False)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values: the ``k``-th smallest times ``m - k + 1``,
    made non-decreasing, at most 1. Rejecting those under alpha keeps the chance of
    any false rejection under alpha, whatever the dependence."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * pvalues[i]))
        out[i] = running
    return out


def bh(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg's adjusted p-values (q-values): the ``k``-th smallest times
    ``m / k``, made non-decreasing from the largest down, at most 1. Rejecting those under
    alpha keeps the expected share of false rejections under alpha (independent or
    positively dependent tests)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i], reverse=True)
    out = [1.0] * m
    running = 1.0
    for j, i in enumerate(order):
        k = m - j
        running = min(running, pvalues[i] * m / k)
        out[i] = min(1.0, running)
    return out


def adjust(pvalues: Sequence[float], method: str) -> list[float]:
    """Adjusted p-values by ``method`` (``holm`` or ``bh``)."""
    if method == "holm":
        return holm(pvalues)
    if method == "bh":
        return bh(pvalues)
    raise ValueError(f"unknown correction {method!r}; holm or bh")


@dataclass(frozen=True)
class Comparison:
    """One metric of one cell against the baseline cell, after correction."""

    metric: str
    cell: int
    baseline: int
    cell_value: float
    base_value: float
    diff: float
    lo: float
    hi: float
    p: float
    p_adjusted: float
    significant: bool
    n: int
    paired: bool

    @property
    def relative(self) -> float:
        """The difference as a fraction of the baseline's value (NaN at 0)."""
        return self.diff / self.base_value if self.base_value else math.nan

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (infinite bounds become None)."""
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in asdict(self).items()}


def correct(items: Sequence[tuple[str, int, int, float, float, Difference]], method: str,
            alpha: float) -> list[Comparison]:
    """Comparisons from ``(metric, cell, baseline, cell value, baseline value,
    difference)`` items, their p-values adjusted together by ``method``; a comparison
    is significant when its adjusted p-value is under ``alpha``."""
    adjusted = adjust([it[5].p for it in items], method)
    return [Comparison(metric, cell, base, cv, bv, d.diff, d.lo, d.hi, d.p, q, q < alpha,
                       d.n, d.paired)
            for (metric, cell, base, cv, bv, d), q in zip(items, adjusted, strict=True)]
