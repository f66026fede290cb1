"""Where bots and hands come from and go to: other libraries' forms of our games.

``encoding`` turns what a seat may see (a :class:`~pokerarena.bots.SeatView`, or a game
family's own view) into a fixed-length vector and an action mask, and an action slot
back into a move; it needs only numpy, so a bot trained elsewhere plays on the platform
without PettingZoo (``policy_bot``). ``pettingzoo_env`` and ``gym_env`` are the
PettingZoo AEC environment and the Gymnasium single-seat wrapper (docs/interop.md);
they need the ``peers`` extra, imported only when used (:func:`require`).
"""

from __future__ import annotations

import importlib
from typing import Any

from pokerarena.errors import UserError


class InteropError(ValueError, UserError):
    """A bad environment setting or action, or a missing optional library: one line."""


def require(module: str) -> Any:
    """``module`` imported, or one clear error naming the extra that installs it (the
    platform runs without these libraries; only the environments need them)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.split(".")[0]
        raise InteropError(f"{top} is not installed: pip install 'pokerarena[peers]' (or "
                           f"pip install pettingzoo gymnasium)") from None


__all__ = ["InteropError", "require"]
