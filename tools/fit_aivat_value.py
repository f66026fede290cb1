"""Regenerate ``pokerarena/tournaments/aivat_fit.json``: the fitted AIVAT value for
heads-up hold'em (``aivat_fit.FittedValue``; why it is what it is: that module).

Only seeds from 1,000,000 up are used (the bench and the tests use small seeds), so the
value is fixed before any hand it judges is played. Per betting system:

1. The pre-flop strength table: each of the 169 classes' equity against a random hand,
   from ``--preflop-samples`` seeded deals (seed 1,000,000 + the class).
2. Hands of every pair of :data:`MIX` in duplicate (``--hands`` each, seed 1,000,000 +
   1,000 × the pair's place + 100 × the system's), every state of each hand's walk where
   both seats are live with chips behind: its features from both sides and the excess
   of seat 0's result over ``eq · pot − committed``, in pots.
3. A ridge regression per cell of seat 0's excess over ``eq · pot − committed`` in units
   of :data:`SCALE`, rows weighted by the unit to the power :data:`POWER`.

    .venv/bin/python tools/fit_aivat_value.py            # both systems, writes the file
    .venv/bin/python tools/fit_aivat_value.py --hands 200 --out /tmp/fit.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from pokerarena.arena.faults import FaultPolicy
from pokerarena.arena.match import play_match
from pokerarena.evaluator import evaluate_batch
from pokerarena.tournaments.aivat import seeded_bots
from pokerarena.tournaments.aivat_engine import EngineWalk
from pokerarena.tournaments.aivat_fit import (
    CELLS,
    DATA,
    EXTRA,
    LINEAR,
    NAMES,
    State,
    Strength,
    class_index,
    scale,
)
from pokerarena.tournaments.aivat_value import EquityValue

BASE = 1_000_000
SYSTEMS = ("fixed_limit", "no_limit")
MIX = (("tag", "lag"), ("tag", "rock"), ("lag", "rock"), ("tag", "equity"),
       ("lag", "equity"), ("rock", "equity"), ("tag", "call"), ("lag", "call"),
       ("tag", "random"), ("lag", "random"), ("equity", "call"), ("tag", "tag"),
       ("lag", "lag"))
"""The bot pairs the value is fitted on: the built-in league, tag against lag among them
(the bench's pair, on other seeds), black-box-free."""
RIDGE = 1e-3
UNTIMED = FaultPolicy(decision_time=None, hand_time=None)
"""No time limits: the hands must not depend on the machine's load."""
SCALE = {"fixed_limit": "pot", "no_limit": "pot_stack"}
"""The excess's unit per system (``aivat_fit.scale``)."""
POWER = {"fixed_limit": 2.0, "no_limit": 1.0}
"""Rows are weighted by the unit to this power: the pot squared (chips squared, what
the variance counts) in limit games; in no limit the unit alone (squared, the few
stacks-deep pots drown the rest)."""


def preflop_table(samples: int) -> list[float]:
    """Each class's equity against a random hand (:func:`aivat_fit.class_index`)."""
    from pokerarena.evaluator import ranking

    rank = ranking("high")
    out = [0.0] * 169
    done = set()
    for a in range(52):
        for b in range(a):
            k = class_index([a, b])
            if k in done:
                continue
            done.add(k)
            rest = np.array([c for c in range(52) if c not in (a, b)], dtype=np.uint8)
            rng = np.random.default_rng(BASE + k)
            draw = rest[np.argsort(rng.random((samples, rest.size)), axis=1)[:, :7]]
            board = draw[:, 2:]
            mine = evaluate_batch(np.hstack([np.broadcast_to(
                np.array([a, b], dtype=np.uint8), (samples, 2)), board]), rank)
            theirs = evaluate_batch(np.hstack([draw[:, :2], board]), rank)
            out[k] = float(np.mean((mine > theirs) + 0.5 * (mine == theirs)))
    assert len(done) == 169
    return out


def _keep(into: list[Any]) -> Any:
    """``play_match``'s ``on_hand`` that keeps each finished hand in ``into``."""
    def on_hand(_no: int, hand: Any, _seats: Any) -> None:
        into.append(hand)
    return on_hand


def rows_of(betting: str, hands: int, preflop: list[float], pairs: Any = MIX
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features (seat 0's minus seat 1's, halved), targets (seat 0's excess, chips),
    pots, effective stacks and cells of every usable state of the pairs' hands."""
    walk = EngineWalk("holdem", {"betting": betting})
    value = EquityValue(walk.game, future=0.0)
    strength = Strength(value.shape.deck, value.shape.rank, preflop)
    xs: list[list[float]] = []
    ys: list[float] = []
    ws: list[float] = []
    effs: list[float] = []
    cells: list[int] = []
    for j, pair in enumerate(pairs):
        seed = BASE + 1000 * j + 100 * SYSTEMS.index(betting)
        got: list[Any] = []
        play_match(walk.game, seeded_bots(list(pair), seed), hands, seed, duplicate=True,
                   on_hand=_keep(got), policy=UNTIMED)
        for hand in got:
            r0 = float(hand.result().deltas[0])
            stacks = [int(hand.start[hand.pos_of[s]]) for s in range(2)]
            for t in walk.path(list(hand.log), hand.button, stacks):
                h = t.before.hand
                if h.is_over or any(h.folded) or any(len(h.cards_of(s)) < 2
                                                     for s in (0, 1)):
                    continue
                s = State(h)
                if min(s.stack) <= 0 or s.pot <= 0:
                    continue
                eq = value.equity(h, [0, 1])
                board = [int(c) for c in h.board]
                hs = [strength([int(c) for c in h.cards_of(i)], board) for i in (0, 1)]
                x = np.subtract(s.phi(0, eq[0], hs[0], hs[1]), s.phi(1, eq[1], hs[1], hs[0]))
                xs.append((x / 2.0).tolist())
                ys.append(r0 - (eq[0] * s.pot - s.committed[0]))
                ws.append(s.pot)
                effs.append(min(s.stack))
                cells.append(s.cell)
    return (np.asarray(xs), np.asarray(ys), np.asarray(ws), np.asarray(effs),
            np.asarray(cells))


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray, cells: np.ndarray
        ) -> tuple[list[float], dict[str, Any]]:
    """Weighted ridge per cell; the coefficients, flat, and each cell's fit quality."""
    k = x.shape[1]
    coef = np.zeros((CELLS, k))
    quality: dict[str, Any] = {}
    for c in range(CELLS):
        m = cells == c
        if m.sum() < 4 * k:
            quality[str(c)] = {"rows": int(m.sum())}
            continue
        xc, yc, wc = x[m], y[m], w[m]
        a = (xc * wc[:, None]).T @ xc
        lam = RIDGE * float(np.trace(a)) / k
        beta = np.linalg.solve(a + lam * np.eye(k), (xc * wc[:, None]).T @ yc)
        coef[c] = beta
        res = yc - xc @ beta
        quality[str(c)] = {"rows": int(m.sum()),
                           "r2_weighted": float(1 - np.sum(wc * res ** 2) /
                                                np.sum(wc * yc ** 2))}
    return coef.ravel().tolist(), quality


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=1200, help="hands per pair and system")
    p.add_argument("--preflop-samples", type=int, default=20_000)
    p.add_argument("--betting", action="append", choices=SYSTEMS)
    p.add_argument("--out", type=Path, default=DATA)
    p.add_argument("--extra", action="store_true", help="add EXTRA to the products")
    p.add_argument("--buckets", action="store_true",
                   help="add the strength-bucket tables to the products (measured worse)")
    p.add_argument("--weight-power", type=float, default=None,
                   help="rows weighted by the unit to this power (default: POWER)")
    p.add_argument("--scale", choices=("pot", "pot_stack"), default=None,
                   help="the excess's unit (default: SCALE of the system)")
    p.add_argument("--rows", type=Path, default=None, metavar="NPZ",
                   help="keep the rows here (read them if there: a refit only)")
    p.add_argument("--pairs", default=None, metavar="A:B,C:D",
                   help="fit on these bot pairs instead of the mix (say so where used)")
    args = p.parse_args()
    t0 = time.time()
    preflop = preflop_table(args.preflop_samples)
    out: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {}
    for betting in args.betting or SYSTEMS:
        pairs = MIX if args.pairs is None else tuple(
            tuple(p.split(":")) for p in args.pairs.split(","))
        cache = None if args.rows is None else args.rows.with_suffix(f".{betting}.npz")
        if cache is not None and cache.exists():
            z = np.load(cache)
            x, y, pot, eff, cells = z["x"], z["y"], z["pot"], z["eff"], z["cells"]
        else:
            x, y, pot, eff, cells = rows_of(betting, args.hands, preflop, pairs)
            if cache is not None:
                np.savez(cache, x=x, y=y, pot=pot, eff=eff, cells=cells)
        kind = args.scale or SCALE[betting]
        m = scale(kind, pot, eff)
        names = NAMES if args.buckets else LINEAR + EXTRA if args.extra else LINEAR
        power = POWER[betting] if args.weight_power is None else args.weight_power
        coef, quality = fit(x[:, :len(names)], y / m, m ** power, cells)
        out[f"holdem:{betting}"] = {
            "names": list(names), "weight_power": power, "cells": CELLS,
            "scale": kind,
            "coef": [round(c, 6) for c in coef],
            "preflop": [round(v, 5) for v in preflop],
            "fitted_on": {"pairs": [list(p) for p in pairs], "hands_per_pair": args.hands,
                          "seeds_from": BASE, "rows": int(y.size), "quality": quality}}
        print(f"{betting}: {y.size} states, {time.time() - t0:.0f} s", flush=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
