"""Red and black's bots and invariants: every card accounted for at every step, random
legal play always finishes, an illegal bet changes nothing, a replay reproduces the game,
the family's JSON forms round-trip, and in duplicate games (same cards, seats swapped)
the counting bot beats the rule bot and the rule bot beats random."""

from __future__ import annotations

import json
import random
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerarena.engine.actions import IllegalAction
from pokerarena.games import family
from pokerarena.games.play import duplicate, play_games
from pokerarena.games.red_black import Bet, RedBlackError, RedBlackGame

FAM = family("red_black")
OPTIONS = st.fixed_dictionaries({
    "deck": st.sampled_from([36, 52]), "order": st.sampled_from(["each", "all_first"]),
    "rounds": st.sampled_from([0, 1, 2]),
    "max_bet": st.one_of(st.none(), st.integers(1, 4))})


def _cards_accounted(hand) -> None:
    dealt = [c for r in hand.settled for c in r.cards]
    assert sorted(dealt + hand.undealt()) == sorted(hand.game.deck)
    assert len(set(dealt)) == len(dealt)


@settings(max_examples=40, deadline=None)
@given(OPTIONS, st.integers(2, 7), st.integers(0, 10**6))
def test_random_legal_play_finishes_with_every_card_accounted_for(options, seats, seed):
    """Any legal bets, any options: the game ends with every bettor settled each round,
    no card dealt twice, and the banker's chips the players' negated."""
    game = RedBlackGame(options)
    try:
        hand = game.new_hand(seed, seats)
    except RedBlackError:
        assert options["rounds"] * 5 * (seats - 1) > options["deck"]
        return
    rng = random.Random(seed)
    while not hand.is_over:
        _cards_accounted(hand)
        seat = hand.to_act
        before = (list(hand.log), list(hand.totals), hand.dealt)
        with pytest.raises(IllegalAction):
            hand.apply(Bet("red", game.options.top_bet + 1), seat)
        with pytest.raises(IllegalAction):
            hand.apply(rng.choice(hand.legal_actions()), hand.dealer)
        assert (hand.log, hand.totals, hand.dealt) == before
        hand.apply(rng.choice(hand.legal_actions()), seat)
    _cards_accounted(hand)
    assert len(hand.settled) == hand.rounds * (seats - 1) == len(hand.log)
    assert sum(hand.result().deltas) == 0
    again = game.replay(seed, seats, hand.log, hand.dealer)
    assert again.result() == hand.result() and again.log == hand.log


def test_the_json_forms_round_trip_and_bad_ones_are_illegal_actions():
    hand = RedBlackGame({"rounds": 0, "max_bet": 10, "order": "each"}).new_hand(3, 3, dealer=0)
    hand.apply(Bet("black", 2))
    view = hand.observation(hand.to_act)
    data = json.loads(json.dumps(FAM.view_json(view)))
    assert data["to_act"] == 2 and data["red_left"] + data["black_left"] == 47
    assert data["settled"][0]["colour"] == "black" and len(data["legal"]) == 20
    for a in view.legal:
        assert FAM.parse_action(FAM.action_json(a), view) == a
    for bad in ({"colour": "blue", "stake": 1}, {"colour": "red"}, [1], "red 1",
                {"colour": "red", "stake": 1, "x": 0}):
        with pytest.raises(IllegalAction):
            FAM.parse_action(bad, view)
    rows = FAM.record_rows(hand)
    assert [c[0] for c in FAM.record.columns] == ["round", "seat", "banker", "colour",
                                                  "stake", "cards", "matched", "gain"]
    assert rows == [(0, 1, 0, "black", 2, rows[0][5], hand.settled[0].matched,
                     hand.settled[0].gain)] and len(rows[0][5]) == 10


def test_the_same_seed_plays_the_same_games():
    a = play_games(FAM, {}, ["count", "random", "rule"], 20, seed=4)
    assert a == play_games(FAM, {}, ["count", "random", "rule"], 20, seed=4)
    assert a != play_games(FAM, {}, ["count", "random", "rule"], 20, seed=5)
    with pytest.raises(RedBlackError, match="unknown bot"):
        FAM.new_bot("bogus", 1)


def test_count_beats_rule_significantly_in_duplicate_games():
    """The count bot stakes the maximum only when the cards left favour its colour: with
    free stakes and each player dealt before the next declares (the options; under the
    document's minimum stakes both bots bet alike)."""
    c = duplicate(FAM, "count", "rule", players=4, games=3000, seed=1,
                  options={"max_bet": 10, "order": "each"})
    assert c.significant and c.mean > 0, c.as_text()


def test_rule_beats_random_significantly_in_duplicate_games_dealt_down():
    """A game dealt down to the last round (``rounds = 0``), where the count matters."""
    c = duplicate(FAM, "rule", "random", players=4, games=3000, seed=2,
                  options={"rounds": 0})
    assert c.significant and c.mean > 0, c.as_text()


def _play(cli: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, "play", "--variant", "red_black", *args],
                          capture_output=True, text=True, timeout=300)


def test_the_cli_plays_red_black_and_refuses_bad_input_with_one_line(pokerarena_cli):
    p = _play(pokerarena_cli, "--bots", "rule,count,random", "--hands", "30", "--seed", "3",
              "--json", "--option", "rounds=0")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    games = play_games(FAM, {"rounds": 0}, ["rule", "count", "random"], 30, seed=3)
    assert [s["total"] for s in out["seats"]] == [sum(g[i] for g in games) for i in range(3)]
    for args in (["--bots", "rule,bogus"], ["--bots", "rule"],
                 ["--bots", "rule,rule", "--option", "max_bet=0"],
                 ["--bots", "rule,rule", "--option", "rounds=99"]):
        p = _play(pokerarena_cli, *args)
        assert p.returncode == 2, (args, p.stderr)
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
