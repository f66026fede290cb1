"""Painted poker («расписной покер», ``004_…``): a trick-taking game with bids.

``PaintedGame(options).new_hand(seed, seats)`` is one whole game («партия»); see
:mod:`.game` for the protocol, :mod:`.rules` for the options and the scoring, and
:mod:`.bots` for the built-in bots. Rules readings: ``docs/games.md``.
"""

from pokerarena.games import Family
from pokerarena.games.painted.actions import PaintedAction, bid, parse_action, play
from pokerarena.games.painted.game import DealRecord, PaintedGame, PaintedHand, PaintedResult
from pokerarena.games.painted.rules import PaintedError, PaintedOptions, deal_plan
from pokerarena.games.painted.view import PaintedView


def family() -> Family:
    """Painted poker's catalogue entry (see :mod:`pokerarena.games`)."""
    from pokerarena.games.painted.matches import play_games

    return Family("painted", PaintedGame.name, PaintedGame.players, "36|52", PaintedGame,
                  play_games)


__all__ = ["family", "DealRecord", "PaintedAction", "PaintedError", "PaintedGame", "PaintedHand",
           "PaintedOptions", "PaintedResult", "PaintedView", "bid", "deal_plan",
           "parse_action", "play"]
