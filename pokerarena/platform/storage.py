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

Damage: a part that fails the footer check (:func:`check_part`: truncated, emptied,
overwritten, a link) makes its whole unit unreadable. :func:`scan_parts` walks the
parts without following any symbolic link and sorts them into readable ones (units all
of whose parts are sound) and damaged ones; the views read only
:func:`readable_parts`, and :func:`damaged_units` says what they left out. The driver
checks a unit's parts when it lands and when a drive starts; a damaged unit is recorded
(``damaged`` event), is no longer counted done, and is played again from its seed.

Compaction (:mod:`~pokerarena.platform.compaction`) rewrites a finished run's parts as a
few large files per table under ``<table>/compacted/``, committed by a marker under
``compaction/``; the scan reads the committed generations (:mod:`~pokerarena.platform.
compacted`) after the parts: their files join the readable parts, the parts of the
units they cover are ignored, and a damaged generation's units are damage until played
again.

The data location may be an object store (``s3://bucket/prefix``,
:mod:`pokerarena.workers.fsys`): the same layout as keys, the spec one PUT, the manifest
a folder of segments (``manifest/<time>-<writer>.jsonl``: a store cannot append, so each
store object rewrites its own current segment whole and starts a new one past
:data:`SEGMENT_BYTES`; the events are the segments' lines in name order), the driver's
lock a heartbeat object (:func:`~pokerarena.workers.landing.driver_heartbeat`). Files the
driver derives through local paths (standings, a staged run's summary, a report) are
written to :attr:`RunStore.run_dir`, a local folder for the run, and
:meth:`RunStore.publish` puts them beside the parts.
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

import pyarrow.fs as pafs

from pokerarena.platform import compacted
from pokerarena.platform.spec import RunSpec, SpecError, parse_spec
from pokerarena.workers import fsys, landing
from pokerarena.workers import parts as _parts
from pokerarena.workers.fsys import data_location, is_uri
from pokerarena.workers.parts import (
    PART_NAME,
    check_object,
    check_part,
    part_key,
    part_path,
    remove_stale_temporaries,
    write_part,
)
from pokerarena.workers.rows import ADDED_TABLES, SCHEMAS
from pokerarena.workers.rows import TABLES as ROW_TABLES

__all__ = ["RunStore", "RunInfo", "default_data_dir", "list_runs", "new_run_id", "part_path",
           "remove_stale_temporaries", "write_part", "SCHEMAS", "TABLES", "check_part",
           "Damage", "PartScan", "scan_parts", "readable_parts", "damaged_units",
           "data_location", "is_uri", "part_key", "read_part"]

TABLES = tuple(ROW_TABLES)  # hands, seats, actions, faults, places, units (workers.rows)
UNIT_DIR_PREFIX = "unit="
MANIFEST_DIR = "manifest"
SEGMENT_BYTES = 256 * 1024
"""An object-store manifest segment is rewritten whole at each append until it is this
big; then the next append starts a new one (bounded bytes per append)."""


# damaged parts ------------------------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    """One part that cannot be read: its run, unit, table, path and why."""

    run_id: str
    unit: str
    table: str
    path: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        """JSON-friendly form."""
        return asdict(self)


@dataclass
class PartScan:
    """What :func:`scan_parts` found: the readable parts of each table, and the damage."""

    parts: dict[str, list[Any]] = field(default_factory=lambda: {t: [] for t in TABLES})
    """Per table, the parts' paths (:class:`Path`; on an object store, URI strings)."""
    stamps: dict[str, tuple[int, int]] = field(default_factory=dict)
    """An object store's parts: ``(mtime_ns, size)`` from the listing, by URI."""
    damaged: list[Damage] = field(default_factory=list)

    def damaged_units(self) -> list[dict[str, Any]]:
        """``[{"run_id", "unit", "tables": {table: reason}}]``, sorted."""
        out: dict[tuple[str, str], dict[str, str]] = {}
        for d in self.damaged:
            out.setdefault((d.run_id, d.unit), {})[d.table] = d.reason
        return [{"run_id": r, "unit": u, "tables": t} for (r, u), t in sorted(out.items())]


def _dirs(path: Path) -> list[os.DirEntry]:
    """Entries of ``path`` (sorted by name; [] when it cannot be listed)."""
    try:
        with os.scandir(path) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError:
        return []


_LINK = "is a symbolic link (links are never followed)"


def _scan_run(run_dir: Path, run_id: str, scan: PartScan) -> None:
    units: dict[str, dict[str, tuple[Any, str | None]]] = {}
    folders = _dirs(run_dir)
    for tdir in folders:
        if tdir.name not in TABLES:
            continue
        if tdir.is_symlink():
            scan.damaged.append(Damage(run_id, "*", tdir.name, tdir.path, _LINK))
            continue
        if not tdir.is_dir(follow_symlinks=False):
            continue
        for udir in _dirs(Path(tdir.path)):
            if not udir.name.startswith(UNIT_DIR_PREFIX):
                continue
            unit = udir.name[len(UNIT_DIR_PREFIX):]
            path = Path(udir.path) / PART_NAME
            if udir.is_symlink():
                units.setdefault(unit, {})[tdir.name] = (path, _LINK)
            elif udir.is_dir(follow_symlinks=False):
                units.setdefault(unit, {})[tdir.name] = (path, check_part(path))
    _apply_compaction(run_dir, run_id, units, scan)
    _sort_units(run_dir, run_id, {e.name for e in folders}, units, scan)


def _apply_compaction(run: str | Path, run_id: str,
                      units: dict[str, dict[str, tuple[Any, str | None]]],
                      scan: PartScan) -> None:
    """Read the committed compacted generations (:mod:`~pokerarena.platform.compacted`;
    listed after the parts, so a commit in between only hides parts): their files join
    the readable parts, the parts of the units they cover are ignored, and the units of
    a damaged generation that have no parts again are damage."""
    gens = compacted.generations(run)
    if not gens:
        return
    covered: set[str] = set()
    for gen in gens:
        if gen.sound and not gen.units & covered:
            covered |= gen.units
            for table, entries in gen.files.items():
                scan.parts.setdefault(table, []).extend(
                    compacted.run_key(run, table, compacted.COMPACTED_DIR, e["file"])
                    for e in entries)
    for unit in covered:
        units.pop(unit, None)
    for gen in gens:
        if gen.sound:
            continue
        for unit in sorted(gen.units - covered):
            if "units" in units.get(unit, {}):
                continue  # played again since: its parts are read
            units.pop(unit, None)
            scan.damaged.extend(Damage(run_id, unit, t, path, why)
                                for t, (path, why) in sorted(gen.problems.items()))


def _sort_units(run_dir: str | Path, run_id: str, folders: set[str],
                units: dict[str, dict[str, tuple[Any, str | None]]], scan: PartScan) -> None:
    """Sort a run's units found on disk into readable parts and damage."""
    # a table added later (workers.rows.ADDED_TABLES) is not required of a run that
    # predates it: one without its folder at all
    required = [t for t in TABLES if t not in ADDED_TABLES or t in folders]
    for unit, found in sorted(units.items()):
        marker = found.get("units")
        if marker is None or marker[1] == "missing":
            continue  # not complete (still playing, or abandoned): not damage
        problems: dict[str, tuple[Any, str]] = {}
        for t in required:
            path, why = found[t] if t in found else (part_key(run_dir, t, unit), "missing")
            if why is not None:
                problems[t] = (path, why)
        if problems:
            scan.damaged.extend(Damage(run_id, unit, t, str(p), why)
                                for t, (p, why) in sorted(problems.items()))
            continue
        for t, (p, _ok) in found.items():
            scan.parts[t].append(p)


def _scan_object_run(run_uri: str, run_id: str, scan: PartScan) -> None:
    """:func:`_scan_run` of a run on an object store: one recursive listing."""
    units: dict[str, dict[str, tuple[Any, str | None]]] = {}
    folders: set[str] = set()
    base = fsys.resolve(run_uri)[1]
    for item in fsys.listing(run_uri, recursive=True):
        rel = item.path[len(base) + 1:].split("/")
        if item.type != pafs.FileType.File or len(rel) != 3 or rel[0] not in TABLES:
            continue
        folders.add(rel[0])
        if rel[2] == PART_NAME and rel[1].startswith(UNIT_DIR_PREFIX):
            uri = fsys.uri_of(run_uri, item.path)
            scan.stamps[uri] = (int(item.mtime_ns or 0), int(item.size or 0))
            units.setdefault(rel[1][len(UNIT_DIR_PREFIX):], {})[rel[0]] = (
                uri, check_object(uri, found=item))
    _apply_compaction(run_uri, run_id, units, scan)
    _sort_units(run_uri, run_id, folders, units, scan)


def _object_run_ids(data_dir: str) -> list[str]:
    """The run folders of an object-store location, sorted."""
    return [n for n in fsys.child_names(fsys.join(data_dir, "runs")) if not n.startswith(".")]


def runs_root(data_dir: str | Path) -> Path:
    """``<data>/runs``, resolved (the one place a link is followed: the operator's own
    layout above the runs; nothing below it is ever followed)."""
    return (Path(data_dir).resolve() / "runs").resolve()


def scan_parts(data_dir: str | Path, run_id: str | None = None) -> PartScan:
    """Every part under ``<data>/runs`` (one run, or all), sorted into readable parts
    (of complete units whose every part passes :func:`check_part`) and damage.

    No symbolic link below ``<data>/runs`` is followed: a linked run folder is skipped, a
    linked table folder, unit folder or part is damage. A unit without its ``units`` part
    is not complete (still playing, abandoned) and appears in neither list. Paths are
    absolute and free of links, so their text is where the kernel reads.
    """
    scan = PartScan()
    if is_uri(data_dir):
        ids = _object_run_ids(str(data_dir)) if run_id is None else [run_id]
        for rid in ids:
            _scan_object_run(fsys.join(str(data_dir), "runs", rid), rid, scan)
        return scan
    root = runs_root(data_dir)
    if run_id is not None:
        entries = [e for e in _dirs(root) if e.name == run_id]
    else:
        entries = [e for e in _dirs(root) if not e.name.startswith(".")]
    for e in entries:
        if e.is_dir(follow_symlinks=False):
            _scan_run(Path(e.path), e.name, scan)
    return scan


def read_part(run_dir: str | Path, table: str, unit_id: str,
              columns: list[str] | None = None) -> Any:
    """The unit's rows of ``table``: its part, else (its part retired by a compaction)
    from the compacted generation that covers it."""
    try:
        return _parts.read_part(run_dir, table, unit_id, columns)
    except (FileNotFoundError, OSError):
        found = compacted.read_unit(run_dir, table, unit_id, columns)
        if found is None:
            raise
        return found


def readable_parts(data_dir: str | Path, table: str, run_id: str | None = None
                   ) -> list[Any]:
    """The parts of ``table`` a reader may read (see :func:`scan_parts`)."""
    return scan_parts(data_dir, run_id).parts[table]


def damaged_units(run_dir: str | Path) -> dict[str, dict[str, str]]:
    """Units of one run folder that cannot be read: ``{unit: {table: reason}}``."""
    scan = PartScan()
    if is_uri(run_dir):
        _scan_object_run(str(run_dir), str(run_dir).rstrip("/").rsplit("/", 1)[-1], scan)
    elif (folder := Path(run_dir)).is_dir() and not folder.is_symlink():
        _scan_run(folder.resolve(), folder.name, scan)
    out: dict[str, dict[str, str]] = {}
    for d in scan.damaged:
        out.setdefault(d.unit, {})[d.table] = d.reason
    return out


def default_data_dir() -> Path:
    """``$POKERARENA_DATA``, else ``./data`` (a local path; see :func:`default_location`)."""
    return Path(os.environ.get("POKERARENA_DATA", "data"))


def default_location() -> str | Path:
    """``$POKERARENA_DATA`` (a path or a URI, :func:`data_location`), else ``./data``."""
    return data_location(os.environ.get("POKERARENA_DATA", "data"))


def local_folder(uri: str) -> Path:
    """The local folder of an object-store location (what the driver derives through
    local paths before :meth:`RunStore.publish`): under ``$POKERARENA_CACHE`` or
    ``~/.cache/pokerarena``, named after the URI."""
    cache = Path(os.environ.get("POKERARENA_CACHE") or Path.home() / ".cache" / "pokerarena")
    return cache / "remote" / uri.replace("://", "/").strip("/")


def new_run_id(spec: RunSpec) -> str:
    """``<name or kind>-<UTC date-time>-<random>``, sortable by creation time."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    return f"{spec.name or spec.kind}-{stamp}-{secrets.token_hex(3)}"


def _now() -> float:
    return dt.datetime.now(dt.UTC).timestamp()


class RunStore:
    """One run's folder: its spec, manifest and lock.

    ``location`` is where the run lives (its folder, or its URI on an object store) and
    what workers are given; ``run_dir`` is a local folder either way (on an object store
    the local folder of :func:`local_folder`, for what is derived through local paths)."""

    def __init__(self, data_dir: str | Path, run_id: str) -> None:
        if not run_id or "/" in run_id or run_id.startswith("."):
            raise SpecError(f"run id: {run_id!r} is not a run id")
        where = data_location(data_dir) if isinstance(data_dir, str) else data_dir
        self.run_id = run_id
        self.remote = isinstance(where, str)
        self.data_dir: Path = local_folder(where) if isinstance(where, str) else where
        self.run_dir = self.data_dir / "runs" / run_id
        self.location: str | Path = (fsys.join(where, "runs", run_id)
                                     if isinstance(where, str) else self.run_dir)
        self.data_location: str | Path = where
        self.spec_path = self.run_dir / "spec.json"
        self.manifest_path = self.run_dir / "manifest.jsonl"
        self._lock_fd: int | None = None
        self._segment: tuple[str, str] | None = None  # object store: (key, text so far)

    def _key(self, *names: str) -> str:
        return fsys.join(str(self.location), *names)

    def exists(self) -> bool:
        """True when the run has been created."""
        if self.remote:
            return fsys.exists(self._key("spec.json"))
        return self.spec_path.is_file()

    def create(self, spec: RunSpec) -> None:
        """Create the run folder and write ``spec.json`` (atomically)."""
        doc = {"run_id": self.run_id, "created": _now(), "digest": spec.digest(),
               "spec": spec.model_dump(mode="json")}
        if self.remote:
            try:
                if self.exists():
                    raise FileExistsError(str(self.location))
                fsys.write_bytes(self._key("spec.json"),
                                 (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode())
            except FileExistsError:
                raise
            except OSError as exc:  # no such bucket, no store there, access denied
                raise SpecError(f"{self.location}: cannot write the run there: "
                                f"{str(exc).splitlines()[0]}") from None
            return
        self.run_dir.mkdir(parents=True, exist_ok=False)
        tmp = self.run_dir / ".spec.json.tmp"
        tmp.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
        os.replace(tmp, self.spec_path)

    def spec_doc(self) -> dict[str, Any]:
        """The stored ``spec.json`` document."""
        try:
            if self.remote:
                return json.loads(fsys.read_bytes(self._key("spec.json")))
            return json.loads(self.spec_path.read_text())
        except FileNotFoundError:
            raise SpecError(f"no run {self.run_id!r} under {self.data_location}") from None

    def load_spec(self) -> RunSpec:
        """The stored spec, validated again."""
        return parse_spec(self.spec_doc()["spec"])

    # manifest -------------------------------------------------------------------------
    def append(self, event: dict[str, Any]) -> None:
        """Append one event line to the manifest; flushed and fsynced."""
        self.append_many([event])

    def append_many(self, events: list[dict[str, Any]]) -> None:
        """Append event lines in one write and one fsync: the driver records the units
        that finished together at once (an fsync costs milliseconds, and a driver
        feeding a thousand workers records hundreds of units a second). Units that
        landed but whose lines were lost with a crash are recorded again by
        :meth:`reconcile` from their parts."""
        now = _now()
        text = "".join(json.dumps({"time": now, **e}, sort_keys=True, separators=(",", ":"))
                       + "\n" for e in events)
        if not text:
            return
        if self.remote:
            self._append_segment(text)
            return
        with open(self.manifest_path, "a", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())

    def _append_segment(self, text: str) -> None:
        """Rewrite this store's current manifest segment with ``text`` added (one PUT);
        past :data:`SEGMENT_BYTES` a new segment begins."""
        if self._segment is None or len(self._segment[1]) > SEGMENT_BYTES:
            name = f"{time.time_ns():020d}-{secrets.token_hex(4)}.jsonl"
            self._segment = (self._key(MANIFEST_DIR, name), "")
        key, old = self._segment
        fsys.write_bytes(key, (old + text).encode())
        self._segment = (key, old + text)

    def _manifest_text(self) -> str:
        if not self.remote:
            return self.manifest_path.read_text(encoding="utf-8")
        texts = []
        for item in fsys.listing(self._key(MANIFEST_DIR)):
            if item.base_name.endswith(".jsonl"):
                try:
                    texts.append(fsys.read_bytes(fsys.uri_of(self._key(), item.path)))
                except FileNotFoundError:
                    continue
        return "".join(t.decode("utf-8") for t in texts)

    def events(self) -> list[dict[str, Any]]:
        """Every manifest event; a torn last line (crash mid-write) is ignored."""
        try:
            text = self._manifest_text()
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
        """Units the manifest records as finished and not damaged since (and whose
        ``units`` part exists)."""
        done: dict[str, dict] = {}
        for e in self.events() if events is None else events:
            if e.get("event") == "unit":
                done[e["unit"]] = e
            elif e.get("event") == "damaged":
                done.pop(str(e.get("unit")), None)
        covered = compacted.covered_units(self.location)
        if self.remote:
            landed = set(self.landed_units()) | covered
            return {u: e for u, e in done.items() if u in landed}
        return {u: e for u, e in done.items()
                if u in covered or part_path(self.run_dir, "units", u).is_file()}

    def landed_units(self) -> list[str]:
        """Units whose ``units`` part exists (whether sound or not), or that a compacted
        generation covers."""
        covered = compacted.covered_units(self.location)
        if self.remote:
            found = [n[len(UNIT_DIR_PREFIX):] for n in self._unit_folders_with_part()]
        else:
            folder = self.run_dir / "units"
            found = [e.name[len(UNIT_DIR_PREFIX):] for e in _dirs(folder)
                     if e.name.startswith(UNIT_DIR_PREFIX)] if folder.is_dir() else []
        return sorted(set(found) | covered)

    def _unit_folders_with_part(self) -> list[str]:
        base = fsys.resolve(self._key("units"))[1]
        out = []
        for item in fsys.listing(self._key("units"), recursive=True):
            rel = item.path[len(base) + 1:].split("/")
            if (len(rel) == 2 and rel[1] == PART_NAME and rel[0].startswith(UNIT_DIR_PREFIX)
                    and item.type == pafs.FileType.File):
                out.append(rel[0])
        return out

    def damaged_units(self) -> dict[str, dict[str, str]]:
        """Units whose parts fail the footer check: ``{unit: {table: reason}}``."""
        return damaged_units(self.location)

    def mark_damaged(self, damaged: dict[str, dict[str, str]]) -> list[str]:
        """Record ``damaged`` units (``damaged`` events) that the manifest still counts
        done; returns their ids. They are played again by the next drive."""
        done = self.done_units()
        marked = []
        for unit, tables in sorted(damaged.items()):
            if unit in done:
                self.append({"event": "damaged", "unit": unit, "tables": tables})
                marked.append(unit)
        return marked

    def reconcile(self) -> list[str]:
        """Record units that landed (complete and readable on disk) but that the
        manifest does not hold (their driver stopped between the landing and the
        record), so the run's record and its views agree; returns their ids."""
        import pyarrow.parquet as pq

        done = self.done_units()
        landed = self.landed_units()
        if all(unit in done for unit in landed):
            return []  # the usual case: nothing to record, no part to check again
        scan = scan_parts(self.data_location, self.run_id)
        added = []
        for path in scan.parts["units"]:
            folder = str(path).rsplit("/", 2)[-2]
            if not folder.startswith(UNIT_DIR_PREFIX):
                continue  # a compacted file: its units were recorded before it
            unit = folder[len(UNIT_DIR_PREFIX):]
            if unit in done:
                continue
            try:
                if self.remote:
                    fs, key = fsys.resolve(str(path))
                    row = pq.read_table(key, filesystem=fs).to_pylist()[0]
                else:
                    row = pq.read_table(path).to_pylist()[0]
            except Exception:  # noqa: BLE001 - unreadable after all: it is replayed
                continue
            self.append({"event": "unit", "unit": unit, "hands": row.get("hands", 0),
                         "rows": {t: int(row.get(f"rows_{t}") or 0)
                                  for t in ("hands", "seats", "actions", "faults")},
                         "bytes": int(row.get("bytes") or 0),
                         "attempt": row.get("attempt"), "worker": row.get("worker"),
                         "play_seconds": row.get("play_seconds"),
                         "write_seconds": row.get("write_seconds"), "recovered": True})
            added.append(unit)
        return added

    # sessions (whether the run still wants a unit: checked where units land) ----------
    def open_session(self) -> str:
        """Start a drive: units carrying the returned token may land until it closes."""
        return landing.open_session(self.location)

    def close_session(self, session: str) -> None:
        """No unit of ``session`` lands from now on (waits out one landing now)."""
        landing.close_session(self.location, session)

    # lock -----------------------------------------------------------------------------
    @contextmanager
    def lock(self, wait: float = 2.0) -> Iterator[None]:
        """Hold the run's driver lock (one driver per run); raises if another holds it.

        Status probes (:meth:`is_driven`) hold a shared lock for an instant; the driver
        retries for up to ``wait`` seconds so a probe never turns it away, while a real
        other driver (which keeps the lock) still does. On an object store the lock is
        the driver's heartbeat (:func:`~pokerarena.workers.landing.driver_heartbeat`).
        """
        if self.remote:
            try:
                with landing.driver_heartbeat(str(self.location), wait):
                    yield
            except landing.DriverBusy:
                raise SpecError(f"run {self.run_id} is being driven by another "
                                "process") from None
            return
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
        """True while some driver holds the run's lock (a shared probe: probes never
        exclude each other, only a driver's exclusive lock)."""
        return landing.driver_alive(self.location)

    def fetch(self, name: str) -> Path:
        """``run_dir``, with the file ``name`` of an object-store run copied into it from
        beside the parts when it is there (a summary another machine's driver wrote);
        a local run's folder as it is."""
        if self.remote:
            try:
                data = fsys.read_bytes(self._key(name))
            except FileNotFoundError:
                return self.run_dir
            self.run_dir.mkdir(parents=True, exist_ok=True)
            (self.run_dir / name).write_bytes(data)
        return self.run_dir

    def publish(self, name: str) -> None:
        """Put the local file or folder ``run_dir/name`` (standings, a summary) beside
        the run's parts on its object store (each file one PUT); a local run has
        nothing to do."""
        if not self.remote:
            return
        src = self.run_dir / name
        files = [src] if src.is_file() else sorted(p for p in src.rglob("*") if p.is_file()
                                                    and not p.name.startswith("."))
        for f in files:
            fsys.write_bytes(self._key(*f.relative_to(self.run_dir).parts), f.read_bytes())

    def info(self) -> RunInfo:
        """The run's state and counts, from disk."""
        doc = self.spec_doc()
        stamp = self._manifest_stamp()
        info = self._cached_info(stamp)
        if info is None:
            info = self._fold(doc, self.events())
            self._cache_info(stamp, info)
        if info.status == "running" and not self.is_driven():
            info.status = "interrupted"
        if info.started is None and info.ended is None:
            info.status = "created" if not self.is_driven() else "running"
        return info

    def _info_cache(self) -> Path:
        """Where a local run's :meth:`info` is kept as its manifest last gave it, keyed by
        the manifest's size and mtime (it only grows), so that a finished run of 10,000
        units is not parsed again by every query process (issue 29): under
        ``$POKERARENA_CACHE`` (or ``~/.cache/pokerarena``), never in the run's folder."""
        import hashlib

        cache = Path(os.environ.get("POKERARENA_CACHE") or Path.home() / ".cache" / "pokerarena")
        name = hashlib.sha256(str(self.run_dir.resolve()).encode()).hexdigest()[:32]
        return cache / "info" / f"{name}.json"

    def _manifest_stamp(self) -> list[int] | None:
        if self.remote:
            return None
        try:
            st = os.stat(self.manifest_path)
        except OSError:
            return None
        return [st.st_size, st.st_mtime_ns]

    def _cached_info(self, stamp: list[int] | None) -> RunInfo | None:
        if stamp is None:
            return None
        try:
            doc = json.loads(self._info_cache().read_text())
            if doc.get("stamp") != stamp:
                return None
            fields = doc["info"]
            return RunInfo(**{**fields, "done_ids": set(fields["done_ids"])})
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _cache_info(self, stamp: list[int] | None, info: RunInfo) -> None:
        if stamp is None or info.status == "running":
            return  # a run being driven changes with every unit: not worth it
        fields = {**asdict(info), "done_ids": sorted(info.done_ids)}
        path = self._info_cache()
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"stamp": stamp, "info": fields}))
            os.replace(tmp, path)
        except OSError:  # no writable cache: parse the manifest each time
            tmp.unlink(missing_ok=True)

    def _fold(self, doc: dict[str, Any], events: list[dict[str, Any]]) -> RunInfo:
        """The run's counts from its manifest events (before the lock probe)."""
        spec = doc["spec"]
        info = RunInfo(run_id=self.run_id, kind=spec.get("kind", ""), name=spec.get("name", ""),
                       created=doc.get("created", 0.0), path=f"runs/{self.run_id}")
        rows_by_unit: dict[str, int] = {}
        bytes_by_unit: dict[str, int] = {}
        hands_by_unit: dict[str, int] = {}
        damaged: dict[str, None] = {}
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
                damaged.pop(e["unit"], None)
                rows_by_unit[e["unit"]] = sum(e.get("rows", {}).values())
                bytes_by_unit[e["unit"]] = e.get("bytes", 0)
                hands_by_unit[e["unit"]] = e.get("hands", 0)
                info.last_unit = e["time"]
            elif kind == "damaged":
                unit = str(e.get("unit"))
                info.done_ids.discard(unit)
                damaged[unit] = None
                for by_unit in (rows_by_unit, bytes_by_unit, hands_by_unit):
                    by_unit.pop(unit, None)
            elif kind == "retry":
                info.retries += 1
            elif kind == "decision":  # a match stopped early: its later units never play
                info.units_total -= int(e.get("units_saved", 0))
                info.hands_total -= int(e.get("hands_saved", 0))
            elif kind == "end":
                info.status = e.get("status", "finished")
                info.ended = e["time"]
                info.error = e.get("error")
        info.units_done = len(info.done_ids)
        info.rows = sum(rows_by_unit.values())
        info.bytes = sum(bytes_by_unit.values())
        info.hands_done = sum(hands_by_unit.values())
        info.damaged = sorted(damaged)
        return info


@dataclass
class RunInfo:
    """What ``pokerarena runs`` and ``show`` print about a run."""

    run_id: str
    kind: str
    name: str
    created: float
    path: str  # the run's folder relative to the data directory: runs/<run_id>
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
    damaged: list[str] = field(default_factory=list)
    """Units recorded damaged and not played again since."""
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
    if is_uri(data_dir):
        found = [RunStore(data_dir, rid) for rid in _object_run_ids(str(data_dir))]
        return _infos([st for st in found if st.exists()])
    root = Path(data_dir) / "runs"
    if not root.is_dir():
        return []
    out: list[RunStore] = []
    for d in sorted(root.iterdir()):
        if d.is_symlink() or d.name.startswith("."):
            continue  # links below runs/ are never followed
        if (d / "spec.json").is_file():
            out.append(RunStore(data_dir, d.name))
    return _infos(out)


def _infos(stores: list[RunStore]) -> list[RunInfo]:
    out = []
    for store in stores:
        try:
            out.append(store.info())
        except (OSError, ValueError, KeyError):
            continue
    out.sort(key=lambda r: (r.created, r.run_id))
    return out
