"""Playing whole games of any family between its built-in bots, and the duplicate test.

The small loop that ``pokerarena play``, the families' tests and their comparisons use
(the platform's runs add the fault guard, timing and rows on top). A family's bot has
``start_game(view)``, ``act(view) -> action`` and ``end_game(view)``; its game has
``new_hand(seed, seats, dealer)``.

:func:`duplicate` plays every seed (the same first dealer and the same cards) once in
each seating of two bots (alternating round the table, then shifted by one seat), so
each seat's cards are played by both, and reports the per-seed difference of their mean
points per game with a 95% interval (Student's t over the seeds).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokerarena.games import Family

# two-sided 97.5% quantiles of Student's t for small samples (df -> t), else the normal's
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000, 120: 1.980}


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (the nearest
    tabulated one at or below ``df``; 1.96 from 1,000 on)."""
    if df >= 1000:
        return 1.96
    return _T975[max(k for k in _T975 if k <= max(df, 1))]


def play_game(game: Any, bots: Sequence[Any], seed: int | None,
              dealer: int | None = None) -> Any:
    """One whole game, seat ``i`` played by ``bots[i]``; the finished hand."""
    hand = game.new_hand(seed, len(bots), dealer)
    for s, b in enumerate(bots):
        b.start_game(hand.observation(s))
    while not hand.is_over:
        s = hand.to_act
        hand.apply(bots[s].act(hand.observation(s)), s)
    for s, b in enumerate(bots):
        b.end_game(hand.observation(s))
    return hand


def _bots(fam: Family, names: Sequence[str], seed: int) -> list[Any]:
    if fam.new_bot is None:
        raise ValueError(f"{fam.id}: the family has no built-in bots")
    return [fam.new_bot(name, seed * 31 + i) for i, name in enumerate(names)]


def play_games(fam: Family, options: dict[str, Any] | None, bots: Sequence[str],
               games: int, seed: int = 0) -> list[tuple[float, ...]]:
    """``games`` whole games of the named built-in bots (seat ``i``: ``bots[i]``), game
    ``g`` from seed ``seed + g`` with the first dealer turning round the table; each
    game's points per seat (``result().deltas``)."""
    game = fam.make(options)
    return [tuple(play_game(game, _bots(fam, bots, seed + g), seed + g,
                            g % len(bots)).result().deltas) for g in range(games)]


@dataclass(frozen=True)
class Comparison:
    """``a`` against ``b``: per seed, the mean points per game of ``a``'s seats minus
    ``b``'s over the seatings; the mean and its 95% half-width."""

    a: str
    b: str
    diffs: tuple[float, ...]

    @property
    def mean(self) -> float:
        return sum(self.diffs) / len(self.diffs)

    @property
    def ci95(self) -> float:
        n = len(self.diffs)
        if n < 2:
            return math.inf
        m = self.mean
        sd = math.sqrt(sum((d - m) ** 2 for d in self.diffs) / (n - 1))
        return t975(n - 1) * sd / math.sqrt(n)

    @property
    def significant(self) -> bool:
        """The interval excludes 0."""
        return abs(self.mean) > self.ci95

    def as_text(self, unit: str = "points per game") -> str:
        return (f"{self.a} - {self.b}: {self.mean:+.2f} ± {self.ci95:.2f} {unit} "
                f"(95%, {len(self.diffs)} seeds)")


def seatings(a: str, b: str, players: int) -> list[list[str]]:
    """Two bots alternating round the table, and the same shifted by one seat."""
    first = [a if i % 2 == 0 else b for i in range(players)]
    return [first, first[1:] + first[:1]]


def duplicate(fam: Family, a: str, b: str, *, players: int, games: int, seed: int = 0,
              options: dict[str, Any] | None = None) -> Comparison:
    """Bot ``a`` against bot ``b`` on ``games`` seeds (see the module docstring)."""
    game = fam.make(options)
    diffs = []
    for g in range(games):
        s = seed * 1_000_003 + g
        d = 0.0
        layouts = seatings(a, b, players)
        for names in layouts:
            deltas = play_game(game, _bots(fam, names, s), s, 0).result().deltas
            mine = [x for x, nm in zip(deltas, names, strict=True) if nm == a]
            theirs = [x for x, nm in zip(deltas, names, strict=True) if nm == b]
            d += (sum(mine) / len(mine) - sum(theirs) / len(theirs)) / len(layouts)
        diffs.append(d)
    return Comparison(a, b, tuple(diffs))


__all__ = ["Comparison", "duplicate", "play_game", "play_games", "seatings", "t975"]
