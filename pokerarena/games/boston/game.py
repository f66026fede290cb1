"""A game of American boston behind the game protocol.

>>> game = BostonGame({"simple_tours": 1, "double_tours": 0})
>>> hand = game.new_hand(seed=7, seats=4)        # one whole game («партия»)
>>> while not hand.is_over:
...     hand.apply(hand.legal_actions()[0])
>>> hand.result().deltas                          # doctest: +SKIP

A *hand* of this family is one whole game: «партию составляют 8 простых и 2 двойных
тура», a tour being a deal by each player, the deal passing to the right. The senior
suit is the first deal's turned suit for the whole game, so the game, not the deal, is
the unit of play. Chips: the document's 480 shared out, every seat's stake into the
kitty at each deal, the payments of :func:`.rules.settle`, and the kitty shared out at
the end («раздел кассы»); ``result().deltas`` are each seat's chips won or lost. The
randomness: the first dealer by lot (the piles of «делит колоду карт на 4 … кучки»,
whoever gets the jack of diamonds), then each deal shuffled by its own generator spawned
from the caller's, so deal *k*'s cards do not depend on the play before it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerarena.cards import card_str
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.base import FamilyGame
from pokerarena.games.boston.actions import BostonAction
from pokerarena.games.boston.deal import Deal, deal_cards
from pokerarena.games.boston.rules import (
    BOSTON,
    FAMILY,
    PLAYERS,
    BostonError,
    BostonOptions,
    boston_options,
    settle,
)
from pokerarena.games.boston.rules import made as kept
from pokerarena.games.boston.sheet import BostonResult, DealRecord
from pokerarena.games.boston.view import BostonView, view_of

PLAY_OUT_LIMIT = 40  # extra deals at most when the kitty is played out («игра продолжается»)


class BostonGame(FamilyGame):
    """American boston with its options; :meth:`new_hand` starts a game («партия»)."""

    family = FAMILY
    variant_id = FAMILY
    name = "American boston («американский бостон»)"
    players = (PLAYERS, PLAYERS)
    utility = "zero_sum"   # each deal's payments go from seat to seat
    utility_sum = 0.0

    def __init__(self, options: BostonOptions | dict[str, Any] | None = None) -> None:
        self.options: BostonOptions = boston_options(options)
        self.key: str = self.options.key_text()

    def new_hand(self, seed: int | np.random.Generator | None, seats: int = PLAYERS,
                 dealer: int | None = None) -> BostonHand:
        """A new game; ``dealer``: the first dealer's seat (None: drawn by lot)."""
        if seats != PLAYERS or isinstance(seats, bool):
            raise BostonError(f"boston is for {PLAYERS} players, not {seats!r}")
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        first = int(np.flatnonzero(rng.permutation(52) == BOSTON)[0]) // 13
        if dealer is not None:
            if not isinstance(dealer, int) or not 0 <= dealer < PLAYERS:
                raise BostonError(f"boston: dealer: seat {dealer!r} is not one of the "
                                  f"{PLAYERS} seats")
            first = dealer
        return BostonHand(self, first, rng)


