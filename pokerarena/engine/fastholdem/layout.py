"""The shared layout of the fast hold'em table: what its kernel hands a bot's policy at
a decision, and how it logs a hand.

The fast table plays whole units of hold'em with the built-in bots inside compiled code
(the reference engine, the views and the fault guard cost more than the bots' thinking).
Three parts meet here and nowhere else: the rules kernel (:mod:`.kernel`, engine layer),
the bots' compiled policies (:mod:`pokerarena.bots.strength.fastpolicy`, bots layer:
the kernel gets them as function arguments, so nothing imports upwards) and the rows
built from the kernel's arrays (:mod:`pokerarena.workers.fastrecord`). Every figure must
be the reference path's exactly: the same cards, the same decisions, the same rows.

**Decision view** ``V`` (int64 array of :data:`VLEN`), one per decision, the
:class:`~pokerarena.bots.seat_view.SeatView` fields the strength bots read:
``V[V_SEAT]`` the seat to act, ``V_N`` seats, ``V_BUTTON``, ``V_STREET`` (the view's
``street``: the variant's street index), ``V_CALL`` (``legal.call``), ``V_MIN_TO`` and
``V_MAX_TO`` (``legal.min_to``/``max_to``), ``V_KINDS`` (bits :data:`K_FOLD`,
:data:`K_CALL`, :data:`K_RAISE` of ``legal.kinds``), ``V_POT`` (``view.pot``: every chip
committed, this round's bets included), ``V_NBOARD`` and ``V_BOARD`` .. +4 (the board
so far), ``V_HOLE`` and +1 (the seat's two cards, in the order dealt), ``V_HAND_NO`` and
``V_MATCH_NO``, ``V_RAISES_ROUND`` (``cbr`` entries of the log since its last dealer
entry), then four blocks of :data:`MAXN` by seat: ``V_FOLDED`` (0/1), ``V_BETS`` (this
round), ``V_STACKS`` (chips behind) and ``V_RAISES`` (each seat's ``cbr`` entries this
hand).

A policy is ``decide(BS, V) -> (kind, amount)`` (``kind`` one of :data:`L_FOLD`,
:data:`L_CALL`, :data:`L_RAISE`; ``amount`` the raise's total this round, else 0) and
``end_hand(BS, seat, actor, kind, start, stop)`` (the hand's log entries
``start..stop`` of the unit's log arrays, for bots that learn from a hand); ``BS`` is the
policy's own state (a tuple of arrays: every seat's bot), opaque to the kernel.

**Log** (one entry per entry of the reference hand's ``log``, in its order): ``actor``
(seat, or -1 for the dealer), ``kind`` (an ``L_*`` code), ``amount`` (the logged
action's ``amount``), ``ncards`` and ``cards`` (up to 5), ``target`` (a ``dh``'s seat,
else -1), ``street`` (a decision's view street; -1 for entries that are not decisions).
"""

from __future__ import annotations

MAXN = 10  # seats at most
MAXP = MAXN  # pots at most (a main pot and its side pots)

# the decision view
V_SEAT = 0
V_N = 1
V_BUTTON = 2
V_STREET = 3
V_CALL = 4
V_MIN_TO = 5
V_MAX_TO = 6
V_KINDS = 7
V_POT = 8
V_NBOARD = 9
V_BOARD = 10  # .. 14
V_HOLE = 15  # and 16
V_HAND_NO = 17
V_MATCH_NO = 18
V_RAISES_ROUND = 19
V_FOLDED = 24
V_BETS = V_FOLDED + MAXN
V_STACKS = V_BETS + MAXN
V_RAISES = V_STACKS + MAXN
VLEN = V_RAISES + MAXN

# bits of V[V_KINDS]
K_FOLD = 1
K_CALL = 2
K_RAISE = 4

# log kinds (the reference log's ``Action.kind``)
L_BLIND = 0  # "blind"
L_DEAL_HOLE = 1  # "dh"
L_DEAL_BOARD = 2  # "db"
L_FOLD = 3  # "f"
L_CALL = 4  # "cc"
L_RAISE = 5  # "cbr"
L_ANTE = 6  # an ante, if the game posts one
KIND_NAMES = ("blind", "dh", "db", "f", "cc", "cbr", "ante")
