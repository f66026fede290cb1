"""The bot protocol's input: :class:`SeatView`, what one seat may see at one moment.

Built by the arena (:class:`pokerarena.arena.views.ViewMaker`) from an engine hand; bots
read nothing else of the game.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pokerarena.engine.actions import Action, Legal


class SeatView(NamedTuple):
    """Everything one seat may see at one moment, and nothing else (an immutable named
    tuple: cheap to build once per decision).

    Seats are table seats (``button`` is the dealer's seat). ``hole``: the seat's own
    cards (down and up) in the order dealt; ``up``: every seat's face-up cards; ``board``:
    community cards; ``stacks``/``bets`` by seat (``bets``: this betting round);
    ``committed``: chips each seat put in during the hand; ``pot``: all chips committed;
    ``to_call``; ``legal``: the legal actions with amount ranges (None unless the seat is
    to act); ``history``: the public action log, ``(seat or DEALER, Action)`` pairs with
    hidden cards as ``UNKNOWN``; ``folded``; ``street``: index of the variant's street;
    ``phase``: ``bet``, ``draw``, ``showdown`` or ``over``; ``hand_no``/``match_no``.
    """

    variant: str
    betting: str
    game: dict[str, Any]
    hand_no: int
    match_no: int
    seat: int
    button: int
    players: int
    hole: tuple[int, ...]
    up: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    committed: tuple[int, ...]
    pot: int
    to_call: int
    legal: Legal | None
    history: tuple[tuple[int, Action], ...]
    folded: tuple[bool, ...]
    street: int
    phase: str

    @property
    def live(self) -> int:
        """Seats that have not folded."""
        return sum(1 for f in self.folded if not f)
