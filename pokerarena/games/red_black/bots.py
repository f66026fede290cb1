"""The built-in red-and-black bots: ``random`` (any legal bet), ``rule`` (the colour
seen less so far, always the minimum stake) and ``count`` (the exact expectation of
both colours from the cards left; the largest stake allowed when the better one is
favourable, the minimum otherwise: with the default minimum stakes, always the minimum).

Since every card is dealt face up, the cards left are known by colour (the view's
``red_left``/``black_left``); the bet's expectation follows exactly (:func:`.edge.bet_ev`).
"""

from __future__ import annotations

from typing import Any

from pokerarena.games.family_bot import FamilyBot, UniformBot, bot_table, make_family_bot
from pokerarena.games.red_black.actions import Bet
from pokerarena.games.red_black.edge import bet_ev, counted_choice
from pokerarena.games.red_black.rules import BLACK, RED, RedBlackError
from pokerarena.games.red_black.view import RedBlackView


class RedBlackBot(FamilyBot[RedBlackView, Bet]):
    """A red-and-black bot: the shared base (:class:`~pokerarena.games.family_bot.FamilyBot`)
    typed for this family, its messages and its error class."""

    family, error = "red_black", RedBlackError


class RandomBot(UniformBot[RedBlackView, Bet], RedBlackBot):
    """Uniform over the legal bets."""


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


BOTS: dict[str, type[RedBlackBot]] = bot_table(RandomBot, RuleBot, CountBot)


def make_bot(name: str, seed: int | None = None, **options: Any) -> RedBlackBot:
    """The built-in bot ``name`` (one of :data:`BOTS`); an unknown one is a
    :class:`RedBlackError`."""
    return make_family_bot("red_black", BOTS, RedBlackError, name, seed, **options)

