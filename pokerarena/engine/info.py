"""A poker game's :class:`~pokerarena.protocols.GameInfo`, read from its program.

The bounds are the rules' own, step by step: in a betting round each player acts once,
and each bet or raise gives every other player one more turn, so its decisions are at
most ``n + raises × (n − 1)`` (a short all-in counted as a raise), where ``raises`` is
the cap of a fixed-limit round plus the short all-ins, or else what the chips allow
(every bet or raise adds at least the smallest bet); a draw, an expose, a declaration
or a choice of up or down is one decision a player. Knock poker's turns end on a knock
or an empty stock, and a card taken from the discards leaves the stock as it was: no
bound.
"""

from __future__ import annotations

from pokerarena.engine.options import GameOptions
from pokerarena.engine.program import Program, bet_size
from pokerarena.engine.steps import (
    SIZE_BIG,
    SIZE_SMALL,
    BetStep,
    ChooseStep,
    DeclareStep,
    DrawStep,
    ExposeStep,
    FamilyStep,
)
from pokerarena.protocols import GameInfo, Utility, longest, params_of


def _cap(p: Program, players: int) -> int | None:
    """A fixed-limit round's most bets and raises (None: no cap): the opening bet, the
    raises its cap allows (``max_raises`` counts the raises after the bet), and the
    freeze's multiple bet."""
    cap = p.heads_up_max_raises if players == 2 and p.heads_up_max_raises is not None \
        else p.max_raises
    if cap is None or p.variable or p.jackpot:
        return None
    return 1 + cap + (1 if p.freeze_multiple else 0)


def _can_run_out(p: Program, cap: int, stack: int) -> bool:
    """Whether a stack of ``stack`` can be all in within a cap of ``cap`` bets and
    raises a round: the forced bets and, each round, the cap times the largest bet (the
    freeze's multiple included)."""
    most = p.ante + max(p.blinds, default=0) + p.bring_in
    for step in p.steps:
        if isinstance(step, BetStep):
            bet = max(bet_size(p, SIZE_BIG, step.round_no), bet_size(p, SIZE_SMALL, step.round_no),
                      p.max_bet if p.max_bet < stack else 0)
            most += cap * bet * max(1, p.freeze_multiple)
    return most >= stack


def _round_raises(p: Program, players: int, stack: int) -> int:
    """The most bets and raises one betting round can hold at a table of ``players``:
    the cap, plus a short all-in each where stacks can run out; without a cap, what the
    chips allow (every bet or raise adds the smallest bet at least, but for the
    all-ins)."""
    cap = _cap(p, players)
    chips = players * stack // max(1, p.min_bet) + players
    if cap is None:
        return chips
    return min(cap + players, chips) if _can_run_out(p, cap, stack) else cap


def max_decisions(p: Program, players: int, stack: int) -> int | None:
    """The most player decisions of one hand (None: the rules bound none)."""
    if any(isinstance(step, FamilyStep) for step in p.steps):
        return None
    per_round = players + _round_raises(p, players, stack) * (players - 1)
    return sum(per_round if isinstance(step, BetStep) else players
               for step in p.steps
               if isinstance(step, BetStep | DrawStep | ExposeStep | DeclareStep | ChooseStep))


def utility_of(p: Program) -> Utility:
    """``zero_sum`` unless chips can leave the players: a rake, a kitty, or a pot that
    waits for the next deal (a deal nobody opens; a first round everybody checks, which
    blinds rule out: the big blind is a bet)."""
    carries = p.openers != "any" or (p.void_if_all_check and not any(p.blinds))
    return "general_sum" if p.rake_percent or p.kitty_unit or carries else "zero_sum"


def game_info(p: Program) -> GameInfo:
    """The :class:`GameInfo` of an engine game's program (default stacks: the
    variant's)."""
    lo, hi = p.variant.players
    stack = p.variant.stakes.stack
    utility = utility_of(p)
    return GameInfo(
        name=p.variant.id, family="poker", betting=p.system_name, players=(lo, hi),
        information="imperfect", utility=utility,
        utility_sum=0.0 if utility == "zero_sum" else None,
        utility_range=(-float(stack), float((hi - 1) * stack)),
        max_length=longest([max_decisions(p, n, stack) for n in range(max(2, lo), hi + 1)]),
        explicit_chance=True,
        parameters=params_of(GameOptions))