class BostonHand:
    """One game of American boston: its deals in turn, the chips and the kitty."""

    players = PLAYERS

    def __init__(self, game: BostonGame, dealer: int, rng: np.random.Generator) -> None:
        o = game.options
        self.game = game
        self.first_dealer = dealer
        self.deals = PLAYERS * (o.simple_tours + o.double_tours)
        self._seeds = rng.integers(0, 2**63 - 1, size=self.deals + PLAY_OUT_LIMIT,
                                   dtype=np.int64)
        self.log: list[tuple[int, BostonAction]] = []
        self.records: list[DealRecord] = []
        self.deal_tricks: list[tuple[tuple[tuple[tuple[int, int], ...], int], ...]] = []
        self.chips: list[float] = [o.chips / PLAYERS] * PLAYERS
        self.kitty = 0.0
        self.senior = -1
        self._finished = False
        self.deal: Deal = self._start(0)

    def mult(self, k: int) -> int:
        """2 in the double tours (after the simple ones), 1 otherwise."""
        return 2 if PLAYERS * self.game.options.simple_tours <= k < self.deals else 1

    def _start(self, k: int) -> Deal:
        dealer = (self.first_dealer + k) % PLAYERS
        hands, turned = deal_cards(np.random.default_rng(int(self._seeds[k])), dealer)
        if self.senior < 0:
            self.senior = turned & 3  # «старшая масть указывается вскрытой при первой сдаче»
        junior = -1 if turned & 3 == self.senior else turned & 3
        self._before = list(self.chips)  # a deal's delta counts its stake
        self._pay_kitty([float(self.game.options.stake * self.mult(k))] * PLAYERS)
        return Deal(k, dealer, hands, turned, self.senior, junior,
                    self.game.options.misere == "no_boston")

    def _pay_kitty(self, amounts: list[float]) -> None:
        for s, x in enumerate(amounts):
            self.chips[s] -= x
            self.kitty += x

    # the protocol -------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._finished

    @property
    def to_act(self) -> int:
        """The seat to act, -1 when the game is over."""
        return -1 if self.is_over else self.deal.to_act

    def legal_actions(self) -> list[BostonAction]:
        """The legal actions of the seat to act."""
        return [] if self.is_over else self.deal.legal_actions()

    def apply(self, action: BostonAction, seat: int | None = None) -> None:
        """Apply the action of the seat to act (``seat``, when given, must be it). An
        illegal action raises :class:`IllegalAction` and changes nothing."""
        if self.is_over:
            raise IllegalAction("boston: the game is over")
        who = self.deal.to_act if seat is None else seat
        taken = self.deal.apply(who, action)
        self.log.append((who, taken))
        if self.deal.is_over:
            self._score()
            nxt = len(self.records)
            if self._continues(nxt):
                self.deal = self._start(nxt)
            else:
                self._share_out()

    def _continues(self, k: int) -> bool:
        if k < self.deals:
            return True
        return (self.game.options.final == "play_out" and self.kitty > 0
                and k < self.deals + PLAY_OUT_LIMIT)

    def _score(self) -> None:
        d = self.deal
        o = self.game.options
        mult = self.mult(d.no)
        made = False
        if d.played:
            outcome = d.outcome()
            delta, self.kitty = settle(o, outcome, self.kitty, mult)
            self.chips = [c + x for c, x in zip(self.chips, delta, strict=True)]
            made = kept(outcome)
        elif o.pass_doubles:  # «содержимое кассы должно быть удвоено»
            self._pay_kitty([self.kitty / PLAYERS] * PLAYERS)
        self._record(made)

    def _record(self, made: bool) -> None:
        d = self.deal
        start = self._before
        self.records.append(DealRecord(
            no=d.no, tour=d.no // PLAYERS, mult=self.mult(d.no), dealer=d.dealer,
            turned=d.turned, senior=d.senior, junior=d.junior, contract=d.contract,
            declarer=d.declarer, supporter=d.supporter, trump=d.trump,
            boston_holder=d.boston_holder if d.played else -1, made=made,
            tricks=tuple(d.taken),
            delta=tuple(c - b for c, b in zip(self.chips, start, strict=True)),
            chips=tuple(self.chips), kitty=self.kitty))
        self.deal_tricks.append(tuple(d.tricks))  # as the deal took them (none: all passed)

    def tricks(self) -> list[tuple[int, list[tuple[int, tuple[tuple[int, str], ...], int]]]]:
        """Every finished deal's tricks in order, for the record: ``(deal, [(leader,
        ((seat, card), ...) in play order, winner), ...])``, the winner the one
        :meth:`.deal.Deal._play` decided; a deal all four passed has none."""
        return [(r.no, [(plays[0][0], tuple((s, card_str(c)) for s, c in plays), winner)
                        for plays, winner in done])
                for r, done in zip(self.records, self.deal_tricks, strict=True)]

    def _share_out(self) -> None:
        """«раздел кассы»: the kitty shared equally; the last record takes the share."""
        share = self.kitty / PLAYERS
        self.chips = [c + share for c in self.chips]
        self.kitty = 0.0
        last = self.records[-1]
        self.records[-1] = DealRecord(**{
            **last.__dict__, "delta": tuple(x + share for x in last.delta),
            "chips": tuple(self.chips), "kitty": 0.0})
        self._finished = True

    def observation(self, seat: int) -> BostonView:
        """What ``seat`` may see (see :mod:`pokerarena.games.boston.view`)."""
        if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise BostonError(f"boston: seat {seat!r} is not one of the {PLAYERS} seats")
        return view_of(self, seat)

    def result(self) -> BostonResult:
        """Chips won or lost per seat (so far, while the game is on), and every deal."""
        start = self.game.options.chips / PLAYERS
        return BostonResult(tuple(c - start for c in self.chips), tuple(self.chips),
                            tuple(self.records))
