"""Run commands: ``run``, ``runs``, ``show``, ``query``, and ``bench scaling``.

Handlers only parse arguments and print; the work is in :mod:`pokerarena.platform`.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import os
import sys
from pathlib import Path
from typing import Any

from pokerarena.commands import UserError
from pokerarena.commands.index import benchmark_summary, summary

QUERY_MEMORY_MB = 1024
"""The CLI query's memory cap (the service's query processes have the same default)."""


def _console() -> Any:
    """A rich console for stdout: the terminal's width, or 120 columns into a pipe."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=120)


def _add_data(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", metavar="DIR", default=None,
                   help="data directory (default: $POKERARENA_DATA or ./data)")


def _data_dir(args: argparse.Namespace) -> Path | str:
    """``--data`` or ``$POKERARENA_DATA``: a path, or an object-store URI (``s3://``)."""
    from pokerarena.platform.storage import data_location, default_location

    return data_location(args.data) if args.data else default_location()


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``run``, ``runs``, ``show``, ``query`` and ``compact``."""
    p = subparsers.add_parser(
        "run", help=summary("run"),
        description="Plan a run spec (TOML or JSON) into work units, play them on Ray "
        "actors and write hands, seats, actions and units as Parquet under DIR/runs/RUN_ID. "
        "Without --address or RAY_ADDRESS a local Ray cluster is started.")
    p.add_argument("spec", nargs="?", help="run spec file (.toml or .json)")
    _add_data(p)
    p.add_argument("--address", help="Ray cluster to join (default: $RAY_ADDRESS, else a "
                   "local cluster)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="Ray actors playing units (default: one per CPU, of this machine "
                   "or of the cluster joined)")
    p.add_argument("--resume", metavar="RUN_ID", help="continue an interrupted run")
    p.add_argument("--local", action="store_true",
                   help="play in this process, without Ray (debugging, tiny runs)")
    p.add_argument("--run-id", help="id of the new run (default: name-date-time-random)")
    p.add_argument("--json", action="store_true", help="print the final summary as JSON")
    p.add_argument("--schema", action="store_true",
                   help="print the JSON Schema of a run spec (one branch per kind) and exit")
    p.set_defaults(func=cmd_run)

    p = subparsers.add_parser("runs", help=summary("runs"))
    _add_data(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_runs)

    p = subparsers.add_parser("show", help=summary("show"))
    p.add_argument("run_id", metavar="RUN_ID")
    _add_data(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_show)

    p = subparsers.add_parser(
        "query", help=summary("query"),
        description="Run SQL in DuckDB over the views hands, seats, actions, units, "
        "leaderboard and the table runs (see docs/schema.md). The query runs in a "
        "process of its own whose memory is capped (--memory-mb).")
    p.add_argument("sql", help="the SQL statement")
    p.add_argument("--run", metavar="RUN_ID", help="only this run (default: every run)")
    p.add_argument("--memory-mb", type=int, default=QUERY_MEMORY_MB, metavar="MB",
                   help=f"memory the query process may use (default: {QUERY_MEMORY_MB})")
    _add_data(p)
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print a JSON list of objects")
    fmt.add_argument("--csv", action="store_true", help="print CSV with a header line")
    p.set_defaults(func=cmd_query)

    p = subparsers.add_parser(
        "compact", help=summary("compact"),
        description="Rewrite the parts of every unit no compaction covers yet into a new "
        "generation of large Parquet files per table (sorted by unit and hand), commit it, "
        "then retire the parts; a compaction that died is finished or undone first. A "
        "finished run compacts itself; a run being driven is refused.")
    p.add_argument("run_id", metavar="RUN_ID")
    p.add_argument("--data", "--data-dir", dest="data", metavar="DIR", default=None,
                   help="data directory (default: $POKERARENA_DATA or ./data)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_compact)


# run ---------------------------------------------------------------------------------


def cmd_run(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena run``."""
    if args.schema:
        if args.spec or args.resume:
            raise UserError("--schema prints the spec's JSON Schema; give no SPEC or --resume")
        from pokerarena.platform.spec import spec_json_schema

        print(json.dumps(spec_json_schema(), indent=2))
        return 0
    from pokerarena.platform.driver import RunDriver, RunFailed
    from pokerarena.platform.executors import LocalExecutor, RayExecutor, ray_address
    from pokerarena.platform.spec import SpecError, load_spec, run_id_problem
    from pokerarena.platform.standings import write_after_run

    data = _data_dir(args)
    if args.run_id is not None and (problem := run_id_problem(args.run_id)):
        raise UserError(f"--run-id: {problem}")
    if args.workers is not None and args.workers < 1:
        raise UserError(f"--workers must be at least 1, got {args.workers}")
    # Default: one worker per local core, or per CPU of the cluster joined.
    workers = args.workers or (None if ray_address(args.address) else os.cpu_count() or 1)
    executor: Any = LocalExecutor() if args.local else RayExecutor(workers, args.address)
    try:
        if args.resume:
            driver = RunDriver.resume(data, args.resume, executor)
            if args.spec and load_spec(args.spec).digest() != driver.spec.digest():
                raise UserError(f"{args.spec} differs from the spec of run {args.resume}; "
                                "resume without SPEC to use the stored one")
        else:
            if not args.spec:
                raise UserError("run: give a SPEC file (or --resume RUN_ID)")
            spec = load_spec(args.spec)
            _check_strategy_bots(spec)
            driver = RunDriver.create(spec, data, executor, run_id=args.run_id)
    except SpecError as exc:
        raise UserError(str(exc)) from None
    start = driver.progress()  # the plan's totals (a Swiss run's later rounds included)
    print(f"run {driver.run_id}: {start.units_total:,} units, {start.hands_total:,} hands, "
          f"{executor.name} x{executor.workers or 'all CPUs'}, data in {driver.store.run_dir}",
          file=sys.stderr, flush=True)
    try:
        final = _drive_with_progress(driver)
    except RunFailed as exc:
        print(f"pokerarena: run {driver.run_id} failed: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\ninterrupted; continue with: pokerarena run --resume {driver.run_id}",
              file=sys.stderr)
        return 130
    summary = final.as_dict()
    if written := write_after_run(data, driver.run_id, driver.spec.kind, final.status):
        print(f"standings written to {data}/{written['path']}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary))
    else:
        print(_run_summary_text(summary))
    return 0 if final.status == "finished" else 1


def _check_strategy_bots(spec: Any) -> None:
    """A bot that plays a strategy file of another game than the spec's (``cfr?path=``)
    is one error here, before the run is created and any hand played."""
    from pokerarena.bots.registry import check_bots_for_game
    from pokerarena.engine import Game
    from pokerarena.games import family_ids

    games = [Game(g["variant"], g["options"]) for g in spec.game_configs()
             if g["variant"] not in family_ids()]
    by_size: dict[int, list[str]] = {}
    for lineup in spec.lineups():
        by_size.setdefault(len(lineup), []).extend(lineup)
    for players, names in by_size.items():
        check_bots_for_game(names, games, players)


def _drive_with_progress(driver: Any) -> Any:
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        return driver.run()
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("[bold]{task.description}"), BarColumn(bar_width=24),
               MofNCompleteColumn(), TextColumn("units {task.fields[hands]} hands "
                                                "{task.fields[rate]}/s"),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("playing", total=driver.progress().units_total, hands="0",
                            rate="-")

        def update(p: Any) -> None:  # the total shrinks as matches stop early
            bar.update(task, total=p.units_total, completed=p.units_done,
                       hands=f"{p.hands_done:,}",
                       rate=f"{p.hands_per_s:,.0f}")

        driver.on_progress = update
        return driver.run()


def _run_summary_text(s: dict[str, Any]) -> str:
    return (f"{s['run_id']}: {s['status']}; {s['units_done']:,}/{s['units_total']:,} units, "
            f"{s['hands_done']:,} hands, {s['rows']:,} rows, {s['bytes'] / 1e6:.1f} MB; "
            f"{s['hands_per_s']:,.0f} hands/s over {s['elapsed_s']:.1f} s "
            f"({s['executor']} x{s['workers']}); retries {s['retries']}"
            + (f"; {s['decisions']} matches decided, {s['hands_saved']:,} hands saved"
               if s.get("decisions") else ""))


def cmd_compact(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena compact``."""
    from pokerarena.platform.compaction import compact
    from pokerarena.platform.standings import remember_standings, stored_standings
    from pokerarena.platform.storage import RunStore

    data = _data_dir(args)
    out = compact(data, args.run_id)
    # later leaderboards read the stored standings instead of every hand
    out["standings"] = (stored_standings(RunStore(data, args.run_id)) is not None
                        or remember_standings(data, args.run_id))
    if args.json:
        print(json.dumps(out))
    elif out["generation"] is None:
        print(f"{args.run_id}: nothing to compact ({out['units']} loose units)")
    else:
        print(f"{args.run_id}: generation {out['generation']}, {out['units']:,} units; files "
              + ", ".join(f"{t} {out['files_before'].get(t, 0)} -> {n}"
                          for t, n in out["files_after"].items())
              + f"; {out['seconds']:.1f} s")
    return 0


# runs, show ----------------------------------------------------------------------------


def cmd_runs(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena runs``."""
    from pokerarena.platform.storage import list_runs

    infos = [i.as_dict() for i in list_runs(_data_dir(args))]
    if args.json:
        print(json.dumps(infos))
        return 0
    if not infos:
        print(f"no runs under {_data_dir(args)}")
        return 0
    from rich.table import Table

    t = Table(title=f"runs in {_data_dir(args)}")
    columns: list[tuple[str, Any]] = [  # (name, rich's justify literal)
        ("run", "left"), ("status", "left"), ("units", "right"), ("hands", "right"),
        ("started (UTC)", "left"), ("seconds", "right")]
    for col, just in columns:
        t.add_column(col, justify=just, no_wrap=True)
    for r in infos:
        t.add_row(r["run_id"], _status(r["status"]),
                  f"{r['units_done']:,}/{r['units_total']:,}",
                  f"{r['hands_done']:,}", (r["started"] or "")[5:16].replace("T", " "),
                  f"{r['seconds']:.0f}" if r["seconds"] is not None else "")
    _console().print(t)
    return 0


def _status(s: str) -> str:
    color = {"finished": "green", "running": "cyan", "interrupted": "yellow",
             "cancelled": "yellow", "failed": "red"}.get(s, "white")
    return f"[{color}]{s}[/{color}]"


def show_data(data: Path | str, run_id: str) -> dict[str, Any]:
    """What ``show`` prints: run state, leaderboard and worker write/play rates."""
    from pokerarena.platform.query import (
        as_records,
        bots_think_share,
        connect,
        leaderboard_sql,
        run_query,
    )
    from pokerarena.platform.storage import RunStore

    store = RunStore(data, run_id)
    if not store.exists():
        raise UserError(f"no run {run_id!r} under {data}")
    info = store.info().as_dict()
    info["spec"] = store.spec_doc()["spec"]
    info["unreadable_units"] = store.damaged_units()
    from pokerarena.platform.stages import SUMMARY_NAME, load_summary

    if (staged := load_summary(store.fetch(SUMMARY_NAME))) is not None:  # Swiss rounds, early stops
        info.update(decisions=staged["decisions"], hands_saved=staged["hands_saved"],
                    swiss=staged.get("standings"))
    con = connect(data, run_id)
    try:
        info["leaderboard"] = as_records(*run_query(con, leaderboard_sql()))
        info["games"] = as_records(*run_query(
            con, "SELECT variant, betting, count(*) AS hands, "
            "round(avg(CASE WHEN showdown THEN 1.0 ELSE 0.0 END), 3) AS showdown_rate, "
            "round(avg(pot / bb), 2) AS avg_pot_bb FROM hands GROUP BY ALL ORDER BY 1, 2"))
        info["workers"] = as_records(*run_query(
            con, "SELECT worker, count(*) AS units, sum(hands) AS hands, "
            "round(sum(hands) / sum(play_seconds)) AS hands_per_s, "
            "round(sum(rows_hands + rows_seats + rows_actions) / sum(write_seconds)) "
            "AS rows_written_per_s FROM units GROUP BY ALL ORDER BY 1"))
        info["bots_think_share"] = bots_think_share(con)
    finally:
        con.close()
    return info


def cmd_show(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena show``."""
    info = show_data(_data_dir(args), args.run_id)
    if args.json:
        print(json.dumps(info, default=str))
        return 0
    console = _console()
    console.print(f"[bold]{info['run_id']}[/bold]  {_status(info['status'])}  "
                  f"{info['kind']}  {info['units_done']:,}/{info['units_total']:,} units  "
                  f"{info['hands_done']:,}/{info['hands_total']:,} hands  "
                  f"retries {info['retries']}"
                  + (f"  {info['seconds']:.1f} s" if info["seconds"] else ""))
    if info.get("error"):
        console.print(f"[red]{info['error']}[/red]")
    if info.get("unreadable_units"):
        units = info["unreadable_units"]
        console.print(f"[yellow]{len(units)} unit(s) left out, a part damaged: "
                      f"{', '.join(sorted(units))} (resume the run to play them again)"
                      "[/yellow]")
    if info.get("bots_think_share") is not None:
        console.print(f"The bots' thinking took {100 * info['bots_think_share']:.0f}% of "
                      "the workers' play time (the rest: the engine and the records).")
    for title, rows in (("leaderboard", info["leaderboard"]), ("games", info["games"]),
                        ("workers", info["workers"]), ("swiss", info.get("swiss")),
                        ("early stops", _decision_rows(info.get("decisions")))):
        if rows:
            console.print(records_table(title, list(rows[0]), [tuple(r.values())
                                                               for r in rows]))
    return 0


def _decision_rows(decisions: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """One line per tested match: its decision, the pairs it took and the estimate."""
    return [{"match": d["match"], "bots": " v ".join(d["bots"]), "decision": d["decision"],
             "ahead": d["ahead"] or "", "pairs": d["pairs"], "llr": d["llr"],
             "mbb/hand": d["mbb_per_hand"], "95% interval": f"{d['ci95'][0]} .. {d['ci95'][1]}",
             "hands saved": d["hands_saved"]} for d in decisions or []]


def records_table(title: str | None, columns: list[str], rows: list[tuple]) -> Any:
    """A rich table of query results (numbers right-aligned)."""
    from rich.table import Table

    t = Table(title=title)
    numeric = [bool(rows) and all(isinstance(r[i], int | float) or r[i] is None for r in rows)
               for i in range(len(columns))]
    for c, num in zip(columns, numeric, strict=True):
        t.add_column(c, justify="right" if num else "left")
    for r in rows:
        t.add_row(*(_cell(v) for v in r))
    return t


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:,.4g}" if abs(v) < 1000 else f"{v:,.0f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    if isinstance(v, dt.datetime):
        return v.isoformat(sep=" ", timespec="seconds")
    return str(v)


# query ----------------------------------------------------------------------------------


def _first_line(message: str) -> str:
    """The first non-blank line of a message (DuckDB adds ``LINE 1: ...`` context below)."""
    for line in message.splitlines():
        if line.strip():
            return line.strip()
    return message.strip() or "the query failed"


def _has_statement(sql: str) -> bool:
    """Whether ``sql`` holds a statement (not only blanks, comments or ``;``); text DuckDB
    cannot parse counts as one: running it reports the parser's error."""
    import duckdb

    try:
        return bool(duckdb.extract_statements(sql))
    except duckdb.Error:
        return True


def pooled_query(data: Path | str, sql: str, run_id: str | None, memory_mb: int
                 ) -> tuple[list[str], list[tuple]]:
    """``sql`` over the views of ``data`` in a query process of the service's pool
    (:mod:`pokerarena.platform.query_pool`) capped at ``memory_mb`` of memory: DuckDB's
    own limit does not cover every allocation, the process's does."""
    from pokerarena.platform.api.security import QueryLimits
    from pokerarena.platform.query import QueryError
    from pokerarena.platform.query_pool import MIB, PoolLimits, QueryMemoryError, QueryPool
    from pokerarena.platform.storage import RunStore

    if memory_mb < 64:
        raise UserError(f"--memory-mb must be at least 64, got {memory_mb}")
    if run_id is not None and not RunStore(data, run_id).exists():
        raise UserError(f"no run {run_id!r} under {data}")
    pool = QueryPool(data, PoolLimits(workers=1, queue=0, memory_bytes=memory_mb * MIB,
                                      nice=0))
    # DuckDB's buffer manager spills or fails first, under half the process's cap
    limits = QueryLimits(memory=f"{max(32, memory_mb // 2)}MB", sql_chars=len(sql))
    try:
        out = pool.submit({"q": sql}, run_id, limits, trusted=True).result()["q"]
    except QueryMemoryError:
        raise UserError(f"query: needed more than {memory_mb} MiB of memory and was "
                        "stopped (--memory-mb raises the cap)") from None
    except QueryError as exc:
        raise UserError(_first_line(str(exc))) from None
    finally:
        pool.close()
    return out["columns"], out["rows"]


def cmd_query(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena query``."""
    from pokerarena.platform.query import as_records

    if not _has_statement(args.sql):
        raise UserError("query: no SQL statement to run (the text is empty, blank or only "
                        "comments)")
    columns, rows = pooled_query(_data_dir(args), args.sql, args.run, args.memory_mb)
    if args.json:
        print(json.dumps(as_records(columns, rows), default=str))
    elif args.csv:
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(columns)
        w.writerows(rows)
    else:
        _console().print(records_table(None, columns, rows))
    return 0


# bench scaling --------------------------------------------------------------------------


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench scaling``."""
    p = sub.add_parser(
        "scaling", help=benchmark_summary("scaling"),
        description="Plays one fixed workload with each worker count on a local Ray cluster "
        "(or --address), reports hands/s, parallel efficiency, rows written per second per "
        "worker, and the driver's cost per unit (see docs/scaling.md).")
    p.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    p.add_argument("--hands", type=int, default=48_000, help="hands of the workload")
    p.add_argument("--unit-hands", type=int, default=2000, help="hands per unit")
    p.add_argument("--overhead-units", type=int, default=300,
                   help="one-hand units timed for the per-unit overhead")
    p.add_argument("--address", help="Ray cluster to join")
    p.add_argument("--data", metavar="DIR", help="where to write (default: a temporary "
                   "directory, removed afterwards)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=cmd_bench_scaling)
    register_bench_driver(sub)


def register_bench_driver(sub: argparse._SubParsersAction) -> None:
    """Add ``bench driver``."""
    p = sub.add_parser(
        "driver", help=benchmark_summary("driver"),
        description="Drives a run whose units simulated workers 'play' in real time "
        "(log-normal unit times around --unit-seconds, real parts landed by hard links), "
        "through the real driver, manifest and checks; reports the workers' utilisation, "
        "the share of worker time lost waiting for the driver, the driver's CPU per unit "
        "and the most workers one driver feeds at 95%% of a core (docs/scaling.md).")
    p.add_argument("--workers", type=int, default=1000, help="simulated workers (default 1000)")
    p.add_argument("--unit-seconds", type=float, default=5.0, metavar="S",
                   help="mean seconds a unit takes (default 5)")
    p.add_argument("--seconds", type=float, default=30.0, metavar="S",
                   help="about how long to drive (default 30)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=cmd_bench_driver)


def cmd_bench_driver(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench driver``."""
    from pokerarena.bench.driver_scale import bench_driver

    if not 1 <= args.workers <= 100_000:
        raise UserError("--workers must be 1 to 100,000")
    if not 0.01 <= args.unit_seconds <= 3600 or not 0.1 <= args.seconds <= 3600:
        raise UserError("--unit-seconds must be 0.01 to 3600 and --seconds 0.1 to 3600")
    if args.workers * max(1, round(args.seconds / args.unit_seconds)) > 100_000:
        raise UserError("--workers x (--seconds / --unit-seconds) makes more than 100,000 "
                        "units: drive for less time or with longer units")
    r = bench_driver(args.workers, args.unit_seconds, args.seconds)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['workers']:,} simulated workers, units of ~{r['unit_seconds']:g} s: "
          f"{r['units_done']:,} units in {r['wall_seconds']:.1f} s "
          f"(ideal {r['ideal_seconds']:.1f} s)")
    print(f"  utilisation {r['utilization']:.1%}, lost waiting for the driver "
          f"{r['starved_fraction']:.2%}")
    print(f"  driver CPU {r['driver_cpu_ms_per_unit']:.2f} ms per unit: one driver feeds "
          f"about {r['max_workers_at_95pct']:,} such workers at 95% of a core")
    return 0


def cmd_bench_scaling(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench scaling``."""
    from pokerarena.bench.cluster import bench_scaling

    try:
        counts = [int(x) for x in args.workers.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--workers: expected numbers like 1,2, got {args.workers!r}") from None
    if not counts or min(counts) < 1:
        raise UserError("--workers: worker counts must be at least 1")
    if args.hands < 1 or args.unit_hands < 1 or args.overhead_units < 1:
        raise UserError("--hands, --unit-hands and --overhead-units must be at least 1")
    result = bench_scaling(counts, hands=args.hands, unit_hands=args.unit_hands,
                           overhead_units=args.overhead_units, address=args.address,
                           data=args.data)
    if args.json:
        print(json.dumps(result))
    else:
        for r in result["runs"]:
            print(f"{r['workers']} worker(s): {r['hands_per_s']:,.0f} hands/s, "
                  f"efficiency {100 * r['efficiency']:.1f}%, "
                  f"{r['rows_written_per_s_per_worker']:,.0f} rows/s written per worker")
        o = result["overhead"]
        print(f"per-unit overhead: {o['driver_cpu_ms_per_unit']:.2f} ms driver CPU, "
              f"{o['worker_fixed_ms_per_unit']:.2f} ms fixed worker cost; "
              f"{100 * o['overhead_fraction']:.2f}% of a {result['unit_hands']}-hand unit")
    return 0
