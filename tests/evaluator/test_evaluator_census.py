"""Exact census tables, the published preflop equity, and bad input to the CLI.

The 5-card and 7-card tables are ../shared/reference/standard_census.json (published
poker-probability tables and the 7,462 / 4,824 equivalence-class counts); the 7-card
census runs through the CLI in a subprocess, as a user would run it.
"""

from __future__ import annotations

import itertools
import json
import subprocess
from collections import Counter
from math import comb

import numpy as np
import pytest

import pokerarena.evaluator as ev
from pokerarena.evaluator.census import census

HIGH_NAMES = ("straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
              "three_of_a_kind", "two_pair", "one_pair", "high_card")


def run_cli(cli: list[str], *args: str, timeout: float = 3600) -> subprocess.CompletedProcess:
    """Run the console script; ``timeout`` only guards against a hang."""
    return subprocess.run([*cli, *args], capture_output=True, text=True, timeout=timeout,
                          check=False)


def assert_table(result: dict, table: dict) -> None:
    """``result`` (census JSON) equals the reference ``table`` in every published field."""
    assert result["hands"] == table["hands"]
    assert result["counts"] == table["counts"]
    assert result["distinct"] == table["distinct"]
    assert sum(result["counts"].values()) == table["hands"]
    if "distinct_total" in result:
        assert result["distinct_total"] == table["distinct_total"]
    assert sum(result["distinct"].values()) == table["distinct_total"]
    if "royal_flush" in result:
        assert result["royal_flush"] == table["royal_flush"]


# ----------------------------------------------------------------------------- 5 cards


def test_reference_file_is_consistent(standard_census: dict) -> None:
    """The reference itself adds up (guards against reading the wrong file)."""
    for key, k in (("high5", 5), ("high7", 7)):
        table = standard_census[key]
        assert table["hands"] == comb(52, k)
        assert sum(table["counts"].values()) == comb(52, k)
        assert sum(table["distinct"].values()) == table["distinct_total"]
        assert set(table["counts"]) == set(HIGH_NAMES)


def test_five_card_census_api(standard_census: dict) -> None:
    result = census(5, "standard", ev.ranking("high"))
    assert_table(result, standard_census["high5"])
    assert list(result["counts"]) == list(HIGH_NAMES), "categories best first"


def test_five_card_census_from_evaluate_batch(standard_census: dict) -> None:
    """The same table, counted here from evaluate_batch + category over all 2,598,960 hands
    (independent of the census module's own counting)."""
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    values = ev.evaluate_batch(hands, ev.HIGH)
    distinct_values, counts = np.unique(values, return_counts=True)
    by_cat: Counter = Counter()
    classes: Counter = Counter()
    for v, n in zip(distinct_values.tolist(), counts.tolist(), strict=True):
        name = ev.category(v, ev.HIGH)
        by_cat[name] += n
        classes[name] += 1
    table = standard_census["high5"]
    assert dict(by_cat) == table["counts"]
    assert dict(classes) == table["distinct"]
    assert len(distinct_values) == table["distinct_total"]
    royal = ev.evaluate("AsKsQsJsTs")
    assert int((values == royal).sum()) == table["royal_flush"]
    assert int(values.max()) == royal


def test_five_card_census_cli(pokerarena_cli: list[str], standard_census: dict) -> None:
    proc = run_cli(pokerarena_cli, "eval", "census", "--cards", "5", "--json")
    assert proc.returncode == 0, proc.stderr
    assert_table(json.loads(proc.stdout), standard_census["high5"])


def _short_deck_counts() -> dict[str, int]:
    """36-card deck, by hand: 9 ranks, A-6-7-8-9 the lowest of 6 straights."""
    straights = 6
    return {
        "straight_flush": straights * 4,
        "four_of_a_kind": 9 * 32,
        "flush": comb(9, 5) * 4 - straights * 4,
        "full_house": 9 * 4 * 8 * 6,
        "straight": straights * 4 ** 5 - straights * 4,
        "three_of_a_kind": 9 * 4 * comb(8, 2) * 16,
        "two_pair": comb(9, 2) * 36 * 7 * 4,
        "one_pair": 9 * 6 * comb(8, 3) * 64,
        "high_card": (comb(9, 5) - straights) * (4 ** 5 - 4),
    }


@pytest.mark.parametrize("trips", [False, True])
def test_short_deck_census(trips: bool) -> None:
    expected = _short_deck_counts()
    assert sum(expected.values()) == comb(36, 5)
    result = census(5, "short", ev.ranking("short_deck", trips_beat_straight=trips))
    assert result["hands"] == comb(36, 5)
    assert result["counts"] == expected
    order = list(result["counts"])
    assert order.index("flush") < order.index("full_house"), "flush beats full house"
    assert (order.index("three_of_a_kind") < order.index("straight")) == trips


