"""The built-in bots by name."""

from __future__ import annotations

from pokerarena.games.boston.bots import BostonBot, RandomBot, RuleBot
from pokerarena.games.boston.counting import CountBot
from pokerarena.games.boston.rules import BostonError
from pokerarena.games.boston.simulation import SimBot

BOTS: dict[str, type[BostonBot]] = {"random": RandomBot, "rule": RuleBot, "count": CountBot,
                                    "sim": SimBot}


def make_bot(name: str, seed: int | None = None) -> BostonBot:
    """A built-in bot by name, or one clear error."""
    cls = BOTS.get(name)
    if cls is None:
        raise BostonError(f"boston: unknown bot {name!r}; built in: {', '.join(BOTS)}")
    return cls(seed)
