"""American durak («Дурак американский», ``001_…``): attack and defence, throwing in,
the defender's throw-in to himself, drawing up to six, and the loser.

``DurakGame(options).new_hand(seed, seats, dealer)`` is one whole game; see :mod:`.game`
for the protocol, :mod:`.rules` for the options, :mod:`.bots` for the built-in bots and
``docs/games.md`` for the readings.
"""

from __future__ import annotations

from typing import Any

from pokerarena.games import lazy_export


def __getattr__(name: str) -> Any:
    """The family's public names (its ``family()``, game, actions, bots, ...), from
    :mod:`.entry` on first use: this package imports nothing of the game (see
    :mod:`pokerarena.games`)."""
    return lazy_export(__name__, name)


__all__ = ["BOTS", "DurakAction", "DurakError", "DurakGame", "DurakHand", "DurakOptions",
           "DurakResult", "DurakView", "beat", "family", "make_bot", "next_dealer", "parse_action",
           "play_series", "throw"]
