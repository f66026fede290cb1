"""Run specs and the planner: validation messages, expansion, per-unit seeds (no Ray)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pokerarena.platform.planner import plan
from pokerarena.platform.spec import SpecError, load_spec, parse_spec

BASE = {"kind": "tournament", "seed": 3, "bots": ["random", "call"], "seats": 2,
        "hands": 10, "unit_hands": 4, "games": [{"variant": "holdem", "betting": "no_limit"}]}


def spec_with(**changes) -> dict:
    data = json.loads(json.dumps(BASE))
    data.update(changes)
    return data


@pytest.mark.parametrize("path", sorted(Path(__file__).parents[2].glob("examples/*.toml")),
                         ids=lambda p: p.name)
def test_examples_are_valid_specs(path: Path) -> None:
    spec = load_spec(path)
    units = plan(spec).units
    games = 1 if spec.rotation_hands else len(spec.game_configs())  # a mixed game: one match
    # a freeze-out: one unit per tournament, its hands the round limit
    matches = spec.freezeout.tournaments if spec.freezeout else games * len(spec.lineups())
    assert units and sum(u.hands for u in units) == spec.hands * matches
    assert {u.carry_stacks for u in units} == {spec.table_stakes == "carry"}


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"bots": ["random", "nobody"]}, "bots[1]", "unknown bot"),
    ({"hands": 0}, "hands", "greater than or equal to 1"),
    ({"kind": "league"}, "kind", "'match', 'tournament', 'simulation' or 'study'"),
    ({"games": [{"variant": "holdem", "betting": "no_such"}]}, "games[0].betting[0]",
     "not offered"),
    ({"games": [{"variant": "chess"}]}, "games[0].variant[0]", "unknown variant"),
    ({"games": [{"variant": "holdem", "options": {"max_raises": -3}}]},
     "games[0].options.max_raises", "negative"),
    ({"seats": 3}, "seats", "only 2 bots"),
    ({"colour": "red"}, "colour", "unknown field"),
    ({"limits": {"unit_seconds": 0}}, "limits.unit_seconds", "greater than 0"),
    ({"bots": ["random", "os:getcwd"]}, "bots[1]", "is not a class"),
    ({"bots": ["random", "json:JSONDecoder"]}, "bots[1]", "not a bot"),
    ({"bots": ["random", "tag?aggression"]}, "bots[1]", "not key=value"),
])
def test_bad_specs_name_the_field(changes: dict, field: str, words: str) -> None:
    with pytest.raises(SpecError) as info:
        parse_spec(spec_with(**changes))
    message = str(info.value)
    assert message.startswith(f"{field}:"), message
    assert words in message


def test_specs_from_files_may_name_python_paths_and_adapter_urls() -> None:
    """A local spec may seat any bot the registry can build (the HTTP service may not)."""
    spec = parse_spec(spec_with(bots=["pokerarena.bots.simple.call_bot:CallBot",
                                      "http://127.0.0.1:9/bot", "tag?seed=4"], seats=2))
    assert spec.bots[1] == "http://127.0.0.1:9/bot"


def test_tournament_lineups_and_match_game_count() -> None:
    spec = parse_spec(spec_with(bots=["random", "call", "rock"], seats=2))
    assert spec.lineups() == [("random", "call"), ("random", "rock"), ("call", "rock")]
    with pytest.raises(SpecError, match="^games: a match plays one game"):
        parse_spec({"kind": "match", "bots": ["random", "call"], "hands": 5,
                    "games": [{"variant": ["holdem", "omaha"]}]})


def test_plan_is_deterministic_with_distinct_unit_seeds() -> None:
    spec = parse_spec(spec_with(games=[{"variant": ["holdem", "stud7"],
                                        "betting": ["fixed_limit", "pot_limit"],
                                        "sweep": {"max_raises": [3, 4]}}]))
    a, b = plan(spec, "r"), plan(spec, "r")
    assert [u.to_dict() for u in a.units] == [u.to_dict() for u in b.units]
    assert len(a.units) == 8 * 3  # 8 games, 10 hands in units of 4
    assert [u.hands for u in a.units[:3]] == [4, 4, 2]
    assert [u.first_hand for u in a.units[:3]] == [0, 4, 8]
    assert len({u.spawn_key for u in a.units}) == len(a.units)
    assert len({u.unit_id for u in a.units}) == len(a.units)
    # the lineup rotates one seat per shard
    assert [u.bots for u in a.units[:3]] == [("random", "call"), ("call", "random"),
                                            ("random", "call")]
    configs = spec.game_configs()
    assert {c["options"]["max_raises"] for c in configs} == {3, 4}
    assert {(c["variant"], c["betting"]) for c in configs} == {
        (v, b) for v in ("holdem", "stud7") for b in ("fixed_limit", "pot_limit")}


def test_cli_bad_spec_exits_2_naming_the_field(tmp_path: Path, pokerarena_cli) -> None:
    spec = tmp_path / "bad.toml"
    spec.write_text('kind = "match"\nbots = ["random", "call"]\nhands = -5\n'
                    '[[games]]\nvariant = "holdem"\n')
    r = subprocess.run([*pokerarena_cli, "run", str(spec), "--local", "--data",
                        str(tmp_path / "data")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "hands:" in r.stderr and "bad.toml" in r.stderr
    assert "Traceback" not in r.stderr
    not_toml = tmp_path / "broken.toml"
    not_toml.write_text("kind = \n")
    r = subprocess.run([*pokerarena_cli, "run", str(not_toml), "--local"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "not valid TOML" in r.stderr


def test_disconnection_protection_is_a_fault_policy() -> None:
    spec = parse_spec(spec_with(limits={"on_fault": "protect"}))
    assert spec.limits.on_fault == "protect"
    with pytest.raises(SpecError, match="^limits.on_fault:"):
        parse_spec(spec_with(limits={"on_fault": "ignore"}))


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"kind": "match", "format": "gauntlet"}, "format", "a tournament setting, not for a match"),
    ({"kind": "simulation", "rounds": 3}, "rounds", "a tournament setting, not for a "
     "simulation"),
    ({"kind": "study", "stop": {"h0": 0, "h1": 50}}, "stop", "a tournament setting"),
    ({"mixes": [["random", "call"]]}, "mixes", "a study setting, not for a tournament"),
    ({"kind": "match", "study": {}}, "study", "a study setting, not for a match"),
    ({"kind": "simulation", "common_deals": False}, "common_deals",
     "a tournament and study setting, not for a simulation"),
])
def test_a_field_of_another_kind_is_refused_by_the_kinds_model(changes, field, words):
    """Which fields a kind has is stated by its pydantic model (``KIND_SPECS``), each
    field owned by the trait of the kinds that use it (run_kinds.py)."""
    data = spec_with(**changes)
    if data["kind"] != "tournament":
        data.pop("seats")
    with pytest.raises(SpecError) as info:
        parse_spec(data)
    assert str(info.value).startswith(f"{field}: {words}"), str(info.value)


def test_a_kinds_model_holds_exactly_the_fields_its_traits_give():
    from pokerarena.platform.run_kinds import RunKind, traits
    from pokerarena.platform.spec import KIND_FIELDS, KIND_SPECS, RunSpec, spec_json_schema

    for kind in RunKind:
        fields = set(KIND_SPECS[kind].model_fields)
        for name in RunSpec.model_fields:
            owner = KIND_FIELDS.get(name)
            assert (name in fields) == (owner is None or getattr(traits(kind), owner)), name
    schema = spec_json_schema()
    assert schema["discriminator"]["propertyName"] == "kind"
    assert set(schema["discriminator"]["mapping"]) == {k.value for k in RunKind}
    match = schema["$defs"]["MatchSpec"]["properties"]
    assert "format" not in match and match["kind"]["const"] == "match"
    assert "format" in schema["$defs"]["TournamentSpec"]["properties"]


@pytest.mark.parametrize("path", sorted(Path(__file__).parents[2].glob("examples/*.toml")),
                         ids=lambda p: p.name)
def test_a_stored_spec_with_every_default_written_parses_again(path: Path) -> None:
    """A run keeps its spec with every field written, defaults included (its canonical
    JSON, the digest a resume checks): the kind's model must read it back as it was."""
    spec = load_spec(path)
    again = parse_spec(json.loads(spec.canonical()))
    assert again.digest() == spec.digest()


def test_run_schema_prints_the_union_of_the_kinds(pokerarena_cli) -> None:
    from pokerarena.platform.spec import spec_json_schema

    r = subprocess.run([*pokerarena_cli, "run", "--schema"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and json.loads(r.stdout) == spec_json_schema()
    r = subprocess.run([*pokerarena_cli, "run", "--schema", "spec.toml"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and "give no SPEC" in r.stderr and "Traceback" not in r.stderr
