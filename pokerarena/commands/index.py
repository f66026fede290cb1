"""Every ``pokerarena`` command: the module that registers it and its one-line summary.

The CLI reads this table so that ``pokerarena --help`` lists the commands without
importing any of their modules, and ``pokerarena CMD ...`` imports only ``CMD``'s module
(a command's module may pull in numba, Ray or DuckDB; ``--help`` should not wait for
them). The modules take their summaries from here, so the two cannot drift; a test
checks that each module registers exactly the commands this table gives it.

:data:`BENCHMARKS` does the same one level down, for the children of ``bench``: the
group lists them from here, and ``pokerarena bench NAME ...`` imports only ``NAME``'s
module (the storage benchmark imports the whole platform). The children in
``pokerarena/commands/`` take their help from here; tests/cli/test_cli_start.py checks the
others (``pokerarena/bench/``) register exactly the help given here.
"""

from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    "eval": ("evaluator", "the hand evaluator: census, single hands"),
    "bench": ("bench", "benchmarks (print JSON)"),
    "equity": ("equity", "equity of two or more hands (exact enumeration or Monte Carlo)"),
    "replay": ("engine", "replay a PHH hand history strictly"),
    "variants": ("engine", "list the shipped variants; check a variant file; print the "
                 "variant file's JSON Schema"),
    "play": ("engine", "bots play a session in-process"),
    "bots": ("bots", "list the registered bots"),
    "match": ("bots", "bots play a match; prints mbb/hand with 95%% CIs"),
    "acpc": ("bots", "the ACPC text protocol: dealer and client"),
    "run": ("runs", "play a run spec on Ray (or in-process) and store it as Parquet"),
    "runs": ("runs", "list runs with status, counts and times"),
    "show": ("runs", "summarise one run: state, leaderboard, units"),
    "query": ("runs", "SQL over the runs' tables (DuckDB)"),
    "compact": ("runs", "compact a run's unit parts into a few large files per table"),
    "serve": ("serve", "run the HTTP service: REST API, /metrics, web dashboard"),
    "leaderboard": ("tournaments", "a run's standings: mbb/hand with intervals, cross "
                    "table, rankings and ratings"),
    "sprt": ("tournaments", "sequential test of NEW against OLD, stopping as soon as it "
             "decides"),
    "census": ("studies", "exact hand-category frequencies of a variant and its paradoxes"),
    "study": ("study", "play a study spec (rule variants x bot mixes on the same deals)"),
    "report": ("study", "write a study run's report (HTML with plots, and Parquet tables)"),
    "sheet": ("sheets", "a game family's score sheet of one game of a run (painted poker)"),
    "exact": ("exact", "exact values and exploitability of two declared bots (kuhn, leduc)"),
    "solve": ("solve", "solve a small game (kuhn, leduc) by CFR+ or MCCFR, or heads-up "
              "limit hold'em by MCCFR over card buckets, into a strategy file"),
    "exploit": ("exploit", "exploitability of one declared bot: exact (kuhn, leduc) or "
                "LBR's lower bound (hold'em)"),
    "export": ("history", "write a run's hands as PHH, PokerStars text or OHH JSON"),
    "import": ("history", "turn a PokerStars hand history into PHH"),
}


# bench's children, in the order ``pokerarena bench --help`` lists them: the module whose
# register_bench(subparsers) adds the child, and the child's one-line help.
BENCHMARKS: dict[str, tuple[str, str]] = {
    "evaluator": ("pokerarena.commands.bench", "hand-evaluator throughput on one core, "
                  "with native peers on the same hands"),
    "simulation": ("pokerarena.commands.bench", "a worker's unit of any poker variant "
                   "(6-max no-limit hold'em by default) per CPU second: engine, bots and "
                   "recording, per record level"),
    "calibration": ("pokerarena.commands.bench", "every estimator replayed many times at "
                    "a known truth: coverage and error rates with their binomial "
                    "intervals"),
    "scaling": ("pokerarena.commands.runs", "the same run with 1, 2, ... Ray workers: "
                "hands/s, efficiency, per-unit overhead"),
    "driver": ("pokerarena.commands.runs", "can one run driver keep N workers busy? "
               "(simulated workers)"),
    "engine": ("pokerarena.commands.engine", "engine throughput: complete hands per second "
               "through the bot interface, with PokerKit on the same workload when "
               "installed"),
    "bots": ("pokerarena.commands.bots", "decision speed of the bots and their share of a "
             "tournament's time"),
    "tournament": ("pokerarena.commands.tournaments", "the tournament layer's cost per hand "
                   "over bare matches"),
    "aivat": ("pokerarena.bench.aivat_bench", "AIVAT against raw duplicate pairs on "
              "heads-up hold'em: intervals, sd ratio, CPU cost"),
    "solve": ("pokerarena.bench.solve_bench", "our CFR+ against OpenSpiel's C++ CFR+ to an "
              "exploitability target"),
    "lbr": ("pokerarena.bench.lbr_bench", "Local Best Response against built-in bots in "
            "hold'em: mbb/hand with intervals, hands per second"),
    "storage": ("pokerarena.bench.storage_bench", "leaderboard and query time, and files "
                "per table, of a finished run before and after compaction, as it grows"),
    "dashboard": ("pokerarena.bench.dashboard_bench", "every route the dashboard calls for "
                  "a finished run, first and repeated request, as the run grows"),
    "families": ("pokerarena.bench.families", "a game family's units in process against "
                 "the same units on Ray with 1, 2, ... workers: games/s, ratio, per-unit "
                 "overhead"),
}


def summary(command: str) -> str:
    """The one-line summary of a command, as ``pokerarena --help`` lists it."""
    return COMMANDS[command][1]


def modules() -> list[str]:
    """The command modules, each once, in the order of the table."""
    return list(dict.fromkeys(module for module, _ in COMMANDS.values()))


def benchmark_summary(name: str) -> str:
    """The one-line help of a child of ``bench``, as ``pokerarena bench --help`` lists it."""
    return BENCHMARKS[name][1]


def bench_modules() -> list[str]:
    """The modules that add children to ``bench`` (dotted paths), each once, in order."""
    return list(dict.fromkeys(module for module, _ in BENCHMARKS.values()))
