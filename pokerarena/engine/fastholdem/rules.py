"""The rules of hold'em in numba: a unit's hands played from their decks, the policies
asked at each decision, every field the reference engine's hands would give.

Each rule is the reference engine's (:mod:`pokerarena.engine.hand`): the same state by
position (0 is left of the button), the same order of deals and log entries, the same
raise ranges, reopening rules, side pots and odd chips; the comments name the engine
method a block mirrors. :mod:`.kernel` is the Python side (the decks, ``P``, the call).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerarena.engine.fastholdem.layout import (
    K_CALL,
    K_FOLD,
    K_RAISE,
    L_ANTE,
    L_BLIND,
    L_CALL,
    L_DEAL_BOARD,
    L_DEAL_HOLE,
    L_FOLD,
    L_RAISE,
    MAXN,
    V_BETS,
    V_BOARD,
    V_BUTTON,
    V_CALL,
    V_FOLDED,
    V_HAND_NO,
    V_HOLE,
    V_KINDS,
    V_MATCH_NO,
    V_MAX_TO,
    V_MIN_TO,
    V_N,
    V_NBOARD,
    V_POT,
    V_RAISES,
    V_RAISES_ROUND,
    V_SEAT,
    V_STACKS,
    V_STREET,
    VLEN,
)
from pokerarena.engine.fastholdem.params import (
    P_ANTES,
    P_BLINDS,
    P_CAP,
    P_CAP_PP,
    P_CHECK,
    P_CHECK_RAISE,
    P_CUMULATIVE,
    P_FREE_FOLD,
    P_HALF_BET,
    P_LIVE_ANTE,
    P_N,
    P_OPEN_MIN,
    P_PLAIN,
    P_SIZE,
    P_STACKS,
    P_START,
    P_SYS,
)
from pokerarena.engine.fastholdem.settle import settle
from pokerarena.engine.steps import SYS_FIXED, SYS_NO

_BOARD_AT = (0, 3, 1, 1)  # board cards dealt before betting round r


@njit(cache=True)
def forced_raises(bets, n, size):  # pragma: no cover - jit
    """The engine's ``_forced_raises``: the bets and raises the forced bets make (each
    distinct level at least ``size`` above the last one counted)."""
    count = 0
    level = 0
    prev = -1
    while True:
        b = -1
        for p in range(n):  # the next distinct bet above ``prev``
            if bets[p] > prev and (b < 0 or bets[p] < b):
                b = bets[p]
        if b < 0:
            return count
        prev = b
        if b > 0 and b - level >= size:
            count += 1
            level = b


@njit(cache=True, inline="always")
def legalized(kind, amount, kinds, lo, hi):  # pragma: no cover - jit
    """A policy's answer made legal as :func:`pokerarena.bots.base.legalize` does: a
    raise clamped into the range (or a call when no raise is allowed), a fold with
    nothing to call a check, a check where checking is not allowed a fold."""
    if kind == L_RAISE:
        if kinds & K_RAISE:
            return L_RAISE, min(hi, max(lo, amount))
        return L_CALL, 0
    if kind == L_FOLD:
        return (L_FOLD, 0) if kinds & K_FOLD else (L_CALL, 0)
    if kind != L_CALL:
        raise ValueError("a policy answered a kind that is not f, cc or cbr")
    if kinds & K_CALL:
        return L_CALL, 0
    if kinds & K_FOLD:
        return L_FOLD, 0
    return L_RAISE, lo


@njit(cache=True, inline="always")
def raise_range(p, n, P, r, cur, bet_sz, min_raise, nraises, stack, bets, folded,
                can_raise, raises_by, checked, pot):  # pragma: no cover - jit
    """The engine's ``_raise_range`` (and its no-limit/pot-limit fast path in
    ``_legal_bet``): (min_to, max_to) of a cbr by ``p``, (0, 0) when none is allowed."""
    st = stack[p]
    to_call = cur - bets[p]
    if st <= to_call or not can_raise[p]:
        return 0, 0
    others = False
    for q in range(n):  # someone must be able to call a raise
        if q != p and stack[q] > 0 and not folded[q] and bets[q] + stack[q] > cur:
            others = True
            break
    if not others:
        return 0, 0
    if not P[P_PLAIN]:
        if P[P_CAP] >= 0 and nraises >= P[P_CAP] + 1:
            return 0, 0
        if P[P_CAP_PP] >= 0 and raises_by[p] >= P[P_CAP_PP]:
            return 0, 0
    if not P[P_CHECK_RAISE + r] and checked[p]:
        return 0, 0
    total = bets[p] + st
    sysc = P[P_SYS]
    if sysc == SYS_FIXED:
        lo = bet_sz if (nraises == 0 and cur < bet_sz) else cur + bet_sz
        hi = lo
    else:
        base = P[P_OPEN_MIN]
        lo = base if (nraises == 0 and 0 < cur < base) else cur + min_raise
        hi = total if sysc == SYS_NO else cur + pot + to_call
    if hi < lo:
        hi = lo
    if lo > total:
        lo = total
    if hi > total:
        hi = total
    return lo, hi


@njit(cache=True)
def play_hands(P, decks, match_no, BS, decide, end_hand, o_button, o_nboard, o_board,
               o_hole, o_pot, o_showdown, o_decisions, o_deltas, o_stacks, o_won, o_folded,
               o_in_showdown, o_high, o_npots, o_pot_amount, o_pot_eligible, o_pot_won,
               o_log_start, l_actor, l_kind, l_amount, l_ncards, l_cards, l_target,
               l_street, ck, flush, sh7, off7, val7):  # pragma: no cover - jit
    """Play ``decks.shape[0]`` hands (hand ``h``: button ``h % n``, seat ``s`` starting
    with ``P[P_STACKS + s]``), asking ``decide(BS, V)`` at each decision and telling every seat
    ``end_hand(BS, seat, l_actor, l_kind, start, stop)`` after each hand; fills the
    ``o_*`` (:class:`~.arrays.HandArrays`) and ``l_*`` (the log) arrays. Returns the
    log's length, or -1 when the log arrays have no room left. It is long because the
    hand's state lives in its locals: the engine's ``_advance``, ``_start_bet``,
    ``_apply_bet`` and ``_end_round`` are written out in one loop."""
    n = P[P_N]
    sysc = P[P_SYS]
    room = l_actor.shape[0]
    seat_of = np.zeros(MAXN, np.int64)
    stack = np.zeros(MAXN, np.int64)
    bets = np.zeros(MAXN, np.int64)
    committed = np.zeros(MAXN, np.int64)
    antes = np.zeros(MAXN, np.int64)
    folded = np.zeros(MAXN, np.bool_)
    need = np.zeros(MAXN, np.bool_)
    can_raise = np.zeros(MAXN, np.bool_)
    checked = np.zeros(MAXN, np.bool_)
    acted_at = np.zeros(MAXN, np.int64)
    raises_by = np.zeros(MAXN, np.int64)
    hraises = np.zeros(MAXN, np.int64)
    hole = np.zeros((MAXN, 2), np.uint8)
    board = np.zeros(5, np.uint8)
    V = np.zeros(VLEN, np.int64)
    work = np.zeros((4 + MAXN, MAXN), np.int64)
    L = 0
    for h in range(decks.shape[0]):
        if room - L < 3 * n + 8:
            return -1
        deck = decks[h]
        button = h % n
        o_button[h] = button
        o_log_start[h] = L
        for p in range(n):
            seat_of[p] = (button + 1 + p) % n
            stack[p] = P[P_STACKS + seat_of[p]]
            bets[p] = 0
            committed[p] = 0
            antes[p] = 0
            folded[p] = False
            hraises[p] = 0
        pot = 0
        live = n
        # _post_forced_bets: the antes, then the blinds, each what the player has at most
        for p in range(n):
            a = P[P_ANTES + p]
            if a:
                a = min(a, stack[p])
                stack[p] -= a
                committed[p] += a
                pot += a
                if P[P_LIVE_ANTE]:
                    bets[p] += a
                else:
                    antes[p] = a
                l_actor[L], l_kind[L], l_amount[L], l_ncards[L] = seat_of[p], L_ANTE, a, 0
                l_target[L], l_street[L] = -1, -1
                L += 1
        for p in range(n):
            b = P[P_BLINDS + p]
            if b:
                b = min(b, stack[p])
                stack[p] -= b
                committed[p] += b
                pot += b
                bets[p] = b
                l_actor[L], l_kind[L], l_amount[L], l_ncards[L] = seat_of[p], L_BLIND, b, 0
                l_target[L], l_street[L] = -1, -1
                L += 1
        # the hole cards: the top two of the stock (its end) to each position in turn
        top = decks.shape[1]
        for p in range(n):
            hole[p, 0] = deck[top - 2]
            hole[p, 1] = deck[top - 1]
            top -= 2
            s = seat_of[p]
            o_hole[h, s, 0] = hole[p, 0]
            o_hole[h, s, 1] = hole[p, 1]
            l_actor[L], l_kind[L], l_amount[L], l_ncards[L] = -1, L_DEAL_HOLE, 0, 2
            l_cards[L, 0] = hole[p, 0]
            l_cards[L, 1] = hole[p, 1]
            l_target[L], l_street[L] = s, -1
            L += 1
        nb = 0
        called = -1
        decisions = 0
        for r in range(4):  # _advance: a deal (after the first round), then a round
            if live == 1:
                break
            k = _BOARD_AT[r]
            if k:
                for j in range(k):
                    board[nb + j] = deck[top - k + j]
                    l_cards[L, j] = deck[top - k + j]
                top -= k
                nb += k
                l_actor[L], l_kind[L], l_amount[L], l_ncards[L] = -1, L_DEAL_BOARD, 0, k
                l_target[L], l_street[L] = -1, -1
                L += 1
            si = 2 * r + 1
            # _start_bet
            bet_sz = P[P_SIZE + r]
            check_ok = P[P_CHECK + r]
            cur = 0
            for p in range(n):
                raises_by[p] = 0
                acted_at[p] = 0
                checked[p] = False
                can_raise[p] = True
                need[p] = not folded[p] and stack[p] > 0
                if bets[p] > cur:
                    cur = bets[p]
            btop = -1
            if cur:
                for p in range(n):
                    if bets[p] == cur:
                        btop = p
                        break
            if sysc == SYS_FIXED:
                min_raise = bet_sz
                nraises = forced_raises(bets, n, bet_sz) if cur else 0
            else:
                min_raise = max(P[P_OPEN_MIN], cur)
                nraises = max(1, forced_raises(bets, n, P[P_OPEN_MIN])) if cur > 0 else 0
            active = 0
            one = -1
            for p in range(n):
                if need[p]:
                    active += 1
                    one = p
            played = not (active == 0 or (active == 1 and bets[one] >= cur))
            actor = -1
            if played:
                q = P[P_START + r]
                for _ in range(n):
                    if need[q]:
                        actor = q
                        break
                    q = q + 1 if q + 1 < n else 0
            raises_round = 0
            while actor >= 0:  # the decisions of the round (_legal_bet, _apply_bet)
                if room - L < 8:
                    return -1
                p = actor
                s = seat_of[p]
                to_call = cur - bets[p]
                call = to_call if to_call < stack[p] else stack[p]
                lo, hi = raise_range(p, n, P, r, cur, bet_sz, min_raise, nraises, stack,
                                     bets, folded, can_raise, raises_by, checked, pot)
                if to_call > 0 or (P[P_FREE_FOLD] and (cur != 0 or check_ok or hi == 0)):
                    kinds = K_FOLD | K_CALL | (K_RAISE if hi else 0)
                elif not check_ok and cur == 0 and hi:
                    kinds = K_FOLD | K_RAISE
                else:
                    kinds = K_CALL | (K_RAISE if hi else 0)
                V[V_SEAT], V[V_N], V[V_BUTTON], V[V_STREET] = s, n, button, si
                V[V_CALL], V[V_MIN_TO], V[V_MAX_TO], V[V_KINDS] = call, lo, hi, kinds
                V[V_POT], V[V_NBOARD] = pot, nb
                for j in range(5):
                    V[V_BOARD + j] = board[j] if j < nb else 0
                V[V_HOLE], V[V_HOLE + 1] = hole[p, 0], hole[p, 1]
                V[V_HAND_NO], V[V_MATCH_NO], V[V_RAISES_ROUND] = h, match_no, raises_round
                for q in range(n):
                    t = seat_of[q]
                    V[V_FOLDED + t] = folded[q]
                    V[V_BETS + t] = bets[q]
                    V[V_STACKS + t] = stack[q]
                    V[V_RAISES + t] = hraises[q]
                kind, amount = decide(BS, V)
                kind, amount = legalized(kind, amount, kinds, lo, hi)
                decisions += 1
                l_actor[L], l_kind[L], l_ncards[L], l_target[L], l_street[L] = s, kind, 0, -1, si
                if kind == L_CALL:
                    if to_call > 0:
                        stack[p] -= call
                        bets[p] += call
                        committed[p] += call
                        pot += call
                    else:
                        checked[p] = True
                    l_amount[L] = call if to_call > 0 else 0
                    need[p] = False
                    can_raise[p] = False
                    acted_at[p] = cur
                elif kind == L_FOLD:
                    folded[p] = True
                    live -= 1
                    need[p] = False
                    l_amount[L] = 0
                else:  # _apply_raise
                    to = amount
                    add = to - bets[p]
                    stack[p] -= add
                    bets[p] = to
                    committed[p] += add
                    pot += add
                    inc = to - cur
                    if sysc == SYS_FIXED:
                        nominal = bet_sz if (nraises == 0 and cur < bet_sz) else cur + bet_sz
                        full_inc = bet_sz
                        full = to >= nominal
                        if (not full and P[P_HALF_BET] and nraises > 0 and stack[p] == 0
                                and 2 * inc >= bet_sz):
                            full = True  # casino: an all-in of half a bet or more raises
                    else:
                        full_inc = min_raise
                        full = inc >= full_inc or (nraises == 0 and cur < P[P_OPEN_MIN] <= to)
                    old = cur
                    cur = to
                    btop = p
                    if full:
                        if sysc != SYS_FIXED and inc > min_raise:
                            min_raise = inc
                        if nraises > 0:
                            raises_by[p] += 1
                        nraises += 1
                        for q in range(n):
                            if q != p and not folded[q] and stack[q] > 0:
                                need[q] = True
                                can_raise[q] = True
                    else:  # a short all-in reopens only for those who had not acted
                        reopen = full_inc if P[P_CUMULATIVE] else 0
                        for q in range(n):
                            if q != p and not folded[q] and stack[q] > 0 and bets[q] < to:
                                need[q] = True
                                if old == 0 or (reopen and to - acted_at[q] >= reopen):
                                    can_raise[q] = True
                    need[p] = False
                    can_raise[p] = False
                    acted_at[p] = to
                    l_amount[L] = to
                    raises_round += 1
                    hraises[p] += 1
                L += 1
                if live == 1:
                    break
                actor = -1  # _next_actor
                q = p
                for _ in range(n):
                    q = q + 1 if q + 1 < n else 0
                    if need[q]:
                        actor = q
                        break
            # _end_round
            if cur > 0 and btop >= 0:
                called = btop
            elif played:
                called = -1
            for p in range(n):
                bets[p] = 0
        o_nboard[h] = nb
        for j in range(nb):
            o_board[h, j] = board[j]
        o_decisions[h] = decisions
        settle(h, P, called, seat_of, stack, committed, antes, folded, hole, board, work,
               ck, flush, sh7, off7, val7, o_pot, o_showdown, o_deltas, o_stacks, o_won,
               o_folded, o_in_showdown, o_high, o_npots, o_pot_amount, o_pot_eligible,
               o_pot_won)
        for s in range(n):
            end_hand(BS, s, l_actor, l_kind, o_log_start[h], L)
    o_log_start[decks.shape[0]] = L
    return L
