"""What every family's game class shares: replaying a log and its JSON summary.

A family's game (``PaintedGame``, ``BostonGame``, ...) subclasses :class:`FamilyGame`
and defines ``family``, ``options`` (a pydantic model) and ``new_hand``; the replay of
a log is then the same loop for all of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np


class FamilyGame:
    """The shared part of a family's game (see the module docstring)."""

    family: str
    options: Any

    def new_hand(self, seed: Any, seats: int, dealer: int | None = None) -> Any:
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
