"""A fitted AIVAT value function for heads-up hold'em (issue 26, part 3: the value).

Why: AIVAT's residual is, by telescoping, the sum over corrected steps of ``E[v(after)]
− v(before)``. With :class:`~.aivat_value.EquityValue` the chance steps cancel (its
equity is a martingale over the cards) and what is left, measured with
``tools/aivat_residual.py`` (tag v lag, 400 hands, seed 2,000,001), is the decisions:
turn and river bets make up 80–95% of the corrected pairs' variance. The equity value
prices the chips still to come as a fixed ``F`` per round; how much really goes in
depends on how strong each hand looks to the bots that hold them. This value learns
that: ``v_0 = eq_0 · pot − committed_0 + u · (g(x_0) − g(x_1)) / 2`` and ``v_1 = −v_0``,
where ``x_i`` are features of the state from seat ``i``'s side, ``g`` is linear in
products of them, ``u`` the unit (:func:`scale`: the pot in limit games, the pot and the
effective stack in no limit), and the difference makes the value zero-sum by
construction.

Features (:func:`features`): the check-down equity, each hand's current strength
against a random holding on the board as it is (pre-flop: a 169-class table of the
equity against a random hand), whose turn it is, the button, the chips to call and the
effective stack, both over the pot. One set of coefficients per cell: the street, and
whether the seat to act faces a bet (or a deal is due). Where no more betting can happen
(a seat all in) the value is pot equity; with a seat folded or before the hole cards it
is the equity value without ``F``; at the end of a hand it is the hand's result. The
value is clamped to what each seat can win or lose. (Tables over both seats' strength
buckets, :data:`NAMES` beyond :data:`LINEAR`, were tried and measured worse: noise.)

Fitted by ``tools/fit_aivat_value.py`` (weighted ridge regression of the excess of the
hand's result over ``eq · pot − committed``, in units ``u``) on the hands of 13 pairs of
built-in bots (tag, lag, rock, equity, call, random; tag against lag among them, so the
bench's pair is in the mix, on other seeds) played on seeds 1,000,000 and up, apart from
every seed the bench and the tests use. It is fixed before judging: the coefficients
are shipped in ``aivat_fit.json`` beside this module, and the value reads nothing of the
hands it judges. AIVAT stays unbiased with any value; a fit only narrows it.
"""

from __future__ import annotations

import itertools
import json
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from pokerarena.evaluator import evaluate_batch
from pokerarena.tournaments.aivat_value import EquityValue

DATA = Path(__file__).with_name("aivat_fit.json")
"""The fitted coefficients, per ``variant:betting`` (``tools/fit_aivat_value.py``)."""
EDGES = (0.35, 0.5, 0.65, 0.8, 0.9)
"""Strength buckets (:func:`bucket`): bets follow thresholds of strength, which a few
products of strengths cannot draw; a table over both seats' buckets can."""
LINEAR = ("e", "e_hs", "e_ho", "e_hs_ho", "hs", "hs2", "e_c", "e_r", "hs_r", "hs_c",
          "t", "t_e", "t_hs", "t_c", "t_e_c", "t_hs_c", "b", "b_e", "b_hs", "c", "e2",
          "e_ho2", "hs_ho_r", "ho_c")
EXTRA = ("e_hs_c", "e_ho_c", "t_e_hs_c", "t_e_ho_c", "t_e_ho", "t_e_hs", "e_hs2",
         "e_ho_r", "t_hs_ho", "e_hs_ho_c", "e_c2", "t_e_c2", "hs_c2")
"""More products, for the calls and folds that follow a bet (a trial: see the fit)."""
NB = len(EDGES) + 1
NAMES = LINEAR + EXTRA + tuple(f"{w}{i}_{j}" for w in ("k", "e_k") for i in range(NB)
                       for j in range(NB))
"""The features of :func:`features`, in order (the coefficient vectors' order): the
products (:data:`LINEAR`, :data:`EXTRA`), then one-hot tables over (own bucket,
opponent's bucket), alone and × e. A fit uses a prefix: its length says which."""
CELLS = 9  # 4 streets x (faces a bet or not) + 1 for "a deal is due"
STACK_CAP = 4.0  # effective stack over the pot, capped (deeper is all alike)
CACHE = 50_000


