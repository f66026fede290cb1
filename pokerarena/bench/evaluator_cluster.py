"""``bench evaluator --cluster``: the hand evaluator on every core of a Ray cluster.

One actor per CPU of every alive node, pinned to its node (``NodeAffinitySchedulingStrategy``,
not soft), one numba thread each. Each actor prepares the same hands and times each
kernel twice: **random** access (hands drawn at random, the evaluator's tables read all
over) and **sequential** access (hands in enumeration order, consecutive hands sharing
most of their cards, the way a census or an equity enumeration reads them), as OMPEval
and the other evaluator benchmarks report the two separately. First one actor alone
(the one-core figure), then all actors at once; the scaling efficiency of a kernel is
the cluster's rate over (actors × the one-core rate). Then the full 7-card census is
split across the actors by first card and its merged counts are checked against the
exact published ones (:data:`SEVEN_CARD_CENSUS`).

Rows (one per actor, kernel, access and phase) go to
``<data>/bench/evaluator/<time>.parquet``; the service's ``/metrics`` shows the latest
file as gauges (``pokerarena_bench_evaluator_*``, :mod:`pokerarena.platform.metrics`).
"""

from __future__ import annotations

import itertools
import os
import socket
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

# kernel -> (cards per hand, ranking, deck); "omaha" is 4 hole + 5 board
KERNELS: dict[str, tuple[int, str, str]] = {
    "high5": (5, "high", "standard"),
    "high6": (6, "high", "standard"),
    "high7": (7, "high", "standard"),
    "omaha": (9, "high", "standard"),
    "short_deck7": (7, "short_deck", "short"),
    "a5_low7": (7, "a5_low", "standard"),
}
ACCESS = ("random", "sequential")
HANDS = 200_000  # per kernel and access, evaluated in a loop until the time is up

# The exact 7-card census of a 52-card deck (every one of C(52, 7) = 133,784,560 hands by
# its best five cards): the published figures the split census must reproduce.
SEVEN_CARD_CENSUS: dict[str, int] = {
    "straight_flush": 41_584, "four_of_a_kind": 224_848, "full_house": 3_473_184,
    "flush": 4_047_644, "straight": 6_180_020, "three_of_a_kind": 6_461_620,
    "two_pair": 31_433_400, "one_pair": 58_627_800, "high_card": 23_294_460,
}


def _hands(kernel: str, access: str, n: int, seed: int) -> np.ndarray:
    """``uint8[n, k]`` hands of the kernel's deck: random, or consecutive combinations
    in enumeration order (from a random starting hand, so actors differ)."""
    from pokerarena.cards import deck

    k, _, deck_name = KERNELS[kernel]
    cards = deck(deck_name).astype(np.uint8)
    rng = np.random.default_rng(seed)
    if access == "random":
        idx = np.argsort(rng.random((n, cards.size)), axis=1)[:, :k]
        return np.ascontiguousarray(cards[idx])
    lead = np.sort(rng.choice(cards.size - k, size=2, replace=False))
    start = itertools.combinations(range(int(lead[1]), cards.size), k)
    rows = list(itertools.islice(start, n))
    while len(rows) < n:
        rows.extend(itertools.islice(itertools.combinations(range(cards.size), k),
                                     n - len(rows)))
    return np.ascontiguousarray(cards[np.asarray(rows, dtype=np.int64)])


class EvaluatorActor:
    """One core's benchmark worker (a Ray actor when started by :func:`bench_cluster`)."""

    def __init__(self, seed: int = 0) -> None:
        try:
            import numba

            numba.set_num_threads(1)
        except Exception:  # noqa: BLE001 - no threading layer: one thread already
            pass
        self.seed = seed
        self._work: dict[tuple[str, str], Any] = {}

    def where(self) -> dict[str, Any]:
        """This actor's node, host and process."""
        import ray

        return {"node": ray.get_runtime_context().get_node_id(),
                "host": socket.gethostname(), "pid": os.getpid()}

    def prepare(self, hands: int = HANDS) -> int:
        """Make every kernel's hands and run each once (compile, load the tables)."""
        from pokerarena.evaluator import evaluate_batch, evaluate_omaha_batch, ranking

        for kernel, (_, rank_name, deck_name) in KERNELS.items():
            rk = ranking(rank_name, deck=deck_name)
            for access in ACCESS:
                arr = _hands(kernel, access, hands, self.seed)
                if kernel == "omaha":
                    hole = np.ascontiguousarray(arr[:, :4])
                    board = np.ascontiguousarray(arr[:, 4:])
                    self._work[(kernel, access)] = (
                        lambda h=hole, b=board, r=rk: evaluate_omaha_batch(h, b, r), hands)
                else:
                    self._work[(kernel, access)] = (
                        lambda a=arr, r=rk: evaluate_batch(a, r), hands)
                self._work[(kernel, access)][0]()
        return len(self._work)

    def measure(self, kernel: str, access: str, seconds: float) -> dict[str, float]:
        """Evaluate the kernel's hands over and over for about ``seconds``."""
        fn, n = self._work[(kernel, access)]
        evals, t0 = 0, time.perf_counter()
        while True:
            fn()
            evals += n
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                return {"evals": float(evals), "seconds": elapsed}

    def census_part(self, first: tuple[int, int]) -> dict[str, Any]:
        """The 7-card census's hands whose first card's index is in ``first``."""
        from pokerarena.evaluator.census import census7_part

        t0 = time.perf_counter()
        counts = census7_part(first)
        return {"counts": counts, "seconds": time.perf_counter() - t0}


