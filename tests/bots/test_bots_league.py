"""The bot interface and the built-in league: what a bot sees, every bot in every
variant, the registry and the CLI."""

from __future__ import annotations

import gc
import io
import json
from contextlib import redirect_stdout

import numpy as np
import pytest

from pokerarena.arena.faults import FaultPolicy
from pokerarena.arena.match import play_match
from pokerarena.arena.views import build_view
from pokerarena.bots.base import SeatView, view_to_json
from pokerarena.bots.registry import REGISTRY, BotSpecError, make_bot, parse_spec
from pokerarena.bots.strength.estimate import Profile
from pokerarena.cards import card_str
from pokerarena.engine import Game
from pokerarena.engine.actions import DISCARD_KIND, UNKNOWN
from pokerarena.rules import variant_ids

LEAGUE = ["random", "call", "rock", "tag", "lag", "equity", "maniac"]


def _games():
    out = []
    for vid in variant_ids():
        game = Game(vid)
        out.append(game)
        if game.system_name != "no_limit" and "no_limit" in game.variant.betting:
            out.append(Game(vid, {"betting": "no_limit"}))
    return out


GAMES = _games()


def _reachable(obj, depth=6):
    """Every object reachable from ``obj`` through references (bounded)."""
    seen, todo, out = set(), [(obj, 0)], []
    while todo:
        o, d = todo.pop()
        if id(o) in seen or d > depth:
            continue
        seen.add(id(o))
        out.append(o)
        if isinstance(o, type | int | str | float | bool) or o is None:
            continue
        todo.extend((r, d + 1) for r in gc.get_referents(o)
                    if not isinstance(r, type) and not callable(r))
    return out


def _view_cards(view: SeatView) -> set[int]:
    cards = set(view.hole) | set(view.board)
    for u in view.up:
        cards |= set(u)
    for _, act in view.history:
        cards |= set(act.cards)
    return cards


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.variant.id}-{g.system_name}")
def test_view_never_carries_hidden_cards(game):
    """Own cards, up cards, board and history only: never another seat's down cards,
    its discards (but knock poker's face-up ones), or the deck; and no reference to the
    hand, the deck or the generator."""
    from pokerarena.engine.hand import Hand

    n = min(4, game.variant.players[1])
    rng = np.random.default_rng(3)
    bots = [make_bot("random", seed=s) for s in range(n)]
    for h in range(4):
        hand = game.new_hand(rng, n, [200] * n, h % n)
        while not hand.is_over:
            seat = hand.to_act
            for s in range(n):
                view = build_view(hand, s, hand_no=h)
                own = set(hand.cards_of(s))
                up = {c for q in range(n) for c in view.up[q]}
                visible = own | up | set(hand.board) | {UNKNOWN}
                # my own discards are mine to know; knock poker's go face up for all
                mine = {c for a, act in hand.log if act.kind == DISCARD_KIND
                        and (a == s or game.program.discards_face_up) for c in act.cards}
                visible |= mine
                assert _view_cards(view) <= visible, (game.variant.id, s)
                for q in range(n):
                    if q != s:
                        # (a card I threw away may be reshuffled into another's hand)
                        hidden = set(hand.cards_of(q)) - up - mine
                        assert not hidden & _view_cards(view)
                doc = json.dumps(view_to_json(view))
                for c in set(hand.stock):
                    assert f'"{card_str(c)}"' not in doc or c in visible
                if h == 0:
                    for o in _reachable(view):
                        assert not isinstance(o, Hand | np.random.Generator | Game)
            hand.apply(bots[seat].act(build_view(hand, seat, hand_no=h)))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.variant.id}-{g.system_name}")
def test_every_builtin_bot_finishes_hands_without_faults(game):
    lo, hi = game.variant.players
    n = min(hi, len(LEAGUE))
    tables = [LEAGUE[:n]] if n == len(LEAGUE) else [LEAGUE[:n], LEAGUE[-n:]]
    for t, bots in enumerate(tables):
        res = play_match(game, bots, hands=len(bots) * 2, seed=t,
                         policy=FaultPolicy(decision_time=None, hand_time=None))
        assert res.faults == [], [f.as_dict() for f in res.faults[:3]]
        assert res.chips_conserved and res.hands == len(bots) * 2
        assert sum(e.decisions for e in res.entrants) > 0


