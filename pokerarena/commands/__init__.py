"""Subcommands of the ``pokerarena`` CLI, one module per area.

Each module exposes ``register(subparsers)``, which adds its subcommands and sets
``func`` on each parser to a handler ``(args) -> int``. Handlers raise
``UserError`` for anything a user can get wrong; the CLI prints it and exits 2.
"""


class UserError(Exception):
    """An error the user caused: printed as one line, exit status 2."""
