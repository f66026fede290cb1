"""Calibration cases of AIVAT (issue 26, first slice: :mod:`pokerarena.tournaments.aivat`)
at truths other than zero, from Leduc, where the exact evaluator gives every value.

Each replication plays :data:`DEALS` duplicate deals (both seatings of each, the blocks)
of a pairing through the engine, from its own seed, and asks whether the 95% interval
(Student's over the pairs) of entrant 0's chips per hand covers the exact value
(``pokerarena exact``'s ``values[0]``, averaged over the seatings). A variance
reduction is shown unbiased before it is shown small: AIVAT's coverage and raw's on the
same pairs, then the standard deviation of the AIVAT pairs over the raw ones
(``extra["sd_ratio"]``, pooled over the replications: the square root of the ratio of
mean variances).

- ``aivat.leduc_random_fixed`` / ``aivat.leduc_call_fixed``: both bots declare; the
  value function is the exact value under the ``random`` reference profile.
- ``aivat.leduc_blackbox``: ``random`` against :func:`leduc_fixed` with the latter's
  policy hidden from AIVAT (chance terms only at its decisions).
- ``aivat.leduc_noise``: the deliberately wrong value function (``noise``): still
  unbiased, only wider.
- ``aivat.leduc_plain``: without duplicate (blocks of two consecutive hands, the button
  moving), the reference value function.
- ``aivat.engine_leduc_ahead`` / ``aivat.engine_leduc_value``: the estimator matches,
  ``sprt --estimator aivat`` and runs use (:mod:`pokerarena.tournaments.aivat_engine`),
  on the engine's table with its default value function, the last street played ahead by
  the bots (``ahead``) or corrected by the value alone (``value``); beside AIVAT's
  coverage, how often AIVAT − raw covers 0 (``.diff``: its expectation is 0 exactly).

The figures in docs/exact.md ("AIVAT") come from
``pokerarena bench calibration --case aivat --json`` (300 replications, seed 2026).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from pokerarena.bench.calibration import Case, Coverage
from pokerarena.bots.base import Policy, SeatView
from pokerarena.bots.simple.declared import aggression

FINDING = 0  # issue 26 (the findings are issue 19's), said in each case's ``what``
DEALS = 200  # duplicate deals a replication (400 hands)
J, Q, K = 9, 10, 11  # ranks


def leduc_fixed(view: SeatView) -> Policy:
    """A fixed mixed Leduc strategy: with a pair, always raise and call; otherwise
    raise 10/20/70% and call a bet 20/60/100% with a jack, queen, king."""
    r = view.hole[0] >> 2
    if view.board and view.board[0] >> 2 == r:
        return aggression(view, 1.0, 1.0)
    return aggression(view, {J: 0.1, Q: 0.2, K: 0.7}[r], {J: 0.2, Q: 0.6, K: 1.0}[r])


def kuhn_fixed(view: SeatView) -> Policy:
    """A fixed mixed Kuhn strategy: bluff the jack a third of the time, call with the
    queen a third of the time, always bet and call with the king."""
    r = view.hole[0] >> 2
    return aggression(view, {J: 1 / 3, Q: 0.0, K: 1.0}[r], {J: 0.0, Q: 1 / 3, K: 1.0}[r])


FIXED: dict[str, Callable[[SeatView], Policy]] = {"leduc": leduc_fixed, "kuhn": kuhn_fixed}


def make(name: str, variant: str, seed: int) -> Any:
    """A built-in bot, or ``fixed``: the variant's fixed strategy as a DeclaredBot."""
    from pokerarena.bots.registry import make_bot
    from pokerarena.bots.simple.declared import DeclaredBot

    if name == "fixed":
        return DeclaredBot(FIXED[variant], seed=seed, name="fixed")
    return make_bot(name, seed=seed)


@functools.lru_cache(maxsize=16)
def truth(variant: str, a: str, b: str) -> float:
    """The exact value of ``a`` against ``b`` in chips per hand, averaged over seats."""
    from pokerarena.solvers.exact import evaluate

    return float(evaluate(variant, [make(a, variant, 0), make(b, variant, 0)]).values[0])


def _rep_seed(seed: int, r: int) -> int:
    return seed * 10_007 + r


def _bots(pair: tuple[str, str], s: int) -> list[Any]:
    """The pairing's two bots for the replication of seed ``s``."""
    return [make(pair[0], "leduc", 2 * s), make(pair[1], "leduc", 2 * s + 1)]


def _pooled_sd_ratio(reductions: Sequence[Any]) -> float:
    """The sd of the AIVAT blocks over raw's, pooled over the replications: the square
    root of the ratio of mean variances."""
    raw = sum(r.sd_raw ** 2 for r in reductions)
    return math.sqrt(sum(r.sd_reduced ** 2 for r in reductions) / raw) if raw > 0 \
        else float("nan")


