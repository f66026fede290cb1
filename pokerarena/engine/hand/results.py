"""The outcome of a hand: its pots and its result (deltas, stacks, showdown)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pokerarena.engine.hand.common import _card_text


@dataclass
class Pot:
    """One pot (main or side): its chips, who could win it and what each won."""

    amount: int
    eligible: list[int]
    winners: dict[int, Any] = field(default_factory=dict)
    kind: str = "main"

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form (seats as ints)."""
        return {"amount": _num(self.amount), "kind": self.kind, "eligible": self.eligible,
                "winners": {str(k): _num(v) for k, v in self.winners.items()}}


def _num(x: Any) -> Any:
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    return x


@dataclass
class HandResult:
    """The outcome: per-seat chip deltas and final stacks, pots, showdown details.

    ``passed``: nobody opened (openers rule); ``carry`` chips then wait in the pot for the
    next deal (``Game.new_hand(..., carry=...)``); ``kitty``: the unit taken for the table's
    kitty; ``bonuses``: seat -> chips received as a bonus hand. Chips are conserved as
    stacks + rake + kitty + carry."""

    deltas: list[Any]
    stacks: list[Any]
    pots: list[Pot]
    showdown_raw: dict[int, tuple] = field(default_factory=dict, repr=False)
    rake: int = 0
    went_to_showdown: bool = False
    passed: bool = False
    carry: int = 0
    scorer: Any = field(default=None, repr=False, compare=False)
    kitty: int = 0
    bonuses: dict[int, int] = field(default_factory=dict)
    _described: dict[int, dict[str, Any]] | None = field(default=None, repr=False,
                                                          compare=False)

    @property
    def showdown(self) -> dict[int, dict[str, Any]]:
        """Seat -> {cards, high, low} for every hand that was compared at the showdown."""
        if self._described is None:
            sc = self.scorer
            self._described = {
                seat: {"cards": "".join(_card_text(c) for c in cards),
                       "high": sc.describe(hv, wild=wild) if sc else str(hv),
                       "low": sc.describe(lv, low=True, wild=wild) if sc else str(lv)}
                for seat, (cards, hv, lv, wild) in self.showdown_raw.items()}
        return self._described

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {"deltas": [_num(d) for d in self.deltas], "stacks": [_num(s) for s in self.stacks],
                "pots": [p.as_dict() for p in self.pots],
                "showdown": {str(k): v for k, v in self.showdown.items()},
                "rake": self.rake, "went_to_showdown": self.went_to_showdown,
                "passed": self.passed, "carry": self.carry, "kitty": self.kitty,
                "bonuses": {str(k): v for k, v in self.bonuses.items()}}
