"""A tournament's standings from its blocks: rates with intervals, the cross table, the
ACPC's two rankings, ratings with uncertainty and their stability.

Input is plain data (one :class:`Block` per bot per deal of a match), so the standings
do not depend on where the rows came from (Parquet through DuckDB, a match in memory).

**What is independent.** With common deals (a tournament's default), deal *k* of every
match of a game has the same cards, and a bot that keeps its lineup position replays
them in all its matches: its results on deal *k* are correlated across matches
(positively where it holds the same seat, negatively where it holds the seat it played
against). A deal is therefore one cluster across matches: every interval here sums a
bot's results over the matches of a deal before estimating the variance, and the
ratings' bootstrap resamples deals (segments of deals) for all pairings at once. Where
deals are not shared the clusters merge independent results, which costs a little
width and never coverage. Until issue 25 each (match, deal) was a block: four copies
of ``tag``, 80 round robins, the intervals covered 74-75% for two bots and 100% for the
others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.tournaments.estimates import Z95, block_rate
from pokerarena.tournaments.rankings import instant_runoff, total_bankroll
from pokerarena.tournaments.ratings import bradley_terry, openskill_ratings, order_stability


@dataclass(frozen=True)
class Block:
    """What ``bot`` won (in big blinds) over the ``hands`` hands of deal ``deal`` of
    match ``match``, whose lineup was ``lineup``."""

    match: int
    deal: int
    bot: str
    bbs: float
    hands: int
    lineup: tuple[str, ...]


def clusters(blocks: Sequence[Block]) -> tuple[list[float], list[int]]:
    """The blocks' big blinds and hands summed per deal (over every match that dealt
    it): the independent units of the variance, in deal order."""
    bbs: dict[int, float] = defaultdict(float)
    hands: dict[int, int] = defaultdict(int)
    for b in blocks:
        bbs[b.deal] += b.bbs
        hands[b.deal] += b.hands
    keys = sorted(bbs)
    return [bbs[k] for k in keys], [hands[k] for k in keys]


def _rate(blocks: Sequence[Block]) -> dict[str, Any]:
    est = block_rate(*clusters(blocks))
    return est.as_dict(scale=1000.0, digits=1)


def _cross(bots: list[str], blocks: Sequence[Block]
           ) -> tuple[list[list[float | None]], list[list[float | None]]]:
    """``mbb[i][j]``: bot i's mbb/hand against bot j, with its 95% half-width; None where
    they never met. Heads-up it is what i won from j. At a table of three or more, i's
    own result is the same in every column (what it won from the whole table), so the
    cell is the pairwise part on the same deals: half the difference of their results
    per hand, ``(x_i − x_j) / 2``, which is i's result where the game is zero-sum between
    the two of them, and cancels the deal's luck that they share."""
    by_deal: dict[tuple[int, int], dict[str, Block]] = defaultdict(dict)
    for b in blocks:
        by_deal[(b.match, b.deal)][b.bot] = b
    by_pair: dict[tuple[str, str], list[Block]] = defaultdict(list)
    for at in by_deal.values():
        for x in at.values():
            for y in at.values():
                if y.bot == x.bot:
                    continue
                bbs = x.bbs if len(x.lineup) == 2 else \
                    (x.bbs - y.bbs * x.hands / max(1, y.hands)) / 2
                by_pair[(x.bot, y.bot)].append(Block(x.match, x.deal, x.bot, bbs, x.hands,
                                                     x.lineup))
    mbb: list[list[float | None]] = [[None] * len(bots) for _ in bots]
    ci: list[list[float | None]] = [[None] * len(bots) for _ in bots]
    for i, a in enumerate(bots):
        for j, c in enumerate(bots):
            if (a, c) in by_pair:
                r = _rate(by_pair[(a, c)])
                mbb[i][j], ci[i][j] = r["value"], r["ci95"]
    return mbb, ci


SEGMENT_DEALS = 25
MIN_SEGMENTS = 5  # per pairing (both seating orders together), for Bradley-Terry intervals


