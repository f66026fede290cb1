"""A tournament's sequential tests as they stand (the dashboard's live view, issue 31).

A tournament with a ``[stop]`` rule tests each match after every shard
(:class:`~pokerarena.platform.stages.MatchTest`). The driver keeps that state in memory;
this module rebuilds it from disk alone, as a resumed drive does
(:meth:`~pokerarena.platform.stages.Schedule.begin` over the landed units and the
manifest's events), so the page shows the same log-likelihood ratio the driver decides
on, while the run plays and after it ended, from any process.
"""

from __future__ import annotations

from typing import Any

from pokerarena.platform.spec import parse_spec
from pokerarena.platform.stages import Schedule
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


def sequential_tests(store: RunStore) -> dict[str, Any]:
    """Each tested match: bots, game, ``decision`` (``running`` until taken), the
    forward test's ``state`` (pairs, hands, ``llr``, ``bounds``, mbb/hand and its
    interval), the mirror's LLR when two-sided, and ``path`` (the LLR at each look).
    ``stop``: the rule (None: the run tests nothing)."""
    spec = parse_spec(store.spec_doc()["spec"])
    out: dict[str, Any] = {"run_id": store.run_id, "stop": None, "tests": []}
    if spec.kind != "tournament" or spec.stop is None:
        return out
    rule = spec.stop
    out["stop"] = rule.model_dump()
    schedule = Schedule(spec, store.run_id, store.location)
    schedule.begin(store.info().done_ids, store.events())
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
