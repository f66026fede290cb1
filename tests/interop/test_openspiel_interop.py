"""OpenSpiel both ways (docs/interop.md, "OpenSpiel"): our variants as OpenSpiel games,
checked by OpenSpiel's own tools against its own ``kuhn_poker`` and ``leduc_poker``, and
OpenSpiel policies played on the platform as ``openspiel:`` bots, checked by the exact
evaluator against OpenSpiel's values of the same policies."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
from open_spiel.python.algorithms.get_all_states import get_all_states
from openspiel_peer import Mirror

from pokerarena.arena.views import build_view
from pokerarena.bots.base import declared_policy
from pokerarena.bots.registry import check_bots_for_game, make_bot
from pokerarena.cli import main
from pokerarena.engine import Game
from pokerarena.engine.keys import game_info_of
from pokerarena.interop import InteropError
from pokerarena.interop import openspiel_game as og
from pokerarena.interop.openspiel_bot import FORMAT, save_policy, tabular_policy
from pokerarena.solvers.exact import evaluate

CFR_ITERATIONS = 8
TIGHT = 1e-9


def _values(game, pol_a, pol_b):
    """(a's, b's) expected chips per hand, each averaged over its two seats: the exact
    evaluator's ``values``."""
    root = game.new_initial_state()
    ab = expected_game_score.policy_value(root, [pol_a, pol_b])
    ba = expected_game_score.policy_value(root, [pol_b, pol_a])
    return (ab[0] + ba[1]) / 2, (ab[1] + ba[0]) / 2


def _declared_on_ours(game, bot):
    """A bot's declared policy as an OpenSpiel tabular policy of our game (every
    decision's view from the state itself)."""
    pol = os_policy.TabularPolicy(game)
    fn = declared_policy(bot)
    for i, state in enumerate(pol.states):
        view = state.seat_view(state.current_player())
        row = pol.action_probability_array[i]
        row[:] = 0.0
        for action, p in fn(view):
            row[og.to_id(action, view.legal)] += p
    return pol


@pytest.fixture(scope="module")
def leduc_cfr():
    """CFR_ITERATIONS of OpenSpiel's CFR on our Leduc and on its own."""
    out = {}
    for name in ("pokerarena_leduc", "leduc_poker"):
        game = pyspiel.load_game(name)
        solver = cfr.CFRSolver(game)
        for _ in range(CFR_ITERATIONS):
            solver.evaluate_and_update_policy()
        out[name] = (game, solver.average_policy())
    return out


# Our games in OpenSpiel --------------------------------------------------------------
def test_registered_games_are_the_two_seat_betting_variants():
    exposed = og.exposed_variants()
    assert {"kuhn", "leduc", "holdem", "omaha", "stud7", "razz"} <= set(exposed)
    assert "draw5" not in exposed and "badugi" not in exposed  # draws are not exposed
    for vid in exposed:
        assert og.PREFIX + vid in og.GAMES
        assert og.PREFIX + vid in pyspiel.registered_names()
    game = pyspiel.load_game("pokerarena_holdem(betting=no_limit,stack=40)")
    assert game.get_parameters() == {"betting": "no_limit", "stack": 40}
    assert game.num_distinct_actions() == og.RAISE_TO + 81
    with pytest.raises(InteropError, match="not 'pot_limit'"):
        pyspiel.load_game("pokerarena_leduc(betting=pot_limit)")
    with pytest.raises(InteropError, match="not exposed to OpenSpiel"):
        og.load("draw5")


@pytest.mark.parametrize("spec", ["pokerarena_kuhn", "pokerarena_leduc",
                                  "pokerarena_holdem", "pokerarena_holdem(betting=no_limit)",
                                  "pokerarena_stud7", "pokerarena_omaha(betting=pot_limit)"])
