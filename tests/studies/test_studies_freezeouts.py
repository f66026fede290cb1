"""Hands per freeze-out, a study metric (issue 15: "deals with no opener (redeals),
hands per freeze-out, and skill separation"): with ``[study] freezeouts = N`` each cell
also plays N winner-take-all freeze-outs of its mix at its rules, and the report gives
how many hands they lasted, with its interval and the comparison with the baseline;
every other metric still reads only the cells' own hands."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pokerarena.platform.api.testing import played
from pokerarena.platform.planner import plan
from pokerarena.platform.query import query
from pokerarena.platform.spec import SpecError, parse_spec
from pokerarena.platform.study_report import study_results

STUDY = {"kind": "study", "name": "fo-depth", "seed": 4, "bots": ["tag", "lag"],
         "hands": 40, "unit_hands": 40, "stack": 40,
         "games": [{"variant": "holdem", "betting": "no_limit",
                    "sweep": {"blinds": [[1, 2], [4, 8]]}}],
         "study": {"freezeouts": 5, "freezeout_rounds": 300,
                   "questions": [{"text": "How long does a freeze-out last?",
                                  "metrics": ["hands_per_freezeout", "pot_bb"]}]}}


def test_the_plan_adds_each_cells_freezeouts_after_its_hands() -> None:
    units = plan(parse_spec(STUDY)).units
    ordinary = [u for u in units if u.freezeout is None]
    fos = [u for u in units if u.freezeout is not None]
    assert [u.match for u in ordinary] == [0, 1]
    assert [u.match for u in fos] == list(range(2, 12))
    assert {u.options["blinds"][0] for u in fos[:5]} == {1}
    assert {u.options["blinds"][0] for u in fos[5:]} == {4}
    assert fos[0].spawn_key == fos[5].spawn_key  # freeze-out t of each cell: one seed
    assert all(u.hands == 300 and u.freezeout["payouts"] == [1.0] for u in fos)


@pytest.mark.parametrize(("change", "message"), [
    ({"study": {"freezeouts": -1}}, "study: "),
    ({"study": {"freezeouts": 10_000}, "games": [{"variant": "holdem", "sweep": {
        "blinds": [[1, 2 * k] for k in range(1, 12)]}}]},
     "study.freezeouts: 10,000 per cell of 11 cells"),
    ({"games": [{"variant": "painted"}], "bots": ["rule", "random"], "stack": None},
     "study.freezeouts: freeze-outs are betting poker's"),
])
def test_bad_freezeout_settings_are_one_clear_error(change: dict, message: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_spec({**STUDY, **change, "study": {**STUDY["study"], **change.get("study", {})}})
    assert message in str(err.value) and "\n" not in str(err.value)


def test_hands_per_freezeout_with_its_interval_and_the_cells_own_hands(tmp_path: Path
                                                                        ) -> None:
    run_id = played(tmp_path, STUDY).run_id
    results = study_results(tmp_path, run_id, exact=False)
    _, lasted = query(tmp_path, "SELECT match, any_value(hands) FROM places GROUP BY 1 "
                      "ORDER BY 1", run_id)
    assert len(lasted) == 10
    by_cell = {m["cell"]: m for m in results["metrics"] if m["metric"] == "hands_per_freezeout"}
    assert sorted(by_cell) == [0, 1]
    for cell in (0, 1):
        xs = [float(h) for m, h in lasted if (m - 2) // 5 == cell]
        mean = sum(xs) / 5
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / 4)
        got = by_cell[cell]
        assert got["value"] == pytest.approx(mean) and got["n"] == 5
        assert got["lo"] < mean < got["hi"] or sd == 0
        assert got["hi"] - got["lo"] == pytest.approx(2 * 1.959964 * sd / math.sqrt(5),
                                                      rel=0.02)
    assert [c["hands"] for c in results["cells"]] == [40, 40]  # freeze-outs set apart
    assert {m["cell"] for m in results["metrics"]} == {0, 1}  # no freeze-out as a cell
    _, own = query(tmp_path, "SELECT count(*) FILTER (WHERE showdown) FROM hands "
                   "WHERE match = 0", run_id)
    rate = next(m for m in results["metrics"] if m["cell"] == 0
                and m["metric"] == "showdown_rate")
    assert rate["value"] == pytest.approx(own[0][0] / 40)  # the cell's own hands only
    assert any(c["metric"] == "hands_per_freezeout" and c["cell"] == 1
               for c in results["comparisons"])
    from pokerarena.studies.report import render

    html = render(results)
    assert "How long does a freeze-out last?" in html and "hands per freeze-out" in html
    assert "hands per freeze-out compares the freeze-outs unpaired" in html  # the summary
