"""One leaderboard query serves the API, ``pokerarena show`` and the demo."""

from __future__ import annotations

from pathlib import Path

from pokerarena.commands.runs import show_data
from pokerarena.platform.api.testing import small_spec
from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import LocalExecutor
from pokerarena.platform.query import LEADERBOARD_COLUMNS, as_records, leaderboard_sql, query
from pokerarena.platform.spec import parse_spec

PACKAGE = Path(__file__).resolve().parents[2] / "pokerarena"


def test_the_leaderboard_sql_is_written_once():
    users = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                   if "FROM leaderboard" in p.read_text(encoding="utf-8"))
    assert users == ["platform/query.py"]


def test_show_and_the_query_agree(tmp_path):
    spec = parse_spec(small_spec(hands=40, unit_hands=20, bots=("random", "call")))
    driver = RunDriver.create(spec, tmp_path, LocalExecutor())
    assert driver.run().status == "finished"
    run_id = driver.run_id
    shown = show_data(tmp_path, run_id)["leaderboard"]
    assert [list(r) for r in shown] == [list(LEADERBOARD_COLUMNS)] * 2
    assert shown == as_records(*query(tmp_path, leaderboard_sql(), run_id))
    # over every run, restricted to one: the same rows
    assert shown == as_records(*query(tmp_path, leaderboard_sql(run_id)))
    assert sum(r["hands"] for r in shown) == 2 * 40
