"""Where AIVAT's residual comes from: a variance decomposition of the corrected pairs.

By telescoping, a corrected hand is ``v(root) + Σ_k δ_k`` with ``δ_k = E[v(after_k)] −
v(before_k)`` at every corrected step (a deal, or a declared decision): the value
function's own inconsistency, step by step (a value that is the true expectation under
the bots' policies makes every ``δ`` zero). This script plays a duplicate match, groups
the ``δ`` of each pair by street and kind (``chance:flop``, ``decision:turn``, ...), and
prints each group's share of the corrected pairs' variance (``cov(δ_g, A) / var(A)``,
which sums to 1 over the groups) with its own sd. A measure, never a test; run it on
seeds apart from the bench's when tuning anything.

    .venv/bin/python tools/aivat_residual.py --betting no_limit --bots tag,lag --hands 400
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

import numpy as np

import pokerarena.tournaments.aivat_engine as ae
from pokerarena.arena.faults import FaultPolicy
from pokerarena.engine.actions import DEALER

STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
CHANCE = {0: "hole", 3: "flop", 4: "turn", 5: "river"}


def _group(t: Any) -> str:
    board = len(t.before.hand.board)
    if t.actor == DEALER:
        return "chance:" + ("hole" if board == 0 and t.before.deal[0][0] == "dh" else
                            {0: "flop", 3: "turn", 4: "river"}[board])
    return "decision:" + STREETS[board]


class _Recording(ae.EngineAivat):
    """The estimator, keeping each step's ``δ`` (per seat) by group."""

    steps: list[tuple[str, tuple[float, ...]]]

    def correct(self, path: Any, played: Any) -> Any:
        self.steps = []
        self.root = tuple(self.value(path[0].before))
        return super().correct(path, played)

    def _keep(self, t: Any, got: Any) -> Any:
        if got is not None:
            after, before = self.value(t.after), self.value(t.before)
            self.steps.append((_group(t), tuple(a - g - b for a, g, b in
                                                zip(after, got, before, strict=True))))
        return got

    def chance_term(self, t: Any) -> Any:
        return self._keep(t, super().chance_term(t))

    def action_term(self, t: Any, played: Any) -> Any:
        return self._keep(t, super().action_term(t, played))


def decompose(variant: str, betting: str, bots: list[str], hands: int, seed: int,
              value: Any = None, lookahead: bool = False) -> dict[str, Any]:
    """Play and decompose; units: mbb/hand of ``bots[0]`` per duplicate pair."""
    rows: list[dict[str, float]] = []
    real_engine, real_nets = ae.EngineAivat, ae.TableAivat.nets

    def nets(self: Any, hand: Any, seat_of: Any, deal: int) -> Any:
        got = real_nets(self, hand, seat_of, deal)
        est = self.estimator
        row: dict[str, float] = defaultdict(float)
        s0 = seat_of[0]
        row["root"] = est.root[s0]
        for g, d in est.steps:
            row[g] += d[s0]
        rows.append(row)
        return got

    ae.EngineAivat = _Recording  # type: ignore[misc]
    ae.TableAivat.nets = nets  # type: ignore[method-assign]
    try:
        m = ae.play_engine_aivat(variant, bots, hands, seed, options={"betting": betting},
                                 value=value, policy=FaultPolicy(decision_time=None,
                                                                 hand_time=None),
                                 lookahead=lookahead)
    finally:
        ae.EngineAivat = real_engine  # type: ignore[misc]
        ae.TableAivat.nets = real_nets  # type: ignore[method-assign]
    k = 1000.0 / m.big_blind / 2  # chips per pair -> mbb per hand
    groups = sorted({g for r in rows for g in r})
    per_hand = np.array([[r.get(g, 0.0) for g in groups] for r in rows])
    pairs = per_hand.reshape(-1, 2, len(groups)).sum(axis=1) * k
    a = m.blocks("aivat")[:, 0] * k
    raw = m.blocks("raw")[:, 0] * k
    check = float(np.max(np.abs(pairs.sum(axis=1) - a)))
    var = float(np.var(a, ddof=1))
    out: dict[str, Any] = {
           "variant": variant, "betting": betting, "bots": bots, "pairs": int(a.size),
           "sd_raw": float(np.std(raw, ddof=1)), "sd_aivat": float(np.sqrt(var)),
           "sd_ratio": float(np.sqrt(var) / np.std(raw, ddof=1)),
           "telescoping_error": check, "groups": {}}
    for j, g in enumerate(groups):
        x = pairs[:, j]
        out["groups"][g] = {"share": float(np.cov(x, a)[0, 1] / var),
                            "sd": float(np.std(x, ddof=1))}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="holdem")
    p.add_argument("--betting", default="no_limit")
    p.add_argument("--bots", default="tag,lag")
    p.add_argument("--hands", type=int, default=400)
    p.add_argument("--seed", type=int, default=2_000_001)
    p.add_argument("--value", default=None,
                   help="a name of aivat_engine.VALUES (default: the default value)")
    p.add_argument("--fit", default=None, metavar="JSON",
                   help="the fitted value with the coefficients of this file (a trial fit)")
    p.add_argument("--lookahead", action="store_true",
                   help="play the last street ahead (aivat_lookahead)")
    args = p.parse_args()
    value: Any = None
    from pokerarena.engine.game import Game

    game = Game(args.variant, {"betting": args.betting})
    if args.fit:
        from pathlib import Path

        from pokerarena.tournaments.aivat_fit import FittedValue

        table = json.loads(Path(args.fit).read_text())[f"{args.variant}:{args.betting}"]
        value = FittedValue(game, table)
    elif args.value:
        value = ae.make_value(args.value, game)
    got = decompose(args.variant, args.betting, args.bots.split(","), args.hands, args.seed,
                    value, args.lookahead)
    print(json.dumps(got, indent=1))


if __name__ == "__main__":
    main()
