"""The batch kernels of :func:`~pokerarena.evaluator.evaluate_batch` (5 to 7 cards) and
:func:`~pokerarena.evaluator.evaluate_omaha_batch` (any hole, five-card board) over the
lookup tables of :mod:`.tables`, shaped for random access on one core.

The tables are those of :func:`.fast.tables_for` (the values are the same for every
hand); :class:`BatchTables` adds what the loops read instead of computing it per hand.
Figures and the peers measured beside them: docs/evaluator.md.

- **No branch in the hot loop.** A branch per hand on the flush test cost 40% on random
  7-card hands: on the ~3% that take it, the misprediction throws away the table loads
  already in flight for the hands after it. Every hand takes the rank-multiset lookup (a
  flush hand's ranks are a multiset too, so the slot is in range and its value is
  overwritten), a hand that needs more is appended to a short list (branch-free), and a
  second loop over that list, while its cards are still in the L1 cache, finishes it.
- **Bad cards cost nothing.** Codes 52..255 have the key :data:`INVALID` (bit 60: up to
  seven of them never carry out of the word), which the same test sends to the second
  loop; it counts them, and the caller raises the one clear error. So the batch is not
  read a second time for a ``max()``.
- **Unsigned indices** (numba emits a negative-index fix-up per signed access) and hash
  rows stored with their base subtracted: ``slot = key + adj[key >> shift]``.
- **Seven cards two at a time.** Two 7-card hands are 14 bytes, seven aligned ``uint16``
  words: each word (two card codes) indexes a table of summed pair keys, so a hand costs
  three pair lookups and one single card instead of seven byte loads and seven card
  keys. The hands that need the second loop are marked in a 64-bit word per 64 hands
  (no store whose address depends on the hand: a list appended to per hand cost a
  third of the speed here), finished at once by walking its bits. The row offsets and
  values are one array (one base register less: the loop spills nothing).
- **Omaha flushes by table.** The suit's board ranks (three to five of them: 2,288
  masks) and a suited hole pair (91 rank pairs) index the best flush's rank mask, so a
  hole pair is one lookup instead of a walk over the board's threes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from pokerarena.evaluator import tables as tbl
from pokerarena.evaluator.fast import tables_for
from pokerarena.evaluator.kernels import (
    BOARD_BIAS,
    CARD_MASKS,
    LOW_WORD,
    SUIT_BIAS,
    SUIT_FLAGS,
    U32,
    U64,
    Tables,
    flush_shift,
)
from pokerarena.evaluator.rankings import Ranking

CHUNK = 1024  # hands per pass: their cards, values and pending list stay in L1
INVALID = np.uint64(1 << 60)  # key of a code that is no card of the tables
INVALID_BITS = np.uint64(7 << 60)
FIVE_OF_A_SUIT = np.uint64(int(SUIT_FLAGS) << 32)  # key + BIAS5: a suit reached five
BIAS5 = np.uint64(int(SUIT_BIAS) << 32)
BIAS3 = np.uint64(int(BOARD_BIAS) << 32)  # key + BIAS3: a suit reached three
BIAS2 = np.uint64(0x6666 << 32)  # ... two
MASK13 = np.uint64(0x1FFF)
SINGLE5 = 1 << 16  # pair_keys[SINGLE5 + c]: card c's key with the bias of the suit test
SINGLE = SINGLE5 + 256  # pair_keys[SINGLE + c]: card c's plain key
PAIR_TEST = INVALID_BITS | FIVE_OF_A_SUIT  # ranks-only tables carry no suit bits


class BatchTables(NamedTuple):
    """The arrays the batch kernels read, derived once from a ranking's :class:`Tables`."""

    ck: np.ndarray  # uint64[256]: card keys, INVALID above 51
    ck5: np.ndarray  # ck + BIAS5, ck + BIAS3, ck + BIAS2: a hand's first card carries
    ck3: np.ndarray  # the bias of its suit test, so the loop adds nothing for it
    ck2: np.ndarray
    test: np.uint64  # bits of a biased key that send a hand to the second loop
    flush: np.ndarray
    shift5: int
    adj5: np.ndarray
    values5: np.ndarray  # padded by a row: any sum of fewer cards lands in range
    shift6: int
    adj6: np.ndarray
    values6: np.ndarray
    shift7: int
    adj7: np.ndarray
    values7: np.ndarray
    omaha: np.ndarray  # uint16 classes by board class * 91 + rank pair
    omaha_values: np.ndarray
    board_class: np.ndarray  # 5-card hash slot -> board class * 91
    card_pairs: np.ndarray  # uint16[64 * 64]: rank pair (0..90) of two card codes
    board_masks: np.ndarray  # uint16[8192]: id of a suit's board ranks (3..5 of them)
    omaha_flush: np.ndarray  # uint16: best flush rank mask by board mask id * 91 + pair
    mask_pairs: np.ndarray  # uint8[8192]: rank pair (0..90) of a two-rank mask
    ranks_only: bool
    # uint64[65536 + 512]: summed keys of the two card codes of a little-endian uint16
    # (INVALID per bad code), then ck5 and ck (without suit bits for ranks-only tables)
    pair_keys: np.ndarray
    hash7: np.ndarray  # int32: adj7 + its length, then values7 padded: one array


