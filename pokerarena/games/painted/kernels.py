"""numba kernels of the painted-poker bots: the rules of the trick over arrays, a playing
policy, dealing the unseen cards consistently with the play, and the Monte Carlo search.

A deal's state is a few ``int64`` arrays: ``own[54]`` (the seat holding each card code,
-1 for none), ``cnt[n]`` (cards in each hand), ``taken[n]``, ``target[n]`` (each seat's
bid; 99 in a golden deal, 0 in a misère: take everything, take nothing) and the trick
so far (``tc`` cards, ``tm`` joker modes, ``ts`` called suits, ``tp`` seats, ``tlen``).
Joker modes: 0 an ordinary card, 1 high, 2 low, 3 high trumps (as in :mod:`.actions`).
The kernels mirror :func:`~.deal.legal_plays` and :func:`~.deal.trick_winner`; a test
checks that they agree on random positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerarena.games.painted.rules import deal_points

M_PLAIN, M_HIGH, M_LOW, M_TRUMPS = 0, 1, 2, 3
MAX_LEGAL = 64

_points = njit(cache=True)(deal_points)


@njit(cache=True)
def power(c: int, trump: int) -> int:
    """A card's strength for the policy: jokers, then trumps, then by rank."""
    if c >= 52:
        return 40
    return (c >> 2) + (20 if (c & 3) == trump else 0)


@njit(cache=True)
def legal(own, p, tc0, tm0, ts0, tlen, trump, must, called, lc, lm, ls):  # type: ignore[no-untyped-def]
    """Seat ``p``'s legal plays into ``lc``/``lm``/``ls``; returns how many. ``called``:
    a joker leading must name a call (option ``joker_call = required``)."""
    k = 0
    joker = -1
    if own[52] == p:
        joker = 52
    elif own[53] == p:
        joker = 53
    if tlen == 0:
        for c in range(52):
            if own[c] == p:
                lc[k], lm[k], ls[k] = c, M_PLAIN, -1
                k += 1
        if joker >= 0:
            for s in range(4):
                if s != trump:
                    lc[k], lm[k], ls[k] = joker, M_HIGH, s
                    k += 1
            if trump >= 0:
                lc[k], lm[k], ls[k] = joker, M_TRUMPS, -1
                k += 1
            for s in range(4):
                lc[k], lm[k], ls[k] = joker, M_LOW, s
                k += 1
            if not called:
                lc[k], lm[k], ls[k] = joker, M_HIGH, -1
                lc[k + 1], lm[k + 1], ls[k + 1] = joker, M_LOW, -1
                k += 2
        return k
    need = 0
    suit = tc0 & 3
    free = False
    if tc0 >= 52:
        need = tm0
        suit = trump if tm0 == M_TRUMPS else ts0
        free = tm0 != M_TRUMPS and ts0 < 0
    n_same, n_tr, hi_same, lo_same, hi_tr = 0, 0, -1, -1, -1
    for c in range(52):
        if own[c] == p:
            if (c & 3) == suit:
                n_same += 1
                if hi_same < 0 or c > hi_same:
                    hi_same = c
                if lo_same < 0 or c < lo_same:
                    lo_same = c
            if trump >= 0 and (c & 3) == trump:
                n_tr += 1
                hi_tr = c
    for c in range(52):
        if own[c] != p:
            continue
        s = c & 3
        if free:
            ok = True
        elif need == M_TRUMPS:
            ok = c == hi_tr if n_tr > 0 else True
        elif n_same > 0:
            if need == M_HIGH:
                ok = c == hi_same
            elif need == M_LOW:
                ok = c == lo_same
            else:
                ok = s == suit
        elif n_tr > 0 and (must or need != M_PLAIN):
            ok = s == trump
        else:
            ok = True
        if ok:
            lc[k], lm[k], ls[k] = c, M_PLAIN, -1
            k += 1
    if joker >= 0:
        lc[k], lm[k], ls[k] = joker, M_HIGH, -1
        lc[k + 1], lm[k + 1], ls[k + 1] = joker, M_LOW, -1
        k += 2
    return k


@njit(cache=True)
def winner(tc, tm, ts, tp, tlen, trump):  # type: ignore[no-untyped-def]
    """The seat that takes the trick of ``tlen`` plays."""
    w = -1
    for i in range(tlen):
        if tc[i] >= 52 and (tm[i] == M_HIGH or tm[i] == M_TRUMPS):
            w = tp[i]
    if w >= 0:
        return w
    led = ts[0] if tc[0] >= 52 else tc[0] & 3
    if led < 0:  # a joker led without a call: the first ordinary card sets the suit
        for i in range(tlen):
            if tc[i] < 52:
                led = tc[i] & 3
                break
    best, bk = tp[0], -1
    for i in range(tlen):
        c = tc[i]
        if c >= 52:
            continue
        if trump >= 0 and (c & 3) == trump:
            key = 100 + (c >> 2)
        elif (c & 3) == led:
            key = c >> 2
        else:
            continue
        if key > bk:
            bk, best = key, tp[i]
    return best


