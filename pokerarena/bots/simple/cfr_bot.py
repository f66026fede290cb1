"""The built-in ``cfr`` bot: heads-up fixed-limit hold'em played from an abstract
strategy file (docs/exact.md, "Heads-up limit hold'em: abstraction, MCCFR and the `cfr`
bot"), and what it needs to read one: the card abstraction's kernels, the betting tree,
and the file format's version 2.

Why the abstraction's kernels live here and not in the solvers' layer: the bot must
bucket the cards it sees exactly as the trainer did, and bots may not import solvers.
:mod:`pokerarena.solvers.holdem_abstraction` documents the abstraction, calibrates it
(the quantile thresholds) and re-exports these functions; the trainer
(:mod:`pokerarena.solvers.holdem_mccfr`) calls the same kernels.

**The abstraction** (``ehs-quantile``, version 1). A seat's bucket on a street is a
function of its two hole cards and the board only (not of the betting, not of earlier
buckets: imperfect recall):

- pre-flop: the hand's class (one of 169) looked up in the file's ``preflop`` table
  (classes ranked by their equity against one uniformly random hand over a random
  board, cut into buckets of equal numbers of combinations);
- flop and turn: E[HS], the expected hand strength against a uniform random opponent
  hand after the rest of the board is dealt (a win counts 1, a tie 1/2), estimated from
  ``samples`` Monte-Carlo deals of (opponent hand, remaining board) drawn by a
  xorshift generator seeded from the sorted hole cards and the sorted board, so the
  estimate is a deterministic function of the cards;
- river: HS exactly, against all 990 opponent hands;
- then ``bucket = #(thresholds of the street <= E[HS])``, thresholds from the file.

**Every holding at once** (:meth:`CfrBot.batch_policy`, what LBR reads at each of the
bot's decisions): the buckets of a board's holdings are computed in one compiled call
(:func:`fill_buckets`, only those asked for, kept per board) by the same deals as
:func:`ehs`, the hands ranked by :func:`rank_masks` (the value of :func:`rank7`, from
four suit masks and table look-ups: checked equal on all 133,784,560 seven-card hands),
and the river's opponent hands ranked once for every holding.

**The betting tree** and its reading of a hand's betting line, off-tree spots included:
:mod:`~pokerarena.bots.simple.cfr_tree` and :mod:`~pokerarena.bots.simple.cfr_translation`.

**File version 2** (an abstract strategy; version 1, the exact tables of Kuhn and
Leduc, is unchanged and still read by :mod:`~pokerarena.bots.simple.strategy_table`)::

    {"format": "pokerarena-strategy", "version": 2, "kind": "abstract",
     "variant": "holdem", "betting": "fixed_limit", "options": {...}, "game_key": "...",
     "algorithm": "mccfr", "iterations": N, "seed": 0,
     "schedule": {"kind": "rounds", "slices": 8, "slice_iterations": 500},
     "abstraction": {"name": "ehs-quantile", "version": 1, "buckets": [pf, fl, tu, ri],
                     "samples": 200, "preflop": [169 bucket numbers],
                     "thresholds": [[], [flop], [turn], [river]]},
     "tree": {"blinds": [1, 2], "bets": [2, 2, 4, 4], "max_bets": 6, "rows": R},
     "encoding": "u8x3-zlib-base64", "strategy": "<base64>"}

``schedule`` says how the iterations ran (``{"kind": "sequential"}``, or rounds of
slices on Ray actors: :mod:`pokerarena.solvers.holdem_mccfr`); the file holds no
wall-clock time, so a run is reproduced byte for byte (files written before held a
``seconds`` field; a reader ignores both). ``strategy`` is, after base64 and zlib,
``R`` rows of three bytes (fold, check/call, bet/raise) in units of 1/255: row
``offset[node] + bucket`` of each decision node of the tree in pre-order; a row's legal
moves sum to 255, its illegal ones are 0.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from pokerarena.bots.base import BaseBot, MatchInfo, Policy, SeatView, draw_from
from pokerarena.bots.simple.cfr_translation import Reading, answer, readings
from pokerarena.bots.simple.cfr_tree import (
    BettingTree,
    build_tree,
    legal_mask,
    tree_params,
)
from pokerarena.bots.simple.strategy_table import FORMAT, MAX_BYTES, StrategyFileError
from pokerarena.engine.actions import RAISE_KIND, Action

VERSION = 2
KIND = "abstract"
ABSTRACTION = "ehs-quantile"
ABSTRACTION_VERSION = 1
ENCODING = "u8x3-zlib-base64"
SHIPPED = Path(__file__).with_name("cfr_holdem_fl.json")
_U64 = np.uint64


# --------------------------------------------------------------------------- cards
@njit(cache=True, inline="always")
def _top(mask, k):  # pragma: no cover - jit
    """The ``k`` highest ranks set in ``mask``, as 4-bit digits (highest first)."""
    v = 0
    r = 12
    while k > 0 and r >= 0:
        if (mask >> r) & 1:
            v = (v << 4) | r
            k -= 1
        r -= 1
    return v


@njit(cache=True, inline="always")
def _straight(mask):  # pragma: no cover - jit
    """The top rank of the best straight in a rank mask (the wheel: 3), or -1."""
    ext = (mask << 1) | ((mask >> 12) & 1)
    for top in range(13, 3, -1):
        if (ext >> (top - 4)) & 0x1F == 0x1F:
            return top - 1
    return -1


@njit(cache=True)
def rank7(cards, n):  # pragma: no cover - jit
    """The strength of the best five of ``cards[:n]`` (5 to 7 codes ``rank*4+suit``):
    category << 20 | ranks, higher is better (only comparisons matter)."""
    counts = np.zeros(13, np.int64)
    suits = np.zeros(4, np.int64)
    smask = np.zeros(4, np.int64)
    mask = 0
    for i in range(n):
        r = cards[i] >> 2
        s = cards[i] & 3
        counts[r] += 1
        suits[s] += 1
        smask[s] |= 1 << r
        mask |= 1 << r
    for s in range(4):
        if suits[s] >= 5:
            st = _straight(smask[s])
            if st >= 0:
                return (8 << 20) | st
            return (5 << 20) | _top(smask[s], 5)
    quad = trip = pair1 = pair2 = -1
    for r in range(12, -1, -1):
        c = counts[r]
        if c == 4 and quad < 0:
            quad = r
        elif c == 3 and trip < 0:
            trip = r
        elif c >= 2:
            if pair1 < 0:
                pair1 = r
            elif pair2 < 0:
                pair2 = r
    if quad >= 0:
        return (7 << 20) | (quad << 4) | _top(mask & ~(1 << quad), 1)
    if trip >= 0:
        second = -1
        for r in range(12, -1, -1):
            if r != trip and counts[r] >= 2:
                second = r
                break
        if second >= 0:
            return (6 << 20) | (trip << 4) | second
    st = _straight(mask)
    if st >= 0:
        return (4 << 20) | st
    if trip >= 0:
        return (3 << 20) | (trip << 8) | _top(mask & ~(1 << trip), 2)
    if pair2 >= 0:
        rest = mask & ~(1 << pair1) & ~(1 << pair2)
        return (2 << 20) | (pair1 << 8) | (pair2 << 4) | _top(rest, 1)
    if pair1 >= 0:
        return (1 << 20) | (pair1 << 12) | _top(mask & ~(1 << pair1), 3)
    return _top(mask, 5)


@njit(cache=True, inline="always")
def _next(state):  # pragma: no cover - jit
    """One xorshift64* step: (new state, 64 random bits)."""
    state ^= state >> _U64(12)
    state ^= state << _U64(25)
    state ^= state >> _U64(27)
    return state, state * _U64(0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def _below(state, n):  # pragma: no cover - jit
    """(new state, a uniform integer in [0, n))."""
    state, x = _next(state)
    return state, np.int64((x >> _U64(33)) % _U64(n))


@njit(cache=True, inline="always")
def _mix(h, v):  # pragma: no cover - jit
    """Fold ``v`` into the hash ``h`` (a splitmix64 finaliser; never 0)."""
    z = h ^ (_U64(v) + _U64(0x9E3779B97F4A7C15))
    z = (z ^ (z >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U64(27))) * _U64(0x94D049BB133111EB)
    z = z ^ (z >> _U64(31))
    return z if z != _U64(0) else _U64(1)


@njit(cache=True, inline="always")
def _unused(hole, nhole, board, nboard):  # pragma: no cover - jit
    """``(used, rest, m)``: the cards of ``hole[:nhole]`` and ``board[:nboard]`` marked
    in ``used``, every other card in ``rest[:m]`` in ascending order."""
    used = np.zeros(52, np.bool_)
    for i in range(nhole):
        used[hole[i]] = True
    for i in range(nboard):
        used[board[i]] = True
    rest = np.empty(52, np.int64)
    m = 0
    for c in range(52):
        if not used[c]:
            rest[m] = c
            m += 1
    return used, rest, m


@njit(cache=True)
def ehs(hole, board, nboard, samples):  # pragma: no cover - jit
    """E[HS] of ``hole`` (2 codes) on ``board[:nboard]`` (3 to 5 codes): exact against
    all opponent hands on the river, else the mean of ``samples`` deals seeded by the
    sorted cards (the module's docstring)."""
    used, rest, m = _unused(hole, len(hole), board, nboard)
    mine = np.empty(7, np.int64)
    opp = np.empty(7, np.int64)
    for i in range(nboard):
        mine[2 + i] = board[i]
        opp[2 + i] = board[i]
    mine[0] = hole[0]
    mine[1] = hole[1]
    total = 0.0
    if nboard == 5:
        me = rank7(mine, 7)
        for a in range(m):
            for b in range(a + 1, m):
                opp[0] = rest[a]
                opp[1] = rest[b]
                v = rank7(opp, 7)
                total += 1.0 if me > v else (0.5 if me == v else 0.0)
        return total / (m * (m - 1) // 2)
    state = _U64(0x243F6A8885A308D3)
    lo, hi = min(hole[0], hole[1]), max(hole[0], hole[1])
    state = _mix(_mix(state, lo), hi)
    state = _mix(state, 99)
    for c in range(52):     # the board's cards in code order: its order does not matter
        if used[c] and c != lo and c != hi:
            state = _mix(state, c)
    need = 2 + 5 - nboard
    for _ in range(samples):
        for j in range(need):    # a partial Fisher-Yates shuffle of the rest
            state, k = _below(state, m - j)
            t = rest[j]
            rest[j] = rest[j + k]
            rest[j + k] = t
        opp[0] = rest[0]
        opp[1] = rest[1]
        for j in range(5 - nboard):
            mine[2 + nboard + j] = rest[2 + j]
            opp[2 + nboard + j] = rest[2 + j]
        me = rank7(mine, 7)
        v = rank7(opp, 7)
        total += 1.0 if me > v else (0.5 if me == v else 0.0)
    return total / samples


@njit(cache=True, inline="always")
def preflop_class(a, b):  # pragma: no cover - jit
    """The class (0..168) of a hold'em starting hand: row = higher rank, column = lower;
    suited hands at (high, low), offsuit at (low, high), pairs on the diagonal."""
    ra, rb = a >> 2, b >> 2
    hi, lo = max(ra, rb), min(ra, rb)
    if (a & 3) == (b & 3):
        return hi * 13 + lo
    return lo * 13 + hi


@njit(cache=True)
def bucket_of(hole, board, nboard, preflop, thresholds, samples):  # pragma: no cover - jit
    """The abstraction's bucket of ``hole`` with ``board[:nboard]`` (0, 3, 4 or 5 cards):
    ``preflop[class]`` before the flop, else how many of the street's ``thresholds``
    (a row padded with +inf) are at or below E[HS]."""
    if nboard == 0:
        return preflop[preflop_class(hole[0], hole[1])]
    x = ehs(hole, board, nboard, samples)
    row = thresholds[nboard - 3]
    k = 0
    while k < row.shape[0] and row[k] <= x:
        k += 1
    return k


# --------------------------------------------------------------------------- every holding
# What LBR reads (pokerarena.solvers.lbr): the bucket of every holding on one board at
# once, the same numbers as bucket_of holding by holding (tests/bots/test_cfr_batch.py), about
# ten times faster: rank7 recounts its cards into arrays at each call; the rank below
# takes four suit masks, so a deal only ORs in the cards it dealt.
@njit(cache=True)
def _mask_tables():  # pragma: no cover - jit
    """Per 13-bit rank mask: its bits set, its best straight (:func:`_straight`) and
    its top 1 to 5 ranks (:func:`_top`), for :func:`rank_masks` to look up."""
    bits = np.zeros(8192, np.int64)
    straight = np.zeros(8192, np.int64)
    top = np.zeros((6, 8192), np.int64)
    for m in range(8192):
        bits[m] = bits[m >> 1] + (m & 1)
        straight[m] = _straight(m)
        for k in range(1, 6):
            top[k, m] = _top(m, k)
    return bits, straight, top


_NBITS, _STRAIGHT, _TOPS = _mask_tables()


@njit(cache=True, inline="always")
def rank_masks(s0, s1, s2, s3):  # pragma: no cover - jit
    """:func:`rank7` of the cards whose ranks are set in the suit masks ``s0..s3`` (5 to
    7 cards): the same value, from the masks (a rank held twice, three or four times is
    a bit in two, three or four masks) and table look-ups."""
    fl = -1
    if _NBITS[s0] >= 5:
        fl = s0
    elif _NBITS[s1] >= 5:
        fl = s1
    elif _NBITS[s2] >= 5:
        fl = s2
    elif _NBITS[s3] >= 5:
        fl = s3
    if fl >= 0:
        st = _STRAIGHT[fl]
        if st >= 0:
            return (8 << 20) | st
        return (5 << 20) | _TOPS[5, fl]
    mask = s0 | s1 | s2 | s3
    quads = s0 & s1 & s2 & s3
    if quads:
        quad = _TOPS[1, quads]
        return (7 << 20) | (quad << 4) | _TOPS[1, mask & ~(1 << quad)]
    twos = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    threes = (s0 & s1 & s2) | (s0 & s1 & s3) | (s0 & s2 & s3) | (s1 & s2 & s3)
    trip = -1
    if threes:
        trip = _TOPS[1, threes]
        second = twos & ~(1 << trip)
        if second:
            return (6 << 20) | (trip << 4) | _TOPS[1, second]
    st = _STRAIGHT[mask]
    if st >= 0:
        return (4 << 20) | st
    if trip >= 0:
        return (3 << 20) | (trip << 8) | _TOPS[2, mask & ~(1 << trip)]
    if twos:
        pair1 = _TOPS[1, twos]
        others = twos & ~(1 << pair1)
        if others:
            pair2 = _TOPS[1, others]
            rest = mask & ~(1 << pair1) & ~(1 << pair2)
            return (2 << 20) | (pair1 << 8) | (pair2 << 4) | _TOPS[1, rest]
        return (1 << 20) | (pair1 << 12) | _TOPS[3, mask & ~(1 << pair1)]
    return _TOPS[5, mask]


@njit(cache=True, inline="always")
def _add(sm, c):  # pragma: no cover - jit
    """The suit masks ``sm`` (4 ints) with card ``c`` added, as a new tuple."""
    bit = 1 << (c >> 2)
    s = c & 3
    return (sm[0] | bit if s == 0 else sm[0], sm[1] | bit if s == 1 else sm[1],
            sm[2] | bit if s == 2 else sm[2], sm[3] | bit if s == 3 else sm[3])


@njit(cache=True, inline="always")
def _bit(c):  # pragma: no cover - jit
    """Card ``c`` in a hand word: the rank's bit in the suit's 16-bit field."""
    return np.int64(1) << ((c & 3) * 16 + (c >> 2))


@njit(cache=True, inline="always")
def _rank_word(w):  # pragma: no cover - jit
    """:func:`rank_masks` of a hand word (:func:`_bit`s ORed)."""
    return rank_masks(w & 0x1FFF, (w >> 16) & 0x1FFF, (w >> 32) & 0x1FFF,
                      (w >> 48) & 0x1FFF)


@njit(cache=True)
def ehs_fast(hole, board, nboard, samples):  # pragma: no cover - jit
    """:func:`ehs` before the river, the same float: the same seed, the same shuffle of
    the same ``rest``, the same deals in the same order, ranked by :func:`rank_masks`
    (``_below``'s draw in 32 bits: the same number, ``x >> 33`` has 31)."""
    used, rest, m = _unused(hole, 2, board, nboard)
    common = np.int64(0)
    for i in range(nboard):
        common |= _bit(board[i])
    mine0 = common | _bit(hole[0]) | _bit(hole[1])
    state = _U64(0x243F6A8885A308D3)
    lo, hi = min(hole[0], hole[1]), max(hole[0], hole[1])
    state = _mix(_mix(state, lo), hi)
    state = _mix(state, 99)
    for c in range(52):
        if used[c] and c != lo and c != hi:
            state = _mix(state, c)
    need = 2 + 5 - nboard
    total = 0.0
    for _ in range(samples):
        for j in range(need):
            state, x = _next(state)
            k = np.int64(np.uint32(x >> _U64(33)) % np.uint32(m - j))
            t = rest[j]
            rest[j] = rest[j + k]
            rest[j + k] = t
        tail = np.int64(0)
        for j in range(5 - nboard):
            tail |= _bit(rest[2 + j])
        me = _rank_word(mine0 | tail)
        v = _rank_word(common | tail | _bit(rest[0]) | _bit(rest[1]))
        total += 1.0 if me > v else (0.5 if me == v else 0.0)
    return total / samples


UNKNOWN = -2
"""A holding whose bucket :func:`fill_buckets` has not computed yet."""


@njit(cache=True)
def river_ranks(board):  # pragma: no cover - jit
    """``out[a, b]``: :func:`rank7` of the cards ``a``, ``b`` with the five-card
    ``board`` (-1 where ``a == b`` or a card is on the board)."""
    out = np.full((52, 52), -1, np.int64)
    common = (0, 0, 0, 0)
    for i in range(5):
        common = _add(common, board[i])
    for a in range(52):
        for b in range(a + 1, 52):
            if a == board[0] or a == board[1] or a == board[2] or a == board[3] or \
                    a == board[4] or b == board[0] or b == board[1] or b == board[2] or \
                    b == board[3] or b == board[4]:
                continue
            s = _add(_add(common, a), b)
            out[a, b] = out[b, a] = rank_masks(s[0], s[1], s[2], s[3])
    return out


@njit(cache=True)
def fill_buckets(out, ranks, board, nboard, preflop, thresholds, samples,
                 cards):  # pragma: no cover - jit
    """Set ``out[a, b]`` and ``out[b, a]`` to :func:`bucket_of` of the holding ``a, b``
    on ``board[:nboard]`` for each row of ``cards`` still :data:`UNKNOWN` there (a
    holding that is not one, or that holds a board card, is left as it is). On the river
    ``ranks`` (:func:`river_ranks`) ranks the 990 opponent hands of every holding."""
    used, rest, m = _unused(board, 0, board, nboard)
    opps = (m - 2) * (m - 3) // 2
    hole = np.empty(2, np.int64)
    for h in range(cards.shape[0]):
        a, b = cards[h, 0], cards[h, 1]
        if a == b or used[a] or used[b] or out[a, b] != UNKNOWN:
            continue
        if nboard == 0:
            k = preflop[preflop_class(a, b)]
        else:
            if nboard == 5:     # ehs's exact HS: halves add up exactly in any order
                me = ranks[a, b]
                total = 0.0
                for p in range(m):
                    c = rest[p]
                    if c in (a, b):
                        continue
                    for q in range(p + 1, m):
                        d = rest[q]
                        if d in (a, b):
                            continue
                        v = ranks[c, d]
                        total += 1.0 if me > v else (0.5 if me == v else 0.0)
                x = total / opps
            else:
                hole[0] = a
                hole[1] = b
                x = ehs_fast(hole, board, nboard, samples)
            row = thresholds[nboard - 3]
            k = 0
            while k < row.shape[0] and row[k] <= x:
                k += 1
        out[a, b] = k
        out[b, a] = k


def board_buckets(board: np.ndarray, nboard: int, preflop: np.ndarray,
                  thresholds: np.ndarray, samples: int) -> np.ndarray:
    """The bucket of every holding on ``board[:nboard]``: ``out[a, b]`` for the cards
    ``a != b`` off the board (-1 elsewhere), what :func:`bucket_of` gives each."""
    out = np.full((52, 52), UNKNOWN, np.int64)
    every = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], np.int64)
    ranks = river_ranks(board) if nboard == 5 else out
    fill_buckets(out, ranks, board, nboard, preflop, thresholds, samples, every)
    out[out == UNKNOWN] = -1
    return out


