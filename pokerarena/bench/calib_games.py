"""Calibration cases of finding 6: the game families' duplicate comparison
(:func:`pokerarena.games.play.duplicate`), replayed where it broke.

* ``games.odd_table_3`` / ``games.odd_table_5``: red and black's ``rule`` bot under two
  names (``a`` and ``b``; the truth is 0) at 3 and 5 seats, 100 seeds a replication:
  the audit's construction. Two seatings gave ``a`` the last seat in both, and the
  interval closed in on that seat's edge; every rotation makes each seed's difference
  exactly 0 (the same play in every seat), so the interval is the bounds' one.
  ``…_own_streams``: the ``random`` bot, each name on its own random stream (still
  exchangeable, truth 0), so the differences spread and Student's interval is tested.
* ``games.degenerate_durak``: durak at 2 players, ``rule`` against ``random``, 40 seeds
  a replication (the family test's count) and its first 10: most replications see
  ``rule`` win every seed, a zero spread. The truth, :data:`DURAK_RULE_RANDOM`, was
  measured once on 40,000 other seeds (see there).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pokerarena.bench.calibration import Case, Coverage
from pokerarena.games import Family, family
from pokerarena.games.play import Comparison, duplicate

FINDING = 6

DURAK_RULE_RANDOM = 0.9705
"""The mean per-seed difference of durak's ``rule`` minus ``random`` at 2 players (default
options, first dealer seat 0), measured once on 40,000 seeds disjoint from the cases':
``duplicate(family("durak"), "rule", "random", players=2, games=40000, seed=99)``
gave 0.97049 with a standard error of 0.0008 (+1 on 96.6% of the seeds, so 40 seeds
are all +1 a quarter of the time). Its error is far below the intervals' widths, so a
coverage count hardly turns on it. No closed form: it is the bots' play."""

ODD_SEEDS = 100
DURAK_SEEDS = (10, 40)


def _rule_twin(name: str, seed: int | None) -> Any:
    """Red and black's ``rule`` bot whatever the name (it plays by the cards alone)."""
    return _red_black_bot("rule", seed)


def _random_twin(name: str, seed: int | None) -> Any:
    """Red and black's ``random`` bot whatever the name, each name on its own stream."""
    return _red_black_bot("random", None if seed is None else 2 * seed + (name == "b"))


def _red_black_bot(bot: str, seed: int | None) -> Any:
    new_bot = family("red_black").new_bot
    assert new_bot is not None
    return new_bot(bot, seed)


TWINS = {"rule": _rule_twin, "random_own_streams": _random_twin}
"""One bot under two names, ``a`` and ``b``: the truth is 0 either way."""


def twin_family(kind: str) -> Family:
    """Red and black whose bots ``a`` and ``b`` are one bot (:data:`TWINS`)."""
    return dataclasses.replace(family("red_black"), bots=("a", "b"), new_bot=TWINS[kind])


def _covers(c: Comparison, truth: float) -> bool:
    lo, hi = c.interval
    return lo <= truth <= hi


def _rep_seed(seed: int, r: int) -> int:
    return seed * 10_007 + r


def _odd_table(players: int) -> Case:
    def run(reps: int, seed: int) -> list[Coverage]:
        out = []
        for kind, suffix in (("rule", ""), ("random_own_streams", "_own_streams")):
            fam = twin_family(kind)
            comps = [duplicate(fam, "a", "b", players=players, games=ODD_SEEDS,
                               seed=_rep_seed(seed, r)) for r in range(reps)]
            out.append(Coverage(
                f"games.odd_table_{players}{suffix}", FINDING,
                f"red_black {kind.replace('_', ' ')} under two names, {players} seats, "
                f"{ODD_SEEDS} seeds: the interval covers 0", "coverage", 0.95,
                sum(_covers(c, 0.0) for c in comps), reps,
                extra={"mean_difference": round(sum(c.mean for c in comps) / max(1, reps), 4),
                       "all_seeds_equal": sum(c.degenerate for c in comps)}))
        return out

    return Case(f"games.odd_table_{players}", FINDING, run, default_reps=300, quick_reps=4)


def _degenerate_durak(reps: int, seed: int) -> list[Coverage]:
    fam = family("durak")
    most = max(DURAK_SEEDS)
    comps = [duplicate(fam, "rule", "random", players=2, games=most,
                       seed=_rep_seed(seed, r)) for r in range(reps)]
    out = []
    for n in DURAK_SEEDS:
        cut = [Comparison(c.a, c.b, c.diffs[:n], c.span) for c in comps]
        out.append(Coverage(
            f"games.degenerate_durak_{n}", FINDING,
            f"durak 2 players, rule - random, {n} seeds: the interval covers "
            f"{DURAK_RULE_RANDOM}", "coverage", 0.95,
            sum(_covers(c, DURAK_RULE_RANDOM) for c in cut), reps,
            extra={"seeds": n, "all_seeds_equal": sum(c.degenerate for c in cut)}))
    return out


CASES: list[Case] = [
    _odd_table(3),
    _odd_table(5),
    Case("games.degenerate_durak", FINDING, _degenerate_durak, default_reps=300,
         quick_reps=5),
]
