"""Time of exact equity runs; prints one JSON line per case.

    python benchmarks/equity.py
"""

from __future__ import annotations

import json
import time

from pokerarena.evaluator.equity import exact_equity

CASES = [
    ("holdem", ["AdAc", "KhKs"], ""),
    ("holdem", ["AdAc", "KhKs", "7c7d"], ""),
    ("short_deck", ["AdAc", "KhKs"], ""),
    ("omaha", ["AsKsQdJd", "Th9h8c7c"], ""),
    ("omaha_hilo", ["Ac2d3hKs", "QhQdJhJd"], ""),
]


def main() -> None:
    """Run each case twice (the first compiles and loads tables) and print the second."""
    for game, hands, board in CASES:
        exact_equity(hands, board, game)
        t0 = time.perf_counter()
        r = exact_equity(hands, board, game)
        dt = time.perf_counter() - t0
        print(json.dumps({"game": game, "hands": hands, "board": board, "boards": r.boards,
                          "seconds": round(dt, 4),
                          "equity": [round(p.equity, 6) for p in r.players]}), flush=True)


if __name__ == "__main__":
    main()
