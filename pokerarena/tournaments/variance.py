"""Variance reduction, always reported next to the raw figure and never instead of it.

- **All-in equity settlement** (the ACPC's since 2014): when every player still in is
  all in before the last card, the rest of the deal is luck only; each player is
  credited with its equity in each pot it can win instead of what the remaining cards
  gave it. The expectation is unchanged, the variance of the all-in runouts goes.
- **Baseline control variate**: a fixed reference bot plays the same cards in the same
  seats against itself; its result in a seat is that seat's card luck (zero on average
  by symmetry), so subtracting it keeps the mean and removes the luck that both share.

Both return per-seat deltas in chips, comparable to the hand's own deltas.
"""

from __future__ import annotations

from typing import Any

from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEAL_BOARD_KIND,
    FOLD_KIND,
    RAISE_KIND,
)
from pokerarena.evaluator.equity import BOARD_CARDS, equity, exact_cost

# Variants whose all-in runouts the equity calculator evaluates exactly as the engine
# would (community cards, high or high-low eight, no wild cards).
EQUITY_GAMES = {"holdem": "holdem", "holdem_short": "short_deck", "omaha": "omaha",
                "omaha_hilo": "omaha_hilo"}
_BETTING_KINDS = frozenset((FOLD_KIND, CALL_KIND, RAISE_KIND, BRING_IN_KIND))


def allin_board(hand: Any) -> list[int] | None:
    """The board when the last decision was taken, if more board cards were dealt
    after it to a showdown of two or more players (an all-in runout); else None."""
    board: list[int] = []
    at_last: list[int] | None = None
    for _, act in hand.log:
        if act.kind in _BETTING_KINDS:
            at_last = list(board)
        elif act.kind == DEAL_BOARD_KIND:
            board.extend(act.cards)
    res = hand.result()
    if at_last is None or len(at_last) == len(board) or not res.went_to_showdown:
        return None
    if len(res.showdown_raw) < 2:
        return None
    return at_last


def equity_deltas(hand: Any, samples: int | None = None, seed: int = 0
                  ) -> list[float] | None:
    """Each seat's chip delta with all-in runouts settled by equity, or None when the
    hand had no all-in runout or its game is not one :data:`EQUITY_GAMES` evaluates
    (the raw deltas then stand). Exact enumeration by default; ``samples``: a seeded
    Monte Carlo estimate of the equity instead (still unbiased, much cheaper before
    the flop) where enumerating would take more boards than that."""
    game = EQUITY_GAMES.get(hand.game.variant_id)
    if game is None or getattr(hand.game.options, "wild", None):
        return None
    board = allin_board(hand)
    if board is None:
        return None
    res = hand.result()
    out = [float(d) for d in res.deltas]
    for pot in res.pots:
        paid = {int(s): float(v) for s, v in pot.winners.items()}
        value = sum(paid.values())
        for s, v in paid.items():
            out[s] -= v
        live = [s for s in pot.eligible if s in res.showdown_raw]
        if len(live) < 2:
            for s, v in paid.items():
                out[s] += v
            continue
        holes = [hand.cards_of(s) for s in live]
        # enumerate whenever that takes no more boards than the samples would (an all-in
        # on the flop or the turn): exact and cheaper
        exact = samples is None or exact_cost(len(live), len(board), game) <= \
            samples * exact_cost(len(live), BOARD_CARDS, game)
        eq = (equity(holes, board, game, exact=True) if exact
              else equity(holes, board, game, samples=samples, seed=seed))
        for s, p in zip(live, eq.players, strict=True):
            out[s] += value * p.equity
    return out
