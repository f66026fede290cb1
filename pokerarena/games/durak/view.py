"""What one seat may see of a game of durak: a plain, self-contained copy.

Everything in durak is played face up, so a seat sees its own hand, the trump card and
who drew it, the table, every action so far (the log: which cards went to the discard
and which were taken, and by whom), how many cards each hand and the stock hold, and the
roles of the bout. Never another hand or the order of the stock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerarena.cards import SUITS, card_str
from pokerarena.games.durak.actions import DurakAction
from pokerarena.games.durak.rules import DurakOptions


@dataclass(frozen=True)
class DurakView:
    """A seat's view (see the module docstring). ``table``: the bout's (attack, defence)
    pairs, defence -1 while open; ``passed``: the seats that passed since the last card
    was beaten; ``trump_holder``: the seat that drew the trump card (-1: still under the
    stock); ``gone``: the cards in the discard, in order (a closed pile, but each was seen
    on the table); ``known``: the cards each seat is seen to hold (taken from the table,
    or the trump card drawn); ``out``: the seats out of the game, in order; ``legal``:
    the seat's legal actions when it is to act; ``durak``: the loser once the game is
    over (-1: none)."""

    seat: int
    players: int
    options: DurakOptions
    dealer: int
    first_attacker: int
    trump: int
    trump_card: int
    trump_holder: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock: int
    discard: int
    gone: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    table: tuple[tuple[int, int], ...]
    attacker: int
    defender: int
    last_thrower: int
    passed: frozenset[int]
    takes: tuple[int, ...]
    out: tuple[int, ...]
    bouts: int
    log: tuple[tuple[int, DurakAction], ...]
    to_act: int
    phase: str
    legal: tuple[DurakAction, ...]
    durak: int

    def as_json(self) -> dict[str, Any]:
        """The documented JSON form (cards as text, the trump suit as a letter)."""
        def cs(cards: tuple[int, ...]) -> list[str]:
            return [card_str(c) for c in cards]
        return {
            "family": "durak", "seat": self.seat, "players": self.players,
            "options": self.options.model_dump(mode="json"), "dealer": self.dealer,
            "first_attacker": self.first_attacker, "trump": SUITS[self.trump],
            "trump_card": card_str(self.trump_card), "trump_holder": self.trump_holder,
            "hand": cs(self.hand), "hand_sizes": list(self.hand_sizes),
            "stock": self.stock, "discard": self.discard, "gone": cs(self.gone),
            "known": [cs(k) for k in self.known],
            "table": [{"attack": card_str(a), "defence": card_str(d) if d >= 0 else None}
                      for a, d in self.table],
            "attacker": self.attacker, "defender": self.defender,
            "last_thrower": self.last_thrower, "passed": sorted(self.passed),
            "takes": list(self.takes), "out": list(self.out), "bouts": self.bouts,
            "log": [{"seat": s, **a.as_json()} for s, a in self.log],
            "to_act": self.to_act, "phase": self.phase,
            "legal": [a.as_json() for a in self.legal],
            "durak": None if self.durak < 0 else self.durak}


def view_of(hand: Any, seat: int) -> DurakView:
    """``seat``'s view of ``hand`` (a :class:`~.game.DurakHand`) now."""
    over = hand.is_over
    to_act = hand.to_act
    return DurakView(
        seat=seat, players=hand.players, options=hand.game.options, dealer=hand.dealer,
        first_attacker=hand.first_attacker, trump=hand.trump, trump_card=hand.trump_card,
        trump_holder=hand.trump_holder, hand=tuple(sorted(hand.hands[seat])),
        hand_sizes=tuple(len(h) for h in hand.hands), stock=len(hand.stock),
        discard=len(hand.discard), gone=tuple(hand.discard),
        known=tuple(tuple(sorted(k)) for k in hand.public),
        table=tuple((a, d) for a, d in hand.table),
        attacker=hand.attacker, defender=hand.defender, last_thrower=hand.last_thrower,
        passed=frozenset(hand.passed), takes=tuple(hand.takes), out=tuple(hand.out_order),
        bouts=hand.bouts, log=tuple(hand.log), to_act=to_act,
        phase=hand.phase, legal=hand.legal_actions() if to_act == seat else (),
        durak=-1 if not over or hand.durak is None else hand.durak)
