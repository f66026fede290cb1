"""What every family's game class shares: replaying a log and its JSON summary.

A family's game (``PaintedGame``, ``BostonGame``, ...) subclasses :class:`FamilyGame`
and defines ``family``, ``options`` (a pydantic model) and ``new_hand``; the replay of
a log is then the same loop for all of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np

from pokerarena.protocols import GameInfo, Hand, Seed, Utility, longest, params_of


class FamilyGame:
    """The shared part of a family's game (see the module docstring)."""

    family: str
    options: Any
    players: tuple[int, int]
    utility: ClassVar[Utility] = "general_sum"
    """What one game's points sum to (:class:`~pokerarena.protocols.GameInfo`): a family
    whose points always sum to 0 says ``zero_sum``, to a constant ``constant_sum``."""
    utility_sum: ClassVar[float | None] = None

    def score_range(self, players: int) -> tuple[float, float] | None:
        """The least and the most points one seat can end a game with (None: unbound)."""
        return None

    def max_length(self, players: int) -> int | None:
        """The most decisions one game can take (None: the rules bound none stated)."""
        return None

    _info: GameInfo | None = None

    @property
    def info(self) -> GameInfo:
        """What the game is, at its fullest table (the protocol's :class:`GameInfo`),
        computed once per game (its bound walks every table size)."""
        if self._info is None:
            self._info = self._game_info()
        return self._info

    def _game_info(self) -> GameInfo:
        lo, hi = self.players
        return GameInfo(
            name=self.family, family=self.family, betting="", players=(lo, hi),
            information="imperfect", utility=self.utility, utility_sum=self.utility_sum,
            utility_range=self.score_range(hi),
            max_length=longest([self.max_length(n) for n in range(lo, hi + 1)]),
            explicit_chance=False, parameters=params_of(type(self.options)))

    def new_hand(self, seed: Seed, seats: int, dealer: int | None = None) -> Hand:
        raise NotImplementedError  # pragma: no cover - every family defines it

    def replay(self, seed: Any, seats: int, actions: Iterable[tuple[int, Any]],
               dealer: int | None = None) -> Any:
        """The game ``new_hand(seed, seats, dealer)`` with ``actions`` (a log) applied."""
        hand = self.new_hand(seed, seats, dealer)
        for seat, action in actions:
            hand.apply(action, seat)
        return hand

    def describe(self) -> dict[str, Any]:
        """A JSON-friendly summary of the game: its family and options."""
        return {"family": self.family, "options": self.options.model_dump(mode="json")}


def shuffled_with_dealer(seed: int | np.random.Generator | None, deck: Sequence[int],
                         seats: int, dealer: int | None, error: type[Exception],
                         family: str) -> tuple[list[int], int]:
    """The whole ``deck`` shuffled by ``seed``, and the dealer's seat: ``dealer`` where
    given (checked against ``seats``), else drawn by lot. The lot is drawn after the
    shuffle either way, so a seed deals the same cards whoever is named dealer."""
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    order = [int(c) for c in rng.permutation(np.array(deck, dtype=np.int16))]
    first = int(rng.integers(seats))
    if dealer is not None:
        if not isinstance(dealer, int) or not 0 <= dealer < seats:
            raise error(f"{family}: dealer: seat {dealer!r} is not one of the {seats} seats")
        first = dealer
    return order, first


def is_seat_count(seats: object, low: int, high: int) -> bool:
    """``seats`` is an int (not a bool) from ``low`` to ``high``."""
    return isinstance(seats, int) and not isinstance(seats, bool) and low <= seats <= high


__all__ = ["FamilyGame", "is_seat_count", "shuffled_with_dealer"]
