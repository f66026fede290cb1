"""One deal of American boston: the cards, the bidding, the play of the thirteen tricks.

Seats are numbered in the order of play, which in this document runs to the dealer's
right («Раздача начинается с правого игрока», the kitty «около своей правой руки …
указывает на того, кому пришла очередь сдавать»): seat ``dealer + 1`` is dealt first,
bids first («Первый сосед сдающего») and leads the first trick, and the last card, turned
up for the trump, is the dealer's («последняя карта идет сдающему, он открывает ее»).

The bidding, as implemented: in turn, each player still in either passes (and is out,
«После паса принимать участие в покупке уже нельзя»), accepts the proposal on the table
(a junior or senior bid nobody supports yet: «принять вызов»), or bids a higher rung of
the ladder, which destroys the bid and its support below it («Прикуп одного игрока
уничтожается высшим прикупом другого игрока»). It ends when everyone but the bidder and
his supporter has passed, or when all four pass.
"""

from __future__ import annotations

import numpy as np

from pokerarena.cards import SUITS, card_str
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.boston.actions import ACCEPT, PASS, PLAY, BostonAction, bid
from pokerarena.games.boston.rules import (
    INDEPENDENCE,
    JUNIOR,
    LADDER,
    MISERE,
    NINE_JUNIOR,
    NINE_SENIOR,
    PLAYERS,
    PROPOSALS,
    SENIOR,
    SOLO,
    TRICKS,
    Outcome,
    boston_card,
    suits_in_play,
    trick_winner,
)

AUCTION, PLAYING, OVER = "auction", "play", "over"


def deal_cards(rng: np.random.Generator, dealer: int) -> tuple[list[list[int]], int]:
    """Thirteen cards each, one at a time from the dealer's first neighbour, so the last
    card, turned up, is the dealer's; each hand sorted, and the turned card."""
    order = [int(c) for c in rng.permutation(52)]
    hands: list[list[int]] = [[] for _ in range(PLAYERS)]
    for i, c in enumerate(order):
        hands[(dealer + 1 + i) % PLAYERS].append(c)
    return [sorted(h) for h in hands], order[-1]