def test_openspiel_random_simulation_and_serialization(spec):
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
    rng = random.Random(7)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1.0, abs=1e-12)
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        copy = game.deserialize_state(state.serialize())
        assert copy.history() == state.history() and str(copy) == str(state)
        again_game, again = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state))
        assert str(again_game) == str(game) and again.history() == state.history()
        if not state.is_chance_node() and not state.is_terminal():
            p = state.current_player()
            assert again.information_state_string(p) == state.information_state_string(p)
    assert sum(state.returns()) == 0 and state.returns() == copy.returns()


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_fixed_policies_have_openspiels_exact_values(name):
    ours, theirs = pyspiel.load_game(f"pokerarena_{name}"), pyspiel.load_game(f"{name}_poker")
    for game in (ours, theirs):
        assert game.num_players() == 2
    u_ours, u_theirs = os_policy.UniformRandomPolicy(ours), os_policy.UniformRandomPolicy(theirs)
    e_ours = exploitability.exploitability(ours, u_ours)
    assert e_ours == pytest.approx(exploitability.exploitability(theirs, u_theirs), abs=TIGHT)
    v_ours = expected_game_score.policy_value(ours.new_initial_state(), [u_ours, u_ours])
    v_theirs = expected_game_score.policy_value(theirs.new_initial_state(), [u_theirs] * 2)
    assert list(v_ours) == pytest.approx(list(v_theirs), abs=TIGHT)
    if name == "kuhn":
        assert e_ours == pytest.approx(11 / 24, abs=TIGHT)
    # the same information sets: as many as OpenSpiel's own game has
    def infosets(game):
        return {s.information_state_string(s.current_player())
                for s in get_all_states(game, include_terminals=False,
                                        include_chance_states=False).values()}
    assert len(infosets(ours)) == len(infosets(theirs)) == {"kuhn": 12, "leduc": 936}[name]


def test_cfr_on_our_leduc_reaches_openspiels_value(leduc_cfr):
    (ours, avg_ours), (theirs, avg_theirs) = leduc_cfr["pokerarena_leduc"], leduc_cfr["leduc_poker"]
    conv_ours = exploitability.nash_conv(ours, avg_ours)
    conv_theirs = exploitability.nash_conv(theirs, avg_theirs)
    assert conv_ours == pytest.approx(conv_theirs, abs=TIGHT)
    assert conv_ours < 4.747 / 2  # uniform: 4.747; CFR is converging
    v_ours = expected_game_score.policy_value(ours.new_initial_state(), [avg_ours] * 2)
    v_theirs = expected_game_score.policy_value(theirs.new_initial_state(), [avg_theirs] * 2)
    assert list(v_ours) == pytest.approx(list(v_theirs), abs=TIGHT)
    assert v_ours[0] < 0.0  # Leduc favours player 1 (its value for player 0: -0.0856)


def test_kuhn_cfr_converges_to_the_game_value_on_both():
    for name in ("pokerarena_kuhn", "kuhn_poker"):
        game = pyspiel.load_game(name)
        solver = cfr.CFRSolver(game)
        for _ in range(300):
            solver.evaluate_and_update_policy()
        avg = solver.average_policy()
        value = expected_game_score.policy_value(game.new_initial_state(), [avg, avg])[0]
        assert value == pytest.approx(-1 / 18, abs=3e-3), name
        assert exploitability.exploitability(game, avg) < 5e-3


def test_a_seat_never_sees_the_other_seats_cards():
    """Swap the opponent's hidden card for any other unseen one: every string and
    tensor of the seat is unchanged; and its own card is in them."""
    game = pyspiel.load_game("pokerarena_leduc")
    walk = og.walk_of("leduc", "fixed_limit", 100)
    states = get_all_states(game, include_terminals=False, include_chance_states=False)
    checked = 0
    for state in list(states.values())[::19]:
        hist = state.history()
        used = {a for i, a in enumerate(hist)
                if walk.record(tuple(hist[:i])).player == pyspiel.PlayerId.CHANCE}
        for p in (0, 1):
            hidden = 1 - p  # history[0] and [1] deal players 0 and 1 their cards
            for other in sorted(set(walk.walk.deck_list) - used):
                swapped = list(hist)
                swapped[hidden] = other
                twin = game.new_initial_state()
                for a in swapped:
                    twin.apply_action(a)
                assert twin.information_state_string(p) == state.information_state_string(p)
                assert twin.observation_string(p) == state.observation_string(p)
                assert twin.information_state_tensor(p) == state.information_state_tensor(p)
                assert twin.observation_tensor(p) == state.observation_tensor(p)
                assert twin.information_state_string(hidden) != \
                    state.information_state_string(hidden)
                checked += 1
    assert checked > 200
    state = game.new_initial_state()
    for a in (38, 47):  # Jh to player 0, Ks to player 1
        state.apply_action(a)
    assert "Jh" in state.information_state_string(0) and "Ks" not in \
        state.information_state_string(0)
    assert state.information_state_string(1).endswith("d0:?? d1:Ks")


