"""A corrupt, truncated or mismatched strategy file (another game, other stakes, another
abstraction, another table size) given to ``match``, ``play`` or ``run`` is one line
on stderr and status 2 before any hand is played (issue 27): nothing on stdout, no run
created. A file that fits still plays."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pokerarena.bots.simple.cfr_bot import SHIPPED, read_abstract
from pokerarena.bots.simple.cfr_tree import tree_params
from pokerarena.cli import main
from pokerarena.engine import Game
from pokerarena.engine.keys import game_info_of
from pokerarena.solvers.cfr import solve
from pokerarena.solvers.strategy_file import write_strategy

SHIPPED_DOC = json.loads(Path(SHIPPED).read_text())


def _other_stakes(doc: dict) -> None:
    """A consistent file for fixed-limit hold'em at blinds 2/4 (another game)."""
    options = {"betting": "fixed_limit", "blinds": [2, 4]}
    game = Game("holdem", options)
    blinds, bets, _ = tree_params(game)
    doc.update(options=options, game_key=game_info_of(game)["game_key"])
    doc["tree"].update(blinds=list(blinds), bets=list(bets))


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("mismatch")
    out = {"kuhn": d / "kuhn.json"}
    write_strategy(out["kuhn"], solve("kuhn", iterations=20))
    for name, edit in {
        "stakes": _other_stakes,
        "buckets": lambda doc: doc["abstraction"].update(buckets=[10, 8, 8, 8]),
        "abstraction": lambda doc: doc["abstraction"].update(name="ochs"),
        "rows": lambda doc: doc["tree"].update(rows=1000),
    }.items():
        doc = json.loads(json.dumps(SHIPPED_DOC))
        edit(doc)
        out[name] = d / f"{name}.json"
        out[name].write_text(json.dumps(doc))
    read_abstract(out["stakes"])            # a sound file: only its game is another
    out["truncated"] = d / "truncated.json"
    out["truncated"].write_text(Path(SHIPPED).read_text()[:5000])
    out["fits"] = Path(SHIPPED)
    return out


HOLDEM = ["--variant", "holdem", "--betting", "fixed_limit"]
CASES = [  # (file, game arguments, other seats, what the one line says)
    ("kuhn", HOLDEM, ["call"], r"is a strategy for kuhn \(game \w+\), not for this game "
                               r"\(holdem"),
    ("kuhn", ["--variant", "leduc"], ["call"], "is a strategy for kuhn .* not for this game "
                                                r"\(leduc"),
    ("fits", ["--variant", "leduc"], ["call"], "plays heads-up holdem .* not leduc"),
    ("fits", HOLDEM, ["call", "call"], "not holdem with 3 players"),
    ("stakes", HOLDEM, ["call"], r"plays heads-up holdem \(fixed_limit, game \w+\), not "
                                 r"holdem with 2 players"),
    ("fits", [*HOLDEM, "--option", "blinds=2,4"], ["call"], "plays heads-up holdem"),
    ("buckets", HOLDEM, ["call"], "do not fit together"),
    ("abstraction", HOLDEM, ["call"], "abstraction 'ochs'"),
    ("rows", HOLDEM, ["call"], "with 1000 rows"),
    ("truncated", HOLDEM, ["call"], "truncated or not JSON"),
]


@pytest.mark.parametrize("command", ["match", "play"])
@pytest.mark.parametrize(("name", "game", "others", "message"), CASES)
def test_a_mismatched_file_is_one_line_and_status_2_before_any_hand(
        files, capsys, command, name, game, others, message):
    bots = ",".join([f"cfr:{files[name]}", *others])
    assert main([command, *game, "--bots", bots, "--hands", "3"]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1, err
    assert str(files[name]) in lines[0]
    assert re.search(message, lines[0]), lines[0]


@pytest.mark.parametrize(("name", "options", "message"), [
    ("stakes", {}, "plays heads-up holdem"),
    ("fits", {"blinds": [2, 4]}, "plays heads-up holdem"),
    ("kuhn", {}, "version 1"),
    ("truncated", {}, "truncated or not JSON"),
])
def test_run_refuses_it_before_the_run_is_created(files, tmp_path, capsys, name, options,
                                                  message):
    spec = {"kind": "tournament", "name": "mismatch", "hands": 4, "unit_hands": 2,
            "bots": [f"cfr?path={files[name]}", "call", "random"], "seats": 2,
            "games": [{"variant": "holdem", "betting": "fixed_limit", "options": options}]}
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    data = tmp_path / "data"
    assert main(["run", str(path), "--local", "--data", str(data)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    assert not (data / "runs").exists() or not any((data / "runs").iterdir())


def test_a_file_that_fits_plays(files, capsys):
    assert main(["match", *HOLDEM, "--bots", f"cfr:{files['fits']},call", "--hands", "6",
                 "--json"]) == 0
    assert all(e["faults"] == 0 for e in json.loads(capsys.readouterr().out)["entrants"])
    assert main(["match", "--variant", "kuhn", "--bots", f"cfr:{files['kuhn']},call",
                 "--hands", "6", "--json"]) == 0
    assert all(e["faults"] == 0 for e in json.loads(capsys.readouterr().out)["entrants"])