class Deal:
    """The state of one deal. ``senior``/``junior``: the game's senior suit and this
    deal's junior suit (-1 when the senior suit is turned again: «играют в старшую»);
    ``misere_trump``: the turned suit stays trump in a misère (option ``no_boston``)."""

    def __init__(self, no: int, dealer: int, hands: list[list[int]], turned: int,
                 senior: int, junior: int, misere_trump: bool) -> None:
        self.no = no
        self.dealer = dealer
        self.hands = hands
        self.turned = turned
        self.senior = senior
        self.junior = junior
        self.misere_trump = misere_trump
        self.phase = AUCTION
        self.to_act = (dealer + 1) % PLAYERS
        self.passed = [False] * PLAYERS
        self.high: BostonAction | None = None
        self.high_seat = -1
        self.supporter = -1
        self.auction: list[tuple[int, BostonAction]] = []
        self.contract = ""
        self.declarer = -1
        self.trump = -1
        self.boston = -1
        self.boston_holder = -1
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[tuple[tuple[int, int], ...], int]] = []
        self.taken = [0] * PLAYERS

    # the bidding ----------------------------------------------------------------------
    def _bids(self) -> list[BostonAction]:
        rung = LADDER[self.high.contract][0] if self.high is not None else 0
        named = [self.senior] + ([self.junior] if self.junior >= 0 else [])
        out: list[BostonAction] = []
        for contract, (r, _) in LADDER.items():
            if r <= rung or (self.junior < 0 and contract in (JUNIOR, NINE_JUNIOR)):
                continue
            if contract == SOLO:
                out += [bid(SOLO, s) for s in named]
            elif contract == INDEPENDENCE:
                out += [bid(INDEPENDENCE, s) for s in range(4)]
            else:
                out.append(bid(contract))
        return out

    def legal_actions(self) -> list[BostonAction]:
        """Every legal action of the seat to act (none once the deal is over)."""
        if self.phase == AUCTION:
            out = [BostonAction(PASS)]
            if self.high is not None and self.high.contract in PROPOSALS and self.supporter < 0:
                out.append(BostonAction(ACCEPT))
            return out + self._bids()
        if self.phase == PLAYING:
            hand = self.hands[self.to_act]
            if self.trick:
                es = suits_in_play(self.trump, self.boston)
                led = es[self.trick[0][1]]
                follow = [c for c in hand if es[c] == led]
                hand = follow or hand  # «Имеющий требуемую масть обязан сносить именно ее»
            return [BostonAction(PLAY, card=c) for c in hand]
        return []

    def apply(self, seat: int, action: BostonAction) -> BostonAction:
        """Apply ``seat``'s action; an illegal one raises and changes nothing. Returns the
        action as the rules know it (the log's form)."""
        if self.phase == OVER:
            raise IllegalAction("boston: the deal is over")
        if seat != self.to_act:
            raise IllegalAction(f"boston: seat {seat} may not act now; seat {self.to_act} is "
                                "to act")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(f"boston: {_text(action)} is not legal now; legal: "
                                + ", ".join(a.text() for a in legal[:16])
                                + (" …" if len(legal) > 16 else ""))
        taken = legal[legal.index(action)]
        if self.phase == AUCTION:
            self._bid(seat, taken)
        else:
            self._play(seat, taken.card)
        return taken

    def _bid(self, seat: int, a: BostonAction) -> None:
        self.auction.append((seat, a))
        if a.kind == PASS:
            self.passed[seat] = True
        elif a.kind == ACCEPT:
            self.supporter = seat
        else:
            self.high, self.high_seat, self.supporter = a, seat, -1
        for k in range(1, PLAYERS + 1):
            nxt = (seat + k) % PLAYERS
            if not self.passed[nxt] and nxt not in (self.high_seat, self.supporter):
                self.to_act = nxt
                return
        self._close_auction()

    def _close_auction(self) -> None:
        if self.high is None:  # «Если все играющие пасуют»
            self.phase, self.to_act = OVER, -1
            return
        self.contract, self.declarer = self.high.contract, self.high_seat
        self.trump = self.trump_of(self.high)
        self.boston = -1 if self.contract == MISERE else boston_card(self.trump)
        self.boston_holder = next((s for s in range(PLAYERS) if self.boston in self.hands[s]),
                                  -1)
        self.phase = PLAYING
        self.to_act = (self.dealer + 1) % PLAYERS

    def trump_of(self, a: BostonAction) -> int:
        """The trump suit a bid plays in (-1: none)."""
        if a.contract in (JUNIOR, NINE_JUNIOR):
            return self.junior
        if a.contract in (SENIOR, NINE_SENIOR):
            return self.senior
        if a.contract == MISERE:
            return self.turned & 3 if self.misere_trump else -1
        return a.suit

    # the play -------------------------------------------------------------------------
    def _play(self, seat: int, c: int) -> None:
        self.hands[seat].remove(c)
        self.trick.append((seat, c))
        if len(self.trick) < PLAYERS:
            self.to_act = (seat + 1) % PLAYERS
            return
        w = trick_winner(self.trick, self.trump, self.boston)
        self.taken[w] += 1
        self.tricks.append((tuple(self.trick), w))
        self.trick = []
        if len(self.tricks) == TRICKS:
            self.phase, self.to_act = OVER, -1
        else:
            self.to_act = w

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def played(self) -> bool:
        """True for a deal with a contract (not passed out)."""
        return bool(self.contract)

    def outcome(self) -> Outcome:
        """The finished deal's outcome for the payments."""
        return Outcome(self.contract, self.declarer, self.supporter, tuple(self.taken),
                       self.boston_holder)

    def describe(self) -> str:
        """One line: the contract and its trump, or the pass."""
        if not self.contract:
            return "all passed"
        t = "no trumps" if self.trump < 0 else f"trump {SUITS[self.trump]}"
        return f"{self.contract} by seat {self.declarer} ({t}), boston {card_str(self.boston)}" \
            if self.boston >= 0 else f"{self.contract} by seat {self.declarer} ({t})"


def _text(a: object) -> str:
    try:
        return a.text() if isinstance(a, BostonAction) else repr(a)
    except (ValueError, IndexError):
        return repr(a)
