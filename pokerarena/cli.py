"""The ``pokerarena`` command line: parses arguments and calls the modules."""

from __future__ import annotations

import argparse
import importlib
import sys

from pokerarena.commands import UserError

# Subcommand modules under pokerarena.commands; each has register(subparsers).
COMMAND_MODULES = ("evaluator", "bench", "equity", "engine", "bots", "runs", "serve")


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
    """Entry point of the console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        _error(str(exc))
        return 2
    except UnicodeDecodeError as exc:
        # A binary file read as text (its message alone would be just "utf-8").
        _error(f"not {exc.encoding.upper()} text: {exc.reason} at byte {exc.start}")
        return 2
    except (ValueError, KeyError) as exc:
        # Value errors from the library (cards, options) are user errors at this level.
        message = exc.args[0] if exc.args else exc
        _error(str(message))
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
