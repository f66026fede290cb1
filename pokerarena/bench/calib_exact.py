"""Calibration at truths other than zero (issue 26, part 4): the sequential test and the
ratings, judged against Leduc's exact values.

Issue 19's cases know their truth by construction (two copies of a bot: a difference of
zero). Here the truth is what :func:`pokerarena.solvers.exact.evaluate` (``pokerarena
exact``) computes by walking every deal and line of play of two declared bots, so the
tests are checked where the difference is *not* zero. Every replication plays fresh
duplicate Leduc pairs through the engine from its own seed (a Leduc pair costs a
fraction of a millisecond: no pool to resample, no doubt about the truth of a pool).

- ``exact.sprt_false_positive``: ``Sprt`` with H0 at the exact difference (mbb/hand)
  and H1 = H0 + :data:`DELTA`: how often it accepts H1 (an error; at most α).
- ``exact.sprt_power``: H1 at the exact difference, H0 = H1 − :data:`DELTA`: how often
  it accepts H1 (at least 1 − β).
- ``exact.ratings_order``: a round robin of four bots whose exact pairwise values order
  them (:data:`BOTS`), rated by Bradley-Terry as the leaderboard fits it (results per
  segment of ``SEGMENT_DEALS`` duplicate deals, every pairing dealt the same cards):
  how often its order is the exact one. A measured rate: the platform claims none.

Interval coverage of raw, duplicate and plain (no duplicate) estimates at Leduc's exact
values is ``calib_aivat``'s (``aivat.leduc_*.raw``, ``aivat.leduc_plain``), not
repeated here; Leduc is fixed-limit with deep stacks, so no all-in settlement applies.

The figures in docs/tournaments.md come from
``pokerarena bench calibration --case exact --json`` (300 replications, seed 2026).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from pokerarena.bench.calib_aivat import J, K, Q, leduc_fixed
from pokerarena.bench.calibration import Case, Coverage
from pokerarena.bots.base import Policy, SeatView
from pokerarena.bots.simple.declared import DeclaredBot, aggression

FINDING = 0  # issue 26 (the findings are issue 19's), said in each case's ``what``
DELTA = 100.0  # mbb/hand between H0 and H1: about a tenth of a pair's spread
ALPHA = BETA = 0.05
BATCH = 100  # duplicate pairs a played match (the test reads them one by one)
MAX_PAIRS = 20_000  # undecided by then: counted as not accepting H1
PAIRINGS: tuple[tuple[str, str], ...] = (("fixed", "random"), ("tight", "fixed"))
BOTS: tuple[str, ...] = ("tight", "fixed", "maniac", "random")  # the exact order
SEGMENTS = 10  # segments a pairing a replication of the round robin


def leduc_tight(view: SeatView) -> Policy:
    """A tight fixed Leduc strategy: with a pair, always raise and call; otherwise never
    raise a jack or queen, raise a king half the time; call a bet never with a jack,
    half the time with a queen, always with a king. It beats :func:`leduc_fixed` by
    about 110 mbb/hand: a small, known edge."""
    r = view.hole[0] >> 2
    if view.board and view.board[0] >> 2 == r:
        return aggression(view, 1.0, 1.0)
    return aggression(view, {J: 0.0, Q: 0.0, K: 0.5}[r], {J: 0.0, Q: 0.5, K: 1.0}[r])


class LeducFixed(DeclaredBot):
    """:func:`~pokerarena.bench.calib_aivat.leduc_fixed` as a bot a spec can name
    (``pokerarena.bench.calib_exact:LeducFixed``), so ``pokerarena exact`` can check
    the truths used here."""

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(leduc_fixed, seed, name="fixed", **options)


class LeducTight(DeclaredBot):
    """:func:`leduc_tight` as a bot a spec can name."""

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(leduc_tight, seed, name="tight", **options)


SPECS: dict[str, str] = {"fixed": f"{__name__}:LeducFixed",
                         "tight": f"{__name__}:LeducTight"}


def spec(name: str) -> str:
    """The bot spec of a name used here (a built-in's name is its spec)."""
    return SPECS.get(name, name)


def _bot(name: str, seed: int) -> Any:
    from pokerarena.bots.registry import make_bot

    return make_bot(spec(name), seed=seed)


@lru_cache(maxsize=1)
def _game() -> Any:
    from pokerarena.engine.game import Game

    return Game("leduc")


@lru_cache(maxsize=1)
def _tree() -> Any:
    from pokerarena.solvers.exact import build_tree

    return build_tree("leduc")


def mbb_per_chip() -> float:
    """mbb per chip: the unit of pair results (the big blind, Leduc's small bet)."""
    from pokerarena.arena.match import big_blind

    return 1000.0 / big_blind(_game())


@lru_cache(maxsize=32)
def truth(a: str, b: str) -> float:
    """The exact value of ``a`` against ``b`` in mbb/hand, averaged over the seatings
    (``pokerarena exact``'s ``values[0]`` in chips per hand, times :func:`mbb_per_chip`)."""
    from pokerarena.solvers.exact import evaluate

    res = evaluate("leduc", [_bot(a, 0), _bot(b, 0)], [a, b], tree=_tree())
    return float(res.values[0]) * mbb_per_chip()


def exact_order(bots: Sequence[str] = BOTS) -> tuple[str, ...]:
    """``bots`` strongest first by their exact pairwise values; an error unless every
    bot beats every one after it (else "the exact order" means nothing)."""
    score = {a: sum(truth(a, b) for b in bots if b != a) for a in bots}
    order = tuple(sorted(bots, key=lambda a: -score[a]))
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if not truth(a, b) > 0:
                raise ValueError(f"no exact order: {a} does not beat {b}")
    return order


def _seeds(*key: int, n: int = 3) -> list[int]:
    """``n`` independent 31-bit seeds from a key (case, pairing, replication, batch)."""
    state = np.random.SeedSequence([int(k) for k in key]).generate_state(n)
    return [int(s) >> 1 for s in state]


def pairs(a: str, b: str, n: int, key: Sequence[int], *,
          deal_seed: int | None = None) -> np.ndarray:
    """``n`` duplicate pairs of ``a`` against ``b`` played through the engine from
    ``key``: each pair's result for ``a`` in mbb/hand (as ``pokerarena sprt`` reads
    them: :func:`~pokerarena.tournaments.sequential.play_batch`)."""
    from pokerarena.arena.match import play_match

    s_match, s_a, s_b = _seeds(*key)
    res = play_match(_game(), [_bot(a, s_a), _bot(b, s_b)], 2 * n, s_match,
                     duplicate=True, deal_seed=deal_seed)
    return np.asarray(res.entrants[0].samples, dtype=np.float64) * mbb_per_chip() / 2


def sprt_once(a: str, b: str, h0: float, h1: float, key: Sequence[int]) -> dict[str, Any]:
    """One GSPRT of H0 against H1 on fresh pairs of ``a`` against ``b``: its final
    state (``decision`` stays ``inconclusive`` after :data:`MAX_PAIRS`)."""
    from pokerarena.tournaments.sprt import Sprt

    test = Sprt(h0, h1, ALPHA, BETA)
    batch = 0
    while test.n < MAX_PAIRS:
        for x in pairs(a, b, BATCH, (*key, batch)):
            if test.add(float(x)):
                return test.state(final=False)
        batch += 1
    return test.state(final=False)


def _sprt_case(name: str, tag: int, power: bool) -> Case:
    def run(reps: int, seed: int) -> list[Coverage]:
        out = []
        for p, (a, b) in enumerate(PAIRINGS):
            v = truth(a, b)
            h0, h1 = (v - DELTA, v) if power else (v, v + DELTA)
            h1_accepted = undecided = 0
            used = []
            for r in range(reps):
                st = sprt_once(a, b, h0, h1, (seed, tag, p, r))
                h1_accepted += st["decision"] == "H1"
                undecided += st["decision"] == "inconclusive"
                used.append(st["pairs"])
            extra = {"truth_mbb": round(v, 3), "h0": round(h0, 3), "h1": round(h1, 3),
                     "pairing": [a, b], "specs": [spec(a), spec(b)],
                     "median_pairs": float(np.median(used)), "undecided": undecided}
            what = (f"issue 26: leduc {a} v {b}, exact truth {v:.1f} mbb/hand; SPRT "
                    f"H0 {h0:.1f}, H1 {h1:.1f} (α = β = {ALPHA:g}): H1 accepted")
            if power:
                out.append(Coverage(name, FINDING, what + " (power)", "coverage",
                                    1 - BETA, h1_accepted, reps, extra=extra))
            else:
                out.append(Coverage(name, FINDING, what + " (false positive)",
                                    "error_rate", ALPHA, h1_accepted, reps, extra=extra))
        return out

    return Case(name, FINDING, run, default_reps=300, quick_reps=3)


def round_robin(order: Sequence[str], key: Sequence[int]
                ) -> tuple[list[tuple[int, int, float]], list[int]]:
    """One round robin of ``order``: per pairing, :data:`SEGMENTS` segments of
    ``SEGMENT_DEALS`` duplicate deals, segment *k* of every pairing dealt the same
    cards (as a tournament's common deals): ``(i, j, mbb of i, segment)`` rows split as
    Bradley-Terry takes them (results and their clusters)."""
    from pokerarena.tournaments.standings import SEGMENT_DEALS

    deal_seed = _seeds(*key, 0, n=1)[0]
    rows: list[tuple[int, int, float]] = []
    clusters: list[int] = []
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            x = pairs(order[i], order[j], SEGMENTS * SEGMENT_DEALS, (*key, 1 + i, 1 + j),
                      deal_seed=deal_seed)
            for k, seg in enumerate(x.reshape(SEGMENTS, SEGMENT_DEALS).sum(axis=1)):
                rows.append((i, j, float(seg)))
                clusters.append(k)
    return rows, clusters


def _ratings(reps: int, seed: int) -> list[Coverage]:
    from pokerarena.tournaments.ratings import bradley_terry
    from pokerarena.tournaments.standings import SEGMENT_DEALS

    order = exact_order()
    k = len(order)
    right = top = chips_right = 0
    for r in range(reps):
        rows, clusters = round_robin(order, (seed, 3, r))
        rated = bradley_terry(list(order), rows, clusters=clusters, resamples=2, seed=r)
        got = sorted(range(k), key=lambda i: -rated[i].value)
        right += got == list(range(k))
        top += got[0] == 0
        net = np.zeros(k)  # the chips' own order (total bankroll), for contrast
        for i, j, x in rows:
            net[i] += x
            net[j] -= x
        chips_right += list(np.argsort(-net)) == list(range(k))
    truths = {f"{a} v {b}": round(truth(a, b), 3)
              for i, a in enumerate(order) for b in order[i + 1:]}
    what = (f"issue 26: leduc round robin {' > '.join(order)} (exact, mbb/hand: "
            + ", ".join(f"{p} {v:.0f}" for p, v in truths.items())
            + f"), {SEGMENTS} segments of {SEGMENT_DEALS} duplicate deals a pairing: "
            "Bradley-Terry finds the exact order")
    return [Coverage("exact.ratings_order", FINDING, what, "measured", 1.0, right, reps,
                     extra={"order": list(order), "truths_mbb": truths,
                            "specs": [spec(b) for b in order],
                            "top_recovered": round(top / reps, 4) if reps else None,
                            "chips_order_recovered": (round(chips_right / reps, 4)
                                                      if reps else None),
                            "segments_per_pairing": SEGMENTS,
                            "deals_per_segment": SEGMENT_DEALS})]


CASES: list[Case] = [
    _sprt_case("exact.sprt_false_positive", 1, power=False),
    _sprt_case("exact.sprt_power", 2, power=True),
    Case("exact.ratings_order", FINDING, _ratings, default_reps=300, quick_reps=3),
]
