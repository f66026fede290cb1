"""How the ``cfr`` bot reads a betting line its tree does not have (issue 27).

The tree (:mod:`~pokerarena.bots.simple.cfr_tree`) holds every fixed-limit line between
stacks deep enough that nobody runs out of chips. With shorter stacks the engine allows
three things the tree lacks, and the bot reads each one as follows:

- **A bet or raise all in for less than the full bet** (``x`` chips more than the
  current bet where the tree's raise adds ``B``). It lies between the tree's check/call
  (a bet of 0) and its full bet, and is mapped by the **pseudo-harmonic mapping**
  (Ganzfried and Sandholm, "Action Translation in Extensive-Form Games with Large Action
  Spaces", IJCAI 2013): with sizes as fractions of the pot once the bet is called, ``A``
  = 0, ``B`` and ``x``, it reads as the smaller action with probability
  ``f_A(x) = (B - x)(1 + A) / ((B - A)(1 + x))`` and as the full bet otherwise. Read as
  the full bet, the bot answers from the tree's node after that bet; read as a check or
  call, the tree's line would have gone on without the bot having to answer a bet, and
  the bot calls the few chips (it never folds to a bet its reading says was not made).
  The mapping is randomised, and the randomisation is declared: :func:`readings` returns
  both readings with their weights, and the bot's policy is their mixture, so ``act``
  draws from exactly what ``policy`` says (the exact tools, AIVAT and LBR see the
  translation too).
- **A raise the engine no longer allows** (the opponent is all in, or the round's raises
  ran out with a short all-in): its probability moves to the call.
- **A raise the bot cannot make in full** (its own stack is short): it raises all in,
  the largest raise the engine allows.

A fold where checking is free, which the tree leaves out, stays out. A line that leaves
the tree any other way (another game's betting) is still one :class:`StrategyFileError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from pokerarena.bots.simple.cfr_tree import CALL, DECISION, FOLD, RAISE, BettingTree
from pokerarena.bots.simple.strategy_table import StrategyFileError
from pokerarena.engine.actions import CALL_KIND, FOLD_KIND, RAISE_KIND, Action, Legal

CALLED = -1
"""The reading "the opponent's short all-in counted as a check or call": the bot calls."""

Reading = tuple[int, float]
"""A node of the tree (or :data:`CALLED`) and the probability of reading the line so."""


def pseudo_harmonic(a: float, b: float, x: float) -> float:
    """The probability of reading a bet of ``x`` as the smaller action ``a`` rather than
    ``b`` (sizes as fractions of the pot, ``a <= x <= b``)."""
    if b <= a:
        return 1.0
    x = min(max(x, a), b)
    return (b - x) * (1 + a) / ((b - a) * (1 + x))


def readings(tree: BettingTree, history: Sequence[tuple[int, Action]], where: str
             ) -> list[Reading]:
    """The nodes the betting line ``history`` (a view's public log) may stand for, with
    their probabilities: one node on the tree, two after a short all-in bet or raise."""
    out: list[Reading] = [(0, 1.0)]
    for actor, action in history:
        if actor < 0 or action.kind not in (FOLD_KIND, CALL_KIND, RAISE_KIND):
            continue
        nxt: list[Reading] = []
        for n, w in out:
            if n == CALLED:             # nobody acts on the tree after an all-in
                nxt.append((n, w))
                continue
            move = (FOLD, CALL, RAISE)[(FOLD_KIND, CALL_KIND, RAISE_KIND).index(action.kind)]
            child = int(tree.child[n, move]) if tree.kind[n] == DECISION else -1
            if child < 0:
                raise StrategyFileError(f"{where}: the betting line leaves the "
                                        f"abstraction's tree at {action}")
            if move != RAISE or action.amount >= tree.raise_to[n]:
                nxt.append((child, w))
                continue
            called = _as_call(tree, n, action.amount)
            nxt += [(CALLED, w * called), (child, w * (1.0 - called))]
        out = [(n, w) for n, w in nxt if w > 0.0]
    return out


def _as_call(tree: BettingTree, n: int, amount: int) -> float:
    """:func:`pseudo_harmonic` of a raise to ``amount`` (this round's total) at node
    ``n``, whose full raise goes to ``tree.raise_to[n]``."""
    bet = tree.bets[int(tree.rnd[n])]
    level = int(tree.raise_to[n]) - bet              # the round's bet before the raise
    pot = 2.0 * float(max(tree.commit[n, 0], tree.commit[n, 1]))
    return pseudo_harmonic(0.0, bet / pot, max(0, amount - level) / pot)


def answer(tree: BettingTree, found: list[Reading], position: int, legal: Legal | None,
           to_call: int, rows_at: Callable[[int], np.ndarray], holdings: int, where: str
           ) -> tuple[tuple[Action, Action, Action], np.ndarray]:
    """The bot's moves (fold, check/call, its raise) at a decision and each holding's
    probabilities of them (``rows_at(node)``: the strategy's rows at a node, one per
    holding, ``holdings`` of them), the readings mixed and the moves the engine does not
    allow moved to the call. A short all-in splits a line in two readings, only one of
    them on the tree, so the raise has one size."""
    if legal is None:
        raise StrategyFileError(f"{where}: asked to act where the bot has no move")
    can_raise = RAISE_KIND in legal.kinds
    out = np.zeros((holdings, 3))
    raise_to = 0
    for n, w in found:
        if n == CALLED:
            continue
        if tree.kind[n] != DECISION or tree.player[n] != position:
            raise StrategyFileError(f"{where}: this spot is not in the abstraction's tree "
                                    "(another game's betting)")
        rows = np.array(rows_at(n), np.float64, copy=True)
        if not can_raise:
            rows[:, CALL] += rows[:, RAISE]
            rows[:, RAISE] = 0.0
        if to_call == 0:
            rows[:, CALL] += rows[:, FOLD]
            rows[:, FOLD] = 0.0
        out += w * rows
        raise_to = int(tree.raise_to[n])
    out[:, CALL] += sum(w for n, w in found if n == CALLED)
    if can_raise:
        raise_to = min(max(raise_to, legal.min_to), legal.max_to)
    return (Action(FOLD_KIND), Action(CALL_KIND), Action(RAISE_KIND, raise_to)), out
