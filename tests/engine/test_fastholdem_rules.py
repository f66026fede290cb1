"""The fast hold'em rules kernel (``pokerarena.engine.fastholdem.kernel``) against the
reference engine, hand by hand.

Two numba test policies play many random configurations (betting systems, 2..10 seats,
stacks from three big blinds to deep, antes, caps, reopening and odd-chip options); each
hand is then replayed through a reference ``Hand`` made by ``game.new_hand`` from a
Generator in the kernel's deal state, applying the kernel's decisions one by one, and
every log entry, every decision's view and legal range, and every ``HandArrays`` field is
compared with the engine's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numba import njit

from pokerarena.arena.views import ViewMaker
from pokerarena.bots.base import legalize
from pokerarena.engine.actions import Action
from pokerarena.engine.fastholdem import kernel
from pokerarena.engine.fastholdem.arrays import HandArrays
from pokerarena.engine.fastholdem.layout import (
    K_CALL,
    K_FOLD,
    K_RAISE,
    KIND_NAMES,
    L_CALL,
    L_FOLD,
    L_RAISE,
    V_BETS,
    V_BOARD,
    V_BUTTON,
    V_CALL,
    V_FOLDED,
    V_HAND_NO,
    V_HOLE,
    V_KINDS,
    V_MATCH_NO,
    V_MAX_TO,
    V_MIN_TO,
    V_N,
    V_NBOARD,
    V_POT,
    V_RAISES,
    V_RAISES_ROUND,
    V_SEAT,
    V_STACKS,
    V_STREET,
    VLEN,
)
from pokerarena.engine.game import Game

REC = VLEN + 2  # a recorded decision: the view, then the policy's raw kind and amount
PLAYER_KINDS = ("f", "cc", "cbr")


@njit(cache=True)
def _next(st):  # pragma: no cover - jit
    """The test policy's own generator (64-bit LCG, high bits), state in ``st[0]``."""
    st[0] = st[0] * 6364136223846793005 + 1442695040888963407
    return (st[0] >> 33) & 0x7FFFFFFF


@njit(cache=True)
def random_decide(BS, V):  # pragma: no cover - jit
    """Fold, call or raise at random, often all in, sometimes with an illegal answer
    (the kernel must clamp it as ``legalize`` does); records every view and answer."""
    st, rec, count = BS[0], BS[1], BS[2]
    u = _next(st) % 100
    lo, hi = V[V_MIN_TO], V[V_MAX_TO]
    if u < 40:
        kind = L_RAISE
        w = _next(st) % 10
        if w < 3 or hi <= lo:
            amount = hi
        elif w < 6:
            amount = lo
        elif w == 6:
            amount = lo - 1 - _next(st) % 5  # below the minimum
        elif w == 7:
            amount = hi + 1 + _next(st) % 50  # above the maximum
        else:
            amount = lo + _next(st) % (hi - lo + 1)
    elif u < 58:
        kind, amount = L_FOLD, 0
    else:
        kind, amount = L_CALL, 0
    i = count[0]
    if i < rec.shape[0]:
        rec[i, :VLEN] = V
        rec[i, VLEN] = kind
        rec[i, VLEN + 1] = amount
    count[0] = i + 1
    return kind, amount


@njit(cache=True)
def random_end(BS, seat, actor, kind, start, stop):  # pragma: no cover - jit
    """Counts the end_hand calls and the decisions each hand told a seat of."""
    ends = BS[3]
    ends[0] += 1
    for i in range(start, stop):
        if L_FOLD <= kind[i] <= L_RAISE and actor[i] == seat:
            ends[1] += 1


@njit(cache=True)
def call_decide(BS, V):  # pragma: no cover - jit
    """Always check or call (and count the decisions)."""
    BS[0][0] += 1
    return L_CALL, 0


@njit(cache=True)
def call_end(BS, seat, actor, kind, start, stop):  # pragma: no cover - jit
    """Nothing to learn."""
    BS[0][1] += 1


def _random_state(seed: int, room: int) -> tuple[np.ndarray, ...]:
    return (np.array([seed * 2654435761 + 1], np.int64), np.zeros((room, REC), np.int64),
            np.zeros(1, np.int64), np.zeros(2, np.int64))


def _kinds(bits: int) -> tuple[str, ...]:
    return tuple(k for k, b in (("f", K_FOLD), ("cc", K_CALL), ("cbr", K_RAISE)) if bits & b)


