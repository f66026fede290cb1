"""The ``count`` bot: the rule bot's bidding (a proposal on half a trick less), and card play that
counts — which cards are still out, who has shown out of a suit, who sits on its side.

With that it leads masters (cards nothing still out can beat) and draws trumps for its
side, ducks under a partner's sure winner, wins with the cheapest card an opponent still
to play cannot beat, and plays a misère knowing which of its cards are safe.
"""

from __future__ import annotations

from pokerarena.cards import rank_of
from pokerarena.games.boston.actions import PLAY, BostonAction
from pokerarena.games.boston.bots import RuleBot
from pokerarena.games.boston.rules import MISERE, PLAYERS, PROPOSALS, power, suits_in_play
from pokerarena.games.boston.view import BostonView


class Table:
    """What a seat knows in the play: the cards still out, the voids shown, the sides."""

    def __init__(self, v: BostonView) -> None:
        self.v = v
        self.trump, self.boston = v.trump, v.boston
        self.es = suits_in_play(v.trump, v.boston)
        played = {c for t, _ in v.tricks for _, c in t} | {c for _, c in v.trick}
        self.out = set(range(52)) - played - set(v.hand)
        self.top = [-1] * 4  # the strongest card still out of each suit (its power)
        for c in self.out:
            s = self.es[c]
            self.top[s] = max(self.top[s], self.pw(c, s))
        self.void = [[False] * 4 for _ in range(PLAYERS)]
        for plays in [t for t, _ in v.tricks] + ([tuple(v.trick)] if v.trick else []):
            led = self.es[plays[0][1]]
            for x, c in plays[1:]:
                if self.es[c] != led:
                    self.void[x][led] = True
        side = {v.declarer, v.supporter} - {-1}
        self.mine = side if v.seat in side else set(range(PLAYERS)) - side
        done = {x for x, _ in v.trick}
        self.after = [(v.seat + k) % PLAYERS for k in range(1, PLAYERS)
                      if (v.seat + k) % PLAYERS not in done]

    def suit(self, c: int) -> int:
        return self.es[c]

    def pw(self, c: int, led: int) -> int:
        return power(c, led, self.trump, self.boston)

    def beatable(self, p: int, led: int, seats: list[int]) -> bool:
        """Whether a card of power ``p`` in a trick led ``led`` may be beaten by one of
        ``seats`` (a card still out of the led suit, or a trump from a seat void in it)."""
        t = self.trump
        for x in seats:
            if self.top[led] > p and not self.void[x][led]:
                return True
            if t >= 0 and t != led and self.top[t] > p and self.void[x][led] \
                    and not self.void[x][t]:
                return True
        return False

    def master(self, c: int) -> bool:
        """Nothing still out of ``c``'s suit beats it."""
        s = self.es[c]
        return self.pw(c, s) > self.top[s]

    def opponents(self, seats: list[int]) -> list[int]:
        return [x for x in seats if x not in self.mine]

    def dump(self, cards: list[int]) -> int:
        """The card worth least: no trump, no master, low, from a short suit."""
        n = {s: sum(1 for c in cards if self.suit(c) == s) for s in range(4)}
        return min(cards, key=lambda c: (self.suit(c) == self.trump, self.master(c),
                                         rank_of(c), n[self.suit(c)]))


class CountBot(RuleBot):
    """Counts the cards (see the module docstring)."""

    name = "count"
    description = "counts the cards out and the voids: masters, ducks, misère play"

    def margin(self, view: BostonView, a: BostonAction | None) -> float:
        """Half a trick less for a proposal: its play finds the supporter's tricks."""
        return -0.5 if a is not None and a.contract in PROPOSALS else 0.0

    def card(self, view: BostonView) -> BostonAction:
        cards = [a.card for a in view.legal]
        if len(cards) == 1:
            return view.legal[0]
        t = Table(view)
        if view.contract == MISERE:
            pick = self._misere(t, cards)
        elif not view.trick:
            pick = self._lead(t, cards)
        else:
            pick = self._follow(t, cards)
        return BostonAction(PLAY, card=pick)

    def _lead(self, t: Table, cards: list[int]) -> int:
        v = self.v_of(t)
        trumps_out = any(t.suit(c) == t.trump for c in t.out)
        if v.seat in {v.declarer, v.supporter} and trumps_out:
            drawn = [c for c in cards if t.suit(c) == t.trump and t.master(c)]
            if drawn:
                return drawn[0]
        opps = t.opponents(list(range(PLAYERS)))
        safe = [c for c in cards if t.suit(c) != t.trump and t.master(c)
                and not (trumps_out and any(t.void[x][t.suit(c)] for x in opps))]
        if safe:
            return max(safe, key=lambda c: rank_of(c))
        side = [c for c in cards if t.suit(c) != t.trump] or cards
        n = {s: sum(1 for c in side if t.suit(c) == s) for s in range(4)}
        return min(side, key=lambda c: (-n[t.suit(c)], rank_of(c)))

    @staticmethod
    def v_of(t: Table) -> BostonView:
        return t.v

    def _follow(self, t: Table, cards: list[int]) -> int:
        v = t.v
        led = t.suit(v.trick[0][1])
        wseat, wcard = max(v.trick, key=lambda p: t.pw(p[1], led))
        best = t.pw(wcard, led)
        opps_after = t.opponents(t.after)
        if wseat in t.mine and not t.beatable(best, led, opps_after):
            return t.dump(cards)
        winners = sorted((c for c in cards if t.pw(c, led) > best), key=lambda c: t.pw(c, led))
        sure = [c for c in winners if not t.beatable(t.pw(c, led), led, opps_after)]
        if sure:
            return sure[0]
        if winners and not opps_after:
            return winners[0]
        return t.dump(cards)

    def _misere(self, t: Table, cards: list[int]) -> int:
        v = t.v
        if v.seat == v.declarer:
            return self._misere_declarer(t, cards)
        if not v.trick:
            ok = [c for c in cards if not t.void[v.declarer][t.suit(c)]] or cards
            return min(ok, key=rank_of)
        led = t.suit(v.trick[0][1])
        wseat, wcard = max(v.trick, key=lambda p: t.pw(p[1], led))
        best = t.pw(wcard, led)
        if v.declarer not in {s for s, _ in v.trick}:
            return min(cards, key=lambda c: t.pw(c, led))  # leave him room to win
        if wseat == v.declarer:
            under = [c for c in cards if t.pw(c, led) < best]
            return max(under or cards, key=rank_of) if under else min(cards, key=rank_of)
        return max(cards, key=rank_of)

    def _misere_declarer(self, t: Table, cards: list[int]) -> int:
        v = t.v
        def above(c: int) -> int:
            return sum(1 for o in t.out if t.suit(o) == t.suit(c) and rank_of(o) > rank_of(c))
        if not v.trick:
            return max(cards, key=lambda c: (above(c), -rank_of(c)))
        led = t.suit(v.trick[0][1])
        best = max(t.pw(c, led) for _, c in v.trick)
        under = [c for c in cards if t.pw(c, led) < best]
        if under:
            return max(under, key=lambda c: t.pw(c, led) if t.suit(c) == led else 100 + rank_of(c))
        return min(cards, key=lambda c: t.pw(c, led)) if t.after else max(cards, key=rank_of)
