"""Win rates with honest intervals from duplicate blocks.

A *block* is the unit of independence: one deal played in every seating (a duplicate
pair heads-up, six seatings for three players), or one hand without duplicate. Within a
block the results are correlated by the shared cards, across blocks they are not, so the
variance is estimated over blocks. The rate is a ratio (chips over hands); when blocks
differ in size (a tournament cut short, pairings with unequal numbers of matches), the
mean of block means is biased, and the rate is the ratio of the sums: its interval is
the linearized (delta-method) one, with Student's quantile over the blocks.

A percentile bootstrap (the ACPC's) was used for unequal sizes until issue 25: one odd
block switched a match to it, and with 50 spiky duplicate pairs (60% exactly zero) it
covered 89.7% where Student's t on the same pairs covered 97%. The bootstrap's
percentiles are too narrow for few, heavy-tailed blocks; the t quantile widens with few
blocks instead. Intervals are measured to cover: see the tests and ``bench calibration``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A rate per hand with its 95% interval (``lo``..``hi``), the number of blocks and
    hands it rests on, and how the interval was made (``normal``: Student's over equal
    blocks; ``ratio``: the linearized ratio's over unequal ones)."""

    value: float
    lo: float
    hi: float
    blocks: int
    hands: int
    method: str

    @property
    def half_width(self) -> float:
        """Half the interval's width (the ``±`` figure)."""
        return (self.hi - self.lo) / 2

    def covers(self, x: float) -> bool:
        """Whether ``x`` lies in the interval."""
        return self.lo <= x <= self.hi

    def as_dict(self, scale: float = 1.0, digits: int = 2) -> dict[str, Any]:
        """JSON-ready, the rate and bounds multiplied by ``scale`` (1000: mbb)."""
        d = asdict(self)
        for k in ("value", "lo", "hi"):
            d[k] = round(d[k] * scale, digits)
        d["ci95"] = round(self.half_width * scale, digits)
        return d


T95_TERMS = (Z95, (Z95**3 + Z95) / 4, (5 * Z95**5 + 16 * Z95**3 + 3 * Z95) / 96,
             (3 * Z95**7 + 19 * Z95**5 + 17 * Z95**3 - 15 * Z95) / 384)
"""The Cornish-Fisher expansion of Student's 97.5% quantile: ``sum(c / df**i)``."""


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (a
    Cornish-Fisher expansion: within 1% of the exact value from 3 degrees on, 0.1% from 5), so
    that few blocks give a wider interval rather than an undercovering one."""
    if df <= 0:
        return float("inf")
    v = float(df)
    return sum(c / v**i for i, c in enumerate(T95_TERMS))


def t95_sql(df: str) -> str:
    """:func:`t95` as an SQL expression of the expression ``df`` (for DuckDB views)."""
    return "(" + " + ".join(f"{c!r} / ({df}) ^ {i}" for i, c in enumerate(T95_TERMS)) + ")"


def block_rate(totals: Any, sizes: Any) -> Estimate:
    """The rate ``sum(totals) / sum(sizes)`` over blocks with its 95% interval.

    ``totals[i]``: what the bot won in block ``i`` (in big blinds), ``sizes[i]``: the
    hands of block ``i``. Equal sizes: Student's interval of the block means (exact for
    the ratio then). Unequal sizes: the ratio's linearized interval, from the residuals
    ``totals - rate * sizes`` with Student's quantile on ``n - 1`` degrees of freedom
    (the same as the first when the sizes are equal). Blocks must be independent of one
    another: a deal shared by several matches is one block (see ``standings``).
    """
    t = np.asarray(totals, dtype=np.float64)
    s = np.asarray(sizes, dtype=np.float64)
    if t.shape != s.shape or t.ndim != 1:
        raise ValueError("totals and sizes must be two lists of the same length")
    n, hands = len(t), int(s.sum())
    if n == 0 or hands <= 0:
        return Estimate(0.0, 0.0, 0.0, n, hands, "none")
    value = float(t.sum() / s.sum())
    if n == 1:
        return Estimate(value, -np.inf, np.inf, n, hands, "none")
    if np.all(s == s[0]):
        means = t / s[0]
        half = t95(n - 1) * float(means.std(ddof=1)) / np.sqrt(n)
        return Estimate(value, value - half, value + half, n, hands, "normal")
    resid = t - value * s
    se = float(np.sqrt((resid ** 2).sum() / (n * (n - 1)))) / float(s.mean())
    half = t95(n - 1) * se
    return Estimate(value, value - half, value + half, n, hands, "ratio")


@dataclass(frozen=True)
class Reduction:
    """How much a variance-reduced estimate gains over the raw one on the same blocks:
    the ratio of standard deviations and the fraction of hands it needs for the same
    interval width (the square of the ratio)."""

    sd_raw: float
    sd_reduced: float

    @property
    def sd_ratio(self) -> float:
        """sd(reduced) / sd(raw); below 1 is a gain."""
        return self.sd_reduced / self.sd_raw if self.sd_raw > 0 else float("nan")

    @property
    def hands_ratio(self) -> float:
        """Hands needed with the reduction per hand needed without it."""
        return self.sd_ratio ** 2

    def as_dict(self) -> dict[str, float]:
        """JSON-ready, rounded."""
        return {"sd_raw": round(self.sd_raw, 4), "sd_reduced": round(self.sd_reduced, 4),
                "sd_ratio": round(self.sd_ratio, 4),
                "hands_ratio": round(self.hands_ratio, 4)}


def reduction(raw: Any, reduced: Any, sizes: Any) -> Reduction:
    """The :class:`Reduction` of per-hand rates: ``raw`` and ``reduced`` are block totals
    of the same blocks (``sizes`` hands each)."""
    s = np.asarray(sizes, dtype=np.float64)
    r = np.asarray(raw, dtype=np.float64) / s
    v = np.asarray(reduced, dtype=np.float64) / s
    return Reduction(float(r.std(ddof=1)), float(v.std(ddof=1)))
