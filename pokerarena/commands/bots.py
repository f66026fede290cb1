"""Bot commands: ``bots`` (the registered bots), ``match`` (bots against each other),
``acpc serve`` (an ACPC dealer) and ``acpc connect`` (one of our bots as an ACPC client).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pokerarena.commands import UserError
from pokerarena.commands.index import benchmark_summary, summary


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``bots``, ``match`` and ``acpc``."""
    p = subparsers.add_parser("bots", help=summary("bots"),
                              description="List the registered bots. Any bot can also be "
                              "named by a Python path package.module:Class[?k=v&...] or an "
                              "http://host:port/path URL (docs/bots.md).")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_bots)

    p = subparsers.add_parser("match", help=summary("match"),
                              description="Bots play a match at one table (same stacks "
                              "each hand, the button moving); prints each bot's result in "
                              "mbb/hand (thousandths of the big blind, or of the small bet "
                              "without blinds) with a 95% confidence interval.")
    p.add_argument("--variant", default="holdem", help="variant id or variant file")
    p.add_argument("--betting", help="betting system (default: the variant's first)")
    p.add_argument("--option", action="append", default=[], metavar="K=V",
                   help="game option (repeatable), e.g. blinds=1,2")
    p.add_argument("--bots", required=True,
                   help="comma-separated bot specs, one per seat (e.g. tag,random)")
    p.add_argument("--hands", type=int, default=1000, help="hands to play")
    p.add_argument("--seed", type=int, default=0, help="match seed")
    p.add_argument("--stack", type=int, help="chips per seat at the start of each hand")
    p.add_argument("--duplicate", action="store_true",
                   help="play every deal once per rotation of the bots (less luck)")
    p.add_argument("--aivat", action="store_true",
                   help="heads-up, in duplicate: judge the same hands by the raw pairs, "
                   "all-in settlement and AIVAT (JSON: \"estimators\")")
    _policy_args(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_match)

    p = subparsers.add_parser("acpc", help=summary("acpc"))
    sub = p.add_subparsers(dest="acpc_command", metavar="ACPC_COMMAND")
    sub.required = True
    s = sub.add_parser("serve", help="be an ACPC dealer: external bots connect, one port "
                       "per seat", description="Deal a match to ACPC clients (protocol "
                       "2.0.0). Seats are the --port listeners first, then the --bots; "
                       "seats rotate each hand. The result is printed like a match's.")
    s.add_argument("--gamedef", required=True, help="ACPC game definition file")
    s.add_argument("--hands", type=int, default=1000, help="hands to deal")
    s.add_argument("--seed", type=int, default=0, help="match seed")
    s.add_argument("--port", type=int, action="append", default=[],
                   help="a TCP port for one external seat (repeatable; 0: any free port)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on")
    s.add_argument("--bots", default="", help="comma-separated bot specs for our seats")
    s.add_argument("--log", help="write the ACPC-style STATE/SCORE log here")
    s.add_argument("--connect-timeout", type=float, default=60.0,
                   help="seconds to wait for every external seat to connect")
    s.add_argument("--time", type=float, default=10.0,
                   help="seconds per decision of an external seat")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=cmd_acpc_serve)

    c = sub.add_parser("connect", help="play one of our bots as an ACPC client",
                       description="Connect to an ACPC dealer at HOST PORT and play the "
                       "bot for as many hands as the dealer deals.")
    c.add_argument("--bot", required=True, help="bot spec (registered name, path, URL)")
    c.add_argument("--gamedef", required=True, help="ACPC game definition file")
    c.add_argument("--seed", type=int, default=0, help="the bot's seed")
    c.add_argument("--time", type=float, default=10.0,
                   help="seconds per decision before the policy answers instead")
    c.add_argument("host")
    c.add_argument("port", type=int)
    c.set_defaults(func=cmd_acpc_connect)


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench bots`` (joined to the ``bench`` group through commands/index.py)."""
    p = sub.add_parser(
        "bots", help=benchmark_summary("bots"),
        description="Each bot plays a heads-up match against an opponent (call by default) "
        "after a short warm-up; prints per bot its decisions, decisions per second, think "
        "time, the match's wall time and the think share (think time / match time). With "
        "--round-robin every pair of the bots plays a match instead, and the think share "
        "is all the bots' thinking over the tournament's match time.")
    p.add_argument("--variant", default="holdem", help="variant id (default holdem)")
    p.add_argument("--betting", help="betting system (default: the variant's first)")
    p.add_argument("--bots", help="comma-separated bots (default tag,lag,rock,equity; "
                   "with --round-robin random,call,rock,tag,lag,equity,maniac)")
    p.add_argument("--opponent", default="call",
                   help="the bot each one plays against (default call)")
    p.add_argument("--round-robin", action="store_true",
                   help="a heads-up round robin of the bots instead")
    p.add_argument("--hands", type=int, default=None, metavar="N",
                   help="hands per match (default 1000; 500 in a round robin)")
    p.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=cmd_bench_bots)


def cmd_bench_bots(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench bots``."""
    from pokerarena.bench.decisions import (
        DEFAULT_BOTS,
        TOURNAMENT_BOTS,
        bench_bots,
        bench_round_robin,
    )
    from pokerarena.bots.registry import BotSpecError
    from pokerarena.engine import EngineError
    from pokerarena.rules import VariantError

    if args.bots is None:
        bots = list(TOURNAMENT_BOTS if args.round_robin else DEFAULT_BOTS)
    else:
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise UserError("--bots: name at least one bot")
    if args.round_robin and len(bots) < 2:
        raise UserError("--round-robin: name at least two bots")
    hands = args.hands if args.hands is not None else (500 if args.round_robin else 1000)
    if hands < 1:
        raise UserError("--hands must be at least 1")
    try:
        if args.round_robin:
            res = bench_round_robin(args.variant, args.betting, bots, hands, args.seed)
        else:
            res = bench_bots(args.variant, args.betting, bots, hands, args.seed,
                             args.opponent)
    except (BotSpecError, EngineError, VariantError, ValueError) as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(res))
        return 0
    if args.round_robin:
        print(f"{res['variant']} {res['betting']}: round robin of {len(bots)} bots, "
              f"{res['matches']} matches of {res['hands']} hands, seed {res['seed']}: "
              f"the bots think {res['think_seconds']:.3f}s of {res['match_seconds']:.3f}s "
              f"({100 * res['think_share']:.0f}%)")
        for r in res["bots"]:
            print(f"  {r['bot']:<8} {r['decisions']:>7} decisions  "
                  f"{r['decisions_per_sec']:>10} decisions/s  think {r['think_seconds']:.3f}s "
                  f"({100 * r['tournament_share']:.1f}% of the tournament)")
        return 0
    print(f"{res['variant']} {res['betting']}: {res['hands']} hands against "
          f"{res['opponent']}, seed {res['seed']}")
    for r in res["bots"]:
        print(f"  {r['bot']:<8} {r['decisions']:>7} decisions  {r['decisions_per_sec']:>10} "
              f"decisions/s  think {r['think_seconds']:.3f}s of {r['match_seconds']:.3f}s "
              f"({100 * r['think_share']:.0f}%)")
    return 0