def _row_adjusted(offsets: np.ndarray, shift: int) -> np.ndarray:
    """Row offsets less each row's base: ``key + adj[key >> shift]`` is the slot
    ``offsets[key >> shift] + (key & (2**shift - 1))`` with one operation less."""
    rows = np.arange(offsets.size, dtype=np.int64) << shift
    return (offsets.astype(np.int64) - rows).astype(np.int32)


def _padded(values: np.ndarray, shift: int) -> np.ndarray:
    """``values`` followed by a row of zeros: a key no hand of that size has (a hand with
    bad cards, whose rank part sums fewer cards) still reads inside the array."""
    return np.concatenate([values, np.zeros(1 << shift, values.dtype)])


@njit(cache=True)
def _omaha_flush_table(flush, pair_ranks):  # pragma: no cover - jit
    """(board mask ids, best flush masks): for every mask of three to five board ranks
    of a suit and every pair of two other ranks of that suit in the hole, the rank mask
    of the best flush of the pair with three of the board."""
    ids = np.full(8192, 0, np.uint16)
    masks = np.zeros(8192, np.int64)
    nb = 0
    for m in range(8192):
        bits = 0
        x = m
        while x:
            x &= x - 1
            bits += 1
        if 3 <= bits <= 5:
            ids[m] = nb
            masks[nb] = m
            nb += 1
    table = np.zeros(nb * 91, np.uint16)
    ranks = np.zeros(5, np.int64)
    for i in range(nb):
        m = masks[i]
        cnt = 0
        for r in range(13):
            if (m >> r) & 1:
                ranks[cnt] = r
                cnt += 1
        for p in range(91):
            a = pair_ranks[p, 0]
            b = pair_ranks[p, 1]
            if a == b or (m >> a) & 1 or (m >> b) & 1:
                continue
            pm = (1 << a) | (1 << b)
            best = -1
            best_mask = 0
            for x in range(cnt):
                for y in range(x + 1, cnt):
                    for z in range(y + 1, cnt):
                        fm = pm | (1 << ranks[x]) | (1 << ranks[y]) | (1 << ranks[z])
                        if flush[fm] > best:
                            best = flush[fm]
                            best_mask = fm
            table[i * 91 + p] = best_mask
    return ids, table


def _card_pairs(pair_index: np.ndarray) -> np.ndarray:
    """Rank-pair index of two card codes, by ``(c1 << 6) | c2`` (codes below 52)."""
    ranks = np.arange(64) >> 2
    ranks[52:] = 0
    return pair_index.reshape(13, 13)[ranks[:, None], ranks[None, :]].astype(
        np.uint16).reshape(-1)


