"""Card codes, parsing, printing and decks."""

import numpy as np
import pytest

from pokerarena.cards import (
    DECK_NAMES,
    JOKER_1,
    JOKER_2,
    CardError,
    card,
    card_str,
    cards_str,
    deck,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_codes_round_trip_every_card():
    for code in range(52):
        assert parse_card(card_str(code)) == code
    assert card(12, 3) == parse_card("As") == 51
    assert card(0, 0) == parse_card("2c") == 0
    assert rank_of(parse_card("Td")) == 8 and suit_of(parse_card("Td")) == 1


@pytest.mark.parametrize("text", ["AsKd", "As Kd", "As,Kd", "as kD", "AsKd "])
def test_parse_separators_and_case(text):
    assert parse_cards(text) == [51, 11 * 4 + 1]


def test_ten_and_jokers():
    assert parse_cards("10h") == [8 * 4 + 2]
    assert parse_cards("JkAsJk") == [JOKER_1, 51, JOKER_2]
    assert cards_str([JOKER_1, 51]) == "JkAs"


@pytest.mark.parametrize("bad", ["Ax", "1s", "AsAs", "JkJkJk", "A", "Zz"])
def test_bad_cards_raise(bad):
    with pytest.raises(CardError):
        parse_cards(bad)


def test_deck_sizes_and_contents():
    sizes = {"standard": 52, "short": 36, "standard+joker": 53, "standard+2jokers": 54,
             "strip2": 48, "strip3": 44, "strip4": 40, "strip5": 36, "kuhn": 3, "leduc": 6}
    assert set(sizes) == set(DECK_NAMES)
    for name, size in sizes.items():
        d = deck(name)
        assert d.dtype == np.uint8 and d.size == size == np.unique(d).size
    short = {card_str(c)[0] for c in deck("short")}
    assert short == set("6789TJQKA")
    assert np.array_equal(deck("short"), deck("strip5"))
    assert "2c" not in cards_str(deck("strip2").tolist(), " ")
    assert cards_str(deck("kuhn").tolist(), " ") == "Js Qs Ks"
    assert cards_str(deck("leduc").tolist(), " ") == "Jh Js Qh Qs Kh Ks"
    with pytest.raises(CardError):
        deck("pinochle")
