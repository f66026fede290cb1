"""``make demo``: a round-robin tournament of the built-in bots on a local Ray cluster,
a sequential test decided live, and a small balance study with its report.

Starts an embedded Ray cluster, plans a heads-up round robin of every built-in bot over
several variants and betting systems, plays it on Ray actors (one per core), writes
every hand, seat and action as Parquet under ``./data``, then prints the leaderboard,
the cross table and a few DuckDB queries over the stored hands.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from pokerarena import demo_study, demo_tournament
from pokerarena.demo_aside import Aside
from pokerarena.workers.unit import Unit

DATA = Path(__file__).resolve().parents[1] / "data"
PREFERRED_BOTS = ("tag", "equity", "lag", "rock", "maniac", "call", "random")
GAMES: list[dict[str, Any]] = [
    {"variant": "holdem", "betting": ["no_limit", "fixed_limit"]},
    {"variant": "omaha", "betting": "pot_limit"},
    {"variant": "stud7", "betting": "fixed_limit"},
    {"variant": "draw5", "betting": "pot_limit"},
]
# Sized for a fresh clone's first run (issue 28: at most two minutes, install included):
# 40 hands a match (a duplicate deal played twice) and a 200-hand AIVAT match.
HANDS_PER_MATCH = 40
AIVAT_HANDS = 200

console = Console(highlight=False)


def _bots() -> list[str]:
    from pokerarena.workers.bots import bot_names

    known = bot_names()
    return [b for b in PREFERRED_BOTS if b in known] or list(known)[:2]


def _sprt_pair(bots: list[str]) -> tuple[str, str]:
    """The two bots of the live sequential test: two strength bots, close enough that
    the test takes a few batches."""
    new = next((b for b in ("tag", "lag") if b in bots), bots[0])
    old = next((b for b in ("rock", "call") if b in bots and b != new), bots[-1])
    return new, old


def _spec(bots: list[str]) -> Any:
    from pokerarena.platform.spec import parse_spec

    return parse_spec({"kind": "tournament", "name": "demo", "seed": 2026, "bots": bots,
                       "seats": 2, "hands": HANDS_PER_MATCH, "unit_hands": HANDS_PER_MATCH,
                       "duplicate": True, "games": GAMES,
                       "limits": {"decision_seconds": 10}})


def _warm_up(spec: Any) -> float:
    """Prepare every game before Ray starts, with a progress display: numba compiles the
    kernels the bots use and the tables are built, all cached on disk, so that the Ray
    workers load them instead of each compiling them again (this matters on a fresh
    machine). Only the chosen games are prepared, one variant per process, as many at
    once as there are cores; the evaluator's census kernel (for the closing line) too.
    What every game shares is prepared first, alone (:func:`_warm_shared`). Returns the
    seconds it took. A warm-up that fails only leaves the work to the workers."""
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from pokerarena.arena.warmup import WARM_UP_STEPS
    from pokerarena.platform.planner import plan

    t0 = time.perf_counter()
    _wait_for_early_shared(console)
    _warm_shared(spec.game_configs()[0], console)
    groups: dict[str, list[Unit]] = {}
    covered: set[tuple[str, str, str]] = set()
    for unit in plan(spec).units:
        need = {(unit.variant, unit.betting, b) for b in unit.bots} - covered
        if need:
            groups.setdefault(unit.variant, []).append(unit)
            covered |= need
    jobs: dict[str, tuple[Any, tuple[Any, ...], int]] = {}
    for variant, units in groups.items():
        n_games = len({json.dumps(u.options, sort_keys=True) for u in units})
        jobs[variant] = (_warm_variant, (variant, units, list(spec.bots)),
                         n_games * len(WARM_UP_STEPS) + len(units))
    jobs["evaluator"] = (_warm_census, ("evaluator",), 1)
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else "spawn")
    queue = ctx.Queue()
    cores = max(1, min(len(jobs), os.cpu_count() or 1))
    console.print(f"Warm-up: compiling the kernels and building the tables of "
                  f"{len(groups)} variants ({', '.join(groups)}) and the evaluator, "
                  f"{cores} at a time; cached on disk for the Ray workers and later runs")
    columns = (SpinnerColumn(), TextColumn("[bold]{task.fields[job]:<10}[/bold]"),
               BarColumn(bar_width=24), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))
    with ProcessPoolExecutor(cores, mp_context=ctx, initializer=_child_init,
                             initargs=(queue,)) as pool:
        futures = {pool.submit(fn, *args): name for name, (fn, args, _) in jobs.items()}
        with Progress(*columns, console=console) as progress:
            ids = {name: progress.add_task("[dim]waiting for a free core[/dim]", total=n,
                                           job=name, start=False)
                   for name, (_, _, n) in jobs.items()}
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                _drain(queue, progress, ids)
                for f in finished:
                    name = futures[f]
                    try:
                        seconds = f.result()
                        text = f"[green]ready[/green] in {seconds:.1f} s"
                    except Exception as exc:  # noqa: BLE001 - an optimisation only
                        text = f"[yellow]not prepared[/yellow] ({type(exc).__name__}: {exc})"
                    progress.start_task(ids[name])
                    progress.update(ids[name], completed=progress.tasks[ids[name]].total,
                                    description=text)
                    progress.stop_task(ids[name])
                    if not console.is_terminal:  # no live display: one line per job
                        progress.console.print(f"  {name}: {text}")
    return time.perf_counter() - t0


def first_game() -> dict[str, Any]:
    """The spec's first game config (``game_configs()[0]``), read from :data:`GAMES`
    without the platform's spec parser, which ``make demo``'s early compile (during the
    install: ``tools/prepare.py --shared``) cannot import yet."""
    game = GAMES[0]
    betting = game["betting"] if isinstance(game["betting"], str) else game["betting"][0]
    return {"variant": game["variant"], "betting": betting, "options": {"betting": betting}}


EARLY_PID = Path(sys.prefix) / ".shared.pid"
"""Where ``make demo``'s install leaves the pid of the shared kernels' compile it starts
beside the rest of the install (``tools/prepare.py --shared``)."""


def _early_shared_pid() -> int | None:
    """The pid of that compile while it still runs (None: none was started, or it
    ended)."""
    try:
        pid = int(EARLY_PID.read_text().split()[0])
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError, IndexError):
        return None
    return pid if b"prepare.py" in cmdline and b"--shared" in cmdline else None


def _wait_for_early_shared(out: Console, poll: float = 0.2) -> float:
    """Wait, with a progress line, for the shared kernels' compile that the install
    started (compiling them again beside it would only halve its speed: numba's disk
    cache serves a process once the other has finished); returns the seconds waited."""
    pid = _early_shared_pid()
    if pid is None:
        return 0.0
    t0 = time.perf_counter()
    with out.status(f"shared: the evaluator's and the Monte Carlo kernels, compiling "
                    f"since the install (pid {pid})..."):
        while _early_shared_pid() == pid:
            time.sleep(poll)
    waited = time.perf_counter() - t0
    out.print(f"  shared: compiled beside the install (waited {waited:.1f} s for it)")
    return waited


def _warm_shared(config: dict[str, Any], out: Console) -> float:
    """:func:`~pokerarena.arena.warmup.warm_shared` for the game ``config`` (the spec's
    first), in this process, with a progress line; returns the seconds it took. Done
    before the games' processes start: from an empty cache each would compile the
    evaluator's and the Monte Carlo kernels itself (numba's disk cache serves a process
    only once another has finished), and forked after it they inherit them compiled.
    Never raises."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from pokerarena.arena.warmup import SHARED_STEPS, warm_shared
    from pokerarena.engine.game import Game

    label = f"{config['variant']} {config['betting'].replace('_', '-')}"
    t0 = time.perf_counter()
    with Progress("[bold]shared    [/bold]", BarColumn(bar_width=24), MofNCompleteColumn(),
                  TimeElapsedColumn(), "{task.description}", console=out) as bar:
        task = bar.add_task(label, total=len(SHARED_STEPS))
        try:
            warm_shared(Game(config["variant"], config["options"]),
                        report=lambda i, step: bar.update(task, completed=i,
                                                          description=f"{label}: {step}"))
            text = f"ready in {time.perf_counter() - t0:.1f} s"
        except Exception as exc:  # noqa: BLE001 - an optimisation only
            text = f"[yellow]not prepared[/yellow] ({type(exc).__name__}: {exc})"
        bar.update(task, completed=len(SHARED_STEPS), description=text)
    return time.perf_counter() - t0


