"""The PettingZoo environment and the Gymnasium wrapper (issue 30, section 1;
docs/interop.md): PettingZoo's own API and seed tests on every registered variant and
family (the lists are read from the registries, so a new variant is covered without a
line here), what a seat sees, exact replays, rewards, sessions, both action modes, bad
input, and the platform without PettingZoo."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from pokerarena.bots.registry import make_bot
from pokerarena.engine.actions import UNKNOWN
from pokerarena.env import SeatEnv, env, raw_env
from pokerarena.errors import UserError
from pokerarena.games import family, family_ids
from pokerarena.interop import InteropError
from pokerarena.interop.encoding import CARDS, FIXED_SLOTS
from pokerarena.interop.policy_bot import LinearPolicyBot
from pokerarena.rules import load_variant, variant_ids

ROOT = Path(__file__).resolve().parents[2]
CYCLES = 12  # moves per seat in each PettingZoo test: the suit stays a few seconds a game


def seats_of(name: str) -> int:
    lo = family(name).players[0] if name in family_ids() else load_variant(name).players[0]
    return max(2, lo)


GAMES = [*variant_ids(), *family_ids()]


def random_episode(e, seed: int, rng_seed: int = 0):
    """Play one episode with masked random moves; (observations, rewards) per step."""
    rng = np.random.default_rng(rng_seed)
    e.reset(seed=seed)
    seen, totals = [], {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        seen.append((agent, obs["observation"].copy(), obs["action_mask"].copy()))
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen, totals


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests_pass_on_every_game(name):
    players = seats_of(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice (e.g. "observation is all zeros") only
        api_test(env(name, players=players), num_cycles=CYCLES)
        seed_test(lambda: env(name, players=players), num_cycles=CYCLES)


@pytest.mark.parametrize("name,betting,players", [
    ("holdem", "no_limit", 10), ("omaha", "pot_limit", 6), ("draw5", "no_limit", 6),
    ("stud7", "fixed_limit", 8), ("shotgun_double", "fixed_limit", 4)])
def test_api_test_in_amount_mode_and_at_full_tables(name, betting, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(name, betting, players, action_mode="amount"), num_cycles=CYCLES)
        api_test(env(name, betting, players, hands=3), num_cycles=CYCLES)


def test_reset_with_a_seed_replays_exactly_and_another_seed_deals_other_cards():
    e = env("holdem", "no_limit", 4, hands=3)
    first, totals = random_episode(e, seed=7)
    again, totals2 = random_episode(e, seed=7)
    assert len(first) == len(again) and totals == totals2
    for (a, o, m), (b, p, n) in zip(first, again, strict=True):
        assert a == b and np.array_equal(o, p) and np.array_equal(m, n)
    other, _ = random_episode(e, seed=8)
    holes = lambda run: [o[:CARDS].tobytes() for _, o, _ in run[:4]]  # noqa: E731
    assert holes(first) != holes(other)


@pytest.mark.parametrize("name", ["holdem", "draw5", "stud7", "knock", "stud_mexican"])
def test_a_seat_never_sees_another_seats_hidden_cards(name):
    players = max(3, seats_of(name))
    e = raw_env(name, players=players)
    rng = np.random.default_rng(1)
    cards_part = (3 + players) * CARDS  # own, board, every seat's up cards, seen
    for seed in range(3):
        e.reset(seed=seed)
        while e.agents and not all(e.terminations.values()):
            for seat in range(players):
                vec = e.observe(f"player_{seat}")["observation"]
                shown = {int(i) % CARDS for i in np.flatnonzero(vec[:cards_part])}
                view = e.seat_view(seat)
                told = {c for _, act in view.history for c in act.cards if c != UNKNOWN}
                hidden = {c for s in range(players) if s != seat
                          for c in set(e.hand.cards_of(s)) - set(view.up[s])} - told
                assert hidden and not shown & hidden, (name, seat, shown & hidden)
            mask = e.observe(e.agent_selection)["action_mask"]
            e.step(int(rng.choice(np.flatnonzero(mask))))


def test_the_own_cards_plane_holds_exactly_the_seats_cards():
    e = raw_env("holdem", players=6)
    e.reset(seed=3)
    for seat in range(6):
        plane = e.observe(f"player_{seat}")["observation"][:CARDS]
        assert set(np.flatnonzero(plane)) == set(e.hand.cards_of(seat))


def test_rewards_are_chips_or_big_blinds_and_sum_to_zero():
    chips = raw_env("holdem", "no_limit", 3)
    bbs = raw_env("holdem", "no_limit", 3, reward="bb")
    _, won = random_episode(chips, seed=11, rng_seed=5)
    _, won_bb = random_episode(bbs, seed=11, rng_seed=5)
    assert sum(won.values()) == 0 and any(won.values())
    assert won_bb == {a: v / chips.bb for a, v in won.items()}
    assert chips.bb == 2


def test_a_session_carries_the_stacks_and_moves_the_button():
    e = raw_env("holdem", "no_limit", 3, hands=4, stack=100)
    rng = np.random.default_rng(2)
    e.reset(seed=5)
    buttons, totals = [], dict.fromkeys(e.possible_agents, 0.0)
    while e.agents:
        agent = e.agent_selection
        if not e.terminations[agent] and (not buttons or buttons[-1][0] != e.hand_no):
            buttons.append((e.hand_no, e.hand.button))
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert [b for _, b in buttons] == [h % 3 for h, _ in buttons] and len(buttons) > 1
    assert [100 + totals[f"player_{s}"] for s in range(3)] == e.stacks
    assert e.hand_no == 4 or min(e.stacks) == 0


def test_discrete_raises_are_the_minimum_pot_fractions_and_all_in():
    e = raw_env("holdem", "no_limit", 2, stack=200)
    e.reset(seed=1)
    seat = e.hand.to_act
    view = e.seat_view(seat)  # heads-up: the button's small blind first, 1 to call
    assert (view.pot, view.to_call) == (3, 1)
    # to = 2 + f * (3 + 1): 0.5 pot -> 4 (the minimum too), pot -> 6, 2 pot -> 10
    assert e.codec.raise_amounts(view) == [4, 4, 6, 10, 200]
    mask = e.observe(f"player_{seat}")["action_mask"]
    at = e.codec.raise_at
    assert list(mask[at:at + 5]) == [1, 0, 1, 1, 1]  # a repeated amount has one slot
    assert e.codec.slot_names()[at:at + 5] == ["raise_min", "raise_0.5_pot", "raise_1_pot",
                                               "raise_2_pot", "all_in"]
    e.step(at + 2)
    assert e.hand.log[-1][1].kind == "cbr" and e.hand.log[-1][1].amount == 6


def test_amount_mode_masks_exactly_the_legal_range_given_in_the_info():
    e = raw_env("holdem", "no_limit", 3, action_mode="amount", stack=100)
    e.reset(seed=4)
    agent = e.agent_selection
    info = e.infos[agent]
    mask = e.observe(agent)["action_mask"]
    raises = np.flatnonzero(mask[e.codec.raise_at:])
    assert (info["min_to"], info["max_to"]) == (4, 100)
    assert list(raises) == list(range(4, 101))
    e.step(e.codec.raise_at + 37)
    assert e.hand.log[-1][1].amount == 37


def test_draws_are_masks_of_the_cards_discarded():
    e = raw_env("draw5", "fixed_limit", 2)
    for seed in range(20):  # a deal somebody opens (jacks or better): open, then call
        e.reset(seed=seed)
        while not e.hand.is_over and e.seat_view(e.hand.to_act).phase == "bet":
            legal = e.infos[e.agent_selection]["legal"]
            e.step(e.codec.raise_at if e.codec.raise_at in legal and e.hand.to_act == 0 else 1)
        if not e.hand.is_over and e.seat_view(e.hand.to_act).phase == "draw":
            break
    seat = e.hand.to_act
    view = e.seat_view(seat)
    mask = e.observe(f"player_{seat}")["action_mask"]
    most = view.legal.discard_max  # three here: every set of 0 to 3 of the 5 cards
    assert most == 3 and list(np.flatnonzero(mask[:e.codec.subset_at])) == [0]  # or fold
    assert [bin(b).count("1") <= most for b in range(32)] == list(mask[e.codec.subset_at:])
    e.step(e.codec.subset_at + 0b10100)  # the third and the fifth card
    entry = e.hand.log[[k for k, (s, a) in enumerate(e.hand.log) if a.kind == "sd"][0]]
    assert entry == (seat, entry[1]) and entry[1].cards == (view.hole[2], view.hole[4])


def test_a_family_is_played_by_its_legal_actions_in_slot_order():
    e = raw_env("durak", players=3)
    e.reset(seed=9)
    agent = e.agent_selection
    legal = e.infos[agent]["legal"]
    mask = e.observe(agent)["action_mask"]
    assert mask.sum() == len(legal) and mask[:len(legal)].all()
    before = len(e.hand.log)
    e.step(len(legal) - 1)
    assert len(e.hand.log) == before + 1
    assert e.fam.action_json(e.hand.log[-1][1]) == legal[-1]


def test_the_dict_form_holds_the_full_view_in_the_info():
    e = raw_env("holdem", players=2, info_view=True)
    e.reset(seed=1)
    agent = e.agent_selection
    view = e.infos[agent]["view"]
    assert view["seat"] == int(agent[-1]) and len(view["hole"]) == 2
    others = [entry for entry in view["history"]
              if entry["kind"] == "dh" and entry["target"] != view["seat"]]
    assert others and all(c == "??" for entry in others for c in entry["cards"])
    assert e.seat_view(0).hole == tuple(e.hand.cards_of(0))


@pytest.mark.parametrize("call,words", [
    (lambda: env("nope"), "unknown game 'nope'"),
    (lambda: env("holdem", "nope"), "betting: 'nope'"),
    (lambda: env("holdem", options={"bogus": 1}), "bogus"),
    (lambda: env("kuhn", players=3), "2 to 2 players"),
    (lambda: env("holdem", players=11), "2 to 10 seats"),
    (lambda: env("holdem", action_mode="chips"), "'discrete' or 'amount'"),
    (lambda: env("holdem", reward="dollars"), "'chips' or 'bb'"),
    (lambda: env("durak", players=3, betting="no_limit"), "betting belong to"),
    (lambda: SeatEnv("holdem", opponents=["call", "call"]), "1 bots"),
    (lambda: SeatEnv("holdem", opponents="nobody-knows"), "nobody-knows"),
])
def test_bad_settings_get_one_clear_error(call, words):
    with pytest.raises(UserError) as err:
        call()
    assert words in str(err.value)


def test_an_illegal_action_is_one_clear_error_and_changes_nothing():
    e = env("holdem", "no_limit", 2)
    e.reset(seed=1)
    agent = e.agent_selection
    log = list(e.unwrapped.hand.log)
    with pytest.raises(InteropError, match="not legal for seat"):
        e.step(FIXED_SLOTS.index("knock"))
    assert e.unwrapped.hand.log == log
    with pytest.raises(AssertionError):  # out of the space: PettingZoo's own wrapper
        e.step(10**6)
    assert e.agent_selection == agent


def test_the_gymnasium_wrapper_passes_gymnasiums_checker_and_plays_bots():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(SeatEnv("leduc", illegal="passive"), skip_render_check=True)
        check_env(SeatEnv("red_black", players=3, opponents="rule", illegal="passive"),
                  skip_render_check=True)
    seat_env = SeatEnv("holdem", "fixed_limit", 3, seat=1, opponents=["tag", "call"])
    rng = np.random.default_rng(0)
    total = 0.0
    for ep in range(5):
        obs, info = seat_env.reset(seed=ep)
        done = False
        while not done:
            assert seat_env.aec.hand.to_act == 1 or seat_env.aec.hand.is_over
            assert np.array_equal(info["action_mask"], seat_env.action_masks())
            obs, reward, term, trunc, info = seat_env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += reward
            done = term or trunc
    assert total != 0.0


def test_max_cycles_truncates_a_long_game():
    e = raw_env("boston", players=4, max_cycles=3)
    _, _ = random_episode(e, seed=0)
    assert e.moves == 12 and e.agents == []


def test_the_platform_runs_without_pettingzoo():
    code = ("import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None\n"
            "import pokerarena.env, pokerarena.interop.policy_bot\n"
            "from pokerarena.arena.match import play_match\n"
            "try:\n    pokerarena.env.env\n"
            "except Exception as e:\n    print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("InteropError pettingzoo is not installed: pip install "
                          "'pokerarena[peers]'")


def test_the_example_trains_saves_and_enters_a_tournament(tmp_path, capsys):
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import pettingzoo_train
    finally:
        sys.path.remove(str(ROOT / "examples"))
    assert pettingzoo_train.main(["--episodes", "200", "--hands", "60",
                                  "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    policy = tmp_path / "policy.json"
    assert f"LinearPolicyBot?path={policy}" in printed and "cross table" in printed
    # the bot on the platform sees what the trainer saw: the same vector, the same move
    bot = make_bot(f"pokerarena.interop.policy_bot:LinearPolicyBot?path={policy}")
    e = raw_env("leduc")
    e.reset(seed=3)
    while not e.hand.is_over:
        seat = e.hand.to_act
        obs = e.observe(f"player_{seat}")
        view = e.seat_view(seat)
        assert np.array_equal(bot.codec.encode(view), obs["observation"])
        scores = np.where(obs["action_mask"].astype(bool),
                          bot.weights @ obs["observation"] + bot.bias, -np.inf)
        assert bot.act(view) == e.codec.decode(int(np.argmax(scores)), view)
        e.step(int(np.argmax(scores)))


def test_a_policy_file_that_is_not_one_is_one_clear_error(tmp_path):
    with pytest.raises(InteropError, match="policy file"):
        LinearPolicyBot(path=str(tmp_path / "missing.json"))
    (tmp_path / "other.json").write_text('{"weights": []}')
    with pytest.raises(InteropError, match="is not a pokerarena-linear-policy/1 file"):
        LinearPolicyBot(path=str(tmp_path / "other.json"))
