"""A tournament's sequential tests as they stand (the dashboard's live view, issue 31).

A tournament with a ``[stop]`` rule tests each match after every shard
(:class:`~pokerarena.platform.stages.MatchTest`). The driver keeps that state in memory;
this module rebuilds it from disk alone, as a resumed drive does
(:meth:`~pokerarena.platform.stages.Schedule.begin` over the landed units and the
manifest's events), so the page shows the same log-likelihood ratio the driver decides
on, while the run plays and after it ended, from any process.

The page polls this every second while a run plays, so nothing is read twice: each
landed unit's result (what the test adds of it) is kept in this process
(:data:`UNIT_RESULTS`, per run and unit: a landed unit's rows never change) and a poll
reads only the units landed since; an ended run's whole answer is kept beside it as a
page summary (:mod:`pokerarena.platform.page_summaries`), keyed by its rows and its
recorded decisions, so a fresh process answers without reading a unit either.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any

from pokerarena.platform import page_summaries
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.stages import Schedule, UnitResult
from pokerarena.platform.storage import RunStore
from pokerarena.tournaments.sprt import Sprt


def llr_path(results: list[float], looks: list[int], h0: float, h1: float, alpha: float,
             beta: float) -> list[list[float]]:
    """``[pairs, llr]`` at each look (the pair counts after the shards), replayed on the
    same results in the same order with the test's own statistic."""
    s = Sprt(h0, h1, alpha, beta, min_pairs=2**62)  # never decides: a path, not a test
    out: list[list[float]] = []
    at = set(looks)
    for k, x in enumerate(results, start=1):
        s.add(x)
        if k in at:
            out.append([k, round(s.llr, 4)])
    return out


class UnitResults:
    """Landed units' results per run (``(location, estimator)``), the most recently
    used :attr:`runs` runs kept; thread-safe. ``reads`` counts the units read (tests)."""

    def __init__(self, runs: int = 8) -> None:
        self.runs = runs
        self._by_run: OrderedDict[tuple[str, str], dict[str, UnitResult]] = OrderedDict()
        self._lock = threading.Lock()
        self.reads = 0

    def take(self, key: tuple[str, str], done: set[str]) -> dict[str, UnitResult]:
        """The kept results of ``done``'s units (a copy: the schedule adds to it)."""
        with self._lock:
            kept = self._by_run.get(key, {})
            self._by_run[key] = kept
            self._by_run.move_to_end(key)
            while len(self._by_run) > self.runs:
                self._by_run.popitem(last=False)
            return {u: r for u, r in kept.items() if u in done}

    def keep(self, key: tuple[str, str], results: dict[str, UnitResult], before: int) -> None:
        """Keep ``results`` (``before`` of them were kept already: the rest were read)."""
        with self._lock:
            self.reads += len(results) - before
            self._by_run.setdefault(key, {}).update(results)


class _Replay(Schedule):
    """A schedule that starts with the units' results it is given (``begin`` reads
    only the others)."""

    def __init__(self, spec: Any, run_id: str, location: Any,
                 kept: dict[str, UnitResult]) -> None:
        self._kept = kept
        super().__init__(spec, run_id, location)

    def _reset(self) -> None:
        super()._reset()
        self.results = dict(self._kept)


UNIT_RESULTS = UnitResults()
"""This process's kept unit results (the service polls through it)."""


def _summary_key(store: RunStore, events: list[dict[str, Any]]) -> str | None:
    """The key of an ended run's answer: its rows and its recorded stages and decisions
    (None while it is driven, or with summaries off)."""
    if store.is_driven():
        return None
    rows = page_summaries.rows_key(store)
    if rows is None:
        return None
    recorded = [e for e in events if e.get("event") in ("stage", "decision")]
    return hashlib.sha256(json.dumps([rows, recorded], sort_keys=True, default=str)
                          .encode()).hexdigest()


def sequential_tests(store: RunStore) -> dict[str, Any]:
    """The answer of :func:`compute_tests`, read from the run's page summary when it has
    ended and the summary is of its rows now (written on the first request)."""
    spec = parse_spec(store.spec_doc()["spec"])
    if not spec.traits.ranked or spec.stop is None:
        return compute_tests(store)
    events = list(store.events())
    key = _summary_key(store, events)
    kept = page_summaries.read(store, "sequential", key)
    if isinstance(kept, dict):
        return kept
    out = compute_tests(store, events)
    page_summaries.write(store, "sequential", key, out)
    return out


def compute_tests(store: RunStore, events: list[dict[str, Any]] | None = None
                  ) -> dict[str, Any]:
    """Each tested match: bots, game, ``decision`` (``running`` until taken), the
    forward test's ``state`` (pairs, hands, ``llr``, ``bounds``, mbb/hand and its
    interval), the mirror's LLR when two-sided, and ``path`` (the LLR at each look).
    ``stop``: the rule (None: the run tests nothing)."""
    spec = parse_spec(store.spec_doc()["spec"])
    out: dict[str, Any] = {"run_id": store.run_id, "stop": None, "tests": []}
    if not spec.traits.ranked or spec.stop is None:
        return out
    rule = spec.stop
    out["stop"] = rule.model_dump()
    done = set(store.info().done_ids)
    cache_key = (str(store.location), rule.estimator)
    on = page_summaries.enabled()
    kept = UNIT_RESULTS.take(cache_key, done) if on else {}  # read only the new units
    schedule = _Replay(spec, store.run_id, store.location, kept)
    before = len(kept)
    schedule.begin(done, store.events() if events is None else events)
    if on:
        UNIT_RESULTS.keep(cache_key, schedule.results, before)
    per_pair = 2 if spec.duplicate else 1
    for number, m in sorted(schedule.matches.items()):
        if m.test is None:
            continue
        fwd = m.test.tests[0]
        first = m.units[0]
        looks = [n for n in m.test.looks if n <= fwd.n] or ([fwd.n] if fwd.n else [])
        out["tests"].append({
            "match": number, "bots": list(first.bots), "variant": first.variant,
            "betting": first.betting,
            "decision": m.outcome["decision"] if m.outcome else "running",
            "ahead": m.outcome.get("ahead") if m.outcome else None,
            "shards": m.fed, "shards_planned": len(m.units),
            "state": m.test.state(per_pair),
            "path": llr_path(fwd.results, looks, fwd.h0, fwd.h1, fwd.alpha, fwd.beta),
            "mirror_path": None if len(m.test.tests) < 2 else llr_path(
                m.test.tests[1].results, looks, m.test.tests[1].h0, m.test.tests[1].h1,
                m.test.tests[1].alpha, m.test.tests[1].beta)})
    return out
