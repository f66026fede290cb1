"""Durak's actions: a card put on the table against the defender (the first move, a
throw-in, or the defender's throw-in to himself), a card that beats the open card, taking
the table, or passing the right to throw in.

Text forms (logs, the HTTP protocol): ``throw 6d``, ``beat 7d``, ``take``, ``pass``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pokerarena.cards import CardError, card_str, parse_card
from pokerarena.engine.actions import IllegalAction

THROW = "throw"  # «ходит картой», «подкидывать», «подкинуть самому себе»
BEAT = "beat"    # «отбить эту карту»
TAKE = "take"    # «не отобьет выложенные карты, то он забирает карты себе»
PASS = "pass"    # «говорит, что у него нечего подкидывать» (or does not want to)
KINDS = (THROW, BEAT, TAKE, PASS)
_WITH_CARD = (THROW, BEAT)


class DurakAction(NamedTuple):
    """``kind`` (:data:`KINDS`) and, for ``throw`` and ``beat``, the ``card``."""

    kind: str
    card: int = -1

    def text(self) -> str:
        """The text form (see the module docstring)."""
        return f"{self.kind} {card_str(self.card)}" if self.kind in _WITH_CARD else self.kind

    def as_json(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "throw", "card": "6d"}``, ``{"kind": "take"}``."""
        if self.kind in _WITH_CARD:
            return {"kind": self.kind, "card": card_str(self.card)}
        return {"kind": self.kind}


def throw(c: int | str) -> DurakAction:
    """Put card ``c`` (code or text) on the table against the defender."""
    return DurakAction(THROW, parse_card(c) if isinstance(c, str) else int(c))


def beat(c: int | str) -> DurakAction:
    """Beat the open card with ``c`` (code or text)."""
    return DurakAction(BEAT, parse_card(c) if isinstance(c, str) else int(c))


TAKE_ACTION = DurakAction(TAKE)
PASS_ACTION = DurakAction(PASS)

_HELP = "write 'throw 6d', 'beat 7d', 'take' or 'pass'"


def parse_action(text: str) -> DurakAction:
    """An action from its text form; a bad text is an :class:`IllegalAction`."""
    words = text.split() if isinstance(text, str) else []
    try:
        if len(words) == 1 and words[0] in (TAKE, PASS):
            return DurakAction(words[0])
        if len(words) == 2 and words[0] in _WITH_CARD:
            c = parse_card(words[1])
            if 0 <= c < 52:
                return DurakAction(words[0], c)
    except CardError:
        pass
    raise IllegalAction(f"durak: {text!r} is not an action: {_HELP}")


def action_from_json(data: object, view: object = None) -> DurakAction:
    """The inverse of :meth:`DurakAction.as_json` (bad data: :class:`IllegalAction`);
    ``view`` is not needed (every action names its card)."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise IllegalAction(f"durak: an action is a JSON object with a 'kind': {_HELP}")
    kind, c = data["kind"], data.get("card")
    if kind in _WITH_CARD and not isinstance(c, str):
        raise IllegalAction(f"durak: a {kind!r} action names its 'card' as text, like '6d'")
    return parse_action(f"{kind} {c}" if kind in _WITH_CARD else kind)


__all__ = ["BEAT", "KINDS", "PASS", "PASS_ACTION", "TAKE", "TAKE_ACTION", "THROW",
           "DurakAction", "action_from_json", "beat", "parse_action", "throw"]
