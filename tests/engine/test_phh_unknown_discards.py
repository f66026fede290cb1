"""Unknown cards (``??``) in a discard are distinct unknown cards, as in dealing.

Hands in the style of the PHH standard's examples (televised draw hands, the badugi
example): a player whose cards are ``??????????`` discards ``????`` and is dealt known
or unknown cards; a mixed discard such as ``p1 sd 7h??``. Each replays strictly to the
stacks worked out by hand (and, when the peers extra is installed, to PokerKit's).
"""

from __future__ import annotations

import warnings

import pytest

from pokerarena.engine.phh import PHHError, loads_phh, replay


def _text(**fields) -> str:
    out = []
    for k, v in fields.items():
        if isinstance(v, list) and v and isinstance(v[0], str):
            out.append(f"{k} = [\n" + "".join(f"  {a!r},\n" for a in v) + "]")
        else:
            out.append(f"{k} = {v!r}")
    return "\n".join(out) + "\n"


def _check(text: str, expected: list[int]) -> None:
    rep = replay(loads_phh(text))
    assert rep.finishing_stacks == expected
    try:
        import pokerkit as pk
    except ImportError:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = list(pk.HandHistory.loads(text))[-1]
    assert [int(x) for x in state.stacks] == expected


TRIPLE_DRAW = dict(
    variant="F2L3D", antes=[0, 0, 0], blinds_or_straddles=[1, 2, 0], small_bet=2,
    big_bet=4, starting_stacks=[100, 100, 100],
    actions=[
        "d dh p1 ??????????",  # a player the broadcast never shows
        "d dh p2 KsQd9h8c3s",
        "d dh p3 ??????????",
        "p3 f",
        "p1 cc",
        "p2 cc",
        "p1 sd ????",  # first draw: two unknown cards, two different ones
        "p2 sd KsQd",
        "d dh p1 ????",
        "d dh p2 7c2d",
        "p1 cc",
        "p2 cbr 2",
        "p1 cc",
        "p1 sd ??",  # second draw: an unknown card out, a known one in
        "p2 sd 9h",
        "d dh p1 5h",
        "d dh p2 4d",
        "p1 cc",
        "p2 cbr 4",
        "p1 cbr 8",
        "p2 cc",
        "p1 sd ??",  # third draw
        "p2 sd",
        "d dh p1 ??",
        "p1 cbr 4",
        "p2 cc",
        "p1 sm 7h6c5h4s2c",  # the known 5h and four cards from the unknown places
        "p2 sm 8c3s7c2d4d",
    ])


def test_triple_draw_with_an_unseen_hand_discarding_unknown_cards():
    # 7-6-5-4-2 beats 8-7-4-3-2; each put in 2 + 2 + 8 + 4 = 16.
    _check(_text(**TRIPLE_DRAW), [116, 84, 100])


def test_the_hand_stops_where_the_unknown_discards_leave_it():
    fields = dict(TRIPLE_DRAW, actions=TRIPLE_DRAW["actions"][:9])  # after "d dh p1 ????"
    rep = replay(loads_phh(_text(**fields)), complete=False)
    hole = rep.hand.cards_of(0)
    assert len(hole) == 5 and all(c == 255 for c in hole)


def test_mixed_known_and_unknown_discards_and_deals():
    text = _text(
        variant="F2L3D", antes=[0, 0, 0], blinds_or_straddles=[1, 2, 0], small_bet=2,
        big_bet=4, starting_stacks=[50, 50, 50],
        actions=[
            "d dh p1 7h????????",  # one card seen on the broadcast
            "d dh p2 ??????????",
            "d dh p3 AcAd9s9c8d",
            "p3 f", "p1 cc", "p2 cc",
            "p1 sd 7h??",  # the seen card and an unseen one
            "p2 sd ??????",
            "d dh p1 3c??",
            "d dh p2 ??????",
            "p1 cc", "p2 cc",
            "p1 sd", "p2 sd ??", "d dh p2 Kh",
            "p1 cbr 4", "p2 cc",
            "p1 sd ??", "p2 sd Kh", "d dh p1 2s", "d dh p2 Qh",
            "p1 cc", "p2 cbr 4", "p1 cc",
            "p2 sm QhTd9h8s6h",
            "p1 sm 8h6s4d3c2s",
        ])
    _check(text, [60, 40, 50])


def test_badugi_with_every_card_unknown_until_the_showdown():
    text = _text(
        variant="FB", antes=[0, 0, 0], blinds_or_straddles=[1, 2, 0], small_bet=2,
        big_bet=4, starting_stacks=[100, 100, 100],
        actions=[
            "d dh p1 ????????", "d dh p2 ????????", "d dh p3 ????????",
            "p3 cc", "p1 cc", "p2 cc",
            "p1 sd ????", "p2 sd ??????", "p3 sd ??",
            "d dh p1 ????", "d dh p2 ??????", "d dh p3 ??",
            "p1 cc", "p2 cbr 2", "p3 f", "p1 cc",
            "p1 sd ??", "p2 sd", "d dh p1 ??",
            "p1 cc", "p2 cbr 4", "p1 cc",
            "p1 sd", "p2 sd ??", "d dh p2 ??",
            "p1 cc", "p2 cc",
            "p1 sm As3d5c7h",  # a seven-high badugi
            "p2 sm 2c4h6sKd",  # king high
        ])
    _check(text, [110, 92, 98])


def _draw_hand(*draw: str, p2: str = "??????????") -> str:
    return _text(
        variant="F2L3D", antes=[0, 0], blinds_or_straddles=[1, 2], small_bet=2, big_bet=4,
        starting_stacks=[100, 100],
        actions=["d dh p1 7h6c4c3d2c", f"d dh p2 {p2}", "p2 cc", "p1 cc", *draw])


def test_a_known_card_still_cannot_be_discarded_twice():
    with pytest.raises(PHHError, match="same card twice"):
        replay(loads_phh(_draw_hand("p1 sd 7h7h")), complete=False)


def test_unknown_discards_need_that_many_unknown_cards():
    with pytest.raises(PHHError, match=r"action 5 'p1 sd \?\?'.*unknown card"):
        replay(loads_phh(_draw_hand("p1 sd ??")), complete=False)
    with pytest.raises(PHHError, match="unknown card"):
        # Four known cards from four of p2's unknown places leave none for the ``??``.
        replay(loads_phh(_draw_hand("p1 sd", "p2 sd 9s8s7s6s??", p2="Ks????????")),
               complete=False)


def test_a_known_discard_from_an_unknown_place_may_not_be_live_elsewhere():
    with pytest.raises(PHHError, match="7h was already dealt elsewhere"):
        replay(loads_phh(_draw_hand("p1 sd", "p2 sd 7h")), complete=False)


def test_a_known_discard_from_an_unknown_place_may_be_a_card_mucked_before():
    # p1 throws 2c in the first draw; after the reshuffle it may be among p2's unknown
    # cards, which p2 throws in the second draw (as a reshuffled card may be dealt).
    rep = replay(loads_phh(_draw_hand(
        "p1 sd 2c", "p2 sd ??", "d dh p1 5s", "d dh p2 ??",
        "p1 cc", "p2 cc", "p1 sd", "p2 sd 2c", "d dh p2 ??")), complete=False)
    assert rep.hand.phase_name == "bet"
