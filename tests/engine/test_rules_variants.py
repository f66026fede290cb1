"""Variant files: the shipped ones load; bad files give one message naming the field."""

from __future__ import annotations

import pytest

from pokerarena.engine import Game
from pokerarena.rules import (
    VariantError,
    all_variants,
    betting_system,
    load_variant,
    load_variant_text,
    phh_codes,
    variant_ids,
)

GOOD = """
id = "mine"
name = "My hold'em"
players = [2, 6]
deck = "standard"
forced = { blinds = true }
streets = [
  { deal = { down = 2 } },
  { bet = { first = "left_of_blinds" } },
  { deal = { board = 5 } },
  { bet = { size = "big" } },
]
betting = ["no_limit"]
"""


def test_shipped_variants_load_and_cover_phh_codes():
    ids = set(variant_ids())
    assert {"holdem", "holdem_short", "omaha", "omaha_hilo", "stud7", "stud7_hilo", "razz",
            "draw5", "draw27_single", "draw27_triple", "badugi"} <= ids
    assert set(phh_codes()) >= {"FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR",
                                "N2L1D", "F2L3D", "FB"}
    assert phh_codes()["PO"] == ("omaha", "pot_limit")
    assert phh_codes()["FO/8"] == ("omaha_hilo", "fixed_limit")
    for v in all_variants():
        for system in v.betting:
            Game(v, {"betting": system})  # every listed system builds


def test_user_file_loads(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    v = load_variant(path)
    assert v.id == "mine" and v.hole_cards == 2 and v.board_cards == 5
    game = Game(v)
    hand = game.new_hand(1, 3, [50, 50, 50], 0)
    assert not hand.is_over


@pytest.mark.parametrize(("change", "message"), [
    (('deck = "standard"', 'deck = "tarot"'), r"^v: deck: unknown deck 'tarot'"),
    (('players = [2, 6]', 'players = [1, 6]'), r"^v: players: players is \[min, max\]"),
    (('{ bet = { size = "big" } }', '{ bet = { size = "huge" } }'),
     r"^v: streets\[3\]\.bet\.size: Input should be 'small', 'big' or 'ante'"),
    (('{ deal = { board = 5 } }', '{ deal = { board = 5, sideways = 1 } }'),
     r"^v: streets\[2\]\.deal\.sideways: unknown field"),
    (('{ deal = { board = 5 } }', '{ shuffle = { times = 2 } }'),
     r"^v: streets\[2\]"),
    (('first = "left_of_blinds"', 'first = "bring_in"'),
     r"streets\[1\]\.bet\.first: 'bring_in' needs forced\.bring_in"),
    (('betting = ["no_limit"]', 'betting = ["no_limit", "table_talk"]'),
     r"^v: betting\[1\]: Input should be 'fixed_limit'"),
    (('name = "My hold\'em"', ''), r"^v: name: Field required"),
    (('forced = { blinds = true }', 'forced = { blinds = "yes please" }'),
     r"^v: forced\.blinds"),
])
def test_bad_field_is_named(change, message):
    old, new = change
    assert old in GOOD
    with pytest.raises(VariantError, match=message):
        load_variant_text(GOOD.replace(old, new), origin="v")


def test_draw_more_than_held_is_named():
    text = GOOD.replace('{ deal = { board = 5 } }', '{ draw = { max = 3 } }')
    with pytest.raises(VariantError, match=r"streets\[2\]\.draw\.max: 3 is more than the 2"):
        load_variant_text(text, origin="v")


def test_bad_toml_and_unknown_variant():
    with pytest.raises(VariantError, match="not valid TOML"):
        load_variant_text("id = ", origin="v")
    with pytest.raises(VariantError, match="unknown variant 'nope'"):
        load_variant("nope")


def test_one_message_counts_the_others():
    text = GOOD.replace('deck = "standard"', 'deck = 5').replace("players = [2, 6]",
                                                                 "players = 7")
    with pytest.raises(VariantError) as info:
        load_variant_text(text, origin="v")
    assert "\n" not in str(info.value) and "1 more problem" in str(info.value)


def test_game_options_are_validated():
    with pytest.raises(VariantError, match=r"options: colour: unknown field"):
        Game("holdem", {"colour": "red"})
    with pytest.raises(VariantError, match="betting: 'pot_limit' is not offered"):
        Game(load_variant_text(GOOD), {"betting": "pot_limit"})
    with pytest.raises(VariantError, match=r"options: small_bet: Input should be greater"):
        Game("holdem", {"small_bet": 0})


def test_betting_system_models():
    fl = betting_system("fixed_limit")
    assert fl.max_raises == 3 and fl.heads_up_max_raises == 5
    assert betting_system("no_limit").max_raises is None
    assert betting_system("spread_limit", max_raises=2).max_raises == 2
    with pytest.raises(VariantError, match="betting.fixed_limit.max_raises"):
        betting_system("fixed_limit", max_raises=-1)
    with pytest.raises(VariantError, match="unknown system 'wild_west'"):
        betting_system("wild_west")
