"""Calibration of the sequential tests (issue 25, finding 3): the interval printed
after a test stopped, and the two-sided stop's α.

Pair results are drawn from real duplicate pairs of two copies of ``tag`` (fixed-limit
hold'em: spiky, half of them exactly zero), centred exactly and shifted by the truth,
so the true mean pair result is known to the last digit.

- ``sprt.interval_after_stop``: ``pokerarena sprt`` as users run it (its defaults:
  α = β = 0.05, a look after every pair from 40 on, H1 = 50 mbb/hand: a test of a few
  thousand pairs), at true differences 0, H1/2 and H1: how often ``ci95`` covers the
  truth. 1,000 replications per truth by default: the miss rate sits near 5% by
  design, and 300 cannot tell 94% from 96%.
- ``sprt.tournament_interval_after_stop``: a tournament's default ``[stop]`` (two-sided,
  α = β = 0.05, a look after each shard of 50 deals, at most 80 shards, H1 = 200
  mbb/hand, as the spec must name one), at 0, H1/2 and H1: how often the recorded
  ``ci95`` covers the truth.
- ``sprt.two_sided_alpha``: the same ``[stop]`` between equal bots: how often a match
  declares either bot ahead (α as written, for the whole match); and the one-sided
  ``pokerarena sprt``'s false H1 at a true H0.

The fixed-sample interval's coverage on the same replications (the figure before the
fix) is in each result's ``extra``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from pokerarena.bench.calibration import Case, Coverage
from pokerarena.tournaments.sprt import DEFAULT_H1

POOL_PAIRS = 2000
H1 = 200.0  # the tournament cases' H1 (a [stop] names its own)
SHARD = 50
SHARDS = 80
ALPHA = 0.05


@lru_cache(maxsize=1)
def pair_pool() -> np.ndarray:
    """Real duplicate pair results (mbb/hand) of ``tag`` against a copy, centred."""
    from pokerarena.tournaments.sequential import PairBatch, play_batch

    x = np.asarray(play_batch(PairBatch("holdem", "fixed_limit", {},
                                        ("tag", "tag?seed=1"), 0, POOL_PAIRS, 2026)))
    return x - x.mean()


def _draw(rng: np.random.Generator, truth: float, n: int) -> np.ndarray:
    return truth + rng.choice(pair_pool(), n)


def _sprt_once(rng: np.random.Generator, truth: float, h1: float = H1) -> dict:
    """One ``pokerarena sprt`` (looks after every pair) on drawn pairs: its final state."""
    from pokerarena.tournaments.sprt import Sprt

    test = Sprt(0.0, h1, ALPHA, ALPHA)
    for x in _draw(rng, truth, 20_000):
        if test.add(float(x)):
            break
    return test.state()


def _match_once(rng: np.random.Generator, truth: float) -> tuple[dict, tuple | None]:
    """One tournament match under the default two-sided ``[stop]``: its recorded state
    and verdict."""
    from pokerarena.platform.spec import StopRule
    from pokerarena.platform.stages import MatchTest

    test = MatchTest(StopRule(h0=0.0, h1=H1), ("a", "b"))
    verdict = None
    for _ in range(SHARDS):
        test.add(_draw(rng, truth, SHARD).tolist())
        if (verdict := test.check()) is not None:
            break
    return test.state(2), verdict


def _covers(iv: Sequence[float], truth: float) -> bool:
    return iv[0] <= truth <= iv[1]


def _coverage(name: str, once: Callable[[np.random.Generator, float], dict],
              what: str, h1: float = H1) -> Callable[[int, int], list[Coverage]]:
    def run(reps: int, seed: int) -> list[Coverage]:
        out = []
        for k, truth in enumerate((0.0, h1 / 2, h1)):
            rng = np.random.default_rng([seed, 3, k])
            hits = fixed = 0
            pairs = []
            for _ in range(reps):
                st = once(rng, truth)
                hits += _covers(st["ci95"], truth)
                fixed += _covers(st["ci95_fixed"], truth)
                pairs.append(st["pairs"])
            out.append(Coverage(name, 3, f"{what}, truth {truth:g} mbb/hand", "coverage",
                                0.95, hits, reps, extra={
                                    "fixed_sample_coverage": round(fixed / reps, 4),
                                    "median_pairs": float(np.median(pairs))}))
        return out
    return run


def _alpha(reps: int, seed: int) -> list[Coverage]:
    rng = np.random.default_rng([seed, 4])
    ahead = sum(_match_once(rng, 0.0)[1] not in (None, ("H0", None)) for _ in range(reps))
    rng = np.random.default_rng([seed, 5])
    false_h1 = sum(_sprt_once(rng, 0.0)["decision"] == "H1" for _ in range(reps))
    return [Coverage("sprt.two_sided_alpha", 3, "tournament [stop], two-sided, equal "
                     "bots: a bot found ahead", "error_rate", ALPHA, ahead, reps),
            Coverage("sprt.two_sided_alpha", 3, "pokerarena sprt (one-sided) at H0: H1 "
                     "accepted", "error_rate", ALPHA, false_h1, reps)]


CASES: list[Case] = [
    Case("sprt.interval_after_stop", 3, _coverage(
        "sprt.interval_after_stop", lambda r, t: _sprt_once(r, t, DEFAULT_H1),
        f"pokerarena sprt (h1 {DEFAULT_H1:g}): ci95 after the stop covers", DEFAULT_H1),
        default_reps=1000),
    Case("sprt.tournament_interval_after_stop", 3, _coverage(
        "sprt.tournament_interval_after_stop", lambda r, t: _match_once(r, t)[0],
        "tournament [stop]: ci95 after the stop covers")),
    Case("sprt.two_sided_alpha", 3, _alpha),
]