def _policy_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--decision-time", type=float, default=5.0,
                   help="seconds per decision (default 5)")
    p.add_argument("--hand-time", type=float, default=60.0,
                   help="seconds per hand and bot (default 60)")
    p.add_argument("--on-fault", choices=("check_fold", "call", "protect"), default="check_fold",
                   help="irregularity policy (default: check if free, else fold)")
    p.add_argument("--max-faults", type=int,
                   help="remove a bot from the match after this many faults")


def _policy(args: argparse.Namespace) -> Any:
    from pokerarena.arena.faults import FaultPolicy

    return FaultPolicy(decision_time=args.decision_time, hand_time=args.hand_time,
                       on_fault=args.on_fault, max_faults=args.max_faults)


def cmd_bots(args: argparse.Namespace) -> int:
    """List the registered bots."""
    from pokerarena.bots.registry import listing

    rows = listing()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        print(f"{r['name']:<{width}}  {r['description']}")
    return 0


def _game(args: argparse.Namespace) -> Any:
    from pokerarena.engine.game import Game

    return Game(args.variant, _options(args))


def _options(args: argparse.Namespace) -> dict[str, Any]:
    from pokerarena.engine.game import parse_option_value

    options: dict[str, Any] = {}
    if args.betting:
        options["betting"] = args.betting
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq:
            raise UserError(f"--option {item!r}: expected K=V")
        options[key.strip()] = parse_option_value(value)
    return options


