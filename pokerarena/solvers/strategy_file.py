"""Strategy files from the solvers' side (the format: :mod:`pokerarena.bots.simple.
strategy_table`, version 1, documented in docs/exact.md): writing a solve's result, and
reading a file with every check, the ones that need the game tree included.

The bot layer checks what a file says about itself (format, version, header, keys and
moves well formed, probabilities finite and summing to 1, the game's key). Here a file is
also held against the game it names, walked: every information state of the file must be
one of the game's, with exactly its legal moves, and every one of the game's must be in
the file. Each problem is one :class:`StrategyFileError` (a ``UserError``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokerarena.bots.simple.strategy_table import (
    FORMAT,
    VERSION,
    StrategyFileError,
    StrategyTable,
    dump_strategy,
    read_strategy,
)
from pokerarena.engine.keys import game_info_of
from pokerarena.solvers.cfr import FlatTree, flatten
from pokerarena.solvers.exact import ExactError, build_tree

__all__ = ["FORMAT", "VERSION", "StrategyFileError", "StrategyTable", "check_table",
           "load_strategy", "write_strategy"]


def write_strategy(path: str | Path, result: Any) -> None:
    """Write a :class:`~pokerarena.solvers.cfr.SolveResult` as a strategy file."""
    dump_strategy(path, result.header(), result.strategy)


def load_strategy(path: str | Path, *, variant: str | None = None,
                  flat: FlatTree | None = None) -> StrategyTable:
    """Read ``path`` and check it against its game: the game named by its header must
    be ``variant`` when given, must have the header's game key, and its walked tree
    (``flat``: a :class:`~pokerarena.solvers.cfr.FlatTree` already built, or walked
    here) must have exactly the file's information states and moves. (The game key is
    checked by the reader.)"""
    table = read_strategy(path)
    where = str(path)
    if variant is not None and table.variant != variant:
        raise StrategyFileError(f"{where}: a strategy for {table.variant}, not {variant}")
    if flat is None:
        try:
            flat = flatten(build_tree(table.variant, table.header["options"]))
        except ExactError as exc:
            raise StrategyFileError(f"{where}: {exc}") from None
    check_table(table, flat, where)
    return table


def check_table(table: StrategyTable, flat: FlatTree, where: str) -> None:
    """A table already read is one of ``flat``'s game: the same game key, and exactly
    its information states and moves (``where`` names the file in the error)."""
    key = game_info_of(flat.tree.game)["game_key"]
    if key != table.game_key:
        raise StrategyFileError(f"{where}: a strategy for {table.variant} (game "
                                f"{table.game_key}), not for {flat.tree.game.variant_id} "
                                f"(game {key})")
    _check_states(table, flat, where)


def _check_states(table: StrategyTable, flat: FlatTree, where: str) -> None:
    """The file's states and moves are the tree's, no more and no fewer."""
    moves = dict(zip(flat.keys, flat.moves, strict=True))
    for key, row in table.strategy.items():
        legal = moves.get(key)
        if legal is None:
            raise StrategyFileError(f"{where}: {key!r} is not an information state of "
                                    f"{table.variant}")
        unknown = set(row) - set(legal)
        if unknown:
            raise StrategyFileError(f"{where}: state {key!r}: {sorted(unknown)} are not "
                                    f"legal there ({', '.join(legal)})")
    missing = [k for k in flat.keys if k not in table.strategy]
    if missing:
        raise StrategyFileError(f"{where}: {len(missing)} information states of "
                                f"{table.variant} are missing (the first: {missing[0]!r})")
