"""``pokerarena study`` (play a study spec: a run of kind ``study``, through the same
driver and executors as ``pokerarena run``) and ``pokerarena report`` (a study run's
report: ``report.html`` and its Parquet tables)."""

from __future__ import annotations

import argparse
import sys

from pokerarena.commands import UserError
from pokerarena.commands.index import summary


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``study`` and ``report``."""
    p = sub.add_parser(
        "study", help=summary("study"),
        description="Plays a run spec of kind = \"study\" like `pokerarena run` (Ray, or "
        "in-process with --local), with a progress bar, and prints the run's id on the "
        "last line; `pokerarena report RUN_ID` then writes its report. See "
        "examples/studies/ and docs/studies.md.")
    p.add_argument("spec", help="study spec file (.toml or .json) with kind = \"study\"")
    p.add_argument("--data", metavar="DIR", default=None,
                   help="data directory (default: $POKERARENA_DATA or ./data)")
    p.add_argument("--address", help="Ray cluster to join (default: $RAY_ADDRESS, else a "
                   "local cluster)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="Ray actors playing the cells' units (default: one per CPU)")
    p.add_argument("--local", action="store_true",
                   help="play in this process, without Ray (tiny studies)")
    p.set_defaults(func=cmd_study)

    p = sub.add_parser(
        "report", help=summary("report"),
        description="Reads a study run's rows with DuckDB and writes DIR/report.html (one "
        "self-contained file: plots embedded, nothing fetched) and the report's tables as "
        "Parquet beside it (cells, metrics, comparisons, pot_quantiles, skill).")
    p.add_argument("run_id", metavar="RUN_ID")
    p.add_argument("--data", metavar="DIR", default=None,
                   help="data directory (default: $POKERARENA_DATA or ./data)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="where to write (default: the run's folder, runs/RUN_ID/report)")
    p.add_argument("--no-exact", action="store_true",
                   help="leave out the exact hand-category tables of the cells' rule sets "
                   "(a seven-card wild-card census takes a minute)")
    p.set_defaults(func=cmd_report)


def cmd_study(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena study``: checks the kind, then hands over to ``run``."""
    from pokerarena.commands.runs import cmd_run
    from pokerarena.platform.spec import SpecError, load_spec
    from pokerarena.platform.storage import new_run_id

    try:
        spec = load_spec(args.spec)
    except SpecError as exc:
        raise UserError(str(exc)) from None
    if spec.kind != "study":
        raise UserError(f"{args.spec}: kind = {spec.kind!r}; `pokerarena study` plays "
                        "kind = \"study\" (use `pokerarena run` for the others)")
    run_id = new_run_id(spec)
    status = cmd_run(argparse.Namespace(
        spec=args.spec, data=args.data, address=args.address, workers=args.workers,
        resume=None, local=args.local, run_id=run_id, json=False, schema=False))
    if status == 0:
        print(f"next: pokerarena report {run_id}"
              + (f" --data {args.data}" if args.data else ""), file=sys.stderr)
    print(run_id)
    return status


def cmd_report(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena report``."""
    from pokerarena.platform.storage import data_location, default_location
    from pokerarena.platform.study_report import write_report

    data = data_location(args.data) if args.data else default_location()
    path = write_report(data, args.run_id, args.out, exact=not args.no_exact)
    print(path)
    return 0