def _native_line() -> str:
    """One line on the table loop this demo runs: the native build in place, or the
    plain Python sources (the demo never builds it: that is a minute's compile)."""
    from pokerarena import native

    if native.compiled():
        return "Table loop: the native build (mypyc)."
    state, _ = native.build_status()
    why = {"failed": "the native build failed", "stale": "the native build is stale"}.get(
        state, "no native build yet")
    return (f"Table loop: the plain Python sources ({why}; [dim]make native[/dim] compiles "
            "it, about a minute, for twice the speed).")


def _fast_table_cached() -> bool:
    """Whether numba's disk cache already holds the fast hold'em table's kernels (the
    rules kernel and the bots' compiled policy). Their first compile takes minutes, more
    than the study they would speed up: without them the study plays on the reference
    table, which gives the very same rows (tests/workers/test_fasttable.py)."""
    try:
        from pokerarena.bots.strength import fastpolicy
        from pokerarena.engine.fastholdem import rules

        kernels: tuple[Any, ...] = (rules.play_hands, fastpolicy.decide)
        return all(Path(f._cache._cache_file._index_path).is_file() for f in kernels)
    except Exception:  # noqa: BLE001 - numba's cache layout: then compile nothing
        return False


_QUEUE: Any = None  # a warm-up child's channel back to the progress display