def cell_of(street: int, facing: bool, dealing: bool) -> int:
    """The coefficient cell: ``street`` 0..3 (board 0, 3, 4, 5), ``facing`` a bet."""
    return 8 if dealing else street * 2 + int(facing)


def scale(kind: str, pot: Any, eff: Any) -> Any:
    """The unit of the excess: the pot (``pot``: limit betting, where what is still to
    come grows with it), or the pot and the effective stack (``pot_stack``: no limit,
    where a small pot can still grow to the stacks)."""
    return pot + eff if kind == "pot_stack" else pot


def bucket(x: float) -> int:
    """The strength bucket of ``x`` (:data:`EDGES`)."""
    return sum(1 for edge in EDGES if x >= edge)


def features(e: float, hs: float, ho: float, t: float, b: float, c: float, r: float
             ) -> list[float]:
    """The features (:data:`NAMES`) of one seat: ``e`` its check-down equity, ``hs`` and
    ``ho`` its and its opponent's strength, ``t`` 1 when it is to act, ``b`` 1 on the
    button, ``c`` its chips to call over the pot, ``r`` the effective stack over the pot
    (capped, over :data:`STACK_CAP`)."""
    out = [e, e * hs, e * ho, e * hs * ho, hs, hs * hs, e * c, e * r, hs * r, hs * c,
           t, t * e, t * hs, t * c, t * e * c, t * hs * c, b, b * e, b * hs, c, e * e,
           e * ho * ho, hs * ho * r, ho * c,
           e * hs * c, e * ho * c, t * e * hs * c, t * e * ho * c, t * e * ho, t * e * hs,
           e * hs * hs, e * ho * r, t * hs * ho, e * hs * ho * c, e * c * c, t * e * c * c,
           hs * c * c] + [0.0] * (2 * NB * NB)
    at = len(LINEAR) + len(EXTRA) + bucket(hs) * NB + bucket(ho)
    out[at] = 1.0
    out[at + NB * NB] = e
    return out


@lru_cache(maxsize=8)
def _pairs(n: int) -> np.ndarray:
    return np.array(list(itertools.combinations(range(n), 2)), dtype=np.intp)


def class_index(hole: list[int]) -> int:
    """The pre-flop class of two hold'em cards (0..168): ranks ``hi >= lo`` (card code
    ``rank * 4 + suit``); pairs and offsuit hands at ``hi * 13 + lo``, suited at
    ``lo * 13 + hi``."""
    a, b = sorted((int(hole[0]), int(hole[1])), reverse=True)
    hi, lo = a // 4, b // 4
    if hi < lo:
        hi, lo = lo, hi
    suited = a % 4 == b % 4 and hi != lo
    return lo * 13 + hi if suited else hi * 13 + lo


class Strength:
    """A hand's strength as its holder sees it: the share of random opposing holdings
    it beats on the board as it is (ties half), every holding enumerated from the cards
    the holder does not see; pre-flop, the class's equity against a random hand."""

    def __init__(self, deck: np.ndarray, rank: Any, preflop: list[float]) -> None:
        self.deck, self.rank, self.preflop = deck, rank, preflop
        self._cache: OrderedDict[tuple[Any, ...], float] = OrderedDict()

    def __call__(self, hole: list[int], board: list[int]) -> float:
        if not board:
            return self.preflop[class_index(hole)]
        key = (tuple(sorted(hole)), tuple(sorted(board)))
        got = self._cache.get(key)
        if got is None:
            got = self._compute(hole, board)
            self._cache[key] = got
            if len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return got

    def _compute(self, hole: list[int], board: list[int]) -> float:
        used = set(hole).union(board)
        rest = np.array([c for c in self.deck.tolist() if c not in used], dtype=np.uint8)
        opp = rest[_pairs(rest.size)]
        b = np.broadcast_to(np.asarray(board, dtype=np.uint8), (opp.shape[0], len(board)))
        theirs = evaluate_batch(np.hstack([opp, b]), self.rank)
        mine = evaluate_batch(np.asarray([list(hole) + list(board)], dtype=np.uint8),
                              self.rank)[0]
        return float((np.sum(theirs < mine) + 0.5 * np.sum(theirs == mine)) / theirs.size)


