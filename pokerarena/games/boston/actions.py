"""American boston's actions: a pass, a bid on the ladder, accepting a proposal, a card.

Text forms (logs, the HTTP protocol): ``pass``; ``accept`` (support the proposal on the
table, «принять вызов»); ``bid junior``, ``bid senior``, ``bid nine_junior``,
``bid nine_senior``, ``bid misere``; the two bids that name a suit, ``bid solo h`` (the
senior or the junior suit) and ``bid independence c`` (any suit, «в указанной масти»);
``play As``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pokerarena.cards import SUITS, card_str, parse_card
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.boston.rules import INDEPENDENCE, LADDER, SOLO

PASS = "pass"
ACCEPT = "accept"
BID = "bid"
PLAY = "play"
NAMED_SUIT = (SOLO, INDEPENDENCE)


class BostonAction(NamedTuple):
    """``kind`` pass / accept / bid (``contract``, and ``suit`` for solo and
    independence) / play (``card``)."""

    kind: str
    contract: str = ""
    suit: int = -1
    card: int = -1

    def text(self) -> str:
        """The text form (see the module docstring)."""
        if self.kind == BID:
            return f"bid {self.contract}" + (f" {SUITS[self.suit]}" if self.suit >= 0 else "")
        if self.kind == PLAY:
            return f"play {card_str(self.card)}"
        return self.kind

    def as_json(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "bid", "contract": "solo", "suit": "h"}``,
        ``{"kind": "play", "card": "As"}``, ``{"kind": "pass"}``."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == BID:
            out["contract"] = self.contract
            if self.suit >= 0:
                out["suit"] = SUITS[self.suit]
        if self.kind == PLAY:
            out["card"] = card_str(self.card)
        return out


def pass_() -> BostonAction:
    """Pass («пасует»): out of this deal's bidding."""
    return BostonAction(PASS)


def accept() -> BostonAction:
    """Support the proposal on the table («принять вызов»)."""
    return BostonAction(ACCEPT)


def bid(contract: str, suit: int | str = -1) -> BostonAction:
    """Bid ``contract`` (``suit``: the named suit of a solo or an independence)."""
    if isinstance(suit, str):
        if len(suit) != 1 or suit not in SUITS:
            raise ValueError(f"no suit {suit!r}")
        suit = SUITS.index(suit)
    return BostonAction(BID, contract, int(suit))


def play(c: int | str) -> BostonAction:
    """Play card ``c`` (code or text)."""
    return BostonAction(PLAY, card=parse_card(c) if isinstance(c, str) else int(c))


_HELP = ("write 'pass', 'accept', 'bid CONTRACT' (junior, senior, nine_junior, nine_senior, "
         "misere), 'bid solo SUIT', 'bid independence SUIT' or 'play CARD'")


def parse_action(text: str) -> BostonAction:
    """An action from its text form; a bad text is an :class:`IllegalAction`."""
    words = text.split() if isinstance(text, str) else []
    try:
        if words in ([PASS], [ACCEPT]):
            return BostonAction(words[0])
        if len(words) == 2 and words[0] == PLAY:
            return play(words[1])
        if words and words[0] == BID and len(words) in (2, 3) and words[1] in LADDER:
            named = words[1] in NAMED_SUIT
            if named == (len(words) == 3):
                return bid(words[1], words[2] if named else -1)
    except ValueError:
        pass
    raise IllegalAction(f"boston: {text!r} is not an action: {_HELP}")


def action_from_json(data: Any) -> BostonAction:
    """The inverse of :meth:`BostonAction.as_json` (bad data: :class:`IllegalAction`)."""
    if not isinstance(data, dict):
        raise IllegalAction("boston: an action is a JSON object")
    kind = data.get("kind")
    words = [str(kind)]
    if kind == BID:
        words += [str(data.get("contract", "")), str(data.get("suit", ""))]
    elif kind == PLAY:
        words.append(str(data.get("card", "")))
    return parse_action(" ".join(w for w in words if w))
