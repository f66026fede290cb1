"""The metrics of a study's cells, each with its 95% interval, from plain numbers.

Every per-cell metric is a ratio over *deals* (the unit of independence: the hands of
one deal share its cards, deals do not): in deal ``i`` a numerator ``x_i`` and a
denominator ``y_i`` (a mean: ``y_i`` = the deal's hands; a share of showdowns:
``y_i`` = its showdowns). The estimate is ``sum(x) / sum(y)``, its interval the
delta-method (linearised) normal interval over deals. The platform reduces the rows to
the five sums of :class:`Moments` in SQL, so a study of millions of hands never comes
into Python hand by hand. Quantiles (pot sizes) get the distribution-free
order-statistic interval, skill separation an interval carried over from its edge's.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from pokerarena.tournaments.estimates import Z95

__all__ = ["METRICS", "Z95", "Interval", "MetricInfo", "Moments", "hands_to_separate",
           "metric_info", "quantile_ranks", "ratio_interval", "wilson"]


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval (``lo``..``hi``; infinite when the data cannot
    bound it) and the number of deals ``n`` it rests on."""

    value: float
    lo: float
    hi: float
    n: int

    def covers(self, x: float) -> bool:
        """Whether ``x`` lies in the interval."""
        return self.lo <= x <= self.hi

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (infinite bounds become None)."""
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in asdict(self).items()}


@dataclass(frozen=True)
class Moments:
    """Sums over deals of ``x``, ``y``, ``x^2``, ``y^2`` and ``x*y``, and their count."""

    n: int
    sx: float
    sy: float
    sxx: float
    syy: float
    sxy: float

    @classmethod
    def of(cls, xs: Any, ys: Any) -> Moments:
        """The moments of paired sequences ``xs``, ``ys`` (one entry per deal)."""
        xs, ys = [float(v) for v in xs], [float(v) for v in ys]
        if len(xs) != len(ys):
            raise ValueError("xs and ys differ in length")
        return cls(len(xs), sum(xs), sum(ys), sum(v * v for v in xs),
                   sum(v * v for v in ys), sum(a * b for a, b in zip(xs, ys, strict=True)))

    @property
    def ratio(self) -> float:
        """``sum(x) / sum(y)`` (NaN without a denominator)."""
        return self.sx / self.sy if self.sy else math.nan

    def linear_variance(self) -> float:
        """The sample variance over deals of ``(x - R*y) / mean(y)``, the ratio's
        linearisation (for ``y = 1``: the variance of ``x``)."""
        n, r = self.n, self.ratio
        if n < 2 or not self.sy:
            return math.nan
        ybar = self.sy / n
        # sum((x - r y)^2) expanded; sum(x - r y) is 0 by the choice of r
        ss = self.sxx - 2 * r * self.sxy + r * r * self.syy
        return max(ss, 0.0) / (n - 1) / (ybar * ybar)


def ratio_interval(m: Moments) -> Interval:
    """``sum(x) / sum(y)`` with its delta-method 95% interval over the deals."""
    r = m.ratio
    if m.n < 2 or math.isnan(r):
        return Interval(r, -math.inf, math.inf, m.n)
    half = Z95 * math.sqrt(m.linear_variance() / m.n)
    return Interval(r, r - half, r + half, m.n)


def wilson(k: int, n: int) -> Interval:
    """A share ``k / n`` with Wilson's score interval (keeps inside 0..1 and covers
    near 0 and 1, where the normal interval does not)."""
    if n <= 0:
        return Interval(math.nan, 0.0, 1.0, 0)
    p, z2 = k / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), n)


def quantile_ranks(p: float, n: int) -> tuple[float, float]:
    """The probabilities whose sample quantiles bound the ``p`` quantile at 95%: the
    order statistics ``n p -+ 1.96 sqrt(n p (1 - p))`` (the binomial count of values
    below the true quantile), as fractions of ``n``."""
    if n <= 0:
        return 0.0, 1.0
    half = Z95 * math.sqrt(p * (1 - p) / n)
    return max(0.0, p - half), min(1.0, p + half)


def hands_to_separate(edge: Interval, hands: int) -> Interval:
    """How many hands the stronger bot needs to beat the weaker at 95%: the hands after
    which an edge of the measured size is 1.96 standard errors, ``(1.96 sd / edge)^2``
    with the per-hand standard deviation ``sd`` implied by ``edge``'s interval over
    ``hands`` hands. The interval maps the edge's: a smaller edge needs more hands, an
    edge whose interval reaches 0 leaves the upper bound infinite."""
    if hands <= 0 or not all(map(math.isfinite, (edge.value, edge.lo, edge.hi))):
        return Interval(math.inf, 0.0, math.inf, edge.n)
    se = (edge.hi - edge.lo) / (2 * Z95)
    var_hand = se * se * hands  # the per-hand variance the interval implies

    def needed(e: float) -> float:
        return math.inf if e == 0 else Z95 * Z95 * var_hand / (e * e)

    a, b = abs(edge.lo), abs(edge.hi)
    if edge.lo <= 0 <= edge.hi:
        return Interval(needed(edge.value), needed(max(a, b)), math.inf, edge.n)
    return Interval(needed(edge.value), needed(max(a, b)), needed(min(a, b)), edge.n)


@dataclass(frozen=True)
class MetricInfo:
    """What a metric is, for the report: a label, its unit, and one line of meaning."""

    name: str
    label: str
    unit: str
    doc: str


_BASE = (
    MetricInfo("showdown_rate", "showdown rate", "share of hands",
               "hands that reached a showdown of two or more players"),
    MetricInfo("pot_bb", "pot size", "big blinds",
               "mean chips in the pots at the end, in big blinds (small bets without blinds)"),
    MetricInfo("passed_rate", "deals with no opener", "share of hands",
               "deals nobody opened (openers rules): passed, the pot waits for the next deal"),
    MetricInfo("split_rate", "split pots", "share of showdowns",
               "showdowns whose pots went to more than one seat (ties, and high-low splits)"),
    MetricInfo("tie_rate", "tied showdowns", "share of showdowns",
               "showdowns whose winners all held the same hand (in words) in a game without "
               "a low half: the pot split by a tie"),
    MetricInfo("rounds_reached", "betting rounds reached", "rounds per hand",
               "betting rounds in which a player made a decision"),
    MetricInfo("raises_per_round", "raises per betting round", "raises",
               "raises per betting round played (the opening bet of a round is not a raise; "
               "pre-flop the blind is the bet)"),
    MetricInfo("war_length", "raising-war length", "raises",
               "the most raises in one betting round of a hand, averaged over hands"),
    MetricInfo("fold_to_bet", "fold to a bet", "share of decisions",
               "decisions facing a bet, raise, blind or bring-in that were folds"),
    MetricInfo("wild_in_winner", "wild card in the winning hand",
               "share of winning showdown hands",
               "winning hands at showdown that held a wild card (in the seat's own cards or "
               "on the board); rules with fixed wild cards only"),
    MetricInfo("best_start_wins", "best starting hand wins", "share of hands",
               "hands played in which the seat dealt the strictly best five cards (scored "
               "by the cell's own showdown) won chips; draw games only (a first deal of "
               "five cards or more)"),
    MetricInfo("hands_per_freezeout", "hands per freeze-out", "hands",
               "hands a winner-take-all freeze-out of the cell's mix lasts at its rules "
               "(`[study] freezeouts`); one value per freeze-out, stopped ones at their limit"),
    MetricInfo("points", "points per game", "points per game",
               "a game family's study: each seat's points per game, all seats"),
    MetricInfo("score_spread", "spread of scores", "points",
               "a game family's study: the standard deviation of the seats' points within "
               "a game, averaged over games"),
    MetricInfo("dealer_edge", "dealer's edge per deal", "points per deal",
               "a game family whose score sheet names each deal's dealer: the dealer's "
               "points in a deal minus the mean of the other seats'"),
    MetricInfo("skill_edge", "skill edge", "bb per hand",
               "(stronger bot's net - weaker bot's net) / 2 per hand, the two bots of the "
               "cell's mix with the best and the worst result under the baseline's rules "
               "on half of its deals (the even orbits of the button), measured in every "
               "cell on the other half only (the odd orbits): chosen and measured on the "
               "same hands, equally strong bots would seem apart"),
)
METRICS: dict[str, MetricInfo] = {m.name: m for m in _BASE}
"""The scalar metrics of every cell; ``seat_net:P``, ``category:C`` and
``win_category:C`` are families (see :func:`metric_info`)."""


def metric_info(name: str) -> MetricInfo:
    """The description of metric ``name``, families included."""
    if name in METRICS:
        return METRICS[name]
    family, _, arg = name.partition(":")
    words = arg.replace("_", " ")
    if family == "seat_net":
        return MetricInfo(name, f"position {arg} result", "bb per hand (families: points)",
                          f"net result per hand of position {arg} (0: first left of the button; "
                          "a game family: points per game, left of the first dealer)")
    if family == "category":
        return MetricInfo(name, f"{words} at showdown", "share of showdown hands",
                          f"hands shown down whose high hand is {words}")
    if family == "win_category":
        return MetricInfo(name, f"{words} winning", "share of winning showdown hands",
                          f"winning hands at showdowns whose high hand is {words}")
    raise KeyError(name)