# --------------------------------------------------------------------------- file
@dataclass(frozen=True)
class AbstractStrategy:
    """A version-2 file read and checked: its header, the abstraction's tables, the
    tree and the rows (``probs``: float, rows x 3, each legal row summing to 1)."""

    header: dict[str, Any]
    preflop: np.ndarray
    thresholds: np.ndarray
    samples: int
    tree: BettingTree
    probs: np.ndarray


def encode_rows(q: np.ndarray) -> str:
    """``q`` (rows x 3 uint8) compressed and as text."""
    return base64.b64encode(zlib.compress(np.ascontiguousarray(q, np.uint8).tobytes(), 9)
                            ).decode("ascii")


def padded_thresholds(thresholds: list[list[float]]) -> np.ndarray:
    """The three post-flop threshold rows as one array padded with +inf."""
    width = max(1, *(len(t) for t in thresholds[1:]))
    out = np.full((3, width), np.inf)
    for i, t in enumerate(thresholds[1:]):
        out[i, :len(t)] = t
    return out


def read_abstract(path: str | Path) -> AbstractStrategy:
    """Read and check a version-2 strategy file: one :class:`StrategyFileError` naming
    the file and its first problem, before any hand."""
    where = str(path)
    try:
        raw = Path(path).read_bytes()[:MAX_BYTES + 1]
        doc = json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise StrategyFileError(f"{where}: cannot read the strategy file "
                                f"({exc.strerror or exc})") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise StrategyFileError(f"{where}: not a strategy file (truncated or not JSON: "
                                f"{exc})") from None
    try:
        return _check(doc)
    except (KeyError, TypeError, ValueError, IndexError, binascii.Error, zlib.error) as exc:
        if isinstance(exc, StrategyFileError):
            raise StrategyFileError(f"{where}: {exc}") from None
        raise StrategyFileError(f"{where}: a malformed abstract strategy "
                                f"({type(exc).__name__}: {exc})") from None


