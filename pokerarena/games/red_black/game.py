"""A game of red and black behind the game protocol.

>>> hand = RedBlackGame().new_hand(seed=7, seats=4, dealer=0)   # seat 0 banks
>>> while not hand.is_over:
...     hand.apply(hand.legal_actions()[0])
>>> sum(hand.result().deltas)
0

The seat ``dealer`` is the banker («сдающий платит ему ставку, в противном случае
забирает себе»); every other seat is a player, and the players bet in turn from the
dealer's left. A *hand* of this family is one game: ``rounds`` rounds (default one)
dealt from one shuffled deck, each player betting once a round. With ``order =
all_first`` (default, «Все участники … делают … ставки и объявляют», then «Сдающий дает
игроку пять карт») the whole round declares, then the dealer deals; with ``each`` a
player declares and is dealt his five cards before the next declares. The deck order is drawn
from the seed alone, so the same seed deals the same cards whatever is bet (duplicate
deals).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.engine.actions import IllegalAction
from pokerarena.games.base import FamilyGame, is_seat_count, shuffled_with_dealer
from pokerarena.games.red_black.actions import Bet
from pokerarena.games.red_black.rules import (
    ALL_FIRST,
    CARDS_EACH,
    COLOURS,
    FAMILY,
    RedBlackError,
    RedBlackOptions,
    colour_of,
    deck_cards,
    is_red,
    payout,
    red_black_options,
    rounds_for,
)
from pokerarena.games.red_black.view import BetRecord, RedBlackView

MIN_SEATS, MAX_SEATS = 2, 10


@dataclass(frozen=True)
class RedBlackResult:
    """A finished game: each seat's chips won (the banker's is minus the players' sum)
    and every settled bet."""

    deltas: tuple[int, ...]
    bets: tuple[BetRecord, ...]


class RedBlackGame(FamilyGame):
    """Red and black with its options; :meth:`new_hand` starts a game."""

    family = FAMILY
    variant_id = FAMILY
    name = "Red and black («Красное и черное»)"
    players = (MIN_SEATS, MAX_SEATS)
    utility = "zero_sum"   # the banker pays or takes each player's stake
    utility_sum = 0.0

    def __init__(self, options: RedBlackOptions | dict[str, Any] | None = None) -> None:
        self.options: RedBlackOptions = red_black_options(options)
        self.key: str = self.options.key_text()
        self.deck: list[int] = deck_cards(self.options)
        o = self.options
        self.legal: tuple[Bet, ...] = tuple(Bet(c, s) for c in COLOURS
                                            for s in range(o.min_bet, o.top_bet + 1))

    def new_hand(self, seed: int | np.random.Generator | None, seats: int,
                 dealer: int | None = None) -> RedBlackHand:
        """A new game for ``seats`` seats (the banker included); ``dealer``: the
        banker's seat (None: drawn by lot from ``seed``)."""
        if not is_seat_count(seats, MIN_SEATS, MAX_SEATS):
            raise RedBlackError(f"red_black is for {MIN_SEATS} to {MAX_SEATS} seats (the "
                                f"banker and the players), not {seats!r}")
        order, first = shuffled_with_dealer(seed, self.deck, seats, dealer, RedBlackError,
                                            "red_black")
        return RedBlackHand(self, seats, first, order)

    def score_range(self, players: int) -> tuple[float, float]:
        """A bet pays at most twice its stake either way, and the banker answers every
        player's bet of every round."""
        o = self.options
        most = 2 * o.top_bet * rounds_for(o, players - 1) * (players - 1)
        return float(-most), float(most)

    def max_length(self, players: int) -> int:
        """Each player bets once a round."""
        return rounds_for(self.options, players - 1) * (players - 1)


