"""A game of American durak behind the game protocol.

>>> hand = DurakGame().new_hand(seed=7, seats=3)     # one whole game
>>> while not hand.is_over:
...     hand.apply(hand.legal_actions()[0])
>>> hand.result().deltas                              # doctest: +SKIP

A *hand* of this family is one whole game: the document scores a game by its loser
(«Этот игрок считается проигравшим и зовется "дураком"»), and a series of games is
chained by the loser («в следующей игре сдает карты игрок, который проиграл»). So
``new_hand(seed, seats, dealer=None)`` is the first game of a series (the dealer drawn
by lot, the lowest trump leads) and ``new_hand(seed, seats, dealer=d)`` a later one,
dealt by ``d``, the previous game's durak, and led «под дурака» or «из-под дурака» as
the options say.

One bout: the attacker leads one card to the player on his left, who beats it or takes
the table. Once the open card is beaten, the right to throw in passes round from the
attacker («Право подкидывать первым принадлежит игроку, который сделал первый ход,
далее … по часовой стрелке»); a player who throws in keeps the right until he passes,
and the defender's turn in that round is his throw-in to himself («имеет право
подкинуть самому себе, а потом отбить»). When everybody has passed since the last card
was beaten, the bout is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.cards import rank_of, suit_of
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.base import FamilyGame
from pokerarena.games.durak.actions import (
    BEAT,
    PASS,
    PASS_ACTION,
    TAKE,
    TAKE_ACTION,
    THROW,
    DurakAction,
)
from pokerarena.games.durak.rules import (
    FAMILY,
    HAND_SIZE,
    LOWEST_CARD,
    UNDER,
    DurakError,
    DurakOptions,
    beats,
    check_players,
    deck_cards,
    durak_options,
)
from pokerarena.games.durak.view import DurakView, view_of

LEAD, DEFEND, THROWING, OVER = "lead", "defend", "throw", "over"


@dataclass(frozen=True)
class DurakResult:
    """A finished game: the durak (None when the last cards went out together and nobody
    is left holding any), each seat's points (-1 for the durak, 0 for everyone else), the
    order the others went out in, how often each seat took, and the bouts played."""

    durak: int | None
    deltas: tuple[float, ...]
    out_order: tuple[int, ...]
    takes: tuple[int, ...]
    bouts: int


class DurakGame(FamilyGame):
    """American durak with its options; :meth:`new_hand` deals a game."""

    family = FAMILY
    variant_id = FAMILY
    name = "American durak («Дурак американский»)"
    players = (2, 6)
    utility = "constant_sum"   # a game costs its durak one point, nobody else anything
    utility_sum = -1.0

    def __init__(self, options: DurakOptions | dict[str, Any] | None = None) -> None:
        self.options: DurakOptions = durak_options(options)
        self.key: str = self.options.key_text()
        self.deck: list[int] = deck_cards(self.options.deck)

    def new_hand(self, seed: int | np.random.Generator | None, seats: int,
                 dealer: int | None = None, series_game: int | None = None) -> DurakHand:
        """A new game for ``seats`` players. ``dealer`` None: a first game (dealer by lot,
        «Первый сдатчик определяется жребием»); else the seat that deals, the durak of the
        game before («сдает карты игрок, который проиграл в предыдущей игре»).
        ``series_game``: the game's position in its series (0: the first game, which
        takes no dealer; a later one takes its dealer); None: 0 for a first game, -1
        (not given) for a later one."""
        check_players(seats)
        if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < seats):
            raise DurakError(f"durak: dealer: seat {dealer!r} is not one of the {seats} seats")
        if series_game is None:
            series_game = 0 if dealer is None else -1
        elif not isinstance(series_game, int) or isinstance(series_game, bool) or \
                series_game < 0 or (series_game == 0) != (dealer is None):
            raise DurakError(f"durak: series_game: {series_game!r} is not a position in a "
                             "series: 0 for a first game (no dealer), 1 or more for a later "
                             "one (dealt by the last durak)")
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        first = dealer is None
        dealt_by = int(rng.integers(seats)) if dealer is None else dealer
        order = [int(c) for c in rng.permutation(np.array(self.deck, np.int64))]
        hand = DurakHand(self, seats)
        hand.series_game = series_game
        hand.deal(order, dealt_by, first, rng)
        return hand

    def arranged(self, hands: Sequence[Sequence[int]], stock: Sequence[int], attacker: int,
                 trump_card: int, dealer: int = 0) -> DurakHand:
        """A game from given cards (a worked example, a bot's simulation): ``stock`` top
        first, its last card the trump card; with no stock, ``trump_card`` is wherever it went."""
        n = check_players(len(hands))
        hand = DurakHand(self, n)
        hand.hands = [list(h) for h in hands]
        hand.stock = list(reversed(stock))
        cards = hand.cards_accounted()
        if len(cards) != len(set(cards)):
            raise DurakError("durak: arranged cards: a card appears twice")
        if stock and stock[-1] != trump_card:
            raise DurakError("durak: arranged cards: the trump card lies under the stock")
        holders = [s for s in range(n) if trump_card in hand.hands[s]]
        hand.trump_card, hand.trump = trump_card, suit_of(trump_card)
        hand.trump_holder = holders[0] if (holders and not stock) else -1
        if hand.trump_holder >= 0:
            hand.public[hand.trump_holder].add(trump_card)
        hand.dealer, hand.attacker = dealer, attacker
        hand.first_attacker, hand.defender = attacker, (attacker + 1) % n
        return hand

    def replay(self, seed: int | np.random.Generator | None, seats: int,
               actions: Iterable[tuple[int, DurakAction]],
               dealer: int | None = None) -> DurakHand:
        """The game ``new_hand(seed, seats, dealer)`` with ``actions`` (a log) applied;
        an action may be given as a plain tuple (a log read back from JSON)."""
        return super().replay(seed, seats, ((seat, DurakAction(*action))
                                            for seat, action in actions), dealer)

    def score_range(self, players: int) -> tuple[float, float]:
        """A game costs its durak one point and nobody else anything."""
        return -1.0, 0.0


class DurakHand:
    """One game in progress. Public state: every hand, the stock (the next card drawn is
    ``stock[-1]``; the trump card lies under it, ``stock[0]``), the table as
    [attack, defence] pairs (defence -1 while open), the discard, the roles."""

    def __init__(self, game: DurakGame, players: int) -> None:
        self.game = game
        self.players = players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.stock: list[int] = []
        self.table: list[list[int]] = []
        self.discard: list[int] = []
        self.log: list[tuple[int, DurakAction]] = []
        self.takes = [0] * players
        self.public: list[set[int]] = [set() for _ in range(players)]  # seen going in
        self.out_order: list[int] = []
        self.passed: set[int] = set()
        self.dealer = self.attacker = self.defender = self.thrower = self.last_thrower = 0
        self.first_attacker = 0
        self.trump = self.trump_card = self.trump_holder = -1
        self.phase = LEAD
        self.bouts = 0
        self.bout_ends: list[tuple[int, int, int, bool]] = []  # (log length, roles, taken)
        self.durak: int | None = None
        self.series_game = 0  # the game's position in its series (-1: not given)

    # setting up ---------------------------------------------------------------------------
    def deal(self, order: list[int], dealer: int, first_game: bool,
             rng: np.random.Generator) -> None:
        """Deal ``order`` (the shuffled deck, top first) six cards each, one at a time
        from the dealer's left; turn the next card for trump and put it under the deck
        («Верхняя карта с колоды снимается, открывается и кладется под колоду»)."""
        n = self.players
        self.dealer = dealer
        for i in range(HAND_SIZE * n):
            self.hands[(dealer + 1 + i) % n].append(order[i])
        rest = order[HAND_SIZE * n:]
        if rest:
            self.trump_card = rest[0]
            self.stock = [rest[0], *reversed(rest[1:])]
        else:  # 6 players, 36 cards: the dealer's last card names trump (a reading)
            self.trump_card, self.trump_holder = self.hands[dealer][-1], dealer
            self.public[dealer].add(self.trump_card)
        self.trump = suit_of(self.trump_card)
        self.attacker = self._first_mover(first_game, rng)
        self.first_attacker = self.attacker
        self.defender = (self.attacker + 1) % n

    def _first_mover(self, first_game: bool, rng: np.random.Generator) -> int:
        """«В первой игре ходит первым игрок, у которого имеется младший козырь, если
        козыря нет, то либо по жребию или же определяют по младшей карте; в следующих
        играх … под дурака … справа от дурака; из-под дурака … слева от дурака»."""
        n = self.players
        if not first_game:
            return (self.dealer + (-1 if self.game.options.first_move == UNDER else 1)) % n
        trumps = [(rank_of(c), s) for s in range(n) for c in self.hands[s]
                  if suit_of(c) == self.trump]
        if trumps:
            return min(trumps)[1]
        if self.game.options.no_trump_lead == LOWEST_CARD:
            low = min(rank_of(c) for h in self.hands for c in h)
            tied = [s for s in range(n) if any(rank_of(c) == low for c in self.hands[s])]
            return tied[int(rng.integers(len(tied)))] if len(tied) > 1 else tied[0]
        return int(rng.integers(n))

    # the protocol -------------------------------------------------------------------------
    @property
    def first_dealer(self) -> int:
        """The seat that dealt (the platform's rows read it)."""
        return self.dealer

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def to_act(self) -> int:
        """The seat to act (-1 once the game is over)."""
        if self.phase == LEAD:
            return self.attacker
        if self.phase == DEFEND:
            return self.defender
        return self.thrower if self.phase == THROWING else -1

    def table_ranks(self) -> set[int]:
        """The ranks on the table, attack and defence cards alike («карты того же
        значения, что лежат на столе»; «можно подкидывать и те карты, которыми бился сам
        2-й игрок»)."""
        return {rank_of(c) for pair in self.table for c in pair if c >= 0}

    def can_throw(self, seat: int) -> bool:
        """Whether ``seat`` may throw in now at all: it holds a card, and the defender,
        throwing to himself, keeps one to beat it with («а потом отбить»)."""
        held = len(self.hands[seat])
        return held >= 2 if seat == self.defender else held >= 1

    def legal_actions(self) -> tuple[DurakAction, ...]:
        """Every legal action of the seat to act, in a fixed order."""
        if self.phase == LEAD:
            return tuple(DurakAction(THROW, c) for c in sorted(self.hands[self.attacker]))
        if self.phase == DEFEND:
            open_card = self.table[-1][0]
            return (*(DurakAction(BEAT, c) for c in sorted(self.hands[self.defender])
                      if beats(c, open_card, self.trump)), TAKE_ACTION)
        if self.phase == THROWING:
            seat = self.thrower
            if not self.can_throw(seat):
                return (PASS_ACTION,)
            ranks = self.table_ranks()
            return (*(DurakAction(THROW, c) for c in sorted(self.hands[seat])
                      if rank_of(c) in ranks), PASS_ACTION)
        return ()

    def apply(self, action: DurakAction, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act; an illegal one (or the wrong seat) is an
        :class:`IllegalAction` and changes nothing."""
        if self.phase == OVER:
            raise IllegalAction("durak: the game is over")
        actor = self.to_act
        if seat is not None and seat != actor:
            raise IllegalAction(f"durak: it is seat {actor}'s turn, not seat {seat}'s")
        try:
            legal = action in self.legal_actions()
        except TypeError:
            legal = False
        if not legal:
            shown = action.text() if isinstance(action, DurakAction) else repr(action)
            raise IllegalAction(f"durak: {shown} is not legal for seat {actor} now "
                                f"({self.phase})")
        self.play(actor, DurakAction(*action))

    def play(self, actor: int, action: DurakAction) -> None:
        """Apply a legal ``action`` of ``actor``, the seat to act, without checking it
        (:meth:`apply` checks; a simulation that only plays legal actions saves it)."""
        self.log.append((actor, action))
        self.public[actor].discard(action.card)
        if action.kind == THROW:
            self.hands[actor].remove(action.card)
            self.table.append([action.card, -1])
            self.last_thrower = actor
            self.phase = DEFEND
        elif action.kind == BEAT:
            self.hands[actor].remove(action.card)
            self.table[-1][1] = action.card
            self._after_beat()
        elif action.kind == TAKE:
            self._end_bout(taken=True)
        elif action.kind == PASS:
            self.passed.add(actor)
            self._next_thrower(actor)

    def _after_beat(self) -> None:
        """The open card is beaten: the one who threw it may go on throwing in."""
        self.passed = set()
        if not self.hands[self.defender]:
            self._end_bout(taken=False)  # nothing left to beat with: nobody may throw
            return
        if self.hands[self.last_thrower]:
            self.thrower, self.phase = self.last_thrower, THROWING
        else:
            self._next_thrower(self.last_thrower)

    def _next_thrower(self, seat: int) -> None:
        """The next seat clockwise holding cards that has not passed (a defender with
        one card left may only pass: «заявляет, что у него самого карт для подкидывания
        самому себе нет»); none: the bout is over
        («Когда у всех игроков … не останется карт для подкидывания, или же они не
        захотят сбрасывать свои карты, все выложенные карты уходят в отбой»)."""
        n = self.players
        for k in range(1, n + 1):
            t = (seat + k) % n
            if t not in self.passed and self.hands[t]:
                self.thrower, self.phase = t, THROWING
                return
        self._end_bout(taken=False)

    def _end_bout(self, taken: bool) -> None:
        """The table goes to the defender or the discard; everybody draws up to six,
        «первым берет игрок, который делал первый ход, затем … игрок, который
        отбивался»; the next bout's roles."""
        n, d = self.players, self.defender
        cards = [c for pair in self.table for c in pair if c >= 0]
        if taken:
            self.hands[d].extend(cards)
            self.public[d].update(cards)
            self.takes[d] += 1
        else:
            self.discard.extend(cards)
        self.table, self.passed = [], set()
        self.bouts += 1
        self.bout_ends.append((len(self.log), self.attacker, d, taken))
        rest = [(d + k) % n for k in range(1, n) if (d + k) % n != self.attacker]
        for s in (self.attacker, d, *rest):
            while len(self.hands[s]) < HAND_SIZE and self.stock:
                self.hands[s].append(self.stock.pop())
                if not self.stock:
                    self.trump_holder = s
                    self.public[s].add(self.trump_card)
        if not self.stock:
            self.out_order.extend(s for s in range(n)
                                  if not self.hands[s] and s not in self.out_order)
        holding = [s for s in range(n) if self.hands[s]]
        if len(holding) <= 1:
            self.phase = OVER
            self.durak = holding[0] if holding else None
            return
        # a reading: beaten off, the defender leads next; taken, the player on his left
        a = d if (not taken and self.hands[d]) else self._next_holding(d)
        self.attacker, self.defender, self.phase = a, self._next_holding(a), LEAD

    def _next_holding(self, seat: int) -> int:
        """The next seat clockwise (to the left) that still holds cards."""
        n = self.players
        return next((seat + k) % n for k in range(1, n) if self.hands[(seat + k) % n])

    def result(self) -> DurakResult:
        """The finished game (an :class:`IllegalAction` before it is over)."""
        if self.phase != OVER:
            raise IllegalAction("durak: the game is not over yet")
        deltas = tuple(-1.0 if s == self.durak else 0.0 for s in range(self.players))
        return DurakResult(self.durak, deltas, tuple(self.out_order), tuple(self.takes),
                           self.bouts)

    def tricks(self) -> list[tuple[int, list[tuple[int, tuple[tuple[int, str], ...], int]]]]:
        """The game's bouts for the record, in the shape of the trick-taking families'
        tricks (one deal: ``[(0, [(attacker, ((seat, move), ...) in play order, taker),
        ...])]``): a move is its text (``throw 7s``, ``beat 9s``, ``take``, ``pass``); the
        taker is the defender who took the table, -1 when
        it was beaten off. Bouts end where the game ended them (:meth:`_end_bout`)."""
        out, start = [], 0
        for end, attacker, defender, taken in self.bout_ends:
            moves = tuple((s, a.text()) for s, a in self.log[start:end])
            out.append((attacker, moves, defender if taken else -1))
            start = end
        return [(0, out)]

    def observation(self, seat: int) -> DurakView:
        """What ``seat`` may know now (see :mod:`.view`)."""
        return view_of(self, seat)

    def cards_accounted(self) -> list[int]:
        """Every card of the game wherever it is now (hands, stock, table, discard)."""
        return sorted([*(c for h in self.hands for c in h), *self.stock,
                       *(c for p in self.table for c in p if c >= 0), *self.discard])


def hand_at(game: DurakGame, view: DurakView, hands: Sequence[Sequence[int]],
            stock: Sequence[int]) -> DurakHand:
    """A game in the state ``view`` shows, with every hand given and the stock (top
    first): a bot's guess at the unseen cards, to play on in simulation."""
    h = DurakHand(game, view.players)
    h.hands = [list(x) for x in hands]
    h.stock = list(reversed(stock))
    h.table = [[a, d] for a, d in view.table]
    h.discard = list(view.gone)
    h.public = [set(k) for k in view.known]
    h.takes, h.out_order, h.passed = list(view.takes), list(view.out), set(view.passed)
    h.dealer, h.first_attacker, h.bouts = view.dealer, view.first_attacker, view.bouts
    h.trump, h.trump_card, h.trump_holder = view.trump, view.trump_card, view.trump_holder
    h.attacker, h.defender, h.last_thrower = view.attacker, view.defender, view.last_thrower
    h.phase = view.phase
    h.thrower = view.to_act if view.phase == THROWING else view.last_thrower
    return h


__all__ = ["DEFEND", "LEAD", "OVER", "THROWING", "DurakGame", "DurakHand", "DurakResult", "hand_at"]