def _child_init(queue: Any) -> None:
    global _QUEUE
    _QUEUE = queue


def _tell(job: str, done: int, total: int, what: str) -> None:
    if _QUEUE is not None:
        _QUEUE.put((job, done, total, what))


def _drain(queue: Any, progress: Any, ids: dict[str, Any]) -> None:
    import queue as queue_mod

    while True:
        try:
            job, done, total, what = queue.get_nowait()
        except queue_mod.Empty:
            return
        task = ids[job]
        if not progress.tasks[task].started:
            progress.start_task(task)
        progress.update(task, completed=done, total=total, description=what)


def _warm_variant(variant: str, units: list[Unit], bots: list[str]) -> float:
    """In a warm-up process: every game of ``variant`` through the bots' warm-up (tables,
    kernels, a throwaway hand), then two hands of each unit given (every bot once)."""
    from pokerarena.arena.warmup import WARM_UP_STEPS, warm_up
    from pokerarena.workers.bots import new_bot
    from pokerarena.workers.records import GameCache, play_unit

    t0 = time.perf_counter()
    cache = GameCache()
    games: dict[str, Unit] = {}
    for u in units:
        games.setdefault(json.dumps(u.options, sort_keys=True), u)
    total = len(games) * len(WARM_UP_STEPS) + len(units)
    done = 0
    for u in games.values():
        label = f"{variant} {u.betting.replace('_', '-')}"
        game = cache.get(u.variant, u.options)
        seated = [new_bot(b, 0) for b in bots]
        def report(i: int, step: str, d: int = done, lb: str = label) -> None:
            _tell(variant, d + i, total, f"{lb}: {step}")

        warm_up(game, seated, len(u.bots), report=report)
        done += len(WARM_UP_STEPS)
    for u in units:
        _tell(variant, done, total, f"{variant} {u.betting.replace('_', '-')}: two hands "
              f"of {' v '.join(u.bots)}")
        play_unit(dataclasses.replace(u, hands=2), cache)
        done += 1
    return time.perf_counter() - t0


def _warm_census(job: str) -> float:
    """In a warm-up process: the seven-card census kernel and its tables."""
    from pokerarena.evaluator import ranking
    from pokerarena.evaluator.census import census

    t0 = time.perf_counter()
    _tell(job, 0, 1, "census kernel and high-hand tables (numba)")
    census(7, "standard", ranking("high"))
    return time.perf_counter() - t0


def _sql(con: Any, sql: str) -> tuple[list[str], list[tuple]]:
    from pokerarena.platform.query import run_query

    return run_query(con, sql)


