"""A game of variety behind the game protocol.

>>> hand = VarietyGame().new_hand(seed=7, seats=4)   # one whole tour of deals
>>> while not hand.is_over:
...     hand.apply(hand.legal_actions()[0])
>>> len(hand.result().deals)
8

A *hand* of this family is one tour («Полный тур состоит из восьми раздач»): what a run
repeats and what a score is kept over. The first dealer is drawn by lot («Первого
сдатчика определяет жребий») unless given, then the deal passes to the left («затем
сдают по очереди»); every deal is shuffled by its own generator spawned from the
caller's, so deal *k*'s cards do not depend on how the earlier deals were played.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerarena.cards import card_str
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.base import FamilyGame
from pokerarena.games.variety.actions import VarietyAction
from pokerarena.games.variety.deal import Deal, Trick, deal_cards
from pokerarena.games.variety.rules import (
    FAMILY,
    PLAYERS,
    VarietyError,
    VarietyOptions,
    deal_points,
    taken_points,
    variety_options,
)
from pokerarena.games.variety.sheet import DealRecord, VarietyResult
from pokerarena.games.variety.view import VarietyView, view_of


class VarietyGame(FamilyGame):
    """Variety with its options; :meth:`new_hand` starts a tour."""

    family = FAMILY
    variant_id = FAMILY
    name = "Variety («варьете»)"
    players = (PLAYERS, PLAYERS)

    def __init__(self, options: VarietyOptions | dict[str, Any] | None = None) -> None:
        self.options: VarietyOptions = variety_options(options)
        self.key: str = self.options.key_text()

    def new_hand(self, seed: int | np.random.Generator | None, seats: int = PLAYERS,
                 dealer: int | None = None) -> VarietyHand:
        """A new tour for ``seats`` (four) players; ``dealer``: the first dealer's seat
        (None: drawn by lot from ``seed``)."""
        if not isinstance(seats, int) or isinstance(seats, bool) or seats != PLAYERS:
            raise VarietyError(f"variety is for {PLAYERS} players, not {seats!r}")
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        first = int(rng.integers(PLAYERS))
        if dealer is not None:
            if not isinstance(dealer, int) or not 0 <= dealer < PLAYERS:
                raise VarietyError(f"variety: dealer: seat {dealer!r} is not one of the "
                                   f"{PLAYERS} seats")
            first = dealer
        return VarietyHand(self, first, rng)


class VarietyHand:
    """One tour of variety: ``options.deals`` deals, the dealer moving left each time."""

    def __init__(self, game: VarietyGame, dealer: int, rng: np.random.Generator) -> None:
        self.game = game
        self.players = PLAYERS
        self.first_dealer = dealer
        n = game.options.deals
        self._seeds = [int(s) for s in rng.integers(0, 2**63 - 1, size=n, dtype=np.int64)]
        self.log: list[tuple[int, VarietyAction]] = []
        self.records: list[DealRecord] = []
        self.deal_tricks: list[tuple[Trick, ...]] = []
        self.totals: list[int] = [0] * PLAYERS
        self.deal: Deal = self._start(0)

    def _start(self, k: int) -> Deal:
        return deal_cards(k, self.game.options, (self.first_dealer + k) % PLAYERS,
                          np.random.default_rng(self._seeds[k]))

    @property
    def is_over(self) -> bool:
        return len(self.records) == self.game.options.deals

    @property
    def to_act(self) -> int:
        """The seat to act, -1 when the tour is over."""
        return -1 if self.is_over else self.deal.to_act

    def legal_actions(self) -> tuple[VarietyAction, ...]:
        """Every legal action of the seat to act."""
        return () if self.is_over else tuple(self.deal.legal_actions())

    def apply(self, action: VarietyAction, seat: int | None = None) -> None:
        """Apply the action of the seat to act (``seat``, when given, must be it). An
        illegal action raises :class:`IllegalAction` and changes nothing."""
        if self.is_over:
            raise IllegalAction("variety: the tour is over")
        who = self.deal.to_act if seat is None else seat
        self.deal.apply(who, action)
        self.log.append((who, action))
        if self.deal.is_over:
            self._score()
            if not self.is_over:
                self.deal = self._start(len(self.records))

    def _score(self) -> None:
        d = self.deal
        o = self.game.options
        plus, minus, tricks = taken_points(d.contract, d.taken)
        pts = np.zeros(PLAYERS, np.int64)
        lost = deal_points(d.contract, plus, minus, tricks, d.attack_flags(),
                           o.credit == "own", o.compare == "net", o.defender_bonus, pts)
        self.totals = [t + int(p) for t, p in zip(self.totals, pts, strict=True)]
        self.records.append(DealRecord(
            no=d.no, dealer=d.dealer, bids=tuple(d.bids), contract=d.contract,
            attackers=d.attackers, first_bidder=d.first_bidder, leader=d.leader,
            tricks=tuple(int(x) for x in tricks), plus=tuple(int(x) for x in plus),
            minus=tuple(int(x) for x in minus), attack_lost=bool(lost),
            points=tuple(int(x) for x in pts), totals=tuple(self.totals)))
        self.deal_tricks.append(tuple(d.tricks))  # as the deal took them, taker included

    def tricks(self) -> list[tuple[int, list[tuple[int, tuple[tuple[int, str], ...], int]]]]:
        """Every finished deal's tricks in order, for the record: ``(deal, [(leader,
        ((seat, card), ...) in play order, taker), ...])``, the taker the one
        :meth:`.deal.Deal._play` decided."""
        return [(r.no, [(plays[0][0], tuple((s, card_str(c)) for s, c in plays), taker)
                        for plays, taker in done])
                for r, done in zip(self.records, self.deal_tricks, strict=True)]

    def observation(self, seat: int) -> VarietyView:
        """What ``seat`` may see (see :mod:`pokerarena.games.variety.view`)."""
        if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise VarietyError(f"variety: seat {seat!r} is not one of the {PLAYERS} seats")
        return view_of(self, seat)

    def result(self) -> VarietyResult:
        """Points per seat and the deals' records (so far, while the tour is on)."""
        return VarietyResult(tuple(self.totals), tuple(self.records))
