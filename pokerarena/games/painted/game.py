"""A game of painted poker behind the game protocol.

>>> game = PaintedGame({"jokers": 1})
>>> hand = game.new_hand(seed=7, seats=4)        # one whole game («партия»)
>>> while not hand.is_over:
...     hand.apply(hand.legal_actions()[0])
>>> hand.result().totals                          # doctest: +SKIP

A *hand* of this family is one whole game, every deal of the plan in turn: the
protocol's unit of play, what a run repeats N times and what a score is kept over (the
document's score sheet is per game). Each deal is a :class:`~.deal.Deal`, reachable as
``hand.deal``; its rows end up on the score sheet (:meth:`PaintedHand.sheet`). The
randomness: the first dealer is drawn by lot («выбирают жеребьевкой») unless given, and
every deal is shuffled by its own generator spawned from the caller's, so the cards of
deal *k* do not depend on how the earlier deals were played (duplicate deals).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerarena.cards import card_str
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.base import FamilyGame
from pokerarena.games.painted.actions import PaintedAction
from pokerarena.games.painted.deal import Deal, Played, deal_cards
from pokerarena.games.painted.rules import (
    FAMILY,
    DealSpec,
    PaintedError,
    PaintedOptions,
    check_players,
    deal_plan,
    deck_cards,
    painted_options,
    points_of,
)
from pokerarena.games.painted.sheet import DealRecord, PaintedResult, sheet_rows
from pokerarena.games.painted.view import PaintedView, view_of


def _card_text(a: PaintedAction) -> str:
    """A card played as the tricks record writes it: ``As``, a joker with how it was
    played (``Jk high h``: its action's text; a joker is never played without a mode)."""
    return a.text().removeprefix("play ") if a.joker else card_str(a.card)


class PaintedGame(FamilyGame):
    """Painted poker with its options; :meth:`new_hand` starts a game («партия»)."""

    family = FAMILY
    variant_id = FAMILY
    name = "Painted poker («расписной покер»)"
    players = (2, 10)

    def __init__(self, options: PaintedOptions | dict[str, Any] | None = None) -> None:
        self.options: PaintedOptions = painted_options(options)
        self.key: str = self.options.key_text()
        self.deck: list[int] = deck_cards(self.options)

    def plan(self, players: int) -> tuple[DealSpec, ...]:
        """The deals of a game at a table of ``players``."""
        return deal_plan(self.options, players)

    def new_hand(self, seed: int | np.random.Generator | None, seats: int,
                 dealer: int | None = None) -> PaintedHand:
        """A new game for ``seats`` players; ``dealer``: the first dealer's seat (None:
        drawn by lot from ``seed``)."""
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise PaintedError(f"painted: seats: a number of players, not {seats!r}")
        check_players(seats)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        first = int(rng.integers(seats))
        if dealer is not None:
            if not 0 <= dealer < seats:
                raise PaintedError(f"painted: dealer: seat {dealer} is not one of the "
                                   f"{seats} seats")
            first = dealer
        return PaintedHand(self, seats, first, rng)


class PaintedHand:
    """One game of painted poker: every deal of the plan, in order."""

    def __init__(self, game: PaintedGame, players: int, dealer: int,
                 rng: np.random.Generator) -> None:
        self.game = game
        self.players = players
        self.first_dealer = dealer
        self.plan = game.plan(players)
        seeds = rng.integers(0, 2**63 - 1, size=len(self.plan), dtype=np.int64)
        self._seeds = [int(s) for s in seeds]
        self.log: list[tuple[int, PaintedAction]] = []
        self.records: list[DealRecord] = []
        self.deal_tricks: list[tuple[tuple[tuple[Played, ...], int], ...]] = []
        self.totals: list[float] = [0.0] * players
        self.deal: Deal = self._start(0)

    def _start(self, k: int) -> Deal:
        spec = self.plan[k]
        dealer = (self.first_dealer + k) % self.players  # «переходят по часовой стрелке»
        return deal_cards(spec, self.game.options, self.game.deck, self.players, dealer,
                          np.random.default_rng(self._seeds[k]))

    # the protocol -------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return len(self.records) == len(self.plan)

    @property
    def to_act(self) -> int:
        """The seat to act, -1 when the game is over."""
        return -1 if self.is_over else self.deal.to_act

    def legal_actions(self) -> list[PaintedAction]:
        """The legal actions of the seat to act."""
        return [] if self.is_over else self.deal.legal_actions()

    def apply(self, action: PaintedAction, seat: int | None = None) -> None:
        """Apply the action of the seat to act (``seat``, when given, must be it). An
        illegal action raises :class:`IllegalAction` and changes nothing."""
        if self.is_over:
            raise IllegalAction("painted: the game is over")
        who = self.deal.to_act if seat is None else seat
        taken = self.deal.canonical(action) if who == self.deal.to_act else action
        self.deal.apply(who, taken)
        self.log.append((who, taken))
        if self.deal.is_over:
            self._score()
            if not self.is_over:
                self.deal = self._start(len(self.records))

    def _score(self) -> None:
        d = self.deal
        o = self.game.options
        pts = tuple(points_of(o, d.spec, d.bids[s], d.taken[s]) for s in range(self.players))
        self.totals = [t + p for t, p in zip(self.totals, pts, strict=True)]
        self.records.append(DealRecord(
            no=d.spec.no, kind=d.spec.kind, cards=d.spec.cards, dealer=d.dealer,
            trump=d.trump, trump_card=d.trump_card, bids=tuple(d.bids),
            tricks=tuple(d.taken), points=pts, totals=tuple(self.totals)))
        self.deal_tricks.append(tuple(d.tricks))  # as the deal took them, winner included

    def tricks(self) -> list[tuple[int, list[tuple[int, tuple[tuple[int, str], ...], int]]]]:
        """Every finished deal's tricks in order, for the record: ``(deal, [(leader,
        ((seat, card), ...) in play order, winner), ...])``. The winner is the one
        :meth:`.deal.Deal.apply` decided; a joker's card text says how it was played
        (``Jk high h``), the rest is the card (``As``)."""
        return [(r.no, [(plays[0][0], tuple((s, _card_text(a)) for s, a in plays), winner)
                        for plays, winner in done])
                for r, done in zip(self.records, self.deal_tricks, strict=True)]

    def observation(self, seat: int) -> PaintedView:
        """What ``seat`` may see (see :mod:`pokerarena.games.painted.view`)."""
        if not 0 <= seat < self.players:
            raise PaintedError(f"painted: seat {seat} is not one of the {self.players} seats")
        return view_of(self, seat)

    def result(self) -> PaintedResult:
        """Points per seat and the score sheet (so far, while the game is on)."""
        return PaintedResult(tuple(self.totals), tuple(self.records))

    def sheet(self) -> list[dict[str, Any]]:
        """The score sheet as rows, one per deal and seat (:func:`.sheet.sheet_rows`)."""
        return sheet_rows(self.records)