def _mask_pairs(pair_index: np.ndarray) -> np.ndarray:
    """Rank-pair index of each mask of two ranks (other masks: 0)."""
    out = np.zeros(8192, np.uint8)
    idx = pair_index.reshape(13, 13)
    for a in range(13):
        for b in range(a + 1, 13):
            out[(1 << a) | (1 << b)] = idx[a, b]
    return out


def _pair_ranks() -> np.ndarray:
    """The two ranks of each rank-pair index (the order of ``tables.pair_index``)."""
    return np.array([(a, b) for a in range(13) for b in range(a, 13)], dtype=np.int64)


def _pair_keys(ck: np.ndarray, ranks_only: bool) -> np.ndarray:
    """:attr:`BatchTables.pair_keys` from the card keys ``ck`` (INVALID above 51)."""
    if ranks_only:  # suits never matter: no suit bits, so only bad codes set PAIR_TEST
        ck = ck & (LOW_WORD | INVALID_BITS)
    x = np.arange(1 << 16)
    return np.concatenate([ck[x & 255] + ck[x >> 8],
                           ck if ranks_only else ck + BIAS5, ck]).astype(np.uint64)


def _hash7(offsets: np.ndarray, values: np.ndarray, shift: int) -> np.ndarray:
    """Row offsets and values of the 7-card hash in one ``int32`` array: slot
    ``key + h[key >> shift]`` of ``h``. Rows up to seven aces are there (the extra ones
    lead to the zero row at the end), so even a hand of repeated cards reads inside."""
    rows = (7 * int(tbl.RANK_KEYS[-1]) >> shift) + 1
    adj = np.empty(max(rows, offsets.size), np.int64)
    adj[:offsets.size] = _row_adjusted(offsets, shift)
    padded = _padded(values, shift)
    pad_row = padded.size - (1 << shift)
    adj[offsets.size:] = pad_row - (np.arange(offsets.size, adj.size, dtype=np.int64) << shift)
    return np.concatenate([(adj + adj.size).astype(np.int32), padded])


def build_batch_tables(t: Tables) -> BatchTables:
    """The :class:`BatchTables` of ``t`` (a few milliseconds)."""
    ck = np.full(256, INVALID, dtype=np.uint64)
    ck[:52] = t.card_keys[:52]
    test = INVALID_BITS if t.ranks_only else INVALID_BITS | FIVE_OF_A_SUIT
    ids, table = _omaha_flush_table(t.flush, _pair_ranks())
    board_class = (_padded(t.omaha_board, t.shift5).astype(np.int64) * 91).astype(np.int32)
    return BatchTables(
        ck, ck + BIAS5, ck + BIAS3, ck + BIAS2, np.uint64(test), t.flush,
        t.shift5, _row_adjusted(t.offsets5, t.shift5), _padded(t.values5, t.shift5),
        t.shift6, _row_adjusted(t.offsets6, t.shift6), _padded(t.values6, t.shift6),
        t.shift7, _row_adjusted(t.offsets7, t.shift7), _padded(t.values7, t.shift7),
        t.omaha, t.omaha_values, board_class, _card_pairs(t.pair_index), ids, table,
        _mask_pairs(t.pair_index), t.ranks_only,
        _pair_keys(ck, t.ranks_only), _hash7(t.offsets7, t.values7, t.shift7),
    )


_BUILT: dict[bytes, BatchTables] = {}
BUILT_LIMIT = 16


def batch_tables_for(ranking: Ranking) -> BatchTables:
    """The batch tables of a table-friendly ranking, built once per process."""
    key = ranking.params.tobytes()
    found = _BUILT.get(key)
    if found is None:
        found = build_batch_tables(tables_for(ranking))
        while len(_BUILT) >= BUILT_LIMIT:
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[key] = found
    return found


