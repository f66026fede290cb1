"""Pre-flop equity tables for hold'em-like games: the pot share of each of the 169
starting-hand classes against ``n`` random hands, built once from the evaluator.

A table is built by :func:`~pokerarena.bots.strength.fastmc.mc_equity` (``DEALS`` seeded deals
per class; more opponents, fewer deals) for one ranking and deck, lazily per number of
opponents, and cached on disk next to the evaluator's tables (``$POKERARENA_CACHE`` or
``~/.cache/pokerarena``). Classes whose cards the deck lacks (short deck) are NaN.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import numpy as np

from pokerarena.bots.strength import fastmc
from pokerarena.bots.strength.fastmc import SCORE_PREFLOP, Plan, mc_equity
from pokerarena.evaluator import kernels
from pokerarena.evaluator.tables import cache_dir

# The code a table is built by: its cache key is a digest of these sources (and of the
# plan's tables), so an edit to the builder or to the kernels it deals with builds the
# tables again instead of reading stale ones.
BUILDER_FILES: tuple[Path, ...] = (Path(__file__), Path(str(fastmc.__file__)),
                                   Path(str(kernels.__file__)))
_DIGESTS: dict[tuple[Path, ...], str] = {}


def source_digest(files: tuple[Path, ...]) -> str:
    """SHA-256 (16 hex digits) of the names and contents of ``files``, once per
    process."""
    found = _DIGESTS.get(files)
    if found is None:
        h = hashlib.sha256()
        for path in files:
            h.update(path.name.encode())
            h.update(path.read_bytes())
        found = _DIGESTS[files] = h.hexdigest()[:16]
    return found


def deals_for(opponents: int) -> int:
    """Deals per class in the table for ``opponents`` random hands."""
    return 40000 if opponents == 1 else 15000


def class_index(a: int, b: int) -> int:
    """Index (0..168) of a two-card hand's class in a 13x13 grid: pairs on the
    diagonal, suited hands above it (row: high rank), off-suit below."""
    ra, rb = a >> 2, b >> 2
    hi, lo = (ra, rb) if ra >= rb else (rb, ra)
    if hi == lo or (a & 3) == (b & 3):
        return hi * 13 + lo
    return lo * 13 + hi


def class_cards(index: int) -> tuple[int, int]:
    """Two cards of the class ``index`` (suited: both spades; off-suit: spade, heart)."""
    r, c = divmod(index, 13)
    if r == c:
        return r * 4, r * 4 + 1
    if r > c:  # suited
        return r * 4, c * 4
    return c * 4, r * 4 + 1


def build(plan: Plan, opponents: int, deals: int) -> np.ndarray:
    """The table for ``opponents`` random hands (169 pot shares; NaN: not in the deck)."""
    in_deck = set(plan.deck.tolist())
    out = np.full(169, np.nan)
    players = opponents + 1
    fixed = np.zeros((players + 1, 2), dtype=np.uint8)  # the last row: the board
    fixed_len = np.zeros(players + 1, dtype=np.int64)
    fixed_len[0] = 2
    for i in range(169):
        a, b = class_cards(i)
        if a not in in_deck or b not in in_deck:
            continue
        fixed[0] = a, b
        total, used = mc_equity(plan, fixed, fixed_len, 2, 5, 1_000_003 * opponents + i,
                                deals)
        if used:
            out[i] = total / used
    return out


def plan_digest(plan: Plan, files: tuple[Path, ...]) -> Any:
    """A hash of what a plan's tables are built from: the builder's ``files``, the
    deck, the plan's modes and its evaluator tables."""
    h = hashlib.sha1(source_digest(files).encode())
    h.update(plan.deck.tobytes())
    h.update(repr((plan.hi_mode, plan.lo_mode)).encode())
    for t in plan.tables:
        h.update(t.tobytes() if isinstance(t, np.ndarray) else repr(t).encode())
    return h


def _key(plan: Plan, opponents: int) -> bytes:
    h = plan_digest(plan, BUILDER_FILES)
    h.update(f"{opponents}/{deals_for(opponents)}".encode())
    return h.digest()


