"""The ``sim`` bot: the count bot's card play, and bids chosen by simulating the unseen
hands. For each candidate bid (the cheapest proposal, the best eight and nine alone,
misère, or passing) it deals the cards it cannot see again and again — the turned card
always the dealer's — finds the supporter a proposal would get (the first seat after it
whose hand is worth 3 tricks in that suit, as the rule bots judge), plays each deal out
with a fast rule policy for every seat and settles it with the real payments; it bids
what wins it most chips on average, or passes when nothing beats passing.
"""

from __future__ import annotations

from functools import cache

from pokerarena.games.boston.actions import ACCEPT, BID, PASS, BostonAction
from pokerarena.games.boston.bots import bid_suit, misere_danger, trump_tricks
from pokerarena.games.boston.counting import CountBot
from pokerarena.games.boston.rules import (
    LADDER,
    MISERE,
    PLAYERS,
    PROPOSALS,
    SUPPORTER_QUOTA,
    TRICKS,
    Outcome,
    boston_card,
    power,
    settle,
    suits_in_play,
)
from pokerarena.games.boston.view import BostonView
from pokerarena.games.family_bot import Option


@cache
def _powers(trump: int, boston: int) -> tuple[tuple[int, ...], ...]:
    """:func:`power` of every card for each suit led."""
    return tuple(tuple(power(c, led, trump, boston) for c in range(52)) for led in range(4))


def playout(hands: list[list[int]], leader: int, trump: int, boston: int,
            misere_seat: int, side: tuple[bool, ...]) -> list[int]:
    """Each seat's tricks when every seat leads its highest card and follows with the
    cheapest winning card unless its own side is winning, else its lowest (``side``:
    which seats declared; a misère's declarer leads low and ducks with its highest card
    under the winner, the others never overtake)."""
    es = suits_in_play(trump, boston)
    pw = _powers(trump, boston)
    hs = [list(h) for h in hands]
    taken = [0] * PLAYERS
    for _ in range(TRICKS):
        h = hs[leader]
        c = min(h) if leader == misere_seat else max(h, key=lambda x: x >> 2)
        h.remove(c)
        led = es[c]
        row = pw[led]
        best, win = row[c], leader
        for k in range(1, PLAYERS):
            s = (leader + k) % PLAYERS
            h = hs[s]
            follow = [x for x in h if es[x] == led] or h
            if s == misere_seat:
                under = [x for x in follow if row[x] < best]
                c = max(under, key=lambda x: x >> 2) if under else min(follow, key=row.__getitem__)
            else:
                wins = [x for x in follow if row[x] > best] \
                    if misere_seat < 0 and side[win] != side[s] else []
                c = min(wins, key=row.__getitem__) if wins else \
                    min(follow, key=lambda x: (es[x] == trump, x >> 2))
            h.remove(c)
            if row[c] > best:
                best, win = row[c], s
        taken[win] += 1
        leader = win
    return taken


class SimBot(CountBot):
    """Bids by simulation (see the module docstring), plays as the count bot."""

    name = "sim"
    description = "bids by simulating the unseen hands; plays as count"
    samples = Option(16, least=1)

    def bid(self, view: BostonView) -> BostonAction:
        candidates = self._candidates(view)
        if not candidates:
            return super().bid(view)
        deals = [self._sample(view) for _ in range(self.samples)]
        best, best_ev = None, 0.0
        for a in candidates:
            ev = sum(self._value(view, a, hands) for hands in deals) / len(deals)
            if ev > best_ev:
                best, best_ev = a, ev
        if best is not None:
            return best
        fallback = super().bid(view)
        return fallback if fallback.kind in (ACCEPT, PASS) else BostonAction(PASS)

    def _candidates(self, view: BostonView) -> list[BostonAction]:
        """The cheapest proposal and the strongest suit's bids a little above it."""
        bids = [a for a in view.legal if a.kind == BID]
        out: list[BostonAction] = []
        props = [a for a in bids if a.contract in PROPOSALS]
        if props:
            out.append(max(props, key=lambda a: trump_tricks(view.hand, bid_suit(view, a))))
        for contract in ("solo", "independence", "nine_junior", "nine_senior"):
            same = [a for a in bids if a.contract == contract]
            if same:
                a = max(same, key=lambda a: trump_tricks(view.hand, bid_suit(view, a)))
                if trump_tricks(view.hand, bid_suit(view, a)) >= LADDER[contract][1] - 2:
                    out.append(a)
        if any(a.contract == MISERE for a in bids) and misere_danger(view.hand) < 2:
            out.append(BostonAction(BID, MISERE))
        return out

    def _sample(self, view: BostonView) -> list[list[int]]:
        """The other seats' hands dealt at random from the unseen cards (the turned card
        the dealer's)."""
        mine = set(view.hand)
        fixed = view.turned if view.dealer != view.seat else -1
        unseen = [c for c in range(52) if c not in mine and c != fixed]
        self.rng.shuffle(unseen)
        hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        hands[view.seat] = list(view.hand)
        if fixed >= 0:
            hands[view.dealer].append(fixed)
        for s in range(PLAYERS):
            while s != view.seat and len(hands[s]) < TRICKS:
                hands[s].append(unseen.pop())
        return hands

    def _value(self, view: BostonView, a: BostonAction, hands: list[list[int]]) -> float:
        """The chips ``a`` wins this seat on one sampled deal."""
        me = view.seat
        if a.contract == MISERE:
            trump = view.turned & 3 if view.options.misere == "no_boston" else -1
            boston = -1
        else:
            trump = bid_suit(view, a)
            boston = boston_card(trump)
        supporter = -1
        if a.contract in PROPOSALS:
            for k in range(1, PLAYERS):
                s = (me + k) % PLAYERS
                if trump_tricks(tuple(sorted(hands[s])), trump) >= SUPPORTER_QUOTA:
                    supporter = s
                    break
        side = tuple(s in (me, supporter) for s in range(PLAYERS))
        taken = playout(hands, (view.dealer + 1) % PLAYERS, trump, boston,
                        me if a.contract == MISERE else -1, side)
        holder = next((s for s in range(PLAYERS) if boston in hands[s]), -1)
        delta, _ = settle(view.options, Outcome(a.contract, me, supporter, tuple(taken),
                                                holder), view.kitty, view.mult)
        return delta[me]
