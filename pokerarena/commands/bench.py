"""``pokerarena bench ...``: benchmarks that print JSON (never run as tests).

``bench`` is a group. Its children are the table
:data:`~pokerarena.commands.index.BENCHMARKS`: each child's name, the module whose
``register_bench(bench_subparsers)`` adds it, and its one-line help. ``bench --help``
lists them from the table, and a child's module is imported only when a command line
names that child (issue 28: ``bench storage`` alone imports the platform, pyarrow and
DuckDB, and ``bench --help`` should not wait for them). The ``evaluator``,
``simulation`` and ``calibration`` benchmarks live here; code may add children by
calling ``add_benchmark`` before ``register`` runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
from collections.abc import Callable, Sequence
from typing import Any

from pokerarena.commands import check_bench_counts
from pokerarena.commands.index import BENCHMARKS, bench_modules, benchmark_summary, summary
from pokerarena.errors import UserError

# The other modules that add children to ``bench`` (read from the index).
BENCH_MODULES: tuple[str, ...] = tuple(m for m in bench_modules() if m != __name__)

_EXTRA: list[Callable[[argparse._SubParsersAction], None]] = []


def add_benchmark(register_bench: Callable[[argparse._SubParsersAction], None]) -> None:
    """Add a child of ``bench`` from code: ``register_bench(bench_subparsers)``."""
    if register_bench not in _EXTRA:
        _EXTRA.append(register_bench)


class _Benchmarks(argparse._SubParsersAction):
    """``bench``'s children, where those of other modules start as stubs (name and help,
    for ``bench --help``) and become their module's real parser when a command line
    names them: only then is the module imported."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._modules: dict[str, str] = {}  # a stub's name -> the module that adds it

    def add_stub(self, name: str, module: str, text: str) -> None:
        """List ``name`` with its help; its module adds the real parser when named."""
        self.add_parser(name, help=text, add_help=False)
        self._modules[name] = module

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if isinstance(values, Sequence) and values and values[0] in self._modules:
            self._load(values[0])
        super().__call__(parser, namespace, values, option_string)

    def _load(self, name: str) -> None:
        """Put the real parser of ``name`` in place of its stub: its module registers
        into a scratch group with the same program name, and the parser is moved here."""
        module = self._modules.pop(name)
        scratch = argparse._SubParsersAction(option_strings=[], prog=self._prog_prefix,
                                             parser_class=self._parser_class)
        importlib.import_module(module).register_bench(scratch)
        self._name_parser_map[name] = scratch._name_parser_map[name]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``bench`` group: its own children, the other modules' as stubs (see
    :class:`_Benchmarks`), and those added by :func:`add_benchmark`."""
    p = subparsers.add_parser("bench", help=summary("bench"),
                              description="Benchmarks; each prints one JSON line with --json.")
    sub = p.add_subparsers(dest="benchmark", metavar="BENCHMARK", action=_Benchmarks)
    sub.required = True
    register_bench(sub)
    for name, (module, text) in BENCHMARKS.items():
        if module != __name__:
            sub.add_stub(name, module, text)
    for fn in _EXTRA:
        fn(sub)


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench evaluator``."""
    p = sub.add_parser(
        "evaluator", help=benchmark_summary("evaluator"),
        description="Random-access throughput of evaluate_batch (or evaluate_omaha_batch) "
        "on one core over pre-generated hands, the single-hand call in microseconds, and "
        "phevaluator's raw C call and eval7 on the same hands when they are installed.",
    )
    p.add_argument("--cards", type=int, choices=(5, 6, 7), default=7,
                   help="cards per hold'em hand (default 7; Omaha is always 4 + 5)")
    p.add_argument("--game", choices=("holdem", "omaha"), default="holdem")
    p.add_argument("--hands", type=int, default=1_000_000, metavar="N",
                   help="number of random hands (default 1,000,000)")
    p.add_argument("--repeats", type=int, default=5, metavar="R",
                   help="timed repeats of the batch call; the best is reported (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the hands (default 0)")
    p.add_argument("--no-peers", action="store_true", help="skip phevaluator and eval7")
    p.add_argument("--peer-bin", metavar="BIN", default=None, help="a native peer driver "
                   "(OMPEval / PHEvaluator built from their sources: docs/evaluator.md), "
                   "timed alternately with ours on the same hands")
    p.add_argument("--rounds", type=int, default=5, metavar="R",
                   help="alternating rounds against --peer-bin (default 5)")
    p.add_argument("--sequential", action="store_true", help="with --peer-bin: also every "
                   "7-card hand in enumeration order (our census kernel against OMPEval's)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    c = p.add_argument_group("on a Ray cluster (--cluster)")
    c.add_argument("--cluster", action="store_true",
                   help="one pinned actor per core of every node: random and sequential "
                   "access for 5/6/7-card high, Omaha, short deck and ace-to-five low, "
                   "scaling against one core, and the 7-card census split across the "
                   "cluster with its exact counts checked")
    c.add_argument("--address", default=None, help="Ray cluster to join (default: "
                   "$RAY_ADDRESS, else a local one)")
    c.add_argument("--seconds", type=float, default=1.0, metavar="S",
                   help="seconds per kernel and access (default 1)")
    c.add_argument("--max-actors", type=int, default=None, metavar="N",
                   help="at most N actors (default: one per CPU of the cluster)")
    c.add_argument("--data", metavar="DIR", default=None, help="write the rows to "
                   "DIR/bench/evaluator/ (default: $POKERARENA_DATA, else ./data)")
    p.set_defaults(func=run_evaluator)
    register_simulation(sub)
    register_calibration(sub)


def register_calibration(sub: argparse._SubParsersAction) -> None:
    """Add ``bench calibration``."""
    p = sub.add_parser(
        "calibration", help=benchmark_summary("calibration"),
        description="Replays each estimator the platform prints (leaderboard intervals "
        "on shared deals, few odd blocks, all-in settlement of duplicate twins, the "
        "interval after a sequential stop and its alpha, the study's skill edge, game "
        "families' duplicate comparison) many times at a truth known by construction, "
        "and prints each coverage or error rate with its 95%% binomial interval.")
    p.add_argument("--case", action="append", metavar="NAME",
                   help="only this case, or the cases starting with NAME (repeatable)")
    p.add_argument("--reps", type=int, default=None, metavar="N",
                   help="replications per case (default: each case's own, at least 300)")
    p.add_argument("--quick", action="store_true",
                   help="each case's few quick replications (a smoke run, not a measure)")
    p.add_argument("--seed", type=int, default=2026, help="the replications' seed")
    p.add_argument("--list", action="store_true", help="list the cases and stop")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=run_calibration)


