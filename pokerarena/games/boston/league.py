"""The built-in bots by name."""

from __future__ import annotations

from typing import Any

from pokerarena.games.boston.bots import BostonBot, RandomBot, RuleBot
from pokerarena.games.boston.counting import CountBot
from pokerarena.games.boston.rules import BostonError
from pokerarena.games.boston.simulation import SimBot
from pokerarena.games.family_bot import bot_table, make_family_bot

BOTS: dict[str, type[BostonBot]] = bot_table(RandomBot, RuleBot, CountBot, SimBot)


def make_bot(name: str, seed: int | None = None, **options: Any) -> BostonBot:
    """A built-in bot by name (one of :data:`BOTS`), or one :class:`BostonError`."""
    return make_family_bot("boston", BOTS, BostonError, name, seed, **options)
