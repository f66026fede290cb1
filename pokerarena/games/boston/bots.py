"""The built-in American-boston bots: ``random`` (any legal action), ``rule`` (bids what
its high cards and trumps are worth, takes a trick when it can, ducks otherwise) and
``count`` (counts the cards: knows which cards are still out and who has shown out of a
suit, so it plays masters and ducks under its partner's, bids on sure tricks, plays a
misère as the declarer and against it).

A bot answers ``act(view) -> BostonAction`` for a :class:`~.view.BostonView` and sees
nothing but the view.
"""

from __future__ import annotations

from functools import lru_cache

from pokerarena.cards import rank_of, suit_of
from pokerarena.games.boston.actions import ACCEPT, BID, PASS, PLAY, BostonAction
from pokerarena.games.boston.rules import (
    INDEPENDENCE,
    JUNIOR,
    LADDER,
    MISERE,
    NINE_JUNIOR,
    NINE_SENIOR,
    SENIOR,
    SOLO,
    SUPPORTER_QUOTA,
    BostonError,
    boston_card,
    power,
    suit_in_play,
)
from pokerarena.games.boston.view import BostonView
from pokerarena.games.family_bot import FamilyBot, UniformBot


class BostonBot(FamilyBot[BostonView, BostonAction]):
    """A boston bot: the shared base (:class:`~pokerarena.games.family_bot.FamilyBot`)
    typed for this family, its messages and its error class. The bots by name are in
    :mod:`.league` (``count`` and ``sim`` build on :class:`RuleBot` in their own modules)."""

    family, error = "boston", BostonError


class RandomBot(UniformBot[BostonView, BostonAction], BostonBot):
    """Uniform over the legal bids and cards."""


# hand values ------------------------------------------------------------------------------
@lru_cache(maxsize=8192)
def trump_tricks(hand: tuple[int, ...], trump: int) -> float:
    """Tricks a hand may take with ``trump``: trump honours and length, side aces and
    guarded kings."""
    b = boston_card(trump)
    trumps = sorted((c for c in hand if suit_in_play(c, trump, b) == trump),
                    key=lambda c: -power(c, trump, trump, b))
    top = sum(1 for c in trumps if c == b or rank_of(c) >= 10)   # boston, A, K, Q
    est = float(top) + max(0, len(trumps) - max(top, 3))
    for s in range(4):
        if s == trump:
            continue
        side = sorted((rank_of(c) for c in hand
                       if suit_of(c) == s and suit_in_play(c, trump, b) == s), reverse=True)
        if side and side[0] == 12:
            est += 1.0
            if len(side) > 1 and side[1] == 11:
                est += 0.8
        elif side and side[0] == 11 and len(side) > 1:
            est += 0.5
    return est


def misere_danger(hand: tuple[int, ...]) -> float:
    """How likely a hand is to be forced to take a trick with no trumps: its high cards
    not covered by low ones of the same suit."""
    danger = 0.0
    for s in range(4):
        ranks = sorted(rank_of(c) for c in hand if suit_of(c) == s)
        for i, r in enumerate(ranks):
            # the i-th lowest card is safe when it is low enough for its place
            danger += max(0, r - 2 * i - 1) / 4
    return danger


def contract_value(view: BostonView, contract: str, suit: int) -> float:
    """The tricks the seat's hand is worth in ``contract`` (misère: minus its danger)."""
    if contract == MISERE:
        return -misere_danger(view.hand)
    return trump_tricks(view.hand, suit)


def bid_suit(view: BostonView, a: BostonAction) -> int:
    """The trump of a bid on the table."""
    if a.contract in (JUNIOR, NINE_JUNIOR):
        return view.junior
    if a.contract in (SENIOR, NINE_SENIOR):
        return view.senior
    return a.suit


class RuleBot(BostonBot):
    """Bids the cheapest contract its hand is worth above the table's, supports a
    proposal with three tricks in its suit; plays the cheapest winning card, else the
    lowest (as a misère's declarer, the highest card that does not win)."""

    name = "rule"
    description = "bids its high cards and trumps; wins cheaply or ducks"
    # tricks a hand must be worth to bid: proposals hope for a supporter
    needs = {JUNIOR: 4.0, SENIOR: 4.0, SOLO: 8.0, INDEPENDENCE: 8.0, NINE_JUNIOR: 9.0,
             NINE_SENIOR: 9.0, MISERE: -1.0}

    def act(self, view: BostonView) -> BostonAction:
        if view.phase == "auction":
            return self.bid(view)
        return self.card(view)

    def bid(self, view: BostonView) -> BostonAction:
        bids = [a for a in view.legal if a.kind == BID]
        for a in sorted(bids, key=lambda a: LADDER[a.contract][0]):
            worth = contract_value(view, a.contract, bid_suit(view, a))
            if worth >= self.needs[a.contract] + self.margin(view, a):
                return a
        if any(a.kind == ACCEPT for a in view.legal) and view.high is not None:
            worth = trump_tricks(view.hand, bid_suit(view, view.high))
            if worth >= SUPPORTER_QUOTA + self.margin(view, None):
                return BostonAction(ACCEPT)
        return BostonAction(PASS)

    def margin(self, view: BostonView, a: BostonAction | None) -> float:
        """Extra tricks wanted before bidding ``a`` (None: before supporting)."""
        return 0.0

    def card(self, view: BostonView) -> BostonAction:
        cards = [a.card for a in view.legal]
        if not view.trick:
            return BostonAction(PLAY, card=max(cards, key=lambda c: rank_of(c))
                                if view.contract != MISERE else min(cards, key=rank_of))
        led = suit_in_play(view.trick[0][1], view.trump, view.boston)
        best = max(power(c, led, view.trump, view.boston) for _, c in view.trick)
        def pw(c: int) -> int:
            return power(c, led, view.trump, view.boston)
        winners = [c for c in cards if pw(c) > best]
        losers = [c for c in cards if pw(c) <= best]
        if view.contract == MISERE and view.seat == view.declarer:
            pick = max(losers, key=rank_of) if losers else max(cards, key=pw)
        elif winners and view.contract != MISERE:
            pick = min(winners, key=pw)
        else:
            pick = min(cards, key=lambda c: (pw(c) > best, suit_of(c) == view.trump, rank_of(c)))
        return BostonAction(PLAY, card=pick)
