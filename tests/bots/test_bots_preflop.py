"""The pre-flop equity table and the strength bots' per-hand equity memo."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.arena.views import build_view
from pokerarena.bots.strength import preflop
from pokerarena.bots.strength.estimate import Profile
from pokerarena.cards import parse_cards
from pokerarena.engine import Game
from pokerarena.evaluator import evaluate_batch, ranking
from pokerarena.evaluator.equity import equity


def test_class_index_covers_169_classes():
    seen = {preflop.class_index(a, b) for a in range(52) for b in range(52) if a != b}
    assert seen == set(range(169))
    for i in range(169):
        a, b = preflop.class_cards(i)
        assert preflop.class_index(a, b) == preflop.class_index(b, a) == i


@pytest.mark.parametrize("hole", ["AsAh", "7c2d", "AsKs", "KhQd", "5h5d", "Jc9c"])
def test_heads_up_table_agrees_with_independent_monte_carlo(hole):
    """Against a random hand: 30,000 deals through the batch evaluator."""
    prof = Profile(Game("holdem"))
    cards = parse_cards(hole)
    got = preflop.preflop_equity(prof.plan, cards, 1)
    rng = np.random.default_rng(11)
    rest = np.array([c for c in range(52) if c not in cards], dtype=np.uint8)
    n = 30000
    deals = rest[np.argsort(rng.random((n, rest.size)), axis=1)[:, :7]]
    hi = ranking("high")
    me = evaluate_batch(np.hstack([np.tile(np.uint8(cards), (n, 1)), deals[:, :5]]), hi)
    opp = evaluate_batch(deals, hi)
    ref = float(((me > opp) + 0.5 * (me == opp)).mean())
    assert abs(got - ref) < 0.015, (got, ref)


def test_table_against_exact_head_to_head():
    """AA against a random hand lies between AA's exact equity against KK and against
    72o, and the three-way table is below the heads-up one."""
    prof = Profile(Game("holdem"))
    aa = preflop.preflop_equity(prof.plan, parse_cards("AsAh"), 1)
    vs_kk = equity(["AsAh", "KdKc"], "", "holdem", exact=True).players[0].equity
    vs_72 = equity(["AsAh", "7d2c"], "", "holdem", exact=True).players[0].equity
    assert vs_kk < aa < vs_72
    assert preflop.preflop_equity(prof.plan, parse_cards("AsAh"), 2) < aa - 0.1


def test_table_is_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("POKERARENA_CACHE", str(tmp_path))
    prof = Profile(Game("holdem"))
    prof.plan.memo.clear()
    a = preflop.table(prof.plan, 1).copy()
    files = list(tmp_path.glob("preflop-*.npy"))
    assert len(files) == 1
    prof.plan.memo.clear()
    assert np.array_equal(preflop.table(prof.plan, 1), a)


def _flop_view(game: Game):
    hand = game.new_hand(np.random.default_rng(5), 2, [200, 200], 0)
    while not hand.board or hand.to_act is None:
        seat = hand.to_act
        view = build_view(hand, seat)
        from pokerarena.bots.simple.call_bot import CallBot

        hand.apply(CallBot().act(view))
    return build_view(hand, hand.to_act, hand_no=3)


@pytest.mark.parametrize("bot_name", ["tag", "equity"])
def test_cached_equity_equals_recomputed(bot_name):
    from pokerarena.bots.registry import make_bot

    game = Game("holdem", {"betting": "fixed_limit"})
    view = _flop_view(game)
    prof = Profile(game)
    a, b = make_bot(bot_name, seed=9), make_bot(bot_name, seed=9)
    first = a.cached_equity(view, prof)
    state = a.mc_rng.getstate()
    assert a.cached_equity(view, prof) == first  # from the memo: no new sampling
    assert a.mc_rng.getstate() == state
    assert b.equity_stats(view, prof)[0] == first  # the same seed recomputes it
    # a new hand forgets it
    nxt = view._replace(hand_no=4)
    a.cached_equity(nxt, prof)
    assert a.mc_rng.getstate() != state


def test_narrowed_table_agrees_with_the_kernel_and_narrows():
    """Heads-up against a narrowed range: the table (read between grid points too)
    against the kernel's own narrowing with many deals; a tighter range beats small
    pairs and weak hands more often."""
    from pokerarena.bots.strength import fastmc

    prof = Profile(Game("holdem"))
    plan = prof.plan
    assert preflop.narrowed_equity(plan, parse_cards("AsAh"), 0.5) is None  # not built
    preflop.prepare_narrowed(plan)
    fixed = np.zeros((3, 2), dtype=np.uint8)
    fixed_len = np.array([2, 0, 0], dtype=np.int64)
    for hole, f in (("KsQs", 0.4), ("7c2d", 0.62), ("5h5d", 0.3)):
        cards = parse_cards(hole)
        fixed[0] = cards
        total, used = fastmc.mc_equity(plan, fixed, fixed_len, 2, 5, 9, 20000,
                                       frac=np.array([1.0, f]),
                                       score_mode=fastmc.SCORE_PREFLOP, pilot=2048)
        got = preflop.narrowed_equity(plan, cards, f)
        assert abs(got - total / used) < 0.03, (hole, got, total / used)
    weak = parse_cards("7c2d")
    assert (preflop.narrowed_equity(plan, weak, 0.25)
            < preflop.preflop_equity(plan, weak, 1) - 0.02)
    assert preflop.narrowed_equity(plan, weak, 0.1) is None  # below the grid


def test_cache_key_follows_the_builders_source(tmp_path, monkeypatch):
    """The disk cache is keyed by a digest of the code that builds the tables: edit the
    builder (or the kernels it deals with) and the key, so the file, changes."""
    from pathlib import Path

    from pokerarena.bots.strength import preflop_omaha

    plan = Profile(Game("holdem")).plan
    preflop._DIGESTS.clear()  # digests are kept per process: read the sources as they are
    before = preflop._key(plan, 1)
    omaha_before = preflop_omaha._key(plan, 1)
    assert before != omaha_before
    copies = []
    for path in preflop.BUILDER_FILES:
        copy = tmp_path / path.name
        copy.write_bytes(path.read_bytes())
        copies.append(copy)
    monkeypatch.setattr(preflop, "BUILDER_FILES", tuple(copies))
    assert preflop._key(plan, 1) == before  # the same sources: the same key
    assert Path(preflop.__file__).name in {p.name for p in preflop.BUILDER_FILES}
    copies[0].write_bytes(copies[0].read_bytes() + b"\n# an edit to the builder\n")
    preflop._DIGESTS.clear()
    edited = preflop._key(plan, 1)
    assert edited != before
    assert preflop._key(plan, 2) != edited  # and by the number of opponents
    monkeypatch.setattr(preflop_omaha, "BUILDER_FILES", (copies[0], *copies[1:]))
    assert preflop_omaha._key(plan, 1) != omaha_before
