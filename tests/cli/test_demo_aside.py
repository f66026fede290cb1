"""``make demo``'s parts played aside (pokerarena/demo_aside.py): run in another
process while the main line goes on, shown in place, with what they returned; an error
there is the demo's error."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest
from rich.console import Console

from pokerarena.demo_aside import Aside


def _wait_for(path: Path, tries: int = 600) -> bool:
    """Whether ``path`` appears, looked for ``tries`` times 0.05 s apart (a bound on a
    test that would otherwise hang, not a measure of speed)."""
    for _ in range(tries):
        if path.exists():
            return True
        time.sleep(0.05)
    return False


def _part(console: Console, label: str, mine: str, other: str | None = None
          ) -> tuple[int, bool]:
    """Leave the file ``mine``; with ``other``, wait for that part's file (only two
    parts running at once both see the other's); (this process, whether it did)."""
    Path(mine).touch()
    met = _wait_for(Path(other)) if other else True
    console.print(f"[bold]{label}[/bold] played")
    return os.getpid(), met


def _failing(console: Console) -> None:
    console.print("half")
    raise ValueError("the part failed")


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=60, highlight=False), buf


def test_a_part_plays_in_another_process_and_shows_in_place(tmp_path):
    console, buf = _console()
    mark = tmp_path / "painted"
    aside = Aside(console, _part, "painted", str(mark))
    console.print("main line")  # goes on: the part runs elsewhere
    assert _wait_for(mark)  # it started when made, before anything showed it
    pid, _ = aside.show(console)
    assert pid != os.getpid()
    assert buf.getvalue() == "main line\npainted played\n"


def test_two_parts_play_at_once(tmp_path):
    """Each part waits for the other's file: both see it only when they run at the
    same time, not one after the other."""
    console, buf = _console()
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    first = Aside(console, _part, "a", a, b)
    second = Aside(console, _part, "b", b, a)
    assert first.show(console)[1] and second.show(console)[1]
    assert buf.getvalue() == "a played\nb played\n"


def test_an_error_there_is_raised_here():
    console, _ = _console()
    aside = Aside(console, _failing)
    with pytest.raises(ValueError, match="the part failed"):
        aside.show(console)
