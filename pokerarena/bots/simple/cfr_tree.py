"""The betting tree of the ``cfr`` bot and its trainer: heads-up fixed-limit hold'em as
arrays.

**The betting tree** is heads-up fixed-limit hold'em as the engine plays it: the blinds,
the small and big bets of each round and the heads-up cap (one bet and
``heads_up_max_raises`` raises a round, the big blind counting as the pre-flop bet;
``pokerarena/rules/model.py`` ``FixedLimit``, source 002_… «кэп объявляется после 5
подъемов»), read from the game's program; the button (small blind) acts first
pre-flop, the big blind first after. A fold when checking is free is left out (the
engine allows it; it is never better than a check). A hand where someone goes all in
for less than a bet leaves the tree; the bot reads such a line by
:mod:`~pokerarena.bots.simple.cfr_translation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.bots.simple.strategy_table import StrategyFileError

FOLD, CALL, RAISE = 0, 1, 2
DECISION, FOLDED, SHOWDOWN = 0, 1, 2


@dataclass(frozen=True)
class BettingTree:
    """Heads-up fixed-limit betting as arrays, nodes in pre-order (a child's number is
    above its parent's). Players are positions: 0 the button (small blind), 1 the big
    blind. ``child[n]``: the node after fold, check/call, bet/raise (-1: not allowed);
    ``commit[n]``: each player's chips in the pot at ``n``; ``loser[n]``: who folded at a
    fold node; ``raise_to[n]``: the round's bet a raise at ``n`` makes; ``row[n]``: the
    first strategy row of a decision node (-1 elsewhere), one row per bucket of its
    round."""

    kind: np.ndarray
    player: np.ndarray
    rnd: np.ndarray
    child: np.ndarray
    commit: np.ndarray
    loser: np.ndarray
    raise_to: np.ndarray
    row: np.ndarray
    rows: int
    blinds: tuple[int, int]
    bets: tuple[int, ...]
    max_bets: int


def tree_params(game: Any) -> tuple[tuple[int, int], tuple[int, ...], int]:
    """(blinds, the bet of each round, bets a round may hold) of heads-up ``game``, from
    its program (the fixed-limit rules: one bet and ``heads_up_max_raises`` raises)."""
    from pokerarena.engine.steps import SIZE_BIG, BetStep

    prog = game.program
    if prog.system_name != "fixed_limit" or game.variant_id != "holdem":
        raise StrategyFileError(f"the cfr bot plays heads-up fixed-limit hold'em, not "
                                f"{game.variant_id} ({prog.system_name})")
    _, blinds = game.forced_by_position(2)
    steps = [s for s in prog.steps if isinstance(s, BetStep)]
    bets = tuple(prog.big_bet if s.size == SIZE_BIG else prog.small_bet for s in steps)
    cap = prog.heads_up_max_raises
    if cap is None or len(bets) != 4:
        raise StrategyFileError("the cfr bot needs a raise cap and four betting rounds")
    return (min(blinds), max(blinds)), bets, 1 + int(cap)


def build_tree(blinds: tuple[int, int], bets: tuple[int, ...], max_bets: int,
               buckets: tuple[int, ...]) -> BettingTree:
    """The tree of heads-up fixed-limit betting with these stakes (the module's
    docstring), rows laid out for ``buckets`` per round."""
    cols: dict[str, list[int]] = {k: [] for k in
                                  ("kind", "player", "rnd", "f", "c", "r", "c0", "c1",
                                   "loser", "raise_to", "row")}
    rows = [0]

    def add(kind: int, player: int, rnd: int, commit: list[int], loser: int = -1,
            raise_to: int = 0) -> int:
        n = len(cols["kind"])
        for k, v in (("kind", kind), ("player", player), ("rnd", rnd), ("f", -1),
                     ("c", -1), ("r", -1), ("c0", commit[0]), ("c1", commit[1]),
                     ("loser", loser), ("raise_to", raise_to), ("row", -1)):
            cols[k].append(v)
        if kind == DECISION:
            cols["row"][n] = rows[0]
            rows[0] += buckets[rnd]
        return n

    def node(rnd: int, p: int, commit: list[int], level: int, acted: tuple[int, int]) -> int:
        raise_to = (level + 1) * bets[rnd]
        n = add(DECISION, p, rnd, commit, raise_to=raise_to)
        o = 1 - p
        if commit[o] > commit[p]:
            cols["f"][n] = add(FOLDED, p, rnd, commit, loser=p)
        called = list(commit)
        called[p] = commit[o]
        seen = (1, acted[1]) if p == 0 else (acted[0], 1)
        if acted[o]:      # the round closes on this check or call
            cols["c"][n] = (add(SHOWDOWN, p, rnd, called) if rnd == 3
                            else node(rnd + 1, 1, called, 0, (0, 0)))
        else:
            cols["c"][n] = node(rnd, o, called, level, seen)
        if level < max_bets:
            raised = list(commit)
            raised[p] = commit[o] + bets[rnd]
            cols["r"][n] = node(rnd, o, raised, level + 1, seen)
        return n

    node(0, 0, [blinds[0], blinds[1]], 1, (0, 0))
    a = {k: np.asarray(v, np.int64) for k, v in cols.items()}
    return BettingTree(kind=a["kind"].astype(np.int8), player=a["player"].astype(np.int8),
                       rnd=a["rnd"].astype(np.int8),
                       child=np.stack([a["f"], a["c"], a["r"]], axis=1).astype(np.int32),
                       commit=np.stack([a["c0"], a["c1"]], axis=1), loser=a["loser"],
                       raise_to=a["raise_to"], row=a["row"], rows=rows[0], blinds=blinds,
                       bets=tuple(bets), max_bets=max_bets)


def legal_mask(tree: BettingTree, buckets: tuple[int, ...]) -> np.ndarray:
    """rows x 3: which moves each row's node allows."""
    mask = np.zeros((tree.rows, 3), np.bool_)
    for n in np.flatnonzero(tree.kind == DECISION):
        r0 = tree.row[n]
        mask[r0:r0 + buckets[tree.rnd[n]]] = tree.child[n] >= 0
    return mask
