"""Checks shared by the kernel tests: a Monte-Carlo kernel deal with every card known."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.bots.strength.fastmc import pack, run_packed


def assert_each_deal_scores(prof, rows: np.ndarray, want: np.ndarray) -> None:
    """Every row (three holdings, then the board) played as one fully known kernel deal
    must give my share ``want[i]``."""
    h, nb = prof.hole_final, prof.board_final
    for i, row in enumerate(rows):
        hands = [row[k * h:(k + 1) * h].tolist() for k in range(3)]
        cards = pack(hands, row[3 * h:].tolist() if nb else [])
        total, used = run_packed(prof.plan, cards, 3, h, nb, i, 1, 1)
        assert used == 1
        assert total == pytest.approx(want[i]), (i, row)
