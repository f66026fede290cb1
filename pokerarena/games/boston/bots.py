"""The built-in American-boston bots."""

from __future__ import annotations

import random
from typing import Any

from pokerarena.games.boston.actions import BostonAction
from pokerarena.games.boston.rules import BostonError
from pokerarena.games.boston.view import BostonView


class BostonBot:
    """Base class: a name, a seeded ``random.Random``, no-op hooks."""

    name = "boston-bot"
    description = ""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def start_game(self, view: BostonView) -> None:
        """Called when a game starts."""

    def end_game(self, view: BostonView) -> None:
        """Called when a game is over."""

    def act(self, view: BostonView) -> BostonAction:  # pragma: no cover - abstract
        raise NotImplementedError


class RandomBot(BostonBot):
    """Uniform over the legal actions."""

    name = "random"
    description = "uniform over the legal bids and cards"

    def act(self, view: BostonView) -> BostonAction:
        return self.rng.choice(view.legal)


BOTS: dict[str, type[BostonBot]] = {"random": RandomBot}


def make_bot(name: str, seed: int | None = None, **_: Any) -> BostonBot:
    """A built-in bot by name, or one clear error."""
    cls = BOTS.get(name)
    if cls is None:
        raise BostonError(f"boston: unknown bot {name!r}; built in: {', '.join(BOTS)}")
    return cls(seed)
