"""``pokerarena solve``: an approximate equilibrium of a game small enough to walk (Kuhn,
Leduc) by CFR+ or external-sampling MCCFR over the engine's own tree, written as a
strategy file a bot can play (docs/exact.md, "Solving Kuhn and Leduc"); heads-up limit
hold'em by MCCFR over a card abstraction (:mod:`pokerarena.solvers.holdem_mccfr`). Its benchmark,
``bench solve``, lives in :mod:`pokerarena.bench.solve_bench`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pokerarena.commands import UserError, game_options
from pokerarena.commands.index import summary


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``solve`` subcommand."""
    p = subparsers.add_parser(
        "solve",
        help=summary("solve"),
        description="Run CFR+ (or external-sampling MCCFR) over the exact tree of a "
        "two-player game small enough to walk, measure the average strategy's exact "
        "exploitability at a few checkpoints, and write it as a strategy file that the "
        "strategy bot plays; holdem (heads-up, fixed limit): MCCFR over E[HS] buckets "
        "into the abstract file the cfr bot plays. See docs/exact.md.")
    p.add_argument("variant", metavar="VARIANT", help="kuhn, leduc, holdem, or a variant file")
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
    p.add_argument("--buckets", default="12,8,8,8", metavar="P,F,T,R",
                   help="holdem only: E[HS] buckets pre-flop, flop, turn, river "
                   "(default 12,8,8,8; docs/exact.md)")
    p.add_argument("--workers", type=int, default=0, metavar="N",
                   help="holdem only: run MCCFR in rounds on N Ray actors (0, the default: "
                   "sequentially in this process); the file depends on --seed, --slices "
                   "and --slice-iterations, not on N")
    p.add_argument("--address", default=None, help="holdem --workers: the Ray cluster to "
                   "join (default: $RAY_ADDRESS, else a local cluster)")
    p.add_argument("--slices", type=int, default=8, metavar="K",
                   help="holdem --workers: slices a round (default 8)")
    p.add_argument("--slice-iterations", type=int, default=500, metavar="M",
                   help="holdem --workers: iterations a slice (default 500)")
    p.add_argument("--out", required=True, metavar="FILE", help="the strategy file to write")
    p.add_argument("--json", action="store_true",
                   help='print {"variant", "algorithm", "iterations", "exploitability", '
                   '"curve", "seconds", "out"}')
    p.set_defaults(func=run)


@contextmanager
def progress_bar(enabled: bool, label: str = "solving"
              ) -> Iterator[Callable[[int, int], None] | None]:
    """A bar on stderr while iterating, when stderr is a terminal (``exploit`` shows its
    pairs with it too)."""
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

    columns = (TextColumn(f"[bold]{label}"), BarColumn(bar_width=24), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=None)

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
    if args.variant == "holdem" and args.algorithm == "mccfr":   # else: too large to walk
        return _run_holdem(args, options)
    if args.workers or args.address:
        raise UserError("--workers and --address: holdem --algorithm mccfr only")
    with progress_bar(not args.json) as progress:
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


def _run_holdem(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """Heads-up limit hold'em: MCCFR over the E[HS] abstraction into a version-2 file
    (docs/exact.md, "Heads-up limit hold'em: abstraction, MCCFR and the `cfr` bot"),
    in this process or in rounds on Ray actors (``--workers``)."""
    import time

    from pokerarena.solvers.holdem_mccfr import write_holdem

    if options.get("betting", "fixed_limit") != "fixed_limit":
        raise UserError("holdem is solved by --algorithm mccfr heads-up at fixed limit "
                        "only (--betting fixed_limit)")
    try:
        buckets = tuple(int(x) for x in args.buckets.split(","))
    except ValueError:
        buckets = ()
    if len(buckets) != 4 or min(buckets) < 1 or max(buckets) > 64:
        raise UserError(f"--buckets {args.buckets}: four numbers from 1 to 64, P,F,T,R")
    for name in ("workers", "slices", "slice_iterations"):
        if getattr(args, name) < (0 if name == "workers" else 1):
            raise UserError(f"--{name.replace('_', '-')} must be at least "
                            f"{0 if name == 'workers' else 1}, got {getattr(args, name)}")
    t0 = time.perf_counter()
    with progress_bar(not args.json) as progress:
        result, where = _train_holdem(args, options, buckets, progress)
    setup = time.perf_counter() - t0 - result.seconds
    try:
        size = write_holdem(args.out, result)
    except OSError as exc:
        raise UserError(f"--out {args.out}: cannot write ({exc.strerror or exc})") from None
    out = {"variant": "holdem", "algorithm": "mccfr", "iterations": result.iterations,
           "seed": result.seed, "buckets": list(buckets), "rows": result.tree.rows,
           "schedule": result.schedule, **where, "seconds": result.seconds,
           "iterations_per_second": result.iterations / max(result.seconds, 1e-9),
           "setup_seconds": setup, "mean_regret": result.mean_regret(), "bytes": size,
           "out": str(args.out)}
    if args.json:
        print(json.dumps(out))
        return 0
    on = (f"{where['workers']} Ray actors on {where['nodes']} node(s)" if where["workers"]
          else "one core")
    print(f"holdem fixed_limit: mccfr, {result.iterations:,} iterations in "
          f"{result.seconds:.1f} s ({on}, {out['iterations_per_second']:,.0f}/s); "
          f"{result.tree.rows:,} rows; mean regret {out['mean_regret']:.4g} chips per "
          f"iteration; {size:,} bytes written to {args.out}")
    return 0


def _train_holdem(args: argparse.Namespace, options: dict[str, Any],
                  buckets: tuple[int, ...], progress: Any) -> tuple[Any, dict[str, Any]]:
    """The run itself: sequential (``--workers 0``), or rounds on the platform's Ray
    cluster (joined, or started here and stopped after)."""
    from pokerarena.solvers.holdem_mccfr import train

    kwargs = {"iterations": args.iterations, "seed": args.seed, "buckets": buckets,
              "progress": progress}
    if not args.workers:
        return train(options, **kwargs), {"workers": 0, "nodes": 1}  # type: ignore[arg-type]
    from pokerarena.workers.solve_unit import train_on_ray

    with joined_ray(args.address, args.workers):
        return train_on_ray(args.workers, options=options, slices=args.slices,
                            slice_iterations=args.slice_iterations, **kwargs)


@contextmanager
def joined_ray(address: str | None, workers: int) -> Iterator[None]:
    """Ray for a command's ``--workers N`` actors (``solve``, ``exploit``): the cluster
    ``--address`` or $RAY_ADDRESS names, else a local one with room for N actors, which
    is stopped after (a joined cluster is left running)."""
    import os

    import ray

    from pokerarena.platform.executors import init_ray

    started = init_ray(address, num_cpus=max(workers, os.cpu_count() or 1))
    try:
        yield
    finally:
        if started:
            ray.shutdown()
