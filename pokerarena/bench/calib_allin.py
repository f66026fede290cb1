"""Calibration cases of the all-in equity settlement (see :mod:`pokerarena.bench.calibration`).

Issue 25, finding 2: settled hand by hand, the twins of a duplicate deal that go all in
at different points no longer share their board luck, and the settled figure was
noisier than the raw one. :func:`~pokerarena.tournaments.variance.settle_deal` settles
a deal's hands together at the point they all share. A variance reduction is shown
unbiased before it is shown small, so each replication plays, at no-limit hold'em:

- two copies of one bot (``lag``, which goes all in often and randomises) in
  duplicate: the settled estimate's 95% interval must cover 0, the truth by symmetry,
  at its nominal rate (the :class:`Coverage`);
- each pairing of :data:`PAIRINGS` in duplicate and without: the per-hand mean of
  (settled - raw) with its interval, over every replication's deals, must cover 0
  (``extra["bias"]``), and the standard deviation of the per-deal results settled
  over raw (``extra["sd_ratio"]``) is reported as settled now (the deal together), as
  settled before (each hand alone, Monte Carlo seeded by the hand) and without
  duplicate (each hand alone, unchanged); and :data:`OMAHA` in duplicate at pot-limit
  Omaha.

The figures in docs/tournaments.md ("Variance reduction") come from
``pokerarena bench calibration --case allin --json`` (300 replications, seed 2026).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from pokerarena.bench.calibration import Case, Coverage
from pokerarena.tournaments.estimates import Z95

PAIRINGS: tuple[tuple[str, str], ...] = (("tag", "lag"), ("maniac", "call"))
OMAHA = ("tag", "lag")  # also in duplicate at pot-limit Omaha (the dead-card path)
COPIES = "lag"
DEALS = 30  # duplicate deals per match (60 hands heads-up)
HANDS = 60  # hands per match without duplicate


def _game(variant: str = "holdem", betting: str = "no_limit") -> Any:
    from pokerarena.workers.records import GameCache

    return GameCache().get(variant, {"betting": betting})


def _hands(game: Any, bots: Sequence[str], hands: int, seed: int, duplicate: bool
           ) -> list[tuple[Any, list[int]]]:
    from pokerarena.arena.match import play_match

    out: list[tuple[Any, list[int]]] = []
    play_match(game, list(bots), hands, seed, duplicate=duplicate,
               on_hand=lambda _no, hand, seat_of: out.append((hand, list(seat_of))))
    return out


def _deal_results(played: list[tuple[Any, list[int]]], rotations: int, bb: float
                  ) -> dict[str, list[float]]:
    """Per deal (``rotations`` hands; 1: each hand alone), entrant 0's result per hand
    in big blinds: raw, settled as the recorder settles it now, settled hand by hand as
    before (each hand alone, its Monte Carlo boards seeded by the hand); and whether the
    deal had a runout and whether its hands' depths differed."""
    from pokerarena.tournaments.variance import (
        allin_board,
        equity_deltas,
        result_depth,
        settle_deal,
    )
    from pokerarena.workers.gamecols import EQUITY_SAMPLES

    out: dict[str, list[float]] = {"raw": [], "now": [], "before": [], "runout": [],
                                   "apart": [], "equal": []}
    for d in range(0, len(played), rotations):
        deal = played[d:d + rotations]
        hands = [h for h, _ in deal]
        if rotations > 1:
            now = settle_deal(hands, samples=EQUITY_SAMPLES, seed=d // rotations)
        else:
            now = [equity_deltas(hands[0], samples=EQUITY_SAMPLES, seed=d)]
        raw = tot_now = tot_before = 0.0
        for k, ((hand, seat_of), settled) in enumerate(zip(deal, now, strict=True)):
            deltas = [float(x) for x in hand.result().deltas]
            old = equity_deltas(hand, samples=EQUITY_SAMPLES, seed=d + k) \
                if rotations > 1 else settled
            s = seat_of[0]
            raw += deltas[s]
            tot_now += deltas[s] if settled is None else settled[s]
            tot_before += deltas[s] if old is None else old[s]
        runouts = [allin_board(h) is not None for h in hands]
        out["raw"].append(raw / rotations / bb)
        out["now"].append(tot_now / rotations / bb)
        out["before"].append(tot_before / rotations / bb)
        out["runout"].append(float(any(runouts)))
        out["equal"].append(float(tot_now == raw))
        out["apart"].append(float(any(runouts) and len({result_depth(h) for h in hands}) > 1))
    return out


def _mean_ci(x: Sequence[float]) -> tuple[float, float]:
    a = np.asarray(x, dtype=np.float64)
    if a.size < 2:
        return float(a.mean()) if a.size else 0.0, math.inf
    return float(a.mean()), Z95 * float(a.std(ddof=1)) / math.sqrt(a.size)


def _sd_ratio(settled: Sequence[float], raw: Sequence[float]) -> float | None:
    sr = float(np.std(raw, ddof=1))
    return round(float(np.std(settled, ddof=1)) / sr, 3) if sr > 0 else None


def _summary(blocks: dict[str, list[float]], duplicate: bool) -> dict[str, Any]:
    diff = [a - b for a, b in zip(blocks["now"], blocks["raw"], strict=True)]
    mean, half = _mean_ci(diff)
    d: dict[str, Any] = {
        "blocks": len(diff), "runout_blocks": int(sum(blocks["runout"])),
        "bias_bb_per_hand": round(mean, 5), "bias_ci95": round(half, 5),
        "bias_covers_0": abs(mean) <= half + 1e-9,  # settled == raw in every block: 0 ± 0
        "sd_ratio": _sd_ratio(blocks["now"], blocks["raw"])}
    if duplicate:
        d["runout_deals_apart"] = int(sum(blocks["apart"]))
        d["runout_deals_settled_as_raw"] = int(sum(
            e and r for e, r in zip(blocks["equal"], blocks["runout"], strict=True)))
        d["sd_ratio_before"] = _sd_ratio(blocks["before"], blocks["raw"])
        old = [a - b for a, b in zip(blocks["before"], blocks["raw"], strict=True)]
        m, h = _mean_ci(old)
        d["bias_before_bb_per_hand"], d["bias_before_ci95"] = round(m, 5), round(h, 5)
    return d


def _seed(seed: int, rep: int, what: int) -> int:
    return int(np.random.SeedSequence([seed, rep, what]).generate_state(1)[0])


def run_twins(reps: int, seed: int) -> list[Coverage]:
    """The case ``allin.duplicate_twins`` (see the module's docstring)."""
    from pokerarena.arena.match import big_blind

    game = _game()
    bb = float(big_blind(game))
    omaha = _game("omaha", "pot_limit")
    omaha_bb = float(big_blind(omaha))
    pooled: dict[str, dict[str, list[float]]] = {}
    hits = 0
    for r in range(reps):
        copies = _deal_results(_hands(game, (COPIES, COPIES), 2 * DEALS,
                                      _seed(seed, r, 0), True), 2, bb)
        mean, half = _mean_ci(copies["now"])
        hits += abs(mean) <= half
        for i, pair in enumerate(PAIRINGS):
            for duplicate in (True, False):
                name = f"{pair[0]}_v_{pair[1]}" + ("_duplicate" if duplicate else "")
                blocks = _deal_results(
                    _hands(game, pair, 2 * DEALS if duplicate else HANDS,
                           _seed(seed, r, 1 + 2 * i + duplicate), duplicate),
                    2 if duplicate else 1, bb)
                into = pooled.setdefault(name, {k: [] for k in blocks})
                for k, v in blocks.items():
                    into[k].extend(v)
        blocks = _deal_results(_hands(omaha, OMAHA, 2 * DEALS, _seed(seed, r, 9), True),
                               2, omaha_bb)
        into = pooled.setdefault("omaha_" + "_v_".join(OMAHA) + "_duplicate",
                                 {k: [] for k in blocks})
        for k, v in blocks.items():
            into[k].extend(v)
    extra = {name: _summary(b, name.endswith("_duplicate")) for name, b in pooled.items()}
    extra["settings"] = {"game": "no-limit hold'em heads-up (omaha_: pot-limit Omaha)",
                         "deals_per_match": DEALS,
                         "hands_per_match_without_duplicate": HANDS,
                         "copies": COPIES, "block": "a deal (duplicate) or a hand"}
    return [Coverage("allin.duplicate_twins", 2,
                     f"{COPIES} v {COPIES} in duplicate, all-ins settled by the deal "
                     "(settle_deal): the 95% interval covers 0",
                     "coverage", 0.95, hits, reps, extra=extra)]


CASES: list[Case] = [Case("allin.duplicate_twins", 2, run_twins, default_reps=300,
                          quick_reps=3)]
