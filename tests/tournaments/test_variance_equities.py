"""The all-in settlement's own equity path (hold'em, short deck) gives the very floats
of the evaluator's equity calculator, exact and sampled, so ``seats.equity_net`` keeps
its seeded values."""

from __future__ import annotations

import pytest

from pokerarena.cards import parse_cards
from pokerarena.evaluator.equity import equity
from pokerarena.tournaments.variance import _equities

CASES = [
    ("holdem", ["AsKs", "QdQh", "7c8c"], "2s9dTh", True),  # flop: every turn and river
    ("holdem", ["AsKs", "AdKd"], "2s9dThJc", True),  # turn, a likely split
    ("holdem", ["AsAh", "KdKc", "9s8s", "2c2d"], "", False),  # pre-flop: seeded samples
    ("short_deck", ["AsKs", "9d9h"], "6s7dTh", True),
    ("short_deck", ["AsKs", "9d9h", "JcTc"], "", False),
]


@pytest.mark.parametrize(("game", "holes", "board", "exact"), CASES)
def test_same_floats_as_the_equity_calculator(game: str, holes: list[str], board: str,
                                              exact: bool) -> None:
    hs = [parse_cards(h) for h in holes]
    b = parse_cards(board) if board else []
    want = (equity(hs, b, game, exact=True) if exact
            else equity(hs, b, game, samples=4000, seed=17))
    got = _equities(hs, b, game, exact, 4000, 17)
    assert got == [p.equity for p in want.players]
    assert abs(sum(got) - 1.0) < 1e-9
