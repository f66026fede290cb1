"""Every game of the catalogue is one :class:`pokerarena.protocols.Game` and declares its
:class:`~pokerarena.protocols.GameInfo` (issue 28: "Every game, poker or not, declares a
GameInfo: players, information type, utility range, maximum length, parameters with
types and defaults"). The conformance test (test_conformance.py) holds every played
hand to its info; here the info itself is checked against the rules it is read from,
and the bound on decisions against bots that raise whenever they may."""

from __future__ import annotations

import json
import subprocess

import pytest

from pokerarena.arena.views import build_view
from pokerarena.bots.registry import make_bot
from pokerarena.engine import Game
from pokerarena.engine.actions import CALL_KIND, RAISE_KIND, Action
from pokerarena.engine.options import GameOptions
from pokerarena.games import any_game, family, family_ids
from pokerarena.rules import all_variants, variant_ids

VARIANTS = [v.id for v in all_variants()]
FIXED = [(v.id, b) for v in all_variants() for b in v.betting
         if b in ("fixed_limit", "spread_limit", "fixed_amounts") and v.id != "knock"]


def test_variant_and_family_ids_do_not_overlap():
    """``any_game`` finds a game by its id alone, so no family may share a variant's."""
    assert not set(variant_ids()) & set(family_ids())


@pytest.mark.parametrize("name", VARIANTS + list(family_ids()))
def test_every_game_deals_with_the_protocols_defaults_and_says_what_it_is(name):
    game = any_game(name)
    info = game.info
    assert game.info is info  # computed once per game
    if name in family_ids():
        fam = family(name)
        assert (info.family, info.players, info.betting) == (name, fam.players, "")
        assert not info.explicit_chance
        fields = type(game.options).model_fields   # type: ignore[attr-defined]
    else:
        variant = Game(name).variant
        assert (info.family, info.players) == ("poker", variant.players)
        assert info.betting == variant.betting[0] and info.explicit_chance
        stack = variant.stakes.stack
        assert info.utility_range == (-stack, (variant.players[1] - 1) * stack)
        fields = GameOptions.model_fields
    assert info.name == name and info.information == "imperfect"
    assert [p.name for p in info.parameters] == list(fields)
    assert [p.default for p in info.parameters] == [f.get_default(call_default_factory=True)
                                                     for f in fields.values()]
    json.dumps(info.as_dict(), default=str)
    # Game.new_hand(seed, seats): every other argument has the protocol's default
    lo = max(2, info.players[0])
    hand = game.new_hand(5, lo)
    assert not hand.is_over and hand.to_act is not None and 0 <= hand.to_act < lo
    assert hand.legal_actions()


def test_a_pot_that_can_leave_the_players_is_not_declared_zero_sum():
    """Chips leave the players with a rake (RULES.md §4), a kitty, or a deal nobody
    opens: 000_… «Если все игроки пропустили ход в первом круге ставок, игра
    аннулируется»; a variant that needs openers (jacks or better) passes its deal."""
    assert Game("holdem").info.utility == "zero_sum"   # the big blind is a bet
    assert Game("holdem", {"rake_percent": 5}).info.utility == "general_sum"
    assert Game("holdem", {"kitty_unit": 1}).info.utility == "general_sum"
    assert Game("draw5").info.utility == "general_sum"   # jacks or better to open
    assert Game("stud7").info.utility == "zero_sum"      # stud goes on after all check
    # an ante-only game whose first round everybody checks is void: its pot carries
    carried = Game("cincinnati")
    assert carried.info.utility == "general_sum"
    hand = carried.new_hand(1, 4)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(Action(CALL_KIND, legal.call) if CALL_KIND in legal.kinds
                   else make_bot("random", seed=1).act(build_view(hand, hand.to_act)))
    assert hand.result().carry > 0 and sum(hand.result().deltas) < 0


def _press(hand, seat: int, fallback) -> Action:
    """Raise by the least whenever one may, else call: the longest betting there is."""
    legal = hand.legal_actions()
    if RAISE_KIND in legal.kinds:
        return Action(RAISE_KIND, legal.min_to)
    if CALL_KIND in legal.kinds:
        return Action(CALL_KIND, legal.call)
    return fallback.act(build_view(hand, seat))


@pytest.mark.parametrize(("variant", "betting"), FIXED)
def test_the_most_decisions_hold_when_every_seat_raises_all_it_may(variant, betting):
    game = Game(variant, {"betting": betting})
    bound = game.info.max_length
    assert bound is not None
    lo, hi = game.variant.players
    for seats in sorted({max(2, lo), hi}):
        fallback = make_bot("random", seed=seats)
        hand = game.new_hand(seats, seats)
        decisions = 0
        while not hand.is_over:
            hand.apply(_press(hand, hand.to_act, fallback))
            decisions += 1
        assert 0 < decisions <= bound


def _longest(game, seats: int, path: tuple = ()) -> int:
    """The most decisions of any line of play from ``path`` (one deal, every fold,
    call and least raise tried): an exhaustive walk, for games small enough."""
    hand = game.new_hand(0, seats)
    for action in path:
        hand.apply(action)
    if hand.is_over:
        return len(path)
    legal = hand.legal_actions()
    moves = [Action(k, legal.min_to if k == RAISE_KIND else legal.call if k == CALL_KIND else 0)
             for k in legal.kinds]
    return max(_longest(game, seats, (*path, m)) for m in moves)


@pytest.mark.parametrize("variant", ["kuhn", "leduc"])
def test_the_most_decisions_are_exact_where_the_whole_game_can_be_walked(variant):
    """Kuhn: one round, a bet of 1 and no raise (check, bet, call: 3 decisions); Leduc:
    two rounds of at most one bet and one raise (check, bet, raise, call: 4 a round)."""
    game = Game(variant)
    assert _longest(game, 2) == game.info.max_length == {"kuhn": 3, "leduc": 8}[variant]


def test_knock_pokers_turns_have_no_declared_bound():
    """003_… knock poker: a card taken from the discards («dt») leaves the stock as it
    was, so the rules bound the turns by no count; the info says so (None)."""
    assert Game("knock").info.max_length is None
    assert family("durak").make(None).info.max_length is None
    assert family("red_black").make(None).info.max_length == 9   # one bet a player, 10 seats


def _cli(cli: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, "variants", *args], capture_output=True, text=True,
                          timeout=120)


def test_variants_info_prints_a_games_info(pokerarena_cli):
    r = _cli(pokerarena_cli, "--info", "leduc", "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got == json.loads(json.dumps(Game("leduc").info.as_dict(), default=str))
    assert got["utility"] == "zero_sum" and got["players"] == [2, 2]
    r = _cli(pokerarena_cli, "--info", "holdem", "--betting", "pot_limit")
    assert r.returncode == 0 and "holdem (pot_limit)" in r.stdout and "parameters:" in r.stdout
    r = _cli(pokerarena_cli, "--info", "durak")
    assert r.returncode == 0 and "sums to -1" in r.stdout and "no bound" in r.stdout


@pytest.mark.parametrize(("args", "words"), [
    (("--info", "nosuch"), "unknown variant"),
    (("--info", "durak", "--betting", "no_limit"), "game family"),
    (("--info", "holdem", "--betting", "nolimit"), "not offered"),
    (("--betting", "no_limit"), "goes with --info"),
    (("--info", "holdem", "--schema"), "give one of them"),
])
def test_variants_info_refuses_bad_input_in_one_line(pokerarena_cli, args, words):
    r = _cli(pokerarena_cli, *args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and words in r.stderr, r.stderr
