"""The variety bots and the game's invariants (issue 18): every card accounted for at
every step, random legal play always finishes, an illegal move changes nothing, a log
replays to the same tour; every bot plays only legal actions under every option; the
kernels follow the game's rules; the simulation deals unseen cards consistently with
the play; in a duplicate comparison (same deals, seats rotated) sim beats rule and
rule beats random."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerarena.cards import parse_cards
from pokerarena.engine.actions import IllegalAction
from pokerarena.games import family
from pokerarena.games.play import duplicate, play_game
from pokerarena.games.variety import VarietyError, VarietyGame, bid, play
from pokerarena.games.variety import kernels as k
from pokerarena.games.variety.bots import BOTS, bid_values, make_bot, voids
from pokerarena.games.variety.rules import taken_points

OPTION_SETS = [{"deals": 2}, {"deals": 2, "finish_round": False},
               {"deals": 2, "credit": "own", "compare": "net"},
               {"deals": 2, "defender_bonus": 0}]


class Checked:
    """Wraps a bot: every answer must be one of the view's legal actions."""

    def __init__(self, bot):
        self.bot = bot
        self.decisions = 0

    def start_game(self, view):
        self.bot.start_game(view)

    def end_game(self, view):
        self.bot.end_game(view)

    def act(self, view):
        a = self.bot.act(view)
        assert a in view.legal, (self.bot.name, a, view.legal)
        self.decisions += 1
        return a


def accounted(hand) -> None:
    """Every card of the deck is in exactly one place: a hand, the trick, a taken pile."""
    d = hand.deal
    places = [c for h in d.hands for c in h] + [c for _, c in d.trick]
    places += [c for pile in d.taken for c in pile]
    assert sorted(places) == list(range(52))
    assert sum(len(p) for p in d.taken) == 4 * len(d.tricks)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(OPTION_SETS) - 1),
       picks=st.randoms(use_true_random=False))
def test_random_legal_play_finishes_with_every_card_accounted_for(seed, which, picks):
    """«Полный тур состоит из восьми раздач» (two here): random legal play finishes
    every deal, every card is somewhere at every step, each deal is 13 tricks, and the
    log replays to the same tour."""
    game = VarietyGame(OPTION_SETS[which])
    hand = game.new_hand(seed, 4)
    steps = 0
    while not hand.is_over:
        accounted(hand)
        hand.apply(picks.choice(hand.legal_actions()))
        steps += 1
    assert steps == len(hand.log) and hand.to_act == -1 and hand.legal_actions() == ()
    assert all(sum(r.tricks) == 13 for r in hand.result().deals)
    again = game.replay(seed, 4, hand.log, hand.first_dealer)
    assert again.result() == hand.result() and again.log == hand.log


def _snapshot(hand):
    d = hand.deal
    return (tuple(map(tuple, d.hands)), tuple(d.bids), tuple(d.trick), len(d.tricks),
            d.to_act, d.phase, len(hand.log), tuple(hand.totals), hand.observation(0))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 100),
       card=st.integers(0, 51), contract=st.integers(0, 9))
def test_an_illegal_move_raises_and_changes_nothing(seed, steps, card, contract):
    """«один участник не может дважды делать заявку на один и тот же розыгрыш», «Ходить
    обязательно в масть»: a repeated bid, a card not held or not following suit, a bid
    during the play, a move out of turn: refused, and the game is as it was."""
    hand = VarietyGame({"deals": 2}).new_hand(seed, 4)
    for _ in range(steps):
        hand.apply(hand.legal_actions()[0])
    legal = hand.legal_actions()
    tried = 0
    for action in (bid(contract), play(card), "bid 3", None):
        if action in legal:
            continue
        before = _snapshot(hand)
        with pytest.raises(IllegalAction):
            hand.apply(action)  # type: ignore[arg-type]
        assert _snapshot(hand) == before
        tried += 1
    assert tried >= 3
    before = _snapshot(hand)
    with pytest.raises(IllegalAction, match="out of turn"):
        hand.apply(legal[0], (hand.to_act + 1) % 4)
    assert _snapshot(hand) == before


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_plays_legal_actions_under_every_option(name, options):
    """Each option the game has, every bot, whole tours."""
    game = VarietyGame(options)
    bots = [Checked(make_bot(name, seed=s)) for s in range(4)]
    hand = play_game(game, bots, seed=len(options))
    assert hand.is_over and len(hand.records) == options["deals"]
    assert sum(b.decisions for b in bots) == len(hand.log)


def test_bots_are_deterministic_for_a_seed_and_unknown_ones_an_error():
    game = VarietyGame({"deals": 2})
    logs = [play_game(game, [make_bot(n, seed=3) for n in ("sim", "rule", "random", "sim")],
                      seed=8).log for _ in range(2)]
    assert logs[0] == logs[1]
    with pytest.raises(VarietyError, match="unknown bot"):
        make_bot("nobody")
    # sim compiles (or loads) its kernels in start_game, which a table does not time,
    # instead of in its first act (a fresh process: nothing compiled before)
    code = ("from pokerarena.games.variety import VarietyGame, kernels as k;"
            "from pokerarena.games.variety.bots import make_bot;"
            "make_bot('sim', 1).start_game(VarietyGame().new_hand(1, 4).observation(0));"
            "assert k.search_play.signatures and k.search_bid.signatures")
    assert subprocess.run([sys.executable, "-c", code], timeout=300).returncode == 0
    with pytest.raises(VarietyError, match="samples"):
        BOTS["sim"](1, samples=0)


