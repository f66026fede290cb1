"""The ``pokerarena`` command line: parses arguments and calls the modules."""

from __future__ import annotations

import argparse
import importlib
import sys

from pokerarena.errors import UserError

# Subcommand modules under pokerarena.commands; each has register(subparsers).
COMMAND_MODULES = ("evaluator", "bench", "equity", "engine", "bots", "runs", "serve",
                   "tournaments", "studies", "study", "sheets", "exact", "solve", "exploit",
                   "history")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="pokerarena",
        description="Poker bots playing each other at scale: the evaluator, the rules "
        "engine, bots, runs on Ray with Parquet and DuckDB, and the HTTP service.",
        epilog="Each command has its own --help. Errors a user can cause exit with status 2.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"pokerarena.commands.{name}")
        module.register(sub)
    return parser


def _error(message: str) -> None:
    """Print a user error as one line on stderr (the first non-blank line of the
    message: a library's multi-line context is left out)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    print(f"pokerarena: error: {lines[0] if lines else 'failed'}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status: 2 with one line for
    a :class:`UserError` (and its subclasses: spec, variant, engine, card, bot spec,
    ACPC and query errors), a traceback and 1 for anything else."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        # Anything else (a ValueError or KeyError from deep in the library included)
        # is a bug and keeps its traceback.
        _error(str(exc))
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
