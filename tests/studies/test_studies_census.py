"""Exact hand-category tables of rule sets and the paradox flags (issue 15, "Exact
tables, not only simulation").

The source ranks hands by probability: 000_… «Покерные расклады»: «Каждый расклад
проигрывает предыдущему и бьет следующий. Данный порядок основан на соответствующих
математических вероятностях.» A flag is every pair where that is not so. The figures
are the published 5- and 7-card tables (../shared/reference/standard_census.json) and
counts derived by hand below.
"""

from __future__ import annotations

import json
import subprocess
from math import comb

import pytest

from pokerarena.engine import Game
from pokerarena.rules import Variant, load_variant
from pokerarena.studies.census import CensusError, rule_census, wilson


def counts(table) -> dict[str, int]:
    return {r.name: r.count for r in table.rows}


def pairs(table) -> set[tuple[str, str]]:
    return {(i.higher, i.lower) for i in table.inversions}


def only_table(variant, options=None, **kw):
    result = rule_census(variant, options, **kw)
    assert len(result.tables) == 1
    return result.tables[0]


# ------------------------------------------------------------------ no wild cards


def test_five_and_seven_card_tables_match_the_reference(standard_census: dict) -> None:
    """Five-card draw's dealt hands and hold'em's best five of seven are the published
    tables; the five-card ranking follows the frequencies («Данный порядок основан на
    соответствующих математических вероятностях»), the seven-card one does not at the
    bottom: with seven cards a pair and two pair are more common than no pair."""
    five = only_table("draw5")
    assert five.method == "exact" and five.hands == comb(52, 5)
    assert counts(five) == standard_census["high5"]["counts"]
    assert [r.name for r in five.rows] == list(standard_census["high5"]["counts"])
    assert five.inversions == ()
    assert any("draw" in n for n in five.notes), "a draw game's table is of dealt hands"
    seven = only_table("holdem")
    assert seven.method == "exact" and seven.hands == comb(52, 7)
    assert counts(seven) == standard_census["high7"]["counts"]
    assert pairs(seven) == {("one_pair", "high_card"), ("two_pair", "high_card")}
    assert all(i.certain for i in seven.inversions)
    assert seven.probability_order[-3:] == ("high_card", "two_pair", "one_pair")
    assert sum(r.frequency for r in seven.rows) == pytest.approx(1.0)
    assert counts(only_table("stud7")) == counts(seven), "stud: best five of seven too"


def test_three_card_document_order_is_flagged() -> None:
    """000_… «Трехкарточный покер»: «Иерархия раскладов (в нисходящем порядке) такова:
    тройки, трехкарточный стрит-флеш, трехкарточный флеш, трехкарточный стрит, пара,
    старшая карта.» With three cards a straight flush (48 of 22,100) is rarer than three
    of a kind (52), and a straight (720) rarer than a flush (1,096): both flagged, and
    the casino order (straight flush > trips > straight > flush) follows probability."""
    sf = 4 * 12
    expected = {"three_of_a_kind": 13 * 4, "straight_flush": sf, "flush": 4 * comb(13, 3) - sf,
                "straight": 12 * 4 ** 3 - sf, "one_pair": 13 * 6 * 48,
                "high_card": (comb(13, 3) - 12) * (4 ** 3 - 4)}
    table = only_table("three_card")
    assert table.method == "exact" and table.hands == comb(52, 3) == sum(expected.values())
    assert counts(table) == expected
    assert [r.name for r in table.rows][:2] == ["three_of_a_kind", "straight_flush"]
    assert pairs(table) == {("three_of_a_kind", "straight_flush"), ("flush", "straight")}
    flat = rule_census("three_card").records()
    assert [(r["category"], r["flagged"]) for r in flat][:3] == [
        ("three_of_a_kind", True), ("straight_flush", False), ("flush", True)]
    casino_order = ("straight_flush", "three_of_a_kind", "straight", "flush", "one_pair",
                    "high_card")
    assert table.probability_order == casino_order
    data = load_variant("three_card").model_dump()
    data["showdown"]["high"] = "three_card_casino"
    casino = only_table(Variant.model_validate(data))
    assert tuple(r.name for r in casino.rows) == casino_order
    assert casino.inversions == ()