@njit(cache=True)
def _lead_choice(own, p, need, cnt, trump, lc, lm, ls, k):  # type: ignore[no-untyped-def]
    """Leading: the strongest card (or the joker, high) to take, the weakest to duck."""
    bi, bp, wi, wp, ji, li = -1, -1, -1, 99, -1, -1
    for i in range(k):
        if lc[i] >= 52:
            if lm[i] == M_TRUMPS or (ji < 0 and lm[i] == M_HIGH):
                ji = i
            if li < 0 and lm[i] == M_LOW:
                li = i
            continue
        pw = power(lc[i], trump)
        if pw > bp:
            bp, bi = pw, i
        if pw < wp:
            wp, wi = pw, i
    if need > 0:
        if ji >= 0 and (bi < 0 or need >= cnt[p] or bp < 12):
            return ji
        return bi
    return wi if wi >= 0 else li


@njit(cache=True)
def policy(own, p, cnt, taken, target, tc, tm, ts, tp, tlen, n, trump, lc, lm, ls, k):  # type: ignore[no-untyped-def]
    """The rule bot's play: take a trick while short of the bid (cheaply when last),
    duck with the highest losing card once the bid is made."""
    need = target[p] - taken[p]
    if tlen == 0:
        return _lead_choice(own, p, need, cnt, trump, lc, lm, ls, k)
    last = tlen == n - 1
    wb, wbp, ww, wwp, lb, lbp, lw, lwp, jh, jl = -1, -1, -1, 99, -1, -1, -1, 99, -1, -1
    for i in range(k):
        if lc[i] >= 52:
            if lm[i] == M_HIGH:
                jh = i
            else:
                jl = i
            continue
        tc[tlen], tm[tlen], ts[tlen], tp[tlen] = lc[i], M_PLAIN, -1, p
        wins = winner(tc, tm, ts, tp, tlen + 1, trump) == p
        pw = power(lc[i], trump)
        if wins:
            if pw > wbp:
                wbp, wb = pw, i
            if pw < wwp:
                wwp, ww = pw, i
        else:
            if pw > lbp:
                lbp, lb = pw, i
            if pw < lwp:
                lwp, lw = pw, i
    if need > 0:
        if wb >= 0:
            return ww if last else wb
        if jh >= 0:
            return jh
        return lw if lw >= 0 else jl
    if lb >= 0:
        return lb
    if jl >= 0:
        return jl
    return wb


@njit(cache=True)
def estimate(own, p, trump, low):  # type: ignore[no-untyped-def]
    """Tricks a hand should take: jokers and high trumps, aces and guarded kings."""
    length = np.zeros(4, np.int64)
    for c in range(52):
        if own[c] == p:
            length[c & 3] += 1
    e = 0.0
    for c in range(54):
        if own[c] != p:
            continue
        if c >= 52:
            e += 1.0
            continue
        s, r = c & 3, c >> 2
        if trump >= 0 and s == trump:
            e += 0.3 + 0.7 * (r - low) / (12 - low)
        elif r == 12:
            e += 0.9 if (trump < 0 or length[s] <= 3) else 0.6
        elif r == 11 and length[s] >= 2:
            e += 0.5 if (trump < 0 or length[s] <= 3) else 0.2
        elif trump < 0 and r == 10 and length[s] >= 3:
            e += 0.25
    return e


@njit(cache=True)
def put(own, cnt, taken, tc, tm, ts, tp, tlen, who, c, m, s, n, trump):  # type: ignore[no-untyped-def]
    """Seat ``who`` plays card ``c`` (mode ``m``, called suit ``s``); a full trick goes to
    its winner, who leads next. Returns the trick's new length and the seat to act."""
    own[c] = -1
    cnt[who] -= 1
    tc[tlen], tm[tlen], ts[tlen], tp[tlen] = c, m, s, who
    tlen += 1
    if tlen < n:
        return tlen, (who + 1) % n
    w = winner(tc, tm, ts, tp, tlen, trump)
    taken[w] += 1
    return 0, w


