"""``pokerarena bench lbr``: Local Best Response (:mod:`pokerarena.solvers.lbr`) against
built-in bots in heads-up hold'em, fixed limit and no limit: LBR's winnings in mbb per
hand with their 95% intervals, and its speed: hands per second of wall clock, and per
CPU second of the processes that played them, with the machine's load average before
and after each case (on a shared machine the wall clock also counts the others).

The cost of a hand is mostly the bot's policy read once per holding at each of its
decisions (1,225 holdings before the flop): cheap for ``random`` and ``call``, whose
policy never reads their cards (one read serves every holding), dearer for the strength
bots (a Monte-Carlo equity per holding after the flop, all holdings in one compiled
call: ``fastpolicy.batch``) and for ``cfr`` (every holding's bucket on a board, one
compiled call per board: ``cfr_bot.board_buckets``), which is why they play fewer hands
by default. Each case first plays two untimed hands (from another seed), so loading
the compiled kernels and tables is not counted. ``--workers N`` plays the duplicate
pairs in units on N Ray actors (``exploit --workers``; the same figures), each warmed
the same way before the clock starts. ``--peer-hands N`` measures the peer in the same
run: N hands of each card-reading case read at once and then with one ``policy`` call
per holding (``LbrConfig(batch=False)``), their speeds, and whether the figures agree.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from pokerarena.errors import UserError

CASES = (*(f"{betting}:{bot}" for betting in ("fixed_limit", "no_limit")
           for bot in ("random", "call", "tag", "lag", "equity")), "fixed_limit:cfr")
SLOW = frozenset(("rock", "tag", "lag", "equity", "cfr"))  # policies that read their cards


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench lbr``."""
    p = sub.add_parser(
        "lbr", help="Local Best Response against built-in bots in hold'em: mbb/hand "
        "with intervals, hands per second",
        description="Plays LBR against each bot in duplicate pairs of heads-up hold'em "
        "and prints LBR's winnings (a lower bound on the bot's exploitability) in mbb per "
        "hand with the 95% interval, the hands, the seconds, the hands per second of wall "
        "clock and per CPU second, and the load average.")
    p.add_argument("--case", action="append", metavar="BETTING:BOT",
                   help="a case (repeatable; default: " + ", ".join(CASES) + ")")
    p.add_argument("--hands", type=int, default=400, metavar="N",
                   help="hands per case against a bot whose policy ignores its cards "
                   "(default 400)")
    p.add_argument("--slow-hands", type=int, default=100, metavar="N",
                   help="hands per case against a bot whose policy reads its cards "
                   "(rock, tag, lag, equity, cfr; default 100)")
    p.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    p.add_argument("--workers", type=int, default=0, metavar="N",
                   help="play the pairs on N Ray actors of a local cluster (default 0: "
                   "in this process); the same figures")
    p.add_argument("--peer-hands", type=int, default=0, metavar="N",
                   help="also play N hands of each card-reading case twice in this "
                   "process, reading every holding at once and one policy call per "
                   "holding (the peer), and print both speeds and whether the figures "
                   "agree (default 0: no peer)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=run_lbr_bench)


@contextmanager
def _ray(workers: int) -> Iterator[None]:
    """A local Ray cluster with room for ``workers`` actors, for the whole bench."""
    from pokerarena.commands.solve import joined_ray

    with joined_ray(None, workers):
        yield


def _load() -> float:
    """The one-minute load average (0 where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover - no load average on this system
        return 0.0


def _peer(options: dict[str, Any], bot: str, hands: int, seed: int) -> dict[str, Any]:
    """``hands`` hands read at once (the batch) and one ``policy`` call per holding (the
    peer, ``LbrConfig(batch=False)``), one after the other in this process: their hands
    per CPU second and whether the two documents agree but for the clocks."""
    from pokerarena.solvers.lbr import LbrConfig, lbr_value

    fast = lbr_value("holdem", options, bot, hands, seed)
    slow = lbr_value("holdem", options, bot, hands, seed, config=LbrConfig(batch=False))
    clocks = ("seconds", "hands_per_second", "cpu_seconds")
    same = {k: v for k, v in fast.items() if k not in clocks} == \
        {k: v for k, v in slow.items() if k not in clocks}
    return {"hands": fast["hands"], "same_figures": same,
            "batch_hands_per_cpu_second": fast["hands"] / fast["cpu_seconds"],
            "per_holding_hands_per_cpu_second": slow["hands"] / slow["cpu_seconds"]}


def bench_lbr(cases: list[str], hands: int, slow_hands: int, seed: int,
              workers: int = 0, peer_hands: int = 0) -> dict[str, Any]:
    """The document ``bench lbr --json`` prints."""
    from pokerarena.solvers.lbr import LbrError, lbr_value

    parsed = []
    for case in cases:
        betting, _, bot = case.partition(":")
        if not betting or not bot:
            raise UserError(f"bench lbr: --case {case!r}: expected BETTING:BOT")
        parsed.append((betting, bot))
    rows: list[dict[str, Any]] = []
    with _ray(workers) if workers else nullcontext():
        for betting, bot in parsed:
            n = slow_hands if bot in SLOW else hands
            options = {"betting": betting}
            try:
                load = _load()
                if workers:
                    from pokerarena.workers.lbr_unit import lbr_on_ray

                    r, _ = lbr_on_ray(workers, "holdem", options, bot, n, seed)
                else:
                    lbr_value("holdem", options, bot, 2, seed + 1)  # warm-up
                    r = lbr_value("holdem", options, bot, n, seed)
            except LbrError as exc:
                raise UserError(f"bench lbr: {exc}") from None
            row = {k: r[k] for k in ("betting", "bot", "lbr_mbb_per_hand", "ci95", "hands",
                                     "seconds", "hands_per_second", "cpu_seconds",
                                     "policy_reads", "actions")}
            cpu = r["cpu_seconds"]
            row["hands_per_cpu_second"] = r["hands"] / cpu if cpu > 0 else float("inf")
            row["load_before"], row["load_after"] = load, _load()
            if peer_hands and bot in SLOW:
                row["peer"] = _peer(options, bot, peer_hands, seed)
            rows.append(row)
    return {"benchmark": "lbr", "variant": "holdem", "seed": seed, "workers": workers,
            "cpus": os.cpu_count(), "cases": rows}


def run_lbr_bench(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench lbr``."""
    if args.hands < 1 or args.slow_hands < 1:
        raise UserError("bench lbr: --hands and --slow-hands must be at least 1")
    if args.seed < 0:
        raise UserError(f"bench lbr: --seed must be a non-negative integer, got {args.seed}")
    if args.workers < 0 or args.peer_hands < 0:
        raise UserError("bench lbr: --workers and --peer-hands must be at least 0")
    t0 = time.perf_counter()
    doc = bench_lbr(list(args.case or CASES), args.hands, args.slow_hands, args.seed,
                    args.workers, args.peer_hands)
    if args.json:
        print(json.dumps(doc))
        return 0
    where = f"{args.workers} Ray actors" if args.workers else "one process"
    print(f"LBR in hold'em, seed {args.seed}, {where}, {doc['cpus']} CPUs "
          f"({time.perf_counter() - t0:.0f} s in all)")
    for r in doc["cases"]:
        lo, hi = r["ci95"]
        print(f"{r['betting']:12} {r['bot']:8} {r['lbr_mbb_per_hand']:>9.0f} mbb/hand "
              f"[{lo:.0f}, {hi:.0f}]  {r['hands']:>5} hands {r['seconds']:8.2f} s "
              f"{r['hands_per_second']:8.1f} hands/s ({r['hands_per_cpu_second']:.1f} per "
              f"CPU second; load {r['load_before']:.1f} to {r['load_after']:.1f})")
        if "peer" in r:
            q = r["peer"]
            print(f"{'':21} {q['hands']} hands: {q['batch_hands_per_cpu_second']:.1f} "
                  f"per CPU second read at once, {q['per_holding_hands_per_cpu_second']:.1f}"
                  f" one policy call per holding; the same figures: {q['same_figures']}")
    return 0
