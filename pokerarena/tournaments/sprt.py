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

The interval printed with the result is the test inverted
(:mod:`~pokerarena.tournaments.sequential_interval`): the fixed-sample interval of the
same pairs undercovers after the test chose when to stop (90.8% measured), so it is
kept only under its own label (``ci95_fixed``) and for the progress lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pokerarena.tournaments.estimates import block_rate
from pokerarena.tournaments.sequential_interval import FIXED, METHOD, sequential_interval

MIN_PAIRS = 40
DEFAULT_H1 = 50.0
"""``pokerarena sprt``'s H1 in mbb/hand when the user names none."""


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
    stopped_at: int | None = None  # pairs when it decided
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
            if self.decision is not None:
                self.stopped_at = self.n
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

    def looks(self) -> range:
        """The pair counts at which the test looked (after every pair from
        ``min_pairs`` on, up to its decision)."""
        return range(self.min_pairs, (self.stopped_at or self.n) + 1)

    def interval(self, *, final: bool = True) -> tuple[tuple[float, float], str]:
        """The 95% interval of the mean pair result and what it is: ``final`` (the test
        stopped, or its pairs ran out) the interval valid after the stop, on the pairs
        up to the decision; else (or before any look) the fixed-sample one."""
        looks = self.looks()
        if final and len(looks):
            iv = sequential_interval(self.results, looks, self.h0, self.h1, self.bounds)
            if iv is not None:
                return iv, METHOD
        est = block_rate(self.results, [1] * self.n)
        return (est.lo, est.hi), FIXED

    def state(self, hands_per_pair: int = 2, *, final: bool = True) -> dict[str, Any]:
        """What the command prints: the decision (``inconclusive`` while undecided),
        pairs and hands, the LLR and its bounds, the mean pair result (plain mean) and
        its 95% interval ``ci95`` (``ci95_method`` says which: see :meth:`interval`;
        ``final = False`` for progress lines, which skip the simulation), and the
        fixed-sample interval of the same pairs under ``ci95_fixed``."""
        est = block_rate(self.results, [1] * self.n)
        (lo, hi), method = self.interval(final=final)
        return {"decision": self.decision or "inconclusive", "pairs": self.n,
                "hands": self.n * hands_per_pair, "llr": round(self.llr, 3),
                "bounds": [round(b, 3) for b in self.bounds],
                "mbb_per_hand": round(est.value, 2),
                "ci95": [round(lo, 2), round(hi, 2)], "ci95_method": method,
                "ci95_fixed": [round(est.lo, 2), round(est.hi, 2)]}
