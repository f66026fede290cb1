"""``pokerarena play --variant variety``: N whole tours of the built-in variety bots, each
seat's points; the same seed gives the same points as the library's loop; bad input is
one line and exit 2.

001_…: «Полный тур состоит из восьми раздач … По желанию тур можно расширить или
сократить» — a game is a tour (``--option deals=N``), its points the players' accounts."""

from __future__ import annotations

import json
import subprocess

from pokerarena.games import family
from pokerarena.games.play import play_games


def _play(cli: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, "play", "--variant", "variety", *args], capture_output=True,
                          text=True, timeout=300)


def test_play_prints_each_seats_points_as_the_library_plays_them(pokerarena_cli) -> None:
    bots = ["rule", "random", "sim", "rule"]
    p = _play(pokerarena_cli, "--bots", ",".join(bots), "--hands", "2", "--seed", "5",
              "--option", "deals=3", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    games = play_games(family("variety"), {"deals": 3}, bots, 2, seed=5)
    assert [s["total"] for s in out["seats"]] == [sum(g[i] for g in games) for i in range(4)]
    assert out["games"] == 2 and all(s["ci95"] is not None for s in out["seats"])
    assert [s["bot"] for s in out["seats"]] == bots


def test_play_refuses_bad_input_with_one_line(pokerarena_cli) -> None:
    for args in (["--bots", "rule,bogus,rule,rule"], ["--bots", "rule,rule,rule"],
                 ["--bots", "rule,rule,rule,rule", "--hands", "0"],
                 ["--bots", "rule,rule,rule,rule", "--option", "deals=0"],
                 ["--bots", "rule,rule,rule,rule", "--option", "credit=team"],
                 ["--bots", "rule,rule,rule,rule", "--option", "trumps=1"]):
        p = _play(pokerarena_cli, *args)
        assert p.returncode == 2, (args, p.stderr)
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
