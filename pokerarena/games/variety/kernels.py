"""numba kernels of the variety bots: a playing policy, the rest of a deal played out
with it, unseen hands dealt consistently with the play, and the Monte Carlo searches.

A deal's state is a few ``int64`` arrays: ``own[52]`` (the seat holding each card, -1
once played), the trick so far (``tc`` cards, ``tp`` seats, ``tlen``), and per seat the
``plus``/``minus`` points and ``tricks`` taken so far. A contract is its number with
:data:`~.rules.TRUMP`, :data:`~.rules.LOW_WINS` and the point tables of
:mod:`.rules`; the trick's rules are :func:`.rules.strength` compiled, so the kernels
and the game cannot disagree on who takes a trick.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerarena.games.variety.rules import (
    CARD_MINUS,
    CARD_PLUS,
    LOW_WINS,
    TRICK_MINUS,
    TRICK_PLUS,
    TRUMP,
    deal_points,
    strength,
)

_strength = njit(cache=True, inline="always")(strength)
_points = njit(cache=True)(deal_points)
_CP, _CM, _TP, _TM = CARD_PLUS, CARD_MINUS, TRICK_PLUS, TRICK_MINUS
_TRUMP, _LOW = TRUMP, LOW_WINS


# What taking each card is worth under each contract (plus minus minus), what a trick
# itself is worth (contract 1's majority counts as 1 a trick for the policy), and
# whether a contract pays (for tricks or cards) rather than penalises: tables, so the
# policy allocates nothing.
_VAL = CARD_PLUS - CARD_MINUS
_TVAL = TRICK_PLUS - TRICK_MINUS
_TVAL[1] = 1
_POS = (_TVAL * 4 + _VAL.sum(axis=1) / 13.0) > 0


@njit(cache=True)
def policy(own, p, tc, tp, tlen, contract, mate):  # type: ignore[no-untyped-def]
    """The rule bot's card for seat ``p`` (partner ``mate``): leading, its strongest
    card in a contract that pays for tricks or cards, its weakest in one that
    penalises them; following, the card whose likely outcome is best for its pair
    (a winning card holds with a chance that grows with its rank, a losing one gives
    the trick and the card to whoever is winning it), the weakest such card in a
    paying contract and the strongest in a penalising one."""
    trump, low = _TRUMP[contract], _LOW[contract]
    val = _VAL[contract]
    tval = _TVAL[contract]
    pos = _POS[contract]
    led = -1 if tlen == 0 else tc[0] & 3
    has_led = False
    if led >= 0:
        for c in range(52):
            if own[c] == p and (c & 3) == led:
                has_led = True
                break
    best_s = 0
    best_i = 0
    worth = float(tval)
    for i in range(tlen):
        s = _strength(tc[i], led, trump, low)
        if s > best_s:
            best_s, best_i = s, i
        worth += val[tc[i]]
    choice, top = -1, -1e18
    for c in range(52):
        if own[c] != p or (has_led and (c & 3) != led):
            continue
        power = _strength(c, c & 3, trump, low)
        if tlen == 0:
            score = float(power) if pos else -float(power)
        else:
            w = worth + val[c]
            s = _strength(c, led, trump, low)
            if s > best_s:
                if tlen == 3:
                    hold = 1.0
                elif s >= 200 and best_s < 200 and led != trump:
                    hold = 0.9  # a trump on a plain suit
                else:
                    hold = 0.45 + 0.04 * (s % 100)
                score = w * (2 * hold - 1)
            elif tp[best_i] == mate:
                score = w
            else:
                score = -w
            score += (-0.01 if pos else 0.01) * power
        if score > top:
            top, choice = score, c
    return choice


@njit(cache=True)
def settle(tc, tp, contract, plus, minus, tricks):  # type: ignore[no-untyped-def]
    """Give the full trick ``tc``/``tp`` to its taker (his tricks and points); the taker."""
    led = tc[0] & 3
    bi = 0
    bs = _strength(tc[0], led, _TRUMP[contract], _LOW[contract])
    for i in range(1, 4):
        s = _strength(tc[i], led, _TRUMP[contract], _LOW[contract])
        if s > bs:
            bs, bi = s, i
    w = tp[bi]
    tricks[w] += 1
    plus[w] += _TP[contract]
    minus[w] += _TM[contract]
    for i in range(4):
        plus[w] += _CP[contract, tc[i]]
        minus[w] += _CM[contract, tc[i]]
    return w


@njit(cache=True)
def play_out(own, to_act, tc, tp, tlen, plus, minus, tricks, contract, mates):  # type: ignore[no-untyped-def]
    """Play the deal to its end with :func:`policy` for every seat (``mates[s]``: seat
    ``s``'s partner), adding what each seat takes to ``plus``/``minus``/``tricks``.
    Works on the arrays given (the caller passes copies)."""
    left = 0
    for c in range(52):
        if own[c] >= 0:
            left += 1
    p = to_act
    while left > 0:
        c = policy(own, p, tc, tp, tlen, contract, mates[p])
        own[c] = -1
        left -= 1
        tc[tlen] = c
        tp[tlen] = p
        tlen += 1
        if tlen < 4:
            p = (p + 1) % 4
            continue
        tlen = 0
        p = settle(tc, tp, contract, plus, minus, tricks)


@njit(cache=True)
def objective(contract, plus, minus, tricks, attack, own_credit, net, bonus, seat):  # type: ignore[no-untyped-def]
    """Seat ``seat``'s points for the deal less the mean of the other three's: what a
    player who is ranked against the whole table plays for."""
    pts = np.zeros(4, np.int64)
    _points(contract, plus, minus, tricks, attack, own_credit, net, bonus, pts)
    return pts[seat] - (pts.sum() - pts[seat]) / 3.0


@njit(cache=True)
def sample(base, unseen, caps, void, seat):  # type: ignore[no-untyped-def]
    """``base`` (own[52] with the seat's own cards) with the ``unseen`` cards dealt to the
    other seats, ``caps[s]`` each, none to a seat proved void in its suit
    (``void[s, suit]``); after 40 failed tries the voids are ignored."""
    for attempt in range(41):
        own = base.copy()
        left = caps.copy()
        order = np.random.permutation(unseen.size)
        ok = True
        for j in order:
            c = unseen[j]
            total = 0
            for s in range(4):
                if s != seat and left[s] > 0 and (attempt == 40 or not void[s, c & 3]):
                    total += left[s]
            if total == 0:
                ok = False
                break
            r = np.random.randint(0, total)
            for s in range(4):
                if s != seat and left[s] > 0 and (attempt == 40 or not void[s, c & 3]):
                    if r < left[s]:
                        own[c] = s
                        left[s] -= 1
                        break
                    r -= left[s]
        if ok:
            return own
    return base.copy()


@njit(cache=True)
def search_play(seed, base, unseen, caps, void, seat, tc, tp, tlen, plus, minus, tricks,
                contract, mates, attack, own_credit, net, bonus, cands, samples):  # type: ignore[no-untyped-def]
    """Mean :func:`objective` of each candidate card in ``cands`` over ``samples``
    deals of the unseen cards, the rest of the deal played out by :func:`policy`."""
    np.random.seed(seed)
    out = np.zeros(cands.size)
    for _ in range(samples):
        own0 = sample(base, unseen, caps, void, seat)
        for k in range(cands.size):
            own = own0.copy()
            t_c, t_p = tc.copy(), tp.copy()
            pl, mi, tr = plus.copy(), minus.copy(), tricks.copy()
            t_c[tlen] = cands[k]
            t_p[tlen] = seat
            own[cands[k]] = -1
            n = tlen + 1
            if n == 4:  # the candidate ends the trick: settle it, the taker leads
                w = settle(t_c, t_p, contract, pl, mi, tr)
                play_out(own, w, t_c, t_p, 0, pl, mi, tr, contract, mates)
            else:
                play_out(own, (seat + 1) % 4, t_c, t_p, n, pl, mi, tr, contract, mates)
            out[k] += objective(contract, pl, mi, tr, attack, own_credit, net, bonus, seat)
    return out / samples


@njit(cache=True)
def search_bid(seed, base, unseen, seat, contracts, partners, leaders, own_credit, net,
               bonus, samples):  # type: ignore[no-untyped-def]
    """Mean :func:`objective` of attacking with each of ``contracts`` (partner
    ``partners[k]``, first lead ``leaders[k]``) over ``samples`` deals of the other
    hands, played out whole."""
    np.random.seed(seed)
    out = np.zeros(contracts.size)
    caps = np.full(4, 13, np.int64)
    caps[seat] = 0
    void = np.zeros((4, 4), np.bool_)
    for _ in range(samples):
        own0 = sample(base, unseen, caps, void, seat)
        for k in range(contracts.size):
            attack = np.zeros(4, np.int64)
            attack[seat] = 1
            attack[partners[k]] = 1
            mates = np.zeros(4, np.int64)
            for s in range(4):
                for q in range(4):
                    if q != s and attack[q] == attack[s]:
                        mates[s] = q
            pl = np.zeros(4, np.int64)
            mi = np.zeros(4, np.int64)
            tr = np.zeros(4, np.int64)
            play_out(own0.copy(), leaders[k], np.zeros(4, np.int64), np.zeros(4, np.int64), 0,
                     pl, mi, tr, contracts[k], mates)
            out[k] += objective(contracts[k], pl, mi, tr, attack, own_credit, net, bonus, seat)
    return out / samples
