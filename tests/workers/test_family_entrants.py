"""Any game family's run on the platform, beyond painted poker: a tournament of a
four-seat family with three built-in bots (a second entrant plays one of them, named
``rule#2``), and the score record printed by ``pokerarena sheet`` for a family whose
record is not painted's sheet."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pokerarena.games import entrant_bot, family
from pokerarena.platform.api.testing import played
from pokerarena.platform.query import query
from pokerarena.platform.score_sheets import score_sheet
from pokerarena.platform.spec import SpecError, parse_spec

VARIETY = {"kind": "tournament", "name": "variety-entrants", "seed": 3,
           "bots": ["rule", "random", "rule#2", "random#2"], "seats": 4, "hands": 2,
           "unit_hands": 2, "games": [{"variant": "variety", "options": {"deals": 1}}]}


def test_an_entrant_label_names_the_bot_it_plays() -> None:
    assert entrant_bot("rule#2") == "rule"
    assert entrant_bot("rule") == "rule"
    assert entrant_bot("rule#x") == "rule#x"  # not a copy number: the name as given


def test_a_label_of_a_bot_the_family_lacks_is_refused() -> None:
    with pytest.raises(SpecError, match=r"bots\[2\]: 'tag#2' is not a variety bot"):
        parse_spec({**VARIETY, "bots": ["rule", "random", "tag#2", "random#2"]})


def test_four_seats_from_three_bots_play_and_keep_their_labels(tmp_path: Path,
                                                               pokerarena_cli: list[str]
                                                               ) -> None:
    driver = played(tmp_path, VARIETY)
    _, seats = query(tmp_path, "SELECT DISTINCT bot FROM seats ORDER BY 1", driver.run_id)
    assert [r[0] for r in seats] == ["random", "random#2", "rule", "rule#2"]
    _, totals = query(tmp_path, "SELECT sum(net) FROM seats GROUP BY hand", driver.run_id)
    assert len(totals) == 2
    text = score_sheet(tmp_path, driver.run_id)
    lines = text.splitlines()
    assert lines[0].startswith(f"{driver.run_id} unit ") and "rule#2" in lines[1]
    record_columns = [c[0] for c in family("variety").record.columns]  # type: ignore[union-attr]
    assert lines[2].split() == record_columns  # the record's own columns, in order
    _, record = query(tmp_path, "SELECT count(*) FROM variety_deals WHERE game = 0 AND "
                      "unit = (SELECT min(unit) FROM variety_deals)", driver.run_id)
    assert len(lines) - 3 == record[0][0]  # one printed line per record row
    out = subprocess.run([*pokerarena_cli, "sheet", driver.run_id, "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == text
