"""Sequential testing of one bot against another: stop as soon as the answer is known.

The unit of the test is a duplicate pair (one deal played in both seatings), as
fishtest scores game pairs: the pair's result already has most of the card luck
removed, and pairs are independent of each other. The test is the generalized SPRT on
the mean of the pair results with their empirical variance (no parametric model of
poker's heavy-tailed results): with ``n`` pairs of mean ``m`` and variance ``s²``,

    LLR = n · (μ1 − μ0) · (2m − μ0 − μ1) / (2 s²),

compared with Wald's bounds ``ln(β / (1 − α))`` and ``ln((1 − β) / α)``. The variance
of a handful of pairs is unreliable, so no decision is taken before ``min_pairs``.
Error rates are measured in the tests, not assumed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pokerarena.tournaments.estimates import block_rate

MIN_PAIRS = 40


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) bounds of the log-likelihood ratio for error rates α and β."""
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError("alpha and beta must lie strictly between 0 and 0.5")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass
class Sprt:
    """A running GSPRT of H0 (the mean pair result is ``h0``) against H1 (``h1``), in
    the unit of the results fed to :meth:`add` (mbb/hand: each pair's result averaged
    over its hands). ``decision`` is ``H0``, ``H1`` or None while undecided."""

    h0: float
    h1: float
    alpha: float = 0.05
    beta: float = 0.05
    min_pairs: int = MIN_PAIRS
    n: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    decision: str | None = None
    results: list[float] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.h0) and math.isfinite(self.h1)) or self.h0 == self.h1:
            raise ValueError("h0 and h1 must be two different finite numbers")
        self.bounds = wald_bounds(self.alpha, self.beta)

    def add(self, result: float) -> str | None:
        """Feed one pair's result; returns the decision once there is one (results
        after a decision are kept but cannot change it)."""
        x = float(result)
        self.n += 1
        self.total += x
        self.total_sq += x * x
        self.results.append(x)
        if self.decision is None and self.n >= self.min_pairs:
            llr = self.llr
            if llr >= self.bounds[1]:
                self.decision = "H1"
            elif llr <= self.bounds[0]:
                self.decision = "H0"
        return self.decision

    @property
    def mean(self) -> float:
        """Mean pair result so far."""
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """Sample variance of the pair results (0 before two pairs)."""
        if self.n < 2:
            return 0.0
        return max(0.0, (self.total_sq - self.n * self.mean ** 2) / (self.n - 1))

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of H1 over H0 so far."""
        var = self.variance
        if self.n < 2 or var <= 0:
            return 0.0
        d = self.h1 - self.h0
        return self.n * d * (2 * self.mean - self.h0 - self.h1) / (2 * var)

    def state(self, hands_per_pair: int = 2) -> dict[str, Any]:
        """What the command prints: the decision (``inconclusive`` while undecided),
        pairs and hands, the LLR and its bounds, the estimate and its 95% interval."""
        est = block_rate(self.results, [1] * self.n)
        return {"decision": self.decision or "inconclusive", "pairs": self.n,
                "hands": self.n * hands_per_pair, "llr": round(self.llr, 3),
                "bounds": [round(b, 3) for b in self.bounds],
                "mbb_per_hand": round(est.value, 2),
                "ci95": [round(est.lo, 2), round(est.hi, 2)]}
