"""Write the tables shipped with the package (``pokerarena/evaluator/shipped``): the
standard high ranking's lookup tables and the perfect-hash layouts every ranking's
tables are built on, compressed.

Usage: ``python tools/ship_tables.py`` after editing their builder (``tables.py``,
``generic.py`` or ``rankings.py``): the files' names carry the builder's digest, so the
old ones are no longer read, and ``tests/evaluator/test_shipped_tables.py`` fails until
this has run. A fresh machine then loads these instead of compiling the builders.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from pokerarena.evaluator import ranking, tables

    shipped = tables.SHIPPED
    shipped.mkdir(exist_ok=True)
    for old in shipped.glob("*.npz"):
        old.unlink()  # nothing shipped may be read while the new ones are built
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["POKERARENA_CACHE"] = tmp
        tables.load(ranking("high").params)
        for built in sorted(Path(tmp).glob("*.npz")):
            with np.load(built) as data:
                arrays = {k: data[k] for k in data.files}
            savez: Any = np.savez_compressed  # (numpy's stub: **arrays as a flag)
            savez(shipped / built.name, **arrays)
            print(f"{built.name}: {(shipped / built.name).stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
