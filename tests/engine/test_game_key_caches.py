"""Every cache that depends on the game is keyed by the whole game (``Game.key``: the
option-transformed variant, the betting system and every option), not by the variant id
(issue 11): an option sweep changes the deck, the ranking and the showdown of a variant
without changing its id, and one worker that plays the whole sweep in one process must
get exactly what each game gives in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from pokerarena.arena.faults import FaultPolicy
from pokerarena.arena.match import play_match
from pokerarena.arena.views import ViewMaker
from pokerarena.bots.strength.estimate import profile, register_game
from pokerarena.engine import Game

# (variant, options): the catalogue game first, then options that change its deck (a
# joker), its ranking (wild deuces) or its showdown (high-low), or only its stakes (its
# own warm-up and pre-flop tables all the same); draw5 the other way round (the option
# game first, then the plain one)
SWEEP = [
    ("holdem", {"betting": "no_limit"}),
    ("holdem", {"betting": "no_limit", "joker": True}),
    ("holdem", {"betting": "no_limit", "wild": "deuces"}),
    ("holdem", {"betting": "no_limit", "blinds": [2, 4]}),
    ("stud7", {}),
    ("stud7", {"hilo": "cards_speak_8"}),
    ("draw5", {"hilo": "cards_speak"}),
    ("draw5", {}),
]
HANDS = 60
SEED = 5
BOTS = ["tag", "equity"]

_PLAY = """
import json, sys
from pokerarena.arena.faults import FaultPolicy
from pokerarena.arena.match import play_match
from pokerarena.engine import Game
variant, options, bots, hands, seed = json.loads(sys.argv[1])
res = play_match(Game(variant, options), bots, hands, seed,
                 policy=FaultPolicy(decision_time=None, hand_time=None))
print(json.dumps([[e.name, e.net, e.samples, e.decisions, e.faults] for e in res.entrants]
                 + [[f.kind for f in res.faults], res.hands, res.chips_conserved]))
"""


def _summary(res) -> list:
    """What a match produced, minus the clock (JSON round trip: as the subprocess's)."""
    return json.loads(json.dumps(
        [[e.name, e.net, e.samples, e.decisions, e.faults] for e in res.entrants]
        + [[f.kind for f in res.faults], res.hands, res.chips_conserved]))


def test_sweep_in_one_process_matches_fresh_processes():
    # this process plays the whole sweep, one game after another ...
    policy = FaultPolicy(decision_time=None, hand_time=None)
    swept = [_summary(play_match(Game(v, o), BOTS, HANDS, SEED, policy=policy))
             for v, o in SWEEP]
    # ... and every game again in a fresh process of its own (all at once; after the
    # sweep, so that they find the kernels it compiled in numba's disk cache)
    fresh = [subprocess.Popen([sys.executable, "-c", _PLAY,
                               json.dumps([v, o, BOTS, HANDS, SEED])],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for v, o in SWEEP]
    for (v, o), proc, mine in zip(SWEEP, fresh, swept, strict=True):
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-3000:]
        assert json.loads(out.strip().splitlines()[-1]) == mine, (v, o)


def test_games_differing_in_one_option_get_their_own_profiles():
    plain, joker = register_game(Game("holdem")), register_game(Game("holdem", {"joker": True}))
    assert plain is not joker
    assert plain.deck.size == 52 and joker.deck.size == 53
    # an equal game (another object) shares the profile
    assert register_game(Game("holdem")) is plain
    assert register_game(Game("holdem", {"joker": True})) is joker
    stud = register_game(Game("stud7"))
    hilo = register_game(Game("stud7", {"hilo": "cards_speak_8"}))
    assert stud is not hilo and stud.low is None and hilo.low is not None
    wild = register_game(Game("holdem", {"wild": "deuces"}))
    assert wild is not plain and wild.high is not plain.high


def test_a_view_finds_the_profile_of_its_own_game():
    for options in ({"joker": True}, {"wild": "deuces"}, {}):
        game = Game("holdem", options)
        hand = game.new_hand(np.random.default_rng(1), 2, [200, 200], 0)
        view = ViewMaker(hand).view(hand.to_act)
        assert profile(view) is register_game(game), options
    game = Game("stud7", {"hilo": "cards_speak_8"})
    hand = game.new_hand(np.random.default_rng(1), 3, [200] * 3, 0)
    view = ViewMaker(hand).view(hand.to_act)
    assert profile(view).low is not None


def test_a_bot_that_plays_on_in_another_game_changes_profile():
    from pokerarena.bots.strength.tag import TagBot
    from pokerarena.rules import load_variant

    # one variant object: the views' variant (and betting) strings are the same objects
    # in all three games, which differ only in a showdown option
    variant = load_variant("holdem")
    bot = TagBot(seed=3)
    for options in ({}, {"wild": "deuces"}, {}):
        game = Game(variant, options)
        hand = game.new_hand(np.random.default_rng(2), 2, [200, 200], 0)
        bot.act(ViewMaker(hand).view(hand.to_act))
        assert bot._prof is register_game(game), options
