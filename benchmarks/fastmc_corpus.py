"""Record every ``fastmc.mc_kernel`` call of a few seeded units (arguments and results),
and time the recorded calls per mode: the corpus that ``tests/bots/test_fastmc_identity.py``
replays (the kernel's results must never change), and the kernel's figures.

    .venv/bin/python benchmarks/fastmc_corpus.py record tests/data/fastmc_corpus.npz [OLD.py]
    .venv/bin/python benchmarks/fastmc_corpus.py time tests/data/fastmc_corpus.npz [OLD.py]
    .venv/bin/python benchmarks/fastmc_corpus.py synthetic - [OLD.py]

(``OLD.py``: another copy of fastmc.py, timed alongside, turn about.)

The units (hold'em at 2/3/6/9 seats, no/pot/fixed limit, the equity bot among others,
Omaha, Omaha hi-lo, seven-card stud, razz, short deck, and the kernel's other ranking
modes: Cincinnati's and Lame Brain Pete's bit-mask highs, three-card, wild-card stud)
are :data:`UNITS`; a plan is named by its game (:func:`plans`), so a replay rebuilds
its tables. The corpus was recorded by the kernel as it was before it was tuned (the
``OLD.py`` of ``record``: ``git show 07bfa32:pokerarena/bots/strength/fastmc.py``).
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections import Counter
from typing import Any

import numpy as np

from pokerarena.bots.strength import fastmc
from pokerarena.workers.records import GameCache, play_unit
from pokerarena.workers.unit import Unit

# (variant, betting, bots, hands): each played once from seed 2026
UNITS: tuple[tuple[str, str, tuple[str, ...], int], ...] = (
    ("holdem", "no_limit", ("tag", "lag", "rock", "equity", "tag", "lag"), 120),
    ("holdem", "no_limit", ("equity", "tag"), 150),
    ("holdem", "pot_limit", ("equity", "lag", "rock"), 100),
    ("holdem", "fixed_limit", ("equity",) * 9, 40),
    ("holdem", "no_limit", ("equity", "equity", "lag", "equity", "rock", "call"), 60),
    ("omaha", "pot_limit", ("tag", "equity", "lag", "rock"), 40),
    ("omaha_hilo", "pot_limit", ("equity", "tag", "lag"), 30),
    ("stud7", "fixed_limit", ("equity", "tag", "lag", "rock"), 30),
    ("stud7_hilo", "fixed_limit", ("equity", "tag", "lag"), 20),
    ("razz", "fixed_limit", ("equity", "tag", "rock"), 20),
    ("holdem_short", "no_limit", ("equity", "tag", "lag"), 40),
    ("cincinnati", "fixed_limit", ("equity", "tag", "lag"), 20),
    ("three_card", "fixed_limit", ("equity", "tag", "lag"), 30),
    ("lame_brain_pete", "fixed_limit", ("equity", "tag", "rock"), 15),
    ("crisscross", "fixed_limit", ("equity", "tag", "lag"), 15),
    ("stud7_low_hole_wild", "fixed_limit", ("equity", "tag", "lag"), 15),
)
NSCALAR = 11  # players, hole_final, board_final, seed, max_total, min_total, batch, nth,
# score_mode, pilot, plan


def unit(variant: str, betting: str, bots: tuple[str, ...], hands: int) -> Unit:
    """A study's first-shard unit (as ``bench simulation`` makes it), seed 2026."""
    return Unit(unit_id="fastmc-corpus", index=0, match=0, shard=0, variant=variant,
                betting=betting, options={"betting": betting}, bots=bots, hands=hands,
                first_hand=0, seed=2026, spawn_key=(0, 0), run_id="fastmc-corpus",
                record="hands")


def plan_key(deck: np.ndarray, T: np.ndarray, A: np.ndarray, om: np.ndarray) -> str:
    """A plan's identity: the digest of its deck and packed tables."""
    h = hashlib.sha256()
    for a in (deck, T, A, om):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def plans(variants: Any) -> dict[str, tuple[np.ndarray, ...]]:
    """The kernel's plan arguments ``(deck, T, A, om)`` of each variant's strength bots,
    by :func:`plan_key`."""
    from pokerarena.bots.strength.estimate import Profile
    from pokerarena.engine import Game

    out: dict[str, tuple[np.ndarray, ...]] = {}
    for v in variants:
        plan = Profile(Game(v)).plan
        assert plan is not None
        args = (plan.deck, *plan.packed)
        out[plan_key(*args)] = args
    return out