def _play(game: Game, stacks: list[int], hands: int, seed: int, policy: str,
          match_no: int = 3) -> tuple[Any, HandArrays, tuple]:
    n = len(stacks)
    rng = np.random.default_rng(seed)
    state = rng.bit_generator.state
    decks = kernel.decks(game, rng, hands, n)
    P = kernel.params(game, n, stacks[0], stacks)
    room = 40 * hands
    used = -1
    while used < 0:  # a longer log until it fits
        room *= 2
        out = HandArrays.empty(hands, n, room)
        if policy == "random":
            BS: tuple = _random_state(seed, 200 * hands)
            used = kernel.play(P, decks, match_no, BS, random_decide, random_end, out)
        else:
            BS = (np.zeros(2, np.int64),)
            used = kernel.play(P, decks, match_no, BS, call_decide, call_end, out)
    # the deals left the Generator where the reference's new_hand calls leave it
    ref = np.random.default_rng(seed)
    for _ in range(hands):
        game.new_hand(ref, n, stacks, 0)
    assert rng.bit_generator.state == ref.bit_generator.state
    return state, out.cut(used), BS


def _check_entry(entry: tuple, out: HandArrays, k: int) -> None:
    actor, act = entry
    assert int(out.actor[k]) == actor, (k, entry)
    assert KIND_NAMES[out.kind[k]] == act.kind, (k, entry)
    assert int(out.amount[k]) == act.amount, (k, entry)
    assert tuple(int(c) for c in out.cards[k, :out.ncards[k]]) == tuple(act.cards), (k, entry)
    assert int(out.target[k]) == act.target, (k, entry)
    if act.kind not in PLAYER_KINDS:
        assert out.street[k] == -1


def _check_view(V: np.ndarray, view: Any, seat: int) -> None:
    legal = view.legal
    assert V[V_SEAT] == seat and V[V_N] == view.players and V[V_BUTTON] == view.button
    assert V[V_STREET] == view.street
    assert (V[V_CALL], V[V_MIN_TO], V[V_MAX_TO]) == (legal.call, legal.min_to, legal.max_to)
    assert _kinds(int(V[V_KINDS])) == legal.kinds
    assert V[V_POT] == view.pot and V[V_NBOARD] == len(view.board)
    assert tuple(V[V_BOARD:V_BOARD + len(view.board)]) == view.board
    assert tuple(V[V_HOLE:V_HOLE + 2]) == view.hole
    assert V[V_HAND_NO] == view.hand_no and V[V_MATCH_NO] == view.match_no
    last_deal = max(i for i, (a, _) in enumerate(view.history) if a < 0)
    round_raises = sum(1 for a, act in view.history[last_deal:] if act.kind == "cbr")
    assert V[V_RAISES_ROUND] == round_raises
    n = view.players
    assert tuple(V[V_FOLDED:V_FOLDED + n]) == view.folded
    assert tuple(V[V_BETS:V_BETS + n]) == view.bets
    assert tuple(V[V_STACKS:V_STACKS + n]) == view.stacks
    raises = [0] * n
    for a, act in view.history:
        if act.kind == "cbr":
            raises[a] += 1
    assert list(V[V_RAISES:V_RAISES + n]) == raises


def _check_result(hand: Any, out: HandArrays, h: int, n: int) -> None:
    res = hand.result()
    assert out.button[h] == hand.button
    assert tuple(out.board[h, :out.nboard[h]]) == tuple(hand.board)
    for s in range(n):
        assert tuple(out.hole[h, s]) == tuple(hand.cards_of(s))
    assert out.pot[h] == sum(p.amount for p in res.pots)
    assert bool(out.showdown[h]) == res.went_to_showdown
    assert list(out.deltas[h]) == list(res.deltas)
    assert list(out.stacks[h]) == list(res.stacks)
    assert list(out.won[h]) == [sum(p.winners.get(s, 0) for p in res.pots) for s in range(n)]
    assert list(out.folded[h]) == [hand.folded[hand.pos_of[s]] for s in range(n)]
    raw = res.showdown_raw
    assert [bool(x) for x in out.in_showdown[h]] == [s in raw for s in range(n)]
    assert list(out.high[h]) == [raw[s][1] if s in raw else -1 for s in range(n)]
    assert out.npots[h] == len(res.pots)
    for k, pot in enumerate(res.pots):
        assert out.pot_amount[h, k] == pot.amount
        assert [s for s in range(n) if out.pot_eligible[h, k, s]] == sorted(pot.eligible)
        assert {s: int(out.pot_won[h, k, s]) for s in range(n)
                if out.pot_won[h, k, s]} == {s: v for s, v in pot.winners.items() if v}


