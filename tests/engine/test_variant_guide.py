"""docs/variants.md and its two worked examples (examples/variants/): both variants play
hand by hand and with bots through the CLI; ``pokerarena variants --schema`` and
``--check``; the guide documents every field of every model of the variant file and
every game option (so it cannot silently fall behind the models)."""

from __future__ import annotations

import copy
import inspect
import json
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
from handplay import deal
from pydantic import BaseModel

from pokerarena.cards import parse_cards
from pokerarena.engine import (
    CHECK_CALL,
    DEALER,
    FOLD,
    Game,
    IllegalAction,
    bet_to,
    discard,
)
from pokerarena.engine.options import GameOptions
from pokerarena.rules import VariantError, load_variant, load_variant_data
from pokerarena.rules import model as rules_model

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "variants.md"
PINEAPPLE = ROOT / "examples" / "variants" / "pineapple.toml"
COURCHEVEL = ROOT / "examples" / "variants" / "courchevel_hilo.toml"
EXAMPLES = (PINEAPPLE, COURCHEVEL)
SHIPPED = sorted((ROOT / "pokerarena" / "rules" / "variants").glob("*.toml"))


def run(cli, *args):
    return subprocess.run([*cli, *args], capture_output=True, text=True, timeout=300)


def manual(path, n, **options):
    """A hand of the variant file at ``path`` dealt by hand, ``n`` seats of 100 chips,
    the button on the last seat."""
    game = Game(str(path), {"dealing": "manual", **options})
    return game.new_hand(0, n, [100] * n, button=n - 1)



# The worked examples, hand by hand ---------------------------------------------------

def test_pineapple_file_is_three_down_then_a_discard_without_replacement():
    v = load_variant(PINEAPPLE)
    assert v.id == "pineapple" and v.hole_cards == 3 and v.board_cards == 5
    kinds = [s.kind for s in v.streets]
    assert kinds == ["deal", "bet", "deal", "draw", "bet", "deal", "bet", "deal", "bet"]
    draw = v.streets[3]
    assert (draw.min, draw.max, draw.replace) == (1, 1, False)
    assert v.streets[2].board == 3   # the discard comes after the flop's deal


def test_pineapple_hand_by_hand():
    hand = manual(PINEAPPLE, 3)
    assert hand.stacks() == [99, 98, 100]                  # blinds 1 and 2
    deal(hand, "AsAhKd", "QsQd2c", "9c9h3d")
    assert [len(hand.cards_of(s)) for s in range(3)] == [3, 3, 3]
    assert hand.phase_name == "bet" and hand.to_act == 2   # left of the big blind
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    assert hand.to_act == DEALER and hand.legal_actions().deal_board == 3
    deal(hand, board="Qh7c8d")
    # After the flop: every player discards exactly one card, first seat 0.
    assert hand.phase_name == "draw" and hand.to_act == 0
    legal = hand.legal_actions()
    assert "sd" in legal.kinds and (legal.discard_min, legal.discard_max) == (1, 1)
    for wrong in (parse_cards("AsKd"), ()):
        with pytest.raises(IllegalAction):
            hand.apply(discard(wrong))
    hand.apply(discard(parse_cards("Kd")))
    assert sorted(hand.cards_of(0)) == sorted(parse_cards("AsAh"))
    hand.apply(discard(parse_cards("Qd")))    # seat 1 throws away his trips
    hand.apply(discard(parse_cards("3d")))
    # No replacement: two cards each, and betting starts at once (no dealer step).
    assert [len(hand.cards_of(s)) for s in range(3)] == [2, 2, 2]
    assert hand.phase_name == "bet" and hand.to_act == 0   # left of the button
    # The others see that a card was thrown, not which.
    seen = [a.cards for _, a in hand.observation(2).history if a.kind == "sd"]
    assert [len(c) for c in seen] == [1, 1, 1] and seen[1] == (255,)
    hand.apply(bet_to(4))
    hand.apply(CHECK_CALL)
    hand.apply(FOLD)
    for card in ("Kc", "3s"):
        assert hand.to_act == DEALER
        deal(hand, board=card)
        hand.apply(CHECK_CALL)
        hand.apply(CHECK_CALL)
    res = hand.result()
    # Seat 1's thrown queen is dead: a pair of queens loses to the aces.
    assert res.stacks == [108, 94, 98] and sum(res.deltas) == 0
    assert [(p.amount, p.winners) for p in res.pots] == [(14, {0: 14})]


