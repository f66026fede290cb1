"""The one exception type for errors a user can cause.

It sits at the bottom of the dependency graph (it imports nothing from the package), so
every layer can raise it or subclass it: a bad spec, variant file, card, action, bot
spec or SQL. The CLI prints a :class:`UserError` as one line and exits 2; any other
exception is a bug and keeps its traceback.
"""

from __future__ import annotations


class UserError(Exception):
    """An error the user caused (bad input, not a bug): printed as one line, exit 2."""
