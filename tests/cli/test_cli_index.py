"""The CLI's command index (issue 28: ``--help`` fast): each command module registers
exactly the commands ``commands/index.py`` gives it, and ``pokerarena --help`` or one
command's parsing imports no other command module and none of the heavy libraries."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

import pytest

from pokerarena.cli import build_parser
from pokerarena.commands.index import COMMANDS, modules


@pytest.mark.parametrize("module", modules())
def test_each_module_registers_what_the_index_says(module):
    sub = argparse.ArgumentParser().add_subparsers()
    importlib.import_module(f"pokerarena.commands.{module}").register(sub)
    registered = {a.dest: a.help for a in sub._choices_actions}
    expected = {name: text for name, (m, text) in COMMANDS.items() if m == module}
    assert registered == expected


def test_the_whole_parser_has_every_command():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices) == list(COMMANDS)


def _imported_after(argv: list[str]) -> dict:
    """The modules a fresh interpreter holds after the CLI parsed ``argv``."""
    code = ("import contextlib, io, json, sys\n"
            "from pokerarena.cli import build_parser\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    try:\n"
            f"        build_parser({argv!r}).parse_args({argv!r})\n"
            "    except SystemExit:\n"
            "        pass\n"
            "print(json.dumps({'modules': sorted(sys.modules), 'help': out.getvalue()}))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


HEAVY = ("numba", "duckdb", "ray", "pyarrow", "fastapi")


def test_top_level_help_imports_no_command_module():
    got = _imported_after(["--help"])
    commands = [m for m in got["modules"] if m.startswith("pokerarena.commands.")]
    assert commands == ["pokerarena.commands.index"]
    assert not [m for m in got["modules"] if m.split(".")[0] in HEAVY]
    for name, (_module, text) in COMMANDS.items():
        assert name in got["help"]
        assert text.replace("%%", "%")[:30] in " ".join(got["help"].split())


def test_one_command_imports_only_its_module():
    got = _imported_after(["run", "--help"])
    commands = {m for m in got["modules"] if m.startswith("pokerarena.commands.")}
    assert commands == {"pokerarena.commands.index", "pokerarena.commands.runs"}
    assert "--resume" in got["help"]
