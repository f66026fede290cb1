"""``make demo``'s parts played aside (pokerarena/demo_aside.py): run in another
process while the main line goes on, shown in place, with what they returned; an error
there is the demo's error."""

from __future__ import annotations

import io
import os
import time

import pytest
from rich.console import Console

from pokerarena.demo_aside import Aside


def _part(console: Console, label: str, pause: float = 0.0) -> tuple[int, float]:
    t0 = time.perf_counter()
    time.sleep(pause)
    console.print(f"[bold]{label}[/bold] played")
    return os.getpid(), t0


def _failing(console: Console) -> None:
    console.print("half")
    raise ValueError("the part failed")


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=60, highlight=False), buf


def test_a_part_plays_in_another_process_and_shows_in_place():
    console, buf = _console()
    started = time.perf_counter()
    aside = Aside(console, _part, "painted", pause=0.2)
    console.print("main line")  # goes on at once: the part runs elsewhere
    assert time.perf_counter() - started < 0.2
    time.sleep(3.0)  # the main line's own work
    before_show = time.perf_counter()
    pid, t0 = aside.show(console)
    assert pid != os.getpid()
    assert t0 < before_show  # it started when made, not when shown
    assert buf.getvalue() == "main line\npainted played\n"


def test_two_parts_overlap():
    """Two parts of 2 s each take less than 4 s together (their processes' start
    included)."""
    console, buf = _console()
    t0 = time.perf_counter()
    first = Aside(console, _part, "a", pause=2.0)
    second = Aside(console, _part, "b", pause=2.0)
    first.show(console)
    second.show(console)
    assert time.perf_counter() - t0 < 3.9
    assert buf.getvalue() == "a played\nb played\n"


def test_an_error_there_is_raised_here():
    console, _ = _console()
    aside = Aside(console, _failing)
    with pytest.raises(ValueError, match="the part failed"):
        aside.show(console)
