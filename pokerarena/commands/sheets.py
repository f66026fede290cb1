"""``pokerarena sheet``: a game family's score sheet (painted poker's deals) from a run's
Parquet, one game at a time (:func:`pokerarena.platform.score_sheets.score_sheet`)."""

from __future__ import annotations

import argparse

from pokerarena.commands.index import summary


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``sheet`` to the CLI."""
    p = sub.add_parser(
        "sheet", help=summary("sheet"),
        description="Reads the family's record table (painted_deals) through DuckDB and "
        "prints one game as the document's table: a row per deal, each seat's bid/tricks "
        "and points, the totals last. Default: the run's first game.")
    p.add_argument("run_id", metavar="RUN_ID")
    p.add_argument("--data", default="data", help="data directory (default ./data)")
    p.add_argument("--unit", help="the unit (default: the first)")
    p.add_argument("--game", type=int, help="the game: its hands.hand (default: the first)")
    p.set_defaults(func=_sheet)


def _sheet(args: argparse.Namespace) -> int:
    from pokerarena.platform.score_sheets import score_sheet

    print(score_sheet(args.data, args.run_id, args.unit, args.game))
    return 0
