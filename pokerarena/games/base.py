"""What every family's game class shares: replaying a log and its JSON summary.

A family's game (``PaintedGame``, ``BostonGame``, ...) subclasses :class:`FamilyGame`
and defines ``family``, ``options`` (a pydantic model) and ``new_hand``; the replay of
a log is then the same loop for all of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


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


__all__ = ["FamilyGame"]