def _show_query(con: Any, title: str, sql: str, fmt: dict[str, str] | None = None) -> None:
    cols, rows = _sql(con, sql)
    t = Table(title=f"[bold]{title}[/bold]", title_justify="left", caption=_one_line(sql),
              caption_justify="left", caption_style="dim")
    for c in cols:
        numeric = rows and all(isinstance(r[cols.index(c)], int | float) or
                               r[cols.index(c)] is None for r in rows)
        t.add_column(c, justify="right" if numeric else "left")
    for r in rows:
        t.add_row(*(_fmt(v, (fmt or {}).get(c)) for v, c in zip(r, cols, strict=True)))
    console.print(t)


def _one_line(sql: str) -> str:
    return "SQL: " + " ".join(sql.split())


def _fmt(v: Any, style: str | None = None) -> str:
    if v is None:
        return "-"
    if style == "pct":
        return f"{100 * v:.1f}%"
    if style == "mbb":
        color = "green" if v > 0 else "red" if v < 0 else "white"
        return f"[{color}]{v:+,.0f}[/{color}]"
    if isinstance(v, float):
        return f"{v:,.1f}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def _rate(rate: float | None) -> str:
    """Decisions per second, short: ``55k``, ``2.5M``."""
    if rate is None:
        return "-"
    return f"{rate / 1e6:.1f}M" if rate >= 1e6 else f"{rate / 1e3:.0f}k"


def _leaderboard(con: Any, run_id: str) -> None:
    from pokerarena.platform.query import as_records, leaderboard_sql

    rows = as_records(*_sql(con, leaderboard_sql(run_id)))
    t = Table(title="[bold]Leaderboard[/bold]  (mbb/hand: thousandths of a big blind won "
              "per hand)", title_justify="left")
    any_faults = any(r["faults"] for r in rows)
    heads: list[tuple[str, Any]] = [
        ("#", "right"), ("bot", "left"), ("hands", "right"), ("net chips", "right"),
        ("mbb/hand", "right"), ("95% CI", "right"), ("won", "right"),
        ("showdown", "right"), ("dec/s", "right")]
    heads += [("faults", "right")] if any_faults else []
    for name, just in heads:
        t.add_column(name, justify=just)
    medals = {0: "[gold1]1[/gold1]", 1: "[grey70]2[/grey70]", 2: "[orange3]3[/orange3]"}
    for i, r in enumerate(rows):
        cells = [medals.get(i, str(i + 1)), f"[bold]{r['bot']}[/bold]", f"{r['hands']:,}",
                 f"{r['net']:+,}", _fmt(r["mbb_per_hand"], "mbb"), f"± {r['ci95_mbb']:,.0f}",
                 _fmt(r["won_rate"], "pct"), _fmt(r["showdown_rate"], "pct"),
                 _rate(r["decisions_per_s"])]
        t.add_row(*cells, *([str(r["faults"])] if any_faults else []))
    console.print(t)
    from pokerarena.platform.query import bots_think_share

    share = bots_think_share(con, run_id)
    if share is not None:
        console.print(f"The bots' thinking took {100 * share:.0f}% of the workers' "
                      "play time; the engine and the records took the rest.")


def _cross_table(con: Any, bots: list[str]) -> None:
    from pokerarena.platform.query import PAIRWISE_MBB

    _, rows = _sql(con, """
        SELECT a.bot, b.bot, """ + PAIRWISE_MBB + """ AS mbb
        FROM seats a JOIN seats b ON a.run_id = b.run_id AND a.match = b.match
             AND a.hand = b.hand AND a.seat <> b.seat
        JOIN hands h ON h.run_id = a.run_id AND h.match = a.match AND h.hand = a.hand
        GROUP BY ALL""")
    cell = {(a, b): v for a, b, v in rows}
    order = [b for b in bots if any(k[0] == b for k in cell)]
    t = Table(title="[bold]Cross table[/bold]: row bot's mbb/hand against column bot",
              title_justify="left")
    t.add_column("")
    for b in order:
        t.add_column(b, justify="right")
    for a in order:
        t.add_row(f"[bold]{a}[/bold]", *("[dim]·[/dim]" if a == b else
                                         _fmt(cell.get((a, b)), "mbb") for b in order))
    console.print(t)


