"""``pokerarena bench solve``: our CFR+ (:mod:`pokerarena.solvers.cfr`) against
OpenSpiel's C++ CFR+ (``pyspiel.CFRPlusSolver``: alternating updates, regret-matching+,
linear averaging, as ours) on the same machine in one run, each timed to an
exploitability below a target (default 1e-3 chips per hand on Leduc).

Each side first finds the iteration count at which its average strategy's exploitability
falls below the target (measured every ``check_every`` iterations: ours exactly over our
tree, OpenSpiel's by ``pyspiel.exploitability``, both NashConv / 2 in chips per hand), then
a fresh solver runs exactly that many iterations, timed with no measurement in between;
the best of ``repeats`` runs is reported. Our tree is walked and flattened once, before
and apart from the timing (``tree_seconds``), and our kernels are compiled by a warm-up.
OpenSpiel is a peer (the ``peers`` extra), imported only here.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from typing import Any

from pokerarena.errors import UserError

PEER_GAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}


def _ours(variant: str, target: float, check_every: int, max_iterations: int,
          repeats: int) -> dict[str, Any]:
    from pokerarena.solvers.cfr import Solver, flatten
    from pokerarena.solvers.exact import build_tree

    t0 = time.perf_counter()
    flat = flatten(build_tree(variant))
    tree_seconds = time.perf_counter() - t0
    warm = Solver(flat)
    warm.run(2)
    warm.exploitability()                       # compiles (or loads) every kernel
    probe = Solver(flat)
    t0 = time.perf_counter()
    expl = probe.exploitability()
    while expl >= target and probe.iterations < max_iterations:
        probe.run(check_every)
        expl = probe.exploitability()
    with_checks = time.perf_counter() - t0
    n = probe.iterations
    best = float("inf")
    for _ in range(repeats):
        solver = Solver(flat)
        t0 = time.perf_counter()
        solver.run(n)
        best = min(best, time.perf_counter() - t0)
    return {"iterations": n, "seconds": best, "seconds_with_checks": with_checks,
            "exploitability": expl, "reached": expl < target,
            "tree_seconds": tree_seconds, "infosets": len(flat.keys),
            "nodes": int(flat.kind.size)}


def _openspiel(variant: str, target: float, check_every: int, max_iterations: int,
               repeats: int) -> dict[str, Any]:
    try:   # a peer, not a dependency: imported by name (no stubs, not always installed)
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        raise UserError("bench solve: OpenSpiel is not installed (pip install open-spiel, "
                        "the peers extra)") from None
    game = pyspiel.load_game(PEER_GAMES[variant])
    probe = pyspiel.CFRPlusSolver(game)
    t0 = time.perf_counter()
    n, expl = 0, float("inf")
    while n < max_iterations:
        for _ in range(check_every):
            probe.evaluate_and_update_policy()
        n += check_every
        expl = pyspiel.exploitability(game, probe.average_policy())
        if expl < target:
            break
    with_checks = time.perf_counter() - t0
    best = float("inf")
    for _ in range(repeats):
        solver = pyspiel.CFRPlusSolver(game)
        t0 = time.perf_counter()
        for _ in range(n):
            solver.evaluate_and_update_policy()
        best = min(best, time.perf_counter() - t0)
    return {"iterations": n, "seconds": best, "seconds_with_checks": with_checks,
            "exploitability": expl, "reached": expl < target,
            "solver": "pyspiel.CFRPlusSolver (C++)"}


def bench_solve(variant: str = "leduc", target: float = 1e-3, check_every: int = 10,
                max_iterations: int = 100_000, repeats: int = 3) -> dict[str, Any]:
    """Both solvers to ``target`` on ``variant`` (kuhn or leduc); ``ratio`` is our
    seconds over OpenSpiel's (below 1: ours is faster)."""
    if variant not in PEER_GAMES:
        raise UserError(f"bench solve: {variant!r} has no OpenSpiel peer (kuhn, leduc)")
    if not target > 0 or check_every < 1 or repeats < 1 or max_iterations < 1:
        raise UserError("bench solve: --target must be positive and --check-every, "
                        "--repeats and --max-iterations at least 1")
    ours = _ours(variant, target, check_every, max_iterations, repeats)
    theirs = _openspiel(variant, target, check_every, max_iterations, repeats)
    return {"benchmark": "solve", "variant": variant, "target": target,
            "units": "chips per hand", "check_every": check_every, "repeats": repeats,
            "ours": ours, "openspiel_cpp": theirs,
            "ratio": ours["seconds"] / theirs["seconds"] if theirs["seconds"] else None}


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench solve``."""
    p = sub.add_parser(
        "solve", help="our CFR+ against OpenSpiel's C++ CFR+ to an exploitability target",
        description="Time our CFR+ and OpenSpiel's C++ CFR+ to the same exploitability "
        "(default: below 1e-3 chips per hand on Leduc), in one run on this machine.")
    p.add_argument("--variant", default="leduc", choices=sorted(PEER_GAMES))
    p.add_argument("--target", type=float, default=1e-3)
    p.add_argument("--check-every", type=int, default=10, metavar="N")
    p.add_argument("--max-iterations", type=int, default=100_000, metavar="N")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=run_bench_solve)


def run_bench_solve(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench solve``."""
    r = bench_solve(args.variant, args.target, args.check_every, args.max_iterations,
                    args.repeats)
    if args.json:
        print(json.dumps(r))
        return 0
    for side in ("ours", "openspiel_cpp"):
        x = r[side]
        print(f"{side:14} {x['iterations']:>7,} iterations {x['seconds']:>9.4f} s "
              f"(with checks {x['seconds_with_checks']:.4f} s) exploitability "
              f"{x['exploitability']:.3g}")
    print(f"ratio ours / openspiel: {r['ratio']:.3f}")
    return 0