def test_short_deck_flush_rarer_than_full_house() -> None:
    """RULES.md §1 after 000_… «Иерархия карт»: «Иногда для ускорения игры младшие карты
    (2. 3 и даже 4 и 5) изымаются из колоды». In the 36-card deck a flush (480 five-card
    hands) is rarer than a full house (1,728): under the standard ranking that is flagged;
    short-deck hold'em's ranking puts the flush above the full house and is not."""
    table = only_table("draw5", {"deck": "short"})
    assert table.deck_size == 36 and table.hands == comb(36, 5)
    c = counts(table)
    assert c["flush"] == 4 * comb(9, 5) - 6 * 4 == 480
    assert c["full_house"] == 9 * 4 * 8 * 6 == 1728
    assert c["straight"] == 6 * 4 ** 5 - 6 * 4
    assert ("full_house", "flush") in pairs(table)
    order = table.probability_order
    assert order.index("flush") < order.index("full_house")
    holdem = only_table("holdem_short")
    assert holdem.hands == comb(36, 7) and holdem.ranking == "short_deck"
    hc = counts(holdem)
    assert hc["flush"] < hc["full_house"]
    assert [r.name for r in holdem.rows].index("flush") < [r.name for r in holdem.rows].index(
        "full_house")
    assert ("flush", "full_house") not in pairs(holdem)


# ------------------------------------------------------------------ wild cards


def test_deuces_wild_three_of_a_kind_beats_two_pair_in_frequency() -> None:
    """000_… «Козырные карты»: «самыми распространенными являются: … — все двойки»;
    «Там, где козыри могут представлять любую карту …: 1) пятерка: пять карт одного
    достоинства. Этот расклад считается наивысшим». With all deuces wild, five-card
    hands: three of a kind (355,080) is far more common than two pair (95,040), the
    famous paradox. Two pair needs no deuce (one would make a full house); a full house
    is natural or one deuce with two pair; five of a kind is w deuces with 5 - w of a rank."""
    table = only_table("draw5", {"wild": "deuces"})
    assert table.method == "exact" and table.hands == comb(52, 5)
    c = counts(table)
    assert c["two_pair"] == comb(12, 2) * 6 * 6 * 40
    assert c["full_house"] == 12 * 4 * 11 * 6 + 4 * comb(12, 2) * 36
    assert c["five_of_a_kind"] == 48 + 4 * 12 * 6 + 6 * 12 * 4 + 4 * 12
    assert c["three_of_a_kind"] == 355080
    assert ("three_of_a_kind", "two_pair") in pairs(table)
    assert ("four_of_a_kind", "full_house") in pairs(table)
    order = table.probability_order
    assert order.index("two_pair") < order.index("three_of_a_kind")
    assert table.rows[0].name == "five_of_a_kind"


def test_joker_five_card_table() -> None:
    """000_… «Игровые принадлежности»: «один или два джокера при желании могут выполнять
    функции любой недостающей карты». One wild joker in 53 cards: five of a kind is the
    joker with four of a kind (13); two pair and no pair are the natural hands only (a
    joker always makes more); three of a kind (137,280) outnumbers two pair (123,552)."""
    table = only_table("draw5", {"joker": True})
    assert table.deck == "standard+joker" and table.hands == comb(53, 5)
    c = counts(table)
    assert c["five_of_a_kind"] == 13
    assert c["two_pair"] == 123552 and c["high_card"] == 1302540
    assert c["four_of_a_kind"] == 13 * 48 + 13 * 4 * 48  # natural, and joker + trips
    assert c["three_of_a_kind"] == 137280
    assert ("three_of_a_kind", "two_pair") in pairs(table)


def test_seven_card_joker_census_is_exact(standard_census: dict) -> None:
    """Seven-card stud with the joker: all C(53, 7) hands. A joker with six natural cards
    always makes trips or better from a pair, so two pair and no pair are the natural
    seven-card counts; five of a kind is joker + four of a kind + any two others."""
    table = only_table("stud7", {"joker": True})
    assert table.method == "exact" and table.hands == comb(53, 7)
    c = counts(table)
    ref = standard_census["high7"]["counts"]
    assert c["two_pair"] == ref["two_pair"] and c["high_card"] == ref["high_card"]
    assert c["five_of_a_kind"] == 13 * comb(48, 2)
    assert sum(c.values()) == comb(53, 7)


def test_two_card_with_deuces() -> None:
    """000_…: «Двухкарточный покер (обычно играемый с козырями) … Единственными
    раскладами являются пары и старшие карты.» Deuces wild: a natural pair (12 x 6), a
    deuce with any other card (4 x 48) or two deuces (6)."""
    table = only_table("two_card", {"wild": "deuces"})
    assert counts(table) == {"one_pair": 72 + 192 + 6, "high_card": comb(52, 2) - 270}
    assert table.inversions == ()


