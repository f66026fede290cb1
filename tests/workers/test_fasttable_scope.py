"""The fast table's scope is an allow-list (issue 28): every field of the engine's
``Program`` and of a ``Unit`` is classified, a field nobody classified sends the game to
the reference table, and each rule the kernel plays only switched off is refused when
on."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from pokerarena.engine import Game
from pokerarena.engine.fastholdem import params
from pokerarena.engine.program import Program
from pokerarena.workers import fasttable
from pokerarena.workers.unit import Unit


def _sets_cover_once(names: set[str], groups: list[set[str]]) -> None:
    seen: dict[str, int] = {}
    for group in groups:
        for name in group:
            seen[name] = seen.get(name, 0) + 1
    assert {n for n, k in seen.items() if k > 1} == set(), "a field classified twice"
    assert set(seen) == names, (names - set(seen), set(seen) - names)


def test_every_program_field_is_classified_once():
    _sets_cover_once({f.name for f in dataclasses.fields(Program)},
                     [set(params.READ), set(params.DERIVED), set(params.PLAIN_ONLY),
                      set(params.RIDERS)])
    assert params.unclassified() == ()
    assert set(params.RIDERS.values()) <= set(params.PLAIN_ONLY)


def test_every_unit_field_is_classified_once():
    _sets_cover_once({f.name for f in dataclasses.fields(Unit)},
                     [set(fasttable.UNIT_READ), set(fasttable.UNIT_BOOKKEEPING),
                      set(fasttable.UNIT_OFF_ONLY)])
    assert fasttable.unit_unclassified() == ()


def _off_plain(value):
    """Another value of the same kind (the program's value is plain hold'em's)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, Fraction):
        return value + 1
    if isinstance(value, str):
        return value + "-other"
    if isinstance(value, tuple):
        return tuple(v + 1 for v in value)
    raise AssertionError(f"no other value for {value!r}")


@pytest.mark.parametrize("betting", ["no_limit", "fixed_limit"])
def test_each_plain_only_rule_is_refused_when_on(betting):
    prog = Game("holdem", {"betting": betting}).program
    assert params._table_rules(prog) is None
    for name, what in params.PLAIN_ONLY.items():
        changed = dataclasses.replace(prog, **{name: _off_plain(getattr(prog, name))})
        assert params._table_rules(changed) == what, name


def test_a_field_nobody_classified_sends_every_game_to_the_reference(monkeypatch):
    game = Game("holdem", {"betting": "no_limit"})
    assert params.unsupported(game, 6) is None
    monkeypatch.setattr(params, "READ", params.READ - {"small_bet"})
    params.unclassified.cache_clear()
    try:
        assert params.unsupported(game, 6) == (
            "engine options the fast table does not know: small_bet")
    finally:
        monkeypatch.undo()
        params.unclassified.cache_clear()
    assert params.unsupported(game, 6) is None


def test_each_off_only_unit_feature_is_refused_when_on():
    game = Game("holdem", {"betting": "no_limit"})
    unit = Unit(unit_id="u", index=0, match=0, shard=0, variant="holdem",
                betting="no_limit", options={}, bots=("call", "call"), hands=1,
                first_hand=0, seed=1, spawn_key=(0,))
    on = {"duplicate": True, "carry_stacks": True, "baseline": "call",
          "freezeout": {"levels": []}, "aivat": True}
    assert set(on) == set(fasttable.UNIT_OFF_ONLY)
    for name, value in on.items():
        changed = dataclasses.replace(unit, **{name: value})
        assert fasttable.unsupported(changed, game, []) == fasttable.UNIT_OFF_ONLY[name]