def _print_result(d: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(d, indent=2))
        return
    print(f"{d['variant']} {d['betting']}: {d['hands']} hands, seed {d['seed']}"
          f"{', duplicate' if d['duplicate'] else ''}, big blind {d['big_blind']}, "
          f"{d['seconds']}s")
    width = max(len(e["bot"]) for e in d["entrants"])
    for e in d["entrants"]:
        dps = e["decisions_per_s"]
        extra = f", removed at hand {e['removed_at_hand']}" if "removed_at_hand" in e else ""
        print(f"  {e['bot']:<{width}}  {e['mbb_per_hand']:>+10.1f} ± {e['ci95']:.1f} mbb/hand"
              f"  net {e['net']:+g}  faults {e['faults']}"
              f"  {dps if dps is not None else '-'} decisions/s{extra}")
    if d["faults"]:
        kinds: dict[str, int] = {}
        for f in d["faults"]:
            kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
        print("  faults: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))


def cmd_match(args: argparse.Namespace) -> int:
    """Play a match and print the result."""
    from pokerarena.arena.match import play_match
    from pokerarena.bots.registry import BotSpecError, check_bots_for_game, make_bot

    game = _game(args)
    specs = [s for s in args.bots.split(",") if s.strip()]
    if len(specs) < 2:
        raise UserError("--bots: name at least two bots")
    lo, hi = game.variant.players
    if not lo <= len(specs) <= hi:
        raise UserError(f"{game.variant.id} is for {lo} to {hi} players, not {len(specs)}")
    if args.hands < 1:
        raise UserError("--hands must be at least 1")
    try:
        for s in specs:  # fail early on a bad spec
            bot = make_bot(s)
            close = getattr(bot, "close", None)
            if callable(close):
                close()
        check_bots_for_game(specs, [game], len(specs))  # or a strategy of another game
    except BotSpecError as exc:
        raise UserError(str(exc)) from None
    if args.aivat:
        return _match_three_ways(args, specs)
    res = play_match(game, specs, args.hands, args.seed, policy=_policy(args),
                     duplicate=args.duplicate, stack=args.stack)
    _print_result(res.as_dict(), args.json)
    return 0


def _match_three_ways(args: argparse.Namespace, specs: list[str]) -> int:
    """``match --aivat``: a heads-up duplicate match judged by the raw pairs, all-in
    settlement and AIVAT on the same hands (docs/tournaments.md, "AIVAT on hold'em")."""
    from pokerarena.tournaments.aivat import AivatError
    from pokerarena.tournaments.aivat_engine import estimators_json, play_engine_aivat

    if len(specs) != 2:
        raise UserError("--aivat: heads-up matches only (name two bots)")
    if args.stack is not None:
        raise UserError("--aivat plays the game's own stacks: drop --stack")
    try:
        m = play_engine_aivat(args.variant, specs, args.hands, args.seed,
                              options=_options(args))
    except AivatError as exc:
        raise UserError(str(exc)) from None
    est = estimators_json(m)
    out = {"variant": m.variant, "bots": list(m.names), "hands": len(m.raw),
           "seed": args.seed, "duplicate": True, "big_blind": m.big_blind,
           "units": f"mbb/hand of {m.names[0]}", "estimators": est}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{m.variant}: {' v '.join(m.names)}, {len(m.raw)} hands in duplicate pairs, "
          f"seed {args.seed}; mbb/hand of {m.names[0]}")
    for name, label in (("raw", "raw pairs"), ("allin", "all-in equity"), ("aivat", "AIVAT")):
        e = est[name]
        ratio = e["sd_ratio"]
        print(f"  {label:<14} {e['mbb_per_hand']:>+10.1f}  95% [{e['ci95'][0]:+.1f}, "
              f"{e['ci95'][1]:+.1f}]  sd/pair {e['sd']:.1f}"
              + (f"  (x{ratio:.2f} of raw)" if ratio is not None else ""))
    return 0


def cmd_acpc_serve(args: argparse.Namespace) -> int:
    """Run an ACPC dealer."""
    from pokerarena.arena.acpc import AcpcError, Dealer, load_gamedef

    try:
        gd = load_gamedef(args.gamedef)
    except (OSError, AcpcError) as exc:
        raise UserError(str(exc)) from None
    bots = [s for s in args.bots.split(",") if s.strip()]
    if len(args.port) + len(bots) != gd.num_players:
        raise UserError(f"the game is for {gd.num_players} players: give as many --port "
                        f"and --bots seats in all (got {len(args.port)} + {len(bots)})")
    dealer = Dealer(gd, hands=args.hands, seed=args.seed, ports=args.port, bots=bots,
                    host=args.host, decision_time=args.time,
                    connect_timeout=args.connect_timeout, log_path=args.log,
                    on_listen=lambda ports: print("listening on " + " ".join(map(str, ports)),
                                                  file=sys.stderr, flush=True))
    try:
        res = dealer.run()
    except AcpcError as exc:
        raise UserError(str(exc)) from None
    _print_result(res.as_dict(), args.json)
    return 0


def cmd_acpc_connect(args: argparse.Namespace) -> int:
    """Play a bot as an ACPC client."""
    from pokerarena.arena.acpc import AcpcError, Client, load_gamedef
    from pokerarena.bots.registry import BotSpecError

    try:
        gd = load_gamedef(args.gamedef)
        client = Client(gd, args.bot, seed=args.seed, decision_time=args.time)
        stats = client.run(args.host, args.port)
    except (OSError, AcpcError, BotSpecError) as exc:
        raise UserError(str(exc)) from None
    print(json.dumps(stats))
    return 0
