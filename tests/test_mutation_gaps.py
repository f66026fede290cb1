"""Tests that a mutation of the code found missing (issue 12): the evaluator's table
cache follows the builder's code, pot limit's maximum on the engine's general betting
path, PHH replay refusing actions after the end of the hand."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from pokerarena.evaluator import ranking, tables

# The evaluator's table cache. -----------------------------------------------------------


def test_the_suite_builds_tables_in_its_own_cache():
    """conftest.py points the cache at a directory of this session, never the shared one."""
    here = tables.cache_dir()
    assert here != Path.home() / ".cache" / "pokerarena"
    assert here.name.startswith("pokerarena-test-cache-")
    assert os.environ["POKERARENA_CACHE"] == str(here)


def test_the_cache_key_follows_the_builders_source(tmp_path, monkeypatch):
    """An edited builder (here: one more line in tables.py) never reads the tables an older
    one built: the key of every ranking's tables changes."""
    params = ranking("high").params
    before = tables.cache_key(params)
    assert tables.cache_key(ranking("short_deck").params) != before
    for i, mod in enumerate(tables.BUILDER_MODULES):
        src = Path(tables.__file__ if mod is None else str(mod.__file__))
        edited = tmp_path / str(i) / src.name
        edited.parent.mkdir()
        edited.write_bytes(src.read_bytes() + b"\n# edited\n")
        target = tables if mod is None else mod
        with monkeypatch.context() as m:
            m.setattr(target, "__file__", str(edited))
            m.setattr(tables, "_DIGEST", [])
            assert tables.cache_key(params) != before, src.name
    monkeypatch.setattr(tables, "_DIGEST", [])
    assert tables.cache_key(params) == before


def test_a_damaged_cached_layout_is_searched_again(tmp_path, monkeypatch):
    monkeypatch.setenv("POKERARENA_CACHE", str(tmp_path))
    monkeypatch.setattr(tables, "_LAYOUTS", {})
    ms = tables.rank_multisets(5)
    keys, values = tables._multiset_values(ms, ranking("high").params, 5)
    shift, offsets, table = tables._perfect_hash(keys, values)
    (path,) = tmp_path.glob("layout-*.npz")
    np.savez(path, shift=np.array([shift]), offsets=np.zeros_like(offsets),
             size=np.array([table.size]))
    monkeypatch.setattr(tables, "_LAYOUTS", {})
    again = tables._perfect_hash(keys, values)
    assert again[0] == shift and np.array_equal(again[1], offsets)
    assert np.array_equal(again[2], table)
