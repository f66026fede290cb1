"""What the fast hold'em kernel (:mod:`.rules`) needs of a game, as one ``int64`` array
``P``, and which games it plays exactly as the reference engine does.

The kernel reads nothing else of the game: the rules the compiled
:class:`~pokerarena.engine.program.Program` settles once (stakes, forced bets by
position, caps, reopening rules, who opens each round) are copied here, so the kernel
never touches a Python object. A game the kernel cannot play exactly gets a reason from
:func:`unsupported` (the caller then plays the unit on the reference path).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from pokerarena.engine.actions import EngineError
from pokerarena.engine.fastholdem.layout import MAXN
from pokerarena.engine.steps import (
    OPEN_LEFT_OF_BLINDS,
    OPEN_LEFT_OF_BUTTON,
    SIZE_BIG,
    SIZE_SMALL,
    SYS_FIXED,
    SYS_NO,
    SYS_POT,
    BetStep,
    DealStep,
)

# scalars
P_N = 0
P_STACK = 1
P_SYS = 2            # SYS_FIXED, SYS_POT or SYS_NO
P_OPEN_MIN = 3       # no/pot limit: the smallest bet (min_bet, or the big blind)
P_CAP = 4            # raises after the bet per round at this table (-1: no cap)
P_CAP_PP = 5         # raises per player per round (-1: no cap)
P_PLAIN = 6          # no caps at all (the engine's plain_raises)
P_CUMULATIVE = 7     # short all-ins that together make a full raise reopen the betting
P_HALF_BET = 8       # fixed limit: an all-in raise of half a bet or more is a raise
P_FREE_FOLD = 9      # a player may fold when he could check
P_ODD_CALLED = 10    # odd chips go first to the player who was called (else by position)
P_ANTE_TRIM = 11     # antes count in the pots as bets (else they are dead chips)
P_LIVE_ANTE = 12     # antes are the players' bets in the first round
# per betting round r (0..3): its bet size, first position to act, checks, check-raises
P_SIZE = 16
P_START = 20
P_CHECK = 24
P_CHECK_RAISE = 28
# by position (0: left of the button): the ante and the blind each must post
P_ANTES = 32
P_BLINDS = P_ANTES + MAXN
# by seat: the chips each seat starts every hand with
P_STACKS = P_BLINDS + MAXN
PLEN = P_STACKS + MAXN

ROUNDS = 4
_BOARD = (3, 1, 1)  # the flop, the turn, the river
_SYSTEMS = {"no_limit": SYS_NO, "pot_limit": SYS_POT, "fixed_limit": SYS_FIXED}


def _structure(prog: Any) -> str | None:
    """None when the program's steps are hold'em's: two down cards, then a betting
    round after each deal, the board 3, 1, 1; else what differs."""
    steps = prog.steps
    if len(steps) != 2 * ROUNDS:
        return f"{len(steps)} steps, not hold'em's {2 * ROUNDS}"
    for r in range(ROUNDS):
        deal, bet = steps[2 * r], steps[2 * r + 1]
        want = (2, 0, 0) if r == 0 else (0, 0, _BOARD[r - 1])
        if not isinstance(deal, DealStep) or (deal.down, deal.up, deal.board) != want:
            return f"step {2 * r} is not hold'em's deal"
        if not isinstance(bet, BetStep):
            return f"step {2 * r + 1} is not a betting round"
        if bet.opener not in (OPEN_LEFT_OF_BUTTON, OPEN_LEFT_OF_BLINDS):
            return "a betting round opened by other than the button's or the blinds' left"
        if bet.size not in (SIZE_SMALL, SIZE_BIG) or bet.open_pair:
            return "a betting round's size is not the small or the big bet"
    return None


# Every field of Program, classified: the kernel's scope is an allow-list. A field in
# none of these sets (a new engine option) makes every game unsupported until it is
# classified here, so the kernel never plays a rule it does not know by default
# (tests/workers/test_fasttable_scope.py checks that every field is in exactly one set).
READ = frozenset({
    # copied into P by params() or checked by unsupported() / _structure / _table_rules
    "variant", "family", "system_name", "steps", "small_bet", "big_bet", "open_min",
    "live_ante", "max_raises", "heads_up_max_raises", "max_raises_per_player",
    "plain_raises", "cumulative_reopen", "half_bet_reopens", "free_fold",
    "void_if_all_check", "odd_chip", "ante_trimming", "deck_list", "showdown"})
DERIVED = frozenset({
    # follow from READ fields: the game's identity, the system's own constants, the
    # forced bets (read through game.forced_by_position), the deck and the showdown
    "options", "system", "key", "sys", "fast_raises", "min_bet", "max_bet", "ante",
    "bring_in", "blinds", "ante_by", "amounts", "bring_in_rule", "deck_cards", "scorer"})
PLAIN_ONLY = {
    # the kernel plays only plain hold'em's value of these (that of the same system)
    "house": "house irregularities", "manual_deal": "manual dealing",
    "manual_show": "manual showdown", "phh_compat": "PHH compatibility",
    "rake_percent": "rake", "kitty_unit": "kitty", "bonus": "bonus hands",
    "jackpot": "jackpot", "freeze_multiple": "freeze", "openers": "openers",
    "reset_each_round": "bet limits that carry across rounds",
    "variable": "variable limits", "round_multipliers": "bet multipliers by round",
    "reshuffles_discards": "reshuffled discards", "dead_bottom_card": "a dead bottom card",
    "discards_face_up": "discards face up", "hides_choices": "hidden choices"}
RIDERS = {
    # matter only when their PLAIN_ONLY field is off plain, which is then refused
    "rake_cap": "rake_percent", "rake_showdown_only": "rake_percent",
    "bonus_multiplier": "bonus"}


@cache
def unclassified() -> tuple[str, ...]:
    """The fields of Program in none of the sets above (none, while the scope is kept)."""
    from dataclasses import fields

    from pokerarena.engine.program import Program

    known = READ | DERIVED | set(PLAIN_ONLY) | set(RIDERS)
    return tuple(f.name for f in fields(Program) if f.name not in known)


@cache
def _plain(system_name: str) -> Any:
    """Plain hold'em's program under ``system_name`` (its default options)."""
    from pokerarena.engine import Game

    return Game("holdem", {"betting": system_name}).program


def _table_rules(prog: Any) -> str | None:
    """None when every table rule is one the kernel plays; else its name."""
    unknown = unclassified()
    if unknown:
        return f"engine options the fast table does not know: {', '.join(unknown)}"
    if prog.odd_chip == "fractional":
        return "fractional odd chips"
    plain = _plain(prog.system_name)
    for name, what in PLAIN_ONLY.items():
        if getattr(prog, name) != getattr(plain, name):
            return what
    sd = prog.showdown
    if (sd.high != "high" or sd.low is not None or sd.wild != "none" or sd.four_flush
            or sd.blaze or sd.combine != "any" or sd.trips_beat_straight):
        return "a showdown other than plain high hands"
    if prog.variant.deck != "standard" or len(prog.deck_list) != 52:
        return f"the {prog.variant.deck} deck"
    return None


def unsupported(game: Any, n: int) -> str | None:
    """None when the kernel plays ``game`` at ``n`` seats exactly as the reference engine
    does; else a short reason (hold'em only, no/pot/fixed limit, 2..10 seats, none of the
    table rules it lacks)."""
    prog = game.program
    if prog.variant.id != "holdem" or prog.family != "betting":
        return f"variant {prog.variant.id}: the fast table plays hold'em only"
    if prog.system_name not in _SYSTEMS:
        return f"betting {prog.system_name}: only no_limit, pot_limit, fixed_limit"
    if not 2 <= n <= MAXN:
        return f"{n} seats: the fast table seats 2 to {MAXN}"
    why = _structure(prog) or _table_rules(prog)
    if why:
        return why
    try:
        antes, blinds = game.forced_by_position(n)
    except EngineError as exc:
        return str(exc)
    if any(a < 0 for a in antes) or any(b < 0 for b in blinds):
        return "negative forced bets"
    if prog.void_if_all_check and not (max(blinds) > 0 or (prog.live_ante and max(antes) > 0)):
        # 000_…: «Если все игроки пропустили ход в первом круге ставок, игра
        # аннулируется»: only a first round with no bet in it can be void.
        return "a void deal when all check (no blind opens the first round)"
    return None


def params(game: Any, n: int, stack: int, stacks: Sequence[int] | None = None
           ) -> np.ndarray:
    """The kernel's ``P`` for ``game`` at ``n`` seats, each starting every hand with
    ``stack`` chips (or seat ``s`` with ``stacks[s]``: unequal stacks make side pots; the
    game must be supported: :func:`unsupported`)."""
    why = unsupported(game, n)
    if why is not None:
        raise ValueError(f"the fast hold'em kernel cannot play this game: {why}")
    prog = game.program
    chips = [stack] * n if stacks is None else list(stacks)
    if prog.void_if_all_check and min(chips) <= 0:
        # A seat with no chip posts a blind of 0: the first round may then have no bet
        # and be void (000_… «игра аннулируется»), which the kernel does not play.
        raise ValueError("the fast hold'em kernel cannot play this game: a seat with no "
                         "chips may leave the first round without a bet (a void deal)")
    P = np.zeros(PLEN, np.int64)
    P[P_N] = n
    P[P_STACK] = stack
    P[P_SYS] = _SYSTEMS[prog.system_name]
    P[P_OPEN_MIN] = prog.open_min
    cap = prog.max_raises
    # 002_… «В играх «один на один» кэп объявляется после 5 подъемов»: the engine's
    # heads-up cap, settled here for this table size.
    if n == 2 and (P[P_SYS] == SYS_FIXED or prog.heads_up_max_raises is not None):
        cap = prog.heads_up_max_raises
    P[P_CAP] = -1 if cap is None else cap
    P[P_CAP_PP] = -1 if prog.max_raises_per_player is None else prog.max_raises_per_player
    P[P_PLAIN] = prog.plain_raises
    P[P_CUMULATIVE] = prog.cumulative_reopen
    P[P_HALF_BET] = prog.half_bet_reopens
    P[P_FREE_FOLD] = prog.free_fold
    P[P_ODD_CALLED] = prog.odd_chip == "called"
    P[P_ANTE_TRIM] = prog.ante_trimming
    P[P_LIVE_ANTE] = prog.live_ante
    antes, blinds = game.forced_by_position(n)
    P[P_ANTES:P_ANTES + n] = antes
    P[P_BLINDS:P_BLINDS + n] = blinds
    P[P_STACKS:P_STACKS + n] = chips
    top = max(blinds) if blinds else 0
    after_blinds = (max(i for i in range(n) if blinds[i] == top) + 1) % n if top else 0
    for r in range(ROUNDS):
        step = prog.steps[2 * r + 1]
        P[P_SIZE + r] = prog.big_bet if step.size == SIZE_BIG else prog.small_bet
        P[P_START + r] = after_blinds if step.opener == OPEN_LEFT_OF_BLINDS else 0
        P[P_CHECK + r] = step.check
        P[P_CHECK_RAISE + r] = step.check_raise
    return P