def _queries(con: Any) -> None:
    _show_query(con, "How each bot plays: its decisions by kind", """
        SELECT bot, count(*) AS decisions,
               avg(CASE WHEN kind = 'cbr' THEN 1.0 ELSE 0 END) AS "bet/raise",
               avg(CASE WHEN kind = 'cc' AND amount > 0 THEN 1.0 ELSE 0 END) AS call,
               avg(CASE WHEN kind = 'cc' AND amount = 0 THEN 1.0 ELSE 0 END) AS "check",
               avg(CASE WHEN kind = 'f' THEN 1.0 ELSE 0 END) AS fold
        FROM actions WHERE seat >= 0 AND kind IN ('f', 'cc', 'cbr')
        GROUP BY bot ORDER BY "bet/raise" DESC""",
                {"bet/raise": "pct", "call": "pct", "check": "pct", "fold": "pct"})
    _show_query(con, "Position: the button against the other seat, by game", """
        SELECT h.variant || ' ' || replace(h.betting, '_', '-') AS game,
               round(1000 * avg(s.net / h.bb) FILTER (WHERE s.is_button)) AS "button mbb/hand",
               round(1000 * avg(s.net / h.bb) FILTER (WHERE NOT s.is_button))
                   AS "other seat mbb/hand",
               avg(CASE WHEN h.showdown THEN 1.0 ELSE 0 END) AS "showdown rate"
        FROM seats s JOIN hands h USING (run_id, match, hand)
        GROUP BY ALL ORDER BY game""",
                {"button mbb/hand": "mbb", "other seat mbb/hand": "mbb",
                 "showdown rate": "pct"})
    cols, rows = _sql(con, """
        SELECT high_category AS category, variant, count(*) AS n FROM seats
        WHERE showdown AND high_category IS NOT NULL GROUP BY ALL""")
    variants = sorted({r[1] for r in rows})
    totals = {v: sum(n for _, vv, n in rows if vv == v) for v in variants}
    order = ["straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
             "three_of_a_kind", "two_pair", "one_pair", "high_card"]
    cats = [c for c in order if any(r[0] == c for r in rows)]
    t = Table(title="[bold]Hands shown down, by category and variant[/bold] "
              "(share of each variant's showdown hands)", title_justify="left",
              caption=_one_line("SELECT high_category, variant, count(*) FROM seats "
                                "WHERE showdown GROUP BY ALL"),
              caption_justify="left", caption_style="dim")
    t.add_column("category")
    for v in variants:
        t.add_column(v, justify="right")
    counts = {(c, v): n for c, v, n in rows}
    for c in cats:
        t.add_row(c.replace("_", " "), *(f"{100 * counts.get((c, v), 0) / totals[v]:.1f}%"
                                         for v in variants))
    t.add_row("[dim]hands[/dim]", *(f"[dim]{totals[v]:,}[/dim]" for v in variants))
    console.print(t)


def _census_line() -> None:
    from pokerarena.evaluator import ranking
    from pokerarena.evaluator.census import census

    high = ranking("high")
    census(7, "standard", high)  # compile and load the tables (cached on disk)
    t0 = time.perf_counter()
    result = census(7, "standard", high)
    seconds = time.perf_counter() - t0
    console.print(f"Evaluator: all {result['hands']:,} seven-card hands classified in "
                  f"{seconds:.2f} s on one core ([dim]pokerarena eval census --cards 7[/dim]).")


def _study(bots: list[str]) -> Path:
    """The balance study, on the fast hold'em table when its kernels are compiled
    already, else on the reference table (the same rows), saying so; a choice made with
    ``POKERARENA_FAST_TABLE`` is kept."""
    from pokerarena.workers import fasttable

    if fasttable.ENV in os.environ or _fast_table_cached():
        return demo_study.run(console, DATA, bots, lines=5)
    console.print("\n[dim]The fast hold'em table is not compiled yet (minutes, once: "
                  "make prepare): the study plays on the reference table, the same rows."
                  "[/dim]")
    os.environ[fasttable.ENV] = "0"
    try:
        return demo_study.run(console, DATA, bots, lines=5)
    finally:
        del os.environ[fasttable.ENV]