# ------------------------------------------------------------------ 5 to 7 cards
@njit(cache=True, inline="always")
def _finish_high(flat, k, ck, flush, pending, npending, out):  # pragma: no cover - jit
    """Second loop: flush values of the listed hands (the suit's 13-bit rank mask, from
    the summed card masks); a hand with a bad card is counted (returned) instead."""
    bad = 0
    for q in range(npending):
        i = U64(pending[q])
        b = i * U64(k)
        key = U64(0)
        cmask = U64(0)
        for j in range(k):
            c = flat[b + U64(j)]
            key += ck[c]
            cmask += CARD_MASKS[c & 63]
        if key & INVALID_BITS:
            bad += 1
        else:
            out[i] = flush[(cmask >> flush_shift(key)) & MASK13]
    return bad


@njit(cache=True)
def _high7(flat, ck, ck5, test, flush, shift, adj, values, out):  # pragma: no cover - jit
    """One hand per step, seven card keys each: the form before :func:`_high7_pairs`
    (the lookups ``workers/fastrecord.py`` repeats inline; docs/evaluator.md times the
    two side by side)."""
    n = out.shape[0]
    sh = U64(shift)
    pending = np.empty(CHUNK, np.uint32)
    bad = 0
    for start in range(0, n, CHUNK):
        npending = 0
        for i in range(start, min(start + CHUNK, n)):
            b = U64(i) * U64(7)
            key = (ck5[flat[b]] + ck[flat[b + U64(1)]] + ck[flat[b + U64(2)]]
                   + ck[flat[b + U64(3)]] + ck[flat[b + U64(4)]] + ck[flat[b + U64(5)]]
                   + ck[flat[b + U64(6)]])
            rk = key & LOW_WORD
            out[U64(i)] = values[U64(np.int64(rk) + adj[rk >> sh])]
            pending[npending] = np.uint32(i)
            npending += (key & test) != U64(0)
        bad += _finish_high(flat, 7, ck, flush, pending, npending, out)
    return bad


@njit(cache=True)
def _high_k(flat, k, ck, ck5, test, flush, shift, adj, values,
            out):  # pragma: no cover - jit
    n = out.shape[0]
    sh = U64(shift)
    pending = np.empty(CHUNK, np.uint32)
    bad = 0
    for start in range(0, n, CHUNK):
        npending = 0
        for i in range(start, min(start + CHUNK, n)):
            b = U64(i) * U64(k)
            key = ck5[flat[b]]
            for j in range(1, k):
                key += ck[flat[b + U64(j)]]
            rk = key & LOW_WORD
            out[U64(i)] = values[U64(np.int64(rk) + adj[rk >> sh])]
            pending[npending] = np.uint32(i)
            npending += (key & test) != U64(0)
        bad += _finish_high(flat, k, ck, flush, pending, npending, out)
    return bad


