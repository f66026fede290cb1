"""Execute a work unit where it runs: play it, write its parts, report what it did.

:func:`execute_unit` is what both executors call (the Ray actor in a worker process,
the in-process executor in the driver). It knows nothing of Ray, the driver or HTTP.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

from pokerarena.workers.hooks import UnitObserver
from pokerarena.workers.landing import check_wanted, landing
from pokerarena.workers.parts import drop_staged, land_part, stage_part
from pokerarena.workers.played import GameCache, PlayedUnit, units_row
from pokerarena.workers.rows import PLACES, unit_tables
from pokerarena.workers.unit import Unit


def worker_name() -> str:
    """``host:pid`` of this process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def play_kind(unit: Unit, cache: GameCache | None, observer: UnitObserver | None
              ) -> PlayedUnit:
    """Play ``unit`` by its kind's module, imported here: a worker loads only the kind it
    plays (a game family's actor never loads the poker engine and its kernels)."""
    if unit.freezeout is not None:
        from pokerarena.workers.freezeout_unit import play_freezeout_unit

        return play_freezeout_unit(unit, cache, observer)
    if unit.family:
        from pokerarena.workers.family_unit import play_family_unit

        return play_family_unit(unit, observer)
    from pokerarena.workers.records import play_unit

    played = play_unit(unit, cache, observer)
    played.tables.setdefault("places", PLACES.table([]))
    return played


def execute_unit(unit: Unit, run_dir: str, attempt: int = 1,
                 cache: GameCache | None = None,
                 observer: UnitObserver | None = None) -> dict[str, Any]:
    """Play ``unit`` (a freeze-out unit: its whole tournament, by
    :func:`~pokerarena.workers.freezeout_unit.play_freezeout_unit`), write its
    ``hands``/``seats``/``actions``/``faults``/``places`` parts (``places`` empty but for
    a freeze-out: every unit writes every table, so every check of a unit's parts is the
    same; a game family's unit, played by
    :func:`~pokerarena.workers.family_unit.play_family_unit`, adds its family's record
    table, :func:`~pokerarena.workers.rows.unit_tables`) and its ``units`` row, and land
    them together. Returns a summary dict:
    ``unit_id``, ``hands`` (played: a freeze-out's, not its round limit), ``rows`` per
    table, ``bytes``, ``play_seconds``, ``write_seconds``, ``cpu_seconds`` (this process's
    CPU time for the unit: below the wall time when the machine is oversubscribed),
    ``worker``, ``attempt``.

    Every part is first written under a temporary name and checked
    (:func:`~pokerarena.workers.parts.stage_part`); then, holding the run's landing lock,
    the unit's session (``unit.session``, set by the driver) is checked and the parts
    are renamed into place, the ``units`` part last (its presence marks a complete unit
    on disk). A unit its run no longer wants (cancelled, ended, driver gone) raises
    :class:`~pokerarena.workers.landing.UnitNotWanted` and leaves nothing behind.
    ``observer`` hears of the unit's decisions, hands and faults as it plays
    (:mod:`~pokerarena.workers.hooks`).
    """
    session = unit.session
    check_wanted(run_dir, session)  # a queued unit of a cancelled run is not even played
    started = time.time()
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    played = play_kind(unit, cache, observer)
    tables = played.tables
    t1 = time.perf_counter()
    nbytes = 0
    rows: dict[str, int] = {}
    uid = unit.unit_id
    staged = []
    try:
        for name in unit_tables(unit.variant):
            staged.append(stage_part(tables[name], run_dir, name, uid))
            nbytes += staged[-1][2]
            rows[name] = tables[name].num_rows
        t2 = time.perf_counter()
        worker = worker_name()
        units = units_row(unit, worker=worker, attempt=attempt, started_at=started,
                          play_seconds=t1 - t0, write_seconds=t2 - t1, rows=rows,
                          nbytes=nbytes, played=played)
        staged.append(stage_part(units, run_dir, "units", uid))
        nbytes += staged[-1][2]
        with landing(run_dir, session):
            while staged:
                tmp, final, _size = staged[0]
                land_part(tmp, final)
                staged.pop(0)
    finally:
        drop_staged(staged)
    hands = rows["hands"] if unit.freezeout is not None else unit.hands  # not its limit
    return {"unit_id": uid, "hands": hands, "rows": rows, "bytes": nbytes,
            "play_seconds": t1 - t0, "write_seconds": time.perf_counter() - t1,
            "cpu_seconds": time.process_time() - cpu0, "worker": worker, "attempt": attempt}
