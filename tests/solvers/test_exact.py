"""Kuhn poker and Leduc hold'em as variants, and the exact evaluator on them: the rules
hand by hand, the walk against the game as played, the figures against OpenSpiel's own
Kuhn and Leduc (a test-only peer), and the command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from handplay import cards, deal, manual

from pokerarena.arena.views import build_view
from pokerarena.bots.registry import make_bot
from pokerarena.bots.simple.declared import DeclaredBot, aggression
from pokerarena.cli import main
from pokerarena.engine import CHECK_CALL, DEALER, FOLD, Action, Game, IllegalAction, bet_to
from pokerarena.engine.keys import game_info_of
from pokerarena.rules import VariantError, load_variant, load_variant_text
from pokerarena.solvers.exact import (
    CHANCE,
    DECISION,
    TERMINAL,
    ExactError,
    build_tree,
    evaluate,
)

J, Q, K = 9, 10, 11  # ranks


# Fixed strategies --------------------------------------------------------------------
def _rank(view) -> int:
    return view.hole[0] >> 2


def k_bets(view):
    """Kuhn: bet and call with the king only; check or fold otherwise."""
    return aggression(view, 1.0 if _rank(view) == K else 0.0, 1.0 if _rank(view) == K else 0.0)


def kuhn_mixed(view):
    """Kuhn: bluff the jack a third of the time, call with the queen a third of the time,
    always bet and call with the king."""
    r = _rank(view)
    return aggression(view, {J: 1 / 3, Q: 0.0, K: 1.0}[r], {J: 0.0, Q: 1 / 3, K: 1.0}[r])


def leduc_pairs(view):
    """Leduc: raise with a pair or a king, call with a queen, fold a jack to a bet."""
    r = _rank(view)
    paired = bool(view.board) and view.board[0] >> 2 == r
    strong = paired or r == K
    return aggression(view, 1.0 if strong else 0.0, 1.0 if strong or r == Q else 0.0)


def leduc_mixed(view):
    """Leduc: raise 30% of the time whatever the cards; call 70% with a pair or a king,
    40% otherwise."""
    r = _rank(view)
    paired = bool(view.board) and view.board[0] >> 2 == r
    return aggression(view, 0.3, 0.7 if paired or r == K else 0.4)


FIXED = {"k_bets": k_bets, "kuhn_mixed": kuhn_mixed, "leduc_pairs": leduc_pairs,
         "leduc_mixed": leduc_mixed}


def bot(name: str, seed: int = 0):
    """A built-in bot or one of the fixed strategies above."""
    if name in FIXED:
        return DeclaredBot(FIXED[name], seed=seed, name=name)
    return make_bot(name, seed=seed)


# The rules -----------------------------------------------------------------------------
def test_both_variants_cite_their_definitions_and_are_heads_up():
    kuhn, leduc = load_variant("kuhn"), load_variant("leduc")
    assert "Kuhn" in kuhn.source and "1950" in kuhn.source
    assert "Bayes' Bluff" in leduc.source and "2005" in leduc.source
    assert kuhn.players == leduc.players == (2, 2)
    assert len(Game("kuhn").deck_list) == 3 and len(Game("leduc").deck_list) == 6
    with pytest.raises(Exception, match="kuhn is for 2 to 2 players, not 3"):
        Game("kuhn").new_hand(0, 3, [10, 10, 10])


def test_kuhn_first_to_act_the_bet_of_one_no_raise_and_the_showdown():
    hand = manual("kuhn", [10, 10], button=1)
    deal(hand, "Js", "Ks")
    assert hand.to_act == 0                             # left of the button acts first
    legal = hand.legal_actions()
    assert legal.kinds == ("cc", "cbr") and legal.min_to == legal.max_to == 1
    hand.apply(bet_to(1))
    legal = hand.legal_actions()
    assert legal.kinds == ("f", "cc") and legal.call == 1   # no raise in Kuhn
    with pytest.raises(IllegalAction):
        hand.apply(bet_to(2))
    hand.apply(CHECK_CALL)
    assert hand.is_over and hand.result().deltas == [-2, 2]  # the king takes the pot of 4


def test_kuhn_two_checks_go_to_the_showdown_and_a_fold_loses_the_ante():
    hand = manual("kuhn", [10, 10], button=1)
    deal(hand, "Qs", "Js")
    hand.apply(CHECK_CALL)
    assert hand.legal_actions().kinds == ("cc", "cbr")      # no fold when a check is free
    hand.apply(CHECK_CALL)
    assert hand.is_over and hand.result().deltas == [1, -1]  # not void: a showdown
    hand = manual("kuhn", [10, 10], button=1)
    deal(hand, "Qs", "Js")
    hand.apply(CHECK_CALL)
    hand.apply(bet_to(1))
    hand.apply(FOLD)
    assert hand.result().deltas == [-1, 1]


def _leduc(h0: str, h1: str, board: str, first=(), second=()):
    hand = manual("leduc", [100, 100], button=1)
    deal(hand, h0, h1)
    for a in first:
        hand.apply(a)
    hand.apply(Action("db", 0, cards(board)), DEALER)
    for a in second:
        hand.apply(a)
    return hand


def test_leduc_bets_of_two_then_four_one_bet_and_one_raise_a_round():
    hand = manual("leduc", [100, 100], button=1)
    deal(hand, "Js", "Qh")
    assert hand.to_act == 0
    assert hand.legal_actions().min_to == 2                  # first round: bets of 2
    hand.apply(bet_to(2))
    assert hand.legal_actions().kinds == ("f", "cc", "cbr")
    assert hand.legal_actions().min_to == 4                  # a raise to 4
    hand.apply(bet_to(4))
    assert hand.legal_actions().kinds == ("f", "cc")         # capped: one bet, one raise
    hand.apply(CHECK_CALL)
    assert hand.to_act == DEALER
    hand.apply(Action("db", 0, cards("Kh")), DEALER)
    assert hand.to_act == 0                                  # seat 0 opens round two too
    assert hand.legal_actions().min_to == 4                  # second round: bets of 4
    hand.apply(CHECK_CALL)
    hand.apply(bet_to(4))
    hand.apply(bet_to(8))
    assert hand.legal_actions().kinds == ("f", "cc")
    hand.apply(FOLD)
    assert hand.result().deltas == [9, -9]      # seat 1 loses its ante, 4, and its bet of 4


@pytest.mark.parametrize(("h0", "h1", "board", "deltas"), [
    ("Qh", "Ks", "Qs", [9, -9]),     # a pair with the board beats any unpaired hand
    ("Js", "Kh", "Jh", [9, -9]),     # even a pair of jacks against a king
    ("Ks", "Jh", "Qh", [9, -9]),     # no pair: the higher card
    ("Qs", "Kh", "Jh", [-9, 9]),
    ("Jh", "Js", "Kh", [0, 0]),      # equal ranks split the pot
    ("Kh", "Ks", "Qs", [0, 0]),
])
def test_leduc_showdown(h0, h1, board, deltas):
    hand = _leduc(h0, h1, board, [CHECK_CALL, CHECK_CALL],
                  [bet_to(4), bet_to(8), CHECK_CALL])
    assert hand.is_over and hand.result().deltas == deltas


def test_a_bad_option_in_a_variant_file_is_one_error_naming_it():
    text = (Path(__file__).parents[2] / "pokerarena/rules/variants/kuhn.toml").read_text()
    bad = load_variant_text(text.replace("max_raises = 0,", "max_raise = 0,"), "bad.toml")
    with pytest.raises(VariantError, match=r"^kuhn: options \(of the variant file\): "
                                           r"max_raise: unknown field"):
        Game(bad)


def test_the_callers_options_win_over_the_variant_files():
    assert Game("leduc").max_raises == 1
    assert Game("leduc", {"max_raises": 2, "heads_up_max_raises": 2}).max_raises == 2
    assert Game("holdem").free_fold and not Game("kuhn").free_fold


# The walk ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def trees():
    return {v: build_tree(v) for v in ("kuhn", "leduc")}


def _nodes(node):
    yield node
    for _, _, child in node.children:
        yield from _nodes(child)


@pytest.mark.parametrize(("variant", "deals"), [("kuhn", 6), ("leduc", 120)])
def test_the_walk_deals_every_card_order_once_and_conserves_chips(trees, variant, deals):
    tree = trees[variant]
    assert tree.deals == deals
    nodes = list(_nodes(tree.root))
    for node in nodes:
        if node.kind == CHANCE:      # every remaining card, each as likely
            probs = [p for _, p, _ in node.children]
            assert len(set(probs)) == 1 and sum(probs) == pytest.approx(1.0, abs=1e-15)
        if node.kind == TERMINAL:
            assert sum(node.payoff) == 0                     # chips are conserved
    # the first decisions: one per ordered pair of hole cards
    assert sum(1 for n in nodes if n.kind == DECISION and n.depth == 2) == {
        "kuhn": 6, "leduc": 30}[variant]


@pytest.mark.parametrize("variant", ["kuhn", "leduc"])
def test_the_walk_shows_each_bot_the_view_it_sees_at_the_table(trees, variant):
    """Hands dealt automatically from seeds, played by random bots: at every decision
    the walk has a state with the very same view (the game walked is the game played)."""
    tree, game = trees[variant], Game(variant)
    info = game_info_of(game)
    bots = [make_bot("random", seed=s) for s in (1, 2)]
    rng = np.random.default_rng(5)
    for _ in range(30):
        hand = game.new_hand(rng, 2, [100, 100], button=1)
        seen = 0
        while not hand.is_over:
            node = _follow(tree.root, hand.log)   # the walk's state after the same log
            seat = hand.to_act
            view = build_view(hand, seat, game_info=info)
            assert node.kind == DECISION and node.seat == seat and node.view == view
            hand.apply(bots[seat].act(view))
            seen += 1
        assert _follow(tree.root, hand.log).payoff == tuple(float(d) for d in
                                                             hand.result().deltas)
        assert seen


def _follow(root, log):
    """The walk's state after the entries of a hand's log (antes are not in the walk)."""
    node = root
    for _actor, action in log:
        if action.kind in ("dh", "db", "f", "cc", "cbr"):
            key = (action.kind, action.amount if action.kind == "cbr" else 0, action.cards,
                   action.target if action.kind == "dh" else -1)
            for a, _, child in node.children:
                if (a.kind, a.amount if a.kind == "cbr" else 0, a.cards,
                        a.target if a.kind == "dh" else -1) == key:
                    node = child
                    break
            else:
                raise AssertionError(f"no branch for {action} at depth {node.depth}")
    return node


# The figures ---------------------------------------------------------------------------
def test_known_values_kuhn_uniform_random_and_the_game_value():
    r = evaluate("kuhn", [bot("random"), bot("call")])
    assert r.exploitability[0] == pytest.approx(11 / 24, abs=1e-12)   # 0.458333...
    assert r.as_json()["units"] == "chips per hand"
    # a best response wins at least what the other bot wins against the same bot
    assert r.best_response[0] >= r.values[1] - 1e-12
    assert r.best_response[1] >= r.values[0] - 1e-12


def test_a_best_response_sees_only_its_own_seat():
    """Against k_bets (bet and call with the king only), worked by hand: k_bets in seat
    0, the responder bets whenever it is checked to and folds to a bet: 1/3 a hand. In
    seat 1, the responder acts first: with the king +1, with the queen check (0), with
    the jack bet (-1/2): 1/6. A responder that saw the other card would get 1/3 there
    (the jack would bet into the queen and check-fold to the king)."""
    r = evaluate("kuhn", [bot("k_bets"), bot("call")])
    assert r.best_response_by_seat[0] == pytest.approx((1 / 3, 1 / 6), abs=1e-12)
    assert r.exploitability[0] == pytest.approx(1 / 4, abs=1e-12)


class Mute:
    """A bot that declares nothing (every built-in bot declares its policy)."""

    name = "mute"

    def __init__(self, seed=None):
        self.seed = seed

    def act(self, view):
        return CHECK_CALL


def test_bad_bots_and_games_are_one_clear_error():
    with pytest.raises(ExactError, match="bot 'mute' declares no policy"):
        evaluate("kuhn", [bot("random"), make_bot("test_exact:Mute")], ["random", "mute"])
    with pytest.raises(ExactError, match="holdem is too large to walk exactly"):
        evaluate("holdem", [bot("random"), bot("call")])
    with pytest.raises(ExactError, match="streets other than deals and betting"):
        evaluate("draw5", [bot("random"), bot("call")])
    liar = DeclaredBot(lambda view: [(bet_to(99), 1.0)], name="liar")
    with pytest.raises(ExactError, match="'liar' declares .* not a legal move"):
        evaluate("kuhn", [liar, bot("call")])
    half = DeclaredBot(lambda view: [(CHECK_CALL, 0.5)], name="half")
    with pytest.raises(ExactError, match="sum to 0.5, not 1"):
        evaluate("kuhn", [half, bot("call")])


def test_cli_json_and_errors(capsys):
    assert main(["exact", "--variant", "kuhn", "--bots", "random,call", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"values", "best_response", "exploitability", "units"}
    assert out["exploitability"][0] == pytest.approx(11 / 24, abs=1e-12)
    for argv, message in [
        (["--variant", "nope", "--bots", "random,call"], "unknown variant 'nope'"),
        (["--variant", "leduc", "--bots", "random,test_exact:Mute"], "declares no policy"),
        (["--variant", "holdem", "--bots", "random,call"], "too large to walk exactly"),
        (["--variant", "kuhn", "--bots", "random"], "two bot specs"),
    ]:
        assert main(["exact", *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0]


# Against OpenSpiel ---------------------------------------------------------------------
PAIRS = {
    "kuhn": [("random", "call"), ("k_bets", "random"), ("kuhn_mixed", "k_bets"),
             ("call", "kuhn_mixed")],
    "leduc": [("random", "call"), ("leduc_pairs", "random"), ("leduc_mixed", "leduc_pairs"),
              ("call", "leduc_mixed")],
}


@pytest.mark.parametrize(("variant", "pair"),
                         [(v, p) for v, pairs in PAIRS.items() for p in pairs],
                         ids=lambda x: x if isinstance(x, str) else "-".join(x))
def test_values_best_responses_and_exploitability_agree_with_openspiel(trees, variant, pair):
    # OpenSpiel comes with the peers extra that `make test` installs: no skip
    from open_spiel.python.algorithms import best_response as os_br
    from open_spiel.python.algorithms import expected_game_score, exploitability
    from openspiel_peer import Mirror

    a, b = bot(pair[0], 1), bot(pair[1], 2)
    ours = evaluate(variant, [a, b], list(pair), tree=trees[variant])
    mirror = Mirror(variant)
    root = mirror.game.new_initial_state()
    for s, seating in enumerate(([a, b], [b, a])):
        theirs = expected_game_score.policy_value(root, [mirror.tabular(seating)] * 2)
        assert np.allclose(theirs, ours.seated[s], rtol=0, atol=1e-9)
    for i, x in enumerate((a, b)):
        both = mirror.tabular([x, x])
        br0 = os_br.BestResponsePolicy(mirror.game, 1, both).value(root)  # x in seat 0
        br1 = os_br.BestResponsePolicy(mirror.game, 0, both).value(root)  # x in seat 1
        assert ours.best_response_by_seat[i] == pytest.approx((br0, br1), abs=1e-9)
        assert ours.exploitability[i] == pytest.approx(
            exploitability.exploitability(mirror.game, both), abs=1e-9)
