"""What the fast hold'em kernel returns for a unit's hands: the numbers the rows are built
from (:mod:`pokerarena.workers.fastrecord`), one array per field.

Each field is the reference hand's (``Hand.result()``, ``Hand.log``) exactly, for hand
``h`` (0-based in the unit) and seat ``s``:

- ``button[h]``; ``nboard[h]`` and ``board[h, :nboard]`` (the board at the end);
  ``hole[h, s]`` (seat ``s``'s two cards, in the order dealt);
- ``pot[h]``: chips in all pots (``sum(p.amount for p in res.pots)``); ``showdown[h]``:
  ``res.went_to_showdown``; ``decisions[h]``: the hand's player decisions (log entries
  with a player kind: ``f``, ``cc``, ``cbr``);
- ``deltas[h, s]``, ``stacks[h, s]``: ``res.deltas``, ``res.stacks``; ``won[h, s]``: the
  chips seat ``s`` won from every pot (``sum(p.winners.get(s, 0))``); ``folded[h, s]``:
  folded at the end;
- ``in_showdown[h, s]``: ``s in res.showdown`` (its hand was compared); ``high[h, s]``:
  its ``res.showdown[s]["high"]`` value (-1 when not in the showdown);
- ``npots[h]``, ``pot_amount[h, k]``, ``pot_eligible[h, k, s]``, ``pot_won[h, k, s]``:
  ``res.pots[k]``'s amount, eligible seats and winners, in the reference's order;
- ``log_start[h] .. log_start[h + 1]``: the hand's entries of the log arrays
  (:mod:`.layout`: ``actor``, ``kind``, ``amount``, ``ncards``, ``cards``, ``target``,
  ``street``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerarena.engine.fastholdem.layout import MAXP


@dataclass
class HandArrays:
    """A unit's hands as arrays (module docstring); ``hands`` x ``n`` seats."""

    button: np.ndarray  # int8[H]
    nboard: np.ndarray  # int8[H]
    board: np.ndarray  # uint8[H, 5]
    hole: np.ndarray  # uint8[H, n, 2]
    pot: np.ndarray  # int64[H]
    showdown: np.ndarray  # bool[H]
    decisions: np.ndarray  # int16[H]
    deltas: np.ndarray  # int64[H, n]
    stacks: np.ndarray  # int64[H, n]
    won: np.ndarray  # int64[H, n]
    folded: np.ndarray  # bool[H, n]
    in_showdown: np.ndarray  # bool[H, n]
    high: np.ndarray  # int64[H, n]
    npots: np.ndarray  # int8[H]
    pot_amount: np.ndarray  # int64[H, MAXP]
    pot_eligible: np.ndarray  # bool[H, MAXP, n]
    pot_won: np.ndarray  # int64[H, MAXP, n]
    log_start: np.ndarray  # int64[H + 1]
    actor: np.ndarray  # int8[L]
    kind: np.ndarray  # int8[L]
    amount: np.ndarray  # int64[L]
    ncards: np.ndarray  # int8[L]
    cards: np.ndarray  # uint8[L, 5]
    target: np.ndarray  # int8[L]
    street: np.ndarray  # int8[L]

    @property
    def hands(self) -> int:
        """Hands in the unit."""
        return int(self.button.shape[0])

    @property
    def seats(self) -> int:
        """Seats at the table."""
        return int(self.deltas.shape[1])

    @classmethod
    def empty(cls, hands: int, n: int, log_entries: int) -> HandArrays:
        """Arrays for ``hands`` hands of ``n`` seats and room for ``log_entries`` log
        entries (the kernel fills them; the log is cut to its length afterwards)."""
        h, L = hands, log_entries
        return cls(
            np.zeros(h, np.int8), np.zeros(h, np.int8), np.zeros((h, 5), np.uint8),
            np.zeros((h, n, 2), np.uint8), np.zeros(h, np.int64), np.zeros(h, np.bool_),
            np.zeros(h, np.int16), np.zeros((h, n), np.int64), np.zeros((h, n), np.int64),
            np.zeros((h, n), np.int64), np.zeros((h, n), np.bool_),
            np.zeros((h, n), np.bool_), np.full((h, n), -1, np.int64), np.zeros(h, np.int8),
            np.zeros((h, MAXP), np.int64), np.zeros((h, MAXP, n), np.bool_),
            np.zeros((h, MAXP, n), np.int64), np.zeros(h + 1, np.int64),
            np.zeros(L, np.int8), np.zeros(L, np.int8), np.zeros(L, np.int64),
            np.zeros(L, np.int8), np.zeros((L, 5), np.uint8), np.full(L, -1, np.int8),
            np.full(L, -1, np.int8))

    def cut(self, entries: int) -> HandArrays:
        """The same arrays with the log cut to its first ``entries`` entries."""
        out = HandArrays(**self.__dict__)
        for name in ("actor", "kind", "amount", "ncards", "cards", "target", "street"):
            setattr(out, name, getattr(self, name)[:entries])
        return out
