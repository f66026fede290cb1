"""Irregularities (RULES.md §4): the house remedies of ``003_…`` «Нарушение правил» and
the time limit of ``000_…``, played hand by hand."""

from __future__ import annotations

import threading

import pytest
from handplay import deal, manual

from pokerarena.arena.faults import FaultPolicy, GuardedBot
from pokerarena.arena.views import build_view
from pokerarena.bots.base import BaseBot
from pokerarena.engine import CHECK_CALL, FOLD, Action, IllegalAction, bet_to, discard

RELEASE = threading.Event()


def _draw5(**options):
    hand = manual("draw5", [50, 50, 50], openers="any", irregularities="house", **options)
    deal(hand, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d")
    return hand


def test_a_bet_out_of_turn_stays_in_the_pot_and_binds_as_a_raise():
    """003_… «Нарушение правил»: «Если игрок делает ставку не в свою очередь, то
    поставленные им фишки остаются в банке, а очередь возвращается к соответствующему
    участнику ... В случае перебора фишек, требуемых для повторения, считают, что
    нарушитель повысил ставку на излишек, причем он не может вносить дополнительные фишки
    для усиления своего повышения»."""
    hand = _draw5()
    hand.apply(bet_to(4), seat=2)                # seat 2 bets 4 out of turn
    assert hand.to_act == 0 and hand.pot_total() == 7 and hand.stacks()[2] == 45
    hand.apply(bet_to(2))                        # seat 0 opens
    hand.apply(CHECK_CALL)                       # seat 1 calls
    legal = hand.legal_actions()                 # seat 2: his 4 chips are a raise to 4
    assert hand.to_act == 2 and legal.kinds == ("cbr",) and legal.min_to == legal.max_to == 4
    hand.apply(CHECK_CALL)                       # whatever he says, the chips bind him
    assert hand.bets == [2, 2, 4] and hand.stacks() == [47, 47, 45] and hand.pot_total() == 11


def test_a_short_bet_out_of_turn_is_completed_to_a_call_or_forfeited():
    """003_… «Нарушение правил»: «Если при подходе очереди нарушителя поставленных им
    фишек не хватает для повторения предыдущей ставки, он может положить в банк
    недостающее число фишек, и тогда считают, что он повторил предыдущую ставку, либо же
    выйти из игры и отказаться от своих фишек. При этом игрок не может вносить
    дополнительные фишки, чтобы повысить ставку»."""
    for answer, stacks in ((CHECK_CALL, [47, 47, 47]), (FOLD, [47, 47, 48])):
        hand = _draw5()
        hand.apply(bet_to(1), seat=2)
        hand.apply(bet_to(2))
        hand.apply(CHECK_CALL)
        legal = hand.legal_actions()
        assert legal.kinds == ("f", "cc") and legal.call == 1
        hand.apply(answer)
        assert hand.stacks() == stacks and hand.pot_total() == 150 - sum(stacks)


def test_a_bet_out_of_turn_with_no_bet_before_him_is_a_bet_with_the_excess_confiscated():
    """003_… «Нарушение правил»: «Если до него никто из игроков не сделал ставку, то
    поставленные им фишки расценивают в качестве ставки и любое количество фишек сверх
    установленного предела конфискуют в банк»."""
    hand = _draw5()
    hand.apply(bet_to(10), seat=1)               # 10 chips out of turn; the limit is 2
    hand.apply(CHECK_CALL)                       # seat 0 checks
    assert hand.legal_actions().kinds == ("cbr",)
    hand.apply(bet_to(2))
    assert hand.bets == [0, 2, 0] and hand.dead == 8 and hand.stacks()[1] == 39
    assert any(act.kind == "dead" and act.amount == 8 for _, act in hand.log)


def test_a_fold_out_of_turn_kills_the_hand():
    """003_… «Нарушение правил»: «Отказ от участия в сдаче, сделанный не в свою очередь,
    относят к нарушениям покерного этикета ... в любом случае карты нарушителя выходят из
    игры, а сам нарушитель не может выиграть банк»."""
    hand = _draw5()
    hand.apply(FOLD, seat=2)
    assert hand.folded[hand.pos_of[2]] and hand.to_act == 0
    hand.apply(bet_to(2))
    hand.apply(FOLD)
    assert hand.is_over and hand.result().stacks == [52, 49, 49]
    strict = manual("draw5", [50, 50, 50], openers="any")
    deal(strict, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d")
    with pytest.raises(IllegalAction, match="cannot act now"):
        strict.apply(FOLD, seat=2)


def test_a_player_may_fold_at_a_draw():
    """000_… «Принципы, по которым делаются ставки»: «Пасовать ... Игрок может сделать
    это в любой момент»."""
    hand = manual("draw5", [50, 50, 50], openers="any")
    deal(hand, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d")
    hand.apply(bet_to(2))
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    assert hand.phase_name == "draw" and hand.legal_actions().kinds == ("f", "sd")
    hand.apply(FOLD)
    hand.apply(discard())
    assert hand.to_act == 2 and hand.folded[hand.pos_of[0]]


class _Staller(BaseBot):
    name = "staller"

    def act(self, view):
        RELEASE.wait(2.0)
        return Action("cc")


def test_a_time_out_kills_the_hand_even_where_a_check_was_free():
    """000_… «Продолжительность игры»: «Лимит времени на решение, отводимый игроку во
    время игры (например, сколько карт скинуть, сколько ставить) ... Если игрок не сделал
    ход в течение данного времени, его расклад аннулируется»; with disconnection
    protection (002_… «Защита от прерывания связи») the hand plays on all in instead."""
    try:
        hand = manual("holdem", [100, 100])
        deal(hand, "AsKs", "QdJd")
        hand.apply(CHECK_CALL)                   # the button completes; the blind may check
        guard = GuardedBot(_Staller(), FaultPolicy(decision_time=0.05))
        action = guard.act(build_view(hand, hand.to_act))
        assert guard.faults[0].kind == "timeout" and action.kind == "f"
        guard.close()
        hand.apply(action)
        assert hand.result().stacks == [98, 102]
        protect = GuardedBot(_Staller(), FaultPolicy(decision_time=0.05, on_fault="protect"))
        again = manual("holdem", [100, 100])
        deal(again, "AsKs", "QdJd")
        again.apply(CHECK_CALL)
        assert protect.act(build_view(again, again.to_act)).kind == "pr"
        protect.close()
    finally:
        RELEASE.set()
