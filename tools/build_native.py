"""Compile the table loop's hot modules with mypyc, in place (see pokerarena/native.py).

Usage: ``python tools/build_native.py [--if-stale]``. Needs mypy (the ``native`` extra)
and a C compiler; on success the extension modules sit beside their sources and the
stamp records the sources they were built from. ``--if-stale``: only when the build in
place is missing or was made from other sources. A failed build records its error in
the stamp (:func:`pokerarena.native.build_status`), exits 1, and the test suite reports
it rather than comparing the plain sources with themselves.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Only the compiled modules must type-check; the rest is read for its types. The build
# reads no config file: pyproject.toml's [tool.mypy] (the package-wide check, its
# plugins) is not what the compiled code is built with.
MYPY_FLAGS = ["--config-file=", "--ignore-missing-imports", "--follow-imports=silent"]


def main() -> int:
    os.environ["POKERARENA_PURE"] = "1"  # import the sources while building
    sys.path.insert(0, str(ROOT))
    from pokerarena import native

    if "--if-stale" in sys.argv[1:] and native.build_is_current():
        print("native build: current")
        return 0
    native.STAMP.unlink(missing_ok=True)
    os.chdir(ROOT)
    try:
        from mypyc.build import mypycify
        from setuptools import setup

        paths = [str(native.module_path(m).relative_to(ROOT)) for m in native.MODULES]
        setup(name="pokerarena-native", script_args=["-q", "build_ext", "--inplace"],
              ext_modules=mypycify([*paths, *MYPY_FLAGS], opt_level="3",
                                   group_name=native.GROUP))
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - mypy, the compiler, setup
        error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        native.write_failure(error)
        print(f"native build FAILED: {error}\n(recorded in {native.STAMP}; the tests "
              "report it; plain Python runs meanwhile)", file=sys.stderr)
        return 1
    native.write_stamp()
    print(f"native build: {len(paths)} modules compiled with mypyc")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
