"""Calibration cases of finding 5: a study's ``skill_edge`` at equal strength.

Each replication is a small study played in process: one hold'em game listed twice
(two identical cells on common deals, cell 0 the baseline) with a mix of six copies
of one bot under six names (:data:`BOTS`), so every pair's true edge is 0 by symmetry. The units of
the study's own plan are played by the platform's recorder
(:func:`~pokerarena.workers.records.play_unit`, the fast table: the copies draw
their own random numbers, so the identical cells differ), and the report's own SQL
and statistics (:func:`~pokerarena.platform.study_report.results_from`) run on
DuckDB over those rows: the estimator replayed is the one users get. Measured: how
often each cell's 95% interval of ``skill_edge`` covers 0, and how often the paired
comparison of the two identical cells claims a change (its p-value under 0.05 before
any correction, i.e. its 95% interval of the difference leaves out 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerarena.bench.calibration import Case, Coverage

BOTS = ("tag", "tag?", "tag?&", "tag?&&", "tag?&&&", "tag?&&&&")
"""One bot under six names (the registry reads an empty query as no options): six
equally strong entrants at a six-seat table, where the best and the worst of a sample
lie far apart by luck alone."""
HANDS = 600
UNIT_HANDS = 200


def study_spec(seed: int, hands: int = HANDS, bots: tuple[str, ...] = BOTS) -> dict[str, Any]:
    """Two identical cells (the same game twice) of ``bots`` on common deals."""
    game = {"variant": "holdem", "betting": "fixed_limit"}
    return {"kind": "study", "name": "calib-skill", "seed": seed, "bots": list(bots),
            "hands": hands, "unit_hands": UNIT_HANDS, "record": "hands",
            "games": [game, game], "study": {"baseline": 0}}


def replay(spec_doc: dict[str, Any]) -> dict[str, Any]:
    """The report's results of the study ``spec_doc`` played in process."""
    import duckdb
    import pyarrow as pa

    from pokerarena.platform.planner import plan
    from pokerarena.platform.spec import parse_spec
    from pokerarena.platform.study_report import results_from
    from pokerarena.workers.records import play_unit

    spec = parse_spec(spec_doc)
    played = [play_unit(u) for u in plan(spec, "calib").units]
    con = duckdb.connect()
    try:
        for name in ("hands", "seats", "actions"):
            con.register(name, pa.concat_tables([p.tables[name] for p in played]))
        return results_from(con, spec, "calib")
    finally:
        con.close()


def _skill_edge(reps: int, seed: int) -> list[Coverage]:
    covered = {0: 0, 1: 0}
    edges: dict[int, list[float]] = {0: [], 1: []}
    changed = significant = 0
    for r in range(reps):
        ss = np.random.SeedSequence(seed, spawn_key=(5, r))
        res = replay(study_spec(int(ss.generate_state(1)[0]) >> 1))
        for s in res["skill"]:
            lo, hi = s["edge_lo"], s["edge_hi"]
            covered[s["cell"]] += int(lo is not None and lo <= 0.0 <= hi)
            edges[s["cell"]].append(s["edge_value"])
        comp = next(c for c in res["comparisons"] if c["metric"] == "skill_edge")
        changed += int(comp["p"] < 0.05)
        significant += int(comp["significant"])

    def mean(xs: list[float]) -> float:
        return round(float(np.mean(xs)), 4) if xs else float("nan")

    what = (f"six copies of tag, hold'em fixed limit, {HANDS} hands per cell; skill_edge "
            "(truth 0) of the pair the report chose")
    return [
        Coverage("study.skill_edge_baseline", 5, f"{what}: the baseline cell's 95% interval "
                 "covers 0", "coverage", 0.95, covered[0], reps,
                 extra={"mean_edge": mean(edges[0])}),
        Coverage("study.skill_edge_identical_cells", 5, f"{what}: the identical cell's 95% "
                 "interval covers 0", "coverage", 0.95, covered[1], reps,
                 extra={"mean_edge": mean(edges[1])}),
        Coverage("study.skill_edge_identical_cells_changed", 5, f"{what}: the paired "
                 "comparison of the identical cells claims a change (p < 0.05, "
                 "uncorrected)", "error_rate", 0.05, changed, reps,
                 extra={"significant_after_correction": significant}),
    ]


CASES: list[Case] = [Case("study.skill_edge", 5, _skill_edge, default_reps=300,
                          quick_reps=20)]