@njit(cache=True)
def playout(own, cnt, taken, target, tc, tm, ts, tp, tlen, actor, n, trump, must,
            called, lc, lm, ls):  # type: ignore[no-untyped-def]
    """Play the deal to its end with :func:`policy` for every seat (arrays in place;
    ``lc``/``lm``/``ls``: scratch for the legal plays)."""
    while True:
        if tlen == 0 and cnt[actor] == 0:
            return
        k = legal(own, actor, tc[0], tm[0], ts[0], tlen, trump, must, called, lc, lm, ls)
        i = policy(own, actor, cnt, taken, target, tc, tm, ts, tp, tlen, n, trump,
                   lc, lm, ls, k)
        tlen, actor = put(own, cnt, taken, tc, tm, ts, tp, tlen, actor, lc[i], lm[i],
                          ls[i], n, trump)


@njit(cache=True)
def _eligible(c, q, lo, hi):  # type: ignore[no-untyped-def]
    if c >= 52:
        return True
    r = c >> 2
    return lo[q, c & 3] <= r <= hi[q, c & 3]


@njit(cache=True)
def sample(own, unseen, caps, lo, hi, strict):  # type: ignore[no-untyped-def]
    """Deal the ``unseen`` cards into ``own`` (seats 0..n-1, the stock as seat n, each up
    to ``caps``), the rank ranges ``lo``/``hi`` per seat and suit respected when
    ``strict`` (a void: lo > hi); False when this try failed."""
    m = unseen.shape[0]
    places = caps.shape[0]
    rem = caps.copy()
    elig = np.zeros(m, np.int64)
    for j in range(m):
        for q in range(places):
            if caps[q] > 0 and (not strict or _eligible(unseen[j], q, lo, hi)):
                elig[j] += 1
    keys = elig * 4096 + np.random.randint(0, 4096, m)
    for j in np.argsort(keys):
        c = unseen[j]
        total = 0
        for q in range(places):
            if rem[q] > 0 and (not strict or _eligible(c, q, lo, hi)):
                total += rem[q]
        if total == 0:
            return False
        x = np.random.randint(0, total)
        for q in range(places):
            if rem[q] > 0 and (not strict or _eligible(c, q, lo, hi)):
                x -= rem[q]
                if x < 0:
                    own[c] = q if q < places - 1 else -1
                    rem[q] -= 1
                    break
    return True


@njit(cache=True)
def _dealt(base, unseen, caps, lo, hi):  # type: ignore[no-untyped-def]
    """One consistent deal of the unseen cards over ``base`` (the known owners)."""
    own = base.copy()
    for _ in range(40):
        if sample(own, unseen, caps, lo, hi, True):
            return own
        own[:] = base
    sample(own, unseen, caps, lo, hi, False)
    return own


@njit(cache=True)
def search(seed, root, n, trump, must, called, rules, base, unseen, caps, lo, hi, cnt, taken,
           target, later, tc, tm, ts, tp, tlen, actor, cand_c, cand_m, cand_s, bids,
           samples):  # type: ignore[no-untyped-def]
    """The mean points of seat ``root`` for each candidate: a bid (``bids`` not empty:
    the deal played from its first lead, the seats in ``later`` bidding what
    :func:`estimate` says), or a play (``cand_*``: applied, then played out). ``rules``:
    kind, cards, first-or-last, tariff x2, whole-hand double, misère bonus, low rank."""
    np.random.seed(seed)
    nb = bids.shape[0]
    nc = nb if nb > 0 else cand_c.shape[0]
    out = np.zeros(nc, np.float64)
    kind, cards, fol, tariff = rules[0], rules[1], rules[2] == 1, rules[3] / 2.0
    own, c, tk, tg = base.copy(), cnt.copy(), taken.copy(), target.copy()
    xc, xm, xs, xp = tc.copy(), tm.copy(), ts.copy(), tp.copy()
    lc, lm, ls = np.empty(MAX_LEGAL, np.int64), np.empty(MAX_LEGAL, np.int64), \
        np.empty(MAX_LEGAL, np.int64)
    for _ in range(samples):
        own0 = _dealt(base, unseen, caps, lo, hi)
        tg0 = target.copy()
        for q in range(n):
            if later[q]:
                tg0[q] = int(estimate(own0, q, trump, rules[6]) + 0.5)
        for i in range(nc):
            own[:], c[:], tk[:], tg[:] = own0, cnt, taken, tg0
            xc[:], xm[:], xs[:], xp[:] = tc, tm, ts, tp
            ln, who = tlen, actor
            if nb > 0:
                tg[root] = bids[i]
            else:
                ln, who = put(own, c, tk, xc, xm, xs, xp, ln, root, cand_c[i], cand_m[i],
                              cand_s[i], n, trump)
            playout(own, c, tk, tg, xc, xm, xs, xp, ln, who, n, trump, must, called,
                    lc, lm, ls)
            out[i] += _points(kind, tg[root], tk[root], cards, fol, tariff, rules[4] == 1,
                              rules[5])
    return out / samples
