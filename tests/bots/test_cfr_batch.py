"""The ``cfr`` bot's policy for every holding at once (issue 27, LBR's speed): the bucket
of every holding on a board from one compiled call (``board_buckets``, ranking by suit
masks: ``rank_masks``, ``ehs_fast``) equals ``bucket_of`` holding by holding, and the
batched policy LBR reads equals ``policy`` holding by holding, so LBR's figures do not
move (the same run with ``LbrConfig(batch=False)``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokerarena.arena.views import build_view
from pokerarena.bots.registry import make_bot
from pokerarena.bots.simple.cfr_bot import (
    SHIPPED,
    board_buckets,
    bucket_of,
    ehs,
    ehs_fast,
    rank7,
    rank_masks,
    read_abstract,
)
from pokerarena.cards import parse_cards
from pokerarena.cli import main
from pokerarena.engine import Game
from pokerarena.solvers.lbr import LbrConfig, holding_policies, lbr_value

GAME = Game("holdem", {"betting": "fixed_limit"})


def _masks(cards) -> tuple[int, int, int, int]:
    s = [0, 0, 0, 0]
    for c in cards:
        s[int(c) & 3] |= 1 << (int(c) >> 2)
    return s[0], s[1], s[2], s[3]


# hands where rank7's order of checks matters: straight flushes (the wheel too), quads
# with trips or a pair beside them, two trips, three pairs, a flush beside a straight,
# a straight beside trips, the wheel
CRAFTED = ["AsKsQsJsTs9s8s", "5h4h3h2hAh9d9c", "AcAdAhAsKcKdKh", "7c7d7h7s2c2d9h",
           "9c9d9hKcKdKh2s", "QcQdJcJdTcTd2h", "Ac9c7c5c2cKdQh", "9c8d7h6s5cJcQc",
           "6c5d4h3s2c2d2h", "Ac2d3h4s5c9d9h", "KcKdKhQcQdQh", "2c3d4h5sAc", "AcKdQhJsTc"]


def test_rank_masks_is_rank7():
    for text in CRAFTED:
        cards = np.array(parse_cards(text), np.int64)
        assert rank_masks(*_masks(cards)) == rank7(cards, len(cards)), text
    rng = np.random.default_rng(7)
    for n in (5, 6, 7):
        for _ in range(4000):
            cards = rng.choice(52, n, replace=False).astype(np.int64)
            assert rank_masks(*_masks(cards)) == rank7(cards, n)


def test_ehs_fast_is_ehs_to_the_last_bit():
    rng = np.random.default_rng(3)
    for nboard in (3, 4):
        for _ in range(150):
            cards = rng.choice(52, 2 + nboard, replace=False).astype(np.int64)
            board = np.zeros(5, np.int64)
            board[:nboard] = cards[2:]
            assert ehs_fast(cards[:2], board, nboard, 200) == ehs(cards[:2], board, nboard,
                                                                  200)


@pytest.mark.parametrize("nboard", [0, 3, 4, 5])
def test_board_buckets_are_bucket_of_for_every_holding(nboard):
    s = read_abstract(SHIPPED)
    rng = np.random.default_rng(nboard)
    board = np.zeros(5, np.int64)
    board[:nboard] = rng.choice(52, nboard, replace=False)
    got = board_buckets(board, nboard, s.preflop, s.thresholds, s.samples)
    on = set(board[:nboard].tolist())
    # every holding on the river (exact HS, cheap); a random third of them before it
    pairs = [(a, b) for a in range(52) for b in range(52) if a != b and a not in on
             and b not in on and (nboard == 5 or rng.random() < 0.3)]
    for a, b in pairs:
        want = bucket_of(np.array([a, b], np.int64), board, nboard, s.preflop,
                         s.thresholds, s.samples)
        assert got[a, b] == want, (a, b)
    assert (got[list(on), :] == -1).all() and (got[:, list(on)] == -1).all()
    assert len({int(x) for x in got[got >= 0]}) > 1


def _spots(hands: int, seed: int) -> list:
    """Views of the cfr bot on every street, the hands played by ``call`` and cfr."""
    out = []
    rng = np.random.default_rng(seed)
    bot = make_bot("cfr", seed=seed)
    for h in range(hands):
        hand = GAME.new_hand(rng, 2, [200, 200], h % 2)
        while not hand.is_over:
            view = build_view(hand, hand.to_act)
            if hand.to_act == 0:
                out.append(view)
                hand.apply(bot.act(view))
            else:
                hand.apply(make_bot("call").act(view))
    return out


def test_the_batch_declares_what_policy_declares_for_each_holding():
    bot = make_bot("cfr", seed=0)
    views = _spots(12, seed=5)
    streets = {len(v.board) for v in views}
    assert streets == {0, 3, 4, 5}
    for view in views:
        free = [c for c in range(52) if c not in view.board]
        holdings = np.array([(a, b) for a in free for b in free if a < b][::13] +
                            [tuple(view.hole)], np.int64)
        got = holding_policies(bot, view, holdings)
        want = holding_policies(bot, view, holdings, batch=False)
        for key in got.keys() | want.keys():
            zero = np.zeros(len(holdings))
            assert np.array_equal(got.get(key, zero), want.get(key, zero)), key


def test_lbr_against_cfr_gives_the_figures_of_one_read_per_holding():
    fast = lbr_value("holdem", {"betting": "fixed_limit"}, "cfr", 6, seed=3)
    slow = lbr_value("holdem", {"betting": "fixed_limit"}, "cfr", 6, seed=3,
                     config=LbrConfig(batch=False))
    assert fast["policy_reads"] == slow["policy_reads"] > 1000
    assert fast["mean"] == slow["mean"] and fast["ci95"] == slow["ci95"]
    assert fast["cpu_seconds"] > 0


def test_bench_lbr_times_cfr_with_its_cpu_seconds_and_load(capsys):
    """``bench lbr`` has a ``cfr`` case, counts the CPU seconds of the processes that
    played (here, this one) and says the load; a bad ``--workers`` is one line."""
    assert main(["bench", "lbr", "--case", "fixed_limit:cfr", "--slow-hands", "2",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (row,) = doc["cases"]
    assert doc["workers"] == 0 and row["bot"] == "cfr" and row["hands"] == 2
    assert row["hands_per_cpu_second"] == pytest.approx(2 / row["cpu_seconds"])
    assert row["load_before"] >= 0 and row["load_after"] >= 0
    assert main(["bench", "lbr", "--workers", "-1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--workers" in err[0]
    assert main(["bench", "lbr", "--case", "fixed_limit:cfr", "--slow-hands", "1",
                 "--peer-hands", "2", "--json"]) == 0
    peer = json.loads(capsys.readouterr().out)["cases"][0]["peer"]
    assert peer["same_figures"] is True and peer["hands"] == 2
