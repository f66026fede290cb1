"""Game families that are not betting poker, behind the same protocol as the engine's:
``Game(options).new_hand(seed, seats)`` → a hand with ``to_act``, ``legal_actions()``,
``apply()``, ``observation(seat)``, ``is_over``, ``result()`` and a replayable ``log``.

This is their catalogue, kept apart from the poker variants of :mod:`pokerarena.rules`
(``variant_ids()`` lists the TOML betting variants; every poker test and spec iterates
over those): :func:`family_ids` lists the families here, :func:`new_game` makes one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pokerarena.errors import UserError


class GameFamilyError(ValueError, UserError):
    """A game family that does not exist."""


@dataclass(frozen=True)
class Family:
    """A registered family: its id, a name, the table sizes, and its game factory."""

    id: str
    name: str
    players: tuple[int, int]
    deck: str
    make: Callable[[dict[str, Any] | None], Any]
    play: Callable[..., list[tuple[float, ...]]] | None = None
    """``play(options, bots, games, seed)``: each game's points per seat, the family's
    built-in bots named in ``bots`` (what ``pokerarena play`` plays)."""


_FAMILIES: dict[str, Family] = {}


def register_game_family(family: Family) -> None:
    """Add ``family`` to the catalogue."""
    _FAMILIES[family.id] = family


def family_ids() -> tuple[str, ...]:
    """The registered families, sorted."""
    return tuple(sorted(_FAMILIES))


def family(name: str) -> Family:
    """The family called ``name``, or one clear error."""
    found = _FAMILIES.get(name)
    if found is None:
        raise GameFamilyError(f"unknown game family {name!r}; known: {', '.join(family_ids())}")
    return found


def new_game(name: str, options: dict[str, Any] | None = None) -> Any:
    """A game of family ``name`` with ``options``."""
    return family(name).make(options)


def _register_builtin() -> None:
    from pokerarena.games.painted import PaintedGame
    from pokerarena.games.painted.matches import play_games

    register_game_family(Family("painted", PaintedGame.name, PaintedGame.players,
                                "36|52", PaintedGame, play_games))


_register_builtin()

__all__ = ["Family", "GameFamilyError", "family", "family_ids", "new_game",
           "register_game_family"]
