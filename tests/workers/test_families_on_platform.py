"""Every registered game family on the platform, unchanged (issue 18: "so that runs,
tournaments, studies, storage, the API and the dashboards work for them unchanged"):
a small tournament of each family's cheap built-in bots is planned, played through the
workers' family unit, lands its ``hands``/``seats`` rows and the family's own score
record in Parquet read by DuckDB, and ranks in points per game. A family added later is
covered by this test without a line changed here."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pokerarena.games import family, family_ids
from pokerarena.platform.api.testing import played
from pokerarena.platform.query import query
from pokerarena.workers.family_unit import score_scale

SMALL = {"painted": {"max_cards": 2}, "variety": {"deals": 1},
         "boston": {"simple_tours": 1, "double_tours": 0}}
"""Options that keep a game short where the default game is long."""


def _spec(fam_id: str) -> dict:
    fam = family(fam_id)
    seats = fam.players[0]
    bots = ["rule", "random"] + [f"{b}#2" for b in ("rule", "random")][:max(0, seats - 2)]
    return {"kind": "tournament", "name": f"{fam_id}-platform", "seed": 9, "bots": bots,
            "seats": seats, "hands": 2, "unit_hands": 2,
            "games": [{"variant": fam_id, "options": SMALL.get(fam_id, {})}]}


@pytest.mark.parametrize("fam_id", family_ids())
def test_a_family_tournament_lands_its_rows_and_its_record(
        fam_id: str, tmp_path: Path, pokerarena_cli: list[str]) -> None:
    fam = family(fam_id)
    assert fam.record is not None and fam.new_bot is not None and fam.view_json is not None
    spec = _spec(fam_id)
    run_id = played(tmp_path, spec).run_id
    _, hands = query(tmp_path, "SELECT count(*), min(variant), min(bb) FROM hands", run_id)
    assert hands[0] == (2, fam_id, score_scale(fam))  # as many bots as seats: one table
    _, seats = query(tmp_path, "SELECT hand, count(*), count(DISTINCT bot) FROM seats "
                     "GROUP BY hand ORDER BY hand", run_id)
    assert [r[1] for r in seats] == [spec["seats"]] * 2
    _, record = query(tmp_path, f"SELECT count(*), count(DISTINCT game) FROM {fam.record.name}",
                      run_id)
    assert record[0][0] > 0 and record[0][1] == 2
    _, points = query(tmp_path, "SELECT bot, sum(net) / any_value(bb) FROM seats "
                      "JOIN hands USING (unit, match, hand) GROUP BY bot ORDER BY bot", run_id)
    assert {r[0] for r in points} == set(spec["bots"])
    out = subprocess.run([*pokerarena_cli, "leaderboard", run_id, "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(f"{fam_id}: points per game, 95% intervals")
    shown = {line.split()[0]: float(line.split()[1]) for line in lines[2:2 + len(points)]}
    for bot, total in points:
        assert shown[bot] == pytest.approx(total / 2, abs=0.06)  # points per game