def load(key: str) -> dict[str, Any] | None:
    """The fitted entry for ``variant:betting`` (None: none shipped)."""
    if not DATA.exists():
        return None
    got: dict[str, Any] | None = json.loads(DATA.read_text()).get(key)
    return got


class State:
    """What the value reads of a non-terminal heads-up hand, both seats live."""

    def __init__(self, h: Any) -> None:
        self.committed = [float(h.committed[h.pos_of[s]]) for s in (0, 1)]
        self.stack = [float(h.stack[h.pos_of[s]]) for s in (0, 1)]
        self.pot = sum(self.committed) + float(h.dead)
        self.street = {0: 0, 3: 1, 4: 2}.get(len(h.board), 3)
        act = h.to_act
        self.dealing = act is None or act < 0
        self.actor = -1 if self.dealing else int(act)
        self.to_call = [float(h.to_call(s)) for s in (0, 1)]
        self.button = int(h.button)

    def phi(self, seat: int, eq: float, hs: float, ho: float) -> list[float]:
        """:func:`features` of ``seat``."""
        p = self.pot if self.pot > 0 else 1.0
        eff = min(self.stack)
        return features(eq, hs, ho, 1.0 if self.actor == seat else 0.0,
                        1.0 if self.button == seat else 0.0, self.to_call[seat] / p,
                        min(eff / p, STACK_CAP) / STACK_CAP)

    @property
    def cell(self) -> int:
        facing = not self.dealing and self.to_call[self.actor] > 0
        return cell_of(self.street, facing, self.dealing)


class FittedValue(EquityValue):
    """The value of the module's docstring for one heads-up hold'em game (``game``: the
    played :class:`~pokerarena.engine.game.Game`); ``fit``: the coefficients (default:
    the shipped entry of the game's ``variant:betting``)."""

    def __init__(self, game: Any, fit: dict[str, Any] | None = None) -> None:
        super().__init__(game, future=0.0)
        key = f"{game.variant_id}:{game.system_name}"
        fit = fit if fit is not None else load(key)
        if fit is None or self.shape.rank is None:
            raise ValueError(f"aivat: no fitted value for {key}")
        coef = np.asarray(fit["coef"], dtype=float)
        # the first coef.size // CELLS of NAMES: LINEAR, LINEAR + EXTRA, or all
        self.coef = coef.reshape(CELLS, coef.size // CELLS)
        self.strength = Strength(self.shape.deck, self.shape.rank, list(fit["preflop"]))
        self.scale = str(fit.get("scale", "pot"))
        self.name = f"fitted({key})"

    def __call__(self, state: Any, /) -> tuple[float, ...]:
        h = state.hand
        if h.is_over:
            return tuple(float(d) for d in h.result().deltas)
        if h.n != 2 or any(h.folded) or any(len(h.cards_of(i)) < 2 for i in (0, 1)):
            return super().__call__(state)  # eq · pot − committed (before the deal too)
        s = State(h)
        eq = self.equity(h, [0, 1])
        v0 = eq[0] * s.pot - s.committed[0]
        if min(s.stack) > 0:
            v0 += scale(self.scale, s.pot, min(s.stack)) * self.excess(s, h, eq)
            v0 = min(max(v0, -s.committed[0] - s.stack[0]), s.committed[1] + s.stack[1])
        return (v0, -v0)

    def excess(self, s: State, h: Any, eq: list[float]) -> float:
        """``(g(x_0) − g(x_1)) / 2``: seat 0's expected excess over pot equity, in pots."""
        board = [int(c) for c in h.board]
        hs = [self.strength([int(c) for c in h.cards_of(i)], board) for i in (0, 1)]
        w = self.coef[s.cell]
        d = np.asarray(s.phi(0, eq[0], hs[0], hs[1])) - np.asarray(
            s.phi(1, eq[1], hs[1], hs[0]))
        return float(w @ d[:w.size]) / 2.0


__all__ = ["CELLS", "DATA", "NAMES", "FittedValue", "State", "Strength", "cell_of",
           "class_index", "features", "load"]
