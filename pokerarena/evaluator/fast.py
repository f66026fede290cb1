"""The lookup tables of high hands of 5, 6 and 7 cards and of Omaha, per ranking, as
numba arrays (:func:`tables_for`) and as Python lists for single hands.

A hand's 64-bit key is the sum of its cards' keys (:func:`tables.card_keys`): the low
word identifies the rank multiset, the high word counts suits in nibbles that start at
3, so a nibble reaching 8 means five cards of that suit. Non-flush hands cost one
perfect-hash lookup; flushes (about 3% of 7-card hands) one more pass over the cards.
The batch kernels are :mod:`pokerarena.evaluator.batch`'s, the pieces shared with the
bots' Monte Carlo :mod:`pokerarena.evaluator.kernels`'.
"""

from __future__ import annotations

from pokerarena.evaluator import tables as tbl
from pokerarena.evaluator.kernels import (
    Tables,
)
from pokerarena.evaluator.lookup import (  # noqa: F401 - single-hand lookups, re-exported
    PyTables,
    high_one,
    high_with_board,
    omaha_one,
)
from pokerarena.evaluator.rankings import Ranking

# the tables by ranking parameters (a few MB each): a ranking's tables do not depend
# on the game, only on the ranking, so a sweep of games shares them; bounded all the
# same (the oldest is forgotten) since wild cards and decks make new rankings
_LOADED: dict[bytes, Tables] = {}
LOADED_LIMIT = 16


def tables_for(ranking: Ranking) -> Tables:
    """The tables of a table-friendly ranking, loaded once per process."""
    key = ranking.params.tobytes()
    found = _LOADED.get(key)
    if found is None:
        raw = tbl.load(ranking.params)
        found = Tables(
            tbl.card_keys(), raw["flush"],
            int(raw["shift5"][0]), raw["offsets5"], raw["values5"],
            int(raw["shift6"][0]), raw["offsets6"], raw["values6"],
            int(raw["shift7"][0]), raw["offsets7"], raw["values7"],
            raw["omaha"], raw["omaha_values"], raw["omaha_board"],
            tbl.pair_index().reshape(-1),
            ranking.ranks_only,
        )
        while len(_LOADED) >= LOADED_LIMIT:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = found
    return found


def py_tables(t: Tables) -> PyTables:
    """Python-list copies of ``t`` (cheaper than a numba dispatch for one hand)."""
    return PyTables(
        [int(x) for x in t.card_keys], t.flush.tolist(),
        {5: (t.shift5, t.offsets5.tolist(), t.values5.tolist()),
         6: (t.shift6, t.offsets6.tolist(), t.values6.tolist()),
         7: (t.shift7, t.offsets7.tolist(), t.values7.tolist())},
        t.omaha, t.omaha_values.tolist(), t.omaha_board.tolist(),
        t.pair_index.tolist(), t.ranks_only,
    )


def py_tables_for(ranking: Ranking) -> PyTables:
    """The Python-list tables of a table-friendly ranking, kept on the ranking object."""
    found = ranking.__dict__.get("_py_tables")
    if found is None:
        found = py_tables(tables_for(ranking))
        ranking.__dict__["_py_tables"] = found  # a cache, not part of the frozen value
    return found
