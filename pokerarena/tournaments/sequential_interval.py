"""A confidence interval that stays valid after a sequential test stopped.

The fixed-sample interval ``mean ± t·s/√n`` undercovers once the number of pairs was
chosen by the data: a test stops early when the mean happens to run far from where it
will settle, so the intervals of early stops miss the truth more often than 5% (the
GSPRT's: 90.8% coverage measured). This module inverts the test itself under
Siegmund's stage-wise ordering of its outcomes (Jennison & Turnbull, *Group Sequential
Methods*, ch. 8): from highest to lowest,

    stopped for "high" at an earlier look  >  at a later look (same look: higher mean)
    >  stopped neither way, by its mean at the observed look
    >  stopped for "low" at a later look  >  at an earlier look,

where "high" is the forward test's H1 and "low" its H0 (one-sided), or the mirrored
test's H1 (two-sided: the second bot ahead). The interval's ends are the true means at
which the observed outcome sits at the 2.5% and 97.5% points of that order. Those
probabilities are simulated with the same test (the same looks, bounds and LLR with
its own running variance) on pair results of the observed standard deviation drawn
from Student's t with 5 degrees of freedom: poker's pairs are heavy-tailed (kurtosis
10.4 in fixed-limit duplicate pairs of ``tag``; t(5) has 9), and a test that stops
early does so when its running variance happens to be low, which normal paths, whose
variance settles fast, make too rare (at the command's default H1 the misses were the
early stops). A bootstrap from the observed pairs would follow the tails, and is exact
when given the true distribution, but a short test stopped early has seen too few of
the spikes (91% measured on real pairs). Each path
shifted by every candidate mean at once: shifting a path moves its mean and
leaves its variance alone, so each path's LLR rises with the shift and the path ranks
above the observed outcome exactly from some shift on. That threshold has a closed form
per look, so the interval is two quantiles of the paths' thresholds, with no search.
A path is followed only up to the observed stop: that decides its rank.

Two-sided tests can also stop in the middle (both tests accepted their H0); there a
simulated path still running at that look is ranked by its mean there, an
approximation (the exact order would need each path's future). Coverage is measured
in :mod:`pokerarena.bench.calib_sprt`, not assumed. The paths are seeded: the same
results always give the same interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numba import njit

PATHS = 2000
WORK = 2e7  # path-steps: fewer paths for long tests (at least MIN_PATHS)
MIN_PATHS = 500
TOP, MIDDLE, BOTTOM = 1, 0, -1
METHOD = "sequential (stage-wise ordering, valid after the stop)"
FIXED = "fixed-sample (not valid after an optional stop)"


def observed_outcome(x: np.ndarray, looks: np.ndarray, h0: float, h1: float, lo: float,
                     hi: float, two_sided: bool) -> tuple[int, int]:
    """``(tier, look index)`` of the test replayed on ``x`` at ``looks`` (``h1 > h0``):
    :data:`TOP` (H1; two-sided, the first bot ahead), :data:`BOTTOM` (H0; two-sided,
    the second bot ahead) or :data:`MIDDLE` (both H0, or no decision by the last look)."""
    n = looks.astype(np.float64)
    s = np.cumsum(x)[looks - 1]
    q = np.cumsum(x * x)[looks - 1]
    m = s / n
    var = np.where(n > 1, (q - n * m * m) / np.maximum(n - 1, 1), 0.0)
    ok = var > 0
    a = np.where(ok, n * (h1 - h0) / (2 * np.where(ok, var, 1.0)), 0.0)
    fwd = a * (2 * m - h0 - h1)
    mir = -a * (2 * m + h0 + h1)
    f = r = 0  # each test's decision once taken: 1 H1, -1 H0
    for k in range(len(looks)):
        if f == 0:
            f = 1 if fwd[k] >= hi else -1 if fwd[k] <= lo else 0
        if not two_sided:
            if f:
                return f, k
            continue
        if r == 0:
            r = 1 if mir[k] >= hi else -1 if mir[k] <= lo else 0
        if f == 1:
            return TOP, k
        if r == 1:
            return BOTTOM, k
        if f == r == -1:
            return MIDDLE, k
    return MIDDLE, len(looks) - 1


@njit(cache=True)
def _thresholds(looks: np.ndarray, h0: float, h1: float, lo: float, hi: float,
                two_sided: bool, tier: int, m_obs: float, pool: np.ndarray, paths: int,
                seed: int) -> np.ndarray:
    """Each simulated path's shift from which it ranks at or above the observed outcome
    (see the module docstring; ``looks[-1]`` is the observed stop; steps drawn from
    ``pool``)."""
    np.random.seed(seed)
    inf = np.inf
    out = np.empty(paths)
    last = len(looks) - 1
    size = len(pool)
    mid = (h0 + h1) / 2.0
    per = 1.0 / (h1 - h0)  # LLR = n (h1 - h0)(2m - h0 - h1) / (2 var): 1/a = 2 var per / n
    for p in range(paths):
        s = 0.0
        q = 0.0
        cf = inf      # forward H1 first, by this look: from this shift up
        df = -inf     # forward H0 first: up to this shift
        lf_max = -inf
        uf_min = inf
        dm = -inf     # mirror H1 first: up to this shift
        am_min = inf
        top = inf     # the test's "high" stop by this look: from this shift up
        bot = -inf    # its "low" stop: up to this shift
        top_prev = inf
        bot_prev = -inf
        li = 0
        m = 0.0
        for i in range(1, looks[last] + 1):
            z = pool[np.random.randint(0, size)]
            s += z
            q += z * z
            if i != looks[li]:
                continue
            n = float(i)
            m = s / n
            var = (q - n * m * m) / (n - 1.0) if i > 1 else 0.0
            if var > 0:
                inv = var * per / n  # half of 1/a
                uf = mid + hi * inv - m
                lf = mid + lo * inv - m
                bm = -mid - hi * inv - m
                am = -mid - lo * inv - m
            else:  # no spread: the LLR is 0, inside the bounds
                uf, lf, bm, am = inf, -inf, -inf, inf
            top_prev, bot_prev = top, bot
            lf_max = max(lf_max, lf)
            uf_min = min(uf_min, uf)
            cf = min(cf, max(uf, lf_max))
            df = max(df, min(lf, uf_min))
            if two_sided:
                top = min(top, max(cf, dm))  # dm still the previous look's
                am_min = min(am_min, am)
                dm = max(dm, min(bm, am_min))
                bot = max(bot, min(dm, cf))
            else:
                top, bot = cf, df
            li += 1
        d = m_obs - m
        if tier == 1:
            out[p] = min(top_prev, max(top, d))
        elif tier == -1:
            out[p] = max(bot_prev, min(bot, d))
        else:
            out[p] = min(top, max(bot, d))
    return out


PATH_DF = 5.0


def _path_pool() -> np.ndarray:
    """2^16 draws of Student's t with :data:`PATH_DF` degrees of freedom (fixed seed,
    scaled to exactly mean 0 and sd 1), drawn from in the kernel: faster than a draw
    per step, and the same every time."""
    global _POOL
    if _POOL is None:
        z = np.random.default_rng(0x5EC).standard_t(PATH_DF, 1 << 16)
        _POOL = (z - z.mean()) / z.std()
    return _POOL


_POOL: np.ndarray | None = None


def sequential_interval(results: Sequence[float] | np.ndarray, looks: Sequence[int],
                        h0: float, h1: float, bounds: tuple[float, float], *,
                        two_sided: bool = False, level: float = 0.95, seed: int = 0,
                        paths: int | None = None) -> tuple[float, float] | None:
    """The ``level`` interval of the mean pair result after a test of H0 (``h0``)
    against H1 (``h1``) with LLR ``bounds`` looked at after ``looks`` pairs (increasing;
    the test stopped at the first look where it decided, else ran to the last), on
    ``results`` (only the pairs up to the stop count). ``two_sided``: the mirrored test
    (``-h0`` against ``-h1``) ran beside it, as in a tournament's ``[stop]``. None when
    no look was taken (no optional stop: the fixed-sample interval is the right one)."""
    x = np.asarray(results, dtype=np.float64)
    lk = np.asarray([k for k in looks if 1 <= k <= len(x)], dtype=np.int64)
    if len(lk) == 0 or not np.all(np.diff(lk) > 0):
        return None
    sign = 1.0 if h1 > h0 else -1.0  # mirror the problem so that H1 is the high side
    x, h0, h1 = sign * x, sign * h0, sign * h1
    lo_b, hi_b = bounds
    tier, j = observed_outcome(x, lk, h0, h1, lo_b, hi_b, two_sided)
    lk = lk[:j + 1]
    xs = x[:lk[-1]]
    m_obs = float(xs.mean())
    sd = float(xs.std(ddof=1)) if len(xs) > 1 else 0.0
    if not sd > 0:
        return sign * m_obs, sign * m_obs
    if paths is None:
        paths = int(min(PATHS, max(MIN_PATHS, WORK / lk[-1])))
    pool = sd * _path_pool()
    thr = _thresholds(lk, h0, h1, lo_b, hi_b, two_sided, tier, m_obs, pool, paths,
                      seed & 0x7FFFFFFF)
    tail = (1 - level) / 2
    thr.sort()  # order statistics: no arithmetic on a path that never crosses (inf)
    lo_i = float(thr[int(tail * paths)])
    hi_i = float(thr[min(paths - 1, int(math.ceil((1 - tail) * paths)) - 1)])
    if not (math.isfinite(lo_i) and math.isfinite(hi_i)):
        return None
    return (lo_i, hi_i) if sign > 0 else (-hi_i, -lo_i)

