"""AIVAT's walk over a finished engine hand, and its terms (issue 26, part 3).

The estimator is ``aivat.py``'s (Burch et al., AAAI 2018): ``aivat_net = raw − Σ terms``,
each term of mean zero given the history before it. This module walks a finished engine
hand and supplies the terms (the table that records what they need while it plays, the
matches and the estimates: :mod:`.aivat_engine`):

- **States are real engine states.** The hand's log is replayed through the played game
  with manual dealing (``dealing = "manual"``, as the exact evaluator does), so every
  deal is an explicit dealer action; a state is a hand the walk never mutates (each
  alternative is a copy with one more action applied: :func:`clone`).
- **Chance events**: every board deal, and the hole, up or replacement cards dealt in one
  go (consecutive hole deals, with no decision between them, are one event: nobody acts
  on the first before the second). The outcomes are every way the dealer could have dealt
  the event's cards from the cards nobody has seen yet (the automatic deal's law: a
  uniformly shuffled stock dealt from the top), weighted uniformly: enumerated when at
  most :data:`EXACT_OUTCOMES` (a turn or river card, one replacement card), otherwise
  :data:`CHANCE_SAMPLES` independent uniform draws. The draws are seeded by the match's
  seed, the deal's number and the event's place in the hand, never by the cards dealt,
  so their mean is an unbiased estimate of the expectation; the two hands of a duplicate
  deal draw the same samples, so identical states correct identically. An event whose
  cards could come from a reshuffle of the discards is not corrected (no term: still
  unbiased).
- **Decisions** of a seat whose bot declares its policy: the distribution recorded while
  the match was played (``aivat_engine.PolicyRecorder``). Only the moves it declares are
  applied (a no-limit policy over a few sizes costs a few copies, not one per legal
  amount). A black-box seat's decisions get no term.
- **The value** at each state is the ``ValueFunction`` the estimator is given
  (``aivat_engine.default_value``); :mod:`.aivat_lookahead` overrides the last street's
  terms.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from pokerarena.arena.views import build_view
from pokerarena.bots.base import SeatView
from pokerarena.engine.actions import (
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    PLAYER_KINDS,
    Action,
    EngineError,
)
from pokerarena.engine.game import Game
from pokerarena.engine.keys import game_info_of
from pokerarena.solvers.exact import TOLERANCE, betting_moves, move_key
from pokerarena.tournaments.aivat import AivatError, Correction, Transition, ValueFunction
from pokerarena.tournaments.variance import EQUITY_GAMES

EXACT_OUTCOMES = 64
"""A chance event with at most this many outcomes is enumerated (a turn or river card)."""
CHANCE_SAMPLES = 24
"""Independent uniform draws for a chance event with more outcomes (hole cards, flop)."""
SALT = 26  # the chance draws' stream, apart from the deal's
Declared = tuple[tuple[Action, float], ...]
Deal = tuple[tuple[str, int, int], ...]  # an event's (kind, seat or -1, cards), in order


@dataclass(frozen=True, eq=False)
class EngineState:
    """A hand of the walk (never mutated once made). ``seed``: the deal's seed for chance
    draws; ``ordinal``: chance events before it; at a deal, ``deal``: what the event
    deals; at a decision, ``declared``: the acting seat's recorded policy (None:
    black-box)."""

    hand: Any
    seed: int = 0
    ordinal: int = 0
    deal: Deal = ()
    declared: Declared | None = None
    snapshot: Any = None
    """At a decision of a table that looks ahead (:mod:`.aivat_lookahead`), and at the
    deal before it: the bots' states just before the decision (:class:`Snapshot`)."""


@dataclass(frozen=True)
class Snapshot:
    """Every entrant's state (:func:`~pokerarena.bots.base.snapshot_of`) just before a
    decision, with the hand's numbers in play (the views a bot is shown ahead carry
    them, as its memo is the hand's)."""

    match_no: int
    hand_no: int
    states: tuple[Any, ...]


def clone(hand: Any) -> Any:
    """A copy of an engine hand that shares nothing mutable with it (its lists, nested
    lists, sets and dicts are copied; the game and immutable values are shared)."""
    new = copy.copy(hand)
    cls = type(hand)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = _fields(cls)
    for k in names or tuple(vars(hand)):
        v: Any = getattr(hand, k, None)
        t = type(v)
        if t is list:  # a hand's lists hold scalars, or lists of scalars (per seat)
            setattr(new, k, [x[:] for x in v] if v and type(v[0]) is list else v[:])
        elif t is set or t is dict:
            setattr(new, k, v.copy())
    return new


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    """The instance attributes of a hand class: the compiled (mypyc) build lists them in
    ``__mypyc_attrs__`` and has no ``__dict__``; the Python sources' hands have a
    ``__dict__`` and no such list (empty here: each hand's own is read)."""
    names: set[str] = set()
    for t in cls.__mro__:
        names.update(getattr(t, "__mypyc_attrs__", ()))
    return tuple(sorted(n for n in names if not n.startswith("__")))


