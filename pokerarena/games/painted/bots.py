"""The built-in painted-poker bots: ``random`` (any legal action), ``rule`` (bids its high
cards and trumps, plays to make the bid exactly) and ``sim`` (bids and plays by Monte
Carlo: the unseen cards dealt again and again consistently with the play so far, each
candidate played out with the rule bot's policy for every seat).

A bot answers ``act(view) -> PaintedAction`` for a :class:`~.view.PaintedView`; the
state it hands the kernels (:mod:`.kernels`) is built from the view alone.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from pokerarena.cards import JOKERS
from pokerarena.games.family_bot import BiddingBot, Option, UniformBot, bot_table, make_family_bot
from pokerarena.games.painted import kernels as k
from pokerarena.games.painted.actions import BID, HIGH, LOW, TRUMPS, PaintedAction
from pokerarena.games.painted.deal import requirement
from pokerarena.games.painted.rules import (
    GOLDEN,
    KIND_CODES,
    MISERE,
    PaintedError,
    PaintedOptions,
    deck_cards,
)
from pokerarena.games.painted.view import PaintedView

_MODE_CODE = {"": k.M_PLAIN, HIGH: k.M_HIGH, LOW: k.M_LOW, TRUMPS: k.M_TRUMPS}
_MODE_NAME = {v: name for name, v in _MODE_CODE.items()}


class PaintedBot(BiddingBot[PaintedView, PaintedAction]):
    """A painted-poker bot: :class:`~pokerarena.games.family_bot.BiddingBot` (each deal
    has its bids, then its tricks), with :class:`PaintedError` for a bad option."""

    family, error = "painted", PaintedError


class RandomBot(UniformBot[PaintedView, PaintedAction], PaintedBot):
    """Uniform over the legal bids and cards."""


# the state of a view as kernel arrays ------------------------------------------------------
@cache
def _deck(options: PaintedOptions) -> tuple[int, ...]:
    return tuple(deck_cards(options))


def _targets(view: PaintedView) -> np.ndarray:
    """Each seat's aim: its bid; everything in a golden deal, nothing in a misère."""
    if view.kind == GOLDEN:
        return np.full(view.players, 99, np.int64)
    if view.kind == MISERE:
        return np.zeros(view.players, np.int64)
    return np.array([max(b, 0) for b in view.bids], np.int64)


def _trick_arrays(view: PaintedView) -> tuple[np.ndarray, ...]:
    n = view.players
    arrays = [np.full(n + 1, -1, np.int64) for _ in range(4)]
    for i, (seat, a) in enumerate(view.trick):
        arrays[0][i], arrays[1][i] = a.card, _MODE_CODE[a.joker]
        arrays[2][i], arrays[3][i] = a.suit, seat
    return tuple(arrays)


def _own(view: PaintedView) -> np.ndarray:
    own = np.full(54, -1, np.int64)
    for c in view.hand:
        own[c] = view.seat
    return own


def _action(c: int, m: int, s: int) -> PaintedAction:
    return PaintedAction("play", 0, int(c), _MODE_NAME[int(m)], int(s))


def _low_rank(view: PaintedView) -> int:
    return 4 if view.options.deck == 36 else 0


def nearest_bid(estimate: float, legal: tuple[PaintedAction, ...]) -> PaintedAction:
    """The legal bid closest to ``estimate`` (the lower on a tie)."""
    return min(legal, key=lambda a: (abs(a.bid - estimate), a.bid))


class RuleBot(PaintedBot):
    """Bids the tricks its jokers, trumps, aces and guarded kings should take (a fair
    share of the cards in a blind deal); plays to make the bid exactly: takes tricks
    while short (cheaply when last to play), ducks with its highest losing card once
    the bid is made (:func:`.kernels.policy`)."""

    name = "rule"
    description = "bids its high cards and trumps, plays to make the bid exactly"

    def bid(self, view: PaintedView) -> PaintedAction:
        if view.hand_hidden:
            return nearest_bid(view.cards / view.players, view.legal)
        e = k.estimate(_own(view), view.seat, view.trump, _low_rank(view))
        return nearest_bid(float(e), view.legal)

    def play(self, view: PaintedView) -> PaintedAction:
        own = _own(view)
        tc, tm, ts, tp = _trick_arrays(view)
        lc, lm, ls = (np.empty(k.MAX_LEGAL, np.int64) for _ in range(3))
        cnt = np.array(view.hand_sizes, np.int64)
        n_legal = k.legal(own, view.seat, tc[0], tm[0], ts[0], len(view.trick), view.trump,
                          view.options.must_trump, view.options.joker_call == "required",
                          lc, lm, ls)
        i = k.policy(own, view.seat, cnt, np.array(view.taken, np.int64), _targets(view),
                     tc, tm, ts, tp, len(view.trick), view.players, view.trump,
                     lc, lm, ls, n_legal)
        choice = _action(lc[i], lm[i], ls[i])
        return choice if choice in view.legal else view.legal[0]


