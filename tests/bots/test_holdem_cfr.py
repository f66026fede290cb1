"""Heads-up limit hold'em: the E[HS] card abstraction, the betting tree against the
engine, MCCFR, the version-2 strategy file and the built-in ``cfr`` bot (issue 27)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from policy_stats import chi_square_p

from pokerarena.arena.match import play_match
from pokerarena.arena.views import build_view
from pokerarena.bots.registry import make_bot
from pokerarena.bots.simple.cfr_bot import (
    SHIPPED,
    CfrBot,
    StrategyFileError,
    read_abstract,
)
from pokerarena.bots.simple.cfr_tree import DECISION, FOLDED, build_tree, tree_params
from pokerarena.cards import parse_cards
from pokerarena.engine import Game
from pokerarena.engine.actions import CALL_KIND, FOLD_KIND, RAISE_KIND, Action
from pokerarena.evaluator import evaluate_batch
from pokerarena.solvers.holdem_abstraction import (
    Abstraction,
    calibrate,
    preflop_class,
    preflop_equities,
    rank7,
)
from pokerarena.solvers.holdem_mccfr import train, write_holdem

GAME = Game("holdem", {"betting": "fixed_limit"})


@pytest.fixture(scope="module")
def shipped() -> Abstraction:
    s = read_abstract(SHIPPED)
    ab = s.header["abstraction"]
    return Abstraction(tuple(ab["buckets"]), s.preflop, ab["thresholds"], s.samples)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A small run (2 buckets a street) written to a file."""
    ab = calibrate((2, 2, 2, 2), samples=50, preflop_samples=500, calibration=300)
    solve = train(iterations=3000, seed=3, abstraction=ab)
    path = tmp_path_factory.mktemp("cfr") / "tiny.json"
    write_holdem(path, solve)
    return ab, solve, path


def test_rank7_orders_hands_as_the_evaluator_does():
    rng = np.random.default_rng(0)
    deals = np.array([rng.permutation(52)[:9] for _ in range(3000)])
    a = np.ascontiguousarray(deals[:, :7])
    b = np.concatenate([deals[:, 7:9], deals[:, 2:7]], axis=1)
    ours = np.sign([rank7(x, 7) - rank7(y, 7) for x, y in zip(a, b, strict=True)])
    theirs = np.sign(evaluate_batch(a.astype(np.uint8)).astype(np.int64)
                     - evaluate_batch(b.astype(np.uint8)))
    assert np.array_equal(ours, theirs)


def test_buckets_are_monotone_in_strength_and_deterministic(shipped):
    top = [b - 1 for b in shipped.buckets]
    assert shipped.bucket(parse_cards("AsAh"), []) == top[0]
    assert shipped.bucket(parse_cards("7c2d"), []) == 0
    eq = preflop_equities(20_000)        # the calibration's own (deterministic) equities
    assert np.all(np.diff(shipped.preflop[np.argsort(eq, kind="stable")]) >= 0)
    board = parse_cards("QsJsTs2c3d")
    assert shipped.bucket(parse_cards("AsKs"), board) == top[3]       # the nuts
    assert shipped.bucket(parse_cards("4h5h"), parse_cards("QsJsTs2c3d")[:5]) <= 1
    flop = parse_cards("Ah7d2c")
    again = [shipped.bucket(parse_cards("AdAc"), flop) for _ in range(3)]
    assert again == [top[1]] * 3
    assert shipped.bucket(parse_cards("AcAd"), parse_cards("2cAh7d")) == top[1]
    weak, strong = (shipped.bucket(parse_cards(h), flop) for h in ("9s8s", "AdKs"))
    assert weak < strong
    assert preflop_class(parse_cards("As")[0], parse_cards("Ks")[0]) != \
        preflop_class(parse_cards("As")[0], parse_cards("Kd")[0])


