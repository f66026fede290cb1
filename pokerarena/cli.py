"""The ``pokerarena`` command line: parses arguments and calls the modules."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from pokerarena.commands.index import COMMANDS, modules
from pokerarena.errors import UserError


def command_named(argv: list[str]) -> str | None:
    """The command an argument list asks for: its first word that is not an option
    (the top-level parser has no option that takes a value)."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser for ``argv``: with the one module that registers the command
    it names (:data:`~pokerarena.commands.index.COMMANDS`), or, when it names none it
    knows (``--help``, a typo), every command as a stub with its summary, importing no
    command module. ``build_parser()`` registers every module (the whole CLI)."""
    parser = argparse.ArgumentParser(
        prog="pokerarena",
        description="Poker bots playing each other at scale: the evaluator, the rules "
        "engine, bots, runs on Ray with Parquet and DuckDB, and the HTTP service.",
        epilog="Each command has its own --help. Errors a user can cause exit with status 2.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    named = None if argv is None else command_named(argv)
    if argv is None:
        wanted = modules()
    elif named in COMMANDS:
        wanted = [COMMANDS[named][0]]
    else:
        for name, (_module, text) in COMMANDS.items():
            sub.add_parser(name, help=text, add_help=False)
        return parser
    for module in wanted:
        importlib.import_module(f"pokerarena.commands.{module}").register(sub)
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
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        # Anything else (a ValueError or KeyError from deep in the library included)
        # is a bug and keeps its traceback.
        _error(str(exc))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``pokerarena variants | head``): what it read is what it
        # wanted; stop quietly, and keep Python's exit from failing on the closed pipe
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