def _deal_action(kind: str, target: int, cards: Sequence[int]) -> Action:
    cards = tuple(int(c) for c in cards)
    if kind == DEAL_BOARD_KIND:
        return Action(DEAL_BOARD_KIND, 0, cards)
    return Action(DEAL_HOLE_KIND, 0, cards, target)


class EngineWalk:
    """Walks finished hands of one engine game (:class:`~.aivat.Walk`): ``game`` the
    played one, hands replayed in ``manual``, the same game dealt by hand."""

    def __init__(self, variant: str, options: dict[str, Any] | None = None, *,
                 players: int = 2, samples: int = CHANCE_SAMPLES) -> None:
        opts = dict(options or {})
        self.game = Game(variant, opts)
        self.manual = Game(variant, {**opts, "dealing": "manual"})
        self.seats = players
        self.samples = samples
        self.info = game_info_of(self.game)
        self.deck = [int(c) for c in self.manual.deck_list]
        self.bottom = 1 if self.manual.program.dead_bottom_card else 0
        self.community = self.game.variant_id in EQUITY_GAMES and not getattr(
            self.game.options, "wild", None)

    def path(self, log: Sequence[tuple[int, Action]], button: int,
             stacks: Sequence[int] | None = None, *, seed: int = 0,
             declared: dict[int, Declared] | None = None,
             snapshots: dict[int, Snapshot] | None = None
             ) -> list[Transition[EngineState]]:
        """The chance events and decisions of a finished hand, in order. ``declared``:
        the recorded policy of each declared decision, by its index in ``log``;
        ``snapshots``: the bots' states before it, which the deal before a decision
        shares (nobody acts between)."""
        st = list(stacks) if stacks is not None else [self.game.variant.stakes.stack] * \
            self.seats
        hand = self.manual.new_hand(0, self.seats, st, button)
        out: list[Transition[EngineState]] = []
        ordinal, i = 0, 0
        while i < len(log):
            actor, action = log[i]
            if actor == DEALER:
                j = i + 1
                if action.kind == DEAL_HOLE_KIND:
                    while j < len(log) and log[j][0] == DEALER and \
                            log[j][1].kind == DEAL_HOLE_KIND:
                        j += 1
                event = [a for _, a in log[i:j]]
                deal = tuple((a.kind, int(a.target) if a.kind == DEAL_HOLE_KIND else -1,
                              len(a.cards)) for a in event)
                before = EngineState(hand, seed, ordinal, deal)
                hand = clone(hand)
                for a in event:
                    hand.apply(_deal_action(a.kind, a.target, a.cards), DEALER)
                ordinal += 1
                out.append(Transition(DEALER, before, EngineState(hand, seed, ordinal)))
                i = j
                continue
            i += 1
            if action.kind not in PLAYER_KINDS or hand.is_over:
                continue  # forced bets (posted by new_hand) and the showdown's shows
            pol = (declared or {}).get(i - 1)
            before = EngineState(hand, seed, ordinal, declared=pol,
                                 snapshot=(snapshots or {}).get(i - 1))
            hand = clone(hand)
            hand.apply(action)
            out.append(Transition(actor, before, EngineState(hand, seed, ordinal)))
        if not hand.is_over:
            raise AivatError(f"aivat: {self.game.variant_id}: the log ends before the hand")
        if snapshots:
            _deals_share(out)
        return out

    # Chance ------------------------------------------------------------------------
    def unseen(self, state: EngineState) -> list[int]:
        """The cards nobody has seen at ``state``, in deck order: what the dealer deals
        from (the discards are out until a reshuffle)."""
        seen = state.hand.seen
        return [c for c in self.deck if c not in seen]

    def deal_count(self, state: EngineState) -> int:
        """The cards the event at ``state`` deals."""
        return sum(k for _, _, k in state.deal)

    def correctable(self, state: EngineState) -> bool:
        """Whether the event is dealt from the unseen cards for sure (enough of them left
        under the stock's dead bottom card: no reshuffle can feed it)."""
        return len(self.unseen(state)) - self.bottom >= self.deal_count(state)

    def _after(self, state: EngineState, cards: Sequence[int]) -> EngineState:
        hand = clone(state.hand)
        at = 0
        for kind, target, k in state.deal:
            hand.apply(_deal_action(kind, target, cards[at:at + k]), DEALER)
            at += k
        return EngineState(hand, state.seed, state.ordinal + 1)

    def swappable(self, before: EngineState, after: EngineState) -> bool:
        """Whether every outcome of the deal at ``before`` leaves the betting as the
        played outcome ``after`` left it, so that an outcome is ``after`` with other
        cards (:class:`CardView`): a community-card game (no up cards, no wild cards)
        whose deal did not end the hand (a last card can: the showdown reads it)."""
        return self.community and not after.hand.is_over and all(
            kind in (DEAL_BOARD_KIND, DEAL_HOLE_KIND) for kind, _, _ in before.deal)

    def _view(self, state: EngineState, after: EngineState, cards: Sequence[int]
              ) -> EngineState:
        h = state.hand
        board = list(h.board)
        holes = [list(h.cards_of(s)) for s in range(h.n)]
        at = 0
        for kind, target, k in state.deal:
            part = [int(c) for c in cards[at:at + k]]
            at += k
            if kind == DEAL_BOARD_KIND:
                board += part
            else:
                holes[target] += part
        seen = set(h.seen)
        seen.update(int(c) for c in cards)
        return EngineState(CardView(after.hand, board, holes, seen), state.seed,
                           state.ordinal + 1)

    def outcomes(self, state: EngineState) -> list[tuple[float, EngineState]]:
        """Every outcome of the event at ``state`` with its probability (exact)."""
        cards = self.unseen(state)
        k = self.deal_count(state)
        w = 1.0 / math.perm(len(cards), k)
        return [(w, self._after(state, c)) for c in _orders(cards, k)]

    def sampled(self, state: EngineState, after: EngineState | None = None
                ) -> list[tuple[float, EngineState]]:
        """The event's outcomes: exact when at most :data:`EXACT_OUTCOMES`, else
        ``samples`` uniform draws (1/m each) seeded by the deal and the event's place.
        With the played outcome ``after`` of a :meth:`swappable` deal, each outcome is
        a :class:`CardView` of it (no engine copy); the same outcomes, the same cards."""
        cards = self.unseen(state)
        k = self.deal_count(state)
        make: Callable[[EngineState, Sequence[int]], EngineState] = self._after
        if after is not None and self.swappable(state, after):
            played = after
            make = lambda st, c: self._view(st, played, c)  # noqa: E731
        if math.perm(len(cards), k) <= EXACT_OUTCOMES:
            w = 1.0 / math.perm(len(cards), k)
            return [(w, make(state, c)) for c in itertools.permutations(cards, k)]
        rng = np.random.default_rng([state.seed, state.ordinal, SALT])
        arr = np.asarray(cards)
        m = self.samples
        return [(1.0 / m, make(state, arr[rng.choice(arr.size, k, replace=False)]
                               .tolist())) for _ in range(m)]

    # Decisions ---------------------------------------------------------------------
    def view(self, state: EngineState) -> SeatView:
        """What the seat to act sees (``hand_no`` 0)."""
        return build_view(state.hand, state.hand.to_act, game_info=self.info)

    def moves(self, state: EngineState) -> list[tuple[Action, EngineState]]:
        """Every legal betting move with its state (the protocol's; the estimator
        applies only the declared moves)."""
        try:
            out = betting_moves(state.hand.legal_actions())
        except LookupError as exc:
            raise AivatError(f"aivat: moves of kind {exc.args[0]!r} are not listed") from None
        return [(a, self.apply(state, a)) for a in out]

    def apply(self, state: EngineState, action: Action) -> EngineState:
        """The state after ``action`` by the seat to act."""
        hand = clone(state.hand)
        try:
            hand.apply(action)
        except EngineError as exc:
            raise AivatError(f"aivat: a declared {action} is not legal: {exc}") from None
        return EngineState(hand, state.seed, state.ordinal)