def _actors(limit: int | None) -> tuple[list[Any], list[dict[str, Any]]]:
    """One pinned actor per CPU of every alive node (at most ``limit`` in all)."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    remote = ray.remote(num_cpus=1)(EvaluatorActor)
    actors: list[Any] = []
    for node in ray.nodes():
        if not node.get("Alive"):
            continue
        for _ in range(int(node.get("Resources", {}).get("CPU", 0))):
            if limit is not None and len(actors) >= limit:
                break
            strategy = NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
            actors.append(remote.options(scheduling_strategy=strategy).remote(len(actors)))
    if not actors:
        raise RuntimeError("the cluster has no CPU to run the benchmark on")
    return actors, ray.get([a.where.remote() for a in actors])


def _phase(actors: list[Any], places: list[dict[str, Any]], phase: str, seconds: float
           ) -> list[dict[str, Any]]:
    """Every kernel and access on all ``actors`` at once (one at a time for ``alone``)."""
    import ray

    rows = []
    for kernel in KERNELS:
        for access in ACCESS:
            got = ray.get([a.measure.remote(kernel, access, seconds) for a in actors])
            for place, m in zip(places, got, strict=True):
                rows.append({"phase": phase, "kernel": kernel, "access": access, **place,
                             "evals": m["evals"], "seconds": m["seconds"],
                             "evals_per_sec": m["evals"] / m["seconds"]})
    return rows


def _census(actors: list[Any]) -> dict[str, Any]:
    """The 7-card census split across the actors, merged and checked."""
    import ray

    from pokerarena.evaluator.census import census7_split

    parts = census7_split(len(actors))
    t0 = time.perf_counter()
    got = ray.get([actors[i % len(actors)].census_part.remote(p) for i, p in enumerate(parts)])
    total: Counter = Counter()
    for g in got:
        total.update(g["counts"])
    return {"census_exact": dict(total) == SEVEN_CARD_CENSUS,
            "census_hands": int(sum(total.values())), "census_parts": len(parts),
            "census_seconds": time.perf_counter() - t0,
            "census_busiest_part_seconds": max(g["seconds"] for g in got)}


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals, per node and scaling efficiency from the measurement rows."""
    alone = {(r["kernel"], r["access"]): r["evals_per_sec"] for r in rows
             if r["phase"] == "alone"}
    together = [r for r in rows if r["phase"] == "all"]
    actors = len({(r["node"], r["host"], r["pid"]) for r in together})
    kernels: dict[str, Any] = {}
    per_node: dict[str, dict[str, float]] = {}
    for (kernel, access), one in alone.items():
        mine = [r for r in together if r["kernel"] == kernel and r["access"] == access]
        total = sum(r["evals_per_sec"] for r in mine)
        kernels[f"{kernel}/{access}"] = {
            "one_core_evals_per_sec": one, "total_evals_per_sec": total,
            "per_core_evals_per_sec": total / max(1, len(mine)),
            "efficiency": total / (len(mine) * one) if one else None}
        for r in mine:
            node = per_node.setdefault(r["node"], {})
            node[f"{kernel}/{access}"] = node.get(f"{kernel}/{access}", 0.0) + r["evals_per_sec"]
    head = kernels["high7/random"]
    return {"actors": actors, "nodes": len(per_node),
            "total_evals_per_sec": head["total_evals_per_sec"],
            "efficiency": head["efficiency"], "kernels": kernels, "per_node": per_node}


def write_rows(rows: list[dict[str, Any]], data: str | Path) -> Path:
    """The measurement rows as ``<data>/bench/evaluator/<time>.parquet`` (written under a
    temporary name, then renamed: a reader never sees half a file)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = Path(data) / "bench" / "evaluator"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    path = folder / f"{stamp}-{os.getpid()}.parquet"
    table = pa.Table.from_pylist([{**r, "time": stamp} for r in rows])
    tmp = path.with_suffix(".tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)
    return path


def bench_cluster(address: str | None = None, seconds: float = 1.0,
                  data: str | Path | None = None, max_actors: int | None = None
                  ) -> dict[str, Any]:
    """Run the cluster benchmark (joining ``address``, else the local cluster) and
    return its summary; the rows are written under ``data`` when it is given."""
    import ray

    from pokerarena.platform.executors import init_ray

    owns = init_ray(address)
    try:
        actors, places = _actors(max_actors)
        ray.get([a.prepare.remote() for a in actors])
        rows = _phase(actors[:1], places[:1], "alone", seconds)
        rows += _phase(actors, places, "all", seconds)
        out = {**summarize(rows), **_census(actors), "seconds_per_measure": seconds}
        if data is not None:
            out["rows_file"] = str(write_rows(rows, data))
        for a in actors:
            ray.kill(a)
        return out
    finally:
        if owns:
            ray.shutdown()
