"""General numba kernels: every ranking, any card count, wild cards.

These kernels compute a hand's value directly from its rank counts and suit masks,
category by category, so they handle what lookup tables cannot: wild cards under both
usage rules, optional hands, partial hands and the low rankings. The fast table kernels
(:mod:`pokerarena.evaluator.fast`) are built from them and agree with them exactly.

Value layout (``int32``, higher is better): ``position << 23 | ranks << 3 | tie``, where
``position`` is the category's place in the ranking's order, ``ranks`` five 4-bit rank
slots (rank + 1, highest first; 0 = no card) and ``tie`` is ``7 - wild cards used`` when
fewer wild cards win, else 7. Low rankings store ``15 - badness`` and the complemented
rank slots, so that higher is still better.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerarena.evaluator.rankings import (
    BLAZE,
    DOUBLE_ACE_FLUSH,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    KIND_27,
    KIND_A5,
    KIND_BADUGI,
    KIND_HIGH,
    KIND_HILO,
    ONE_PAIR,
    P_FEWER_WILDS,
    P_KIND,
    P_LOW_RANK,
    P_ORDER,
    P_SIZE,
    P_WILD_ANY,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)

RANK_BITS = 0x1FFF
LOW_RANKS_MAX = 0xFFFFF


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a small non-negative integer."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def encode(pos, ranks, used, fewer):
    """Pack a category position, rank slots and wild-card count into a value."""
    tie = 7 - used if fewer else 7
    return (pos << 23) | (ranks << 3) | tie


@njit(cache=True, inline="always")
def slot(rank_plus_one, index):
    """Rank slot ``index`` (0 = most significant) holding ``rank_plus_one``."""
    return rank_plus_one << (4 * (4 - index))


@njit(cache=True)
def greedy(present, excluded, lowest, wilds, k, start):
    """Pick up to ``k`` distinct ranks, highest first, from ``present`` or wild cards.

    Ranks in the ``excluded`` mask are never picked. A natural rank is taken when
    present; otherwise a remaining wild card becomes that rank. Returns (rank slots
    filled from slot ``start``, picks, wild cards used).
    """
    ranks = 0
    picks = 0
    used = 0
    r = 12
    while r >= lowest and picks < k:
        if (excluded >> r) & 1:
            pass
        elif (present >> r) & 1:
            ranks |= slot(r + 1, start + picks)
            picks += 1
        elif used < wilds:
            ranks |= slot(r + 1, start + picks)
            picks += 1
            used += 1
        r -= 1
    return ranks, picks, used


@njit(cache=True, inline="always")
def straight_need(top, size, lowest):
    """Rank mask of the ``size``-card straight topping at ``top``; the wheel when top < 0."""
    if top < 0:
        return (1 << 12) | (((1 << (size - 1)) - 1) << lowest)
    return ((1 << size) - 1) << (top - size + 1)


@njit(cache=True)
def _best_straight(mask, wilds, size, lowest):
    """(top rank + 1, wild cards used) of the best straight in ``mask``, or (0, 0)."""
    top = 12
    while top >= lowest + size - 1:
        missing = size - popcount(mask & straight_need(top, size, lowest))
        if missing <= wilds:
            return top + 1, missing
        top -= 1
    missing = size - popcount(mask & straight_need(-1, size, lowest))
    if missing <= wilds:
        return lowest + size - 1, missing
    return 0, 0


@njit(cache=True)
def high_value(cards, n, params, wild_mask):
    """Value of the best hand among ``cards[:n]`` under a high ranking.

    A long kernel on purpose: one short block per category, in the order of the
    category list, each over the same rank counts, suit masks and wild-card count and
    each raising ``best``; split into a function per category, every one would take
    those six locals and the reader would lose the one page that shows how wild cards
    fill each category. (Not a speed argument: helpers called from a kernel cost
    nothing, see :mod:`pokerarena.evaluator.kernels`.)"""
    size = params[P_SIZE]
    lowest = params[P_LOW_RANK]
    wild_any = params[P_WILD_ANY]
    fewer = params[P_FEWER_WILDS]
    counts = np.zeros(13, np.int64)
    suits = np.zeros(4, np.int64)
    present = 0
    w = 0
    for i in range(n):
        c = cards[i]
        if (wild_mask >> c) & 1:
            w += 1
            continue
        r = c >> 2
        counts[r] += 1
        suits[c & 3] |= 1 << r
        present |= 1 << r
    best = -1

    pos = params[P_ORDER + FIVE_OF_A_KIND]
    if pos >= 0 and size == 5:
        for r in range(12, lowest - 1, -1):
            if counts[r] + w >= 5:
                used = max(0, 5 - counts[r])
                rr = r + 1
                ranks = slot(rr, 0) | slot(rr, 1) | slot(rr, 2) | slot(rr, 3) | slot(rr, 4)
                best = max(best, encode(pos, ranks, used, fewer))
                break

    pos = params[P_ORDER + STRAIGHT_FLUSH]
    if pos >= 0 and n >= size:
        for s in range(4):
            top, used = _best_straight(suits[s], w, size, lowest)
            if top > 0:
                best = max(best, encode(pos, slot(top, 0), used, fewer))

    pos = params[P_ORDER + FOUR_OF_A_KIND]
    if pos >= 0 and size >= 4:
        for r in range(12, lowest - 1, -1):
            need = max(0, 4 - counts[r])
            if need <= w:
                rr = r + 1
                ranks, _, used = greedy(present, 1 << r, lowest, w - need, size - 4, 1)
                ranks |= slot(rr, 0)
                best = max(best, encode(pos, ranks, need + used, fewer))
                break

    pos = params[P_ORDER + FULL_HOUSE]
    if pos >= 0 and size == 5:
        done = False
        for t in range(12, lowest - 1, -1):
            nt = max(0, 3 - counts[t])
            if nt > w:
                continue
            for p in range(12, lowest - 1, -1):
                if p == t:
                    continue
                need = nt + max(0, 2 - counts[p])
                if need <= w:
                    best = max(best, encode(pos, slot(t + 1, 0) | slot(p + 1, 1), need, fewer))
                    done = True
                    break
            if done:
                break

    pos = params[P_ORDER + DOUBLE_ACE_FLUSH]
    if pos >= 0 and size == 5:
        for s in range(4):
            need = 2 - ((suits[s] >> 12) & 1)
            if need <= w:
                ranks, picks, used = greedy(suits[s], 1 << 12, lowest, w - need, 3, 2)
                if picks == 3:
                    ranks |= slot(13, 0) | slot(13, 1)
                    best = max(best, encode(pos, ranks, need + used, fewer))

    pos = params[P_ORDER + FLUSH]
    if pos >= 0 and n >= size:
        for s in range(4):
            ranks, picks, used = greedy(suits[s], 0, lowest, w, size, 0)
            if picks == size:
                best = max(best, encode(pos, ranks, used, fewer))

    pos = params[P_ORDER + STRAIGHT]
    if pos >= 0 and n >= size:
        top, used = _best_straight(present, w, size, lowest)
        if top > 0:
            best = max(best, encode(pos, slot(top, 0), used, fewer))

    pos = params[P_ORDER + FOUR_FLUSH]
    if pos >= 0 and n >= 5:
        for s in range(4):
            ranks, picks, used = greedy(suits[s], 0, lowest, w, 4, 0)
            if picks < 4:
                continue
            # The fifth card: the best card not among the four suited ones.
            natural_used = 0
            fifth = 0
            for k in range(4):
                rr = (ranks >> (4 * (4 - k))) & 15
                if rr > 0 and (suits[s] >> (rr - 1)) & 1:
                    natural_used |= 1 << (rr - 1)
            for r in range(12, lowest - 1, -1):
                left = counts[r] - ((natural_used >> r) & 1)
                if left > 0:
                    fifth = r + 1
                    break
            extra = 0
            if w - used > 0 and fifth < 13:
                fifth = 13
                extra = 1
            best = max(best, encode(pos, ranks | fifth, used + extra, fewer))

    pos = params[P_ORDER + THREE_OF_A_KIND]
    if pos >= 0 and size >= 3:
        for r in range(12, lowest - 1, -1):
            need = max(0, 3 - counts[r])
            if need <= w:
                ranks, _, used = greedy(present, 1 << r, lowest, w - need, size - 3, 1)
                best = max(best, encode(pos, ranks | slot(r + 1, 0), need + used, fewer))
                break

    pos = params[P_ORDER + BLAZE]
    if pos >= 0 and size == 5 and counts[9] + counts[10] + counts[11] + w >= 5:
        taken = np.zeros(3, np.int64)
        left = 5
        for k in range(2, -1, -1):
            t = min(counts[9 + k], left)
            taken[k] = t
            left -= t
        used = left
        k = 2
        while left > 0:
            room = 4 - taken[k] if wild_any == 0 else 5
            add = min(room, left)
            taken[k] += add
            left -= add
            k -= 1
        ranks = 0
        filled = 0
        for cnt in range(5, 0, -1):
            for k in range(2, -1, -1):
                if taken[k] == cnt:
                    for _ in range(cnt):
                        ranks |= slot(10 + k, filled)
                        filled += 1
        best = max(best, encode(pos, ranks, used, fewer))

    pos = params[P_ORDER + TWO_PAIR]
    if pos >= 0 and size >= 4:
        done = False
        for a in range(12, lowest - 1, -1):
            na = max(0, 2 - counts[a])
            if na > w:
                continue
            for b in range(a - 1, lowest - 1, -1):
                need = na + max(0, 2 - counts[b])
                if need <= w:
                    ranks, _, used = greedy(present, (1 << a) | (1 << b), lowest,
                                            w - need, size - 4, 2)
                    ranks |= slot(a + 1, 0) | slot(b + 1, 1)
                    best = max(best, encode(pos, ranks, need + used, fewer))
                    done = True
                    break
            if done:
                break

    pos = params[P_ORDER + ONE_PAIR]
    if pos >= 0 and size >= 2:
        for r in range(12, lowest - 1, -1):
            need = max(0, 2 - counts[r])
            if need <= w:
                ranks, _, used = greedy(present, 1 << r, lowest, w - need, size - 2, 1)
                best = max(best, encode(pos, ranks | slot(r + 1, 0), need + used, fewer))
                break

    pos = params[P_ORDER + HIGH_CARD]
    if pos >= 0:
        ranks, _, used = greedy(present, 0, lowest, w, size, 0)
        best = max(best, encode(pos, ranks, used, fewer))
    return best


# Low rankings ---------------------------------------------------------------


@njit(cache=True, inline="always")
def low_encode(bad, ranks, used, fewer):
    """Value of a low hand: lower badness and lower rank slots give higher values."""
    tie = 7 - used if fewer else 7
    return ((15 - bad) << 23) | ((LOW_RANKS_MAX - ranks) << 3) | tie


@njit(cache=True)
def _pattern(counts, wild_singles):
    """(category id, rank slots) of a multiset of ranks given as 13 counts.

    Groups are ordered by (count, rank), highest first; ``wild_singles`` extra
    unpairable cards of slot value 1 (a low ace) come last.
    """
    ranks = 0
    filled = 0
    groups = np.zeros(5, np.int64)
    for cnt in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == cnt:
                groups[cnt] += 1
                for _ in range(cnt):
                    if filled < 5:
                        ranks |= slot(r + 1, filled)
                    filled += 1
    for _ in range(wild_singles):
        if filled < 5:
            ranks |= slot(1, filled)
        filled += 1
    if groups[4] > 0:
        return FOUR_OF_A_KIND, ranks
    if groups[3] > 0 and (groups[2] > 0 or groups[3] > 1):
        return FULL_HOUSE, ranks
    if groups[3] > 0:
        return THREE_OF_A_KIND, ranks
    if groups[2] > 1:
        return TWO_PAIR, ranks
    if groups[2] == 1:
        return ONE_PAIR, ranks
    return HIGH_CARD, ranks


@njit(cache=True)
def _low_rank(c, kind):
    """Rank index used by a low kind: ace low (0) except in deuce-to-seven."""
    r = c >> 2
    if kind == KIND_27:
        return r
    return 0 if r == 12 else r + 1


@njit(cache=True)
def _badness_index(kind, cat):
    if kind == KIND_A5:
        if cat == FULL_HOUSE:
            return 4
        if cat == FOUR_OF_A_KIND:
            return 5
        return cat  # high card 0, pair 1, two pair 2, trips 3
    if cat <= THREE_OF_A_KIND:
        return cat
    if cat == STRAIGHT:
        return 4
    if cat == FLUSH:
        return 5
    if cat == FULL_HOUSE:
        return 6
    if cat == FOUR_OF_A_KIND:
        return 7
    return 8  # straight flush


@njit(cache=True)
def _subset_low(nat, sel, m, wild_ranks, wcount, kind, lowest):
    """(badness, rank slots) of the chosen naturals plus wild cards under a low kind.

    ``wild_ranks`` is a rank mask for deuce-to-seven and ace-to-five; for high-low
    declare lows the ``wcount`` wild cards are unpairable low aces.
    """
    counts = np.zeros(13, np.int64)
    suit_all = -1
    flush = True
    mask = 0
    k = 0
    for i in range(m):
        if (sel >> i) & 1:
            c = nat[i]
            r = _low_rank(c, kind)
            counts[r] += 1
            mask |= 1 << r
            s = c & 3
            if suit_all < 0:
                suit_all = s
            elif s != suit_all:
                flush = False
            k += 1
    singles = 0
    if kind == KIND_HILO:
        singles = wcount
    else:
        for r in range(13):
            if (wild_ranks >> r) & 1:
                counts[r] += 1
                mask |= 1 << r
    cat, ranks = _pattern(counts, singles)
    # Wild cards never make a flush; in deuce-to-seven they do count in straights.
    flush = flush and k == 5
    if kind != KIND_A5 and k + popcount(wild_ranks) == 5 and cat == HIGH_CARD:
        # Ranks are ace-low for high-low and ace-high for deuce-to-seven: either way a
        # straight is five consecutive rank indices.
        straight = False
        for top in range(12, 3, -1):
            if mask == (0x1F << (top - 4)):
                straight = True
        if straight and flush:
            return _badness_index(kind, STRAIGHT_FLUSH), slot(ranks >> 16, 0)
        if flush:
            return _badness_index(kind, FLUSH), ranks
        if straight:
            return _badness_index(kind, STRAIGHT), slot(ranks >> 16, 0)
    return _badness_index(kind, cat), ranks


@njit(cache=True)
def split_wilds(cards, n, wild_mask):
    """(natural cards array, how many naturals, how many wild cards) of ``cards[:n]``."""
    nat = np.zeros(n, np.int64)
    m = 0
    w = 0
    for i in range(n):
        c = cards[i]
        if (wild_mask >> c) & 1:
            w += 1
        else:
            nat[m] = c
            m += 1
    return nat, m, w


@njit(cache=True)
def low_value(cards, n, params, wild_mask):
    """Value of the best low among ``cards[:n]`` (ace-to-five, high-low, deuce-to-seven)."""
    kind = params[P_KIND]
    lowest = params[P_LOW_RANK]
    fewer = params[P_FEWER_WILDS]
    nat, m, w = split_wilds(cards, n, wild_mask)
    target = min(5, n)
    wu = min(w, target)
    pick = target - wu
    # Ranks a low kind may use (stripped decks lack the low ranks).
    allowed = 0
    for r in range(13):
        real = r if kind == KIND_27 else (12 if r == 0 else r - 1)
        if real >= lowest:
            allowed |= 1 << r
    best_bad = 99
    best_ranks = 0
    best_used = 0
    for sel in range(1 << m):
        if popcount(sel) != pick:
            continue
        held = 0
        for i in range(m):
            if (sel >> i) & 1:
                held |= 1 << _low_rank(nat[i], kind)
        if kind == KIND_HILO or wu == 0:
            bad, ranks = _subset_low(nat, sel, m, 0, wu, kind, lowest)
            if bad < best_bad or (bad == best_bad and ranks < best_ranks):
                best_bad, best_ranks, best_used = bad, ranks, wu
            continue
        # Wild cards take distinct ranks the chosen cards lack; try the lowest few.
        free = allowed & ~held
        cand = np.zeros(13, np.int64)
        nc = 0
        for r in range(13):
            if (free >> r) & 1 and nc < wu + 4:
                cand[nc] = r
                nc += 1
        for combo in range(1 << nc):
            if popcount(combo) != wu:
                continue
            wr = 0
            for j in range(nc):
                if (combo >> j) & 1:
                    wr |= 1 << cand[j]
            bad, ranks = _subset_low(nat, sel, m, wr, wu, kind, lowest)
            if bad < best_bad or (bad == best_bad and ranks < best_ranks):
                best_bad, best_ranks, best_used = bad, ranks, wu
    return low_encode(best_bad, best_ranks, best_used, fewer)


@njit(cache=True)
def badugi_value(cards, n, params, wild_mask):
    """Value of the best badugi among ``cards[:n]``: most cards, then lowest."""
    fewer = params[P_FEWER_WILDS]
    lowest = params[P_LOW_RANK]
    nat, m, w = split_wilds(cards, n, wild_mask)
    best_bad = 99
    best_ranks = 0
    best_used = 0
    for sel in range(1 << m):
        size = popcount(sel)
        if size > 4:
            continue
        rmask = 0
        smask = 0
        ok = True
        for i in range(m):
            if (sel >> i) & 1:
                r = _low_rank(nat[i], KIND_A5)
                s = nat[i] & 3
                if (rmask >> r) & 1 or (smask >> s) & 1:
                    ok = False
                    break
                rmask |= 1 << r
                smask |= 1 << s
        if not ok:
            continue
        used = min(w, 4 - size)
        added = 0
        for r in range(13):
            if added == used:
                break
            real = 12 if r == 0 else r - 1
            if real >= lowest and not (rmask >> r) & 1:
                rmask |= 1 << r
                added += 1
        total = size + added
        ranks = 0
        filled = 0
        for r in range(12, -1, -1):
            if (rmask >> r) & 1:
                ranks |= slot(r + 1, filled)
                filled += 1
        bad = 4 - total
        if (bad < best_bad or (bad == best_bad and ranks < best_ranks)
                or (bad == best_bad and ranks == best_ranks and added < best_used)):
            best_bad, best_ranks, best_used = bad, ranks, added
    return low_encode(best_bad, best_ranks, best_used, fewer)


@njit(cache=True)
def any_value(cards, n, params, wild_mask):
    """Value of ``cards[:n]`` under any ranking."""
    kind = params[P_KIND]
    if kind == KIND_HIGH:
        return high_value(cards, n, params, wild_mask)
    if kind == KIND_BADUGI:
        return badugi_value(cards, n, params, wild_mask)
    return low_value(cards, n, params, wild_mask)


@njit(cache=True)
def batch_values(hands, params, wild_mask, out):
    """Values of every row of ``hands`` (``uint8[N, k]``) into ``out``."""
    n = hands.shape[1]
    for i in range(hands.shape[0]):
        out[i] = any_value(hands[i], n, params, wild_mask)


@njit(cache=True)
def omaha_values(hole, board, params, wild_mask, out):
    """Best value using exactly two hole cards and three board cards, per row."""
    h = hole.shape[1]
    b = board.shape[1]
    five = np.zeros(5, np.uint8)
    for i in range(hole.shape[0]):
        best = -1
        for a in range(h):
            for c in range(a + 1, h):
                five[0] = hole[i, a]
                five[1] = hole[i, c]
                for x in range(b):
                    for y in range(x + 1, b):
                        for z in range(y + 1, b):
                            five[2] = board[i, x]
                            five[3] = board[i, y]
                            five[4] = board[i, z]
                            v = any_value(five, 5, params, wild_mask)
                            if v > best:
                                best = v
        out[i] = best
