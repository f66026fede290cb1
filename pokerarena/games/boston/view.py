"""What one seat may see of a game of American boston: a plain, self-contained copy.

A seat sees its own cards, the turned card (shown to all, «Вскрышка остается на столе»,
and so known to be the dealer's), every bid, every card played and who took each trick,
and everyone's chips and the kitty. Never another hand. It remembers every trick (the
rule «Смотреть можно только последнюю взятку» forbids turning old tricks over, not
remembering them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerarena.cards import SUITS, card_str
from pokerarena.games.boston.actions import BostonAction
from pokerarena.games.boston.rules import BostonOptions

Plays = tuple[tuple[int, int], ...]


def _suit(s: int) -> str | None:
    return SUITS[s] if s >= 0 else None


@dataclass(frozen=True)
class BostonView:
    """A seat's view (see the module docstring). ``high``: the highest bid so far (its
    seat ``high_seat``) and ``supporter`` (-1: none); after the bidding ``contract``,
    ``declarer``, ``trump`` and ``boston`` (-1: none); ``trick``: the current trick's
    (seat, card) pairs, ``tricks``: the finished ones with their winners; ``legal``: the
    seat's legal actions when it is to act."""

    seat: int
    players: int
    options: BostonOptions
    deal_no: int
    deals: int
    mult: int
    dealer: int
    turned: int
    senior: int
    junior: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    auction: tuple[tuple[int, BostonAction], ...]
    passed: tuple[bool, ...]
    high: BostonAction | None
    high_seat: int
    supporter: int
    contract: str
    declarer: int
    trump: int
    boston: int
    trick: Plays
    tricks: tuple[tuple[Plays, int], ...]
    taken: tuple[int, ...]
    chips: tuple[float, ...]
    kitty: float
    to_act: int
    phase: str
    legal: tuple[BostonAction, ...]

    def as_json(self) -> dict[str, Any]:
        """The documented JSON form (cards as text, suits as letters or null)."""
        def plays(ps: Plays) -> list[dict[str, Any]]:
            return [{"seat": s, "card": card_str(c)} for s, c in ps]
        return {
            "family": "boston", "seat": self.seat, "players": self.players,
            "options": self.options.model_dump(mode="json"), "deal_no": self.deal_no,
            "deals": self.deals, "mult": self.mult, "dealer": self.dealer,
            "turned": card_str(self.turned), "senior": _suit(self.senior),
            "junior": _suit(self.junior), "hand": [card_str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "auction": [{"seat": s, **a.as_json()} for s, a in self.auction],
            "passed": list(self.passed),
            "high": None if self.high is None else self.high.as_json(),
            "high_seat": self.high_seat, "supporter": self.supporter,
            "contract": self.contract or None, "declarer": self.declarer,
            "trump": _suit(self.trump),
            "boston": card_str(self.boston) if self.boston >= 0 else None,
            "trick": plays(self.trick),
            "tricks": [{"plays": plays(p), "winner": w} for p, w in self.tricks],
            "taken": list(self.taken), "chips": list(self.chips), "kitty": self.kitty,
            "to_act": self.to_act, "phase": self.phase,
            "legal": [a.as_json() for a in self.legal]}


def view_of(hand: Any, seat: int) -> BostonView:
    """``seat``'s view of ``hand`` (a :class:`~.game.BostonHand`) now."""
    d = hand.deal
    over = hand.is_over
    return BostonView(
        seat=seat, players=hand.players, options=hand.game.options, deal_no=d.no,
        deals=hand.deals, mult=hand.mult(d.no), dealer=d.dealer, turned=d.turned,
        senior=d.senior, junior=d.junior, hand=tuple(d.hands[seat]),
        hand_sizes=tuple(len(h) for h in d.hands), auction=tuple(d.auction),
        passed=tuple(d.passed), high=d.high, high_seat=d.high_seat, supporter=d.supporter,
        contract=d.contract, declarer=d.declarer, trump=d.trump, boston=d.boston,
        trick=tuple(d.trick), tricks=tuple(d.tricks), taken=tuple(d.taken),
        chips=tuple(hand.chips), kitty=hand.kitty, to_act=-1 if over else d.to_act,
        phase="over" if over else d.phase,
        legal=tuple(d.legal_actions()) if (not over and d.to_act == seat) else ())
