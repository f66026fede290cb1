"""The discards of a draw game's hand as one seat has seen them, read from its view's
history once: :func:`discard_log` keeps what it found in the bot's per-hand memo and
later only scans the entries added since."""

from __future__ import annotations

from typing import Any

from pokerarena.engine.actions import DISCARD_KIND


class DiscardLog:
    """``mine``: bit mask of the cards the seat threw away; ``sizes``: how many cards
    each discard changed, in order; ``last``: each seat's last discard size."""

    __slots__ = ("seat", "scanned", "tail", "mine", "sizes", "last")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.scanned = 0
        self.tail: Any = None  # the last history entry scanned
        self.mine = 0
        self.sizes: tuple[int, ...] = ()
        self.last: dict[int, int] = {}

    def scan(self, history: Any, start: int) -> None:
        """Take in ``history[start:]``."""
        for i in range(start, len(history)):
            a, act = history[i]
            if act.kind == DISCARD_KIND:
                cards = act.cards
                if a == self.seat:
                    for c in cards:
                        self.mine |= 1 << c
                self.last[a] = len(cards)
                self.sizes += (len(cards),)
        self.scanned = len(history)
        self.tail = history[-1] if history else None


def discard_log(view: Any, memo: dict | None) -> DiscardLog:
    """The :class:`DiscardLog` of ``view``'s history, kept in ``memo`` (a dict emptied for
    each hand) and extended with the entries added since; rebuilt when the history is
    not the one it has seen (shorter, or another entry where it stopped)."""
    seat = view.seat
    history = view.history
    key = ("discard log", seat)
    log = memo.get(key) if memo is not None else None
    if log is not None:
        k = log.scanned
        if k == len(history) and (not k or history[k - 1] is log.tail):
            return log
        if k < len(history) and (not k or history[k - 1] is log.tail):
            log.scan(history, k)
            return log
    log = DiscardLog(seat)
    log.scan(history, 0)
    if memo is not None:
        memo[key] = log
    return log