def test_one_eyed_jacks_explicit_wild_list() -> None:
    """An explicit wild list (RULES.md §1: «Можно договориться о выборе любой карты или
    группы карт»): the one-eyed jacks Js, Jh. Five of a kind: both with three of a
    non-jack rank, or one of them with four of a non-jack rank (only two natural jacks
    are left, too few for either)."""
    table = only_table("draw5", {"wild": "JsJh"})
    c = counts(table)
    assert table.hands == comb(52, 5)
    assert c["five_of_a_kind"] == 12 * 4 + 2 * 12


@pytest.mark.parametrize(("options", "deck_size", "five_of_a_kind"), [
    ({"wild": "deuce_spades"}, 52, 12),  # the wild with a natural four of a kind
    ({"wild": "red_tens"}, 52, 12 * 4 + 2 * 12),  # both + trips, or one + quads (not tens)
    ({"wild": "deuces"}, 52, 672),
    ({"wild": "jokers", "deck": "standard+2jokers"}, 54, 13 * 4 + 2 * 13),
], ids=["deuce-of-spades", "red-tens", "deuces", "two-jokers"])
def test_every_named_wild_set(options: dict, deck_size: int, five_of_a_kind: int) -> None:
    """000_… «Козырные карты»: «самыми распространенными являются: — джокер (или два
    джокера); — двойка пик, если нет джокеров; — все двойки; — все двойки и тройки; —
    красные десятки.» Each counted exactly over the whole deck, five of a kind by hand."""
    table = only_table("draw5", options)
    assert table.method == "exact" and table.deck_size == deck_size
    assert table.hands == comb(deck_size, 5) == sum(counts(table).values())
    assert counts(table)["five_of_a_kind"] == five_of_a_kind
    assert table.rows[0].name == "five_of_a_kind"


def test_deuces_and_treys_and_the_lacking_rule() -> None:
    """Eight wild cards (deuces and treys) make three of a kind more common than a pair's
    absence and two pair rarer still. Under rule (a), «использовать ее в качестве любой
    карты …, которой у него нет», there is no five of a kind, and the paradox stays."""
    eight = only_table("draw5", {"wild": "deuces_treys"})
    c = counts(eight)
    assert c["two_pair"] == comb(11, 2) * 36 * 36  # natural, no 2 or 3 in it
    assert ("three_of_a_kind", "two_pair") in pairs(eight)
    lacking = only_table("draw5", {"wild": "deuces", "wild_rule": "lacking"})
    assert "five_of_a_kind" not in counts(lacking)
    assert lacking.hands == comb(52, 5)
    assert ("three_of_a_kind", "two_pair") in pairs(lacking)


# ------------------------------------------------------------------ sampled


def test_sampled_interval_covers_the_exact_value() -> None:
    """The same rule set (deuces wild, five cards) exact and sampled: each category's
    exact frequency lies in the sampled 95% interval, and the sample is labelled."""
    exact = only_table("draw5", {"wild": "deuces"})
    sampled = only_table("draw5", {"wild": "deuces"}, method="sampled", samples=200_000,
                         seed=3)
    assert sampled.method == "sampled" and sampled.seed == 3
    assert sampled.hands == 200_000 == sum(counts(sampled).values())
    truth = {r.name: r.frequency for r in exact.rows}
    for r in sampled.rows:
        assert r.low <= truth[r.name] <= r.high, r
        assert r.low < r.high
    again = only_table("draw5", {"wild": "deuces"}, method="sampled", samples=200_000, seed=3)
    assert counts(again) == counts(sampled), "a seeded sample repeats"
    flagged = {(i.higher, i.lower) for i in sampled.inversions if i.certain}
    assert ("three_of_a_kind", "two_pair") in flagged


def test_omaha_is_sampled_and_cannot_be_exact() -> None:
    """002_… «Омаха»: exactly two hole and three board cards: C(52,4) x C(48,5) deals is
    too many to enumerate, so the table is a labelled sample."""
    table = only_table("omaha", samples=50_000)
    assert table.method == "sampled" and table.hands == 50_000
    assert "exactly 2 of 4" in table.hand
    c = counts(table)
    assert max(c, key=c.__getitem__) == "two_pair"
    with pytest.raises(CensusError):
        rule_census("omaha", method="exact")