@pytest.mark.parametrize("name", ["three_card", "three_card_casino"])
def test_three_card_census(name: str) -> None:
    expected = {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720,
                "flush": 1096, "one_pair": 3744, "high_card": 16440}
    result = census(3, "standard", ev.ranking(name))
    assert result["hands"] == comb(52, 3)
    assert result["counts"] == expected
    best_first = list(result["counts"])
    if name == "three_card":
        assert best_first[:2] == ["three_of_a_kind", "straight_flush"]
    else:
        assert best_first[:2] == ["straight_flush", "three_of_a_kind"]


# ----------------------------------------------------------------------------- 7 cards


def test_seven_card_census_cli(pokerarena_cli: list[str], standard_census: dict) -> None:
    """All 133,784,560 seven-card hands, through the CLI, against the published table."""
    proc = run_cli(pokerarena_cli, "eval", "census", "--cards", "7", "--json")
    assert proc.returncode == 0, proc.stderr
    assert_table(json.loads(proc.stdout), standard_census["high7"])


# ----------------------------------------------------------------------------- equity


def test_preflop_equity_aces_vs_kings(pokerarena_cli: list[str]) -> None:
    """Published: AdAc vs KhKs over all 1,712,304 boards: 1,388,072 wins, 6,538 ties."""
    proc = run_cli(pokerarena_cli, "equity", "AdAc", "KhKs", "--exact", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["boards"] == 1712304 == comb(48, 5)
    aces, kings = result["players"]
    assert (aces["win"], aces["tie"]) == (1388072, 6538)
    assert (kings["win"], kings["tie"]) == (1712304 - 1388072 - 6538, 6538)
    assert aces["equity"] == pytest.approx((1388072 + 6538 / 2) / 1712304, abs=1e-12)


# ----------------------------------------------------------------------------- bad input


BAD_CLI = [
    pytest.param(["eval", "hand", "AsAs"], id="duplicate-card"),
    pytest.param(["eval", "hand", "AsKd", "--board", "AsQd"], id="card-in-hand-and-board"),
    pytest.param(["eval", "hand", "AsZz"], id="unknown-card"),
    pytest.param(["eval", "hand", "As1s"], id="unknown-rank"),
    pytest.param(["eval", "hand", "AsKsQsJsTs9s8s7s6s5s4s3s2s"], id="thirteen-cards"),
    pytest.param(["eval", "hand", "AsJk"], id="joker-not-wild"),
    pytest.param(["eval", "hand", "AsKd", "--omaha", "--board", "2c3c"], id="omaha-board-2"),
    pytest.param(["eval", "census", "--cards", "0"], id="census-0-cards"),
    pytest.param(["eval", "census", "--cards", "10"], id="census-10-cards"),
    pytest.param(["eval", "hand", "AsKs", "--wild", "Zz"], id="unknown-wild"),
]

BAD_EQUITY = [
    pytest.param(["equity", "AdAc", "AdKs", "--exact"], id="equity-duplicate"),
    pytest.param(["equity", "AdAc", "KhKx", "--exact"], id="equity-unknown-card"),
    pytest.param(["equity", "AdAcKh", "KhKs"], id="equity-three-hole-cards"),
    pytest.param(["equity", "AdAc"], id="equity-one-hand"),
    pytest.param(["equity", "AdAc", "KhKs", "--board", "2c3c4c5c6c7c"], id="equity-board-6"),
    pytest.param(["equity", "AdAc", "KhKs", "--board", "Ad2c3c"], id="equity-board-dup"),
]


def _assert_user_error(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert lines[0].strip(), "the message says something"


@pytest.mark.parametrize("args", BAD_CLI)
def test_cli_bad_input(pokerarena_cli: list[str], args: list[str]) -> None:
    _assert_user_error(run_cli(pokerarena_cli, *args, timeout=300))


@pytest.mark.parametrize("args", BAD_EQUITY)
def test_equity_bad_input(pokerarena_cli: list[str], args: list[str]) -> None:
    _assert_user_error(run_cli(pokerarena_cli, *args, timeout=300))


@pytest.mark.parametrize("cards", [[], [0, 0], [0, 54], list(range(13)), [51, 52]],
                         ids=["empty", "duplicate", "code-54", "thirteen-cards", "joker-not-wild"])
def test_api_bad_hands(cards: list[int]) -> None:
    """The single-hand API refuses what the contract does not define (a ValueError)."""
    with pytest.raises(ValueError):
        ev.evaluate(cards)