def _replay(game: Game, stacks: list[int], state: Any, out: HandArrays,
            rec: np.ndarray | None, match_no: int = 3) -> int:
    """Replay every hand of ``out`` through the reference engine and compare; returns
    the decisions replayed."""
    rng = np.random.default_rng()
    rng.bit_generator.state = state
    d = 0
    n = len(stacks)
    for h in range(out.hands):
        hand = game.new_hand(rng, n, stacks, h % n)
        views = ViewMaker(hand, hand_no=h, match_no=match_no)
        k, stop, j = int(out.log_start[h]), int(out.log_start[h + 1]), 0
        while True:
            for entry in hand.log[j:]:
                _check_entry(entry, out, k)
                k += 1
            j = len(hand.log)
            if hand.is_over:
                break
            seat = hand.to_act
            assert seat is not None and seat >= 0
            view = views.view(seat)
            assert out.street[k] == view.street and out.actor[k] == seat
            kind = KIND_NAMES[out.kind[k]]
            act = Action(kind, int(out.amount[k])) if kind == "cbr" else Action(kind)
            if rec is not None:
                _check_view(rec[d, :VLEN], view, seat)
                raw = Action(KIND_NAMES[rec[d, VLEN]], int(rec[d, VLEN + 1]))
                fixed = legalize(raw, view.legal)
                assert (fixed.kind, fixed.amount if fixed.kind == "cbr" else 0) == \
                    (kind, act.amount)
            hand.apply(act)
            d += 1
        assert k == stop
        assert out.decisions[h] == sum(1 for _, a in hand.log if a.kind in PLAYER_KINDS)
        _check_result(hand, out, h, n)
    return d


OPTIONS: tuple[dict[str, Any], ...] = (
    {}, {"ante": 1, "ante_by": "all"}, {"ante": 2, "ante_by": "big_blind"},
    {"ante": 1, "ante_by": "all", "live_ante": True},
    {"ante": 1, "ante_by": "all", "ante_trimming": False},
    {"blinds": [1, 2, 4]}, {"blinds": [2, 5]}, {"odd_chip": "position"},
    {"all_in_reopen": "single"}, {"half_bet_reopens": False}, {"free_fold": False},
    {"max_raises": 2}, {"max_raises_per_player": 1}, {"heads_up_max_raises": "none"},
    {"min_bet_big_blind": False, "min_bet": 1}, {"pass_and_out": True},
    {"blinds": [0, 0], "void_if_all_check": False}, {"blinds": [0, 3], "ante": 1,
                                                     "ante_by": "dealer"},
)


