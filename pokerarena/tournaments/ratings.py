"""Ratings with uncertainty: Bradley-Terry with bootstrap intervals for heads-up
results, OpenSkill (Weng-Lin, Plackett-Luce) for any number of seats, and a stability
check of the order.

A poker result is chips, not a win or a loss; for ratings each block (a duplicate pair
or rotation) becomes an ordering of its bots by chips won, which is what both models
take. The chip figures with their intervals (:mod:`.estimates`) stay the primary
answer; ratings put many bots on one scale and carry their own uncertainty.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.tournaments.estimates import Z95

ELO = 400.0 / math.log(10.0)  # Bradley-Terry log-strength -> Elo points


@dataclass(frozen=True)
class Rating:
    """One bot's rating: ``value`` with its 95% interval, on the model's scale."""

    bot: str
    value: float
    lo: float
    hi: float

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, rounded."""
        return {"bot": self.bot, "rating": round(self.value, 1), "lo": round(self.lo, 1),
                "hi": round(self.hi, 1)}


def _bt_fit(wins: np.ndarray, iters: int = 500, tol: float = 1e-10) -> np.ndarray:
    """Bradley-Terry log-strengths (mean 0) from ``wins[i, j]`` (blocks i won against j)
    by the minorize-maximize iteration; half a win is added to every played pair so that
    a bot that won or lost everything keeps a finite strength."""
    games = wins + wins.T
    w = wins + 0.5 * (games > 0)
    games = w + w.T
    k = len(w)
    p = np.ones(k)
    total = w.sum(axis=1)
    for _ in range(iters):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1), p)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < tol:
            p = new
            break
        p = new
    return np.log(p)


def _win_matrix(pairs: Sequence[tuple[int, int, float]], k: int) -> np.ndarray:
    """Blocks won by i against j from (i, j, chips i won) results; a tie is half each."""
    wins = np.zeros((k, k))
    for i, j, x in pairs:
        if x > 0:
            wins[i, j] += 1
        elif x < 0:
            wins[j, i] += 1
        else:
            wins[i, j] += 0.5
            wins[j, i] += 0.5
    return wins


def bradley_terry(bots: Sequence[str], pairs: Sequence[tuple[int, int, float]], *,
                  clusters: Sequence[int] | None = None, resamples: int = 200,
                  seed: int = 0) -> list[Rating]:
    """Elo-scale Bradley-Terry ratings (mean 0) of ``bots`` from heads-up block results
    ``(i, j, chips i won from j)``, with percentile intervals from a bootstrap.

    ``clusters[r]``: what result ``r`` shares with others (its deals: with common deals,
    segment *k* of every pairing was dealt the same cards); the bootstrap resamples
    whole clusters, every pairing's results of a cluster together, so the correlation
    between pairings stays in the interval. Without ``clusters``, results are resampled
    within each pairing (every pairing keeps its size), which is right only when no two
    results share cards.
    """
    k = len(bots)
    base = _bt_fit(_win_matrix(pairs, k)) * ELO
    groups: dict[Any, list[tuple[int, int, float]]] = {}
    if clusters is None:
        for r in pairs:
            groups.setdefault((min(r[0], r[1]), max(r[0], r[1])), []).append(r)
    else:
        if len(clusters) != len(pairs):
            raise ValueError("clusters needs one entry per result")
        for r, c in zip(pairs, clusters, strict=True):
            groups.setdefault(c, []).append(r)
    rng = np.random.default_rng(seed)
    draws = np.empty((resamples, k))
    members = list(groups.values())
    for b in range(resamples):
        sample: list[tuple[int, int, float]] = []
        if clusters is None:
            for rows in members:
                sample.extend(rows[i] for i in rng.integers(0, len(rows), len(rows)))
        else:
            for c in rng.integers(0, len(members), len(members)):
                sample.extend(members[c])
        draws[b] = _bt_fit(_win_matrix(sample, k)) * ELO
    if clusters is None:
        lo, hi = np.quantile(draws, [0.025, 0.975], axis=0)
    else:  # the normal bootstrap interval: the percentiles of few, discrete wins skew
        half = Z95 * draws.std(axis=0, ddof=1)
        lo, hi = base - half, base + half
    return [Rating(bots[i], float(base[i]), float(lo[i]), float(hi[i])) for i in range(k)]


def openskill_ratings(bots: Sequence[str], blocks: Sequence[Sequence[tuple[int, float]]]
                      ) -> tuple[list[Rating], list[list[float]]]:
    """OpenSkill (Plackett-Luce) ratings of ``bots`` from blocks of ``(bot, chips)``
    results, rated in order: each bot's μ with μ ± 2σ as its interval, and the history
    of every bot's μ after each block (for the rating-history chart)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating(name=b) for b in bots]
    history: list[list[float]] = []
    for block in blocks:
        idx = [i for i, _ in block]
        rated = model.rate([[current[i]] for i in idx], scores=[float(x) for _, x in block])
        for i, team in zip(idx, rated, strict=True):
            current[i] = team[0]
        history.append([r.mu for r in current])
    return ([Rating(b, r.mu, r.mu - 2 * r.sigma, r.mu + 2 * r.sigma)
             for b, r in zip(bots, current, strict=True)], history)


def order_stability(bots: Sequence[str], pairs: Sequence[tuple[int, int, float]], *,
                    drop: int = 5, trials: int = 50, seed: int = 0) -> dict[str, Any]:
    """Does the Bradley-Terry order survive dropping any few blocks? Drops ``drop``
    blocks at random ``trials`` times and reports how often the full order and the top
    place stay as they are (bootstrap intervals do not show this fragility)."""
    k = len(bots)
    full = np.argsort(-_bt_fit(_win_matrix(pairs, k)))
    rng = np.random.default_rng(seed)
    same_order = same_top = 0
    n = len(pairs)
    for _ in range(trials):
        keep = np.ones(n, dtype=bool)
        keep[rng.choice(n, size=min(drop, n), replace=False)] = False
        order = np.argsort(-_bt_fit(_win_matrix([p for p, kp in zip(pairs, keep,
                                                                    strict=True) if kp], k)))
        same_order += bool(np.array_equal(order, full))
        same_top += bool(order[0] == full[0])
    return {"dropped": drop, "trials": trials, "order_kept": same_order / trials,
            "top_kept": same_top / trials, "order": [bots[i] for i in full]}
