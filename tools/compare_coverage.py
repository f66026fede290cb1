"""Coverage at truth 0 of ``GET /api/compare``'s interval: two independent runs of the
same bot, each estimated by the standings' ``block_rate`` over deals (heavy-tailed t(5)
deal results, as poker's duplicate pairs are), combined by ``games_view.compare_bots``.

    python tools/compare_coverage.py
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerarena.platform.games_view import compare_bots
from pokerarena.tournaments.estimates import block_rate

REPS = 2000


def one_run(rng: np.random.Generator, deals: int) -> dict[str, Any]:
    x = rng.standard_t(5, deals) * 3.0 + 0.1  # big blinds per deal of 2 hands; same truth
    est = block_rate(list(x), [2] * deals).as_dict(scale=1000.0, digits=1)
    return {"bots": [{"bot": "b", **est}]}


def main() -> None:
    rng = np.random.default_rng(2026)
    for deals in (50, 200, 1000):
        hits = 0
        for _ in range(REPS):
            r = compare_bots(one_run(rng, deals), one_run(rng, deals))[0]
            hits += r["ci95"][0] <= 0 <= r["ci95"][1]
        p = hits / REPS
        half = 1.96 * (p * (1 - p) / REPS) ** 0.5
        print(f"deals {deals}: coverage {p:.3f} ± {half:.3f} over {REPS} reps")


if __name__ == "__main__":
    main()