def _deals_share(path: list[Transition[EngineState]]) -> None:
    """Give each deal the snapshot of the decision that follows it (in place)."""
    following = None
    for k in range(len(path) - 1, -1, -1):
        t = path[k]
        if t.actor != DEALER:
            following = t.before.snapshot
        elif following is not None:
            path[k] = Transition(DEALER, replace(t.before, snapshot=following), t.after)


def _orders(cards: list[int], k: int) -> list[list[int]]:
    return [list(c) for c in itertools.permutations(cards, k)]


class CardView:
    """An outcome of a deal as a value function reads it, without copying the engine:
    the played outcome's hand (``hand``: its betting, stacks, who acts), with this
    outcome's ``board``, hole cards and seen cards. Valid only where the deal's cards
    change nothing else (:meth:`EngineWalk.swappable`); never applied to."""

    __slots__ = ("_hand", "board", "_holes", "seen")

    def __init__(self, hand: Any, board: list[int], holes: list[list[int]],
                 seen: set[int]) -> None:
        self._hand, self.board, self._holes, self.seen = hand, board, holes, seen

    def cards_of(self, seat: int) -> list[int]:
        """The seat's cards in this outcome."""
        return list(self._holes[seat])

    def __getattr__(self, name: str) -> Any:
        return getattr(self._hand, name)