def test_pineapple_auto_deals_leave_two_cards_each_and_conserve_chips():
    game = Game(str(PINEAPPLE), {"betting": "fixed_limit"})
    for seed in range(20):
        n = 2 + seed % 9
        hand = game.new_hand(seed, n, [100] * n, button=seed % n)
        draws = 0
        while not hand.is_over:
            if hand.phase_name == "draw":
                seat = hand.to_act
                assert len(hand.cards_of(seat)) == 3
                hand.apply(discard(hand.cards_of(seat)[-1:]))
                draws += 1
            else:
                hand.apply(CHECK_CALL)
        assert draws == n
        assert all(len(hand.cards_of(s)) == 2 for s in range(n))
        after_flop = [a for _, a in hand.log[[a.kind for _, a in hand.log].index("sd"):]]
        assert not any(a.kind == "dh" for a in after_flop)    # nothing replaced
        res = hand.result()
        assert sum(res.stacks) == 100 * n and sum(res.deltas) == 0


def _courchevel_hand(**options):
    hand = manual(COURCHEVEL, 3, **options)
    deal(hand, "AsQdKdKc9s", "2c3dQsQhJd", "6h9hThQcJh")
    # One street deals five down cards to each player and the first flop card.
    assert hand.to_act == DEALER and hand.legal_actions().deal_board == 1
    deal(hand, board="4h")
    assert len(hand.board) == 1 and [len(hand.cards_of(s)) for s in range(3)] == [5] * 3
    assert hand.phase_name == "bet" and hand.to_act == 2
    assert hand.legal_actions().max_to == 7               # pot limit: call 2, pot 5
    for _ in range(3):
        hand.apply(CHECK_CALL)
    assert hand.legal_actions().deal_board == 2           # the rest of the flop
    deal(hand, board="5sKh")
    assert hand.to_act == 0 and hand.legal_actions().max_to == 6   # a pot bet
    hand.apply(bet_to(6))
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    for card in ("7d", "Jc"):
        deal(hand, board=card)
        for _ in range(3):
            hand.apply(CHECK_CALL)
    return hand.result()


def test_courchevel_hand_by_hand_omaha_split():
    res = _courchevel_hand()
    # High: seat 0's three kings (two hole cards only: seat 2 has no flush); low:
    # seat 1's 7-5-4-3-2.
    assert [(p.amount, p.winners) for p in res.pots] == [(24, {0: 12, 1: 12})]
    assert res.stacks == [104, 104, 92] and sum(res.deltas) == 0


def test_courchevel_any_combination_changes_the_high_half():
    res = _courchevel_hand(combine="any")
    # Any five of ten cards: seat 2's four hole hearts and two board hearts are a flush.
    assert [(p.amount, p.winners) for p in res.pots] == [(24, {2: 12, 1: 12})]
    assert res.stacks == [92, 104, 104]


def test_courchevel_refuses_ten_players():
    data = tomllib.loads(COURCHEVEL.read_text())
    data["players"] = [2, 10]
    with pytest.raises(VariantError, match="10 players need 55 cards"):
        load_variant_data(data)


# The worked examples through the CLI -------------------------------------------------

@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_play_with_bots_through_the_cli(pokerarena_cli, path):
    args = ["play", "--variant", str(path), "--bots", "call,random", "--hands", "50",
            "--seed", "1"]
    out = run(pokerarena_cli, *args)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(f"{path.stem} (") and "50 hands, seed 1" in lines[0]
    assert "chips_conserved: true" in out.stdout
    data = json.loads(run(pokerarena_cli, *args, "--json").stdout)
    assert data["variant"] == path.stem and data["hands"] == 50
    assert data["chips_conserved"] is True
    more = run(pokerarena_cli, "play", "--variant", str(path), "--bots",
               "call,random,tag,call", "--hands", "30", "--seed", "2", "--betting",
               "fixed_limit", "--json")
    assert more.returncode == 0, more.stderr
    assert json.loads(more.stdout)["chips_conserved"] is True


def test_check_accepts_both_examples(pokerarena_cli):
    out = run(pokerarena_cli, "variants", "--check", *map(str, EXAMPLES))
    assert out.returncode == 0, out.stderr
    assert f"{PINEAPPLE}: ok: pineapple" in out.stdout
    assert 'draw(max=1, min=1, replace=false)' in out.stdout
    rows = [json.loads(line) for line in run(pokerarena_cli, "variants", "--check",
                                             *map(str, EXAMPLES), "--json").stdout.splitlines()]
    assert [(r["id"], r["hole_cards"], r["board_cards"]) for r in rows] == [
        ("pineapple", 3, 5), ("courchevel_hilo", 5, 5)]


