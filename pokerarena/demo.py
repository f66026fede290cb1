"""``make demo``: the platform at work on an embedded default.

Until tournaments land this shows the evaluator every other part stands on: an exact
census of all 133,784,560 seven-card hands, a rule-variant question answered by
census, exact equities, hands in words and a benchmark against the native peers.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from pokerarena.evaluator import describe, evaluate, ranking
from pokerarena.evaluator.census import census
from pokerarena.evaluator.equity import equity

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "standard_census.json"


def _rule(title: str) -> None:
    print()
    print(title)
    print("-" * len(title))


def _census_table(k: int, deck: str, rk, label: str) -> dict:
    start = time.perf_counter()
    result = census(k, deck, rk)
    seconds = time.perf_counter() - start
    print(f"{label}: {result['hands']:,} hands in {seconds:.2f} s")
    for name, n in result["counts"].items():
        if n:
            print(f"  {name:<18}{n:>14,}  {100 * n / result['hands']:8.4f}%"
                  f"  {result['distinct'][name]:>6,} classes")
    return result


def main() -> int:
    """Print the demo; returns the exit status."""
    print("pokerarena: poker bots at scale — the hand evaluator at work")

    _rule("1. Every seven-card hand, enumerated")
    high = ranking("high")
    census(7, "standard", high)  # first call compiles and builds the tables (cached on disk)
    result = _census_table(7, "standard", high, "7 cards, standard deck")
    if REFERENCE.exists():
        ref = json.loads(REFERENCE.read_text())["high7"]
        same = ref["counts"] == result["counts"] and ref["distinct"] == result["distinct"]
        print(f"  matches the published census table exactly: {'yes' if same else 'NO'}")

    _rule("2. A balance question: do deuces wild make trips more common than two pair?")
    deuces = ranking("high", wild="deuces")
    wild = census(5, "standard", deuces)
    plain = census(5, "standard", high)
    for name in ("three_of_a_kind", "two_pair"):
        print(f"  {name:<16} natural {plain['counts'][name]:>9,}   deuces wild "
              f"{wild['counts'][name]:>9,}")
    trips, pairs = wild["counts"]["three_of_a_kind"], wild["counts"]["two_pair"]
    print(f"  yes: with deuces wild three of a kind is {trips / pairs:.1f}x as common as two "
          "pair, yet still ranks above it" if trips > pairs else "  no")

    _rule("3. Exact equities")
    for hands, board, game in ((["AdAc", "KhKs"], "", "holdem"),
                               (["AsKs", "QhQd", "7c8c"], "", "holdem"),
                               (["AsAhKsQd", "JcTc9h8h"], "", "omaha")):
        start = time.perf_counter()
        r = equity(hands, board=board, game=game, exact=True)
        seconds = time.perf_counter() - start
        shown = "  vs  ".join(f"{p.hand} {100 * p.equity:5.2f}%" for p in r.players)
        print(f"  {game:<7} {shown}   ({r.boards:,} boards, {seconds:.2f} s)")

    _rule("4. Hands in words")
    for cards, rk in (("KhKdKc3s3c", high), ("AsKsQsJsTs2c2d", high),
                      ("Jk9h9c9d5s", ranking("high", wild="jokers")),
                      ("8s6d4c2hAs", ranking("a5_low")),
                      ("7h5d4c3s2h", ranking("27_low")),
                      ("As2d3c4h", ranking("badugi"))):
        rk_label = rk.name + (" (jokers wild)" if rk.wild else "")
        print(f"  {cards:<16} {rk_label:<22} {describe(evaluate(cards, rk), rk)}")

    _rule("5. Speed against the native peers (one core, 1,000,000 random 7-card hands)")
    from pokerarena.commands.bench import bench_evaluator, format_result

    print(format_result(bench_evaluator(cards=7, hands=1_000_000, repeats=3)))
    print()
    print("Next: pokerarena eval census --help, pokerarena equity --help, "
          "pokerarena bench evaluator --help")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
