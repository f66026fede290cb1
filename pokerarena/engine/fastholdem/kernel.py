"""The rules kernel of the fast hold'em table: which games it plays (:func:`unsupported`),
what it needs of one (:func:`params`), the cards the reference would deal
(:func:`decks`), and a unit's hands played (:func:`play`).

Every figure is the reference engine's (``Game.new_hand`` + ``Hand.apply``) exactly: the
decks come from the same Generator, consumed as ``new_hand`` consumes it, and
:mod:`.rules` mirrors the engine's rules one by one. A policy's answer that is not legal
is clamped as :func:`pokerarena.bots.base.legalize` clamps it (the kernel never plays an
illegal action). The policies come in as numba functions (``decide``, ``end_hand``:
:mod:`.layout`), so the kernel imports nothing above the engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, typeof, types

from pokerarena.engine.fastholdem.arrays import HandArrays
from pokerarena.engine.fastholdem.params import PLEN, params, unsupported
from pokerarena.engine.fastholdem.rules import play_hands
from pokerarena.engine.game import Game
from pokerarena.evaluator.fast import tables_for

__all__ = ["PLEN", "decks", "high_tables", "params", "play", "unsupported"]

_TABLES: list[Any] = []


def high_tables() -> Any:
    """The evaluator's tables of plain high hands (:class:`~pokerarena.evaluator.kernels.
    Tables`), the ranking every supported game's showdown uses (as the engine's scorer
    picks it), loaded once."""
    if not _TABLES:
        scorer = Game("holdem").program.scorer
        _TABLES.append(tables_for(scorer._ranking("high", None)))
    return _TABLES[0]


def decks(game: Any, deal_rng: np.random.Generator, hands: int, n: int) -> np.ndarray:
    """``uint8[hands, 52]``: row ``h`` is the stock hand ``h`` of ``hands`` successive
    ``game.new_hand(deal_rng, n, ...)`` calls would shuffle (``rng.permutation`` of the
    deck, dealt from its end), ``deal_rng`` left as those calls leave it. One
    ``permuted`` call shuffles every row as the successive permutations would (the same
    draws in the same order), so it costs well under a microsecond a hand."""
    deck = np.asarray(game.program.deck_cards, dtype=np.uint8)
    out = np.tile(deck, (hands, 1))
    if hands:
        deal_rng.permuted(out, axis=1, out=out)
    return out


def play(P: np.ndarray, decks: np.ndarray, match_no: int, BS: Any, decide: Any,
         end_hand: Any, out: HandArrays, tables: Any = None) -> int:
    """Play the hands of ``decks`` (hand ``h``: button ``h % n``, the stacks reset to
    the ``params``' stacks) into ``out``; returns the log's length, or -1 when ``out``'s log
    arrays are too short (make them longer and play again). ``decide(BS, V)`` and
    ``end_hand(BS, seat, actor, kind, start, stop)`` are numba functions
    (:mod:`.layout`): ``decide`` returns two ``int64`` (kind, amount), ``end_hand``
    nothing; ``tables``: the evaluator's (default :func:`high_tables`). The first call
    for a policy state's type compiles the kernel (or loads it from numba's cache)."""
    t = tables if tables is not None else high_tables()
    o = out
    arrays = (o.button, o.nboard, o.board, o.hole, o.pot, o.showdown, o.decisions, o.deltas,
              o.stacks, o.won, o.folded, o.in_showdown, o.high, o.npots, o.pot_amount,
              o.pot_eligible, o.pot_won, o.log_start, o.actor, o.kind, o.amount, o.ncards,
              o.cards, o.target, o.street, t.card_keys, t.flush, np.int64(t.shift7),
              t.offsets7, t.values7)
    run = _compiled(P, decks, BS, out, arrays)
    return int(run(P, decks, np.int64(match_no), BS, decide, end_hand, *arrays))


_COMPILED: dict[Any, Any] = {}


def _compiled(P: np.ndarray, decks: np.ndarray, BS: Any, out: HandArrays,
              arrays: tuple) -> Any:
    """:func:`~.rules.play_hands` compiled for these argument types, the policies typed
    as first-class functions of their signatures (``decide(BS, V) -> (int64, int64)``,
    ``end_hand(...) -> None``). Passed as plain numba dispatchers they would make every
    process compile the kernel again (a dispatcher argument is a dynamic global, which
    numba's cache refuses); as function types the compiled kernel comes from the cache."""
    bs = typeof(BS)
    decide_t = types.FunctionType(types.UniTuple(types.int64, 2)(bs, types.int64[::1]))
    end_t = types.FunctionType(types.none(bs, types.int64, typeof(out.actor),
                                          typeof(out.kind), types.int64, types.int64))
    sig = types.int64(typeof(P), typeof(decks), types.int64, bs, decide_t, end_t,
                      *[typeof(a) for a in arrays])
    run = _COMPILED.get(sig)
    if run is None:
        run = _COMPILED[sig] = njit(sig, cache=True)(play_hands.py_func)
    return run