def _heads_up_pairs(bots: list[str], blocks: Sequence[Block], segment: int = SEGMENT_DEALS
                    ) -> list[tuple[int, int, float, int]]:
    """(i, j, bbs of i, segment) per segment of ``segment`` consecutive deals of a
    heads-up match between two different bots, ``i`` the first of the two in ``bots``.
    A segment, not a single deal, is the game of the rating: one deal is won by whoever
    wins the blinds, a segment by whoever wins chips, so the ratings follow the chips (a
    tight bot that folds most deals still wins its segments). A match's shards seat its
    lineup rotated; both seating orders of a segment count as one result. The segment
    number is the bootstrap's cluster: segment *k* of every pairing dealt the same cards
    (common deals)."""
    index = {b: k for k, b in enumerate(bots)}
    seg: dict[tuple[int, int, int, int], float] = defaultdict(float)
    for b in blocks:
        if len(b.lineup) == 2 and len(set(b.lineup)) == 2:
            i, j = index[b.bot], index[b.lineup[1] if b.bot == b.lineup[0] else b.lineup[0]]
            if i < j:
                seg[(b.deal // segment, b.match, i, j)] += b.bbs
    return [(i, j, x, k) for (k, _, i, j), x in sorted(seg.items())]


def standings(blocks: Sequence[Block], *, seed: int = 0, resamples: int = 200
              ) -> dict[str, Any]:
    """Everything a leaderboard shows, JSON-ready (mbb/hand; ratings on their scales)."""
    by_bot: dict[str, list[Block]] = defaultdict(list)
    for b in blocks:
        by_bot[b.bot].append(b)
    rates = {bot: _rate(bs) for bot, bs in by_bot.items()}
    bots = sorted(rates, key=lambda b: (-rates[b]["value"], b))
    mbb, ci = _cross(bots, blocks)
    filled = [[x if x is not None else 0.0 for x in row] for row in mbb]
    out: dict[str, Any] = {
        "bots": [{"bot": b, **rates[b]} for b in bots],
        "cross": {"bots": bots, "mbb_per_hand": mbb, "ci95": ci},
        "total_bankroll": [{"bot": b, "mbb_per_hand": round(v, 1)}
                           for b, v in total_bankroll(bots, filled)],
        "instant_runoff": instant_runoff(bots, filled),
    }
    segments = _heads_up_pairs(bots, blocks)
    if segments and len(bots) >= 2:
        pairs = [(i, j, x) for i, j, x, _ in segments]
        out["bradley_terry"] = [r.as_dict() for r in bradley_terry(
            bots, pairs, clusters=[k for *_, k in segments], resamples=resamples,
            seed=seed)]
        per_pair: dict[tuple[int, int], int] = defaultdict(int)
        for i, j, _ in pairs:
            per_pair[(i, j)] += 1
        if min(per_pair.values()) < MIN_SEGMENTS:  # a bootstrap of so few says nothing
            for r in out["bradley_terry"]:
                r["lo"] = r["hi"] = None
        for r in out["bradley_terry"]:  # every resample alike (one bot won every
            if r["lo"] is not None and r["hi"] - r["lo"] <= 0:  # segment): no certainty
                r["lo"] = r["hi"] = None
        out["stability"] = order_stability(bots, pairs, drop=max(1, len(pairs) // 20),
                                           seed=seed)
    out["cumulative"] = {b: _cumulative(by_bot[b]) for b in bots}
    rated, history = openskill_ratings(bots, _openskill_blocks(bots, blocks))
    out["openskill"] = [r.as_dict() for r in rated]
    step = max(1, len(history) // 100)
    out["openskill_history"] = [[round(x, 2) for x in h] for h in history[::step]]
    return out


POINTS = 100


def _cumulative(blocks: Sequence[Block]) -> dict[str, list[float]]:
    """A bot's cumulative winnings in big blinds over its hands, in play order (match,
    deal), with the 95% band a zero-edge bot of the same variance would stay in: ±1.96
    sd √k after k blocks, times the square root of the design effect of shared deals
    (the variance of the total with deals as clusters over the variance with blocks
    independent), so the band's end is the leaderboard interval's: at most
    :data:`POINTS` points."""
    order = sorted(blocks, key=lambda b: (b.match, b.deal))
    xs = np.array([b.bbs for b in order])
    hands = np.cumsum([b.hands for b in order])
    total = np.cumsum(xs)
    sd = float(xs.std(ddof=1)) if len(xs) > 1 else 0.0
    band = Z95 * sd * np.sqrt(np.arange(1, len(xs) + 1) * _design_effect(order, xs))
    idx = np.unique(np.linspace(0, len(xs) - 1, min(POINTS, len(xs))).round().astype(int))
    return {"hands": [int(h) for h in hands[idx]],
            "bb": [round(float(v), 2) for v in total[idx]],
            "band": [round(float(v), 2) for v in band[idx]]}


def _design_effect(blocks: Sequence[Block], xs: np.ndarray) -> float:
    """Var(total) with deals as clusters over Var(total) with blocks independent (1
    when nothing is shared, or too little to tell)."""
    if len(xs) < 3:
        return 1.0
    per_deal, _ = clusters(blocks)
    if len(per_deal) < 2:
        return 1.0
    naive = len(xs) * float(xs.var(ddof=1))
    clustered = len(per_deal) * float(np.var(per_deal, ddof=1))
    return clustered / naive if naive > 0 else 1.0


def _openskill_blocks(bots: list[str], blocks: Sequence[Block]
                      ) -> list[list[tuple[int, float]]]:
    """One rating event per segment of a match (as for Bradley-Terry): every distinct
    bot at it with its chips."""
    index = {b: k for k, b in enumerate(bots)}
    grouped: dict[tuple[int, int], dict[str, float]] = defaultdict(dict)
    for b in blocks:
        g = grouped[(b.match, b.deal // SEGMENT_DEALS)]
        g[b.bot] = g.get(b.bot, 0.0) + b.bbs
    return [[(index[bot], x) for bot, x in sorted(g.items())]
            for _, g in sorted(grouped.items()) if len(g) >= 2]