def test_the_kernels_play_a_deal_as_the_game_does():
    """The rule bot plays by the kernel's policy seeing only its own cards; the
    kernel's play-out from the deal's start, every hand known, must take the same
    tricks and points the game scored (the same rules of the trick and scoring)."""
    game = VarietyGame({"deals": 3})
    for seed in range(3):
        hand = game.new_hand(seed, 4)
        for _ in range(3):
            d = hand.deal
            dealt = [list(h) for h in d.dealt]
            while hand.deal is d and not hand.is_over:
                hand.apply(make_bot("rule", 0).act(hand.observation(hand.to_act)))
            own = np.full(52, -1, np.int64)
            for s, h in enumerate(dealt):
                own[h] = s
            mates = np.array([d.partner(s) for s in range(4)], np.int64)
            plus, minus, tricks = (np.zeros(4, np.int64) for _ in range(3))
            k.play_out(own, d.leader, np.zeros(4, np.int64), np.zeros(4, np.int64), 0,
                       plus, minus, tricks, d.contract, mates)
            expected = taken_points(d.contract, d.taken)
            assert [list(x) for x in (plus, minus, tricks)] == [list(x) for x in expected]


def test_the_policy_follows_suit_and_gives_its_partner_the_points():
    """«Ходить обязательно в масть»; with nothing of the led suit the rule policy throws
    its partner the card that pays (contract 3: a spade onto the partner's trick) and an
    opponent the card that costs (contract 7: a club onto the opponent's trick)."""
    own = np.full(52, -1, np.int64)
    for c in parse_cards("2dAsKs3c"):
        own[c] = 3
    tc = np.array([*parse_cards("5h"), *parse_cards("Ah"), -1, -1], np.int64)
    tp = np.array([1, 2, -1, -1], np.int64)
    # partner (seat 1) led, the opponent seat 2 wins with Ah: the cheapest card, no spade
    assert k.policy(own, 3, tc, tp, 2, 3, 1) == parse_cards("2d")[0]
    # the partner (seat 2) wins with Ah: give him a spade (2 points each)
    assert k.policy(own, 3, tc, tp, 2, 3, 2) in parse_cards("AsKs")
    # contract 7 (clubs cost 2), the opponent seat 2 wins: give him the club
    assert k.policy(own, 3, tc, tp, 2, 7, 1) == parse_cards("3c")[0]
    own[parse_cards("7h")[0]] = 3
    assert k.policy(own, 3, tc, tp, 2, 3, 2) == parse_cards("7h")[0]  # must follow


def test_the_simulation_deals_unseen_cards_consistently_with_the_voids():
    """A seat that did not follow a suit is void in it: the sampler never deals it a
    card of that suit, and every other seat gets exactly as many cards as it holds."""
    hand = VarietyGame({"deals": 1}).new_hand(5, 4, dealer=3)
    for c in (2, 2, 5, 6):
        hand.apply(bid(c))
    while len(hand.deal.tricks) < 6:
        hand.apply(make_bot("rule", 1).act(hand.observation(hand.to_act)))
    view = hand.observation(hand.to_act)
    void = voids(view)
    shown = 0
    for plays, _ in view.tricks:
        led = plays[0][1] & 3
        for s, c in plays[1:]:
            if (c & 3) != led:
                assert void[s, led]
                shown += 1
    assert shown and void.sum() <= shown
    seat = view.seat
    base = np.full(52, -1, np.int64)
    base[list(view.hand)] = seat
    played = {c for p, _ in view.tricks for _, c in p} | {c for _, c in view.trick}
    unseen = np.array([c for c in range(52) if c not in played and c not in view.hand])
    caps = np.array(view.hand_sizes, np.int64)
    caps[seat] = 0
    np.random.seed(0)
    for _ in range(50):
        own = k.sample(base, unseen, caps, void, seat)
        for s in range(4):
            held = [c for c in range(52) if own[c] == s]
            assert len(held) == view.hand_sizes[s]
            assert not any(void[s, c & 3] for c in held) or s == seat


def test_the_rule_bot_bids_what_its_cards_suit():
    """A hand of aces and kings rates the paying contracts above the penalising ones;
    a hand of deuces the other way round («За каждую взятку - 2 минусовых очка»)."""
    strong = bid_values(tuple(parse_cards("AcKcQcJcTcAsKsAhKhAdKd2s3s")))
    weak = bid_values(tuple(parse_cards("2c3c4c2d3d4d2h3h4h5h2s3s4s")))
    assert strong[2] > 0 > strong[8] and weak[8] > 0 > weak[2]


# -- the duplicate comparison --------------------------------------------------------------
def test_rule_beats_random_in_a_duplicate_comparison():
    """Same deals, seats rotated (``games.play.duplicate``): the 95% interval of rule's
    edge over random excludes 0."""
    c = duplicate(family("variety"), "rule", "random", players=4, games=20, seed=0)
    assert c.mean > 0 and c.significant, c.as_text()


def test_sim_beats_rule_in_a_duplicate_comparison():
    """The simulation bot against the rule bot, 24 tours of eight deals each."""
    c = duplicate(family("variety"), "sim", "rule", players=4, games=24, seed=0)
    assert c.mean > 0 and c.significant, c.as_text()