def test_duplicate_match_swaps_cards():
    game = Game("holdem", {"betting": "fixed_limit"})
    res = play_match(game, ["call", "call"], hands=20, seed=1, duplicate=True)
    assert res.hands == 20
    # two identical bots with the cards swapped break exactly even, deal by deal
    assert all(s == 0 for e in res.entrants for s in e.samples)


def test_low8_kernel_matches_the_evaluator():
    from pokerarena.evaluator import evaluate_batch, evaluate_omaha_batch, qualifies_low, ranking

    lo = ranking("a5_low")
    rng = np.random.default_rng(7)
    for vid in ("stud7_hilo", "omaha_hilo"):
        prof = Profile(Game(vid))
        k = 7 if vid == "stud7_hilo" else 9
        d = np.argsort(rng.random((1500, 52)), axis=1)[:, :k].astype(np.uint8)
        if vid == "stud7_hilo":
            hands, boards, ref = d, None, evaluate_batch(d, lo)
        else:
            hands, boards = d[:, :4], d[:, 4:]
            ref = evaluate_omaha_batch(hands, boards, lo)
        ok = np.array([qualifies_low(int(x), lo, 8) for x in ref])
        fast = prof._low_values(hands, boards)
        assert ((fast >= 0) == ok).all()
        i = np.where(ok)[0][:300]
        a, b = fast[i], ref[i].astype(np.int64)
        assert (np.sign(a[:, None] - a[None, :]) == np.sign(b[:, None] - b[None, :])).all()


def test_a5_low_kernel_orders_like_the_evaluator():
    from pokerarena.evaluator import evaluate_batch, ranking

    lo = ranking("a5_low")
    prof = Profile(Game("razz"))
    rng = np.random.default_rng(2)
    for k in (5, 7):
        d = np.argsort(rng.random((800, 52)), axis=1)[:, :k].astype(np.uint8)
        a = prof._low_values(d, None)
        b = evaluate_batch(d, lo).astype(np.int64)
        assert (np.sign(a[:, None] - a[None, :]) == np.sign(b[:, None] - b[None, :])).all()


def test_equity_estimates_are_sane():
    from pokerarena.cards import parse_cards

    game = Game("holdem")
    prof = Profile(game)

    class V:
        seat, players, folded, board, history = 0, 2, (False, False), (), ()
        up = ((), ())

    v = V()
    v.hole = tuple(parse_cards("AsAh"))
    aa = prof.equity(v, 2000, np.random.default_rng(1))
    v.hole = tuple(parse_cards("7c2d"))
    junk = prof.equity(v, 2000, np.random.default_rng(1))
    assert 0.8 < aa < 0.9 and 0.27 < junk < 0.4
    disc, _ = Profile(Game("draw5")).best_discard(parse_cards("AsAhKd7c2s"), 0, 3,
                                                   np.random.default_rng(1))
    assert set(disc) == set(parse_cards("Kd7c2s")) or set(disc) == set(parse_cards("7c2s"))
    disc, _ = Profile(Game("draw27_single")).best_discard(parse_cards("7s5h4d3c2s"), 0, 5,
                                                           np.random.default_rng(1))
    assert disc == ()


def test_registry_and_specs():
    assert parse_spec("tag?samples=50&narrow=true") == ("tag", {"samples": 50, "narrow": True})
    bot = make_bot("pokerarena.bots.strength.tag:TagBot?samples=40", seed=1)
    assert bot.samples == 40 and bot.name == "tag"
    for name in REGISTRY:
        assert callable(make_bot(name, seed=0).act)
    for bad in ("nosuchbot", "pokerarena.nothing:X", "pokerarena.bots.strength.tag:Nope",
                "tag?nonsense", "tag?colour=blue", "os:system", "subprocess:Popen?args=true",
                "pokerarena.bots.strength.policy:Style"):
        with pytest.raises(BotSpecError):
            make_bot(bad)


def test_cli_bots_and_match():
    from pokerarena.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["bots", "--json"]) == 0
    names = [r["name"] for r in json.loads(buf.getvalue())]
    assert names == LEAGUE[:2] + ["rock", "tag", "lag", "equity", "maniac", "cfr"]
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["match", "--variant", "holdem", "--bots", "tag,call", "--hands", "20",
                     "--duplicate", "--json"]) == 0
    d = json.loads(buf.getvalue())
    assert d["hands"] == 20 and [e["bot"] for e in d["entrants"]] == ["tag", "call"]
    assert d["entrants"][0]["net"] == -d["entrants"][1]["net"]
    assert main(["match", "--bots", "tag,nosuchbot", "--hands", "2"]) == 2