def table(plan: Plan, opponents: int) -> np.ndarray:
    """The table for ``plan``'s game and ``opponents``: memory, disk, or built."""
    found = plan.memo.get(("preflop", opponents))
    if found is not None:
        return found
    path = cache_dir() / f"preflop-{_key(plan, opponents).hex()[:16]}.npy"
    tab = load_cached(path, (169,))
    if tab is None:
        tab = build(plan, opponents, deals_for(opponents))
        save_cached(path, tab)
    plan.memo[("preflop", opponents)] = tab
    return tab


def load_cached(path: Path, shape: tuple[int, ...]) -> np.ndarray | None:
    """A table from the disk cache; None when it is missing, damaged or of another
    shape (it is then built again)."""
    try:
        tab = np.load(path)
    except (OSError, ValueError):
        return None
    return tab if tab.shape == shape else None


def save_cached(path: Path, tab: np.ndarray) -> None:
    """Write ``tab`` to the disk cache atomically (an unwritable cache only costs a
    rebuild in the next process)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, tab)
        os.replace(tmp, path)
    except OSError:
        pass


# ------------------------------------------------------------------ narrowed ranges
# Heads-up against a range narrowed to the top ``f`` of the holdings by the kernel's
# pre-flop score (fastmc.SCORE_PREFLOP, as the equity bot narrows a raiser's range):
# one column per fraction of the grid, read with linear interpolation.
NARROW_GRID = tuple(round(0.25 + 0.05 * i, 2) for i in range(16))  # 0.25 .. 1.0
NARROW_DEALS = 2500


def build_narrowed(plan: Plan, deals: int = NARROW_DEALS) -> np.ndarray:
    """(169, len(NARROW_GRID)) pot shares against one opponent's narrowed range."""
    in_deck = set(plan.deck.tolist())
    out = np.full((169, len(NARROW_GRID)), np.nan)
    fixed = np.zeros((3, 2), dtype=np.uint8)
    fixed_len = np.array([2, 0, 0], dtype=np.int64)
    for i in range(169):
        a, b = class_cards(i)
        if a not in in_deck or b not in in_deck:
            continue
        fixed[0] = a, b
        for j, f in enumerate(NARROW_GRID):
            total, used = mc_equity(plan, fixed, fixed_len, 2, 5, 2_000_003 * j + i, deals,
                                    frac=np.array([1.0, f]), score_mode=SCORE_PREFLOP,
                                    pilot=1024)
            if used:
                out[i, j] = total / used
    return out


def _narrowed_path(plan: Plan) -> Path:
    h = hashlib.sha1(_key(plan, 1))
    h.update(f"narrowed/{NARROW_GRID}/{NARROW_DEALS}".encode())
    return cache_dir() / f"preflop-narrowed-{h.hexdigest()[:16]}.npy"


def prepare_narrowed(plan: Plan) -> np.ndarray:
    """The narrowed-range table: memory, disk, or built (about a second)."""
    found = plan.memo.get(("preflop-narrowed",))
    if found is not None:
        return found
    path = _narrowed_path(plan)
    tab = load_cached(path, (169, len(NARROW_GRID)))
    if tab is None:
        tab = build_narrowed(plan)
        save_cached(path, tab)
    plan.memo[("preflop-narrowed",)] = tab
    return tab


def narrowed_equity(plan: Plan, hole: tuple[int, ...] | list[int],
                    fraction: float) -> float | None:
    """Pot share of a two-card ``hole`` against one opponent holding the top
    ``fraction`` of the holdings; None until :func:`prepare_narrowed` ran (a decision
    never builds the table) or for a fraction below the grid."""
    tab = plan.memo.get(("preflop-narrowed",))
    if tab is None or fraction < NARROW_GRID[0]:
        return None
    x = (min(fraction, 1.0) - NARROW_GRID[0]) / 0.05
    j = min(int(x), len(NARROW_GRID) - 2)
    w = x - j
    row = tab[class_index(hole[0], hole[1])]
    return float((1.0 - w) * row[j] + w * row[j + 1])


def preflop_equity(plan: Plan, hole: tuple[int, ...] | list[int], opponents: int) -> float:
    """Pot share of a two-card ``hole`` against ``opponents`` random hands."""
    return float(table(plan, opponents)[class_index(hole[0], hole[1])])
