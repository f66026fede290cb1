"""Links under runs/ never lead out of the data directory: the sandboxed query endpoint
refuses a link plus '..' (DuckDB checks the text, the kernel follows the link), a link
to a file or folder outside, and the storage scan never follows a link."""

from __future__ import annotations

import httpx
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pokerarena.platform.api import create_app
from pokerarena.platform.api.security import (
    PolicyError,
    QueryLimits,
    check_sql_paths,
    links_leaving,
    path_problem,
)
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.platform.storage import list_runs, scan_parts

TOKEN = "test-token-symlinks"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SECRET = "the outside secret"


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """A service with one finished run, then links planted under runs/ pointing out."""
    root = tmp_path_factory.mktemp("links")
    data, outside = root / "data", root / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "secret").write_text(SECRET + "\n")
    pq.write_table(pa.table({"secret": [SECRET]}), outside / "secret.parquet")
    app = create_app(data, token=TOKEN, web_dir=None,
                     query_limits=QueryLimits(seconds=5.0, rows=50))
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=60) as client:
        r = client.post("/api/runs", json=small_spec(hands=40, unit_hands=20), headers=AUTH)
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        wait_for(lambda: client.get(f"/api/runs/{run_id}").json()["status"] == "finished", 60)
        run_dir = (data / "runs" / run_id).resolve()
        (run_dir / "lnk").symlink_to(outside / "sub")
        (run_dir / "lnk2").symlink_to(outside)
        (run_dir / "hands" / "unit=evil").mkdir()
        (run_dir / "hands" / "unit=evil" / "part-0.parquet").symlink_to(
            outside / "secret.parquet")
        yield client, run_dir, outside


def _query(client: httpx.Client, sql: str) -> httpx.Response:
    return client.post("/api/query", json={"sql": sql})


@pytest.mark.parametrize("template", [
    "SELECT * FROM read_text('{run}/lnk/../secret')",
    "SELECT * FROM read_text('{run}/lnk2/secret')",
    "SELECT * FROM read_text('{run}/lnk' || '/../secret')",
    "SELECT * FROM read_text(concat('{run}', '/lnk2', '/secret'))",
    "SELECT * FROM read_parquet('{run}/lnk2/secret.parquet')",
    "SELECT * FROM read_parquet('{run}/hands/unit=evil/part-0.parquet')",
    "SELECT * FROM read_csv('{run}/lnk/../secret', header = false)",
    "SELECT * FROM glob('{run}/lnk2/*')",
])
def test_links_out_of_the_data_directory_are_refused(attacked, template):
    client, run_dir, _outside = attacked
    r = _query(client, template.format(run=run_dir))
    assert r.status_code == 400, r.text
    assert SECRET not in r.text


def test_the_views_never_read_through_a_link(attacked):
    client, _run_dir, _outside = attacked
    r = _query(client, "SELECT count(*) AS n FROM hands")
    if r.status_code == 200:  # views over the parts storage.scan_parts lists
        assert r.json()["rows"] == [[40]]
    else:  # views naming the linked part (or a folder): the sandbox refuses to read it
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert "link" in error or ("Permission" in error and "unit=evil" in error), error
    r = _query(client, "SELECT * FROM hands WHERE CAST(unit AS VARCHAR) = 'evil'")
    assert SECRET not in r.text


def test_the_storage_scan_follows_no_link(attacked, tmp_path):
    _client, run_dir, outside = attacked
    scan = scan_parts(run_dir.parent.parent)
    assert all(outside not in p.parents for ps in scan.parts.values() for p in ps)
    assert all("unit=evil" not in str(p) for ps in scan.parts.values() for p in ps)
    assert len(scan.parts["hands"]) == 2  # the run's own parts still read
    # a whole run folder that is a link is not a run at all
    data = tmp_path / "d"
    (data / "runs").mkdir(parents=True)
    (data / "runs" / "elsewhere").symlink_to(run_dir)
    assert list_runs(data) == []
    assert scan_parts(data).parts["hands"] == [] and scan_parts(data, "elsewhere").damaged == []


def test_path_checks(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "f").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert path_problem(str(tmp_path / "real" / "f")) is None
    assert "link" in path_problem(str(tmp_path / "link" / "f"))
    assert "'..'" in path_problem(f"{tmp_path}/real/../real/f")
    assert "'..'" in path_problem("runs\\..\\x")
    check_sql_paths("SELECT 'a/b', 'it''s', 1 WHERE x = 'no path here'")
    with pytest.raises(PolicyError, match="'..'"):
        check_sql_paths(f"SELECT * FROM read_text('{tmp_path}/link/../x')")
    with pytest.raises(PolicyError, match="link"):
        check_sql_paths(f"SELECT * FROM read_text('{tmp_path}/link/f')")
    (tmp_path / "real" / "inner").symlink_to(tmp_path / "real" / "f")
    (tmp_path / "real" / "out").symlink_to("/etc")
    assert links_leaving(tmp_path / "real") == [tmp_path.resolve() / "real" / "out"]
