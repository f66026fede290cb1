"""Bots: the ``Bot`` protocol, the built-in league and the ways of naming a bot.

A bot answers ``act(view) -> Action`` where ``view`` is a
:class:`~pokerarena.bots.base.SeatView` (a plain copy of what its seat may see; never the
engine's hand or observation); ``start_match``, ``start_hand`` and ``end_hand`` are
optional hooks. :func:`make_bot` builds any bot a spec names: a registered name
(``pokerarena bots`` lists them), a Python path ``package.module:Class`` or an
``http://`` URL. Tables play bots through :mod:`pokerarena.arena.match` (fault guard,
time limits) and :mod:`pokerarena.arena.session` (a session at a
:class:`~pokerarena.engine.table.Table`).
"""

from __future__ import annotations

from typing import Any

from pokerarena.bots.base import BaseBot, Bot, SeatView, passive_action
from pokerarena.bots.registry import REGISTRY, BotSpecError, make_bot
from pokerarena.bots.simple.call_bot import CallBot
from pokerarena.bots.simple.random_bot import RandomBot
from pokerarena.engine.actions import Action, Legal

__all__ = ["BUILTIN_BOTS", "BaseBot", "Bot", "BotSpecError", "CallBot", "RandomBot",
           "SeatView", "default_action", "make_bot"]

# Registered bot names -> "module:Class" (kept for callers that list the built-in bots).
BUILTIN_BOTS: dict[str, Any] = {name: path for name, (path, _) in REGISTRY.items()}


def default_action(legal: Legal, hole: Any, up_cards: Any = ()) -> Action:
    """The irregularity policy's passive action: check if free, else fold (post a
    bring-in, stand pat, show, turn up the first down cards, declare high)."""
    up = set(up_cards)
    return passive_action(legal, tuple(hole), [c for c in hole if c not in up])
