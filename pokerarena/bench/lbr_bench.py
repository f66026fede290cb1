"""``pokerarena bench lbr``: Local Best Response (:mod:`pokerarena.solvers.lbr`) against
built-in bots in heads-up hold'em, fixed limit and no limit: LBR's winnings in mbb per
hand with their 95% intervals, and its speed (hands per second, wall clock, one process).

The cost of a hand is mostly the bot's policy read once per holding at each of its
decisions (1,225 holdings before the flop): cheap for ``random`` and ``call``, whose
policy never reads their cards (one read serves every holding), dearer for the strength
bots (a Monte-Carlo equity per holding after the flop, all holdings in one compiled
call: ``fastpolicy.batch``), which is why they play fewer hands by default.
Each case first plays two untimed hands (from another seed), so loading the compiled
kernels and tables is not counted.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from pokerarena.errors import UserError

CASES = tuple(f"{betting}:{bot}" for betting in ("fixed_limit", "no_limit")
              for bot in ("random", "call", "tag", "lag", "equity"))
SLOW = frozenset(("rock", "tag", "lag", "equity"))  # policies that read their cards


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench lbr``."""
    p = sub.add_parser(
        "lbr", help="Local Best Response against built-in bots in hold'em: mbb/hand "
        "with intervals, hands per second",
        description="Plays LBR against each bot in duplicate pairs of heads-up hold'em "
        "and prints LBR's winnings (a lower bound on the bot's exploitability) in mbb per "
        "hand with the 95% interval, the hands, the seconds and the hands per second.")
    p.add_argument("--case", action="append", metavar="BETTING:BOT",
                   help="a case (repeatable; default: " + ", ".join(CASES) + ")")
    p.add_argument("--hands", type=int, default=400, metavar="N",
                   help="hands per case against a bot whose policy ignores its cards "
                   "(default 400)")
    p.add_argument("--slow-hands", type=int, default=100, metavar="N",
                   help="hands per case against a strength bot (rock, tag, lag, equity; "
                   "default 100)")
    p.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=run_lbr_bench)


def bench_lbr(cases: list[str], hands: int, slow_hands: int, seed: int) -> dict[str, Any]:
    """The document ``bench lbr --json`` prints."""
    from pokerarena.solvers.lbr import LbrError, lbr_value

    rows: list[dict[str, Any]] = []
    for case in cases:
        betting, _, bot = case.partition(":")
        if not betting or not bot:
            raise UserError(f"bench lbr: --case {case!r}: expected BETTING:BOT")
        n = slow_hands if bot in SLOW else hands
        try:
            lbr_value("holdem", {"betting": betting}, bot, 2, seed + 1)  # warm-up
            cpu = time.process_time()
            r = lbr_value("holdem", {"betting": betting}, bot, n, seed)
            cpu = time.process_time() - cpu
        except LbrError as exc:
            raise UserError(f"bench lbr: {exc}") from None
        row = {k: r[k] for k in ("betting", "bot", "lbr_mbb_per_hand", "ci95", "hands",
                                 "seconds", "hands_per_second", "policy_reads", "actions")}
        # CPU time as well: on a shared machine the wall clock also counts the others
        row["cpu_seconds"] = cpu
        row["hands_per_cpu_second"] = r["hands"] / cpu if cpu > 0 else float("inf")
        rows.append(row)
    return {"benchmark": "lbr", "variant": "holdem", "seed": seed, "cases": rows}


def run_lbr_bench(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench lbr``."""
    if args.hands < 1 or args.slow_hands < 1:
        raise UserError("bench lbr: --hands and --slow-hands must be at least 1")
    if args.seed < 0:
        raise UserError(f"bench lbr: --seed must be a non-negative integer, got {args.seed}")
    doc = bench_lbr(list(args.case or CASES), args.hands, args.slow_hands, args.seed)
    if args.json:
        print(json.dumps(doc))
        return 0
    for r in doc["cases"]:
        lo, hi = r["ci95"]
        print(f"{r['betting']:12} {r['bot']:8} {r['lbr_mbb_per_hand']:>9.0f} mbb/hand "
              f"[{lo:.0f}, {hi:.0f}]  {r['hands']:>5} hands {r['seconds']:8.2f} s "
              f"{r['hands_per_second']:8.1f} hands/s ({r['hands_per_cpu_second']:.1f} per "
              "CPU second)")
    return 0
