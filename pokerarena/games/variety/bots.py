"""The built-in variety bots: ``random`` (any legal action), ``rule`` (bids the contract
its cards suit best, plays by a simple policy for its pair) and ``sim`` (bids and plays
by Monte Carlo: the unseen cards dealt again and again consistently with the play so
far, each choice played out to the end of the deal with the rule policy for every seat).

A bot answers ``act(view) -> VarietyAction`` for a :class:`~.view.VarietyView` and plays
for its points less the mean of the other three's (the table ranks by points); the
state it hands the kernels (:mod:`.kernels`) is built from the view alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerarena.games.family_bot import BiddingBot, Option, UniformBot, bot_table, make_family_bot
from pokerarena.games.variety import kernels as k
from pokerarena.games.variety.actions import VarietyAction
from pokerarena.games.variety.rules import (
    CARD_MINUS,
    CARD_PLUS,
    LOW_WINS,
    TRICK_MINUS,
    TRICK_PLUS,
    TRUMP,
    VarietyError,
)
from pokerarena.games.variety.view import VarietyView


class VarietyBot(BiddingBot[VarietyView, VarietyAction]):
    """A variety bot: :class:`~pokerarena.games.family_bot.BiddingBot` (each deal's
    bids make the pairs and name the contract, then the tricks are played), with
    :class:`VarietyError` for a bad option. Its game is a whole tour of eight deals."""

    family, error = "variety", VarietyError


class RandomBot(UniformBot[VarietyView, VarietyAction], VarietyBot):
    """Uniform over the legal bids and cards."""


def expected_tricks(hand: tuple[int, ...], trump: int, low: bool) -> float:
    """A count of the tricks ``hand`` should take with ``trump`` (-1: none), the lowest
    card taking in a ``low`` contract: aces, guarded kings and queens, long trumps."""
    e = 0.0
    for s in range(4):
        ranks = {(12 - (c >> 2)) if low else (c >> 2) for c in hand if c & 3 == s}
        n = len(ranks)
        e += (1.0 if 12 in ranks else 0.0) + (0.7 if n >= 2 else 0.2) * (11 in ranks)
        e += (0.4 if n >= 3 else 0.1) * (10 in ranks)
        if s == trump:
            e += 0.9 * max(0, n - 3)
        elif trump < 0:
            e += 0.4 * max(0, n - 4)
    return e


# contract -> points of the pair's advantage per trick above the count of an average hand
_PER_TRICK = {1: 3.0, 2: 4.0, 3: 4.0, 4: 0.5, 5: 1.0, 6: 2.0, 7: -2.0, 8: -4.0}
# the mean of :func:`expected_tricks` over random hands: without trumps, with trumps
_AVERAGE = {True: 2.45, False: 2.65}


def bid_values(hand: tuple[int, ...]) -> dict[int, float]:
    """The rule bot's worth of attacking with each contract: its count of tricks above
    an average hand's, times what a trick is worth to a pair in that contract (below 0
    for those that penalise tricks, so a weak hand bids them)."""
    out = {}
    for c, per in _PER_TRICK.items():
        trump = int(TRUMP[c])
        e = expected_tricks(hand, trump, bool(LOW_WINS[c]))
        out[c] = per * (e - _AVERAGE[trump < 0])
    return out


def _own(view: VarietyView) -> np.ndarray:
    own = np.full(52, -1, np.int64)
    for c in view.hand:
        own[c] = view.seat
    return own


def _trick(view: VarietyView) -> tuple[np.ndarray, np.ndarray]:
    tc = np.full(4, -1, np.int64)
    tp = np.full(4, -1, np.int64)
    for i, (s, c) in enumerate(view.trick):
        tc[i], tp[i] = c, s
    return tc, tp


class RuleBot(VarietyBot):
    """Bids the contract :func:`bid_values` rates best (a bid after the pairs are made
    counts for nothing: the lowest legal); plays by :func:`.kernels.policy`."""

    name = "rule"
    description = "bids the contract its cards suit best, plays a simple policy for its pair"

    def bid(self, view: VarietyView) -> VarietyAction:
        if view.contract:
            return view.legal[0]
        values = bid_values(view.hand)
        return max(view.legal, key=lambda a: values[a.contract])

    def play(self, view: VarietyView) -> VarietyAction:
        tc, tp = _trick(view)
        c = k.policy(_own(view), view.seat, tc, tp, len(view.trick), view.contract,
                     view.partner)
        return VarietyAction("play", 0, int(c))


def voids(view: VarietyView) -> np.ndarray:
    """``void[s, suit]``: seat ``s`` has shown it holds no card of ``suit`` (it did not
    follow a trick led in it)."""
    void = np.zeros((4, 4), np.bool_)
    for plays in [p for p, _ in view.tricks] + [view.trick]:
        if plays:
            led = plays[0][1] & 3
            for s, c in plays[1:]:
                if c & 3 != led:
                    void[s, led] = True
    return void


class SimBot(VarietyBot):
    """Monte Carlo: each legal card is played out on ``samples`` deals of the unseen
    cards (dealt consistently with the voids shown so far) and the best mean is
    chosen. Bidding, a contract another player has named is rated by playing whole
    deals of ``bid_samples`` random layouts with him as partner, and matched when its
    mean beats ``threshold``; otherwise the bid is the rule bot's (a bid nobody has
    matched yet decides nothing by itself)."""

    name = "sim"
    description = "Monte Carlo over the unseen cards, each choice played out by the rule policy"

    samples = Option(16, least=1)
    bid_samples = Option(24, least=1)
    threshold = Option(0.0)

    def start_game(self, view: VarietyView) -> None:
        """Compile (or load) the kernels before the first decision, which a table times."""
        _warm()

    def _flags(self, view: VarietyView) -> tuple[bool, bool, int]:
        o = view.options
        return o.credit == "own", o.compare == "net", o.defender_bonus

    def bid(self, view: VarietyView) -> VarietyAction:
        """Match an earlier bid when playing whole deals with its bidder as partner says
        attacking pays (the best such contract); else bid as the rule bot."""
        if view.contract:
            return view.legal[0]
        cands, partners, leaders = [], [], []
        for a in view.legal:
            first = next((s for s, b in view.bids if b == a.contract), -1)
            if first >= 0:
                cands.append(a.contract)
                partners.append(first)
                leaders.append((first + 1) % 4)
        if cands:
            unseen = np.array([c for c in range(52) if c not in view.hand], np.int64)
            means = k.search_bid(self.rng.randrange(2**31), _own(view), unseen, view.seat,
                                 np.array(cands, np.int64), np.array(partners, np.int64),
                                 np.array(leaders, np.int64), *self._flags(view),
                                 self.bid_samples)
            best = int(np.argmax(means))
            if means[best] > self.threshold:
                return next(a for a in view.legal if a.contract == cands[best])
        values = bid_values(view.hand)
        rest = [a for a in view.legal if a.contract not in cands] or list(view.legal)
        return max(rest, key=lambda a: values[a.contract])

    def play(self, view: VarietyView) -> VarietyAction:
        played = {c for p, _ in view.tricks for _, c in p} | {c for _, c in view.trick}
        unseen = np.array([c for c in range(52) if c not in played and c not in view.hand],
                          np.int64)
        caps = np.array(view.hand_sizes, np.int64)
        caps[view.seat] = 0
        plus, minus, tricks = (np.zeros(4, np.int64) for _ in range(3))
        for plays, w in view.tricks:
            tricks[w] += 1
            plus[w] += TRICK_PLUS[view.contract]
            minus[w] += TRICK_MINUS[view.contract]
            for _, c in plays:
                plus[w] += CARD_PLUS[view.contract, c]
                minus[w] += CARD_MINUS[view.contract, c]
        attack = np.zeros(4, np.int64)
        attack[list(view.attackers)] = 1
        mates = np.array([next(q for q in range(4) if q != s and attack[q] == attack[s])
                          for s in range(4)], np.int64)
        tc, tp = _trick(view)
        cands = np.array([a.card for a in view.legal], np.int64)
        means = k.search_play(self.rng.randrange(2**31), _own(view), unseen, caps,
                              voids(view), view.seat, tc, tp, len(view.trick), plus, minus,
                              tricks, view.contract, mates, attack, *self._flags(view),
                              cands, self.samples)
        return view.legal[int(np.argmax(means))]


_WARM: list[bool] = []


def _warm() -> None:
    """Run both searches once on a tiny position (once a process)."""
    if _WARM:
        return
    own = np.repeat(np.arange(4, dtype=np.int64), 13)
    unseen = np.arange(13, 52, dtype=np.int64)
    one = np.ones(1, np.int64)
    base = np.where(own == 0, 0, -1).astype(np.int64)
    k.search_bid(0, base, unseen, 0, one * 2, one, one * 2, False, False, 10, 1)
    caps = np.array([0, 13, 13, 13], np.int64)
    mates = np.array([1, 0, 3, 2], np.int64)
    attack = np.array([1, 1, 0, 0], np.int64)
    z = np.zeros(4, np.int64)
    k.search_play(0, base, unseen, caps, np.zeros((4, 4), np.bool_), 0, z - 1, z - 1, 0,
                  z.copy(), z.copy(), z.copy(), 2, mates, attack, False, False, 10, one * 0, 1)
    _WARM.append(True)


BOTS: dict[str, type[VarietyBot]] = bot_table(RandomBot, RuleBot, SimBot)


def make_bot(name: str, seed: int | None = None, **options: Any) -> VarietyBot:
    """The built-in bot ``name`` (one of :data:`BOTS`) with ``options``; an unknown
    one is a :class:`VarietyError`."""
    return make_family_bot("variety", BOTS, VarietyError, name, seed, **options)
