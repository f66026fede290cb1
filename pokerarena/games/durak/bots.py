"""The built-in durak bots: ``random`` (any legal action), ``rule`` (the lowest card that
does the job, trumps kept; takes when only a high trump would beat while the stock lasts)
and ``counter`` (counts the cards: knows which cards are gone, which each opponent picked
up and who drew the trump card; once the stock is down to four cards it deals the unseen
cards out consistently with that, plays every candidate action on with the rule bot's
policy for all seats, and picks the one that leaves it the durak least often; before
that it plays as the rule bot).

A bot answers ``act(view) -> DurakAction`` for a :class:`~.view.DurakView`, built from the
view alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from pokerarena.cards import rank_of, suit_of
from pokerarena.games.durak.actions import BEAT, PASS_ACTION, TAKE_ACTION, THROW, DurakAction
from pokerarena.games.durak.game import DEFEND, LEAD, DurakGame, DurakHand, hand_at
from pokerarena.games.durak.rules import DurakError, DurakOptions
from pokerarena.games.durak.view import DurakView
from pokerarena.games.family_bot import FamilyBot, Option, UniformBot, bot_table, make_family_bot

HIGH_TRUMP = 9  # a jack or higher: the rule bot would rather take than spend it early
CHEAP_TABLE = 3  # ... when the table holds at most this many cards


class DurakBot(FamilyBot[DurakView, DurakAction]):
    """A durak bot: the shared base (:class:`~pokerarena.games.family_bot.FamilyBot`)
    typed for this family, its messages and its error class."""

    family, error = "durak", DurakError


class RandomBot(UniformBot[DurakView, DurakAction], DurakBot):
    """Uniform over the legal actions."""


def _cost(c: int, trump: int) -> int:
    """How dear a card is to spend: its rank, trumps above every plain card."""
    return rank_of(c) + (13 if suit_of(c) == trump else 0)


def rule_choice(legal: Sequence[DurakAction], hand: Sequence[int], trump: int,
                stock: int, phase: str, me: int, defender: int, table_cards: int) -> DurakAction:
    """The rule bot's choice among ``legal`` for the seat ``me`` holding ``hand``."""
    if phase == LEAD:
        return min(legal, key=lambda a: _cost(a.card, trump))
    if phase == DEFEND:
        beats = [a for a in legal if a.kind == BEAT]
        if not beats:
            return TAKE_ACTION
        best = min(beats, key=lambda a: _cost(a.card, trump))
        if stock and suit_of(best.card) == trump and rank_of(best.card) >= HIGH_TRUMP \
                and table_cards <= CHEAP_TABLE:
            return TAKE_ACTION
        return best
    plain = [a for a in legal if a.kind == THROW and suit_of(a.card) != trump]
    if me == defender:  # to himself: only a card he beats at once with a plain card
        plain = [a for a in plain if any(suit_of(c) == suit_of(a.card) and c > a.card
                                         for c in hand)]
    return min(plain, key=lambda a: rank_of(a.card)) if plain else PASS_ACTION


def _rule_act(view: DurakView) -> DurakAction:
    table_cards = sum(1 + (d >= 0) for _, d in view.table)
    return rule_choice(view.legal, view.hand, view.trump, view.stock, view.phase,
                       view.seat, view.defender, table_cards)


class RuleBot(DurakBot):
    """The lowest card that does the job, trumps kept (see :func:`rule_choice`)."""

    name = "rule"
    description = "lowest plain card that works, keeps trumps, takes rather than spend a " \
                  "high trump early"

    def act(self, view: DurakView) -> DurakAction:
        return _rule_act(view)


def rule_move(h: DurakHand) -> DurakAction:
    """:func:`rule_choice` for the seat to act in ``h`` (the simulations' policy)."""
    s = h.to_act
    table_cards = sum(1 + (d >= 0) for _, d in h.table)
    return rule_choice(h.legal_actions(), h.hands[s], h.trump, len(h.stock), h.phase, s,
                       h.defender, table_cards)


@cache
def _game(options: DurakOptions) -> DurakGame:
    return DurakGame(options)


def unseen_cards(view: DurakView) -> list[int]:
    """The cards this seat cannot place: not in its hand, on the table, in the discard,
    seen going into another hand, nor the trump card under the stock (these are dealt
    out again in a simulation)."""
    out = set(view.hand) | set(view.gone) | {c for k in view.known for c in k}
    out |= {c for pair in view.table for c in pair if c >= 0}
    if view.trump_holder < 0:
        out.add(view.trump_card)
    return [c for c in _game(view.options).deck if c not in out]


class CounterBot(DurakBot):
    """Counts the cards (see the module docstring): from ``sim_stock`` cards left in the
    stock on it simulates ``samples`` deals of the unseen cards per candidate action (one
    when the last opponent's hand is known exactly), at most ``budget`` play-outs in all
    per decision."""

    name = "counter"
    description = "counts the cards; near the end plays each candidate on with the rule " \
                  "policy over consistent deals of the unseen cards"

    samples = Option(6)
    sim_stock = Option(4)
    budget = Option(12)

    def act(self, view: DurakView) -> DurakAction:
        legal = view.legal
        if len(legal) == 1 or view.stock > self.sim_stock:
            return _rule_act(view)
        unseen = unseen_cards(view)
        others = [s for s in range(view.players) if s != view.seat and view.hand_sizes[s]]
        exact = view.stock == 0 and len(others) == 1  # the one opponent holds the rest
        many = max(1, min(self.samples, self.budget // len(legal)))
        worlds = [self._deal(view, unseen) for _ in range(1 if exact else many)]
        game = _game(view.options)
        scores = {a: 0.0 for a in legal}
        for hands, stock in worlds:
            for a in legal:
                scores[a] += self._play_on(game, view, hands, stock, a)
        first = _rule_act(view)
        return min(legal, key=lambda a: (scores[a], a != first))

    def _deal(self, view: DurakView, unseen: list[int]) -> tuple[list[list[int]], list[int]]:
        """One deal of the unseen cards consistent with what is known."""
        pool = list(unseen)
        self.rng.shuffle(pool)
        hands: list[list[int]] = []
        for s in range(view.players):
            if s == view.seat:
                hands.append(list(view.hand))
                continue
            need = view.hand_sizes[s] - len(view.known[s])
            hands.append([*view.known[s], *pool[:need]])
            pool = pool[need:]
        stock = pool[:max(view.stock - (view.trump_holder < 0), 0)]
        if view.trump_holder < 0 and view.stock:
            stock.append(view.trump_card)
        return hands, stock

    def _play_on(self, game: DurakGame, view: DurakView, hands: list[list[int]],
                 stock: list[int], first: DurakAction) -> float:
        """1 if this seat ends the durak after ``first`` and the rule policy for all."""
        h = hand_at(game, view, hands, stock)
        h.play(h.to_act, first)
        while not h.is_over:
            h.play(h.to_act, rule_move(h))
        return 1.0 if h.durak == view.seat else 0.0


BOTS: dict[str, type[DurakBot]] = bot_table(RandomBot, RuleBot, CounterBot)


class DurakBotError(DurakError):
    """A durak bot name that does not exist."""


def make_bot(name: str, seed: int | None = None, **options: Any) -> DurakBot:
    """The built-in bot ``name`` (one of :data:`BOTS`); an unknown one is a
    :class:`DurakBotError`."""
    return make_family_bot("durak", BOTS, DurakBotError, name, seed, **options)
