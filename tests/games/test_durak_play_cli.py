"""``pokerarena play --variant durak``: N games of the built-in durak bots as a series
(«в следующей игре сдает карты игрок, который проиграл в предыдущей игре»), each seat's
points (-1 each time it is left the durak); the same seed gives what the library plays;
bad input is one line and exit 2."""

from __future__ import annotations

import json
import subprocess

from pokerarena.games.durak import play_series


def _play(cli: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, "play", "--variant", "durak", *args], capture_output=True,
                          text=True, timeout=300)


def test_play_prints_each_seats_points_as_the_library_plays_them(pokerarena_cli) -> None:
    p = _play(pokerarena_cli, "--bots", "counter,rule,random", "--hands", "6", "--seed",
              "4", "--option", "deck=52", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    games = play_series({"deck": 52}, ["counter", "rule", "random"], 6, seed=4)
    assert [s["total"] for s in out["seats"]] == [sum(g[i] for g in games) for i in range(3)]
    assert out["games"] == 6 and sum(s["total"] for s in out["seats"]) >= -6
    assert all(s["ci95"] is not None for s in out["seats"])
    listed = subprocess.run([*pokerarena_cli, "variants"], capture_output=True, text=True,
                            timeout=300)
    assert "durak" in listed.stdout


def test_play_refuses_bad_input_with_one_line(pokerarena_cli) -> None:
    for args in (["--bots", "rule,bogus"], ["--bots", "rule"], ["--bots", ",".join(["rule"] * 7)],
                 ["--bots", "rule,rule", "--option", "deck=40"],
                 ["--bots", "rule,rule", "--option", "first_move=left"]):
        p = _play(pokerarena_cli, *args)
        assert p.returncode == 2, (args, p.stderr)
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
