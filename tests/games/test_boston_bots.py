"""American boston's bots and invariants (issue 18): every card accounted for and the
chips conserved at every step of random legal play, which always finishes; an illegal
move changes nothing; replay reproduces the game; a seat sees only its own cards; the
family's fields; every bot plays only legal actions; and the duplicate comparison — the
counting bot beats the rule bot, the rule bot beats random, significantly."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerarena.cards import card_str, parse_card, parse_cards
from pokerarena.engine.actions import IllegalAction
from pokerarena.games import family
from pokerarena.games.boston import BostonGame, accept, bid, pass_, play
from pokerarena.games.boston.league import BOTS, make_bot
from pokerarena.games.boston.rules import BOSTON, MISERE, PROPOSALS
from pokerarena.games.boston.simulation import SimBot, playout
from pokerarena.games.play import duplicate, play_game, play_games

SHORT = {"simple_tours": 1, "double_tours": 1}
OPTION_SETS = [SHORT, {**SHORT, "labet": False, "pass_doubles": False},
               {**SHORT, "misere": "no_boston", "final": "play_out"}]


def cards_accounted(hand) -> bool:
    d = hand.deal
    seen = [c for h in d.hands for c in h] + [c for _, c in d.trick] + \
        [c for t, _ in d.tricks for _, c in t]
    return sorted(seen) == list(range(52))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), choice=st.integers(0, 2**31),
       options=st.sampled_from(OPTION_SETS))
def test_random_play_finishes_with_every_card_and_chip_accounted_for(seed, choice, options):
    """«Каждый играющий получает 13 карт»: at every step the 52 cards are in the hands,
    the trick or the tricks taken, and the 480 chips are with the players or in the
    kitty («касса»); random legal play ends the game, all chips back with the players."""
    rng = random.Random(choice)
    hand = BostonGame(options).new_hand(seed, 4)
    steps = 0
    while not hand.is_over:
        assert cards_accounted(hand)
        assert sum(hand.chips) + hand.kitty == 480 or \
            abs(sum(hand.chips) + hand.kitty - 480) < 1e-6 * max(1.0, hand.kitty)
        hand.apply(rng.choice(hand.legal_actions()))
        steps += 1
    assert hand.kitty == 0 and abs(sum(hand.result().deltas)) < 1e-6 * max(
        1.0, max(abs(x) for x in hand.result().deltas))
    assert steps == len(hand.log) and hand.legal_actions() == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), choice=st.integers(0, 2**31), cut=st.integers(0, 200))
def test_an_illegal_move_changes_nothing_and_replay_reproduces_the_game(seed, choice, cut):
    """An illegal action (a card in the bidding, a bid in the play, a card not held,
    the wrong seat) raises and leaves the game as it was; the log replays the game."""
    rng = random.Random(choice)
    game = BostonGame(SHORT)
    hand = game.new_hand(seed, 4)
    while not hand.is_over:
        if len(hand.log) == cut or rng.random() < 0.05:
            seat = hand.to_act
            before = (hand.observation(seat), len(hand.log), hand.kitty, list(hand.chips))
            bad = [a for a in (play(rng.randrange(52)), bid(MISERE), accept(), pass_(),
                               bid(PROPOSALS[0])) if a not in hand.legal_actions()]
            for a in bad[:2]:
                try:
                    hand.apply(a, seat)
                    raise AssertionError(f"{a} was applied")
                except IllegalAction:
                    pass
            try:
                hand.apply(hand.legal_actions()[0], (seat + 1) % 4)
                raise AssertionError("the wrong seat acted")
            except IllegalAction:
                pass
            assert (hand.observation(seat), len(hand.log), hand.kitty, list(hand.chips)) \
                == before
        hand.apply(rng.choice(hand.legal_actions()))
    again = game.replay(seed, 4, hand.log)
    assert again.records == hand.records and again.result() == hand.result()


def test_a_seat_sees_only_its_own_cards():
    """The view holds the seat's own hand and what is on the table, never another's."""
    hand = BostonGame(SHORT).new_hand(9, 4)
    rng = random.Random(1)
    while not hand.is_over:
        for s in range(4):
            v = hand.observation(s)
            assert list(v.hand) == hand.deal.hands[s]
            text = json.dumps(hand.observation(s).as_json())
            others = [c for x in range(4) if x != s for c in hand.deal.hands[x]
                      if c != hand.deal.turned]
            played = {card_str(c) for t, _ in hand.deal.tricks for _, c in t} | \
                {card_str(c) for _, c in hand.deal.trick}
            assert not any(f'"{card_str(c)}"' in text for c in others
                           if card_str(c) not in played)
        hand.apply(rng.choice(hand.legal_actions()))


def test_the_family_fills_every_field():
    """What the platform reads: bots, JSON forms, the record table and its rows."""
    fam = family("boston")
    assert fam.id == "boston" and fam.players == (4, 4) and fam.deck == "52"
    assert set(fam.bots) == {"random", "rule", "count", "sim"}
    for name in ("new_bot", "view_json", "action_json", "parse_action", "record",
                 "record_rows"):
        assert getattr(fam, name) is not None, name
    game = fam.make({"simple_tours": 1, "double_tours": 0})
    hand = play_game(game, [fam.new_bot(n, 3) for n in ("count", "rule", "random", "rule")],
                     4)
    view = hand.observation(0)
    assert json.loads(json.dumps(fam.view_json(view)))["family"] == "boston"
    rows = fam.record_rows(hand)
    assert len(rows) == 4 * len(hand.records) and all(
        len(r) == len(fam.record.columns) for r in rows)
    kinds = {"string": str, "bool": bool, "int8": int, "int16": int, "double": float}
    for row in rows:
        for value, (name, kind, _) in zip(row, fam.record.columns, strict=True):
            assert isinstance(value, kinds[kind]), (name, value)
    per_seat = [sum(r[16] for r in rows if r[11] == s) for s in range(4)]
    assert per_seat == [pytest.approx(x) for x in hand.result().deltas]
    assert play_games(fam, {"simple_tours": 1, "double_tours": 0}, ["rule"] * 4, 2, 5) == \
        play_games(fam, {"simple_tours": 1, "double_tours": 0}, ["rule"] * 4, 2, 5)
    assert fam.parse_action("bid solo h", view) == bid("solo", "h")
    # remote workers receive the family pickled; scores are whole steps of its scale
    assert pickle.loads(pickle.dumps(fam)).make(None).options == game.options.__class__()
    scale = fam.extra["score_scale"]
    for options in ({}, {"labet": False}):
        for game_points in play_games(fam, {**SHORT, **options}, ["random", "rule", "count",
                                                          "random"], 6, 2):
            assert all(abs(x * scale - round(x * scale)) < 1e-6 for x in game_points)


class Checked:
    """Wraps a bot: every answer must be one of the view's legal actions."""

    def __init__(self, bot):
        self.bot = bot

    def start_game(self, view):
        self.bot.start_game(view)

    def end_game(self, view):
        self.bot.end_game(view)

    def act(self, view):
        a = self.bot.act(view)
        assert a in view.legal, (self.bot.name, a, view.legal)
        return a