@pytest.mark.parametrize("variant,betting", [("holdem", "no_limit"), ("stud7", "fixed_limit"),
                                             ("omaha", "pot_limit")])
def test_a_table_seat_and_the_openspiel_player_see_the_same_information_state(variant,
                                                                              betting):
    """A hand dealt automatically at a table, replayed in the OpenSpiel game with its
    cards: at every decision the table view's string is the game's, so a bot computes
    from its view exactly the key a policy of the game was trained on."""
    game = pyspiel.load_game(f"pokerarena_{variant}(betting={betting})")
    table = Game(variant, {"betting": betting})
    info = game_info_of(table)
    rng = random.Random(5)
    for seed in range(3):
        hand = table.new_hand(seed, 2, [table.variant.stakes.stack] * 2, button=1)
        state = game.new_initial_state()
        dealt = 0
        while not state.is_terminal():
            if state.is_chance_node():
                cards = [c for _, a in hand.log if a.kind in ("dh", "db") for c in a.cards]
                state.apply_action(cards[dealt])
                dealt += 1
                continue
            seat = hand.to_act
            assert state.current_player() == seat
            view = build_view(hand, seat, game_info=info)
            assert og.info_state_string(view) == state.information_state_string(seat)
            assert og.observation_string(view) == state.observation_string(seat)
            a = rng.choice(state.legal_actions())
            hand.apply(og.to_action(a, view.legal))
            state.apply_action(a)
        assert hand.is_over and list(state.returns()) == list(hand.result().deltas)


