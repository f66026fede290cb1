"""Actions, legal-action sets and engine errors.

Action kinds use the PHH codes: ``f`` fold, ``cc`` check or call, ``cbr`` complete,
bet or raise **to** ``amount``, ``pb`` post the bring-in, ``sd`` discard ``cards``
(none: stand pat), ``sm`` show ``cards`` (none: muck), ``ex`` turn ``cards`` face up,
``dc`` declare (``amount`` 1 high, 2 low, 3 both). The dealer's ``dh`` (deal
``cards`` to seat ``target``) and ``db`` (deal ``cards`` to the board) are actions only
when a hand is dealt by hand (``dealing="manual"``, as in PHH replay).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from pokerarena.errors import UserError

DEALER: Final = -1
UNKNOWN: Final = 255  # a card nobody knows (PHH "??")

# (Final: constants the mypyc build of the table loop inlines)
FOLD_KIND: Final = "f"
CALL_KIND: Final = "cc"
RAISE_KIND: Final = "cbr"
BRING_IN_KIND: Final = "pb"
DISCARD_KIND: Final = "sd"
SHOW_KIND: Final = "sm"
DEAL_HOLE_KIND: Final = "dh"
DEAL_BOARD_KIND: Final = "db"
EXPOSE_KIND: Final = "ex"
DECLARE_KIND: Final = "dc"
PLAYER_KINDS = (FOLD_KIND, CALL_KIND, RAISE_KIND, BRING_IN_KIND, DISCARD_KIND, SHOW_KIND,
                EXPOSE_KIND, DECLARE_KIND)
DECLARE_HIGH: Final = 1
DECLARE_LOW: Final = 2
DECLARE_BOTH: Final = 3
DECLARE_WORDS = {"high": DECLARE_HIGH, "low": DECLARE_LOW, "both": DECLARE_BOTH}
DEALER_KINDS = (DEAL_HOLE_KIND, DEAL_BOARD_KIND)


class Action(NamedTuple):
    """One decision: ``kind`` (PHH code), ``amount`` (chips: ``cbr`` the total to bet
    to, ``cc`` what the call put in, forced bets; ``dc``: the declaration, 1 high, 2 low,
    3 both; ``sd``: 1 when the discard splits the openers), ``cards`` (``sd``, ``sm``,
    ``ex``, ``dh``, ``db``), ``target`` (seat dealt to by ``dh``), ``face_up`` (``dh`` in
    the log: bit ``i`` set when ``cards[i]`` was dealt face up)."""

    kind: str
    amount: int = 0
    cards: tuple[int, ...] = ()
    target: int = -1
    face_up: int = 0


FOLD = Action(FOLD_KIND)
CHECK_CALL = Action(CALL_KIND)
BRING_IN = Action(BRING_IN_KIND)
MUCK = Action(SHOW_KIND)


def bet_to(amount: int) -> Action:
    """Complete, bet or raise to ``amount`` chips in this round."""
    return Action(RAISE_KIND, int(amount))


def discard(cards=()) -> Action:
    """Discard ``cards`` (nothing: stand pat)."""
    return Action(DISCARD_KIND, 0, tuple(int(c) for c in cards))


def expose(cards) -> Action:
    """Turn ``cards`` (down cards of the player) face up."""
    return Action(EXPOSE_KIND, 0, tuple(int(c) for c in cards))


def declare(which: str) -> Action:
    """Declare ``high``, ``low`` or ``both`` (high-low declaration games)."""
    if which not in DECLARE_WORDS:
        raise IllegalAction(f"declare high, low or both, not {which!r}")
    return Action(DECLARE_KIND, DECLARE_WORDS[which])


def show(cards=()) -> Action:
    """Show ``cards`` at showdown (nothing: muck)."""
    return Action(SHOW_KIND, 0, tuple(int(c) for c in cards))


class Legal(NamedTuple):
    """What the player (or dealer) to act may do (an immutable tuple with named fields).

    ``kinds``: allowed action kinds. ``call``: chips a ``cc`` adds (0: a check).
    ``min_to``/``max_to``: the ``cbr`` range (totals for this round). ``bring_in``: chips a
    ``pb`` posts. ``discard_min``/``discard_max``: how many cards ``sd`` may discard (or
    ``ex`` must turn up).
    ``deal_to``: seats owed cards when the dealer acts; ``deal_board``: board cards owed.
    ``choices``: when not empty, the only ``cbr`` amounts allowed inside the range (stud's
    open-pair rule: the small or the big bet).
    """

    kinds: tuple[str, ...]
    call: int = 0
    min_to: int = 0
    max_to: int = 0
    bring_in: int = 0
    discard_min: int = 0
    discard_max: int = 0
    deal_to: tuple[int, ...] = ()
    deal_board: int = 0
    choices: tuple[int, ...] = ()

    def allows(self, kind: str) -> bool:
        """True when actions of ``kind`` are allowed."""
        return kind in self.kinds


class IllegalAction(ValueError):
    """An action the rules do not allow; the hand is unchanged."""


class EngineError(ValueError, UserError):
    """A hand that cannot be set up (bad stacks, too many players, ...)."""
