"""One deal of painted poker («раздача», «кон»): the trump, the bids, the tricks.

The rules of the trick live in plain functions (:func:`legal_plays`,
:func:`trick_winner`) so the game, the bots and the tests share them:

- follow the led suit; without it, a trump (option ``must_trump``); without either, any
  card («должен побить ее той же мастью или козырем, либо сбросить ненужную карту»);
- a joker may always be played, as the highest card («бьющей даже козырного туза») or
  the lowest; leading, it may name a call («может заявить»), and the others must play
  their highest card of the named suit (else a trump, else any card), their highest
  trump (else any), or their lowest card of the named suit (else a trump, else any):
  «если у оппонента нет подходящей масти или козыря, он может сбрасывать из руки любую
  карту»; a joker led high or low without a call leads no suit, so any card follows it
  (option ``joker_call = required``: every joker lead names a call);
- the highest joker played high takes the trick (a later one over an earlier one), else
  the highest trump, else the highest card of the led suit (a joker leading low is the
  lowest card of its named suit; after a joker led low without a call, the suit of the
  first ordinary card played is the led suit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from pokerarena.cards import JOKERS
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.painted.actions import (
    BID,
    HIGH,
    LOW,
    PLAY,
    TRUMPS,
    PaintedAction,
)
from pokerarena.games.painted.rules import (
    BIDDING_KINDS,
    BLIND,
    LOBOVAYA,
    NO_TRUMP,
    DealSpec,
    PaintedOptions,
)


class Played(tuple):
    """One card in a trick: (seat, action)."""

    __slots__ = ()

    def __new__(cls, seat: int, action: PaintedAction) -> Played:
        return tuple.__new__(cls, (seat, action))

    @property
    def seat(self) -> int:
        return int(self[0])

    @property
    def action(self) -> PaintedAction:
        return self[1]  # type: ignore[no-any-return]


def _suit(c: int) -> int:
    return -1 if c in JOKERS else c & 3


def _rank(c: int) -> int:
    return -1 if c in JOKERS else c >> 2


def requirement(lead: PaintedAction | None, trump: int) -> tuple[str, int]:
    """What a follower owes the trick led by ``lead``: (``follow``, suit) after an ordinary
    card, (``highest``|``lowest``, suit) or (``highest_trump``, trump) after a joker's
    call, (``any``, -1) when leading or after a joker led without a call (no suit)."""
    if lead is None:
        return "any", -1
    if lead.card not in JOKERS:
        return "follow", _suit(lead.card)
    if lead.joker == TRUMPS:
        return "highest_trump", trump
    if lead.suit < 0:
        return "any", -1
    return ("highest" if lead.joker == HIGH else "lowest"), lead.suit


def legal_plays(hand: Sequence[int], lead: PaintedAction | None, trump: int,
                must_trump: bool = True, call_required: bool = False) -> list[PaintedAction]:
    """Every legal play of ``hand`` in a trick led by ``lead`` (None: this player leads);
    ``call_required``: a joker leading must name a call (option ``joker_call``)."""
    jokers = sorted({c for c in hand if c in JOKERS})[:1]  # the jokers are alike
    plain = sorted(c for c in hand if c not in JOKERS)
    out: list[PaintedAction] = []
    if lead is None:
        out = [PaintedAction(PLAY, 0, c) for c in plain]
        for j in jokers:
            out += [PaintedAction(PLAY, 0, j, HIGH, s) for s in range(4) if s != trump]
            if trump >= 0:
                out.append(PaintedAction(PLAY, 0, j, TRUMPS))
            out += [PaintedAction(PLAY, 0, j, LOW, s) for s in range(4)]
            if not call_required:  # «может заявить»: a lead without a call
                out += [PaintedAction(PLAY, 0, j, HIGH), PaintedAction(PLAY, 0, j, LOW)]
        return out
    need, suit = requirement(lead, trump)
    same = [c for c in plain if _suit(c) == suit]
    trumps = [c for c in plain if trump >= 0 and _suit(c) == trump]
    if need == "any":
        allowed = plain
    elif need == "highest_trump":
        allowed = [max(trumps, key=_rank)] if trumps else plain
    elif same:
        if need == "highest":
            allowed = [max(same, key=_rank)]
        elif need == "lowest":
            allowed = [min(same, key=_rank)]
        else:
            allowed = same
    elif trumps and (must_trump or need != "follow"):
        allowed = trumps
    else:
        allowed = plain
    out = [PaintedAction(PLAY, 0, c) for c in allowed]
    for j in jokers:
        out += [PaintedAction(PLAY, 0, j, HIGH), PaintedAction(PLAY, 0, j, LOW)]
    return out


def trick_winner(plays: Sequence[Played], trump: int) -> int:
    """The seat that takes the trick (see the module docstring)."""
    high = [p for p in plays if p.action.card in JOKERS and p.action.joker in (HIGH, TRUMPS)]
    if high:
        return high[-1].seat
    lead = plays[0].action
    led = lead.suit if lead.card in JOKERS else _suit(lead.card)
    if led < 0:  # a joker led without a call: the first ordinary card sets the suit
        led = next((_suit(p.action.card) for p in plays if p.action.card not in JOKERS), -1)
    best, best_key = plays[0].seat, (0, -1)
    for p in plays:
        c = p.action.card
        if c in JOKERS:
            continue
        if trump >= 0 and _suit(c) == trump:
            key = (2, _rank(c))
        elif _suit(c) == led:
            key = (1, _rank(c))
        else:
            continue
        if key > best_key:
            best, best_key = p.seat, key
    return best


@dataclass
class Deal:
    """The state of one deal. Seats are table seats; ``order`` is the seats from the
    dealer's left round to the dealer (who bids last)."""

    spec: DealSpec
    options: PaintedOptions
    dealer: int
    players: int
    hands: list[list[int]]
    trump: int
    trump_card: int
    stock: list[int]
    shown: dict[int, int] = field(default_factory=dict)
    bids: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    trick: list[Played] = field(default_factory=list)
    tricks: list[tuple[tuple[Played, ...], int]] = field(default_factory=list)
    to_act: int = -1
    phase: str = BID

    def __post_init__(self) -> None:
        n = self.players
        self.bids = [-1] * n
        self.taken = [0] * n
        self.to_act = (self.dealer + 1) % n
        self.dealt = [list(h) for h in self.hands]
        if self.spec.kind not in BIDDING_KINDS:
            self.phase = PLAY

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def bidding(self) -> bool:
        """True while there are bids to make."""
        return self.phase == BID

    @property
    def hides_hands(self) -> bool:
        """A blind deal before the bids are all in: nobody sees his own cards."""
        return self.spec.kind == BLIND and self.phase == BID

    def legal_bids(self) -> list[int]:
        """0 ("pass") to the hand size; the dealer may not make the bids add up to the
        cards dealt («общее количество взяток в коне не равнялось числу карт»)."""
        h = self.spec.cards
        bids = list(range(h + 1))
        if self.to_act == self.dealer and self.options.dealer_restriction:
            so_far = sum(b for b in self.bids if b >= 0)
            bids = [b for b in bids if so_far + b != h]
        return bids

    def legal_actions(self) -> list[PaintedAction]:
        """The legal actions of the seat to act (none when the deal is over)."""
        if self.phase == BID:
            return [PaintedAction(BID, b) for b in self.legal_bids()]
        if self.phase != PLAY:
            return []
        lead = self.trick[0].action if self.trick else None
        return legal_plays(self.hands[self.to_act], lead, self.trump, self.options.must_trump,
                           self.options.joker_call == "required")

    def apply(self, seat: int, action: PaintedAction) -> None:
        """Apply ``seat``'s action; an illegal one raises and changes nothing."""
        if self.phase == "over":
            raise IllegalAction("painted: the deal is over")
        if seat != self.to_act:
            raise IllegalAction(f"painted: seat {seat} acts out of turn (seat "
                                f"{self.to_act} is to act)")
        action = self.canonical(action)
        if action not in self.legal_actions():
            raise IllegalAction(f"painted: seat {seat} cannot {action.text()} now; legal: "
                                + ", ".join(a.text() for a in self.legal_actions()))
        n = self.players
        if action.kind == BID:
            self.bids[seat] = action.bid
            if seat == self.dealer:
                self.phase = PLAY
            self.to_act = (seat + 1) % n
            return
        self.hands[seat].remove(action.card)
        self.trick.append(Played(seat, action))
        if len(self.trick) < n:
            self.to_act = (seat + 1) % n
            return
        winner = trick_winner(self.trick, self.trump)
        self.taken[winner] += 1
        self.tricks.append((tuple(self.trick), winner))
        self.trick = []
        self.to_act = winner  # «Его открывает участник, получивший взятку в предыдущем»
        if not self.hands[winner]:
            self.phase = "over"
            self.to_act = -1

    def canonical(self, action: PaintedAction) -> PaintedAction:
        """The jokers are alike: a joker named by the other joker's code is the one held."""
        if not isinstance(action, PaintedAction):
            raise IllegalAction(f"painted: {action!r} is not a painted-poker action")
        if action.kind == PLAY and action.card in JOKERS and self.to_act >= 0:
            held = [c for c in self.hands[self.to_act] if c in JOKERS]
            if held and action.card not in held:
                return action._replace(card=held[0])
        return action

    def played_cards(self) -> list[int]:
        """Every card played so far in this deal, in order."""
        out = [p.action.card for t, _ in self.tricks for p in t]
        return out + [p.action.card for p in self.trick]