def run_calibration(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench calibration``."""
    import sys

    from pokerarena.bench.calibration import all_cases, report, run_cases, table

    if args.list:
        for c in all_cases():
            print(f"{c.name:44} finding {c.finding}  {c.default_reps} replications")
        return 0
    if args.reps is not None and not 1 <= args.reps <= 1_000_000:
        raise UserError("--reps must be between 1 and 1,000,000")

    def progress(line: str) -> None:
        print(f"calibration: {line}", file=sys.stderr, flush=True)

    results = run_cases(args.case, reps=args.reps, seed=args.seed, quick=args.quick,
                        progress=progress)
    out = report(results)
    print(json.dumps(out) if args.json else table(results))
    return 0


def register_simulation(sub: argparse._SubParsersAction) -> None:
    """Add ``bench simulation``."""
    p = sub.add_parser(
        "simulation", help=benchmark_summary("simulation"),
        description="One unit of a catalogue variant (--variant; 6-max no-limit hold'em "
        "by default) played in this process as a worker plays it (play_unit), at each "
        "record level on the reference table and, where it plays the game, on the fast "
        "table, and the same match without rows (the engine and the bots alone, split "
        "between them): hands per CPU second, CPU seconds per 1,000 hands and the split, "
        "the least of the repeats.")
    p.add_argument("--variant", default="holdem", metavar="V",
                   help="catalogue variant (pokerarena variants; default holdem)")
    p.add_argument("--betting", default=None, metavar="SYSTEM",
                   help="betting system (default: the variant's first, e.g. no_limit for "
                   "holdem, pot_limit for omaha, fixed_limit for stud7)")
    p.add_argument("--seats", type=int, default=None, metavar="N",
                   help="seats (default 6, or the variant's nearest); the bots are the "
                   "strength bots tag,lag,rock,equity cycled to N unless --bots is given")
    p.add_argument("--options", default=None, metavar="JSON",
                   help='game options as a JSON object, e.g. \'{"wild": "deuces"}\'')
    p.add_argument("--hands", type=int, default=2000, metavar="N",
                   help="hands in the unit (default 2000)")
    p.add_argument("--record", choices=("full", "hands"), action="append",
                   help="record level (repeatable; default both)")
    p.add_argument("--bots", default=None,
                   help="comma-separated bots, one per seat (default the strength bots "
                   "tag,lag,rock,equity,tag,lag cut to the seats)")
    p.add_argument("--repeats", type=int, default=3, metavar="R",
                   help="timed repeats; the least CPU is kept (default 3)")
    p.add_argument("--seed", type=int, default=2026, help="the unit's seed (default 2026)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=run_simulation)


def run_simulation(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench simulation``."""
    from pokerarena.bench.simulation import bench_simulation, game_setup
    from pokerarena.bots.registry import make_bot

    check_bench_counts(args)
    bots = None
    if args.bots is not None:
        bots = [b.strip() for b in args.bots.split(",")]
        if not 2 <= len(bots) <= 10:
            raise UserError(f"--bots needs 2 to 10 bots, got {len(bots)}")
        if args.seats is not None and args.seats != len(bots):
            raise UserError(f"--seats {args.seats} but --bots names {len(bots)} bots")
        for b in bots:
            make_bot(b, 0)  # an unknown bot is one line (exit 2), before any hand is played
    options = None
    if args.options is not None:
        try:
            options = json.loads(args.options)
        except json.JSONDecodeError as exc:
            raise UserError(f"--options: not JSON ({exc.msg})") from None
        if not isinstance(options, dict):
            raise UserError("--options: a JSON object, e.g. '{\"wild\": \"deuces\"}'")
    game_setup(args.variant, args.betting, len(bots) if bots else args.seats, options)
    r = bench_simulation(hands=args.hands, bots=bots, records=args.record or ("full", "hands"),
                         repeats=args.repeats, seed=args.seed, variant=args.variant,
                         betting=args.betting, seats=args.seats, options=options)
    if args.json:
        print(json.dumps(r))
        return 0
    opts = f" {json.dumps(r['options'])}" if r["options"] else ""
    print(f"{r['variant']} {r['betting']}{opts}, {r['players']} seats, "
          f"{', '.join(r['bots'])}: {r['hands']:,} hands, best of {r['repeats']} "
          f"(CPU time; native build: {r['native']})")
    print(f"  no rows (engine and bots) {r['bare']['hands_per_cpu_s']:>9,.0f} hands/s  "
          f"{r['bare']['cpu_s_per_1000_hands']:.3f} CPU s / 1,000 hands "
          f"(bots {100 * r['bare']['bots_share']:.0f}%)")
    for level, x in r["records"].items():
        split = x["split_cpu_s_per_1000_hands"]
        print(f"  record = {level:<17} {x['hands_per_cpu_s']:>9,.0f} hands/s  "
              f"{x['cpu_s_per_1000_hands']:.3f} CPU s / 1,000 hands (engine "
              f"{split['engine']:.3f}, bots {split['bots']:.3f}, recording "
              f"{split['recording']:.3f}; hand by hand {split['recording_per_hand_least']:.3f})")
        fast = x.get("fast_table")
        if fast:
            print(f"    fast table {'':<13} {fast['hands_per_cpu_s']:>9,.0f} hands/s  "
                  f"{fast['cpu_s_per_1000_hands']:.3f} CPU s / 1,000 hands "
                  f"({fast['speedup']:.2f}x; same row counts: {fast['rows_equal']})")
    if r["fast_table"] != "plays this unit":
        print(f"  fast table: not for this unit ({r['fast_table']})")
    for bot, kinds in r["bot_faults"].items():
        print(f"  {bot} faulted ({', '.join(f'{k} x{n}' for k, n in kinds.items())}): it "
              "does not play this game; the fault policy acted for it")
    return 0


def run_evaluator(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench evaluator``."""
    from pokerarena.bench.evaluator import bench_evaluator

    if args.cluster:
        return run_cluster(args)
    check_bench_counts(args)
    if args.peer_bin is not None and not os.access(args.peer_bin, os.X_OK):
        raise UserError(f"--peer-bin {args.peer_bin}: not an executable file")
    if args.rounds < 1:
        raise UserError("--rounds must be at least 1")
    result = bench_evaluator(cards=args.cards, game=args.game, hands=args.hands,
                             repeats=args.repeats, seed=args.seed, peers=not args.no_peers,
                             peer_bin=args.peer_bin, rounds=args.rounds,
                             sequential=args.sequential)
    if args.json:
        print(json.dumps(result))
    else:
        print(format_result(result))
    return 0


def run_cluster(args: argparse.Namespace) -> int:
    """``pokerarena bench evaluator --cluster``."""
    from pokerarena.bench.evaluator_cluster import bench_cluster
    from pokerarena.platform.storage import default_data_dir

    if not 0 < args.seconds <= 600:
        raise UserError("--seconds must be more than 0 and at most 600")
    if args.max_actors is not None and args.max_actors < 1:
        raise UserError("--max-actors must be at least 1")
    result = bench_cluster(address=args.address, seconds=args.seconds,
                           data=args.data or default_data_dir(), max_actors=args.max_actors)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['actors']} actors on {result['nodes']} node(s), "
          f"{result['seconds_per_measure']:g} s per measure")
    for name, k in result["kernels"].items():
        print(f"  {name:<24} one core {k['one_core_evals_per_sec'] / 1e6:8.1f} M/s   "
              f"cluster {k['total_evals_per_sec'] / 1e6:9.1f} M/s   "
              f"efficiency {k['efficiency']:.0%}")
    print(f"  7-card census in {result['census_parts']} parts: "
          f"{result['census_hands']:,} hands in {result['census_seconds']:.1f} s, "
          f"exact counts {'reproduced' if result['census_exact'] else 'NOT reproduced'}")
    print(f"  rows: {result['rows_file']}")
    return 0


def format_result(r: dict) -> str:
    """Human-readable lines of a ``bench_evaluator`` result."""
    size = "4 hole + 5 board" if r["game"] == "omaha" else f"{r['cards']}-card"
    lines = [
        f"{r['game']} {size} hands: {r['hands']:,} random hands, one core",
        f"  pokerarena evaluate batch : {r['evals_per_sec'] / 1e6:10.1f} M evals/s",
        f"  pokerarena single call    : {r['single_call_us']:10.3f} us",
    ]
    for name, rate in r["peers"].items():
        ratio = r["evals_per_sec"] / rate if rate else float("inf")
        lines.append(f"  {name:<26}: {rate / 1e6:10.2f} M evals/s   (pokerarena {ratio:.1f}x)")
    for name, ok in r.get("peers_agree", {}).items():
        lines.append(f"  ordering agrees with {name}: {'yes' if ok else 'NO'}")
    for part in ("native", "sequential"):
        if part in r:
            x = r[part]
            lines.append(f"  {part}, alternating with ours, best of each (load average "
                         f"{[round(v, 1) for v in x['load_avg_1min']]}):")
            lines += [f"    {nm:<24}: {v / 1e6:10.1f} M evals/s, "
                      f"{x['evals_per_cpu_sec'][nm] / 1e6:10.1f} per CPU s"
                      + ("" if nm not in x.get("agree", {}) else
                         f"   (ordering agrees: {'yes' if x['agree'][nm] else 'NO'})")
                      for nm, v in x["evals_per_sec"].items()]
    return "\n".join(lines)