def _check(doc: Any) -> AbstractStrategy:
    """The checks of :func:`read_abstract` (the caller names the file)."""
    from pokerarena.engine import Game
    from pokerarena.engine.keys import game_info_of

    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise StrategyFileError(f"not a strategy file (no \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION or doc.get("kind") != KIND:
        raise StrategyFileError(f"strategy file version {doc.get('version')!r}, kind "
                                f"{doc.get('kind')!r}; the cfr bot reads version "
                                f"{VERSION}, kind {KIND!r}")
    game = Game(doc["variant"], doc["options"])
    key = game_info_of(game)["game_key"]
    if key != doc["game_key"]:
        raise StrategyFileError(f"a strategy for game {doc['game_key']}, but its variant "
                                f"and options make game {key}")
    ab = doc["abstraction"]
    if ab.get("name") != ABSTRACTION or ab.get("version") != ABSTRACTION_VERSION:
        raise StrategyFileError(f"abstraction {ab.get('name')!r} version "
                                f"{ab.get('version')!r}; this pokerarena plays "
                                f"{ABSTRACTION!r} version {ABSTRACTION_VERSION}")
    buckets = tuple(int(b) for b in ab["buckets"])
    preflop = np.asarray(ab["preflop"], np.int64)
    th = ab["thresholds"]
    if len(buckets) != 4 or min(buckets) < 1 or preflop.shape != (169,) \
            or preflop.min() < 0 or preflop.max() >= buckets[0] or len(th) != 4 \
            or any(len(th[i]) != buckets[i] - 1 for i in (1, 2, 3)) \
            or any(list(t) != sorted(t) for t in th) or int(ab["samples"]) < 1:
        raise StrategyFileError("the abstraction's buckets, pre-flop table or thresholds "
                                "do not fit together")
    blinds, bets, max_bets = tree_params(game)
    t = doc["tree"]
    if (tuple(t["blinds"]), tuple(t["bets"]), t["max_bets"]) != (blinds, bets, max_bets):
        raise StrategyFileError(f"a strategy for the betting tree {t}, not this game's "
                                f"(blinds {blinds}, bets {bets}, {max_bets} bets a round)")
    tree = build_tree(blinds, bets, max_bets, buckets)
    if doc.get("encoding") != ENCODING or t["rows"] != tree.rows:
        raise StrategyFileError(f"encoding {doc.get('encoding')!r} with {t['rows']} rows; "
                                f"expected {ENCODING!r} with {tree.rows}")
    q = np.frombuffer(zlib.decompress(base64.b64decode(doc["strategy"], validate=True)),
                      np.uint8)
    if q.size != 3 * tree.rows:
        raise StrategyFileError(f"the strategy has {q.size} bytes, not {3 * tree.rows}")
    q = q.reshape(tree.rows, 3)
    _check_rows(q, tree, buckets)
    header = {k: v for k, v in doc.items() if k != "strategy"}
    return AbstractStrategy(header, preflop, padded_thresholds(th), int(ab["samples"]),
                            tree, q.astype(np.float64) / 255.0)


def _check_rows(q: np.ndarray, tree: BettingTree, buckets: tuple[int, ...]) -> None:
    legal = legal_mask(tree, buckets)
    if np.any(q[~legal] != 0):
        raise StrategyFileError("a row gives probability to a move its node does not allow")
    sums = q.astype(np.int64).sum(axis=1)
    bad = np.flatnonzero(sums != 255)
    if bad.size:
        raise StrategyFileError(f"row {int(bad[0])}'s probabilities sum to "
                                f"{int(sums[bad[0]])}/255, not 1")


# --------------------------------------------------------------------------- bot
@lru_cache(maxsize=4)
def _load(path: str) -> AbstractStrategy:
    """Read a file once per process, and compile (or load) the bucket kernel now, so
    that the first decision is not slowed past a table's time limit."""
    s = read_abstract(path)
    board = np.array([0, 5, 10, 15, 20], np.int64)
    for nboard in (0, 3, 5):
        bucket_of(np.array([48, 49], np.int64), board, nboard, s.preflop, s.thresholds,
                  s.samples)
    return s


_TABLES: dict[tuple[int, tuple[int, ...]],
              tuple[AbstractStrategy, np.ndarray, np.ndarray]] = {}
TABLES_KEPT = 16
"""Boards whose bucket tables are kept (:func:`_board_table`): a duplicate pair of LBR
deals one board twice, both hands read it."""


def _board_table(s: AbstractStrategy, board: tuple[int, ...], cards: np.ndarray
                 ) -> np.ndarray:
    """The buckets of the holdings ``cards`` on ``board`` under the strategy ``s``
    (:data:`UNKNOWN` for one that holds a board card): each computed once per board
    (:func:`fill_buckets`) and kept for the last :data:`TABLES_KEPT` boards (the key
    holds ``s`` itself, so its id is not reused)."""
    key = (id(s), board)
    got = _TABLES.get(key)
    b = np.zeros(5, np.int64)
    b[:len(board)] = board
    if got is None:
        if len(_TABLES) >= TABLES_KEPT:
            del _TABLES[next(iter(_TABLES))]
        table = np.full((52, 52), UNKNOWN, np.int64)
        got = _TABLES[key] = (s, table, river_ranks(b) if len(board) == 5 else table)
    _, table, ranks = got
    fill_buckets(table, ranks, b, len(board), s.preflop, s.thresholds, s.samples, cards)
    return table[cards[:, 0], cards[:, 1]]


@dataclass(frozen=True)
class HoldingPolicies:
    """The declared policy of many holdings at one view: ``probs[h, i]`` is holding
    ``h``'s probability of ``moves[i]`` (fold, check/call, the node's raise)."""

    moves_: tuple[Action, Action, Action]
    probs: np.ndarray

    def moves(self) -> list[tuple[str, int]]:
        """The (kind, amount) of the moves; amount 0 but for the raise."""
        return [(a.kind, a.amount if a.kind == RAISE_KIND else 0) for a in self.moves_]

    def prob(self, kind: str, amount: int = 0) -> np.ndarray:
        """Each holding's probability of the move ``kind`` (to ``amount``, a raise)."""
        for i, a in enumerate(self.moves_):
            if a.kind == kind and (kind != RAISE_KIND or a.amount == amount):
                return self.probs[:, i]
        return np.zeros(len(self.probs))


class CfrBot(BaseBot):
    """Heads-up fixed-limit hold'em from an abstract strategy (``path``: the shipped
    file by default): the view's betting line is a node of the tree, its cards a
    bucket, and the row of (node, bucket) is the declared policy that ``act`` draws
    from."""

    name = "cfr"
    pure_policy = True  # policy() reads the view alone (bots.base.branches_of)
    description = ("heads-up limit hold'em: MCCFR strategy over E[HS] buckets "
                   "(pokerarena solve holdem)")

    def __init__(self, seed: int | None = None, *, path: str | Path | None = None,
                 **options: Any) -> None:
        super().__init__(seed, **options)
        self.strategy = _load(str(path if path is not None else SHIPPED))
        self._where = str(path if path is not None else SHIPPED)
        self._buckets: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}

    def start_match(self, info: MatchInfo) -> None:
        """Refuse another game or table size before the first hand."""
        self._check_game(info.game, info.players, info.variant)

    def check_game(self, game: dict[str, Any], players: int) -> None:
        """Refuse another game or table size (``game``: the views' game summary with its
        key) before any hand: the commands call it (:func:`~pokerarena.bots.registry.
        check_bots_for_game`)."""
        self._check_game(game, players, str(game.get("variant")))

    def _check_game(self, game: Any, players: int, variant: str) -> None:
        key = game.get("game_key") if isinstance(game, dict) else None
        if players != 2 or key != self.strategy.header["game_key"]:
            raise StrategyFileError(
                f"{self._where}: the cfr bot plays heads-up {self.strategy.header['variant']}"
                f" ({self.strategy.header['betting']}, game "
                f"{self.strategy.header['game_key']}), not {variant} with {players} "
                f"players (game {key})")

    def readings(self, view: SeatView) -> list[Reading]:
        """The tree nodes the view's betting line stands for, with their probabilities
        (:func:`~pokerarena.bots.simple.cfr_translation.readings`: one node, or two after
        a short all-in)."""
        return readings(self.strategy.tree, view.history, self._where)

    def _answer(self, view: SeatView, rows_at: Any, holdings: int
                ) -> tuple[tuple[Action, Action, Action], np.ndarray]:
        position = 0 if view.seat == view.button else 1
        return answer(self.strategy.tree, self.readings(view), position, view.legal,
                      view.to_call, rows_at, holdings, self._where)

    def bucket(self, view: SeatView) -> int:
        """The view's bucket on its street (cached per cards)."""
        key = (tuple(view.hole), tuple(view.board))
        got = self._buckets.get(key)
        if got is None:
            if len(self._buckets) > 50_000:
                self._buckets.clear()
            s = self.strategy
            board = np.zeros(5, np.int64)
            board[:len(view.board)] = view.board
            got = self._buckets[key] = int(bucket_of(
                np.asarray(view.hole, np.int64), board, len(view.board), s.preflop,
                s.thresholds, s.samples))
        return got

    def policy(self, view: SeatView) -> Policy:
        """The strategy's row at the view's (node, bucket), off-tree lines translated
        (:mod:`~pokerarena.bots.simple.cfr_translation`); zero moves left out."""
        if view.players != 2 or view.game.get("game_key") != self.strategy.header["game_key"]:
            self._check_game(view.game, view.players, view.variant)
        s = self.strategy
        bucket = self.bucket(view)
        moves, probs = self._answer(view, lambda n: s.probs[s.tree.row[n] + bucket][None], 1)
        out: Policy = [(moves[a], float(probs[0, a])) for a in range(3) if probs[0, a] > 0.0]
        if not math.isclose(sum(p for _, p in out), 1.0, abs_tol=1e-9):
            raise StrategyFileError(f"{self._where}: a row that is not a distribution")
        return out

    def batch_policy(self, view: SeatView, holdings: Any) -> HoldingPolicies:
        """:meth:`policy` at ``view`` with each row of ``holdings`` (two cards) in place
        of the hole cards, for all at once (what LBR reads, :func:`~pokerarena.solvers.
        lbr.holding_policies`): one node for the betting line, each holding's bucket from
        the board's table (:func:`board_buckets`, built once per board and strategy),
        the rows of the strategy. The same numbers as :meth:`policy` holding by holding
        (``tests/bots/test_cfr_batch.py``)."""
        if view.players != 2 or view.game.get("game_key") != self.strategy.header["game_key"]:
            self._check_game(view.game, view.players, view.variant)
        s = self.strategy
        cards = np.asarray(holdings, np.int64).reshape(-1, 2)
        got = _board_table(s, tuple(int(c) for c in view.board), cards)
        for i in np.flatnonzero(got < 0):   # a holding on the board: as policy buckets it
            got[i] = self.bucket(view._replace(hole=tuple(int(c) for c in cards[i])))
        moves, probs = self._answer(view, lambda n: s.probs[s.tree.row[n] + got], len(cards))
        return HoldingPolicies(moves, probs)

    def act(self, view: SeatView) -> Action:
        """One draw from :meth:`policy`."""
        return draw_from(self.policy(view), self.rng.random())
