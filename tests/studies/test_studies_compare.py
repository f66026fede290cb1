"""Study statistics measured on simulated data with known answers: the intervals of
a cell's metrics and of its differences against the baseline cover the truth about 95%
of the time (paired by deal and not), pairing on common deals narrows the interval,
and the corrections control their error rates on comparisons with no difference (Holm:
the chance of any false claim; Benjamini-Hochberg: the share of false claims)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerarena.studies.compare import (
    CrossMoments,
    adjust,
    bh,
    correct,
    holm,
    paired_difference,
    unpaired_difference,
)
from pokerarena.studies.metrics import (
    Interval,
    Moments,
    hands_to_separate,
    quantile_ranks,
    ratio_interval,
    wilson,
)

TRIALS = 400


def _coverage_band(trials: int) -> tuple[float, float]:
    """Where the observed coverage of a true 95% interval falls (4 binomial sd)."""
    sd = math.sqrt(0.95 * 0.05 / trials)
    return 0.95 - 4 * sd, 0.95 + 4 * sd


def _deals(rng: np.random.Generator, n: int, shift: float) -> tuple[np.ndarray, ...]:
    """Two cells on the same ``n`` deals: the deal's luck ``luck`` is common to both
    (common random numbers), each cell adds its own noise; a deal has 1 to 3 hands
    (a ratio metric), the cell's per-hand mean is 1.0 and 1.0 + ``shift``."""
    hands = rng.integers(1, 4, size=n).astype(float)
    luck = rng.normal(0, 3, size=n)
    xb = hands * 1.0 + luck * hands + rng.normal(0, 1, size=n) * np.sqrt(hands)
    xc = hands * (1.0 + shift) + luck * hands + rng.normal(0, 1, size=n) * np.sqrt(hands)
    return xc, hands, xb, hands


def test_ratio_interval_covers_the_true_rate():
    rng = np.random.default_rng(1)
    lo_band, hi_band = _coverage_band(TRIALS)
    hits = 0
    for _ in range(TRIALS):
        y = rng.integers(1, 5, size=300).astype(float)
        x = rng.binomial(y.astype(int), 0.3).astype(float)  # a share, true value 0.3
        hits += ratio_interval(Moments.of(x, y)).covers(0.3)
    assert lo_band <= hits / TRIALS <= hi_band


def test_paired_difference_covers_a_known_shift_and_beats_unpaired():
    rng = np.random.default_rng(2)
    lo_band, hi_band = _coverage_band(TRIALS)
    paired_hits = unpaired_hits = 0
    widths = []
    for _ in range(TRIALS):
        xc, yc, xb, yb = _deals(rng, 400, shift=0.25)
        d = paired_difference(CrossMoments.of(xc, yc, xb, yb))
        u = unpaired_difference(Moments.of(xc, yc), Moments.of(xb, yb))
        paired_hits += d.lo <= 0.25 <= d.hi
        unpaired_hits += u.lo <= 0.25 <= u.hi
        widths.append((d.hi - d.lo) / (u.hi - u.lo))
        assert d.paired and not u.paired and d.n == 400
    assert lo_band <= paired_hits / TRIALS <= hi_band
    # the unpaired interval is valid too, only much wider: the common luck stays in it
    assert unpaired_hits / TRIALS >= lo_band
    assert float(np.median(widths)) < 0.5


def test_paired_difference_of_identical_cells_is_exactly_zero():
    x = [1.0, 2.0, 5.0, 0.0]
    d = paired_difference(CrossMoments.of(x, [1] * 4, x, [1] * 4))
    assert d.diff == 0 and d.se == 0 and d.p == 1.0


def test_holm_controls_the_familywise_error_on_null_comparisons():
    rng = np.random.default_rng(3)
    any_false = {"holm": 0, "none": 0}
    for _ in range(TRIALS):
        p = []
        for _cell in range(10):  # ten cells, no true difference
            xc, yc, xb, yb = _deals(rng, 200, shift=0.0)
            p.append(paired_difference(CrossMoments.of(xc, yc, xb, yb)).p)
        any_false["holm"] += min(holm(p)) < 0.05
        any_false["none"] += min(p) < 0.05
    assert any_false["holm"] / TRIALS <= 0.05 + 4 * math.sqrt(0.05 * 0.95 / TRIALS)
    # without the correction the family errs far more often (1 - 0.95^10 = 40%)
    assert any_false["none"] / TRIALS > 0.25


def test_bh_controls_the_false_discovery_rate():
    rng = np.random.default_rng(4)
    fdp = []
    power = []
    for _ in range(TRIALS // 2):
        shifts = [0.0] * 16 + [0.6] * 4  # 16 nulls, 4 real differences
        p = []
        for s in shifts:
            xc, yc, xb, yb = _deals(rng, 200, shift=s)
            p.append(paired_difference(CrossMoments.of(xc, yc, xb, yb)).p)
        q = bh(p)
        claimed = [i for i, v in enumerate(q) if v < 0.1]
        false = [i for i in claimed if shifts[i] == 0]
        fdp.append(len(false) / len(claimed) if claimed else 0.0)
        power.append(sum(shifts[i] > 0 for i in claimed) / 4)
    assert float(np.mean(fdp)) <= 0.1 * 16 / 20 + 0.03
    assert float(np.mean(power)) > 0.5  # and it still finds the real ones


def test_adjusted_pvalues_by_hand():
    p = [0.01, 0.04, 0.03, 0.5]
    assert holm(p) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert bh(p) == pytest.approx([0.04, 0.16 / 3, 0.16 / 3, 0.5])
    assert adjust(p, "bh") == bh(p)
    with pytest.raises(ValueError, match="holm or bh"):
        adjust(p, "bonferroni")
    rows = correct([("m", 1, 0, 1.0, 0.0, paired_difference(CrossMoments.of(
        [1.0, 2.0, 3.0], [1, 1, 1], [0.0, 0.5, 1.0], [1, 1, 1])))], "holm", 0.05)
    assert rows[0].metric == "m" and rows[0].p_adjusted == rows[0].p


def test_wilson_and_quantile_ranks():
    w = wilson(0, 50)
    assert w.value == 0 and w.lo == pytest.approx(0, abs=1e-12) and 0.05 < w.hi < 0.09
    rng = np.random.default_rng(5)
    hits = 0
    for _ in range(TRIALS):
        v = np.sort(rng.exponential(1.0, size=500))
        plo, phi = quantile_ranks(0.5, 500)
        lo, hi = np.quantile(v, [plo, phi])
        hits += lo <= math.log(2) <= hi  # the exponential's true median
    assert _coverage_band(TRIALS)[0] <= hits / TRIALS


def test_hands_to_separate_from_the_edge():
    # edge 0.1 bb/hand known to +-0.02 after 10,000 hands: per-hand sd = 1.0204
    edge = Interval(0.1, 0.08, 0.12, 10_000)
    n = hands_to_separate(edge, 10_000)
    sd = 0.02 / 1.959963984540054 * 100
    assert n.value == pytest.approx((1.959963984540054 * sd / 0.1) ** 2)
    assert n.lo < n.value < n.hi < math.inf
    # an edge that may be zero leaves the number of hands unbounded above
    assert hands_to_separate(Interval(0.01, -0.01, 0.03, 100), 100).hi == math.inf
