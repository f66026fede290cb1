"""Storage of runs on disk: layout, spec, manifest, run state.

```
<data-dir>/runs/<run_id>/spec.json        the validated spec, its digest, creation time
<data-dir>/runs/<run_id>/manifest.jsonl   one JSON event per line (start, unit, retry, end)
<data-dir>/runs/<run_id>/<table>/unit=<unit_id>/part-0.parquet
```

Parts are written by the workers (:mod:`pokerarena.workers.parts`: temporary name,
then rename). The manifest is appended by the driver only, one line per event, flushed
and fsynced, so after a crash it holds every unit that finished; a resume skips those.
A run's state is derived from disk alone (a service restart loses nothing): the last
``end`` event, else ``running`` while a driver holds the run's lock, else
``interrupted``.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pokerarena.platform.spec import RunSpec, SpecError, parse_spec
from pokerarena.workers.parts import part_path, remove_stale_temporaries, write_part
from pokerarena.workers.records import SCHEMAS

__all__ = ["RunStore", "RunInfo", "default_data_dir", "list_runs", "new_run_id", "part_path",
           "remove_stale_temporaries", "write_part", "SCHEMAS", "TABLES"]

TABLES = ("hands", "seats", "actions", "faults", "units")


def default_data_dir() -> Path:
    """``$POKERARENA_DATA``, else ``./data``."""
    return Path(os.environ.get("POKERARENA_DATA", "data"))


def new_run_id(spec: RunSpec) -> str:
    """``<name or kind>-<UTC date-time>-<random>``, sortable by creation time."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    return f"{spec.name or spec.kind}-{stamp}-{secrets.token_hex(3)}"


def _now() -> float:
    return dt.datetime.now(dt.UTC).timestamp()


