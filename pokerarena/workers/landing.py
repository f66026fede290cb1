"""Whether a run still wants a unit: checked by the worker when the unit *lands*.

A unit lands when its parts are renamed into place (:mod:`~pokerarena.workers.parts`).
A worker may finish long after its driver stopped wanting it: the run was cancelled, or
the service driving it died and its Ray workers went on. So the driver opens a
*session* for each drive of a run and the worker checks it at landing, under the
run's landing lock:

- ``<run_dir>/.session.json``: ``{"session": <token>, "state": "open" | "closed"}``,
  written by the driver when it starts (open) and when it is cancelled or ends
  (closed), both under the landing lock;
- ``<run_dir>/.landing.lock``: a worker holds it exclusively while it checks the session
  and renames its parts; the driver holds it while it changes the session. So once the
  driver has closed a session, no unit of that session lands;
- ``<run_dir>/.driver.lock``: held by a live driver (:meth:`RunStore.lock`). When nobody
  holds it, the driver is gone (its process died: the kernel dropped the lock) and the
  worker is an orphan: its unit does not land and the worker should stop.

A unit without a session (played outside a driver, by tests or tools) always lands.
Nothing here knows the driver: only the files.

On an object store (:mod:`~pokerarena.workers.fsys`) there are no locks, so the same
promise is kept by objects and by order: the session is the object ``.session.json``
(one PUT each change); a live driver keeps the object ``.driver.json`` fresh (its
``time`` rewritten every :data:`HEARTBEAT_S`; older than :data:`HEARTBEAT_TTL_S`, the
driver is gone). A worker checks the session, puts its parts under their final keys,
the ``units`` part (the unit's commit) last, and then checks the session again: closed
or replaced in between, it deletes what it put and the unit has not landed. So once the
driver has closed a session, no unit of that session stays landed (docs/deploy.md).
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from pokerarena.workers import fsys
from pokerarena.workers.parts import recording_landed

SESSION_FILE = ".session.json"
LANDING_LOCK = ".landing.lock"
DRIVER_LOCK = ".driver.lock"
HEARTBEAT = ".driver.json"
HEARTBEAT_S = 5.0
"""How often a driver on an object store rewrites its heartbeat."""
HEARTBEAT_TTL_S = 30.0
"""A heartbeat older than this: the driver is gone (generous: it also absorbs clock skew
between the driver's machine and a worker's)."""


class DriverBusy(RuntimeError):
    """Another live driver holds the run."""


class UnitNotWanted(RuntimeError):
    """The unit's run no longer wants it (cancelled, ended, or its driver died)."""

    def __init__(self, message: str, orphaned: bool = False) -> None:
        super().__init__(message)
        self.orphaned = orphaned


