"""AIVAT's last street played ahead by the bots themselves (issue 26, part 3: a value that
foresees the river).

Why: with a value fixed by features (``aivat_fit``), what AIVAT leaves is, by
telescoping, the value's failure to foresee the bets still to come; measured with
``tools/aivat_residual.py``, the river carried half of no limit's residual. Once the last
card is dealt nothing is left to chance but the seats' decisions, and the seats are
programs: from their states at a step, the rest of the hand is theirs to play. A model of
a bot that cannot read its generator is not enough (a strength bot decides on Monte-Carlo
equities that stop early, and a model disagrees with it near every threshold: tried and
measured, docs/tournaments.md); the bots' own code, run on copies of their states, is.

How, on the last street of a hand between bots that can be played ahead
(:func:`~pokerarena.bots.base.snapshot_of`: the strength bots, and every bot whose policy
reads the view alone):

- The table copies every bot's state just before each decision (``Snapshot``, kept with
  the declared policy), before the decision draws anything.
- At a declared decision, each declared move ``a`` is valued by playing the hand out
  from the state after ``a``: the acting bot's branches (one per way its bluff coin can
  fall, :func:`~pokerarena.bots.base.branches_of`) give each move the bot's state after
  it, and every later decision is the bots' own, branch by branch, to the hand's end:
  the exact expectation of the result given the states, averaged over the branches that
  play ``a``.
- At the deal of the last card, each card is valued the same way from the states before
  the first decision after it (nobody acts between the deal and that decision, so the
  states are the deal's), every card enumerated.

Unbiased whatever the bots do: every value is computed from what is known before the
step's outcome is drawn (the states are copied first, and the declared policy, not the
branches, weights the mean), which is all AIVAT asks (Burch et al., AAAI 2018, Theorem
1, with the value allowed to read the players' private state, as the issue allows). Where
the played-ahead values and the declaration disagree (a move declared that no branch
plays) or a walk passes :data:`NODE_BUDGET` decisions, the step is corrected by the
value function alone, decided from the same knowledge. Elsewhere (a card still to come)
the value function is the table's (``aivat_engine.default_value``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokerarena.arena.views import build_view
from pokerarena.bots.base import branches_of
from pokerarena.engine.actions import DEALER, Action
from pokerarena.engine.program import DealStep, DrawStep
from pokerarena.solvers.exact import move_key
from pokerarena.tournaments.aivat import Transition
from pokerarena.tournaments.aivat_walk import EngineAivat, EngineState, Snapshot, clone

NODE_BUDGET = 2_000
"""Decisions one step's walks may visit; past it the step gets the value alone."""
MAX_MOVES = 8
"""Moves one decision may branch into; more, and the step gets the value alone (a bot
that bets every amount of a no-limit range would walk millions)."""


class _Over(Exception):
    """A walk met a deal, a bot it cannot play, or its budget."""


