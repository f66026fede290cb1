"""A bot that plays a strategy file (``pokerarena solve``, docs/exact.md): it declares
the file's distribution at each view as its policy, and ``act`` draws from exactly that
distribution with the bot's seeded generator.

Spec: ``cfr:FILE`` (the registry's shorthand for
``pokerarena.bots.simple.strategy_bot:StrategyBot?path=FILE``), optionally
``cfr:FILE?variant=leduc``. The file is read and checked when the bot is made (format,
version, header, the game key of its variant and options, every row), so a broken file,
or one for another variant than ``variant``, is one error before any hand is played. A
file of another game than the table's is refused before any hand by ``check_game``,
which ``match``, ``play`` and ``run`` call with the table's game; at a view of another
game (its game key differs from the file's) or a state the file lacks the bot raises
(the exact walk stops there, a match's fault guard records it); that every state of the game
is in the file is checked by ``pokerarena.solvers.strategy_file.load_strategy``, which
needs the game tree (the solvers' layer).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokerarena.bots.base import BaseBot, Policy, SeatView, draw_from
from pokerarena.bots.simple.strategy_table import (
    StrategyFileError,
    StrategyTable,
    move_of,
    read_strategy,
    state_key,
)
from pokerarena.engine.actions import RAISE_KIND, Action


class StrategyBot(BaseBot):
    """Plays a strategy table: ``path`` (a strategy file) or ``table`` (one already read,
    for callers that checked it against the game tree)."""

    name = "cfr"
    pure_policy = True  # policy() reads the view alone (bots.base.branches_of)
    description = "plays a strategy file written by pokerarena solve (kuhn, leduc)"

    def __init__(self, seed: int | None = None, *, path: str | Path | None = None,
                 table: StrategyTable | None = None, variant: str | None = None,
                 **options: Any) -> None:
        super().__init__(seed, **options)
        if (path is None) == (table is None):
            raise StrategyFileError("cfr bot: give a strategy file, cfr:FILE")
        self.table = table if table is not None else read_strategy(str(path))
        self._where = str(path) if path is not None else "the strategy"
        if variant is not None and self.table.variant != str(variant):
            raise StrategyFileError(f"{self._where} is a strategy for "
                                    f"{self.table.variant}, not {variant}")
        self._policies: dict[str, Policy] = {}

    def check_game(self, game: dict[str, Any], players: int) -> None:
        """Refuse another game than the file's (``game``: the views' game summary with
        its key); the commands call it before any hand (:func:`~pokerarena.bots.
        registry.check_bots_for_game`)."""
        key = game.get("game_key") if isinstance(game, dict) else None
        if key != self.table.game_key:
            raise StrategyFileError(
                f"{self._where} is a strategy for {self.table.variant} (game "
                f"{self.table.game_key}), not for this game ({game.get('variant')}, game "
                f"{key})")

    def policy(self, view: SeatView) -> Policy:
        """The file's distribution at ``view`` (moves of probability 0 left out)."""
        key = state_key(view)
        got = self._policies.get(key)
        if got is None:
            got = self._policies[key] = self._read(view, key)
        return got

    def _read(self, view: SeatView, key: str) -> Policy:
        game = view.game if isinstance(view.game, dict) else {}
        if game.get("game_key") != self.table.game_key:
            self.check_game({**game, "variant": view.variant}, view.players)
        row = self.table.strategy.get(key)
        if row is None:
            raise StrategyFileError(f"{self._where} has no information state {key!r}")
        legal = view.legal
        assert legal is not None
        out: Policy = []
        for name, p in row.items():
            action = move_of(name)
            if not _legal(action, legal):
                raise StrategyFileError(f"{self._where}: state {key!r}: {name} is not legal")
            if p > 0.0:
                out.append((action, p))
        return out

    def act(self, view: SeatView) -> Action:
        """One draw from :meth:`policy` (cumulative probabilities against one uniform)."""
        return draw_from(self.policy(view), self.rng.random())


def _legal(action: Action, legal: Any) -> bool:
    """Whether ``legal`` allows ``action`` (a bet or raise: its amount too)."""
    if action.kind not in legal.kinds:
        return False
    if action.kind == RAISE_KIND:
        return (action.amount in legal.choices if legal.choices
                else legal.min_to <= action.amount <= legal.max_to)
    return True
