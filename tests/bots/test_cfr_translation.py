"""The ``cfr`` bot off its tree (issue 27, part 2): "Off-tree situations (bet sizes
outside its abstraction) are mapped by a documented translation (pseudo-harmonic
mapping is the standard)". In fixed-limit hold'em the only bets outside the tree are
all-ins for less than a bet; ``cfr_translation`` maps them pseudo-harmonically, moves a
raise the engine forbids to the call and clips the bot's own raise to its stack."""

from __future__ import annotations

import numpy as np
import pytest
from policy_stats import chi_square_p

from pokerarena.arena.match import play_match
from pokerarena.arena.views import build_view
from pokerarena.bots.registry import make_bot
from pokerarena.bots.simple.cfr_bot import CfrBot
from pokerarena.bots.simple.cfr_translation import CALLED, pseudo_harmonic
from pokerarena.bots.simple.cfr_tree import CALL, FOLD, RAISE
from pokerarena.engine import Game
from pokerarena.engine.actions import CALL_KIND, FOLD_KIND, RAISE_KIND, Action

GAME = Game("holdem", {"betting": "fixed_limit"})


def _short_views(seed: int, hands: int, stacks=(3, 9, 15)):
    """Views of the ``cfr`` seat while a random bot plays against it at short stacks."""
    rng = np.random.default_rng(seed)
    rnd, cfr = make_bot("random", seed=seed), make_bot("cfr", seed=seed)
    out = []
    for h in range(hands):
        st = int(stacks[h % len(stacks)])
        hand = GAME.new_hand(rng, 2, [st, 200] if h % 4 < 2 else [200, st], h % 2)
        while not hand.is_over:
            view = build_view(hand, hand.to_act)
            if hand.to_act == 0:
                out.append(view)
                hand.apply(cfr.act(view))
            else:
                hand.apply(rnd.act(view))
    return out


@pytest.fixture(scope="module")
def short_views():
    return _short_views(4, 240)


def test_pseudo_harmonic_mapping():
    """Ganzfried and Sandholm (IJCAI 2013): f_A(x) = (B - x)(1 + A) / ((B - A)(1 + x)),
    sizes as fractions of the pot; 1 at A, 0 at B, decreasing between."""
    assert pseudo_harmonic(0.0, 1.0, 0.0) == 1.0
    assert pseudo_harmonic(0.0, 1.0, 1.0) == 0.0
    assert pseudo_harmonic(0.0, 1.0, 0.5) == pytest.approx(1 / 3)     # 0.5 / 1.5
    assert pseudo_harmonic(0.5, 1.0, 0.75) == pytest.approx(0.25 * 1.5 / (0.5 * 1.75))
    xs = np.linspace(0.0, 1.0, 21)
    fs = [pseudo_harmonic(0.0, 1.0, x) for x in xs]
    assert all(a > b for a, b in zip(fs, fs[1:], strict=False))


def test_a_short_all_in_raise_reads_both_ways():
    """The button posts 1 of its 3 chips and raises all in to 3, where the tree's raise
    goes to 4: x = 1 chip over the bet of 2, B = 2, the called pot 4, so the line reads
    as a call with f_A = (0.5 - 0.25) / (0.5 * 1.25) = 0.4, and as the full raise with
    0.6. The big blind's policy is that mixture: the call, and the tree's row after the
    raise with its re-raise (which the engine forbids) moved to the call."""
    bot = CfrBot(seed=0)
    hand = GAME.new_hand(11, 2, [3, 200], 0)
    view = build_view(hand, hand.to_act)
    assert view.seat == 0 and view.legal.max_to == 3
    hand.apply(Action(RAISE_KIND, 3))
    view = build_view(hand, hand.to_act)
    assert view.seat == 1 and RAISE_KIND not in view.legal.kinds
    found = bot.readings(view)
    assert [w for _, w in found] == pytest.approx([0.4, 0.6])
    assert found[0][0] == CALLED
    tree, s = bot.strategy.tree, bot.strategy
    n = found[1][0]
    assert n == tree.child[0, RAISE]
    row = s.probs[tree.row[n] + bot.bucket(view)]
    want = {Action(FOLD_KIND): 0.6 * row[FOLD],
            Action(CALL_KIND): 0.4 + 0.6 * (row[CALL] + row[RAISE])}
    got = dict(bot.policy(view))
    assert set(got) == {a for a, p in want.items() if p > 0}
    for a, p in got.items():
        assert p == pytest.approx(want[a], abs=1e-12)


def test_short_stacks_meet_every_off_tree_case(short_views):
    """Over hands at 3, 9 and 15 chips, the bot meets each translation: a short all-in
    read two ways, a raise the engine no longer allows, and its own raise clipped to
    its stack; every move it declares is legal."""
    bot = CfrBot(seed=0)
    split = forbidden = clipped = 0
    for view in short_views:
        found = bot.readings(view)
        split += len(found) > 1
        nodes = [n for n, _ in found if n != CALLED]
        tree = bot.strategy.tree
        forbidden += any(tree.child[n, RAISE] >= 0 for n in nodes) and \
            RAISE_KIND not in view.legal.kinds
        for action, p in bot.policy(view):
            assert action.kind in view.legal.kinds and p > 0
            if action.kind == RAISE_KIND:
                assert view.legal.min_to <= action.amount <= view.legal.max_to
                clipped += action.amount < int(tree.raise_to[nodes[0]])
            if action.kind == FOLD_KIND:
                assert view.to_call > 0
    assert split and forbidden and clipped, (split, forbidden, clipped)


def test_off_tree_the_declared_policy_is_what_act_draws(short_views):
    bot = CfrBot(seed=0)
    spots = [v for v in short_views if len(bot.readings(v)) > 1 or
             (v.legal.max_to and v.legal.max_to < v.legal.min_to + 2)][:6]
    assert spots
    for i, view in enumerate(spots):
        player = make_bot("cfr", seed=100 + i)
        probs = dict(player.policy(view))
        counts: dict = {}
        for _ in range(1200):
            a = player.act(view)
            assert a in probs
            counts[a] = counts.get(a, 0) + 1
        assert chi_square_p(counts, probs, 1200) > 1e-4


def test_off_tree_batch_policy_is_policy_holding_by_holding(short_views):
    bot = CfrBot(seed=0)
    spots = [v for v in short_views if len(bot.readings(v)) > 1][:4]
    assert spots
    rng = np.random.default_rng(0)
    for view in spots:
        seen = set(view.board) | set(view.hole)
        free = [c for c in range(52) if c not in seen]
        holdings = rng.choice(free, size=(6, 2), replace=False)
        batch = bot.batch_policy(view, holdings)
        for h, cards in enumerate(holdings):
            one = dict(bot.policy(view._replace(hole=tuple(int(c) for c in cards))))
            for i, move in enumerate(batch.moves_):
                assert batch.probs[h, i] == pytest.approx(one.get(move, 0.0), abs=1e-12)


@pytest.mark.parametrize("stack", [3, 9, 15])
def test_cfr_plays_short_stacks_without_a_fault(stack):
    res = play_match(GAME, ["cfr", "random"], 120, seed=5, duplicate=True, stack=stack)
    assert not res.faults and res.chips_conserved
