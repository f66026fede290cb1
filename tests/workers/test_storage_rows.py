"""The row layout is declared once (``pokerarena.workers.rows``): the parts a unit writes,
the DuckDB views and ``docs/schema.md`` all agree with the declaration."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pokerarena.platform.api.testing import small_spec
from pokerarena.platform.planner import plan
from pokerarena.platform.query import connect
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import RunStore, part_path
from pokerarena.workers.rows import FAMILY_TABLES, TABLES, render_schema_doc, render_tables
from pokerarena.workers.table import execute_unit

ROOT = Path(__file__).resolve().parents[2]


def test_docs_schema_md_is_what_the_declaration_generates():
    page = (ROOT / "docs" / "schema.md").read_text(encoding="utf-8")
    assert render_schema_doc(page) == page, \
        "regenerate: python -m pokerarena.workers.rows docs/schema.md"
    for table in TABLES.values():
        for c in table.columns:
            assert f"| `{c.name}` | {c.kind} |" in page


def test_render_replaces_only_the_generated_part():
    page = "intro\n" + render_tables().replace("| `pot` | int64 |", "| `pot` | int8 |") + \
        "\noutro\n"
    out = render_schema_doc(page)
    assert out.startswith("intro\n") and out.endswith("\noutro\n")
    assert "| `pot` | int64 |" in out and "| `pot` | int8 |" not in out
    with pytest.raises(ValueError, match="markers"):
        render_schema_doc("no markers here")


@pytest.fixture(scope="module")
def landed(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("rows-data")
    spec = parse_spec(small_spec(hands=12, unit_hands=12, bots=("faulty_bots:RaisingBot",
                                                                 "call")))
    store = RunStore(data, "r1")
    store.create(spec)
    unit = plan(spec, "r1").units[0]
    execute_unit(unit, str(store.run_dir))
    store.append({"event": "unit", "unit": unit.unit_id, "hands": unit.hands})
    return data


def test_written_parts_have_the_declared_schema(landed):
    run_dir = landed / "runs" / "r1"
    for name, table in TABLES.items():
        if name in FAMILY_TABLES:
            continue  # a game family's record: its units write it (test_painted_runs)
        part = pq.read_table(part_path(run_dir, name, "m00000s00000"))
        assert part.schema.remove_metadata().equals(table.schema), name
        assert part.num_rows > 0 or name == "places", name  # places: freeze-outs only


def _describe(con, view: str) -> list[tuple[str, str]]:
    return [(r[0], r[1]) for r in con.execute(f"DESCRIBE {view}").fetchall()]


def test_views_have_the_declared_columns_and_types_with_and_without_parts(landed,
                                                                           tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    full, none = connect(landed, "r1"), connect(empty)
    try:
        for name, table in TABLES.items():
            declared = [(c.name, c.duckdb) for c in table.view_columns]
            assert _describe(full, name) == declared, name
            assert _describe(none, name) == declared, name
            assert none.execute(f"SELECT count(*) FROM {name}").fetchone() == (0,)
    finally:
        full.close()
        none.close()


def test_a_run_record_names_its_folder_relative_to_the_data_dir(landed):
    from pokerarena.platform.storage import list_runs

    info = RunStore(landed, "r1").info()
    assert info.path == "runs/r1" and (landed / info.path).is_dir()
    assert [i.path for i in list_runs(landed)] == ["runs/r1"]
