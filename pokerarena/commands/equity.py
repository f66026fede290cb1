"""``pokerarena equity``: exact or Monte-Carlo equity of two or more hands."""

from __future__ import annotations

import argparse
import json

from pokerarena.commands import UserError
from pokerarena.commands.index import summary

GAME_NAMES = ("holdem", "short_deck", "omaha", "omaha5", "omaha6", "omaha_hilo", "omaha5_hilo")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``equity`` subcommand."""
    p = subparsers.add_parser(
        "equity",
        help=summary("equity"),
        description="Equity of two or more hands over every completion of the board "
        "(exact) or over random completions (Monte Carlo, with standard errors).",
    )
    p.add_argument("hands", nargs="+", metavar="HAND",
                   help="hole cards of one player, e.g. AdAc or 'Ad Ac'")
    p.add_argument("--board", default="", metavar="CARDS",
                   help="known board cards (0 to 5), e.g. 2c7dJh")
    p.add_argument("--game", default="holdem", metavar="GAME",
                   help=f"one of {', '.join(GAME_NAMES)} (default holdem)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_true",
                      help="enumerate every board (the default when feasible)")
    mode.add_argument("--samples", type=int, metavar="N",
                      help="Monte Carlo over N random boards")
    p.add_argument("--seed", type=int, metavar="S",
                   help="seed of the Monte-Carlo generator (default: fresh, reported)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena equity``."""
    from pokerarena.evaluator.equity import EquityError
    from pokerarena.evaluator.equity import equity as compute_equity

    if args.game not in GAME_NAMES:
        raise UserError(f"unknown game {args.game!r}; choose one of {', '.join(GAME_NAMES)}")
    if args.seed is not None and args.seed < 0:
        raise UserError(f"--seed must be a non-negative integer, got {args.seed}")
    try:
        result = compute_equity(args.hands, args.board, args.game,
                                exact=True if args.exact else None,
                                samples=args.samples, seed=args.seed)
    except EquityError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(format_table(result))
    return 0


def format_table(result) -> str:
    """A human-readable table of an ``EquityResult``."""
    mc = not result.exact
    head = [f"game {result.game}", f"board {result.board or '-'}"]
    if mc:
        head.append(f"{result.boards:,} random boards (Monte Carlo, seed {result.seed})")
    else:
        head.append(f"{result.boards:,} boards (exact)")
    cols = ["hand", "equity"] + (["+/- s.e."] if mc else []) + ["win", "tie", "lose"]
    rows = []
    for p in result.players:
        row = [p.hand, f"{100 * p.equity:.4f}%"]
        if mc:
            row.append(f"{100 * p.stderr:.4f}%")
        row += [f"{p.win:,}", f"{p.tie:,}", f"{p.lose:,}"]
        rows.append(row)
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    out = [", ".join(head), line(cols), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)