def _configs(count: int, seed: int) -> list[tuple[dict, list[int]]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        opts = dict(OPTIONS[int(rng.integers(len(OPTIONS)))])
        opts["betting"] = ("no_limit", "pot_limit", "fixed_limit")[int(rng.integers(3))]
        n = int(rng.integers(2, 11))
        sizes = [0, 1, 3, 6, 7, 12, 25, 60, 200, 500]
        if rng.random() < 0.5:  # equal stacks (the fast table's units)
            stacks = [int(rng.choice(sizes))] * n
        else:  # unequal stacks: side pots
            stacks = [int(x) for x in rng.choice(sizes, n)]
        if min(stacks) == 0:  # blinds of 0 chips: a first round all check is void
            opts["void_if_all_check"] = False
        out.append((opts, stacks))
    return out


@pytest.mark.parametrize("chunk", range(4))
def test_random_policy_matches_the_engine_field_by_field(chunk: int) -> None:
    """«если у игрока нет достаточного количества фишек, чтобы ответить на ставку, он
    может пойти ва-банк (All-In). В этом случае игрок при разделе банка будет иметь право
    только на долю банка, бывшего на столе к моменту его последней ставки» (002_…):
    random raises, often all in, make all-ins, short raises and side pots frequent; every
    log entry, view, legal range, clamp and result field is the engine's."""
    decided = side_pots = clamped = 0
    for i, (opts, stacks) in enumerate(_configs(12, 100 + chunk)):
        game = Game("holdem", opts)
        n = len(stacks)
        if kernel.unsupported(game, n) is not None:
            continue
        seed = 1000 * chunk + i
        state, out, BS = _play(game, stacks, 25, seed, "random")
        d = _replay(game, stacks, state, out, BS[1])
        assert d == BS[2][0]
        assert BS[3][0] == 25 * n and BS[3][1] == d
        decided += d
        side_pots += int((out.npots > 1).sum())
        rec = BS[1][:d]
        logged = out.street >= 0
        clamped += int(((rec[:, VLEN] != out.kind[logged])
                        | ((rec[:, VLEN] == L_RAISE) & (rec[:, VLEN + 1] != out.amount[logged]))
                        ).sum())
    assert decided > 200 and side_pots > 0 and clamped > 0


def test_call_policy_goes_to_showdown_every_hand() -> None:
    """«После последнего круга ставок оставшиеся активными игроки вскрывают свои
    расклады» ... «Если ничья, банк делится поровну» (000_…): checking and calling down,
    every hand is shown down, compared and split exactly as the engine does."""
    splits = 0
    for betting, n, stack in (("no_limit", 6, 200), ("fixed_limit", 10, 40),
                              ("pot_limit", 2, 5), ("no_limit", 9, 3)):
        game = Game("holdem", {"betting": betting})
        state, out, BS = _play(game, [stack] * n, 40, n, "call")
        d = _replay(game, [stack] * n, state, out, None)
        assert BS[0][0] == d and BS[0][1] == 40 * n
        assert out.showdown.all()
        splits += int(((out.pot_won > 0).sum(axis=2) > 1).sum())
    assert splits > 0


def test_heads_up_button_posts_the_small_blind_and_acts_first() -> None:
    """«В первом раунде (и только в нем) торговлю начинает игрок, сидящий слева от
    позиции большого блайнда» ... «Во всех раундах кроме первого торговлю начинает первый
    активный игрок слева от баттона» (002_…): heads-up the button posts the small blind
    (RULES.md §3, casino practice), so it acts first before the flop and last after."""
    game = Game("holdem", {"betting": "no_limit"})
    state, out, BS = _play(game, [200, 200], 4, 5, "random")
    _replay(game, [200, 200], state, out, BS[1])
    for h in range(4):
        k = int(out.log_start[h])
        button = h % 2
        assert (out.actor[k], out.amount[k]) == (1 - button, 2)      # the big blind first
        assert (out.actor[k + 1], out.amount[k + 1]) == (button, 1)  # the button's small
        first = next(i for i in range(k, int(out.log_start[h + 1])) if out.street[i] >= 0)
        assert out.actor[first] == button
        flop = [i for i in range(k, int(out.log_start[h + 1])) if out.street[i] == 3]
        if flop:
            assert out.actor[flop[0]] == 1 - button


def test_a_short_log_asks_for_more_room() -> None:
    game = Game("holdem", {"betting": "no_limit"})
    rng = np.random.default_rng(1)
    out = HandArrays.empty(10, 6, 20)
    used = kernel.play(kernel.params(game, 6, 200), kernel.decks(game, rng, 10, 6), 0,
                       (np.zeros(2, np.int64),), call_decide, call_end, out)
    assert used == -1


@pytest.mark.parametrize(("game", "n", "why"), [
    (Game("omaha"), 6, "hold'em only"),
    (Game("holdem", {"betting": "spread_limit"}), 6, "spread_limit"),
    (Game("holdem", {"rake_percent": 5}), 6, "rake"),
    (Game("holdem", {"irregularities": "house"}), 6, "house"),
    (Game("holdem", {"wild": "deuces"}), 6, "showdown"),
    (Game("holdem", {"jackpot": True}), 6, "jackpot"),
    (Game("holdem", {"dealing": "manual"}), 6, "manual dealing"),
    (Game("holdem", {"odd_chip": "fractional"}), 6, "fractional"),
    (Game("holdem", {"blinds": [0, 0]}), 6, "void deal"),
    (Game("holdem", {"blinds": [1, 2, 4]}), 2, "blinds"),
])
def test_unsupported_names_the_reason(game: Game, n: int, why: str) -> None:
    reason = kernel.unsupported(game, n)
    assert reason is not None and why in reason
    with pytest.raises(ValueError, match="cannot play"):
        kernel.params(game, n, 200)


def test_a_seat_without_chips_where_a_deal_may_be_void() -> None:
    """«Если все игроки пропустили ход в первом круге ставок, игра аннулируется» (000_…):
    seats with no chips in the blinds leave the first round without a bet."""
    game = Game("holdem", {"betting": "no_limit"})
    with pytest.raises(ValueError, match="void deal"):
        kernel.params(game, 3, 200, [200, 0, 0])
    no_void = Game("holdem", {"betting": "no_limit", "void_if_all_check": False})
    assert kernel.params(no_void, 3, 200, [200, 0, 0])[0] == 3


def test_supported_games() -> None:
    for opts in OPTIONS:
        for betting in ("no_limit", "pot_limit", "fixed_limit"):
            assert kernel.unsupported(Game("holdem", {**opts, "betting": betting}), 6) is None
