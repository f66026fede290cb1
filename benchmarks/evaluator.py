"""Evaluator throughput against the native peers; prints one JSON line per setting.

    python benchmarks/evaluator.py [--hands N]

Runs ``bench_evaluator`` for 7-card and 5-card hold'em and for Omaha (4 + 5), each on
one core, with phevaluator and eval7 on the same hands when they are installed.
"""

from __future__ import annotations

import argparse
import json

from pokerarena.bench.evaluator import bench_evaluator


def main() -> None:
    """Print the three benchmark lines."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for cards, game in ((7, "holdem"), (5, "holdem"), (7, "omaha")):
        print(json.dumps(bench_evaluator(cards=cards, game=game, hands=args.hands,
                                         seed=args.seed)), flush=True)


if __name__ == "__main__":
    main()
