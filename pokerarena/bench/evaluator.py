"""The evaluator benchmark: batch and single-hand throughput against the native peers.

Times :func:`pokerarena.evaluator.evaluate_batch` (or the Omaha batch) on one core over
pre-generated random hands, the single-hand call, and, when they are installed,
phevaluator's compiled evaluator and eval7 on the same hands; checks that each peer
orders the hands exactly as we do. ``pokerarena bench evaluator`` prints the result.

A native peer built from its published sources (OMPEval, PHEvaluator's C library: how,
in docs/evaluator.md) is timed through a driver binary given as ``--peer-bin``; nothing
of theirs is in this project, and without the binary nothing changes. The driver's
protocol: ``BIN KIND HANDS_FILE K REPEATS [VALUES_OUT]`` reads raw ``uint8`` rows of
``K`` cards (our card codes; Omaha rows are four hole cards then the board), evaluates
them ``REPEATS`` times in a timed loop and prints one JSON line with
``evals_per_sec`` (the best repeat); with ``VALUES_OUT`` it writes its values as
``uint16`` for the ordering check. ``KIND`` is ``omp`` (OMPEval's ``Hand`` built
from the card codes inside the timed loop, as ours starts from them), ``omp_pre`` (its
``Hand`` objects built before the clock starts: the evaluation alone), ``phe7`` (7
cards), ``phe_omaha`` (Omaha), ``omp_seq`` (every 7-card hand in enumeration order, the
file unused); a driver that lacks a kind exits with status 3 and that kind is left out
(listed in ``unsupported``). The machine being shared, ours and the peer alternate,
several rounds, and the best of each is kept with the load average and the machine
(:func:`machine`) beside it.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from pokerarena.errors import UserError


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """``uint8[n, k]`` random hands of distinct cards from a 52-card deck, seeded."""
    from pokerarena.evaluator.equity import sample_without_replacement

    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    step = 1 << 16
    for start in range(0, n, step):
        m = min(step, n - start)
        out[start:start + m] = sample_without_replacement(rng, 52, k, m)
    return out


def _best_of(fn: Callable[[], object], repeats: int,
             clock: Callable[[], float] = time.perf_counter) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best


def _one_core() -> None:
    try:
        import numba

        numba.set_num_threads(1)
    except Exception:  # noqa: BLE001 - threading layer unavailable: already one thread
        pass


def bench_evaluator(cards: int = 7, game: str = "holdem", hands: int = 1_000_000,
                    repeats: int = 5, seed: int = 0, peers: bool = True,
                    peer_bin: str | None = None, rounds: int = 5,
                    sequential: bool = False) -> dict:
    """Time the batch and single-hand evaluator, and the peers, on the same hands.

    Returns ``{"cards", "game", "hands", "evals_per_sec", "single_call_us", "peers"}``;
    ``peers`` maps each importable peer to its evaluations per second, and
    ``peers_agree`` says whether each peer orders the first hands exactly as we do.
    With ``peer_bin`` (a native driver, see the module docstring) ``native`` holds the
    alternating rounds against it; with ``sequential`` too, ``sequential`` the
    enumeration of every 7-card hand (our census kernel against the driver's).
    """
    from pokerarena.evaluator import (
        evaluate,
        evaluate_batch,
        evaluate_omaha,
        evaluate_omaha_batch,
        ranking,
    )

    _one_core()
    rk = ranking("high")
    omaha = game == "omaha"
    k = 9 if omaha else cards
    arr = random_hands(hands, k, seed)
    if omaha:
        hole = np.ascontiguousarray(arr[:, :4])
        board = np.ascontiguousarray(arr[:, 4:])

        def batch() -> np.ndarray:
            return evaluate_omaha_batch(hole, board, rk)
    else:
        def batch() -> np.ndarray:
            return evaluate_batch(arr, rk)

    ours = np.asarray(batch())  # warm-up: compile, load tables
    batch()
    t = _best_of(batch, repeats)

    n_single = min(hands, 100_000)
    if omaha:
        pairs = [(list(map(int, r[:4])), list(map(int, r[4:]))) for r in arr[:n_single]]
        for h, b in pairs[:100]:
            evaluate_omaha(h, b, rk)

        def single() -> None:
            for h, b in pairs:
                evaluate_omaha(h, b, rk)
    else:
        lists = [list(map(int, r)) for r in arr[:n_single]]
        for c in lists[:100]:
            evaluate(c, rk)

        def single() -> None:
            for c in lists:
                evaluate(c, rk)
    t_single = _best_of(single, 3)

    result: dict = {
        "cards": k,
        "game": game,
        "hands": hands,
        "evals_per_sec": hands / t,
        "single_call_us": 1e6 * t_single / n_single,
        "peers": {},
    }
    if omaha:
        result["hole"], result["board"] = 4, 5
    if peers:
        rates, agree = time_peers(arr, omaha, ours)
        result["peers"] = rates
        result["peers_agree"] = agree
    if peer_bin is not None:
        result["native"] = time_native(peer_bin, arr, omaha, batch, ours, rounds)
        if sequential:
            result["sequential"] = time_sequential(peer_bin, rounds)
    return result


def _native_kinds(omaha: bool, k: int) -> dict[str, str]:
    """Driver kinds for hands of ``k`` cards, by the name reported."""
    if omaha:
        return {"phevaluator_c_omaha": "phe_omaha"}
    if k == 7:
        return {"ompeval": "omp", "ompeval_prebuilt": "omp_pre", "phevaluator_c": "phe7"}
    return {}


UNSUPPORTED = 3  # the driver's exit status for a kind it was not built with


def machine() -> dict:
    """The machine a figure was measured on: CPU model, logical CPUs, kernel."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "logical_cpus": os.cpu_count(), "system": platform.platform()}


def _run_driver(peer_bin: str, kind: str, path: str, k: int,
                values: str | None) -> tuple[float, float] | None:
    """One run of the native driver (best of its three repeats): evaluations per second
    of wall time and of its thread's CPU time (the wall figure when it gives none);
    None when the driver was built without that kind."""
    cmd = [peer_bin, kind, path, str(k), "3"] + ([values] if values else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    if proc.returncode == UNSUPPORTED:
        return None
    if proc.returncode != 0:
        raise UserError(f"--peer-bin {peer_bin} {kind}: exit {proc.returncode}: "
                        f"{proc.stderr.strip()[-300:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    wall = float(out["evals_per_sec"])
    return wall, float(out.get("evals_per_cpu_sec", wall))


def time_native(peer_bin: str, arr: np.ndarray, omaha: bool, batch: Callable[[], object],
                ours: np.ndarray, rounds: int) -> dict:
    """Ours and each native kind alternately, ``rounds`` times: the best of each by wall
    time and by the thread's CPU time (on a shared machine the steadier of the two), our
    ratios to each, whether each orders the hands as we do, and the load average."""
    kinds = _native_kinds(omaha, arr.shape[1])
    n = arr.shape[0]
    best = {name: 0.0 for name in ("pokerarena", *kinds)}
    cpu = dict(best)
    agree: dict[str, bool] = {}
    unsupported: list[str] = []
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="pokerarena-peer-") as tmp:
        path = str(Path(tmp) / "hands.u8")
        np.ascontiguousarray(arr).tofile(path)
        for r in range(rounds):
            # ten calls a round: the first calls of a process pay for fresh output pages
            # (the driver reuses its array), which a virtual machine makes slow
            best["pokerarena"] = max(best["pokerarena"], n / _best_of(batch, 10))
            cpu["pokerarena"] = max(cpu["pokerarena"], n / _best_of(batch, 10, time.thread_time))
            for name, kind in kinds.items():
                if name in unsupported:
                    continue
                values = str(Path(tmp) / f"{kind}.u16") if r == 0 else None
                got = _run_driver(peer_bin, kind, path, arr.shape[1], values)
                if got is None:
                    unsupported.append(name)
                    continue
                best[name] = max(best[name], got[0])
                cpu[name] = max(cpu[name], got[1])
                if values is not None:
                    theirs = np.fromfile(values, dtype=np.uint16)
                    agree[name] = bool(theirs.size == n and _orders_agree(ours, theirs))
    load.append(os.getloadavg()[0])
    for name in unsupported:
        del best[name], cpu[name]
    peers = [nm for nm in kinds if nm not in unsupported]
    return {"binary": peer_bin, "rounds": rounds, "evals_per_sec": best,
            "evals_per_cpu_sec": cpu,
            "ratio": {nm: best["pokerarena"] / best[nm] for nm in peers if best[nm]},
            "cpu_ratio": {nm: cpu["pokerarena"] / cpu[nm] for nm in peers if cpu[nm]},
            "agree": agree, "unsupported": unsupported, "load_avg_1min": load,
            "machine": machine()}


def time_sequential(peer_bin: str, rounds: int) -> dict:
    """Every 7-card hand in enumeration order: our census kernel (value counts of all
    133,784,560 hands) against the driver's ``omp_seq``, alternately, best of each."""
    from pokerarena.cards import deck
    from pokerarena.evaluator import census
    from pokerarena.evaluator.rankings import HIGH

    cards = deck("standard")
    total = 133_784_560
    best = {"pokerarena_census": 0.0, "ompeval": 0.0}
    cpu = dict(best)
    load = [os.getloadavg()[0]]
    for _ in range(rounds):
        got = _run_driver(peer_bin, "omp_seq", "-", 7, None)
        if got is None:
            raise UserError(f"--peer-bin {peer_bin} was built without the omp_seq kind "
                            "that --sequential needs")
        best["ompeval"] = max(best["ompeval"], got[0])
        cpu["ompeval"] = max(cpu["ompeval"], got[1])
        t0, c0 = time.perf_counter(), time.thread_time()
        census._table_counts(HIGH, cards, 7)
        best["pokerarena_census"] = max(best["pokerarena_census"],
                                        total / (time.perf_counter() - t0))
        cpu["pokerarena_census"] = max(cpu["pokerarena_census"],
                                       total / (time.thread_time() - c0))
    load.append(os.getloadavg()[0])
    return {"evals_per_sec": best, "evals_per_cpu_sec": cpu, "load_avg_1min": load,
            "machine": machine()}


def _orders_agree(ours: np.ndarray, theirs: np.ndarray) -> bool:
    """True when ``theirs`` is a strictly monotone relabelling of ``ours`` (either way)."""
    order = np.argsort(ours, kind="stable")
    a = np.diff(ours[order].astype(np.int64))
    b = np.diff(theirs[order].astype(np.int64))
    if not np.array_equal(a == 0, b == 0):
        return False
    return bool(np.all(b[a > 0] > 0) or np.all(b[a > 0] < 0))


def time_peers(arr: np.ndarray, omaha: bool, ours: np.ndarray) -> tuple[dict, dict]:
    """Evaluations per second of each importable peer on the hands of ``arr``.

    phevaluator is timed through its compiled module's functions called with ints (the
    lowest entry point the package exposes); eval7 through ``eval7.evaluate`` on lists
    of ``eval7.Card`` built before the clock starts. eval7 has no Omaha evaluator.
    Also checks, on the first hands, that each peer orders hands exactly as we do.
    """
    n = arr.shape[0]
    rows = [tuple(map(int, r)) for r in arr]
    reps = 2 if n >= 200_000 else 3
    rates: dict = {}
    agree: dict = {}
    check = min(n, 20_000)
    try:
        from phevaluator import _pheval
    except ImportError:
        _pheval = None
    if _pheval is not None:
        if omaha:
            fn = getattr(_pheval, "evaluate_omaha_cards", None)
            # phevaluator takes the five community cards first, then the four hole cards.
            rows_p = [r[4:] + r[:4] for r in rows]
        else:
            fn = getattr(_pheval, f"evaluate_{arr.shape[1]}cards", None)
            rows_p = rows
        if fn is not None:
            def run_phe() -> None:
                for r in rows_p:
                    fn(*r)
            for r in rows_p[:10_000]:
                fn(*r)
            rates["phevaluator"] = n / _best_of(run_phe, reps)
            theirs = np.array([fn(*r) for r in rows_p[:check]], dtype=np.int64)
            agree["phevaluator"] = _orders_agree(ours[:check], theirs)
    if not omaha and arr.shape[1] >= 5:
        try:
            import eval7
        except ImportError:
            eval7 = None
        if eval7 is not None:
            deck = [eval7.Card(s) for s in _card_texts()]
            hands7 = [[deck[c] for c in r] for r in rows]
            ev = eval7.evaluate

            def run_e7() -> None:
                for h in hands7:
                    ev(h)
            for h in hands7[:10_000]:
                ev(h)
            rates["eval7"] = n / _best_of(run_e7, reps)
            theirs = np.array([ev(h) for h in hands7[:check]], dtype=np.int64)
            agree["eval7"] = _orders_agree(ours[:check], theirs)
    return rates, agree


def _card_texts() -> list[str]:
    from pokerarena.cards import card_str

    return [card_str(c) for c in range(52)]
