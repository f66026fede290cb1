"""The built-in red-and-black bots: ``random`` (any legal bet), ``rule`` (the colour
seen less so far, always the minimum stake) and ``count`` (the exact expectation of
both colours from the cards left; the largest stake allowed when the better one is
favourable, the minimum otherwise: with the default minimum stakes, always the minimum).

Since every card is dealt face up, the cards left are known by colour (the view's
``red_left``/``black_left``); the bet's expectation follows exactly (:func:`.edge.bet_ev`).
"""

from __future__ import annotations

import random
from typing import Any

from pokerarena.games.red_black.actions import Bet
from pokerarena.games.red_black.edge import bet_ev, counted_choice
from pokerarena.games.red_black.rules import BLACK, RED, RedBlackError
from pokerarena.games.red_black.view import RedBlackView


class RedBlackBot:
    """Base class: a name, a seeded ``random.Random``, no-op hooks."""

    name = "red_black-bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def start_game(self, view: RedBlackView) -> None:
        """Called when a game starts."""

    def end_game(self, view: RedBlackView) -> None:
        """Called when a game is over."""

    def act(self, view: RedBlackView) -> Bet:  # pragma: no cover - abstract
        raise NotImplementedError


class RandomBot(RedBlackBot):
    """Uniform over the legal bets."""

    name = "random"

    def act(self, view: RedBlackView) -> Bet:
        return self.rng.choice(view.legal)


class RuleBot(RedBlackBot):
    """The colour with more cards left, the minimum stake: never risks more than it must."""

    name = "rule"

    def act(self, view: RedBlackView) -> Bet:
        return Bet(counted_choice(view.red_left, view.black_left), view.options.min_bet)


class CountBot(RedBlackBot):
    """Counts the colours left, bets the better colour, and stakes the maximum only when
    that bet's exact expectation is positive."""

    name = "count"

    def act(self, view: RedBlackView) -> Bet:
        r, b = view.red_left, view.black_left
        red, black = bet_ev(r, b), bet_ev(b, r)
        colour, ev = (RED, red) if red >= black else (BLACK, black)
        o = view.options
        return Bet(colour, o.top_bet if ev > 1e-12 else o.min_bet)


BOTS: dict[str, type[RedBlackBot]] = {c.name: c for c in (RandomBot, RuleBot, CountBot)}


def new_bot(name: str, seed: int | None = None) -> Any:
    """The built-in bot ``name``, or one clear error."""
    cls = BOTS.get(name)
    if cls is None:
        raise RedBlackError(f"red_black: unknown bot {name!r}; built-in: {', '.join(BOTS)}")
    return cls(seed)