class RunStore:
    """One run's folder: its spec, manifest and lock."""

    def __init__(self, data_dir: str | Path, run_id: str) -> None:
        if not run_id or "/" in run_id or run_id.startswith("."):
            raise SpecError(f"run id: {run_id!r} is not a run id")
        self.data_dir = Path(data_dir)
        self.run_id = run_id
        self.run_dir = self.data_dir / "runs" / run_id
        self.spec_path = self.run_dir / "spec.json"
        self.manifest_path = self.run_dir / "manifest.jsonl"
        self._lock_fd: int | None = None

    def exists(self) -> bool:
        """True when the run has been created."""
        return self.spec_path.is_file()

    def create(self, spec: RunSpec) -> None:
        """Create the run folder and write ``spec.json`` (atomically)."""
        self.run_dir.mkdir(parents=True, exist_ok=False)
        doc = {"run_id": self.run_id, "created": _now(), "digest": spec.digest(),
               "spec": spec.model_dump(mode="json")}
        tmp = self.run_dir / ".spec.json.tmp"
        tmp.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
        os.replace(tmp, self.spec_path)

    def spec_doc(self) -> dict[str, Any]:
        """The stored ``spec.json`` document."""
        try:
            return json.loads(self.spec_path.read_text())
        except FileNotFoundError:
            raise SpecError(f"no run {self.run_id!r} under {self.data_dir}") from None

    def load_spec(self) -> RunSpec:
        """The stored spec, validated again."""
        return parse_spec(self.spec_doc()["spec"])

    # manifest -------------------------------------------------------------------------
    def append(self, event: dict[str, Any]) -> None:
        """Append one event line to the manifest; flushed and fsynced."""
        event = {"time": _now(), **event}
        line = json.dumps(event, sort_keys=True, separators=(",", ":")) + "\n"
        with open(self.manifest_path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    def events(self) -> list[dict[str, Any]]:
        """Every manifest event; a torn last line (crash mid-write) is ignored."""
        try:
            text = self.manifest_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        out = []
        for line in text.splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return out

    def done_units(self, events: list[dict[str, Any]] | None = None) -> dict[str, dict]:
        """Units the manifest records as finished (and whose ``units`` part exists)."""
        done: dict[str, dict] = {}
        for e in self.events() if events is None else events:
            if e.get("event") == "unit":
                done[e["unit"]] = e
        return {u: e for u, e in done.items()
                if part_path(self.run_dir, "units", u).is_file()}

    # lock -----------------------------------------------------------------------------
    @contextmanager
    def lock(self, wait: float = 2.0) -> Iterator[None]:
        """Hold the run's driver lock (one driver per run); raises if another holds it.

        Status probes (:meth:`is_driven`) hold a shared lock for an instant; the driver
        retries for up to ``wait`` seconds so a probe never turns it away, while a real
        other driver (which keeps the lock) still does.
        """
        path = self.run_dir / ".driver.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise SpecError(f"run {self.run_id} is being driven by another "
                                    "process") from None
                time.sleep(0.01)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def is_driven(self) -> bool:
        """True while some driver holds the run's lock."""
        path = self.run_dir / ".driver.lock"
        if not path.exists():
            return False
        fd = os.open(path, os.O_RDONLY)
        try:
            # shared: probes never exclude each other, only a driver's exclusive lock
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return False
        finally:
            os.close(fd)

    def info(self) -> RunInfo:
        """The run's state and counts, from disk."""
        doc = self.spec_doc()
        events = self.events()
        spec = doc["spec"]
        info = RunInfo(run_id=self.run_id, kind=spec.get("kind", ""), name=spec.get("name", ""),
                       created=doc.get("created", 0.0), path=str(self.run_dir))
        for e in events:
            kind = e.get("event")
            if kind == "start":
                info.units_total = e.get("units", info.units_total)
                info.hands_total = e.get("hands", info.hands_total)
                info.started = info.started or e["time"]
                info.status = "running"
                info.ended = None
                info.error = None
            elif kind == "unit":
                info.done_ids.add(e["unit"])
                info.rows += sum(e.get("rows", {}).values())
                info.bytes += e.get("bytes", 0)
                info.last_unit = e["time"]
            elif kind == "retry":
                info.retries += 1
            elif kind == "end":
                info.status = e.get("status", "finished")
                info.ended = e["time"]
                info.error = e.get("error")
        info.units_done = len(info.done_ids)
        hands_by_unit = {e["unit"]: e.get("hands", 0) for e in events if e.get("event") == "unit"}
        info.hands_done = sum(hands_by_unit.values())
        if info.status == "running" and not self.is_driven():
            info.status = "interrupted"
        if info.started is None and info.ended is None:
            info.status = "created" if not self.is_driven() else "running"
        return info


@dataclass
class RunInfo:
    """What ``pokerarena runs`` and ``show`` print about a run."""

    run_id: str
    kind: str
    name: str
    created: float
    path: str
    status: str = "created"
    started: float | None = None
    ended: float | None = None
    last_unit: float | None = None
    units_total: int = 0
    units_done: int = 0
    hands_total: int = 0
    hands_done: int = 0
    rows: int = 0
    bytes: int = 0
    retries: int = 0
    error: str | None = None
    done_ids: set[str] = field(default_factory=set, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form (times as ISO-8601 UTC)."""
        d = asdict(self)
        d.pop("done_ids")
        for key in ("created", "started", "ended", "last_unit"):
            if d[key] is not None:
                d[key] = dt.datetime.fromtimestamp(d[key], dt.UTC).isoformat(
                    timespec="seconds")
        end = self.ended or self.last_unit
        d["seconds"] = round(end - self.started, 3) if end and self.started else None
        return d


def list_runs(data_dir: str | Path) -> list[RunInfo]:
    """Every run under ``data_dir``, oldest first."""
    root = Path(data_dir) / "runs"
    if not root.is_dir():
        return []
    out = []
    for d in sorted(root.iterdir()):
        if (d / "spec.json").is_file():
            try:
                out.append(RunStore(data_dir, d.name).info())
            except (OSError, ValueError, KeyError):
                continue
    out.sort(key=lambda r: (r.created, r.run_id))
    return out
