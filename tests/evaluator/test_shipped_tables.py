"""The evaluator tables shipped with the package are current and exact: a fresh machine
reads them instead of compiling their builders, so a wrong one would mis-rank hands
everywhere, and a stale one would never be read."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.evaluator import ranking, tables

REGENERATE = "run `python tools/ship_tables.py` and commit pokerarena/evaluator/shipped"


def _shipped() -> dict[str, dict[str, np.ndarray]]:
    out = {}
    for path in sorted(tables.SHIPPED.glob("*.npz")):
        with np.load(path) as data:
            out[path.name] = {k: data[k] for k in data.files}
    return out


def test_shipped_tables_carry_the_current_builders_digest():
    """The names say which builder made them: the high ranking's key, and layouts of
    the current builder only (after an edit of tables.py, generic.py or rankings.py
    they are stale, never read, and this fails until they are written again)."""
    names = set(_shipped())
    high = f"high-{tables.cache_key(ranking('high').params)}.npz"
    assert high in names, f"the shipped high tables are stale: {REGENERATE}"
    layouts = {n for n in names if n.startswith("layout-")}
    assert len(layouts) == len(tables.HASH_SIZES), REGENERATE
    assert all(n.startswith(f"layout-{tables.builder_digest()}-") for n in layouts), \
        REGENERATE
    assert names == {high} | layouts


def test_shipped_tables_equal_a_fresh_build(monkeypatch, tmp_path):
    """Built afresh, with nothing shipped and an empty cache, the tables and the
    layouts are the very arrays the package ships."""
    shipped = _shipped()
    monkeypatch.setattr(tables, "SHIPPED", tmp_path / "none")
    monkeypatch.setenv("POKERARENA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(tables, "_LAYOUTS", {})
    params = ranking("high").params
    built = tables.load(params)
    high = shipped[f"high-{tables.cache_key(params)}.npz"]
    assert set(built) == set(high)
    for key, arr in built.items():
        np.testing.assert_array_equal(arr, high[key], err_msg=key)
    for path in (tmp_path / "cache").glob("layout-*.npz"):
        with np.load(path) as data:
            for key in data.files:
                np.testing.assert_array_equal(data[key], shipped[path.name][key])
    assert len(list((tmp_path / "cache").glob("layout-*.npz"))) == len(tables.HASH_SIZES)


def test_an_empty_cache_reads_the_shipped_tables(monkeypatch, tmp_path):
    """With an empty disk cache, the high tables come from the package, built by
    nothing; another ranking's tables are built on the shipped layouts; a disk cache's
    own copy is read before the shipped one."""
    monkeypatch.setenv("POKERARENA_CACHE", str(tmp_path))
    monkeypatch.setattr(tables, "_LAYOUTS", {})
    params = ranking("high").params

    def no_build(*_a: object) -> None:
        raise AssertionError("built although shipped")

    with monkeypatch.context() as m:
        m.setattr(tables, "build", no_build)
        assert tables.load(params)["values7"].size > 0
    with monkeypatch.context() as m:
        m.setattr(tables, "_displace", no_build)  # no layout search: the shipped ones
        assert tables.load(ranking("a5_low").params)["values5"].size > 0
    name = f"high-{tables.cache_key(params)}.npz"
    assert tables.cached_path(name) == tables.SHIPPED / name
    (tmp_path / name).write_bytes((tables.SHIPPED / name).read_bytes())
    assert tables.cached_path(name) == tmp_path / name


@pytest.mark.parametrize("name", ["high-0000000000000000.npz", "layout-x-y.npz"])
def test_a_name_shipped_nowhere_is_the_disk_caches(monkeypatch, tmp_path, name):
    monkeypatch.setenv("POKERARENA_CACHE", str(tmp_path))
    assert tables.cached_path(name) == tmp_path / name
