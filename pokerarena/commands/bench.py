"""``pokerarena bench ...``: benchmarks that print JSON (never run as tests).

``bench`` is a group. Each child benchmark is added by a function
``register_bench(bench_subparsers)``; the ``evaluator`` benchmark lives here, and other
modules join the group by exposing ``register_bench`` and being named in
``BENCH_MODULES`` (dotted module paths), or by calling ``add_benchmark`` before
``register`` runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from collections.abc import Callable

import numpy as np

from pokerarena.commands import UserError

# Modules that add children to the ``bench`` group through register_bench(subparsers).
BENCH_MODULES: tuple[str, ...] = ("pokerarena.commands.runs", "pokerarena.commands.engine")

_EXTRA: list[Callable[[argparse._SubParsersAction], None]] = []


def add_benchmark(register_bench: Callable[[argparse._SubParsersAction], None]) -> None:
    """Add a child of ``bench`` from code: ``register_bench(bench_subparsers)``."""
    if register_bench not in _EXTRA:
        _EXTRA.append(register_bench)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``bench`` group and its children."""
    p = subparsers.add_parser("bench", help="benchmarks (print JSON)",
                              description="Benchmarks; each prints one JSON line with --json.")
    sub = p.add_subparsers(dest="benchmark", metavar="BENCHMARK")
    sub.required = True
    register_bench(sub)
    for name in BENCH_MODULES:
        importlib.import_module(name).register_bench(sub)
    for fn in _EXTRA:
        fn(sub)


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench evaluator``."""
    p = sub.add_parser(
        "evaluator",
        help="hand-evaluator throughput on one core, with native peers on the same hands",
        description="Random-access throughput of evaluate_batch (or evaluate_omaha_batch) "
        "on one core over pre-generated hands, the single-hand call in microseconds, and "
        "phevaluator's raw C call and eval7 on the same hands when they are installed.",
    )
    p.add_argument("--cards", type=int, choices=(5, 6, 7), default=7,
                   help="cards per hold'em hand (default 7; Omaha is always 4 + 5)")
    p.add_argument("--game", choices=("holdem", "omaha"), default="holdem")
    p.add_argument("--hands", type=int, default=1_000_000, metavar="N",
                   help="number of random hands (default 1,000,000)")
    p.add_argument("--repeats", type=int, default=5, metavar="R",
                   help="timed repeats of the batch call; the best is reported (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the hands (default 0)")
    p.add_argument("--no-peers", action="store_true", help="skip phevaluator and eval7")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=run_evaluator)


def run_evaluator(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench evaluator``."""
    if args.hands < 1:
        raise UserError(f"--hands must be at least 1, got {args.hands}")
    if args.repeats < 1:
        raise UserError(f"--repeats must be at least 1, got {args.repeats}")
    if args.seed < 0:
        raise UserError(f"--seed must be a non-negative integer, got {args.seed}")
    result = bench_evaluator(cards=args.cards, game=args.game, hands=args.hands,
                             repeats=args.repeats, seed=args.seed, peers=not args.no_peers)
    if args.json:
        print(json.dumps(result))
    else:
        print(format_result(result))
    return 0


def format_result(r: dict) -> str:
    """Human-readable lines of a ``bench_evaluator`` result."""
    size = "4 hole + 5 board" if r["game"] == "omaha" else f"{r['cards']}-card"
    lines = [
        f"{r['game']} {size} hands: {r['hands']:,} random hands, one core",
        f"  pokerarena evaluate batch : {r['evals_per_sec'] / 1e6:10.1f} M evals/s",
        f"  pokerarena single call    : {r['single_call_us']:10.3f} us",
    ]
    for name, rate in r["peers"].items():
        ratio = r["evals_per_sec"] / rate if rate else float("inf")
        lines.append(f"  {name:<26}: {rate / 1e6:10.2f} M evals/s   (pokerarena {ratio:.1f}x)")
    for name, ok in r.get("peers_agree", {}).items():
        lines.append(f"  ordering agrees with {name}: {'yes' if ok else 'NO'}")
    return "\n".join(lines)


# The evaluator benchmark ----------------------------------------------------------


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


def _best_of(fn: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _one_core() -> None:
    try:
        import numba

        numba.set_num_threads(1)
    except Exception:  # noqa: BLE001 - threading layer unavailable: already one thread
        pass


def bench_evaluator(cards: int = 7, game: str = "holdem", hands: int = 1_000_000,
                    repeats: int = 5, seed: int = 0, peers: bool = True) -> dict:
    """Time the batch and single-hand evaluator, and the peers, on the same hands.

    Returns ``{"cards", "game", "hands", "evals_per_sec", "single_call_us", "peers"}``;
    ``peers`` maps each importable peer to its evaluations per second, and
    ``peers_agree`` says whether each peer orders the first hands exactly as we do.
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
    return result


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
