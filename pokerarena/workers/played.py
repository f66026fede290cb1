"""What every kind of unit shares once played: the games kept warm across units
(:class:`GameCache`), the played unit's tables (:class:`PlayedUnit`) and its ``units``
row (:func:`units_row`).

Apart from :mod:`~pokerarena.workers.records` so that a worker loads only what the kind
of unit it plays needs: a game family's actor never imports the poker engine, its
evaluator or their compiled kernels (issue 29: the actors' fixed start-up).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from pokerarena.workers.rows import UNITS
from pokerarena.workers.unit import Unit

if TYPE_CHECKING:
    from pokerarena.engine.game import Game

__all__ = ["GameCache", "PlayedUnit", "units_row"]


class GameCache:
    """Games by (variant, options), kept warm across units."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}

    def get(self, variant: str, options: dict[str, Any]) -> Game:
        """The game of ``variant`` with ``options``."""
        key = json.dumps([variant, options], sort_keys=True)
        game = self._games.get(key)
        if game is None:
            from pokerarena.engine.game import Game  # on the first poker unit only

            game = self._games[key] = Game(variant, options)
        return game


@dataclass
class PlayedUnit:
    """What :func:`play_unit` returns: the unit's data tables, and each entrant's
    decisions and thinking time in lineup order (for its ``units`` row)."""

    tables: dict[str, pa.Table]
    decisions: list[int] = field(default_factory=list)
    think_seconds: list[float] = field(default_factory=list)


def units_row(unit: Unit, *, worker: str, attempt: int, started_at: float,
              play_seconds: float, write_seconds: float, rows: dict[str, int],
              nbytes: int, played: PlayedUnit | None = None) -> pa.Table:
    """The one-row ``units`` table of a finished unit (``played``: what
    :func:`play_unit` returned, for the bots' decisions and thinking time)."""
    return UNITS.table([(
        unit.run_id, unit.match, unit.shard, unit.variant, unit.betting,
        json.dumps(unit.options, sort_keys=True), ",".join(unit.bots), unit.hands,
        unit.first_hand, unit.seed, ",".join(str(k) for k in unit.spawn_key), worker,
        attempt, int(started_at * 1000), play_seconds, write_seconds,
        rows.get("hands", 0), rows.get("seats", 0), rows.get("actions", 0),
        rows.get("faults", 0), nbytes, played.decisions if played else None,
        played.think_seconds if played else None)])