def _case(name: str, pair: tuple[str, str], what: str, *, value: str = "random",
          declared: Sequence[bool] = (True, True), duplicate: bool = True,
          raw: bool = True) -> Case:
    def run(reps: int, seed: int) -> list[Coverage]:
        from pokerarena.tournaments.aivat import play_aivat

        v = truth("leduc", *pair)
        hits = {"aivat": 0, "raw": 0}
        reductions = []
        for r in range(reps):
            s = _rep_seed(seed, r)
            m = play_aivat("leduc", _bots(pair, s), 2 * DEALS, s, value=value,
                           duplicate=duplicate, declared=declared)
            for k in hits:
                hits[k] += m.estimate(k).covers(v)
            reductions.append(m.reduction())
        ratio = _pooled_sd_ratio(reductions)
        extra = {"truth": round(v, 6), "sd_ratio": round(ratio, 4),
                 "hands_ratio": round(ratio ** 2, 4), "value": value,
                 "declared": list(declared), "duplicate": duplicate,
                 "hands_per_replication": 2 * DEALS}
        out = [Coverage(f"{name}.aivat", FINDING,
                        f"issue 26: leduc {pair[0]} v {pair[1]}, {what}: AIVAT's interval "
                        f"covers the exact value {v:.4f}", "coverage", 0.95,
                        hits["aivat"], reps, extra=extra)]
        if raw:
            out.append(Coverage(f"{name}.raw", FINDING,
                                f"issue 26: leduc {pair[0]} v {pair[1]}, {what}: raw's "
                                f"interval covers the exact value {v:.4f}", "coverage",
                                0.95, hits["raw"], reps, extra={"truth": round(v, 6)}))
        return out

    return Case(name, FINDING, run, default_reps=300, quick_reps=3)


def _bias(values: Sequence[float], truth_value: float) -> dict[str, float]:
    """Bias or a short interval? The replications' estimates pooled: their ``mean`` with
    its standard error and ``z`` against the truth, and their spread (``sd``)."""
    n = len(values)
    if n < 2:
        return {}
    mean = sum(values) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1))
    se = sd / math.sqrt(n)
    return {"mean": round(mean, 6), "se_of_mean": round(se, 6), "sd": round(sd, 6),
            "z": round((mean - truth_value) / se, 3) if se > 0 else float("nan")}


ENGINE_DEALS = 100  # duplicate deals a replication of the engine's cases (200 hands)


def _engine_case(name: str, pair: tuple[str, str], what: str, *, lookahead: bool) -> Case:
    def run(reps: int, seed: int) -> list[Coverage]:
        from pokerarena.arena.faults import FaultPolicy
        from pokerarena.tournaments.aivat_engine import estimates, play_engine_aivat

        untimed = FaultPolicy(decision_time=None, hand_time=None)  # load never faults
        v = truth("leduc", *pair)
        hits = {"aivat": 0, "raw": 0, "diff": 0}
        reductions = []
        values: list[float] = []  # each replication's AIVAT estimate
        steps = {"ahead": 0, "value_alone": 0}
        for r in range(reps):
            s = _rep_seed(seed, r)
            m = play_engine_aivat("leduc", _bots(pair, s), 2 * ENGINE_DEALS, s,
                                  policy=untimed, lookahead=lookahead)
            got = estimates(m)
            hits["aivat"] += got["aivat"].covers(v)
            hits["raw"] += got["raw"].covers(v)
            hits["diff"] += got["diff"].covers(0.0)
            reductions.append(got["reduction"])
            values.append(got["aivat"].value)
            for k in steps:
                steps[k] += (m.lookahead_steps or {}).get(k, 0)
        ratio = _pooled_sd_ratio(reductions)
        extra = {"truth": round(v, 6), "sd_ratio": round(ratio, 4),
                 "hands_ratio": round(ratio ** 2, 4), "lookahead": lookahead,
                 "lookahead_steps": steps, "hands_per_replication": 2 * ENGINE_DEALS,
                 **_bias(values, v)}
        head = f"issue 26: leduc {pair[0]} v {pair[1]} on the engine's table, {what}"
        return [
            Coverage(f"{name}.aivat", FINDING, f"{head}: AIVAT's interval covers the "
                     f"exact value {v:.4f}", "coverage", 0.95, hits["aivat"], reps,
                     extra=extra),
            Coverage(f"{name}.raw", FINDING, f"{head}: raw's interval covers the exact "
                     f"value {v:.4f}", "coverage", 0.95, hits["raw"], reps,
                     extra={"truth": round(v, 6)}),
            Coverage(f"{name}.diff", FINDING, f"{head}: AIVAT − raw's interval covers 0",
                     "coverage", 0.95, hits["diff"], reps),
        ]

    return Case(name, FINDING, run, default_reps=300, quick_reps=2)


CASES: list[Case] = [
    _case("aivat.leduc_random_fixed", ("random", "fixed"), "both declare, duplicate"),
    _case("aivat.leduc_call_fixed", ("call", "fixed"), "both declare, duplicate"),
    _case("aivat.leduc_blackbox", ("random", "fixed"),
          "fixed is black-box (chance terms only), duplicate", declared=(True, False),
          raw=False),
    _case("aivat.leduc_noise", ("random", "fixed"),
          "a wrong value function (noise), duplicate", value="noise", raw=False),
    _case("aivat.leduc_plain", ("random", "fixed"), "both declare, no duplicate",
          duplicate=False),
    _engine_case("aivat.engine_leduc_ahead", ("random", "fixed"),
                 "the last street played ahead", lookahead=True),
    _engine_case("aivat.engine_leduc_value", ("random", "fixed"),
                 "corrected by the value alone", lookahead=False),
]
