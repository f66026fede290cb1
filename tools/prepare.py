"""Prepare a machine ahead: the native build, the fast hold'em table and the demo's caches.

Usage: ``python tools/prepare.py [--native]`` (``make prepare``); ``--fast-table``
compiles only the fast hold'em table's kernels (``make test`` runs it before the tests,
so that no test's clock pays for their first compile); ``--shared`` only what every game
shares (``make demo``'s install starts it once numba is in, beside the rest of the
install, which is mostly downloading, and leaves its pid in ``.venv/.shared.pid``, for
which the demo waits: it needs only numba, pydantic and rich). ``make demo`` needs none
of the rest
(a fresh clone's first demo compiles only what it plays and skips the native build and
the fast table, whose compiles take minutes): this fills, ahead, every cache a demo can
use: numba's compiled kernels (``NUMBA_CACHE_DIR``, else ``__pycache__`` beside the
sources; the fast hold'em table's among them) and the evaluator's and pre-flop tables
(``POKERARENA_CACHE``, else ``~/.cache/pokerarena``).

The order avoids doing the same work twice on a machine with few cores. Every game's
warm-up starts with the same evaluator tables and the same Monte Carlo kernels: warmed
up in parallel from an empty cache, each process compiles and builds all of them itself
(numba's cache only helps a process that starts after another finished). So that
shared part is prepared first, alone (``--native``: beside the mypyc build, which keeps
the other core busy), and then the demo's own warm-up prepares every game, one variant
per core, loading the shared part from disk and doing only its own work (its pre-flop
tables: Monte Carlo over every starting hand). Nothing here is needed for correctness: a
cache missing or out of date is only filled again by the next run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _start_native() -> subprocess.Popen[str]:
    """The mypyc build (``tools/build_native.py --if-stale``) in a child process; its
    output is shown when it ends."""
    return subprocess.Popen([sys.executable, str(ROOT / "tools" / "build_native.py"),
                             "--if-stale"], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def _shared(spec: Any, console: Any) -> float:
    """What every game shares (:func:`pokerarena.demo._warm_shared`: the evaluator's
    and the Monte Carlo kernels), in this process beside the native build; returns the
    seconds it took."""
    from pokerarena import demo

    return demo._warm_shared(spec.game_configs()[0], console)


def _fast_table(console: Any) -> None:
    """Compile the fast hold'em table's kernels (rules, the bots' policies, the rows) by
    playing a few hands of every bot it seats, so that the first unit a worker plays
    loads them from numba's disk cache."""
    from pokerarena.workers.records import play_unit
    from pokerarena.workers.unit import Unit

    t0 = time.perf_counter()
    unit = Unit(unit_id="prepare", index=0, match=0, shard=0, variant="holdem",
                betting="no_limit", options={"betting": "no_limit"},
                bots=("tag", "lag", "rock", "equity", "call", "tag"), hands=4,
                first_hand=0, seed=1, spawn_key=(0,), run_id="prepare", record="full")
    play_unit(unit, fast=True)
    console.print(f"fast hold'em table ready in {time.perf_counter() - t0:.1f} s")


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from rich.console import Console

    from pokerarena import demo

    console = Console(highlight=False)
    if "--shared" in argv:  # make demo, beside the rest of the install
        demo._warm_shared(demo.first_game(), console)
        return 0
    if "--fast-table" in argv:
        _fast_table(console)
        return 0
    t0 = time.perf_counter()
    native = _start_native() if "--native" in argv else None
    spec = demo._spec(demo._bots())
    console.print("Preparing this machine once: "
                  + ("the native build (mypyc) beside " if native else "")
                  + "what every game shares, then the demo's games")
    try:
        _shared(spec, console)
    except Exception as exc:  # noqa: BLE001 - the demo's warm-up does it again
        console.print(f"[yellow]shared kernels not prepared[/yellow] ({exc})")
    try:
        _fast_table(console)
    except Exception as exc:  # noqa: BLE001 - the first unit compiles it instead
        console.print(f"[yellow]fast table not prepared[/yellow] ({exc})")
    if native is not None:
        out, _ = native.communicate()
        lines = out.strip().splitlines()
        console.print(lines[-1] if native.returncode == 0 and lines else
                      f"[yellow]native build failed[/yellow] ({len(lines)} lines of output; "
                      "'make native' shows them)")
    try:
        demo._warm_up(spec)
    except Exception as exc:  # noqa: BLE001 - the demo's warm-up does it again
        console.print(f"[yellow]the demo's games not prepared[/yellow] ({exc})")
    console.print(f"Prepared in {time.perf_counter() - t0:.0f} s "
                  f"({os.cpu_count()} cores); make demo now starts warm.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
