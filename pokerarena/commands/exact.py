"""``pokerarena exact``: exact values, best responses and exploitability of two bots
that declare their policy, in a game small enough to walk (docs/exact.md)."""

from __future__ import annotations

import argparse
import json

from pokerarena.commands import UserError, game_options
from pokerarena.commands.index import summary


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``exact`` subcommand."""
    p = subparsers.add_parser(
        "exact",
        help=summary("exact"),
        description="Walk every deal and every line of play of a small game (kuhn, leduc) "
        "with two bots that declare their policy: each bot's expected chips per hand "
        "(averaged over both seatings), the best response's value against each, and "
        "each one's exploitability. See docs/exact.md.")
    p.add_argument("--variant", required=True, metavar="VARIANT",
                   help="a variant small enough to walk: kuhn, leduc, or a file")
    p.add_argument("--bots", required=True, metavar="A,B",
                   help="two bot specs that declare a policy (random, call, "
                   "package.module:Class)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable)")
    p.add_argument("--json", action="store_true",
                   help='print {"values", "best_response", "exploitability", "units"}')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena exact``."""
    from pokerarena.bots.registry import make_bot
    from pokerarena.solvers.exact import evaluate

    specs = [s.strip() for s in args.bots.split(",")]
    if len(specs) != 2 or not all(specs):
        raise UserError(f"--bots: two bot specs separated by a comma, not {args.bots!r}")
    bots = [make_bot(spec, seed=i) for i, spec in enumerate(specs)]
    result = evaluate(args.variant, bots, specs, game_options(args.option))
    if args.json:
        print(json.dumps(result.as_json()))
        return 0
    print(f"{result.variant}: {result.deals:,} deals, {result.nodes:,} states walked; "
          "chips per hand, each bot in both seats")
    print(f"{'bot':<24} {'value':>12} {'best response':>14} {'exploitability':>15}")
    for i, name in enumerate(result.bots):
        print(f"{name:<24} {result.values[i]:>12.6f} {result.best_response[i]:>14.6f} "
              f"{result.exploitability[i]:>15.6f}")
    return 0
