"""Instructions per hand of the table loop, for callgrind (deterministic, load-free).

``valgrind --tool=callgrind python benchmarks/callgrind_engine.py N`` plays ``N`` hands of
6-max no-limit hold'em between ``call`` bots after a warm-up; run it for two values of
``N`` and divide the difference of the totals by the difference of ``N`` to get the
instructions of one hand without the interpreter's start-up. ``--json`` with ``--pair
N1 N2`` does that itself (needs valgrind on the PATH) and prints one JSON line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile


def play(hands: int) -> None:
    """Play the workload once (the warm-up is a fixed 50 hands)."""
    from pokerarena.arena.session import play_session
    from pokerarena.engine.game import Game

    game = Game("holdem", {"betting": "no_limit"})
    play_session(game, ["call"] * 6, 50, 1)
    if hands:
        play_session(game, ["call"] * 6, hands, 0)


def instructions(hands: int) -> int:
    """Total instructions (Ir) of one run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             sys.executable, __file__, str(hands)],
            capture_output=True, text=True, check=True)
        m = re.search(r"Collected : (\d+)", proc.stderr)
        if m is None:
            raise RuntimeError(proc.stderr[-2000:])
        return int(m.group(1))


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--pair":
        n1, n2 = int(args[1]), int(args[2])
        a, b = instructions(n1), instructions(n2)
        from pokerarena import native
        print(json.dumps({"workload": "holdem no_limit 6-max call bots",
                          "native": native.compiled(), "hands": [n1, n2],
                          "instructions": [a, b],
                          "instructions_per_hand": round((b - a) / (n2 - n1))}))
        return
    play(int(args[0]) if args else 1000)


if __name__ == "__main__":
    main()
