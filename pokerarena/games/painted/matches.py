"""Playing whole games between painted-poker bots, and the duplicate comparison.

The game loop is the families' own (:mod:`pokerarena.games.play`, re-exported here);
this module keeps painted poker's duplicate comparison, whose figures in docs/games.md
were made with the first dealer drawn by lot and a normal interval. ``duplicate``
plays every deal sequence (one seed: the same first dealer and the same cards in
every deal) once in each seating of two bots (alternating seats, then shifted by
one), so each seat's cards are played by both, and reports the per-game difference
with a 95% interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.games.painted.bots import make_bot
from pokerarena.games.painted.game import PaintedGame
from pokerarena.games.play import play_game, seatings


@dataclass(frozen=True)
class Comparison:
    """``a`` against ``b``: per deal sequence, the mean points per game of ``a``'s seats
    minus ``b``'s, over the seatings; the mean and its 95% half-width."""

    a: str
    b: str
    diffs: tuple[float, ...]

    @property
    def mean(self) -> float:
        return float(np.mean(self.diffs))

    @property
    def ci95(self) -> float:
        n = len(self.diffs)
        return 1.96 * float(np.std(self.diffs, ddof=1)) / math.sqrt(n) if n > 1 else math.inf

    def as_text(self) -> str:
        return (f"{self.a} - {self.b}: {self.mean:+.1f} ± {self.ci95:.1f} points per game "
                f"(95%, {len(self.diffs)} deal sequences)")


def duplicate(game: PaintedGame, a: str, b: str, *, players: int = 4, games: int = 10,
              seed: int = 0, options: dict[str, dict[str, Any]] | None = None) -> Comparison:
    """Bot ``a`` against bot ``b`` on ``games`` deal sequences (see the module docstring);
    ``options``: keyword options per bot name."""
    opts = options or {}
    diffs = []
    for g in range(games):
        deal_seed = seed * 1_000_003 + g
        d = 0.0
        layouts = seatings(a, b, players)
        for names in layouts:
            bots = [make_bot(nm, seed=deal_seed * 31 + i, **opts.get(nm, {}))
                    for i, nm in enumerate(names)]
            totals = play_game(game, bots, deal_seed).result().totals
            mine = [t for t, nm in zip(totals, names, strict=True) if nm == a]
            theirs = [t for t, nm in zip(totals, names, strict=True) if nm == b]
            d += (float(np.mean(mine)) - float(np.mean(theirs))) / len(layouts)
        diffs.append(d)
    return Comparison(a, b, tuple(diffs))


def play_games(options: dict[str, Any] | None, bots: Sequence[str], games: int,
               seed: int = 0) -> list[tuple[float, ...]]:
    """``games`` whole games of the named built-in bots (seat ``i``: ``bots[i]``), game
    ``g`` from seed ``seed + g``, the first dealer turning round the table; each game's
    points per seat. What ``pokerarena play --variant painted`` plays."""
    game = PaintedGame(options)
    out = []
    for g in range(games):
        players = [make_bot(name, seed=(seed + g) * 31 + i) for i, name in enumerate(bots)]
        out.append(tuple(play_game(game, players, seed + g, g % len(bots)).result().totals))
    return out