def constraints(view: PaintedView) -> tuple[np.ndarray, np.ndarray]:
    """Rank ranges (``lo``, ``hi`` per seat and suit; lo > hi: void) that the play so far
    proves: a seat that did not follow is void in the suit (and in trumps when it did
    not trump either, though it had to); a seat that played its highest (lowest) card
    of a suit on a joker's call holds none above (below) it."""
    n = view.players
    lo = np.zeros((n + 1, 4), np.int64)
    hi = np.full((n + 1, 4), 12, np.int64)
    tricks = [p for p, _ in view.tricks] + [view.trick]
    for plays in tricks:
        if not plays:
            continue
        need, suit = requirement(plays[0][1], view.trump)
        if need == "any":  # a joker led without a call: no suit to follow, nothing proved
            continue
        for seat, a in plays[1:]:
            c = a.card
            if c in JOKERS:
                continue
            s, r = c & 3, c >> 2
            if s == suit and need in ("highest", "highest_trump"):
                hi[seat, s] = min(hi[seat, s], r - 1)
            elif s == suit and need == "lowest":
                lo[seat, s] = max(lo[seat, s], r + 1)
            elif s != suit:
                lo[seat, suit] = 13
                trumping = view.options.must_trump or need != "follow"
                if view.trump >= 0 and s != view.trump and trumping:
                    lo[seat, view.trump] = 13
    return lo, hi


class SimBot(PaintedBot):
    """Monte Carlo over the unseen cards (``samples`` deals per decision, dealt
    consistently with the voids and the joker calls seen so far): each legal bid or
    card is played out with :func:`.kernels.policy` for every seat and the one with the
    best mean points is chosen. Seats still to bid are given the bid
    :func:`.kernels.estimate` makes of their sampled hand."""

    name = "sim"
    description = "Monte Carlo over the unseen cards, each choice played out by the rule policy"

    samples = Option(24, least=1)
    bid_samples = Option(64, least=1)
    bid_window = Option(2.5)

    def bid(self, view: PaintedView) -> PaintedAction:
        cands = self._bids_to_try(view)
        none = np.zeros(0, np.int64)
        return self._best(view, cands, np.array([a.bid for a in cands], np.int64),
                          (none, none, none), self.bid_samples)

    def play(self, view: PaintedView) -> PaintedAction:
        cands = list(view.legal)
        cand = (np.array([a.card for a in cands], np.int64),
                np.array([_MODE_CODE[a.joker] for a in cands], np.int64),
                np.array([a.suit for a in cands], np.int64))
        return self._best(view, cands, np.zeros(0, np.int64), cand, self.samples)

    def _best(self, view: PaintedView, cands: list[PaintedAction], bids: np.ndarray,
              cand: tuple[np.ndarray, ...], samples: int) -> PaintedAction:
        """The candidate (bids ``bids``, or cards ``cand``) with the best mean points over
        ``samples`` play-outs (:func:`.kernels.search`)."""
        means = k.search(self.rng.randrange(2**31), view.seat,  # type: ignore[call-arg]
                         view.players, view.trump, view.options.must_trump,
                         view.options.joker_call == "required", *self._state(view), *cand,
                         bids, samples)
        return cands[int(np.argmax(means))]

    def _bids_to_try(self, view: PaintedView) -> list[PaintedAction]:
        """The legal bids within ``bid_window`` of the rule estimate (the nearest one
        always): a bid far from what the hand holds is never the best, and each bid
        tried costs a playout per sample."""
        if view.hand_hidden:
            e = view.cards / view.players
        else:
            e = float(k.estimate(_own(view), view.seat, view.trump, _low_rank(view)))
        near = [a for a in view.legal if abs(a.bid - e) <= self.bid_window]
        return near or [nearest_bid(e, view.legal)]

    def _state(self, view: PaintedView) -> tuple[Any, ...]:
        """The kernel's arguments from ``rules`` to ``actor`` (see :func:`.kernels.search`)."""
        n, seat = view.players, view.seat
        o = view.options
        deck = _deck(o)
        base = _own(view)
        played = {a.card for p, _ in view.tricks for _, a in p} | {a.card for _, a in view.trick}
        caps = np.zeros(n + 1, np.int64)
        caps[:n] = view.hand_sizes
        if not view.hand_hidden:
            caps[seat] = 0
        for q, c in view.shown.items():
            if q != seat and c not in played:
                base[c] = q
                caps[q] -= 1
        in_stock = view.cards * n < len(deck) and view.trump_card >= 0
        known = set(view.hand) | played | {c for c in view.shown.values()}
        if in_stock:
            known.add(view.trump_card)
        unseen = np.array([c for c in deck if c not in known], np.int64)
        caps[n] = len(unseen) - int(caps[:n].sum())
        lo, hi = constraints(view)
        bidding = view.legal[0].kind == BID
        later = np.zeros(n, np.int64)
        if bidding:
            for q in range(n):
                later[q] = 1 if (view.bids[q] < 0 and q != seat) else 0
        rules = np.array([KIND_CODES[view.kind], view.cards,
                          int(view.first_or_last), int(o.tariff * 2),
                          int(o.whole_hand_double), o.misere_bonus, _low_rank(view)], np.int64)
        tc, tm, ts, tp = _trick_arrays(view)
        return (rules, base, unseen, caps, lo, hi, np.array(view.hand_sizes, np.int64),
                np.array(view.taken, np.int64), _targets(view), later, tc, tm, ts, tp,
                len(view.trick), view.to_act)


BOTS: dict[str, type[PaintedBot]] = bot_table(RandomBot, RuleBot, SimBot)


def make_bot(name: str, seed: int | None = None, **options: Any) -> PaintedBot:
    """The built-in bot ``name`` (one of :data:`BOTS`) with ``options``; an unknown
    one is a :class:`PaintedError`."""
    return make_family_bot("painted", BOTS, PaintedError, name, seed, **options)