@dataclass
class LookaheadAivat(EngineAivat):
    """:class:`~.aivat_engine.EngineAivat` whose last street is played ahead (the
    module's docstring); ``seat_of`` says where each entrant sits in the hand."""

    def __post_init__(self) -> None:
        steps = self.walk.manual.program.steps
        self.last_chance = max((i for i, s in enumerate(steps)
                                if isinstance(s, (DealStep, DrawStep))), default=-1)
        self.counts = {"ahead": 0, "value_alone": 0}
        """Last-street steps corrected by playing ahead, and by the value alone (a walk
        over budget, a move no branch plays)."""

    def _last_street(self, state: EngineState) -> bool:
        h = state.hand
        return not h.is_over and h.si > self.last_chance

    def chance_term(self, t: Transition[EngineState]) -> tuple[float, ...] | None:
        snap = t.before.snapshot
        if snap is None or not self._last_street(t.after) or not self.walk.correctable(
                t.before):
            return super().chance_term(t)
        try:
            budget = [NODE_BUDGET]
            outcomes = self.walk.sampled(t.before)  # engine states: each is played on
            mean = [0.0] * self.walk.seats
            played = None
            for w, st in outcomes:
                got = self._play(st.hand, self._states(snap), snap, budget)
                for s, x in enumerate(got):
                    mean[s] += w * x
                if st.hand.board == t.after.hand.board and all(
                        st.hand.cards_of(s) == t.after.hand.cards_of(s)
                        for s in range(st.hand.n)):
                    played = got
            if played is None:  # the played deal among the samples: else play it too
                played = self._play(t.after.hand, self._states(snap), snap, budget)
        except _Over:
            return self._alone(super().chance_term(t))
        self.counts["ahead"] += 1
        return tuple(x - m for x, m in zip(played, mean, strict=True))

    def action_term(self, t: Transition[EngineState], played: Action
                    ) -> tuple[float, ...] | None:
        snap, pol = t.before.snapshot, t.before.declared
        if snap is None or pol is None or not self._last_street(t.before):
            return super().action_term(t, played)
        try:
            values = self._move_values(t.before, snap)
        except _Over:
            return self._alone(super().action_term(t, played))
        weights: dict[tuple[Any, ...], float] = {}
        for a, p in pol:
            key = move_key(a)
            weights[key] = weights.get(key, 0.0) + float(p)
        if any(p > 0.0 and key not in values for key, p in weights.items()):
            return self._alone(super().action_term(t, played))  # a move no branch plays
        mine = values.get(move_key(played))
        if mine is None:  # played, not declared: the value alone says so
            return self._alone(super().action_term(t, played))
        self.counts["ahead"] += 1
        mean = [0.0] * self.walk.seats
        for key, p in weights.items():
            if p > 0.0:
                for s, x in enumerate(values[key]):
                    mean[s] += p * x
        return tuple(x - m for x, m in zip(mine, mean, strict=True))

    def _alone(self, term: tuple[float, ...] | None) -> tuple[float, ...] | None:
        self.counts["value_alone"] += 1
        return term

    # ------------------------------------------------------------------ the walk
    def _states(self, snap: Snapshot) -> list[Any]:
        """The entrants' states by seat."""
        by_seat: list[Any] = [None] * self.walk.seats
        for j, s in enumerate(self.seat_of):
            by_seat[s] = snap.states[j]
        return by_seat

    def _move_values(self, state: EngineState, snap: Snapshot
                     ) -> dict[tuple[Any, ...], tuple[float, ...]]:
        """Each move the acting bot plays from its state, with its expected result (its
        branches that play the same move averaged by their chances)."""
        hand = state.hand
        seat = hand.to_act
        states = self._states(snap)
        budget = [NODE_BUDGET]
        sums: dict[tuple[Any, ...], tuple[float, list[float]]] = {}
        for action, p, after, child in self._branches(hand, seat, states, snap, budget):
            got = self._play(child, _with(states, seat, after), snap, budget)
            w, acc = sums.get(move_key(action), (0.0, [0.0] * len(got)))
            sums[move_key(action)] = (w + p, [a + p * x for a, x in zip(acc, got,
                                                                          strict=True)])
        return {k: tuple(x / w for x in acc) for k, (w, acc) in sums.items() if w > 0.0}

    def _branches(self, hand: Any, seat: int, states: Sequence[Any], snap: Snapshot,
                  budget: list[int]) -> list[tuple[Action, float, Any, Any]]:
        """(move, chance, the bot's state after, the hand after) of the bot to act."""
        budget[0] -= 1
        if seat is None or seat == DEALER or states[seat] is None or budget[0] < 0:
            raise _Over
        view = build_view(hand, seat, hand_no=snap.hand_no, match_no=snap.match_no,
                          game_info=self.walk.info)
        got = branches_of(states[seat], view)
        if len(got) > MAX_MOVES:
            raise _Over
        out = []
        for action, p, after in got:
            if p <= 0.0:
                continue
            child = clone(hand)
            child.apply(action)
            out.append((action, p, after, child))
        return out

    def _play(self, hand: Any, states: list[Any], snap: Snapshot, budget: list[int]
              ) -> tuple[float, ...]:
        """The expected result of ``hand`` with the bots in ``states`` playing it out."""
        if hand.is_over:
            return tuple(float(d) for d in hand.result().deltas)
        seat = hand.to_act
        out = [0.0] * hand.n
        for _, p, after, child in self._branches(hand, seat, states, snap, budget):
            for s, x in enumerate(self._play(child, _with(states, seat, after), snap,
                                             budget)):
                out[s] += p * x
        return tuple(out)


def _with(states: Sequence[Any], seat: int, state: Any) -> list[Any]:
    out = list(states)
    out[seat] = state
    return out


__all__ = ["MAX_MOVES", "NODE_BUDGET", "LookaheadAivat"]