def deal_cards(spec: DealSpec, options: PaintedOptions, deck: list[int], players: int,
               dealer: int, rng: np.random.Generator) -> Deal:
    """Shuffle and deal ``spec``: the trump is the card turned from the stock after the
    hands («масть, выпавшая из колоды после раздачи»), or, when the deck is dealt out, a
    card drawn at random before the deal («случайно вытягивая из колоды любую карту»),
    put back; a joker turned or drawn means no trump (our reading). No trump in the
    no-trump deals. Lobovaya: each hand shows one random card."""
    cards = [deck[i] for i in rng.permutation(len(deck))]
    h = spec.cards
    dealt = h * players
    draw = -1
    if dealt >= len(cards):
        draw = deck[int(rng.integers(len(deck)))]
    order = [(dealer + 1 + i) % players for i in range(players)]
    hands: list[list[int]] = [[] for _ in range(players)]
    for k in range(h):  # one card at a time from the dealer's left
        for i, s in enumerate(order):
            hands[s].append(cards[k * players + i])
    stock = cards[dealt:]
    trump_card = stock[0] if stock else draw
    trump = -1 if trump_card in JOKERS else trump_card & 3
    if spec.kind == NO_TRUMP:
        trump, trump_card = -1, -1
    deal = Deal(spec, options, dealer, players, hands, trump, trump_card, stock)
    if spec.kind == LOBOVAYA:
        picks = rng.integers(0, h, size=players)
        deal.shown = {s: hands[s][int(picks[s])] for s in range(players)}
    return deal
