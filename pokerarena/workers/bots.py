"""The bots a unit may seat: the bots package's registry when it has one."""

from __future__ import annotations

from typing import Any


def bot_names() -> tuple[str, ...]:
    """Registered bot names (what a run spec may name)."""
    try:
        from pokerarena.bots.registry import REGISTRY
    except ImportError:
        from pokerarena.bots import BUILTIN_BOTS as REGISTRY
    return tuple(REGISTRY)


def new_bot(name: str, seed: int) -> Any:
    """A fresh bot by registered name, seeded."""
    try:
        from pokerarena.bots.registry import make_bot
    except ImportError:
        from pokerarena.bots import make_bot
    return make_bot(name, seed)
