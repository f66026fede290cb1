"""``pokerarena play --variant painted``: N whole games («партия»: the whole sequence of
deals) of the built-in painted-poker bots, each seat's points; the same seed gives the
same points as the library's loop; bad input is one line and exit 2.

004_…: «Партия состоит из раздач… Выигрывает тот, у кого по окончании партии больше
очков» — the points of a game are its score sheet's last totals."""

from __future__ import annotations

import json
import subprocess

from pokerarena.games.painted.matches import play_games


def _play(cli: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, "play", "--variant", "painted", *args], capture_output=True,
                          text=True, timeout=300)


def test_play_prints_each_seats_points_as_the_library_plays_them(pokerarena_cli) -> None:
    p = _play(pokerarena_cli, "--bots", "rule,random,rule", "--hands", "3", "--seed", "5",
              "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    games = play_games({}, ["rule", "random", "rule"], 3, seed=5)
    assert [s["total"] for s in out["seats"]] == [sum(g[i] for g in games) for i in range(3)]
    assert out["games"] == 3 and all(s["ci95"] is not None for s in out["seats"])
    # the dealer's restriction («сумма заказов не должна равняться числу карт») bites
    # the dealer only: another seed plays other cards and other points
    other = json.loads(_play(pokerarena_cli, "--bots", "rule,random,rule", "--hands", "3",
                             "--seed", "6", "--json").stdout)
    assert other["seats"] != out["seats"]


def test_play_refuses_bad_input_with_one_line(pokerarena_cli) -> None:
    for args in (["--bots", "rule,bogus"], ["--bots", "rule"], ["--bots", "rule,rule",
                 "--hands", "0"], ["--bots", "rule,rule", "--option", "tariff=7"]):
        p = _play(pokerarena_cli, *args)
        assert p.returncode == 2, (args, p.stderr)
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
