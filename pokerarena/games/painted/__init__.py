"""Painted poker («расписной покер», ``004_…``): a trick-taking game with bids.

``PaintedGame(options).new_hand(seed, seats)`` is one whole game («партия»); see
:mod:`.game` for the protocol, :mod:`.rules` for the options and the scoring, and
:mod:`.bots` for the built-in bots. Rules readings: ``docs/games.md``.
"""

from pokerarena.games.painted.actions import PaintedAction, bid, parse_action, play
from pokerarena.games.painted.game import DealRecord, PaintedGame, PaintedHand, PaintedResult
from pokerarena.games.painted.rules import PaintedError, PaintedOptions, deal_plan
from pokerarena.games.painted.view import PaintedView

__all__ = ["DealRecord", "PaintedAction", "PaintedError", "PaintedGame", "PaintedHand",
           "PaintedOptions", "PaintedResult", "PaintedView", "bid", "deal_plan",
           "parse_action", "play"]
