"""Hypothesis invariants across every shipped variant and betting system.

Chips are conserved, every card is in exactly one place (never dealt twice), random
legal play finishes, an illegal action under ``strict`` changes nothing, and a hand is a
pure function of (variant, options, seed, seats, stacks, button, actions).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerarena.engine import Action, Game, IllegalAction
from pokerarena.rules import all_variants

CASES = [(v.id, b) for v in all_variants() for b in v.betting]
GAMES: dict[tuple[str, str], Game] = {}


def game_for(case):
    if case not in GAMES:
        GAMES[case] = Game(case[0], {"betting": case[1]})
    return GAMES[case]


def snapshot(hand):
    return (hand.to_act, hand.stacks(), list(hand.committed), list(hand.bets), len(hand.log),
            [list(h) for h in hand.hole], list(hand.board), list(hand.stock),
            list(hand.muck_pile), hand.phase_name, hand.legal_actions(), list(hand.folded))


def check_cards(hand):
    if hand.is_over:
        return
    live = [c for p in range(hand.n) if not hand.folded[p] for c in hand.hole[p]]
    everything = sorted(live + hand.board + hand.stock + hand.muck_pile)
    assert everything == sorted(hand.game.deck_list), "a card is missing or dealt twice"


def check_chips(hand, total):
    if hand.is_over:
        res = hand.result()
        assert sum(res.stacks) + res.rake + res.carry == total
        assert sum(res.deltas) + res.rake + res.carry == 0
        assert res.passed or res.carry == 0
    else:
        assert sum(hand.stack) + sum(hand.committed) + hand.dead == total
    assert all(s >= 0 for s in hand.stack)


def illegal_candidates(hand, draw):
    legal = hand.legal_actions()
    seat = hand.to_act
    out = [Action("cbr", 10 ** 9)]
    if "cbr" in legal.kinds:
        out.append(Action("cbr", legal.max_to + 1))
        out.append(Action("cbr", legal.min_to - 1))
    if "f" not in legal.kinds:
        out.append(Action("f"))
    if "sd" not in legal.kinds:
        out.append(Action("sd", 0, ()))
    else:
        held = hand.cards_of(seat)
        others = [c for c in hand.game.deck_list if c not in held]
        out.append(Action("sd", 0, (others[0],)))
        if legal.discard_max < len(held):
            out.append(Action("sd", 0, tuple(held[:legal.discard_max + 1])))
    out.append(Action("xx"))
    other = (seat + 1) % hand.n
    return out, other


def random_action(hand, draw):
    legal = hand.legal_actions()
    kind = draw(st.sampled_from(legal.kinds))
    if kind == "cbr":
        lo, hi = legal.min_to, legal.max_to
        to = draw(st.sampled_from(legal.choices) if legal.choices else
                  st.one_of(st.just(lo), st.just(hi), st.integers(lo, hi)))
        return Action("cbr", to)
    if kind == "sd":
        held = hand.cards_of(hand.to_act)
        k = draw(st.integers(legal.discard_min, legal.discard_max))
        idx = draw(st.permutations(range(len(held))))[:k]
        return Action("sd", 0, tuple(held[i] for i in idx))
    if kind == "sm":
        return Action("sm", 0, tuple(hand.cards_of(hand.to_act)))
    if kind == "ex":
        seat = hand.to_act
        down = [c for c in hand.cards_of(seat) if c not in hand.observation(seat).up[seat]]
        idx = draw(st.permutations(range(len(down))))[:legal.discard_min]
        return Action("ex", 0, tuple(down[i] for i in idx))
    if kind == "dc":
        return Action("dc", draw(st.sampled_from(legal.choices or (1, 2, 3))))
    return Action(kind)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), case=st.sampled_from(CASES), seed=st.integers(0, 2 ** 32 - 1))
def test_random_legal_play_keeps_the_invariants(data, case, seed):
    game = game_for(case)
    lo, hi = game.variant.players
    n = data.draw(st.integers(lo, min(hi, 6)), label="players")
    stacks = data.draw(st.lists(st.integers(1, 150), min_size=n, max_size=n), label="stacks")
    button = data.draw(st.integers(0, n - 1), label="button")
    total = sum(stacks)
    hand = game.new_hand(seed, n, stacks, button)
    actions = []
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 400, "the hand does not finish"
        check_chips(hand, total)
        check_cards(hand)
        if data.draw(st.integers(0, 5), label="try illegal") == 0:
            bad, other = illegal_candidates(hand, data.draw)
            before = snapshot(hand)
            action = data.draw(st.sampled_from(bad), label="illegal")
            try:
                hand.apply(action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"illegal {action} was accepted")
            try:
                hand.apply(Action("cc"), other)
            except IllegalAction:
                pass
            else:
                raise AssertionError("an out-of-turn action was accepted")
            assert snapshot(hand) == before
        action = random_action(hand, data.draw)
        hand.apply(action)
        actions.append(action)
    check_chips(hand, total)
    # Determinism: the same inputs and actions give the same hand.
    again = game.new_hand(seed, n, stacks, button)
    for action in actions:
        again.apply(action)
    assert again.is_over
    assert again.log == hand.log
    assert again.result().stacks == hand.result().stacks


@settings(max_examples=25, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10 ** 6))
def test_check_call_play_is_deterministic_by_seed(case, seed):
    game = game_for(case)
    n = min(game.variant.players[1], 4)

    def play():
        hand = game.new_hand(seed, n, [100] * n, seed % n)
        while not hand.is_over:
            legal = hand.legal_actions()
            if "pb" in legal.kinds:
                hand.apply(Action("pb"))
            elif "sd" in legal.kinds:
                hand.apply(Action("sd", 0, tuple(hand.cards_of(hand.to_act)[:1])))
            elif "ex" in legal.kinds:
                seat = hand.to_act
                up = hand.observation(seat).up[seat]
                down = [c for c in hand.cards_of(seat) if c not in up]
                hand.apply(Action("ex", 0, tuple(down[:legal.discard_min])))
            elif "cc" in legal.kinds:
                hand.apply(Action("cc"))
            else:
                hand.apply(Action("cbr", legal.min_to))  # pass and out: open
        return hand.log, hand.result().stacks

    assert play() == play()


@settings(max_examples=20, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10 ** 6),
       percent=st.integers(1, 20), cap=st.one_of(st.none(), st.integers(0, 10)))
def test_chips_are_conserved_with_rake(data, seed, percent, cap):
    game = Game("omaha_hilo", {"rake_percent": percent, "rake_cap": cap})
    stacks = data.draw(st.lists(st.integers(1, 80), min_size=4, max_size=4))
    hand = game.new_hand(seed, 4, stacks, seed % 4)
    while not hand.is_over:
        hand.apply(random_action(hand, data.draw))
    res = hand.result()
    assert sum(res.stacks) + res.rake == sum(stacks)
    assert cap is None or res.rake <= cap


@settings(max_examples=30, deadline=None)
@given(data=st.data(), case=st.sampled_from(CASES), seed=st.integers(0, 10 ** 6))
def test_house_policy_repairs_bad_amounts_and_keeps_the_invariants(data, case, seed):
    game = Game(case[0], {"betting": case[1], "irregularities": "house"})
    n = min(game.variant.players[1], 4)
    stacks = data.draw(st.lists(st.integers(1, 100), min_size=n, max_size=n))
    hand = game.new_hand(seed, n, stacks, seed % n)
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 400
        legal = hand.legal_actions()
        if "cbr" in legal.kinds and data.draw(st.booleans()):
            before = len(hand.irregularities)
            to = data.draw(st.integers(0, 300))
            hand.apply(Action("cbr", to))
            fine = legal.min_to <= to <= legal.max_to and (not legal.choices
                                                           or to in legal.choices)
            assert (len(hand.irregularities) == before) == fine
        else:
            hand.apply(random_action(hand, data.draw))
        check_chips(hand, sum(stacks))
        check_cards(hand)
    check_chips(hand, sum(stacks))


@settings(max_examples=25, deadline=None)
@given(data=st.data(), variant=st.sampled_from([v.id for v in all_variants()]),
       hilo=st.sampled_from(["cards_speak", "cards_speak_8", "declare_in_turn",
                             "declare_simultaneous"]),
       seed=st.integers(0, 10 ** 6))
def test_any_variant_played_high_low_keeps_the_invariants(data, variant, hilo, seed):
    game = Game(variant, {"hilo": hilo})
    lo, hi = game.variant.players
    n = data.draw(st.integers(lo, min(hi, 5)))
    stacks = data.draw(st.lists(st.integers(1, 100), min_size=n, max_size=n))
    hand = game.new_hand(seed, n, stacks, seed % n)
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 400
        hand.apply(random_action(hand, data.draw))
        check_chips(hand, sum(stacks))
        check_cards(hand)


OPTION_SOUP = st.fixed_dictionaries({}, optional={
    "irregularities": st.sampled_from(["strict", "house"]),
    "odd_chip": st.sampled_from(["called", "position", "fractional"]),
    "max_raises_per_player": st.integers(0, 2),
    "freeze_multiple": st.integers(2, 5),
    "kitty_unit": st.integers(0, 2),
    "bonus": st.sampled_from(["none", "four_of_a_kind", "straight_flush"]),
    "rake_percent": st.integers(0, 10),
    "pass_and_out": st.booleans(),
    "openers": st.sampled_from(["any", "jacks_or_better", "progressive", "jacks_or_bobtail"]),
    "draw_more_when_few": st.booleans(),
    "hilo": st.sampled_from(["cards_speak", "cards_speak_8", "declare_in_turn"]),
    "ante": st.integers(0, 3),
})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), case=st.sampled_from(CASES), options=OPTION_SOUP,
       seed=st.integers(0, 10 ** 6))
def test_any_mix_of_options_keeps_the_invariants(data, case, options, seed):
    from pokerarena.rules import VariantError

    try:
        game = Game(case[0], {"betting": case[1], **options})
    except VariantError:
        return  # an option this variant does not take is refused up front
    lo, hi = game.variant.players
    n = data.draw(st.integers(lo, min(hi, 5)))
    stacks = data.draw(st.lists(st.integers(1, 120), min_size=n, max_size=n))
    carry = data.draw(st.integers(0, 5))
    hand = game.new_hand(seed, n, stacks, seed % n, carry=carry, passes=seed % 3)
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 500
        hand.apply(random_action(hand, data.draw))
        check_cards(hand)
        if not hand.is_over:
            assert sum(hand.stack) + sum(hand.committed) + hand.dead == sum(stacks) + carry
    res = hand.result()
    total = sum(res.stacks) + res.rake + res.kitty + res.carry
    assert total == sum(stacks) + carry
