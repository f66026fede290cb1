"""The compiled program: named, frozen steps, one canonical key, families registered."""

from __future__ import annotations

import dataclasses

import pytest

from pokerarena.engine import Game, KnockHand
from pokerarena.engine.hand import Hand
from pokerarena.engine.keys import game_digest
from pokerarena.engine.program import GameKey, compile_program
from pokerarena.engine.steps import (
    OPEN_BRING_IN,
    OPEN_LEFT_OF_BLINDS,
    SIZE_BIG,
    BetStep,
    DealStep,
    DrawStep,
    FamilyStep,
)


def test_holdem_compiles_into_named_steps():
    prog = compile_program("holdem", {"betting": "no_limit"})
    assert prog.steps[0] == DealStep(down=2, up=0, board=0)
    first = prog.steps[1]
    assert isinstance(first, BetStep) and first.opener == OPEN_LEFT_OF_BLINDS
    assert first.round_no == 0 and first.check
    assert [type(s) for s in prog.steps].count(BetStep) == 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.check = False  # type: ignore[misc]
    assert prog.fast_raises and prog.family == "betting"


def test_stud_opens_with_the_bring_in_and_big_bets_later():
    prog = compile_program("stud7", {"betting": "fixed_limit"})
    bets = [s for s in prog.steps if isinstance(s, BetStep)]
    assert bets[0].opener == OPEN_BRING_IN
    assert bets[-1].size == SIZE_BIG


def test_options_change_the_steps_and_the_key():
    plain = Game("spit")
    more = Game("spit", {"draw_max": 4})
    draw_plain, draw_more = plain.program.steps[2], more.program.steps[2]
    assert isinstance(draw_plain, DrawStep) and isinstance(draw_more, DrawStep)
    assert (draw_plain.max, draw_more.max) == (3, 4)
    assert plain.key != more.key and plain.program.key != more.program.key
    assert game_digest(more) == more.program.key.digest != plain.program.key.digest
    again = Game("spit", {"draw_max": 4}).program.key
    assert again == more.program.key and isinstance(again, GameKey)
    assert more.key == again.text


def test_families_pick_their_hand():
    knock = Game("knock")
    assert knock.program.family == "knock"
    assert any(isinstance(s, FamilyStep) for s in knock.program.steps)
    assert knock.program.discards_face_up and not knock.program.dead_bottom_card
    assert type(knock.new_hand(1, 4, [50] * 4, 0)) is KnockHand
    holdem = Game("holdem")
    assert type(holdem.new_hand(1, 6, [200] * 6, 0)) is Hand
    draw = Game("draw5").program
    assert draw.reshuffles_discards and draw.dead_bottom_card and not draw.discards_face_up


def test_the_program_names_its_steps():
    """Hold'em: two down cards, then a betting round opened left of the blinds."""
    from pokerarena.engine.steps import BetStep, DealStep

    steps = Game("holdem").program.steps
    assert steps[0] == DealStep(down=2, up=0, board=0)
    assert isinstance(steps[1], BetStep) and steps[1].opener == OPEN_LEFT_OF_BLINDS


def test_a_deal_keeps_its_face_up_cards_apart_from_its_amount():
    """Stud's third street: two down, one up; the log says which in ``face_up``."""
    hand = Game("stud7").new_hand(3, 3, [50] * 3, 0)
    deals = [act for _, act in hand.log if act.kind == "dh"]
    assert deals and all(act.amount == 0 and act.face_up == 0b100 for act in deals)
    seat = deals[0].target
    other = hand.observation((seat + 1) % 3)
    seen = [act for _, act in other.history if act.kind == "dh" and act.target == seat][0]
    assert seen.cards[:2] == (255, 255) and seen.cards[2] == deals[0].cards[2]
    assert seen.face_up == 0b100