BAD_FILES = {
    "unknown_field.toml": ('players = [2, 6]\nblind = true\n', "blind: unknown field"),
    "draw_too_big.toml": (None, "streets[3].draw.max: 4 is more than the 3 cards"),
    "not_toml.toml": ("id = \n", "not valid TOML"),
    "no_bet.toml": ('id = "x"\nname = "x"\nstreets = [{ deal = { down = 5 } }]\n',
                    "needs at least one bet street"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_variant_file_is_one_error_line(pokerarena_cli, tmp_path, name):
    text, message = BAD_FILES[name]
    if text is None:
        text = PINEAPPLE.read_text().replace("min = 1, max = 1", "max = 4")
    elif name == "unknown_field.toml":
        text = PINEAPPLE.read_text().replace("players = [2, 10]", text.strip())
    path = tmp_path / name
    path.write_text(text)
    for args in (["play", "--variant", str(path), "--bots", "call,random", "--hands", "5"],
                 ["variants", "--check", str(path)]):
        out = run(pokerarena_cli, *args)
        assert out.returncode == 2, (args, out.stdout)
        err = out.stderr.strip().splitlines()
        assert len(err) == 1 and "Traceback" not in out.stderr, out.stderr
        assert err[0].startswith("pokerarena: error: ") and str(path) in err[0]
        assert message in err[0], err[0]


def test_check_refuses_a_missing_file_and_a_shipped_id(pokerarena_cli, tmp_path):
    out = run(pokerarena_cli, "variants", "--check", str(tmp_path / "nope.toml"))
    assert out.returncode == 2 and "cannot read" in out.stderr
    path = tmp_path / "mine.toml"
    path.write_text(PINEAPPLE.read_text().replace('id = "pineapple"', 'id = "holdem"'))
    out = run(pokerarena_cli, "variants", "--check", str(PINEAPPLE), str(path))
    assert out.returncode == 2 and "shipped variant's id" in out.stderr
    assert "pineapple" in out.stdout      # the good file is still reported


# The JSON Schemas ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def variant_schema(pokerarena_cli):
    out = run(pokerarena_cli, "variants", "--schema")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_schema_is_json_and_describes_the_file(variant_schema):
    assert variant_schema["$schema"].endswith("2020-12/schema")
    assert set(variant_schema["required"]) == {"id", "name", "streets"}
    assert set(variant_schema["properties"]) == set(rules_model.Variant.model_fields)
    tables = variant_schema["properties"]["streets"]["items"]["anyOf"]
    keys = {next(iter(t["properties"])) for t in tables if "properties" in t}
    assert {"deal", "bet", "draw", "expose", "declare", "knock"} <= keys


def _validator(schema):
    import jsonschema
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.mark.parametrize("path", [*SHIPPED, *EXAMPLES], ids=lambda p: p.stem)
def test_every_file_validates_against_the_schema(variant_schema, path):
    validator = _validator(variant_schema)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    errors = [e.message for e in validator.iter_errors(data)]
    assert not errors, errors
    # The form the engine dumps (streets with ``kind``) is a valid file too.
    dumped = json.loads(json.dumps(load_variant_data(data).model_dump(mode="json")))
    assert not [e.message for e in validator.iter_errors(dumped)]


BAD_EDITS = [
    lambda d: d.update(deck="huge"),
    lambda d: d.update(colour="red"),
    lambda d: d["streets"].append({"deal": {"down": 1, "kind": "bet"}}),
    lambda d: d["streets"].append({}),
    lambda d: d["streets"].append({"deal": {"down": 1}, "bet": {}}),
    lambda d: d["streets"].append({"shuffle": {}}),
    lambda d: d["streets"].append({"draw": {"max": 1, "replace": "maybe"}}),
    lambda d: d["showdown"].update(low="high"),
    lambda d: d["showdown"].update(high="a5_low"),
    lambda d: d.update(betting=["no_limit", "no_limit"]),
    lambda d: d.update(betting=["table_stakes"]),
    lambda d: d.update(players=[1, 10]),
    lambda d: d.update(id="Pineapple"),
    lambda d: d["stakes"].update(small_bet=0),
]


@pytest.mark.parametrize("edit", range(len(BAD_EDITS)))
def test_schema_and_models_refuse_the_same_bad_fields(variant_schema, edit):
    validator = _validator(variant_schema)
    data = tomllib.loads(PINEAPPLE.read_text())
    BAD_EDITS[edit](data)
    assert list(validator.iter_errors(data))
    with pytest.raises(VariantError):
        load_variant_data(copy.deepcopy(data))


def test_schema_accepts_what_the_models_accept(variant_schema):
    validator = _validator(variant_schema)
    data = tomllib.loads(PINEAPPLE.read_text())
    data["streets"].append({"bet": True})
    data["streets"].append({"kind": "bet", "size": "big"})
    data["showdown"].update(low="none", wild="Ks,Kd")
    load_variant_data(copy.deepcopy(data))
    assert not [e.message for e in validator.iter_errors(data)]


def test_options_schema(pokerarena_cli):
    out = run(pokerarena_cli, "variants", "--schema", "options")
    assert out.returncode == 0, out.stderr
    schema = json.loads(out.stdout)
    assert set(schema["properties"]) == set(GameOptions.model_fields)
    validator = _validator(schema)
    good = {"betting": "fixed_limit", "blinds": [1, 2], "max_raises": "none",
            "rake_percent": "5/2", "dealing": "manual"}
    GameOptions.model_validate(good)
    assert not list(validator.iter_errors(good))
    assert list(validator.iter_errors({"no_such_option": 1}))
    assert list(validator.iter_errors({"odd_chip": "dealer"}))


# The guide -------------------------------------------------------------------------------

def _models() -> list[type[BaseModel]]:
    """Every pydantic model defined in pokerarena/rules/model.py, and GameOptions."""
    found = [obj for obj in vars(rules_model).values()
             if inspect.isclass(obj) and issubclass(obj, BaseModel)
             and obj.__module__ == rules_model.__name__]
    return [*sorted(found, key=lambda c: c.__name__), GameOptions]


def _own_fields(cls: type[BaseModel]) -> list[str]:
    """The fields a model declares itself (not only inherits)."""
    own = inspect.get_annotations(cls)
    return [name for name in cls.model_fields if name in own]


def _section(doc: str, name: str) -> str:
    """The part of the guide under the heading that names the model (`Name`), up to the
    next heading of the same or a higher level."""
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(#+) ", line)
        if m and f"`{name}`" in line:
            level = len(m.group(1))
            body = []
            for later in lines[i + 1:]:
                n = re.match(r"^(#+) ", later)
                if n and len(n.group(1)) <= level:
                    break
                body.append(later)
            return "\n".join(body)
    raise AssertionError(f"docs/variants.md has no heading naming `{name}`")


def test_guide_documents_every_field_of_every_model():
    doc = GUIDE.read_text(encoding="utf-8")
    models = _models()
    assert {"Variant", "DealStreet", "BetStreet", "DrawStreet", "Forced", "Showdown",
            "Stakes", "FixedLimit", "NoLimit", "GameOptions"} <= {m.__name__ for m in models}
    missing = []
    for cls in models:
        fields = _own_fields(cls)
        if not fields:
            continue
        section = _section(doc, cls.__name__)
        for field in fields:
            if field in ("kind", "system"):   # the street key / the system's name
                if f"`{field}`" not in doc:
                    missing.append(f"{cls.__name__}.{field}")
                continue
            if not re.search(rf"`{re.escape(field)}\b", section):
                missing.append(f"{cls.__name__}.{field}")
    assert not missing, f"docs/variants.md does not document: {', '.join(missing)}"


def test_guide_names_every_choice_of_the_variant_file():
    doc = GUIDE.read_text(encoding="utf-8")
    from pokerarena.cards import DECK_NAMES

    names = [*DECK_NAMES, *rules_model.RANKING_NAMES, *rules_model.WILD_NAMES,
             *rules_model.POSITIONAL_WILDS, *rules_model.BETTING_SYSTEMS,
             *rules_model.FIRST_TO_ACT, *rules_model.OPENERS]
    missing = [n for n in names if f"`{n}`" not in doc]
    assert not missing, missing


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_guide_shows_each_example_file_as_it_is(path):
    doc = GUIDE.read_text(encoding="utf-8")
    assert f"```toml\n{path.read_text(encoding='utf-8')}```" in doc