def _walk(rng, tree, hand, seat_of):
    """Play ``hand`` with random moves, checking the tree at each step."""
    n = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        pos = seat_of.index(hand.to_act)
        assert tree.kind[n] == DECISION and tree.player[n] == pos
        assert legal.call == tree.commit[n, 1 - pos] - tree.commit[n, pos]
        assert (RAISE_KIND in legal.kinds) == (tree.child[n, 2] >= 0)
        if RAISE_KIND in legal.kinds:
            assert legal.min_to == legal.max_to == tree.raise_to[n]
        moves = [m for m in range(3) if tree.child[n, m] >= 0]
        m = int(rng.choice(moves, p=[0.1, 0.45, 0.45][-len(moves):] if len(moves) == 3
                           else None))
        action = (Action(FOLD_KIND), Action(CALL_KIND),
                  Action(RAISE_KIND, int(tree.raise_to[n])))[m]
        hand.apply(action)
        n = int(tree.child[n, m])
    res = hand.result()
    assert tree.kind[n] != DECISION
    if tree.kind[n] == FOLDED:
        loser = int(tree.loser[n])
        assert res.deltas[seat_of[loser]] == -tree.commit[n, loser]
    else:
        assert abs(res.deltas[0]) in (0, tree.commit[n, 0], tree.commit[n, 0] // 2)


def test_the_betting_tree_is_the_engines():
    tree = build_tree(*tree_params(GAME), (1, 1, 1, 1))
    assert tree_params(GAME) == ((1, 2), (2, 2, 4, 4), 6)
    rng = np.random.default_rng(5)
    for h in range(300):
        button = h % 2
        hand = GAME.new_hand(h, 2, [200, 200], button)
        _walk(rng, tree, hand, [button, 1 - button])


def test_mccfr_is_reproducible_valid_and_its_regret_falls(tiny):
    ab, solve, _ = tiny
    again = train(iterations=3000, seed=3, abstraction=ab)
    assert np.array_equal(solve.avg, again.avg)
    short = train(iterations=300, seed=3, abstraction=ab)
    assert solve.mean_regret() < 0.6 * short.mean_regret()
    probs = solve.average_strategy()
    legal = solve.tree.child[solve.tree.kind == DECISION]
    assert np.allclose(probs.sum(axis=1), 1.0) and np.all(probs >= 0)
    rows = np.repeat(legal, [ab.buckets[r] for r in solve.tree.rnd[solve.tree.kind == 0]],
                     axis=0)
    assert np.all(probs[rows < 0] == 0)


def test_the_strategy_file_round_trips_and_refuses_bad_files(tiny, tmp_path):
    ab, solve, path = tiny
    s = read_abstract(path)
    assert s.header["abstraction"]["buckets"] == [2, 2, 2, 2]
    assert np.allclose(s.probs, np.round(solve.average_strategy() * 255) / 255, atol=1 / 255)
    doc = json.loads(path.read_text())
    bad = tmp_path / "bad.json"

    def refused(mutate, match):
        d = json.loads(json.dumps(doc))
        mutate(d)
        bad.write_text(json.dumps(d))
        with pytest.raises(StrategyFileError, match=match):
            read_abstract(bad)
        with pytest.raises(StrategyFileError):
            make_bot(f"cfr?path={bad}")

    refused(lambda d: d["abstraction"].update(name="ochs"), "abstraction 'ochs'")
    refused(lambda d: d["abstraction"].update(buckets=[2, 2, 3, 2]), "do not fit")
    refused(lambda d: d.update(options={"betting": "fixed_limit", "blinds": [2, 4]}),
            "game|options")
    refused(lambda d: d.update(game_key="0000"), "game 0000")
    refused(lambda d: d.update(strategy=d["strategy"][:-8]), "malformed|bytes")
    refused(lambda d: d.update(version=3), "version 3")
    bad.write_text(path.read_text()[:1000])
    with pytest.raises(StrategyFileError, match="truncated"):
        read_abstract(bad)


def _views(n_hands: int, seed: int):
    rng = np.random.default_rng(seed)
    rnd = make_bot("random", seed=seed)
    out = []
    for h in range(n_hands):
        hand = GAME.new_hand(rng, 2, [200, 200], h % 2)
        while not hand.is_over:
            view = build_view(hand, hand.to_act)
            out.append(view)
            hand.apply(rnd.act(view))
    return out


def test_cfr_declares_what_it_plays():
    views = _views(12, seed=2)
    for i, view in enumerate(views[::3][:12]):
        bot = make_bot("cfr", seed=i)
        dist = bot.policy(view)
        assert sum(p for _, p in dist) == pytest.approx(1.0, abs=1e-9)
        probs = dict(dist)
        counts: dict = {}
        for _ in range(1500):
            a = bot.act(view)
            assert a in probs
            counts[a] = counts.get(a, 0) + 1
        assert chi_square_p(counts, probs, 1500) > 1e-4


def test_cfr_refuses_what_it_does_not_cover():
    res = play_match(GAME, ["cfr", "call", "call"], 2, 1)   # the table records it
    assert res.faults and all("plays heads-up holdem" in f.detail for f in res.faults
                              if f.bot == res.entrants[0].name)
    view = build_view(Game("holdem", {"betting": "no_limit"}).new_hand(1, 2, [200, 200], 0), 0)
    with pytest.raises(StrategyFileError, match="heads-up"):
        CfrBot(seed=0).policy(view)


@pytest.mark.parametrize("opponent", ["call", "random"])
def test_cfr_beats_call_and_random(opponent):
    res = play_match(GAME, ["cfr", opponent], 600, seed=7, duplicate=True)
    assert not res.faults and res.chips_conserved
    stats = res.entrants[0].stats(res.hands, res.big_blind)
    assert stats["mbb_per_hand"] - stats["ci95"] > 0, stats


def test_cfr_colon_file_plays_a_version_2_file_as_the_cfr_bot():
    """``cfr:FILE`` reads the file's version: a version-2 (abstract) file is played by
    the ``cfr`` bot, with the same declared policy as the registered bot's shipped file."""
    game = Game("holdem", {"betting": "fixed_limit"})
    hand = game.new_hand(5, 2, [200, 200], 0)
    view = build_view(hand, hand.to_act)
    by_path, shipped = make_bot(f"cfr:{SHIPPED}", seed=1), make_bot("cfr", seed=1)
    assert type(by_path) is type(shipped)
    assert by_path.policy(view) == shipped.policy(view)
