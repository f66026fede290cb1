"""Parts of ``make demo`` played aside, in a forked process, while the main line waits
or keeps both cores busy only in part: painted poker while the shared kernels compile
(one core), AIVAT's match beside Ray's start and the round robin. Each prints into its
own buffer, shown when the main line reaches its place, so the output reads in order.
"""

from __future__ import annotations

import io
import multiprocessing as mp
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from rich.console import Console


def _captured(fn: Callable[..., Any], width: int, terminal: bool, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> tuple[str, Any]:
    """In the child: ``fn(console, *args, **kwargs)`` printing into a buffer; (what it
    printed, what it returned)."""
    buf = io.StringIO()
    out = Console(file=buf, width=width, force_terminal=terminal, highlight=False)
    value = fn(out, *args, **kwargs)
    return buf.getvalue(), value


class Aside:
    """``fn(console, *args, **kwargs)`` started now in a forked process (in this one, at
    :meth:`show`, where fork is not available). Start it before Ray starts: a fork of a
    process with Ray's threads running is not safe."""

    def __init__(self, console: Console, fn: Callable[..., Any], *args: Any,
                 **kwargs: Any) -> None:
        self._call = (fn, console.width, console.is_terminal, args, kwargs)
        self._pool: ProcessPoolExecutor | None = None
        self._future: Future[tuple[str, Any]] | None = None
        if "fork" in mp.get_all_start_methods():
            self._pool = ProcessPoolExecutor(1, mp_context=mp.get_context("fork"))
            self._future = self._pool.submit(_captured, *self._call)

    def show(self, console: Console) -> Any:
        """Wait for it, print what it printed, and return what it returned (its error,
        raised here, if it failed)."""
        try:
            text, value = (self._future.result() if self._future is not None
                           else _captured(*self._call))
        finally:
            self.close()
        console.file.write(text)
        console.file.flush()
        return value

    def close(self) -> None:
        """Stop it if it still runs (the demo was interrupted or failed)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

