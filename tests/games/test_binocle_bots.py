"""Binocle's bots and invariants: every card accounted for at every step, random legal
play always finishes, an illegal move changes nothing, a replay reproduces the game,
the family's JSON forms round-trip, the count bot's choice is the exact expectation's,
and in duplicate games (same cards, seats swapped) with dropping out allowed the count
bot beats the rule bot and the rule bot beats random."""

from __future__ import annotations

import json
import random
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerarena.engine.actions import IllegalAction
from pokerarena.games import family
from pokerarena.games.binocle import BinocleError, BinocleGame, Move
from pokerarena.games.binocle.bots import CountBot
from pokerarena.games.binocle.exact import move_values
from pokerarena.games.play import duplicate, play_games

FAM = family("binocle")
OPTIONS = st.fixed_dictionaries({
    "dealer_plays": st.booleans(), "tie": st.sampled_from(["order", "split"]),
    "restake": st.booleans(), "drop": st.booleans(),
    "unclaimed": st.sampled_from(["return", "dealer"])})


def _cards_accounted(hand) -> None:
    cards = [c for h in hand.hands for c in h] + hand.turned + hand.stock
    assert sorted(cards) == sorted(hand.game.deck)


@settings(max_examples=40, deadline=None)
@given(OPTIONS, st.integers(2, 8), st.integers(0, 10**6))
def test_random_legal_play_finishes_with_every_card_accounted_for(options, seats, seed):
    """Any legal moves, any options: the game ends, no card is lost or doubled, the
    stakes are all paid out (the deltas sum to 0) and a replay gives the same game."""
    game = BinocleGame(options)
    try:
        hand = game.new_hand(seed, seats)
    except BinocleError:
        assert seats == 2 and not options["dealer_plays"]
        return
    rng = random.Random(seed)
    while not hand.is_over:
        _cards_accounted(hand)
        seat = hand.to_act
        before = (list(hand.log), list(hand.staked), len(hand.turned), list(hand.active))
        with pytest.raises(IllegalAction):
            hand.apply(Move("stake", hand.asked(seat) + 1), seat)
        with pytest.raises(IllegalAction):
            hand.apply(hand.legal_actions()[0], (seat + 1) % seats)
        assert (hand.log, hand.staked, len(hand.turned), hand.active) == before
        hand.apply(rng.choice(hand.legal_actions()), seat)
    _cards_accounted(hand)
    res = hand.result()
    assert sum(res.deltas) == pytest.approx(0) and sum(res.staked) == sum(hand.staked)
    assert all(all(hand.covered[s]) for s in res.winners)
    again = game.replay(seed, seats, hand.log, hand.dealer)
    assert again.result() == res and again.log == hand.log


def test_the_json_forms_round_trip_and_bad_ones_are_illegal_actions():
    hand = BinocleGame({"drop": True}).new_hand(3, 3, dealer=0)
    view = hand.observation(hand.to_act)
    data = json.loads(json.dumps(FAM.view_json(view)))
    assert data["to_act"] == hand.to_act and len(data["hands"][1]) == 5
    assert data["stock"] + len(data["turned"]) == 37 and data["pot"] == 0
    for a in view.legal:
        assert FAM.parse_action(FAM.action_json(a), view) == a
    for bad in ({"kind": "stake"}, {"kind": "stake", "chips": "3"}, {"kind": "fold"}, [],
                {"kind": "drop", "chips": 1}):
        with pytest.raises(IllegalAction):
            FAM.parse_action(bad, view)
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    rows = FAM.record_rows(hand)
    assert len(rows) == 3 and len(rows[0]) == len(FAM.record.columns)
    assert sum(r[-1] for r in rows) == pytest.approx(0) and sum(r[6] for r in rows) >= 1


def test_the_count_bot_takes_the_move_of_higher_exact_expectation():
    """Dropping out forfeits the chips on the table; staking costs the card's value and
    keeps the chance of the pot: the count bot compares the two exact expectations."""
    game = BinocleGame({"drop": True})
    bot, drops, stakes = CountBot(0), 0, 0
    for seed in range(30):
        hand = game.new_hand(seed, 4, 0)
        while not hand.is_over:
            view = hand.observation(hand.to_act)
            stake, drop = move_values(view)
            move = bot.act(view)
            assert move == (view.legal[0] if stake >= drop else Move("drop"))
            drops += move.kind == "drop"
            stakes += move.kind == "stake"
            hand.apply(move)
    assert drops > 0 and stakes > drops


def test_the_same_seed_plays_the_same_games():
    opts = {"drop": True}
    a = play_games(FAM, opts, ["count", "random", "rule"], 20, seed=4)
    assert a == play_games(FAM, opts, ["count", "random", "rule"], 20, seed=4)
    assert a != play_games(FAM, opts, ["count", "random", "rule"], 20, seed=5)
    with pytest.raises(BinocleError, match="unknown bot"):
        FAM.new_bot("bogus", 1)


def test_count_beats_rule_significantly_in_duplicate_games():
    c = duplicate(FAM, "count", "rule", players=4, games=300, seed=1, options={"drop": True})
    assert c.significant and c.mean > 0, c.as_text()


def test_rule_beats_random_significantly_in_duplicate_games():
    c = duplicate(FAM, "rule", "random", players=4, games=300, seed=2, options={"drop": True})
    assert c.significant and c.mean > 0, c.as_text()


def _play(cli: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, "play", "--variant", "binocle", *args],
                          capture_output=True, text=True, timeout=300)


def test_the_cli_plays_binocle_and_refuses_bad_input_with_one_line(pokerarena_cli):
    p = _play(pokerarena_cli, "--bots", "rule,count,random", "--hands", "20", "--seed", "3",
              "--json", "--option", "drop=true")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    games = play_games(FAM, {"drop": True}, ["rule", "count", "random"], 20, seed=3)
    assert [s["total"] for s in out["seats"]] == pytest.approx(
        [sum(g[i] for g in games) for i in range(3)])
    for args in (["--bots", "rule,bogus"], ["--bots", "rule"],
                 ["--bots", "rule,rule", "--option", "tie=first"],
                 ["--bots", "rule,rule", "--option", "dealer_plays=false"]):
        p = _play(pokerarena_cli, *args)
        assert p.returncode == 2, (args, p.stderr)
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
