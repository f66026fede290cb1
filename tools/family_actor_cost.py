"""What a game family's Ray actor pays before and for its first unit, measured as the
actor meets it: a fresh interpreter imports the executor and the storage layer,
unpickles a planned unit and plays it (``execute_unit``). Prints one JSON line per
family with the CPU seconds of each part (docs/families.md, "The actor's imports").

Usage: ``python tools/family_actor_cost.py [FAMILY ...] [--games N] [--repeat K]``.
Another commit's code is measured with ``PYTHONPATH=<its worktree>`` (the child
inherits it): the before and after of docs/families.md.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

CHILD = """
import pickle, sys, tempfile, time
t0 = time.process_time()
from pokerarena.workers.table import execute_unit
import pokerarena.platform.storage
unit = pickle.loads(bytes.fromhex(sys.stdin.read()))
t1 = time.process_time()
with tempfile.TemporaryDirectory() as d:
    got = execute_unit(unit, d)
t2 = time.process_time()
print(t1 - t0, t2 - t1, t2, got["hands"])
"""


def measure(family: str, games: int) -> dict[str, float | str | int]:
    """One fresh process: imports (with the unpickling), the first unit, the whole."""
    from pokerarena.bench.families import family_spec
    from pokerarena.platform.planner import plan

    seats = 4 if family == "durak" else 2
    unit = plan(family_spec(family, "rule", seats, 1, games), "actor-cost").units[0]
    out = subprocess.run([sys.executable, "-c", CHILD], input=pickle.dumps(unit).hex(),
                         capture_output=True, text=True, check=True, timeout=600)
    imports, first, whole, hands = out.stdout.split()
    return {"family": family, "games": int(hands), "imports_cpu_s": round(float(imports), 3),
            "first_unit_cpu_s": round(float(first), 3), "process_cpu_s": round(float(whole), 3)}


def main(argv: list[str]) -> int:
    games, repeat, families = 1000, 1, []
    it = iter(argv)
    for arg in it:
        if arg == "--games":
            games = int(next(it))
        elif arg == "--repeat":
            repeat = int(next(it))
        else:
            families.append(arg)
    for _ in range(repeat):
        for family in families or ["red_black", "binocle", "durak"]:
            print(json.dumps(measure(family, games)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