@njit(cache=True)
def _high7_pairs(flat, words, pk, h7, shift, flush, out):  # pragma: no cover - jit
    """7-card values of ``flat``'s hands (``words``: the same bytes as ``uint16``), two
    hands per step by pair keys (module docstring); returns the hands with a bad code."""
    n = out.shape[0]
    sh = U64(shift)
    m8 = U64(255)
    one = U64(1)
    s5 = U64(SINGLE5)
    bad = 0
    for g in range(n >> 6):
        flags = U64(0)  # bit j: hand 64 g + j needs the second loop
        m0 = U64(g) << U64(5)
        e = m0 * U64(7)  # hands 2m, 2m + 1: words e .. e + 6, word e + 3 shared
        mid = U64(words[e + U64(3)])
        ka = (pk[words[e]] + pk[words[e + U64(1)]] + pk[words[e + U64(2)]]
              + pk[s5 + (mid & m8)])
        kb = (pk[s5 + (mid >> U64(8))] + pk[words[e + U64(4)]] + pk[words[e + U64(5)]]
              + pk[words[e + U64(6)]])
        for t in range(32):
            # the next pair's keys before this pair's lookups (2 to 5% faster)
            na = U64(0)
            nb = U64(0)
            if t < 31:
                e += U64(7)
                mid = U64(words[e + U64(3)])
                na = (pk[words[e]] + pk[words[e + U64(1)]] + pk[words[e + U64(2)]]
                      + pk[s5 + (mid & m8)])
                nb = (pk[s5 + (mid >> U64(8))] + pk[words[e + U64(4)]]
                      + pk[words[e + U64(5)]] + pk[words[e + U64(6)]])
            i = (m0 + U64(t)) << one
            ra = ka & LOW_WORD
            rb = kb & LOW_WORD
            out[i] = h7[U64(np.int64(ra) + h7[ra >> sh])]
            out[i + one] = h7[U64(np.int64(rb) + h7[rb >> sh])]
            f = U64((ka & PAIR_TEST) != U64(0)) | (U64((kb & PAIR_TEST) != U64(0)) << one)
            flags |= f << U64(2 * t)
            ka = na
            kb = nb
        base = U64(g) << U64(6)
        while flags:
            i = base + U64(trailing_zeros(flags))
            flags &= flags - one
            b = i * U64(7)
            key = U64(0)
            cmask = U64(0)
            for j in range(7):
                c = flat[b + U64(j)]
                key += pk[U64(SINGLE) + c]
                cmask += CARD_MASKS[c & 63]
            if key & INVALID_BITS:
                bad += 1
            else:
                out[i] = flush[(cmask >> flush_shift(key)) & MASK13]
    for i in range((n >> 6) << 6, n):  # the last hands, one at a time
        b = U64(i) * U64(7)
        key = U64(0)
        cmask = U64(0)
        for j in range(7):
            c = flat[b + U64(j)]
            key += pk[U64(SINGLE) + c]
            cmask += CARD_MASKS[c & 63]
        if key & INVALID_BITS:
            bad += 1
        elif (key + BIAS5) & PAIR_TEST:
            out[U64(i)] = flush[(cmask >> flush_shift(key)) & MASK13]
        else:
            rk = key & LOW_WORD
            out[U64(i)] = h7[U64(np.int64(rk) + h7[rk >> sh])]
    return bad


def high_batch(hands: np.ndarray, bt: BatchTables, out: np.ndarray) -> int:
    """Values of C-contiguous ``uint8[N, k]`` hands (``k`` in 5..7) into ``out``; returns
    how many hands hold a code that is no card (their values are meaningless)."""
    k = hands.shape[1]
    flat = hands.reshape(-1)
    if k == 7:
        if flat.ctypes.data & 1:  # a view at an odd address: its uint16 words would be
            flat = flat.copy()  # unaligned, which numba's typed arrays do not expect
        words = flat[:flat.size & ~1].view(np.uint16)
        return int(_high7_pairs(flat, words, bt.pair_keys, bt.hash7, bt.shift7, bt.flush,
                                out))
    shift, adj, values = ((bt.shift6, bt.adj6, bt.values6) if k == 6
                          else (bt.shift5, bt.adj5, bt.values5))
    return int(_high_k(flat, k, bt.ck, bt.ck5, bt.test, bt.flush, shift, adj, values, out))


# ------------------------------------------------------------------------- Omaha
@njit(cache=True, inline="always")
def _finish_omaha(hole, board, h, ck, flush, board_masks, omaha_flush, mask_pairs, pending,
                  npending, out):  # pragma: no cover - jit
    """Second loop: the best flush of the listed hands (a board suit of three or more
    and two hole cards of it), one table lookup per pair of the suit's hole ranks (their
    bits walked without a test per card); hands with a bad card are counted (returned)
    instead."""
    bad = 0
    for q in range(npending):
        i = U64(pending[q])
        bb = i * U64(5)
        hb = i * U64(h)
        key = U64(0)
        cmask = U64(0)
        for j in range(5):
            c = board[bb + U64(j)]
            key += ck[c]
            cmask += CARD_MASKS[c & 63]
        hkey = U64(0)
        hmask = U64(0)
        for j in range(h):
            c = hole[hb + U64(j)]
            hkey += ck[c]
            hmask += CARD_MASKS[c & 63]
        if (key | hkey) & INVALID_BITS:
            bad += 1
            continue
        flags = ((key + BIAS3) >> U32) & SUIT_FLAGS  # one suit at most: five cards
        s16 = (((flags >> U64(7)) & U64(1)) * U64(16) + ((flags >> U64(11)) & U64(1)) * U64(32)
               + ((flags >> U64(15)) & U64(1)) * U64(48))
        row = U64(board_masks[(cmask >> s16) & MASK13]) * U64(91)
        best = out[i]
        x = (hmask >> s16) & MASK13
        while x:
            lo = x & (~x + U64(1))
            x ^= lo
            y = x
            while y:
                hi = y & (~y + U64(1))
                y ^= hi
                best = max(best, flush[omaha_flush[row + U64(mask_pairs[lo | hi])]])
        out[i] = best
    return bad


