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
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SESSION_FILE = ".session.json"
LANDING_LOCK = ".landing.lock"
DRIVER_LOCK = ".driver.lock"


class UnitNotWanted(RuntimeError):
    """The unit's run no longer wants it (cancelled, ended, or its driver died)."""

    def __init__(self, message: str, orphaned: bool = False) -> None:
        super().__init__(message)
        self.orphaned = orphaned


@contextmanager
def landing_lock(run_dir: str | Path) -> Iterator[None]:
    """Hold the run's landing lock (blocking)."""
    fd = os.open(Path(run_dir) / LANDING_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _write_session(run_dir: Path, session: str, state: str) -> None:
    path = run_dir / SESSION_FILE
    tmp = run_dir / f".{SESSION_FILE}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    tmp.write_text(json.dumps({"session": session, "state": state, "pid": os.getpid()}))
    os.replace(tmp, path)


def open_session(run_dir: str | Path) -> str:
    """Start a drive of the run (the driver, holding its driver lock); returns the
    session token its units carry."""
    session = secrets.token_hex(8)
    with landing_lock(run_dir):
        _write_session(Path(run_dir), session, "open")
    return session


def close_session(run_dir: str | Path, session: str) -> None:
    """End a drive: from now on no unit of ``session`` lands (waits for a unit that is
    landing right now)."""
    run_dir = Path(run_dir)
    with landing_lock(run_dir):
        if read_session(run_dir).get("session") == session:
            _write_session(run_dir, session, "closed")


def read_session(run_dir: str | Path) -> dict:
    """The session file's content ({} when there is none or it cannot be read)."""
    try:
        doc = json.loads((Path(run_dir) / SESSION_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def driver_alive(run_dir: str | Path) -> bool:
    """True while some process holds the run's driver lock."""
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
    renamed into place. Raises :class:`UnitNotWanted` (nothing may land)."""
    if not session:
        yield
        return
    with landing_lock(run_dir):
        check_wanted(run_dir, session)
        yield