class RedBlackHand:
    """One game of red and black: its rounds, bet by bet."""

    def __init__(self, game: RedBlackGame, players: int, dealer: int,
                 order: list[int]) -> None:
        self.game = game
        self.players = players
        self.dealer = dealer
        self.order = order  # the shuffled deck, dealt from the front
        self.bettors = tuple((dealer + 1 + i) % players for i in range(players - 1))
        self.rounds = rounds_for(game.options, len(self.bettors))
        self.dealt = 0
        self.round = 0
        self.turn = 0  # index into bettors of the next to declare
        self.declared: dict[int, Bet] = {}
        self.settled: list[BetRecord] = []
        self.totals = [0] * players
        self.log: list[tuple[int, Bet]] = []

    # the protocol -------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.round >= self.rounds

    @property
    def first_dealer(self) -> int:
        """The banker (the platform's name for the seat that dealt the game)."""
        return self.dealer

    @property
    def to_act(self) -> int:
        """The seat to declare, -1 when the game is over."""
        return -1 if self.is_over else self.bettors[self.turn]

    def legal_actions(self) -> tuple[Bet, ...]:
        """Every colour with every stake allowed (only the minimum by default)."""
        return () if self.is_over else self.game.legal

    def apply(self, action: Bet, seat: int | None = None) -> None:
        """The bet of the seat to act; an illegal bet or seat raises
        :class:`IllegalAction` and changes nothing."""
        if self.is_over:
            raise IllegalAction("red_black: the game is over")
        if seat is not None and seat != self.to_act:
            raise IllegalAction(f"red_black: seat {seat} is not to act (seat {self.to_act} is)")
        o = self.game.options
        if not isinstance(action, tuple) or len(action) != 2 or action[0] not in COLOURS \
                or not isinstance(action[1], int) or not o.min_bet <= action[1] <= o.top_bet:
            raise IllegalAction(f"red_black: {action!r} is not a bet: a colour (red or "
                                f"black) and a stake from {o.min_bet} to {o.top_bet}")
        bet = Bet(str(action[0]), int(action[1]))
        who = self.to_act
        self.log.append((who, bet))
        self.declared[who] = bet
        self.turn += 1
        if o.order != ALL_FIRST:
            self._deal_to(who)
        elif self.turn == len(self.bettors):
            for s in self.bettors:
                self._deal_to(s)
        if self.turn == len(self.bettors):
            self.turn = 0
            self.round += 1

    def _deal_to(self, seat: int) -> None:
        """Five cards face up to ``seat`` and its bet settled with the banker."""
        bet = self.declared.pop(seat)
        cards = tuple(self.order[self.dealt:self.dealt + CARDS_EACH])
        self.dealt += CARDS_EACH
        matched = sum(1 for c in cards if colour_of(c) == bet.colour)
        gain = payout(matched) * bet.stake
        self.totals[seat] += gain
        self.totals[self.dealer] -= gain
        self.settled.append(BetRecord(self.round, seat, bet.colour, bet.stake, cards,
                                      matched, gain))

    def observation(self, seat: int) -> RedBlackView:
        """What ``seat`` may see (:mod:`.view`)."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RedBlackError(f"red_black: seat {seat!r} is not one of the "
                                f"{self.players} seats")
        rest = self.order[self.dealt:]
        red = sum(1 for c in rest if is_red(c))
        return RedBlackView(
            seat=seat, players=self.players, dealer=self.dealer, options=self.game.options,
            round=min(self.round, self.rounds - 1), rounds=self.rounds,
            declared=dict(self.declared), settled=tuple(self.settled), red_left=red,
            black_left=len(rest) - red, totals=tuple(self.totals), to_act=self.to_act,
            legal=self.legal_actions() if seat == self.to_act else ())

    def result(self) -> RedBlackResult:
        """Chips won per seat and the settled bets (so far, while the game is on)."""
        return RedBlackResult(tuple(self.totals), tuple(self.settled))

    def undealt(self) -> list[int]:
        """The cards not dealt yet (for the invariant tests; no bot sees their order)."""
        return list(self.order[self.dealt:])
