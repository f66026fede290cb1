"""American boston («Американский вариант бостона», ``001_…``): four players, a bidding
ladder from the junior-suit proposal to misère, a supporter or none, solo and
independence, the kitty («касса») with its stakes, labets and share-out.

``BostonGame(options).new_hand(seed, 4)`` is one whole game; see :mod:`.game` for the
protocol, :mod:`.rules` for the options and the payments, :mod:`.bots` for the built-in
bots. Rules readings: ``docs/games.md``.
"""

from __future__ import annotations

from typing import Any

from pokerarena.games import lazy_export


def __getattr__(name: str) -> Any:
    """The family's public names (its ``family()``, game, actions, bots, ...), from
    :mod:`.entry` on first use: this package imports nothing of the game (see
    :mod:`pokerarena.games`)."""
    return lazy_export(__name__, name)


__all__ = ["family", "BostonAction", "BostonError", "BostonGame", "BostonHand",
           "BostonOptions", "BostonResult", "BostonView", "DealRecord", "accept", "bid",
           "parse_action", "pass_", "play"]
