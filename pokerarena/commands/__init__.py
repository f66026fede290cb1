"""Subcommands of the ``pokerarena`` CLI, one module per area.

Each module exposes ``register(subparsers)``, which adds its subcommands and sets
``func`` on each parser to a handler ``(args) -> int``. Handlers raise
``UserError`` for anything a user can get wrong; the CLI prints it and exits 2.
"""

from typing import Any

from pokerarena.errors import UserError

__all__ = ["UserError", "check_bench_counts", "game_options"]


def game_options(items: list[str]) -> dict[str, Any]:
    """The engine options of repeated ``--option KEY=VALUE`` arguments (``blinds`` and
    ``antes`` given as one number become a list of one)."""
    from pokerarena.engine import parse_option_value

    options: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise UserError(f"--option {item!r}: expected KEY=VALUE")
        key, value = item.split("=", 1)
        options[key.strip()] = parse_option_value(value.strip())
    for k in ("blinds", "antes"):
        if k in options and not isinstance(options[k], list):
            options[k] = [options[k]]
    return options


def check_bench_counts(args) -> None:
    """The checks every benchmark makes: ``--hands`` and ``--repeats`` at least 1,
    ``--seed`` not negative."""
    if args.hands < 1:
        raise UserError(f"--hands must be at least 1, got {args.hands}")
    if args.repeats < 1:
        raise UserError(f"--repeats must be at least 1, got {args.repeats}")
    if args.seed < 0:
        raise UserError(f"--seed must be a non-negative integer, got {args.seed}")
