"""Every ``pokerarena`` command: the module that registers it and its one-line summary.

The CLI reads this table so that ``pokerarena --help`` lists the commands without
importing any of their modules, and ``pokerarena CMD ...`` imports only ``CMD``'s module
(a command's module may pull in numba, Ray or DuckDB; ``--help`` should not wait for
them). The modules take their summaries from here, so the two cannot drift; a test
checks that each module registers exactly the commands this table gives it.
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


def summary(command: str) -> str:
    """The one-line summary of a command, as ``pokerarena --help`` lists it."""
    return COMMANDS[command][1]


def modules() -> list[str]:
    """The command modules, each once, in the order of the table."""
    return list(dict.fromkeys(module for module, _ in COMMANDS.values()))