def test_positional_wild_is_sampled_per_hand() -> None:
    """000_… «Покер-гвоздь»: the lowest hole card wild («самая младшая забивная карта
    каждого игрока является козырем»): every hand holds a wild card, so nobody ends with
    no pair or with two pair (a wild makes trips of a pair)."""
    table = only_table("stud7_low_hole_wild", samples=20_000)
    assert table.method == "sampled"
    c = counts(table)
    assert c["high_card"] == 0 and c["two_pair"] == 0
    assert c["five_of_a_kind"] > 0
    assert "high_card" not in table.probability_order, "a category that never occurs"


def test_low_and_split_games() -> None:
    """Razz (ace-to-five low) has a low table without flags, best low first; a split
    game has a table per half, and an eight-or-better low says how many hands qualify
    (002_… «Семикарточный покер с Hi/Lo»: «Выигрывает только Low, в которой старшая
    карта – восьм[ерка]»: an unpaired low whose top card is at most an eight)."""
    razz = only_table("razz")
    assert razz.half == "low" and razz.method == "exact" and razz.hands == comb(52, 7)
    assert razz.inversions == () and razz.rows[0].name == "5-high"
    assert [r.name for r in razz.rows][-3:] == ["one_pair", "two_pair", "full_house"]
    five_card_lows = only_table("stud_low")  # five cards: no pair and no five-high straight
    assert five_card_lows.rows[0].name == "5-high"
    assert five_card_lows.rows[0].count == 4 ** 5  # A-2-3-4-5, suits free
    stud8 = rule_census("stud7_hilo").tables
    assert [t.half for t in stud8] == ["high", "low"]
    eight = sum(r.count for r in stud8[1].rows[:4])  # 5-high .. 8-high
    assert any(f"8 or better: {eight:,} hands" in n for n in stud8[1].notes)
    split = rule_census("omaha_hilo", samples=20_000)
    assert [t.half for t in split.tables] == ["high", "low"]
    assert split.tables[1].rows[0].name == "5-high" and split.tables[1].method == "sampled"
    assert any("95% interval" in n for n in split.tables[1].notes if "better" in n)


def test_game_input_and_wilson() -> None:
    assert counts(rule_census(Game("three_card")).tables[0]) == counts(only_table("three_card"))
    low, high = wilson(0, 1000)
    assert low == 0.0 and 0 < high < 0.005
    low, high = wilson(500, 1000)
    assert low < 0.5 < high and high - low == pytest.approx(2 * 1.96 * 0.5 / 1000 ** 0.5,
                                                           rel=0.01)


# ------------------------------------------------------------------ CLI


def run_cli(cli: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, *args], capture_output=True, text=True, timeout=600,
                          check=False)


def test_cli_census(pokerarena_cli: list[str]) -> None:
    proc = run_cli(pokerarena_cli, "census", "--variant", "three_card")
    assert proc.returncode == 0, proc.stderr
    assert "PARADOX: three_of_a_kind ranks above straight_flush" in proc.stdout
    assert "order by probability (rarest first): straight_flush > three_of_a_kind" in proc.stdout
    proc = run_cli(pokerarena_cli, "census", "--variant", "draw5", "--option", "wild=deuces",
                   "--method", "sampled", "--samples", "20000", "--json")
    assert proc.returncode == 0, proc.stderr
    table = json.loads(proc.stdout)["tables"][0]
    assert table["method"] == "sampled" and table["hands"] == 20000
    assert all(r["low"] <= r["frequency"] <= r["high"] for r in table["rows"])


@pytest.mark.parametrize("args", [
    ["--variant", "no_such_game"],
    ["--variant", "holdem", "--option", "bogus=1"],
    ["--variant", "holdem", "--option", "wild=zz"],
    ["--variant", "holdem", "--option", "deck=short48"],
    ["--variant", "holdem", "--option", "deck=standard+joker"],
    ["--variant", "omaha", "--method", "exact"],
    ["--variant", "omaha", "--samples", "0"],
    ["--variant", "holdem", "--option", "nokeyvalue"],
], ids=["unknown-variant", "unknown-option", "bad-wild", "bad-deck", "joker-not-wild",
        "omaha-exact", "zero-samples", "option-syntax"])
def test_cli_bad_input(pokerarena_cli: list[str], args: list[str]) -> None:
    proc = run_cli(pokerarena_cli, "census", *args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
