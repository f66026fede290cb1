"""One conformance test over every registered game, and the golden playthroughs (issue 28,
the habits of OpenSpiel and PokerKit).

Every shipped variant under each betting system it offers, and every game family, is
played by its ``random`` bots and held to what any game of the platform promises:
hands end, only legal moves are taken and an illegal one is refused without changing
the hand, chips are conserved, a seat's view holds no other seat's down cards, the same
seed plays the same hand, and a finished hand's record replays to the same result (PHH
for poker, the action log for a family). The golden playthroughs
(``tests/data/playthroughs/``, written by ``tools/playthroughs.py --write``) pin what
each seed plays, so a change of play anywhere shows as a diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerarena.arena.playthroughs import (
    engine_games,
    engine_text,
    family_text,
    play_engine_hand,
    play_family_game,
)
from pokerarena.arena.views import build_view
from pokerarena.bots.registry import make_bot
from pokerarena.engine import Game
from pokerarena.engine.actions import (
    CALL_KIND,
    FOLD_KIND,
    RAISE_KIND,
    Action,
    IllegalAction,
)
from pokerarena.engine.phh.export import hand_to_phh
from pokerarena.engine.phh.replay import replay
from pokerarena.errors import UserError
from pokerarena.games import family, family_ids

FOLDER = Path(__file__).resolve().parents[1] / "data" / "playthroughs"
GAMES = list(engine_games())
VARIANTS = list(dict.fromkeys(v for v, _ in GAMES))
REGEN = "tools/playthroughs.py --write regenerates it; say in the commit why play changed"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_variants_playthrough_is_as_written(variant):
    path = FOLDER / "engine" / f"{variant}.txt"
    assert path.read_text() == engine_text(variant), f"{path} differs: {REGEN}"


@pytest.mark.parametrize("fam", family_ids())
def test_a_familys_playthrough_is_as_written(fam):
    path = FOLDER / "families" / f"{fam}.txt"
    assert path.read_text() == family_text(fam), f"{path} differs: {REGEN}"


def _illegal(legal, hand) -> Action | None:
    """A move the engine must refuse here: a kind it does not allow, or a bet past the
    largest it allows."""
    for kind in (FOLD_KIND, CALL_KIND, RAISE_KIND):
        if kind not in legal.kinds:
            return Action(kind, 10**9 if kind == RAISE_KIND else 0)
    return Action(RAISE_KIND, legal.max_to + hand.game.variant.stakes.stack * 10 + 1)


def _down_cards(hand, seat: int, up: tuple[int, ...]) -> set[int]:
    return set(hand.cards_of(seat)) - set(up)


def _play_checked(variant: str, betting: str, seed: int, seats: int):
    game = Game(variant, {"betting": betting})
    bots = [make_bot("random", seed=seed * 97 + s) for s in range(seats)]
    hand = game.new_hand(seed, seats, [game.variant.stakes.stack] * seats, 0)
    probed = False
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 5000, "the hand does not end"
        seat = hand.to_act
        view = build_view(hand, seat)
        assert list(view.hole) == hand.cards_of(seat)
        shown = set(view.board).union(*view.up)
        for other in range(seats):   # a folded hand's cards may be dealt again (draw)
            if other != seat and not view.folded[other]:
                assert not _down_cards(hand, other, view.up[other]) & (shown | set(view.hole))
        legal = hand.legal_actions()
        if not probed and legal.kinds and set(legal.kinds) <= {FOLD_KIND, CALL_KIND,
                                                               RAISE_KIND}:
            probed = True
            before = (len(hand.log), hand.legal_actions(), list(hand.stacks()))
            bad = _illegal(legal, hand)
            if bad is not None:
                with pytest.raises((IllegalAction, UserError, ValueError)):
                    hand.apply(bad)
                assert (len(hand.log), hand.legal_actions(), list(hand.stacks())) == before
        action = bots[seat].act(view)
        assert action.kind in legal.kinds, (action, legal)
        hand.apply(action)
    res = hand.result()
    assert all(s >= 0 for s in res.stacks)
    assert sum(res.deltas) + res.rake + res.kitty + res.carry == hand.carry_in
    _holds_to_info(game.info, steps, res.deltas)
    return hand


def _holds_to_info(info, decisions: int, deltas) -> None:
    """A finished hand keeps what its game declares: no more decisions than
    ``max_length``, each seat's result inside ``utility_range``, and the results' sum
    where the utility is zero- or constant-sum."""
    if info.max_length is not None:
        assert decisions <= info.max_length, (decisions, info.max_length)
    if info.utility_range is not None:
        lo, hi = info.utility_range
        assert all(lo <= d <= hi for d in deltas), (list(deltas), info.utility_range)
    if info.utility != "general_sum":
        assert sum(deltas) == pytest.approx(info.utility_sum), (list(deltas), info.utility)


@pytest.mark.parametrize(("variant", "betting"), GAMES)
def test_every_poker_game_keeps_the_promises(variant, betting):
    game = Game(variant, {"betting": betting})
    lo, hi = game.variant.players
    for seed, seats in ((0, max(2, lo)), (2, hi)):   # the least and the fullest table
        hand = _play_checked(variant, betting, seed, seats)
        again = play_engine_hand(variant, betting, seed, seats)
        assert hand.log == again.log and hand.result().deltas == again.result().deltas
        record = hand_to_phh(hand)
        assert replay(record).finishing_stacks == record["finishing_stacks"]


@pytest.mark.parametrize("fam", family_ids())
def test_every_game_family_keeps_the_promises(fam):
    f = family(fam)
    assert f.action_json is not None and f.parse_action is not None
    game = f.make(None)
    lo, hi = f.players
    for seed, seats in ((0, lo), (1, hi)):
        hand = play_family_game(fam, seed, seats)
        again = play_family_game(fam, seed, seats)
        assert hand.log == again.log and hand.result().deltas == again.result().deltas
        _holds_to_info(game.info, len(hand.log), hand.result().deltas)
        back = game.replay(seed, seats, hand.log, 0)
        assert back.is_over and back.result().deltas == hand.result().deltas
        # the protocol's JSON of every move reads back as the move, at its own view
        probe = game.new_hand(seed, seats, 0)
        for seat, action in hand.log:
            view = probe.observation(seat)
            text = json.loads(json.dumps(f.action_json(action)))
            assert f.parse_action(text, view) == action
            probe.apply(action, seat)