# OpenSpiel's policies as our bots --------------------------------------------------------
def test_a_cfr_policy_of_openspiels_leduc_plays_and_exact_agrees(leduc_cfr, tmp_path, capsys):
    game, avg = leduc_cfr["leduc_poker"]
    path = save_policy(tmp_path / "leduc.json", game, avg)
    doc = json.loads(path.read_text())
    assert doc["format"] == FORMAT and doc["game"] == "leduc_poker()"
    assert len(doc["policy"]) == 936
    loaded = tabular_policy(path)
    assert np.array_equal(loaded.action_probability_array, avg.action_probability_array)
    spec = f"openspiel:leduc_poker?policy={path}"
    # a short match against built-in bots
    for other in ("call", "random"):
        assert main(["match", "--variant", "leduc", "--bots", f"{spec},{other}",
                     "--hands", "60", "--seed", "3", "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["faults"] == [] and result["chips_conserved"]
        assert result["entrants"][0]["decisions"] > 0
    # the exact evaluator's figures are OpenSpiel's for the same policies
    assert main(["exact", "--variant", "leduc", "--bots", f"{spec},call", "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    call = make_bot("call")
    call_pol = Mirror("leduc").tabular([call, call])
    values = _values(game, loaded, call_pol)
    assert exact["values"] == pytest.approx(list(values), abs=TIGHT)
    assert exact["exploitability"][0] == pytest.approx(
        exploitability.exploitability(game, loaded), abs=TIGHT)


def test_a_cfr_policy_of_our_leduc_plays_and_exact_agrees(leduc_cfr, tmp_path):
    game, avg = leduc_cfr["pokerarena_leduc"]
    path = save_policy(tmp_path / "ours.json", game, avg)
    bot = make_bot(f"openspiel:pokerarena_leduc?policy={path}", seed=1)
    rand = make_bot("random")
    result = evaluate("leduc", [bot, rand], ["cfr", "random"])
    values = _values(game, avg, _declared_on_ours(game, rand))
    assert result.values == pytest.approx(values, abs=TIGHT)
    assert result.exploitability[0] == pytest.approx(
        exploitability.exploitability(game, avg), abs=TIGHT)
    # the uniform policy, named without a file, is OpenSpiel's uniform random policy
    uniform = make_bot("openspiel:kuhn_poker?policy=uniform")
    kuhn = pyspiel.load_game("kuhn_poker")
    assert evaluate("kuhn", [uniform, make_bot("call")]).exploitability[0] == \
        pytest.approx(exploitability.exploitability(kuhn, os_policy.UniformRandomPolicy(kuhn)),
                      abs=TIGHT)


def test_bad_policies_and_games_are_one_error(tmp_path, capsys):
    kuhn = pyspiel.load_game("kuhn_poker")
    good = save_policy(tmp_path / "kuhn.json", kuhn, os_policy.UniformRandomPolicy(kuhn))
    cases = {
        "notjson.json": "not json at all",
        "format.json": json.dumps({"format": "something-else", "game": "kuhn_poker",
                                   "policy": {}}),
        "sum.json": json.dumps({"format": FORMAT, "game": "kuhn_poker",
                                "policy": {"0": {"0": 0.5, "1": 0.6}}}),
        "rows.json": json.dumps({"format": FORMAT, "game": "kuhn_poker",
                                 "policy": {"0": [0.5, 0.5]}}),
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    for spec, message in [
        (f"openspiel:kuhn_poker?policy={tmp_path / 'notjson.json'}", "policy file"),
        (f"openspiel:kuhn_poker?policy={tmp_path / 'format.json'}", "is not a " + FORMAT),
        (f"openspiel:kuhn_poker?policy={tmp_path / 'sum.json'}", "not a distribution"),
        (f"openspiel:kuhn_poker?policy={tmp_path / 'rows.json'}", "not an object"),
        (f"openspiel:kuhn_poker?policy={tmp_path / 'missing.json'}", "No such file"),
        (f"openspiel:leduc_poker?policy={good}", "is a policy for kuhn_poker"),
        ("openspiel:no_such_game?policy=uniform", "is not an OpenSpiel game"),
        ("openspiel:tic_tac_toe?policy=uniform", "is not one of our games"),
        ("openspiel:kuhn_poker", "give a policy"),
        ("openspiel:kuhn_poker?stack=5&policy=uniform", "options of our games"),
        ("openspiel:pokerarena_leduc?betting=no_limit&policy=uniform", "not 'no_limit'"),
    ]:
        with pytest.raises(InteropError, match=message):
            make_bot(spec)
    # our games' parameters as spec options: the game the table plays
    nl = make_bot("openspiel:pokerarena_holdem?betting=no_limit&stack=40&policy=uniform")
    assert str(nl.game) == "pokerarena_holdem(betting=no_limit,stack=40)"
    nl.check_game(game_info_of(Game("holdem", {"betting": "no_limit"})), 2)
    with pytest.raises(InteropError, match="plays holdem heads-up"):
        nl.check_game(game_info_of(Game("holdem", {"betting": "pot_limit"})), 2)
    # at the table: another game than the policy's is refused before any hand
    with pytest.raises(InteropError, match="plays kuhn heads-up"):
        check_bots_for_game([f"openspiel:kuhn_poker?policy={good}"], [Game("leduc")], 2)
    for argv in (["exact", "--variant", "leduc", "--bots",
                  f"openspiel:kuhn_poker?policy={good},call"],
                 ["match", "--variant", "leduc", "--bots",
                  f"openspiel:leduc_poker?policy={tmp_path / 'sum.json'},call"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "Traceback" not in err[0], err


def test_the_platform_runs_without_open_spiel():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "from pokerarena.bots.registry import make_bot\n"
            "from pokerarena.arena.match import play_match\n"
            "make_bot('call')\n"
            "try:\n    make_bot('openspiel:leduc_poker?policy=uniform')\n"
            "except Exception as e:\n    print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("InteropError open_spiel is not installed: pip install "
                          "'pokerarena[peers]'")
