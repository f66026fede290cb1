"""``bench calibration``: every estimator replayed many times at a known truth.

An interval that claims 95% must cover the truth 95% of the time, in the configuration
users run, at the cases where estimators break: spiky duplicate pairs, equal-strength
bots, deals shared across matches, odd tables, bounded and degenerate scores, optional
stopping. Each *case* replays one estimator ``reps`` times (each replication from its
own seed, at a truth known by construction: two copies of a bot, one bot under two
names, an exact shift) and counts how often the interval covered the truth (or how
often a test declared a winner between equals). The count gets its own 95% binomial
interval (Wilson's), and the case passes when the nominal rate lies within it.

The cases live in the ``calib_*`` modules beside this one (one per estimator family),
each exposing ``CASES``: a list of :class:`Case`. This module only runs and reports them.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pokerarena.studies.metrics import wilson as share_interval

CASE_MODULES: tuple[str, ...] = (
    "pokerarena.bench.calib_blocks",   # finding 1 and 4: shared deals, few odd blocks
    "pokerarena.bench.calib_allin",    # finding 2: all-in settlement of duplicate twins
    "pokerarena.bench.calib_sprt",     # finding 3: intervals and α after a sequential stop
    "pokerarena.bench.calib_study",    # finding 5: the study's skill edge
    "pokerarena.bench.calib_games",    # finding 6: game families' duplicate comparison
    "pokerarena.bench.calib_aivat",    # issue 26: AIVAT at Leduc's exact values
    "pokerarena.bench.calib_exact",    # issue 26: SPRT and ratings at Leduc's exact values
)


@dataclass(frozen=True)
class Coverage:
    """The outcome of one case: ``hits`` of ``reps`` replications covered the truth
    (``kind = "coverage"``) or made the error (``kind = "error_rate"``), against the
    ``nominal`` rate the estimator claims; ``kind = "measured"``: a rate the platform
    claims nothing about (how often ratings find the true order), reported with its
    interval and never failed (its ``nominal`` is ignored)."""

    case: str
    finding: int
    what: str
    kind: Literal["coverage", "error_rate", "measured"]
    nominal: float
    hits: int
    reps: int
    seconds: float = 0.0
    extra: dict[str, Any] | None = None

    @property
    def rate(self) -> float:
        """The measured rate."""
        return self.hits / self.reps if self.reps else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson's 95% interval of the measured rate."""
        return wilson(self.hits, self.reps)

    @property
    def within(self) -> bool:
        """The nominal rate lies within the measured rate's binomial interval."""
        lo, hi = self.interval
        return lo <= self.nominal <= hi

    @property
    def ok(self) -> bool:
        """The nominal rate lies within the measured rate's binomial interval (for an
        error rate: at or above its lower end, as a test may err less than it allows;
        for a coverage: at or below its upper end, as an interval may cover more)."""
        lo, hi = self.interval
        if self.kind == "measured":
            return True
        if self.kind == "error_rate":
            return lo <= self.nominal
        return self.nominal <= hi

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        lo, hi = self.interval
        d: dict[str, Any] = {
            "case": self.case, "finding": self.finding, "what": self.what,
            "kind": self.kind, "nominal": float(self.nominal), "hits": int(self.hits),
            "reps": int(self.reps), "rate": round(float(self.rate), 4),
            "interval95": [round(lo, 4), round(hi, 4)], "ok": bool(self.ok),
            "within": bool(lo <= self.nominal <= hi),
            "seconds": round(self.seconds, 2)}
        if self.kind == "measured":  # no claimed rate to compare with
            d["nominal"] = d["within"] = None
        if self.extra:
            d["extra"] = _plain(self.extra)
        return d


def _plain(x: Any) -> Any:
    """``x`` with numpy scalars and arrays as Python numbers and lists (for JSON)."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    if hasattr(x, "tolist"):
        return x.tolist()
    return x


@dataclass(frozen=True)
class Case:
    """A replayable case: ``run(reps, seed)`` returns its :class:`Coverage` (one or
    more: a case may measure several estimators on the same replications).
    ``default_reps`` is what ``bench calibration`` runs (at least 300); ``quick_reps``
    what the test suite runs to check the case works."""

    name: str
    finding: int
    run: Callable[[int, int], Sequence[Coverage]]
    default_reps: int = 300
    quick_reps: int = 20


def wilson(hits: int, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval of a binomial proportion (the studies' one)."""
    iv = share_interval(hits, n)
    return iv.lo, iv.hi


def all_cases() -> list[Case]:
    """Every case of every ``calib_*`` module, in finding order."""
    cases: list[Case] = []
    for name in CASE_MODULES:
        cases.extend(importlib.import_module(name).CASES)
    return sorted(cases, key=lambda c: (c.finding, c.name))


def run_cases(names: Sequence[str] | None = None, *, reps: int | None = None,
              seed: int = 2026, quick: bool = False,
              progress: Callable[[str], None] | None = None) -> list[Coverage]:
    """Run the cases named (all by default); ``reps`` overrides each case's own count,
    ``quick`` takes each case's ``quick_reps``."""
    cases = all_cases()
    if names:
        known = {c.name for c in cases}
        unknown = [n for n in names if not any(c.name.startswith(n) for c in cases)]
        if unknown:
            from pokerarena.errors import UserError

            raise UserError(f"unknown calibration case(s): {', '.join(unknown)} "
                            f"(known: {', '.join(sorted(known))})")
        cases = [c for c in cases if any(c.name.startswith(n) for n in names)]
    out: list[Coverage] = []
    for c in cases:
        n = reps if reps is not None else (c.quick_reps if quick else c.default_reps)
        if progress is not None:
            progress(f"{c.name}: {n} replications")
        t0 = time.perf_counter()
        results = list(c.run(n, seed))
        dt = time.perf_counter() - t0
        out.extend(Coverage(**{**r.__dict__, "seconds": dt / max(1, len(results))})
                   for r in results)
    return out


def report(results: Sequence[Coverage]) -> dict[str, Any]:
    """The JSON of ``bench calibration``."""
    return {"benchmark": "calibration", "cases": [r.as_dict() for r in results],
            "all_ok": all(r.ok for r in results)}


def table(results: Sequence[Coverage]) -> str:
    """A plain-text table of the results."""
    lines = [f"{'case':44} {'nominal':>7} {'measured':>9} {'95% interval':>17} {'reps':>5}  ok"]
    for r in results:
        lo, hi = r.interval
        nominal = f"{'-':>7}" if r.kind == "measured" else f"{r.nominal:7.3f}"
        lines.append(f"{r.case:44} {nominal} {r.rate:9.3f} "
                     f"  [{lo:.3f}, {hi:.3f}] {r.reps:5d}  {'yes' if r.ok else 'NO'}")
    return "\n".join(lines)
