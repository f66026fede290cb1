"""One deal of variety («раздача»): the bidding, then the thirteen tricks.

The bidding («торговля»): from the dealer's left, round the table, each player names
one of the eight contracts, never one he has already named in this deal («один
участник не может дважды делать заявку на один и тот же розыгрыш»), round after round
until a contract is named by two players: they are partners and attack with it, the
other two defend. With four players a match comes at the latest with the first bid of
the third round (eight different bids use every contract). With ``finish_round`` the
round of the first match is bid to its end, as in the document's example, and later
matches in it count for nothing.

The play: the player left of the one who first named the contract leads («Начинает
игрок, сидящий слева от участника торговли, который первым сделал заявку на данный
розыгрыш»); each must follow suit, and without it may play any card («при отсутствии
масти козырем бить не обязательно»); the trick's taker leads the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pokerarena.engine.actions import IllegalAction
from pokerarena.games.variety.actions import BID, PLAY, VarietyAction
from pokerarena.games.variety.rules import (
    CONTRACTS,
    LOW_WINS,
    PLAYERS,
    TRUMP,
    VarietyOptions,
    strength,
)

Trick = tuple[tuple[tuple[int, int], ...], int]  # ((seat, card) ..., taker)


def legal_cards(hand: list[int], led: int) -> list[int]:
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` (-1: the
    player leads): the led suit when he holds it, else any card («Ходить обязательно в
    масть»)."""
    same = [c for c in hand if (c & 3) == led]
    return sorted(same or hand)


def trick_taker(plays: list[tuple[int, int]] | tuple[tuple[int, int], ...],
                contract: int) -> int:
    """The seat that takes a trick of (seat, card) plays under ``contract``."""
    led = plays[0][1] & 3
    trump, low = int(TRUMP[contract]), int(LOW_WINS[contract])
    best = max(plays, key=lambda p: strength(p[1], led, trump, low))
    return best[0]


@dataclass
class Deal:
    """The state of one deal; seats are table seats, ``dealer``'s left is ``dealer + 1``."""

    no: int
    options: VarietyOptions
    dealer: int
    hands: list[list[int]]
    bids: list[tuple[int, int]] = field(default_factory=list)  # (seat, contract) in order
    phase: str = BID
    contract: int = 0
    attackers: tuple[int, int] = (-1, -1)
    first_bidder: int = -1
    match_at: int = -1  # index in ``bids`` of the bid that made the match
    leader: int = -1
    trick: list[tuple[int, int]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    taken: list[list[int]] = field(default_factory=list)
    to_act: int = -1

    def __post_init__(self) -> None:
        self.dealt = [sorted(h) for h in self.hands]
        self.hands = [sorted(h) for h in self.hands]
        self.taken = [[] for _ in range(PLAYERS)]
        self.to_act = (self.dealer + 1) % PLAYERS

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def bids_of(self, seat: int) -> list[int]:
        """The contracts ``seat`` has named in this deal, in order."""
        return [c for s, c in self.bids if s == seat]

    def legal_actions(self) -> list[VarietyAction]:
        """The legal actions of the seat to act (none when the deal is over)."""
        if self.phase == BID:
            mine = set(self.bids_of(self.to_act))
            return [VarietyAction(BID, c) for c in CONTRACTS if c not in mine]
        if self.phase != PLAY:
            return []
        led = self.trick[0][1] & 3 if self.trick else -1
        return [VarietyAction(PLAY, 0, c) for c in legal_cards(self.hands[self.to_act], led)]

    def apply(self, seat: int, action: VarietyAction) -> None:
        """Apply ``seat``'s action; an illegal one raises and changes nothing."""
        if self.phase == "over":
            raise IllegalAction("variety: the deal is over")
        if seat != self.to_act:
            raise IllegalAction(f"variety: seat {seat} acts out of turn (seat "
                                f"{self.to_act} is to act)")
        if not isinstance(action, VarietyAction) or action not in self.legal_actions():
            shown = action.text() if isinstance(action, VarietyAction) else repr(action)
            raise IllegalAction(f"variety: seat {seat} cannot {shown} now; legal: "
                                + ", ".join(a.text() for a in self.legal_actions()))
        if action.kind == BID:
            self._bid(seat, action.contract)
        else:
            self._play(seat, action.card)

    def _bid(self, seat: int, contract: int) -> None:
        earlier = [s for s, c in self.bids if c == contract]
        self.bids.append((seat, contract))
        if self.match_at < 0 and earlier:  # «одна из заявок будет сделана двумя»
            self.match_at = len(self.bids) - 1
            self.contract = contract
            self.first_bidder = earlier[0]
            self.attackers = (min(seat, earlier[0]), max(seat, earlier[0]))
            self.leader = (earlier[0] + 1) % PLAYERS
        if self.match_at >= 0 and (seat == self.dealer or not self.options.finish_round):
            self.phase = PLAY
            self.to_act = self.leader
            return
        self.to_act = (seat + 1) % PLAYERS

    def _play(self, seat: int, c: int) -> None:
        self.hands[seat].remove(c)
        self.trick.append((seat, c))
        if len(self.trick) < PLAYERS:
            self.to_act = (seat + 1) % PLAYERS
            return
        taker = trick_taker(self.trick, self.contract)
        self.taken[taker].extend(c for _, c in self.trick)
        self.tricks.append((tuple(self.trick), taker))
        self.trick = []
        self.to_act = taker  # «Ходит игрок, которому досталась предыдущая взятка»
        if not self.hands[taker]:  # the last trick (13 in a real deal)
            self.phase = "over"
            self.to_act = -1

    def attack_flags(self) -> np.ndarray:
        """1 for each attacker's seat, 0 for each defender's."""
        flags = np.zeros(PLAYERS, np.int64)
        for s in self.attackers:
            if s >= 0:
                flags[s] = 1
        return flags

    def partner(self, seat: int) -> int:
        """``seat``'s partner once the bidding has made the pairs (-1 before)."""
        if self.attackers[0] < 0:
            return -1
        if seat in self.attackers:
            return self.attackers[1] if seat == self.attackers[0] else self.attackers[0]
        return next(s for s in range(PLAYERS) if s != seat and s not in self.attackers)

    def played_cards(self) -> list[int]:
        """Every card played so far in this deal, in order."""
        return [c for t, _ in self.tricks for _, c in t] + [c for _, c in self.trick]


def deal_cards(no: int, options: VarietyOptions, dealer: int,
               rng: np.random.Generator) -> Deal:
    """Shuffle the 52 cards and deal them all, one at a time from the dealer's left."""
    order = rng.permutation(52)
    hands: list[list[int]] = [[] for _ in range(PLAYERS)]
    for i, c in enumerate(order):
        hands[(dealer + 1 + i) % PLAYERS].append(int(c))
    return Deal(no, options, dealer, hands)
