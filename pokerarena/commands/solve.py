"""``pokerarena solve``: an approximate equilibrium of a game small enough to walk (Kuhn,
Leduc) by CFR+ or external-sampling MCCFR over the engine's own tree, written as a
strategy file a bot can play (docs/exact.md, "Solving Kuhn and Leduc"). Its benchmark,
``bench solve``, lives in :mod:`pokerarena.bench.solve_bench`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pokerarena.commands import UserError, game_options


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``solve`` subcommand."""
    p = subparsers.add_parser(
        "solve",
        help="solve a small game (kuhn, leduc) by CFR+ or MCCFR into a strategy file",
        description="Run CFR+ (or external-sampling MCCFR) over the exact tree of a "
        "two-player game small enough to walk, measure the average strategy's exact "
        "exploitability at a few checkpoints, and write it as a strategy file that the "
        "strategy bot plays. See docs/exact.md.")
    p.add_argument("variant", metavar="VARIANT", help="kuhn, leduc, or a variant file")
    p.add_argument("--betting", default=None, help="betting system (default: the "
                   "variant's first)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable)")
    p.add_argument("--algorithm", choices=("cfr+", "mccfr"), default="cfr+",
                   help="cfr+ (default) or mccfr (external sampling)")
    p.add_argument("--iterations", type=int, required=True, metavar="N",
                   help="iterations (cfr+: full passes; mccfr: one sampled traversal per "
                   "player)")
    p.add_argument("--averaging", choices=("linear", "quadratic"), default="linear",
                   help="cfr+'s average strategy weights: t (default) or t^2")
    p.add_argument("--seed", type=int, default=0, help="mccfr's sampling seed")
    p.add_argument("--out", required=True, metavar="FILE", help="the strategy file to write")
    p.add_argument("--json", action="store_true",
                   help='print {"variant", "algorithm", "iterations", "exploitability", '
                   '"curve", "seconds", "out"}')
    p.set_defaults(func=run)


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A bar on stderr while iterating, when stderr is a terminal."""
    from rich.console import Console

    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("[bold]solving"), BarColumn(bar_width=24), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("solving", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, total=total, completed=done)

        yield update


def run(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena solve``."""
    from pokerarena.solvers.cfr import solve
    from pokerarena.solvers.strategy_file import write_strategy

    if args.iterations < 1:
        raise UserError(f"--iterations must be at least 1, got {args.iterations}")
    if args.seed < 0:
        raise UserError(f"--seed must be a non-negative integer, got {args.seed}")
    options: dict[str, Any] = game_options(args.option)
    if args.betting:
        options["betting"] = args.betting
    with _progress(not args.json) as progress:
        result = solve(args.variant, options, algorithm=args.algorithm,
                       iterations=args.iterations, seed=args.seed,
                       averaging=args.averaging, progress=progress)
    try:
        write_strategy(args.out, result)
    except OSError as exc:
        raise UserError(f"--out {args.out}: cannot write ({exc.strerror or exc})") from None
    if args.json:
        print(json.dumps({"variant": result.variant, "algorithm": result.algorithm,
                          "iterations": result.iterations,
                          "exploitability": result.exploitability,
                          "curve": [list(c) for c in result.curve],
                          "seconds": result.seconds, "out": str(args.out)}))
        return 0
    print(f"{result.variant}: {result.algorithm}, {result.iterations:,} iterations in "
          f"{result.seconds:.2f} s; exploitability in chips per hand:")
    for it, x in result.curve:
        print(f"  {it:>10,}  {x:.6g}")
    print(f"exploitability {result.exploitability:.6g} chips per hand; seat 0's value "
          f"{result.value:.6f}; written to {args.out}", file=sys.stdout)
    return 0
