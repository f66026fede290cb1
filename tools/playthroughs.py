"""Regenerate or check the golden playthroughs (``pokerarena/arena/playthroughs.py``).

Usage: ``python tools/playthroughs.py --write`` rewrites ``tests/data/playthroughs/``
and names the files whose text changed (a change of what a seed plays: say why in the
commit); ``--check`` (the default) only names them and exits 1 if any differ.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pokerarena.arena.playthroughs import files, write

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "data" / "playthroughs"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--write", action="store_true", help="rewrite the files")
    args = p.parse_args()
    if args.write:
        changed = write(FOLDER)
        print(f"{len(changed)} playthrough file(s) written" +
              "".join(f"\n  {c}" for c in changed))
        return 0
    differ = [rel for rel, text in files().items()
              if not (FOLDER / rel).exists() or (FOLDER / rel).read_text() != text]
    print("playthroughs as written" if not differ else
          "playthroughs differ:" + "".join(f"\n  {c}" for c in differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
