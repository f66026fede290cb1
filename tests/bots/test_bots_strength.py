"""The stronger bots beat the weaker ones by a statistically significant margin in a
modest heads-up duplicate match (the 95% confidence interval of the mbb/hand lies above
zero). Longer measurements: ``pokerarena match ... --duplicate`` (docs/bots.md)."""

from __future__ import annotations

import pytest

from pokerarena.arena.match import play_match
from pokerarena.engine import Game

GAMES = {"nl_holdem": ("holdem", "no_limit", 400), "fl_holdem": ("holdem", "fixed_limit", 200),
         "stud7": ("stud7", "fixed_limit", 300), "draw5": ("draw5", "fixed_limit", 300)}


@pytest.mark.parametrize("weak", ["random", "call", "maniac"])
@pytest.mark.parametrize("strong", ["tag", "equity"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_strong_bots_beat_weak_ones(game_id, strong, weak):
    variant, betting, hands = GAMES[game_id]
    res = play_match(Game(variant, {"betting": betting}), [strong, weak], hands, seed=11,
                     duplicate=True)
    stats = res.entrants[0].stats(res.hands, res.big_blind)
    assert res.faults == []
    assert stats["mbb_per_hand"] - stats["ci95"] > 0, stats