def test_every_bot_plays_legal_actions_under_every_option():
    """Every option the document names, every bot, whole games."""
    for options in OPTION_SETS:
        for name in sorted(BOTS):
            hand = play_game(BostonGame(options), [Checked(make_bot(name, s)) for s in range(4)],
                             seed=len(name))
            assert hand.is_over


def test_bots_are_deterministic_and_the_rule_bot_bids_by_its_cards():
    """The same seeds give the same game; the rule and count bots do not bid on a hand
    with nothing and bid a proposal on a strong one."""
    game = BostonGame(SHORT)
    logs = [play_game(game, [make_bot(n, 3) for n in ("count", "rule", "random", "rule")],
                      8).log for _ in range(2)]
    assert logs[0] == logs[1]
    contracts = {r.contract for r in play_game(
        game, [make_bot("rule", s) for s in range(4)], 2).records}
    assert MISERE not in contracts and contracts & set(PROPOSALS)


def test_duplicate_count_beats_rule_and_rule_beats_random():
    """The same deals played by both bots in both seatings (games.play.duplicate): the
    interval of the per-deal-sequence difference excludes 0."""
    fam = family("boston")
    one_tour = {"simple_tours": 1, "double_tours": 0}
    rr = duplicate(fam, "rule", "random", players=4, games=30, seed=1, options=one_tour)
    assert rr.mean > 0 and rr.significant, rr.as_text()
    cr = duplicate(fam, "count", "rule", players=4, games=300, seed=1, options=one_tour)
    assert cr.mean > 0 and cr.significant, cr.as_text()


def test_the_sim_bot_deals_the_unseen_cards_consistently_and_plays_out_whole_deals():
    """The sim bot's sampled deals keep its own hand, give the turned card to the dealer
    («последняя карта идет сдающему, он открывает ее») and share out the rest; a playout
    takes all 13 tricks, and twelve trumps with the boston take every one."""
    hand = BostonGame(SHORT).new_hand(3, 4)
    seat = hand.to_act
    view = hand.observation(seat)
    assert seat != view.dealer
    bot = SimBot(1)
    for _ in range(5):
        hands = bot._sample(view)
        assert hands[seat] == list(view.hand) and view.turned in hands[view.dealer]
        assert sorted(c for h in hands for c in h) == list(range(52))
        side = tuple(s == seat for s in range(4))
        assert sum(playout(hands, (view.dealer + 1) % 4, 3, BOSTON, -1, side)) == 13
    strong = parse_cards("AsKsQsJsTs9s8s7s6s5s4s3sJd")
    rest = [c for c in range(52) if c not in strong and c != parse_card("2s")]
    hands = [[parse_card("2s"), *rest[:12]], strong, rest[12:25], rest[25:]]
    assert playout(hands, 1, 3, BOSTON, -1, (False, True, False, False)) == [0, 13, 0, 0]