class Recorder:
    """Wraps ``fastmc.mc_kernel``: each call's arguments (copied: a bot reuses its
    ``frac``) and results."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.keys: dict[int, str] = {}
        self.inner = fastmc.mc_kernel

    def __call__(self, *a: Any) -> Any:
        out = self.inner(*a)
        key = self.keys.get(id(a[18]))
        if key is None:
            key = self.keys[id(a[18])] = plan_key(a[17], a[18], a[19], a[20])
        players = int(a[1])
        ints = (players, *a[2:8], int(a[9]), int(a[15]), int(a[16]))
        floats = (a[8], *a[10:14])
        frac = np.array(a[14][:players], dtype=np.float64)
        self.calls.append((bytes(a[0]), ints, floats, frac, key, out))
        return out


def record(scale: float = 1.0, inner: Any = None) -> list[tuple[Any, ...]]:
    """Play :data:`UNITS` with the kernel wrapped; the calls (each game's pre-flop
    tables built first, unrecorded: a hand of each unit)."""
    cache = GameCache()
    for variant, betting, bots, _ in UNITS:
        play_unit(unit(variant, betting, bots, 1), cache, fast=False)
    rec = Recorder()
    if inner is not None:  # another copy's kernel answers (see main)
        rec.inner = inner
    saved = fastmc.mc_kernel
    fastmc.mc_kernel = rec  # type: ignore[assignment]
    try:
        for variant, betting, bots, hands in UNITS:
            out = play_unit(unit(variant, betting, bots, max(1, int(hands * scale))), cache,
                            fast=False)  # the reference table: its calls are Python calls
            # a bot's error is a fault, not an exception: none may hide a failing kernel
            if out.tables["faults"].num_rows:
                raise RuntimeError(f"{variant}: the bots faulted while recording")
    finally:
        fastmc.mc_kernel = saved
    return rec.calls


def save(path: str, calls: list[tuple[Any, ...]]) -> None:
    """The calls as one compressed ``.npz``: flat cards and fractions concatenated
    (``players`` of each call), numbers in columns, plans by variant name."""
    keys = plans(sorted({u[0] for u in UNITS}))
    names = {k: i for i, k in enumerate(keys)}
    variants = []
    for k in keys:
        variants.append(k)
    flat = np.frombuffer(b"".join(c[0] for c in calls), dtype=np.uint8)
    flat_len = np.array([len(c[0]) for c in calls], dtype=np.uint8)
    ints = np.array([c[1] for c in calls], dtype=np.int64)
    seeds = ints[:, 3].astype(np.uint32)
    small = np.delete(ints, 3, axis=1).astype(np.int16)
    floats = np.array([c[2] for c in calls], dtype=np.float64)
    frac = np.concatenate([c[3] for c in calls])
    plan = np.array([names[c[4]] for c in calls], dtype=np.uint8)
    total = np.array([c[5][0] for c in calls], dtype=np.float64)
    counts = np.array([c[5][1:] for c in calls], dtype=np.int32)
    np.savez_compressed(path, flat=flat, flat_len=flat_len, small=small, seeds=seeds,
                        floats=floats, frac=frac, plan=plan, total=total, counts=counts,
                        plan_keys=np.array(variants))


def load(path: str) -> tuple[list[tuple[Any, ...]], np.ndarray, np.ndarray]:
    """The calls of :func:`save` as kernel argument tuples (the plans rebuilt from the
    games of :data:`UNITS`, checked by key), the totals and the (used, dealt) counts."""
    z = np.load(path)
    known = plans(sorted({u[0] for u in UNITS}))
    table = [known[str(k)] for k in z["plan_keys"]]
    ends = np.cumsum(z["flat_len"].astype(np.int64))
    flat = z["flat"].tobytes()
    small = z["small"].astype(np.int64)
    ints = np.insert(small, 3, z["seeds"].astype(np.int64), axis=1)
    floats = z["floats"]
    frac_all = z["frac"]
    calls = []
    f0 = 0
    pos = 0
    for i in range(ints.shape[0]):
        r = ints[i].tolist()
        players = r[0]
        frac = np.ones(16, dtype=np.float64)
        frac[:players] = frac_all[f0:f0 + players]
        f0 += players
        fl = floats[i].tolist()
        cards = flat[pos:ends[i]]
        pos = int(ends[i])
        calls.append((cards, players, *r[1:7], fl[0], r[7], *fl[1:5], frac, r[8], r[9],
                      *table[int(z["plan"][i])]))
    return calls, z["total"], z["counts"]


SYNTHETIC = ("holdem", "holdem_short", "omaha", "omaha_hilo", "cincinnati", "crisscross",
             "stud7")


def synthetic_calls(n: int = 60, seed: int = 11) -> list[tuple[Any, ...]]:
    """Kernel calls of random spots that the bots' units make seldom, ``n`` a game of
    :data:`SYNTHETIC`: suited boards (flushes while a range is narrowed), narrow ranges
    (most deals redealt), two to five players, up to four thresholds, a few dead cards;
    the arguments of :func:`load`'s calls."""
    import random

    from pokerarena.bots.strength.estimate import Profile
    from pokerarena.engine import Game

    rng = random.Random(seed)
    calls: list[tuple[Any, ...]] = []
    for v in SYNTHETIC:
        prof = Profile(Game(v))
        plan = prof.plan
        assert plan is not None
        hole, board_final = prof.hole_final, prof.board_final
        for i in range(n):
            players = 2 + i % 4
            deck = list(prof.deck_list)
            rng.shuffle(deck)
            if board_final and rng.random() < 0.6:  # a board of mostly one suit
                suit = rng.randrange(4)
                late = [(c & 3) != suit or rng.random() < 0.3 for c in deck]
                deck = ([c for c, x in zip(deck, late, strict=True) if not x]
                        + [c for c, x in zip(deck, late, strict=True) if x])
            nb = (0, 3, 4, 5)[(i // 4) % 4] if board_final else 0
            board, rest = deck[:nb], deck[nb:]
            rng.shuffle(rest)
            known = (0 if board_final else min(hole - 1, 2 + i % 3))
            rows = [rest[:hole if board_final else known]]
            rest = rest[len(rows[0]):]
            for _ in range(1, players):
                up = 0 if board_final else known - 2 if known > 2 else 0
                rows.append(rest[:up])
                rest = rest[up:]
            dead = rest[:i % 3] if not board_final else []
            frac = np.ones(16, dtype=np.float64)
            frac[1:players] = [rng.uniform(0.12, 0.95) for _ in range(players - 1)]
            score = (2 if nb >= 3 else 1 if board_final and hole == 2 and "omaha" not in v
                     else 0)
            nth = i % 5
            t = sorted(rng.uniform(0.1, 0.9) for _ in range(4))
            calls.append((fastmc.pack(rows, board, dead), players, hole, board_final,
                          rng.getrandbits(31), 200 + 100 * (i % 3), 16, 8, 2.0, nth, *t,
                          frac, score, 48 if i % 7 else 20, plan.deck, *plan.packed))
    return calls


def replay(calls: list[tuple[Any, ...]]) -> list[tuple[float, int, int]]:
    """Each call rerun on the kernel (the module's workspace)."""
    k: Any = fastmc.mc_kernel
    ws = fastmc._WS
    return [k(*c, ws) for c in calls]


def results_digest(total: Any, counts: Any) -> str:
    """A digest of the calls' results (totals' exact bits, counts)."""
    h = hashlib.sha256(np.asarray(total, dtype=np.float64).tobytes())
    h.update(np.asarray(counts, dtype=np.int64).tobytes())
    return h.hexdigest()[:20]


def mode_of(call: tuple[Any, ...]) -> tuple[str, int, int]:
    """(heads-up or multi-way, the score mode, the plan's hi mode): a call's group."""
    players, score, T = call[1], call[15], call[18]
    return ("hu" if players == 2 else "multi", score, int(T[5]))


def timing(calls: list[tuple[Any, ...]], kernels: dict[str, Any],
           repeats: int = 7) -> dict[Any, dict[str, float]]:
    """µs per call per group and kernel, the best of ``repeats`` passes over each group,
    the kernels taking turns within each pass (a change of the machine's load falls
    on all alike)."""
    ws = fastmc._WS
    groups: dict[Any, list[tuple[Any, ...]]] = {}
    for c in calls:
        groups.setdefault(mode_of(c), []).append(c)
    out: dict[Any, dict[str, float]] = {}
    for g, cs in sorted(groups.items()):
        best = dict.fromkeys(kernels, float("inf"))
        for _ in range(repeats):
            for name, k in kernels.items():
                t0 = time.perf_counter()
                for c in cs:
                    k(*c, ws)
                best[name] = min(best[name], time.perf_counter() - t0)
        out[g] = {name: round(1e6 * b / len(cs), 2) for name, b in best.items()}
    return out


def kernel_of(path: str) -> Any:
    """The ``mc_kernel`` of another copy of fastmc.py (an older version, to compare)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("fastmc_other", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # (numba's cache finds its functions' module by name)
    spec.loader.exec_module(mod)
    return mod.mc_kernel


def main(argv: list[str]) -> None:
    what, path = argv[1], argv[2]
    if what == "record":  # (with OLD.py: the calls answered by that copy's kernel)
        calls = record(inner=kernel_of(argv[3]) if len(argv) > 3 else None)
        save(path, calls)
        print(len(calls), "calls", sorted(Counter((c[1][0], c[1][8]) for c in calls).items()))
        return
    if what == "synthetic":  # the digest of the synthetic calls' results
        got = replay(synthetic_calls())
        if len(argv) > 3:
            k = kernel_of(argv[3])
            got = [k(*c, fastmc._WS) for c in synthetic_calls()]
        print(results_digest([g[0] for g in got], [g[1:] for g in got]),
              sorted(Counter((c[1], c[15]) for c in synthetic_calls()).items()))
        return
    calls, total, counts = load(path)
    got = replay(calls)
    same = all(g[0] == t and g[1] == c[0] and g[2] == c[1]
               for g, t, c in zip(got, total.tolist(), counts.tolist(), strict=True))
    print(len(calls), "calls; results identical:", same, "digest",
          results_digest(total, counts))
    if what == "time":
        kernels = {"now": fastmc.mc_kernel}
        if len(argv) > 3:  # another fastmc.py to compare with
            kernels = {"other": kernel_of(argv[3]), **kernels}
        groups = Counter(mode_of(c) for c in calls)
        for g, us in timing(calls, kernels).items():
            print(g, groups[g], "calls, us/call:", us)


if __name__ == "__main__":
    main(sys.argv)
