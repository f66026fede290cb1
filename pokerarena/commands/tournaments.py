"""``pokerarena sprt`` (is NEW better than OLD? duplicate pairs until the test decides)
and ``pokerarena leaderboard`` (a run's standings, rankings and ratings).

The tournament modules (numpy, numba, SciPy) are imported by the handlers: parsing,
``--help`` included, reads its choices and defaults from
:mod:`pokerarena.commands.constants`."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING, Any

from pokerarena.commands import game_options
from pokerarena.commands.constants import DEFAULT_H1, ESTIMATORS
from pokerarena.commands.index import benchmark_summary, summary

if TYPE_CHECKING:
    from pokerarena.tournaments.sequential import PairBatch

BAR = 30


def register(sub: Any) -> None:
    """Add ``sprt`` and ``leaderboard`` to the CLI."""
    register_leaderboard(sub)
    p = sub.add_parser(
        "sprt", help=summary("sprt"),
        description="Plays duplicate pairs (each deal twice, seats swapped) of NEW against "
        "OLD and runs a generalized SPRT on the pair results: H0 = NEW wins H0 mbb/hand, "
        "H1 = NEW wins H1 mbb/hand. Stops when it accepts one, or at --max-hands.")
    p.add_argument("--variant", default="holdem")
    p.add_argument("--betting", default=None)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--bots", required=True, metavar="NEW,OLD")
    p.add_argument("--h0", type=float, default=0.0, help="mbb/hand under H0 (default 0)")
    p.add_argument("--h1", type=float, default=DEFAULT_H1,
                   help=f"mbb/hand under H1 (default {DEFAULT_H1:g})")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="P(accept H1) when H0 is true (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05,
                   help="P(accept H0) when H1 is true (default 0.05)")
    p.add_argument("--max-hands", type=int, default=200_000, metavar="N")
    p.add_argument("--batch-pairs", type=int, default=250, metavar="K",
                   help="pairs per batch (one batch per worker task; default 250)")
    p.add_argument("--estimator", choices=ESTIMATORS, default="raw",
                   help="what a pair scores: raw chips (default), all-in runouts settled at "
                   "equity, or AIVAT-corrected chips (docs/tournaments.md)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--local", action="store_true", help="play in this process, no Ray")
    p.add_argument("--address", default=None, help="join this Ray cluster")
    p.add_argument("--workers", type=int, default=None, help="batches in flight (Ray)")
    p.add_argument("--json", action="store_true", help="end with one JSON line")
    p.set_defaults(func=_sprt)


def llr_bar(state: dict[str, Any]) -> str:
    lo, hi = state["bounds"]
    x = min(max(state["llr"], lo), hi)
    k = round((x - lo) / (hi - lo) * (BAR - 1))
    return f"H0 {lo:+.2f} [" + "-" * k + "●" + "-" * (BAR - 1 - k) + f"] {hi:+.2f} H1"


def _print_progress(state: dict[str, Any]) -> None:
    lo, hi = state["ci95_fixed"]  # while running: no stop yet to correct for
    print(f"{llr_bar(state)}  llr {state['llr']:+.2f}  pairs {state['pairs']:>7,}  "
          f"{state['mbb_per_hand']:+.1f} mbb/hand [{lo:+.1f}, {hi:+.1f} fixed-n]",
          file=sys.stderr, flush=True)


def _sprt(args: argparse.Namespace) -> int:
    from pokerarena.tournaments.sequential import (
        SequentialTestError,
        batches,
        check_request,
        play_batch,
        run_test,
    )
    from pokerarena.tournaments.sprt import Sprt

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    check_request(bots, args.h0, args.h1, args.max_hands)
    for name in ("h0", "h1", "alpha", "beta"):
        if not math.isfinite(getattr(args, name)):
            raise SequentialTestError(f"--{name.replace('_', '-')} must be a finite number")
    if args.batch_pairs < 1:
        raise SequentialTestError("--batch-pairs must be at least 1")
    try:
        test = Sprt(args.h0, args.h1, args.alpha, args.beta)
    except ValueError as exc:
        raise SequentialTestError(str(exc)) from None
    options = game_options(args.option)
    _check_game(args.variant, args.betting, options, bots)
    todo = list(batches(args.variant, args.betting, options, (bots[0], bots[1]),
                        args.seed, args.batch_pairs, args.max_hands // 2, args.estimator))
    results = (map(play_batch, todo) if args.local
               else _on_ray(todo, args.address, args.workers))
    state = run_test(test, results, _print_progress)
    state["estimator"] = args.estimator
    if args.json:
        print(json.dumps(state))
    else:
        (lo, hi), (flo, fhi) = state["ci95"], state["ci95_fixed"]
        fixed = ("" if state["ci95"] == state["ci95_fixed"] else
                 f"; fixed-sample {flo:+.1f} to {fhi:+.1f}, not valid after the stop")
        print(f"decision: {state['decision']} after {state['hands']:,} hands "
              f"({state['mbb_per_hand']:+.1f} mbb/hand, 95% interval "
              f"{lo:+.1f} to {hi:+.1f}: {state['ci95_method']}{fixed})")
    return 0


def _check_game(variant: str, betting: str | None, options: dict[str, Any],
                bots: list[str]) -> None:
    """Build the game and the bots once here, so a bad name (or a strategy file of
    another game) fails before any play."""
    from pokerarena.bots.registry import check_bots_for_game, make_bot
    from pokerarena.engine.game import Game

    opts = dict(options)
    if betting:
        opts["betting"] = betting
    game = Game(variant, opts)
    for b in bots:
        make_bot(b, 0)
    check_bots_for_game(bots, [game], 2)


def _on_ray(todo: list[PairBatch], address: str | None, workers: int | None) -> Any:
    """Batch results in batch order, ``workers`` batches in flight on Ray; batches past
    the decision are cancelled when the caller stops reading."""
    import ray

    from pokerarena.platform.executors import init_ray
    from pokerarena.tournaments.sequential import play_batch

    started = init_ray(address)
    remote = ray.remote(num_cpus=1, max_retries=3)(play_batch)
    width = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    pending: dict[int, Any] = {}
    try:
        nxt = 0
        for i in range(len(todo)):
            while nxt < len(todo) and len(pending) < width + 1:
                pending[nxt] = remote.remote(todo[nxt])
                nxt += 1
            yield ray.get(pending.pop(i))
    finally:
        for ref in pending.values():
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def register_leaderboard(sub: Any) -> None:
    """Add ``leaderboard`` to the CLI."""
    p = sub.add_parser(
        "leaderboard", help=summary("leaderboard"),
        description="Reads the run's Parquet through DuckDB. Blocks are deals (all the "
        "seatings of a duplicate deal together); intervals are bootstrapped over blocks "
        "when their sizes differ. Rankings: total bankroll and instant run-off; ratings: "
        "Bradley-Terry with bootstrap intervals (heads-up) and OpenSkill.")
    p.add_argument("run_id", metavar="RUN_ID")
    p.add_argument("--data", default="data", help="data directory (default ./data)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--write", action="store_true",
                   help="also write the tables as Parquet under RUN/standings/ (a finished "
                   "tournament run has them already; query them as views: ranking, "
                   "cross_table, ratings, rating_history, cumulative, profiles, "
                   "variance_reduction)")
    p.set_defaults(func=_leaderboard)


def _leaderboard(args: argparse.Namespace) -> int:
    from pokerarena.platform import freezeout_standings as fz
    from pokerarena.platform.standings import run_standings, writable, write_standings
    from pokerarena.tournaments.standings import SEGMENT_DEALS

    if fz.is_freezeout_run(args.data, args.run_id):  # places, prizes, ROI, ICM
        fo = fz.run_freezeout_standings(args.data, args.run_id)
        if args.write:
            print("a freeze-out's standings are not written: query the places view",
                  file=sys.stderr)
        print(json.dumps(fo) if args.json else fz.standings_text(fo))
        return 0
    if args.write:
        writable(args.data, args.run_id)  # before the work: a running run is refused
    out = run_standings(args.data, args.run_id)
    if args.write:
        written = write_standings(args.data, args.run_id, out)
        print(f"standings of {args.run_id} ({written['status']}) written to "
              f"{args.data}/{written['path']}: " + ", ".join(
                  f"{name} ({n} rows)" for name, n in written["tables"].items()),
              file=sys.stderr)
    if args.json:
        print(json.dumps(out))
        return 0
    if "points_per_game" in out:  # a game family's run (painted poker, ...)
        from pokerarena.platform.family_standings import standings_text

        print(standings_text(out))
        return 0
    print(f"{'bot':<14}{'mbb/hand':>10}{'95% interval':>22}{'hands':>9}")
    for r in out["bots"]:
        print(f"{r['bot']:<14}{r['value']:>10.1f}   [{r['lo']:>8.1f}, {r['hi']:>8.1f}]"
              f"{r['hands']:>9,}")
    bots = out["cross"]["bots"]
    print("\ncross table (row's mbb/hand against column)")
    print(" " * 14 + "".join(f"{b[:9]:>10}" for b in bots))
    for b, row in zip(bots, out["cross"]["mbb_per_hand"], strict=True):
        print(f"{b:<14}" + "".join(f"{'' if x is None else round(x):>10}" for x in row))
    print("\ntotal bankroll: " + ", ".join(r["bot"] for r in out["total_bankroll"]))
    print("instant run-off: " + ", ".join(out["instant_runoff"]))
    if "bradley_terry" in out:
        print("Bradley-Terry (Elo): " + ", ".join(
            f"{r['bot']} {r['rating']:+.0f} " + (
                "(no interval: too few segments, or every segment won by one bot)"
                if r["lo"] is None
                else f"[{r['lo']:+.0f}, {r['hi']:+.0f}]")
            for r in sorted(out["bradley_terry"], key=lambda r: -r["rating"])))
        st = out["stability"]
        print(f"order kept in {st['order_kept']:.0%} of {st['trials']} drops of "
              f"{st['dropped']} segments of {SEGMENT_DEALS} deals (top kept "
              f"{st['top_kept']:.0%})")
    print("\nprofiles: bot, game, VPIP, PFR, aggression, WTSD, W$SD, fold to bet")
    for p in out["profiles"]:
        print(f"  {p['bot']:<12}{p['variant']}/{p['betting']:<14}" + "  ".join(
            "-" if p[k] is None else f"{p[k]:.2f}"
            for k in ("vpip", "pfr", "aggression", "wtsd", "wsd", "fold_to_bet")))
    for r in out["variance_reduction"]:
        print(f"variance reduction, {r['variant']}/{r['betting']}, "
              f"{r['pairing'].replace(',', ' v ')}: " + "; ".join(
            f"{label} sd x{r[key + '_sd_ratio']:.2f} (hands x{r[key + '_hands_ratio']:.2f})"
            for key, label in (("equity", "all-in equity"), ("baseline", "baseline"),
                               ("aivat", "AIVAT"))
            if r.get(key + "_sd_ratio") is not None))
    print("OpenSkill (mu, +-2 sigma): " + ", ".join(
        f"{r['bot']} {r['rating']:.1f} [{r['lo']:.1f}, {r['hi']:.1f}]"
        for r in sorted(out["openskill"], key=lambda r: -r["rating"])))
    return 0


def register_bench(sub: Any) -> None:
    """Add ``bench tournament``."""
    from pokerarena.bench.tournament import BOTS, GAMES

    p = sub.add_parser(
        "tournament", help=benchmark_summary("tournament"),
        description="Plays one duplicate round robin's units on the same games, lineups, "
        "hands and seeds as bare matches (arena play_match, no rows), through the unit "
        "set-up, through play_unit (rows built), through the run driver in process (rows "
        "written) and on Ray; prints each way's hands per CPU second and the per-hand "
        "overheads in percent (see docs/tournaments.md).")
    p.add_argument("--bots", default=",".join(BOTS), help="comma-separated bots (default: "
                   "the seven built-in ones)")
    p.add_argument("--games", default=",".join(GAMES), metavar="VARIANT[:BETTING],...",
                   help=f"games (default {','.join(GAMES)})")
    p.add_argument("--hands", type=int, default=400, metavar="N",
                   help="hands per pairing and game (default 400)")
    p.add_argument("--unit-hands", type=int, default=200, help="hands per unit (default 200)")
    p.add_argument("--workers", type=int, default=2, help="Ray actors (default 2)")
    p.add_argument("--repeats", type=int, default=2,
                   help="in-process repeats; the least CPU time is kept (default 2)")
    p.add_argument("--no-ray", action="store_true", help="skip the Ray way")
    p.add_argument("--address", default=None, help="Ray cluster to join")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=_bench_tournament)


def _bench_tournament(args: argparse.Namespace) -> int:
    from pokerarena.bench.tournament import bench_tournament
    from pokerarena.commands import UserError, check_bench_counts

    check_bench_counts(args)
    if args.unit_hands < 1 or args.workers < 1:
        raise UserError("--unit-hands and --workers must be at least 1")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    r = bench_tournament(bots, games, args.hands, args.unit_hands, args.workers,
                         args.repeats, args.address, ray=not args.no_ray, seed=args.seed)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{len(r['bots'])} bots, {r['pairings']} pairings x {len(r['games'])} games x "
          f"{r['hands_per_pairing_and_game']} hands = {r['hands']:,} hands; "
          f"{r['units']} units; same poker every way: {r['same_results']}")
    for name, w in r["ways"].items():
        print(f"  {name:<8} {w['hands_per_cpu_s']:>10,.0f} hands per CPU second"
              f" {w['hands_per_s']:>10,.0f} hands/s wall")
    print("overhead per hand (CPU): " + ", ".join(
        f"{k} {v:+.1f}%" for k, v in r["overhead_pct"].items() if v is not None))
    return 0