@njit(cache=True)
def _omaha(hole, board, h, ck, ck3, ck2, test, flush, shift5, adj5, board_class, omaha,
           omaha_values, card_pairs, board_masks, omaha_flush, mask_pairs,
           out):  # pragma: no cover - jit
    n = out.shape[0]
    sh = U64(shift5)
    m6 = U64(63)
    pending = np.empty(CHUNK, np.uint32)
    bad = 0
    for start in range(0, n, CHUNK):
        npending = 0
        for i in range(start, min(start + CHUNK, n)):
            bb = U64(i) * U64(5)
            key = (ck3[board[bb]] + ck[board[bb + U64(1)]] + ck[board[bb + U64(2)]]
                   + ck[board[bb + U64(3)]] + ck[board[bb + U64(4)]])
            rk = key & LOW_WORD
            base = U64(board_class[U64(np.int64(rk) + adj5[rk >> sh])])
            hb = U64(i) * U64(h)
            if h == 4:  # the common hole written out: six pairs, no inner loop
                c0 = U64(hole[hb])
                c1 = U64(hole[hb + U64(1)])
                c2 = U64(hole[hb + U64(2)])
                c3 = U64(hole[hb + U64(3)])
                hkey = ck2[c0] + ck[c1] + ck[c2] + ck[c3]
                c0 = (c0 & m6) << U64(6)
                c1 &= m6
                c2 &= m6
                c3 &= m6
                r1 = c1 << U64(6)
                cls = max(max(max(omaha[base + card_pairs[c0 | c1]],
                                  omaha[base + card_pairs[c0 | c2]]),
                              max(omaha[base + card_pairs[c0 | c3]],
                                  omaha[base + card_pairs[r1 | c2]])),
                          max(omaha[base + card_pairs[r1 | c3]],
                              omaha[base + card_pairs[(c2 << U64(6)) | c3]]))
            else:
                hkey = BIAS2
                cls = 0
                for a in range(h):
                    ca = U64(hole[hb + U64(a)])
                    hkey += ck[ca]
                    for b in range(a + 1, h):
                        cb = U64(hole[hb + U64(b)]) & m6
                        cls = max(cls, omaha[base + card_pairs[((ca & m6) << U64(6)) | cb]])
            out[U64(i)] = omaha_values[cls]
            # a suit with three board cards and two hole cards, or a bad card
            suited = (key & hkey & test) | ((key | hkey) & INVALID_BITS)
            pending[npending] = np.uint32(i)
            npending += suited != U64(0)
        bad += _finish_omaha(hole, board, h, ck, flush, board_masks, omaha_flush, mask_pairs,
                             pending, npending, out)
    return bad


def omaha_batch(hole: np.ndarray, board: np.ndarray, bt: BatchTables,
                out: np.ndarray) -> int:
    """Omaha values for C-contiguous hole ``uint8[N, h]`` and five-card boards
    ``uint8[N, 5]`` into ``out``; returns how many hands hold a code that is no card."""
    test = bt.test & FIVE_OF_A_SUIT  # the suit flags only: bad cards are tested apart
    return int(_omaha(hole.reshape(-1), board.reshape(-1), hole.shape[1], bt.ck, bt.ck3,
                      bt.ck2, np.uint64(test), bt.flush, bt.shift5, bt.adj5, bt.board_class,
                      bt.omaha, bt.omaha_values, bt.card_pairs, bt.board_masks,
                      bt.omaha_flush, bt.mask_pairs, out))
