"""``pokerarena play --variant boston``: N whole games («партия»: 8 simple and 2 double
tours by default) of the built-in bots, each seat's chips per game with a 95% interval,
the same as the library's loop for the same seed; bad input is one line and exit 2.

001_…: «Перед началом игры берется 480 фишек, которые поровну распределяются между
всеми играющими» — a game's result per seat is its chips won or lost."""

from __future__ import annotations

import json
import subprocess

from pokerarena.games import family
from pokerarena.games.play import play_games


def _play(cli: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, "play", "--variant", "boston", *args], capture_output=True,
                          text=True, timeout=300)


def test_play_prints_each_seats_chips_as_the_library_plays_them(pokerarena_cli) -> None:
    args = ("--bots", "count,rule,random,rule", "--hands", "2", "--seed", "5",
            "--option", "simple_tours=2", "--option", "double_tours=1", "--json")
    p = _play(pokerarena_cli, *args)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    games = play_games(family("boston"), {"simple_tours": 2, "double_tours": 1},
                                  ["count", "rule", "random", "rule"], 2, 5)
    assert [s["total"] for s in out["seats"]] == [sum(g[i] for g in games) for i in range(4)]
    assert abs(sum(s["total"] for s in out["seats"])) < 1e-6 * max(
        1.0, max(abs(s["total"]) for s in out["seats"]))
    assert out["games"] == 2 and all(s["ci95"] is not None for s in out["seats"])
    text = _play(pokerarena_cli, *args[:-1])
    assert text.returncode == 0 and "count" in text.stdout and "±" in text.stdout


def test_play_refuses_bad_input_with_one_line(pokerarena_cli) -> None:
    for args in (["--bots", "rule,rule,rule,bogus"], ["--bots", "rule,rule,rule"],
                 ["--bots", "rule,rule,rule,rule", "--hands", "0"],
                 ["--bots", "rule,rule,rule,rule", "--option", "misere=grand"],
                 ["--bots", "rule,rule,rule,rule", "--option", "stake=-3"]):
        p = _play(pokerarena_cli, *args)
        assert p.returncode == 2, (args, p.stderr)
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