def main() -> int:
    """Run the demo; returns the exit status."""
    t_start = time.perf_counter()
    bots = _bots()
    spec = _spec(bots)
    games = spec.game_configs()
    console.print(Panel.fit(
        "[bold]pokerarena[/bold]: poker bots playing each other at scale\n"
        f"A heads-up round robin of {len(bots)} built-in bots "
        f"({', '.join(bots)})\nin {len(games)} games: "
        + ", ".join(f"{g['variant']} {g['betting'].replace('_', '-')}" for g in games)
        + f"\n{len(spec.lineups())} pairings x {len(games)} games x {spec.hands} hands, "
        "duplicate deals (every deal played twice, cards swapped)\n"
        "on Ray actors, stored as Parquet, queried with DuckDB.", border_style="cyan"))

    console.print(_native_line())
    # Painted poker plays aside while the shared kernels compile on one core; AIVAT's
    # match beside Ray's start and the round robin (both forked before Ray starts).
    painted = Aside(console, demo_tournament.painted, DATA)
    aivat: Aside | None = None
    try:
        console.print(f"Warm-up done in {_warm_up(spec):.1f} s.")
        aivat = Aside(console, demo_tournament.three_ways, hands=AIVAT_HANDS)
        return _main_line(spec, bots, t_start, painted, aivat)
    finally:
        painted.close()
        if aivat is not None:
            aivat.close()


def _main_line(spec: Any, bots: list[str], t_start: float, painted: Aside,
               aivat: Aside) -> int:
    """The round robin on Ray, its tables, then the parts played aside, shown in turn."""
    from pokerarena.commands.runs import _drive_with_progress
    from pokerarena.platform.driver import RunDriver
    from pokerarena.platform.executors import RayExecutor, init_ray
    from pokerarena.platform.query import connect

    cpus = os.cpu_count() or 1
    t0 = time.perf_counter()
    owns = init_ray(None, num_cpus=cpus)
    import ray

    console.print(f"Ray: {'started a local cluster' if owns else 'joined a cluster'} with "
                  f"{int(ray.cluster_resources().get('CPU', cpus))} CPUs in "
                  f"{time.perf_counter() - t0:.1f} s")
    executor = RayExecutor(workers=cpus)
    driver = RunDriver.create(spec, DATA, executor)
    console.print(f"Run [bold]{driver.run_id}[/bold]: {len(driver.plan.units)} units, "
                  f"{driver.plan.hands:,} hands, {cpus} Ray actors, data in "
                  f"{driver.store.run_dir}")
    try:
        final = _drive_with_progress(driver)
    finally:
        if owns:
            ray.shutdown()
    console.print(f"Played [bold]{final.hands_done:,}[/bold] hands in {final.elapsed_s:.1f} s "
                  f"({final.hands_per_s:,.0f} hands/s on {final.workers} workers), wrote "
                  f"{final.rows:,} rows ({final.bytes / 1e6:.1f} MB of Parquet); "
                  f"status {final.status}.")
    console.print()
    con = connect(DATA, driver.run_id)
    try:
        _leaderboard(con, driver.run_id)
        _cross_table(con, bots)
        demo_tournament.ratings(console, DATA, driver.run_id)
        _queries(con)
        _, ((rate, share),) = _sql(con, "SELECT sum(rows_hands + rows_seats + rows_actions "
                                   "+ rows_faults) / sum(write_seconds), sum(write_seconds) "
                                   "/ sum(write_seconds + play_seconds) FROM units")
    finally:
        con.close()
    console.print(f"Parquet: writing took {100 * share:.1f}% of the workers' time "
                  f"({rate:,.0f} rows/s per worker while writing; small demo units, "
                  "see docs/scaling.md).")
    _census_line()
    demo_tournament.live_sprt(console, *_sprt_pair(bots))
    aivat.show(console)
    report = _study(bots)
    painted.show(console)
    console.print(f"\nDemo done in {time.perf_counter() - t_start:.0f} s. Explore the data:\n"
                  f"  pokerarena runs --data {DATA}\n"
                  f"  pokerarena show {driver.run_id} --data {DATA}\n"
                  f"  pokerarena query \"SELECT variant, avg(pot / bb) FROM hands GROUP BY ALL\""
                  f" --data {DATA}\n"
                  "  pokerarena run examples/tournament.toml   (see examples/ and "
                  "docs/schema.md)\n"
                  f"  chromium {report}   (the study's report; pokerarena study "
                  "examples/studies/deuces_wild.toml for another)")
    return 0 if final.status == "finished" else 1


if __name__ == "__main__":
    sys.exit(main())