@dataclass(frozen=True)
class Term:
    """One term of a hand: who moved (a seat or DEALER), its values per seat."""

    actor: int
    values: tuple[float, ...]


@dataclass
class EngineAivat:
    """AIVAT over an :class:`EngineWalk` with a value function fixed in code."""

    walk: EngineWalk
    value: ValueFunction[EngineState]
    terms: list[Term] = field(default_factory=list)
    seat_of: list[int] = field(default_factory=list)
    """Entrant ``j``'s seat in the hand being corrected (read by a value that plays the
    entrants ahead; set by :class:`TableAivat`)."""

    def _mean(self, pairs: Sequence[tuple[float, EngineState]]) -> list[float]:
        out = [0.0] * self.walk.seats
        for w, st in pairs:
            for s, x in enumerate(self.value(st)):
                out[s] += w * x
        return out

    def chance_term(self, t: Transition[EngineState]) -> tuple[float, ...] | None:
        """``v(h·c) − E_c'[v(h·c')]`` at a deal (None: not correctable)."""
        if not self.walk.correctable(t.before):
            return None
        mean = self._mean(self.walk.sampled(t.before, t.after))
        return tuple(x - m for x, m in zip(self.value(t.after), mean, strict=True))

    def action_term(self, t: Transition[EngineState], played: Action
                    ) -> tuple[float, ...] | None:
        """``v(h·a) − Σ π(a') v(h·a')`` at a declared decision (None: black-box)."""
        pol = t.before.declared
        if pol is None:
            return None
        merged: dict[tuple[Any, ...], tuple[Action, float]] = {}
        for a, p in pol:
            if not p >= 0.0:
                raise AivatError(f"aivat: a declared probability {p} of {a}")
            key = move_key(a)
            merged[key] = (a, merged.get(key, (a, 0.0))[1] + float(p))
        total = sum(p for _, p in merged.values())
        if abs(total - 1.0) > TOLERANCE:
            raise AivatError(f"aivat: declared probabilities sum to {total!r}, not 1")
        mine = move_key(played)
        if mine not in merged:
            raise AivatError(f"aivat: {played} was played but not declared")
        pairs = [(p, t.after if key == mine else self.walk.apply(t.before, a))
                 for key, (a, p) in merged.items() if p > 0.0]
        mean = self._mean(pairs)
        return tuple(x - m for x, m in zip(self.value(t.after), mean, strict=True))

    def correct(self, path: Sequence[Transition[EngineState]],
                played: Sequence[Action | None]) -> Correction:
        """The summed terms of one hand (``played[k]``: the action of path step ``k``);
        each term is kept in :attr:`terms` (cleared per hand)."""
        seats = self.walk.seats
        sums = {"chance": [0.0] * seats, "action": [0.0] * seats}
        self.terms = []
        for t, a in zip(path, played, strict=True):
            if t.actor == DEALER:
                got, into = self.chance_term(t), sums["chance"]
            else:
                assert a is not None
                got, into = self.action_term(t, a), sums["action"]
            if got is None:
                continue
            self.terms.append(Term(t.actor, got))
            for s, x in enumerate(got):
                into[s] += x
        return Correction(tuple(sums["chance"]), tuple(sums["action"]))

    def hand(self, hand: Any, *, seed: int = 0, declared: dict[int, Declared] | None = None,
             snapshots: dict[int, Snapshot] | None = None
             ) -> tuple[Correction, tuple[float, ...]]:
        """The correction and ``aivat_net`` per seat of a finished (played) hand."""
        log = list(hand.log)
        path = self.walk.path(log, hand.button, _start_by_seat(hand), seed=seed,
                              declared=declared, snapshots=snapshots)
        played = [None if t.actor == DEALER else _played(t) for t in path]
        corr = self.correct(path, played)
        return corr, corr.net([float(d) for d in hand.result().deltas])


def _start_by_seat(hand: Any) -> list[int]:
    """The stacks each seat started the hand with."""
    return [int(hand.start[hand.pos_of[s]]) for s in range(hand.n)]


def _played(t: Transition[EngineState]) -> Action:
    """The action of a decision step: the last entry of its after-state's log."""
    return t.after.hand.log[len(t.before.hand.log)][1]


__all__ = ["CHANCE_SAMPLES", "EXACT_OUTCOMES", "SALT", "CardView", "Declared", "EngineAivat",
           "EngineState", "EngineWalk", "Snapshot", "Term", "clone"]