@contextmanager
def landing_lock(run_dir: str | Path) -> Iterator[None]:
    """Hold the run's landing lock (blocking); an object store has none (the order of
    :func:`landing` keeps its promise instead)."""
    if fsys.is_uri(run_dir):
        yield
        return
    fd = os.open(Path(run_dir) / LANDING_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _write_session(run_dir: str | Path, session: str, state: str) -> None:
    doc = json.dumps({"session": session, "state": state, "pid": os.getpid()})
    if fsys.is_uri(run_dir):
        fsys.write_bytes(fsys.join(str(run_dir), SESSION_FILE), doc.encode())
        return
    run_dir = Path(run_dir)
    path = run_dir / SESSION_FILE
    tmp = run_dir / f".{SESSION_FILE}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    tmp.write_text(doc)
    os.replace(tmp, path)


def open_session(run_dir: str | Path) -> str:
    """Start a drive of the run (the driver, holding its driver lock); returns the
    session token its units carry."""
    session = secrets.token_hex(8)
    with landing_lock(run_dir):
        _write_session(run_dir, session, "open")
    return session


def close_session(run_dir: str | Path, session: str) -> None:
    """End a drive: from now on no unit of ``session`` lands (waits for a unit that is
    landing right now)."""
    with landing_lock(run_dir):
        if read_session(run_dir).get("session") == session:
            _write_session(run_dir, session, "closed")


def read_session(run_dir: str | Path) -> dict:
    """The session file's content ({} when there is none or it cannot be read)."""
    try:
        if fsys.is_uri(run_dir):
            doc = json.loads(fsys.read_bytes(fsys.join(str(run_dir), SESSION_FILE)))
        else:
            doc = json.loads((Path(run_dir) / SESSION_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def driver_alive(run_dir: str | Path) -> bool:
    """True while some process holds the run's driver lock (on an object store: while
    its heartbeat is fresh)."""
    if fsys.is_uri(run_dir):
        doc = _heartbeat(str(run_dir))
        return bool(doc) and time.time() - float(doc.get("time", 0)) < HEARTBEAT_TTL_S
    path = Path(run_dir) / DRIVER_LOCK
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def _heartbeat(run_dir: str) -> dict:
    try:
        doc = json.loads(fsys.read_bytes(fsys.join(run_dir, HEARTBEAT)))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) and doc.get("state") == "driving" else {}


@contextmanager
def driver_heartbeat(run_dir: str, wait: float = 2.0) -> Iterator[None]:
    """Hold an object-store run as its driver: refuses (:class:`DriverBusy`) while
    another driver's heartbeat is fresh, then keeps ``.driver.json`` fresh from a thread
    until the block ends, and marks it released."""
    key = fsys.join(run_dir, HEARTBEAT)
    token = secrets.token_hex(8)
    deadline = time.monotonic() + wait
    while driver_alive(run_dir):
        if time.monotonic() >= deadline:
            raise DriverBusy(f"run {run_dir} is being driven by another process")
        time.sleep(0.2)

    def beat(state: str) -> None:
        fsys.write_bytes(key, json.dumps({"token": token, "state": state, "time": time.time(),
                                          "host": socket.gethostname(),
                                          "pid": os.getpid()}).encode())

    beat("driving")
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(HEARTBEAT_S):
            with suppress(OSError):
                beat("driving")

    thread = threading.Thread(target=loop, name="driver-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        with suppress(OSError):
            beat("released")


def unwanted_reason(run_dir: str | Path, session: str | None) -> tuple[str, bool] | None:
    """None when the run wants a unit of ``session`` now, else ``(why, orphaned)``;
    ``orphaned`` says the driver is gone (the worker should stop)."""
    if not session:
        return None
    doc = read_session(run_dir)
    if doc.get("session") != session:
        return "the run is driven by a newer session", False
    if doc.get("state") != "open":
        return "the run was cancelled or has ended", False
    if not driver_alive(run_dir):
        return "the run's driver is gone", True
    return None


def check_wanted(run_dir: str | Path, session: str | None) -> None:
    """Raise :class:`UnitNotWanted` unless the run wants a unit of ``session``."""
    why = unwanted_reason(run_dir, session)
    if why is not None:
        raise UnitNotWanted(f"unit not landed: {why[0]}", orphaned=why[1])


@contextmanager
def landing(run_dir: str | Path, session: str | None) -> Iterator[None]:
    """Hold the landing lock and check the session; inside, the unit's parts may be
    renamed into place. Raises :class:`UnitNotWanted` (nothing may land).

    On an object store the parts are put inside the block and the session is checked
    again after it: no longer wanted, every key put is deleted and the unit has not
    landed (the check before only spares the writes)."""
    if not session:
        yield
        return
    if fsys.is_uri(run_dir):
        with recording_landed() as keys:
            check_wanted(run_dir, session)
            yield
            why = unwanted_reason(run_dir, session)
            if why is not None:
                if read_session(run_dir).get("session") == session:
                    # ours to undo (cancelled, ended, driver gone). Under a newer session
                    # the keys may already hold that drive's retry of this unit, the
                    # same rows: deleting them would lose its landed unit, so they stay
                    for key in reversed(keys):  # the commit (units part) first
                        fsys.delete(key)
                raise UnitNotWanted(f"unit not landed: {why[0]}", orphaned=why[1])
        return
    with landing_lock(run_dir):
        check_wanted(run_dir, session)
        yield
