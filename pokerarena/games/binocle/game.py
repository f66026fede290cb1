"""A game of binocle behind the game protocol.

>>> hand = BinocleGame().new_hand(seed=7, seats=4, dealer=0)
>>> while not hand.is_over:
...     hand.apply(hand.legal_actions()[0])
>>> sum(hand.result().deltas)
0

A *hand* of this family is one game: the deal and the turning of the stock until a
player has chips on all five of his cards (or the stock runs out). The dealer turns the
cards; the matched players stake in turn from the dealer's left (a player is asked
once per turned card, for all his cards of that rank). Turning a card nobody matches
needs no decision, so the hand turns on by itself to the next stake. The deck order is
drawn from the seed alone (duplicate deals).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.engine.actions import IllegalAction
from pokerarena.games.base import FamilyGame, is_seat_count, shuffled_with_dealer
from pokerarena.games.binocle.actions import DROP, STAKE, Move
from pokerarena.games.binocle.rules import (
    CARDS_EACH,
    DEALER,
    DECK,
    FAMILY,
    MAX_SEATS,
    MIN_SEATS,
    SPLIT,
    BinocleError,
    BinocleOptions,
    binocle_options,
    playing_seats,
    rank_index,
    share,
    value_of,
)
from pokerarena.games.binocle.view import BinocleView


@dataclass(frozen=True)
class BinocleResult:
    """A finished game: each seat's chips won (the winner takes every stake: «забирает
    все фишки на картах всех игроков»; winners sharing a pot split it in whole chips,
    the odd ones to the first in staking order), the winners, and what each seat
    staked."""

    deltas: tuple[int, ...]
    winners: tuple[int, ...]
    staked: tuple[int, ...]


class BinocleGame(FamilyGame):
    """Binocle with its options; :meth:`new_hand` starts a game."""

    family = FAMILY
    variant_id = FAMILY
    name = "Binocle («Биного»)"
    players = (MIN_SEATS, MAX_SEATS)
    utility = "zero_sum"   # the stakes go from player to player
    utility_sum = 0.0

    def __init__(self, options: BinocleOptions | dict[str, Any] | None = None) -> None:
        self.options: BinocleOptions = binocle_options(options)
        self.key: str = self.options.key_text()
        self.deck: list[int] = list(DECK)

    def new_hand(self, seed: int | np.random.Generator | None, seats: int,
                 dealer: int | None = None) -> BinocleHand:
        """A new game for ``seats`` seats; ``dealer``: the dealer's seat (None: drawn
        by lot from ``seed``)."""
        if not is_seat_count(seats, MIN_SEATS, MAX_SEATS):
            raise BinocleError(f"binocle is for {MIN_SEATS} to {MAX_SEATS} seats, "
                               f"not {seats!r}")
        order, first = shuffled_with_dealer(seed, self.deck, seats, dealer, BinocleError,
                                            "binocle")
        return BinocleHand(self, seats, first, order)

    def max_length(self, players: int) -> int:
        """A player is asked at most once per turned card, and the stock is turned
        once."""
        return len(DECK) * players


class BinocleHand:
    """One game of binocle. ``order`` is the whole shuffled deck: the hands are dealt
    from its front, five to each playing seat in staking order, the rest is the stock."""

    def __init__(self, game: BinocleGame, players: int, dealer: int,
                 order: list[int]) -> None:
        o = game.options
        self.game = game
        self.players = players
        self.dealer = dealer
        self.seats = playing_seats(o, players, dealer)
        self.hands: list[tuple[int, ...]] = [()] * players
        for i, s in enumerate(self.seats):
            self.hands[s] = tuple(order[i * CARDS_EACH:(i + 1) * CARDS_EACH])
        self.stock = list(order[len(self.seats) * CARDS_EACH:])
        self.covered = [[False] * len(h) for h in self.hands]
        self.staked = [0] * players
        self.active = [bool(h) for h in self.hands]
        self.turned: list[int] = []
        self.pending: list[int] = []
        self.completed: list[int] = []
        self.winners: tuple[int, ...] = ()
        self.over = False
        self.log: list[tuple[int, Move]] = []
        self._advance()

    # the protocol -------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def first_dealer(self) -> int:
        """The dealer (the platform's name for the seat that dealt the game)."""
        return self.dealer

    @property
    def to_act(self) -> int:
        """The seat to stake on the turned card, -1 when the game is over."""
        return -1 if self.over else self.pending[0]

    def asked(self, seat: int) -> int:
        """The chips the turned card asks of ``seat``: its value on each matching card
        (covered ones too with ``restake``)."""
        if not self.turned:
            return 0
        c = self.turned[-1]
        r = rank_index(c)
        return value_of(c) * sum(1 for i, x in enumerate(self.hands[seat])
                                 if rank_index(x) == r and
                                 (self.game.options.restake or not self.covered[seat][i]))

    def legal_actions(self) -> tuple[Move, ...]:
        """Stake what the card asks; with ``drop``, drop out instead."""
        if self.over:
            return ()
        stake = Move(STAKE, self.asked(self.to_act))
        return (stake, Move(DROP)) if self.game.options.drop else (stake,)

    def apply(self, action: Move, seat: int | None = None) -> None:
        """The move of the seat to act; an illegal move or seat raises
        :class:`IllegalAction` and changes nothing."""
        if self.over:
            raise IllegalAction("binocle: the game is over")
        who = self.to_act
        if seat is not None and seat != who:
            raise IllegalAction(f"binocle: seat {seat} is not to act (seat {who} is)")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(f"binocle: {action!r} is not legal for seat {who}; legal: "
                                f"{', '.join(m.text() for m in legal)}")
        move = Move(str(action[0]), int(action[1]))
        self.log.append((who, move))
        self.pending.pop(0)
        if move.kind == DROP:
            self.active[who] = False
        else:
            self._stake(who, move.chips)
            if all(self.covered[who]):
                self.completed.append(who)
                if self.game.options.tie != SPLIT:
                    self._finish()
                    return
        if not self.pending and self.completed:
            self._finish()
            return
        self._advance()

    def _stake(self, seat: int, chips: int) -> None:
        r = rank_index(self.turned[-1])
        self.staked[seat] += chips
        for i, c in enumerate(self.hands[seat]):
            if rank_index(c) == r:
                self.covered[seat][i] = True

    def _advance(self) -> None:
        """Turn cards until one asks a stake of someone, or the game ends."""
        while not self.pending:
            if not self.stock or not any(self.active):
                self._finish()
                return
            self.turned.append(self.stock.pop(0))
            self.pending = [s for s in self.seats if self.active[s] and self.asked(s) > 0]

    def _finish(self) -> None:
        self.over = True
        self.pending = []
        self.winners = tuple(self.completed)

    def observation(self, seat: int) -> BinocleView:
        """What ``seat`` may see (:mod:`.view`)."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise BinocleError(f"binocle: seat {seat!r} is not one of the {self.players} seats")
        return BinocleView(
            seat=seat, players=self.players, dealer=self.dealer, options=self.game.options,
            order=self.seats, hands=tuple(self.hands),
            covered=tuple(tuple(c) for c in self.covered), staked=tuple(self.staked),
            active=tuple(self.active), turned=tuple(self.turned), stock=len(self.stock),
            winners=self.winners, to_act=self.to_act,
            legal=self.legal_actions() if seat == self.to_act else ())

    def result(self) -> BinocleResult:
        """Chips won per seat (zeros while the game is on)."""
        deltas = [0] * self.players
        if self.over:
            takers = self.winners or ((self.dealer,) if self.game.options.unclaimed == DEALER
                                      else ())
            if takers:
                for s in range(self.players):
                    deltas[s] = -self.staked[s]
                for s, chips in zip(takers, share(sum(self.staked), len(takers)), strict=True):
                    deltas[s] += chips
        return BinocleResult(tuple(deltas), self.winners, tuple(self.staked))
