"""What one seat may see of a game of painted poker: a plain, self-contained copy.

A seat sees its own cards (not in a blind deal before the bids are in: «заказ надо
объявить, не глядя в руку»), the trump card, the cards shown in a «лобовая» deal, every
bid, every card played and who took each trick, how many cards each hand holds, and the
score sheet. Never another hand or the stock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerarena.cards import SUITS, card_str
from pokerarena.games.painted.actions import PaintedAction
from pokerarena.games.painted.rules import PaintedOptions
from pokerarena.games.painted.sheet import DealRecord

Trick = tuple[tuple[tuple[int, PaintedAction], ...], int]


@dataclass(frozen=True)
class PaintedView:
    """A seat's view (see the module docstring). ``bids[s]`` is -1 before seat ``s`` bids
    (and in deals without bidding); ``trick``: the current trick's (seat, action) pairs;
    ``tricks``: this deal's finished tricks with their winners; ``legal``: the seat's
    legal actions when it is to act."""

    seat: int
    players: int
    options: PaintedOptions
    deal_no: int
    deals: int
    kind: str
    cards: int
    first_or_last: bool
    dealer: int
    trump: int
    trump_card: int
    hand: tuple[int, ...]
    hand_hidden: bool
    hand_sizes: tuple[int, ...]
    shown: dict[int, int]
    bids: tuple[int, ...]
    taken: tuple[int, ...]
    trick: tuple[tuple[int, PaintedAction], ...]
    tricks: tuple[Trick, ...]
    totals: tuple[float, ...]
    sheet: tuple[DealRecord, ...]
    to_act: int
    phase: str
    legal: tuple[PaintedAction, ...]

    def as_json(self) -> dict[str, Any]:
        """The documented JSON form (cards as text, suits as letters)."""
        def plays(ps: tuple[tuple[int, PaintedAction], ...]) -> list[dict[str, Any]]:
            return [{"seat": s, **a.as_json()} for s, a in ps]
        return {
            "family": "painted", "seat": self.seat, "players": self.players,
            "options": self.options.model_dump(mode="json"), "deal_no": self.deal_no,
            "deals": self.deals, "kind": self.kind, "cards": self.cards,
            "dealer": self.dealer, "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "trump_card": card_str(self.trump_card) if self.trump_card >= 0 else None,
            "hand": [card_str(c) for c in self.hand], "hand_hidden": self.hand_hidden,
            "hand_sizes": list(self.hand_sizes),
            "shown": {str(s): card_str(c) for s, c in self.shown.items()},
            "bids": list(self.bids), "taken": list(self.taken), "trick": plays(self.trick),
            "tricks": [{"plays": plays(p), "winner": w} for p, w in self.tricks],
            "totals": list(self.totals), "to_act": self.to_act, "phase": self.phase,
            "legal": [a.as_json() for a in self.legal]}


def view_of(hand: Any, seat: int) -> PaintedView:
    """``seat``'s view of ``hand`` (a :class:`~.game.PaintedHand`) now."""
    d = hand.deal
    over = hand.is_over
    hidden = d.hides_hands and not over
    return PaintedView(
        seat=seat, players=hand.players, options=hand.game.options,
        deal_no=d.spec.no, deals=len(hand.plan), kind=d.spec.kind, cards=d.spec.cards,
        first_or_last=d.spec.first_or_last,
        dealer=d.dealer, trump=d.trump, trump_card=d.trump_card,
        hand=() if hidden else tuple(d.hands[seat]), hand_hidden=hidden,
        hand_sizes=tuple(len(h) for h in d.hands), shown=dict(d.shown),
        bids=tuple(d.bids), taken=tuple(d.taken),
        trick=tuple((p.seat, p.action) for p in d.trick),
        tricks=tuple((tuple((p.seat, p.action) for p in t), w) for t, w in d.tricks),
        totals=tuple(hand.totals), sheet=tuple(hand.records),
        to_act=-1 if over else d.to_act, phase="over" if over else d.phase,
        legal=tuple(d.legal_actions()) if (not over and d.to_act == seat) else ())
