"""AIVAT: a played hand's result corrected with control variates (issue 26, first slice).

Burch, Schmid, Moravčík, Morrill and Bowling, "AIVAT: A New Variance Reduction Technique
for Agent Evaluation in Imperfect Information Games" (AAAI 2018). Given a value function
``v(state) -> per-seat values`` fixed before any data, every step of a hand adds a term
of expectation zero:

- at a chance event (a deal), ``v(h·c) - E_c'[v(h·c')]``, the expectation over every
  outcome the dealer could have dealt there (for every seat, black-box or not);
- at a decision of a seat that declares its policy π, ``v(h·a) - E_a'~π[v(h·a')]``.

``aivat_net = raw - sum(terms)``, per seat, in the raw result's units (chips). Each term
has mean zero given the history before it, so the corrected result has the raw one's
expectation whatever ``v`` is; a good ``v`` only makes it less variable. A ``v`` tuned on
the hands it judges breaks that guarantee: the value functions here are fixed in code.

The platform plays in process, so a hand's log holds every card: the estimator walks
the full history, and the paper's "imaginary observations" (a belief over cards no one
showed) are not needed. Seats are the hand's table seats.

Layers: the estimator is an estimator (``tournaments``, beside duplicate and all-in
settlement); for the walkable games it reads the exact evaluator's trees
(``solvers.exact``, the same layer) and plays through ``arena.match`` (below).

The interface is general: a :class:`Walk` turns a hand's log into states and says, per
state, the moves and the view; the chance-outcome hook (:class:`ChanceOutcomes`) gives
each deal's outcomes with their weights (exact enumeration here; hold'em will pass
independent samples); the value function is any :class:`ValueFunction`. Only the
walkable games (Kuhn, Leduc: :class:`TreeWalk`) are implemented now.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from pokerarena.arena.match import play_match
from pokerarena.bots.base import SeatView, declared_policy
from pokerarena.bots.registry import make_bot
from pokerarena.engine.actions import DEALER, DEALER_KINDS, PLAYER_KINDS, Action
from pokerarena.engine.game import Game
from pokerarena.solvers.exact import (
    CHANCE,
    TERMINAL,
    TOLERANCE,
    Declared,
    GameTree,
    Node,
    build_tree,
    info_key,
    move_key,
    policy_over,
)
from pokerarena.tournaments.estimates import Estimate, Reduction, block_rate, reduction

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
Entry = tuple[int, Action]
"""One entry of a hand's log: ``(seat or DEALER, action)``."""


class ValueFunction(Protocol[S_contra]):
    """``v(state)``: a value per seat, fixed before any data (never fitted to it)."""

    def __call__(self, state: S_contra, /) -> Sequence[float]: ...


class ChanceOutcomes(Protocol[S]):
    """The chance-outcome hook: each outcome the dealer could deal at ``state`` as
    ``(weight, state after it)``, weights summing to 1 (exact: every outcome with its
    probability; sampled: independent draws, 1/m each)."""

    def __call__(self, state: S, /) -> Sequence[tuple[float, S]]: ...


@dataclass(frozen=True)
class Transition(Generic[S]):
    """One deal or decision of a played hand: who moved (a seat or ``DEALER``), the
    state before and the state the played move led to."""

    actor: int
    before: S
    after: S


class Walk(Protocol[S]):
    """A game as AIVAT walks one played hand."""

    seats: int

    def path(self, log: Sequence[Entry], button: int) -> list[Transition[S]]:
        """The deals and decisions of a finished hand, in order."""
        ...

    def moves(self, state: S) -> Sequence[tuple[Action, S]]:
        """Every legal move at a decision, with the state it leads to."""
        ...

    def view(self, state: S) -> SeatView:
        """What the seat to act sees at a decision (its policy's argument)."""
        ...

    def outcomes(self, state: S) -> Sequence[tuple[float, S]]:
        """The exact chance outcomes at a deal (the default :class:`ChanceOutcomes`)."""
        ...


class AivatError(ValueError):
    """A hand or a policy AIVAT cannot correct soundly."""


class DeclaredPolicy:
    """A seat's declared ``policy(view)`` as probabilities over a decision's moves.

    Cached per information set (the view less the game summary): the protocol says a
    policy is a function of the view alone. A declaration with a move that is not legal,
    or probabilities that do not sum to 1, is an error: the action term's mean is zero
    only under the distribution ``act`` really draws from."""

    def __init__(self, fn: Callable[[SeatView], Any], label: str = "bot") -> None:
        self.fn, self.label = fn, label
        self._cache: dict[tuple[Any, ...], list[float]] = {}

    def probs(self, view: SeatView, moves: Sequence[Action]) -> list[float]:
        """The probability of each of ``moves`` at ``view``."""
        key = info_key(view)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self._read(view, moves)
        return got

    def _read(self, view: SeatView, moves: Sequence[Action]) -> list[float]:
        try:
            return policy_over(self.fn, view, moves)
        except ValueError as exc:
            raise AivatError(f"aivat: {self.label!r} {exc}") from None


@dataclass(frozen=True)
class Correction:
    """The summed terms of one hand, per seat: at deals (``chance``) and at declared
    decisions (``action``). ``net(raw)`` is the AIVAT result."""

    chance: tuple[float, ...]
    action: tuple[float, ...]

    def net(self, raw: Sequence[float]) -> tuple[float, ...]:
        """``raw - chance - action``, per seat."""
        return tuple(float(r) - c - a for r, c, a in
                     zip(raw, self.chance, self.action, strict=True))


class Aivat(Generic[S]):
    """The estimator over one :class:`Walk` with one value function.

    ``chance``: the chance-outcome hook (default: the walk's exact enumeration).
    ``memo``: keep each state's expectation (states must then be hashable; the trees'
    nodes are): an exact expectation at a state does not depend on the hand. A sampled
    chance hook needs ``memo=False``, so that each deal gets its own draws."""

    def __init__(self, walk: Walk[S], value: ValueFunction[S],
                 chance: ChanceOutcomes[S] | None = None, *, memo: bool = True) -> None:
        self.walk, self.value = walk, value
        self.chance: ChanceOutcomes[S] = chance if chance is not None else walk.outcomes
        self._memo: dict[tuple[Any, Any], tuple[float, ...]] | None = (
            {} if memo else None)

    def _expect(self, pairs: Iterator[tuple[float, S]]) -> tuple[float, ...]:
        out = [0.0] * self.walk.seats
        for w, state in pairs:
            if w:
                for i, x in enumerate(self.value(state)):
                    out[i] += w * x
        return tuple(out)

    def _chance_mean(self, state: S) -> tuple[float, ...]:
        outcomes = self.chance(state)
        total = sum(w for w, _ in outcomes)
        if abs(total - 1.0) > TOLERANCE:
            raise AivatError(f"aivat: the chance outcomes' weights sum to {total!r}, not 1")
        return self._expect(iter(outcomes))

    def _action_mean(self, state: S, policy: DeclaredPolicy) -> tuple[float, ...]:
        moves = self.walk.moves(state)
        probs = policy.probs(self.walk.view(state), [a for a, _ in moves])
        return self._expect(zip(probs, (s for _, s in moves), strict=True))

    def _mean(self, state: S, policy: DeclaredPolicy | None) -> tuple[float, ...]:
        memo = self._memo
        if memo is None:
            return (self._chance_mean(state) if policy is None
                    else self._action_mean(state, policy))
        key = (state, policy)
        got = memo.get(key)
        if got is None:
            got = memo[key] = (self._chance_mean(state) if policy is None
                               else self._action_mean(state, policy))
        return got

    def correct(self, path: Sequence[Transition[S]],
                policies: Sequence[DeclaredPolicy | None]) -> Correction:
        """The terms of one hand; ``policies[seat]``: the seat's declared policy, None
        for a black-box seat (its decisions get no term)."""
        seats = self.walk.seats
        chance, action = [0.0] * seats, [0.0] * seats
        for t in path:
            if t.actor == DEALER:
                into, policy = chance, None
            else:
                policy = policies[t.actor]
                if policy is None:
                    continue
                into = action
            mean = self._mean(t.before, policy)
            for i, x in enumerate(self.value(t.after)):
                into[i] += x - mean[i]
        return Correction(tuple(chance), tuple(action))

    def hand(self, log: Sequence[Entry], button: int, raw: Sequence[float],
             policies: Sequence[DeclaredPolicy | None]) -> tuple[float, ...]:
        """``aivat_net`` of a finished hand, per seat, from its log and raw deltas."""
        return self.correct(self.walk.path(log, button), policies).net(raw)


# The walkable games ----------------------------------------------------------------------
class TreeWalk:
    """Kuhn, Leduc and any game the exact evaluator walks: the states are the nodes of
    its trees (one per button seat, since a match moves the button), reached by
    following the log's deals and decisions; the chance outcomes are the tree's deals
    (every card order of the remaining cards, 1/(n)_k each), which is the law of the
    automatic deal. Forced bets (antes) are no step of the walk and are skipped.

    A decision's view is the one the table showed the bot (``tests/solvers/test_exact.py``),
    with ``hand_no`` and ``match_no`` 0: a declared policy is read there."""

    seats = 2

    def __init__(self, variant: Any, options: dict[str, Any] | None = None) -> None:
        self.trees: dict[int, GameTree] = {b: build_tree(variant, options, button=b)
                                           for b in (0, 1)}
        self.variant = self.trees[1].game.variant_id
        self._index: dict[Node, dict[tuple[Any, ...], Node]] = {}

    def root(self, button: int) -> Node:
        """The state before the deal, with ``button`` the dealer's seat."""
        return self.trees[button].root

    def nodes(self) -> Iterator[Node]:
        """Every state of both trees, each once, in a fixed order (depth first)."""
        for b in (0, 1):
            stack = [self.trees[b].root]
            while stack:
                node = stack.pop()
                yield node
                stack.extend(c for _, _, c in reversed(node.children))

    @staticmethod
    def _key(actor: int, action: Action) -> tuple[Any, ...]:
        if actor == DEALER:
            return ("deal", action.kind, tuple(action.cards), action.target)
        return ("move", move_key(action))

    def _child(self, node: Node, actor: int, action: Action) -> Node:
        index = self._index.get(node)
        if index is None:
            actor_of = DEALER if node.kind == CHANCE else node.seat
            index = self._index[node] = {self._key(actor_of, a): c
                                         for a, _, c in node.children}
        child = index.get(self._key(actor, action))
        if child is None:
            raise AivatError(f"aivat: {self.variant}: the log's {action} by {actor} is "
                             f"no move of the walked game at depth {node.depth}")
        return child

    def path(self, log: Sequence[Entry], button: int) -> list[Transition[Node]]:
        """The deals and decisions of a finished hand, in order."""
        node = self.root(button)
        out: list[Transition[Node]] = []
        for actor, action in log:
            if action.kind not in DEALER_KINDS and action.kind not in PLAYER_KINDS:
                continue  # forced bets: part of every hand, no step of the walk
            after = self._child(node, actor, action)
            out.append(Transition(actor, node, after))
            node = after
        if node.kind != TERMINAL:
            raise AivatError(f"aivat: {self.variant}: the log ends before the hand does")
        return out

    def moves(self, state: Node) -> Sequence[tuple[Action, Node]]:
        """Every legal move of a decision with its state."""
        return [(a, c) for a, _, c in state.children]

    def view(self, state: Node) -> SeatView:
        """The acting seat's view."""
        assert state.view is not None
        return state.view

    def outcomes(self, state: Node) -> Sequence[tuple[float, Node]]:
        """Every card order the dealer could deal next, with its probability."""
        return [(p, c) for _, p, c in state.children]


@functools.lru_cache(maxsize=8)
def tree_walk(variant: str) -> TreeWalk:
    """The :class:`TreeWalk` of a variant with its own options (built once: Leduc's two
    trees take a few seconds)."""
    return TreeWalk(variant)


# Value functions, fixed in code --------------------------------------------------------
class TableValue:
    """A value per state of a :class:`TreeWalk`, looked up (states not in the table are
    an error: a value function must be defined wherever the hand can go)."""

    def __init__(self, table: dict[Node, tuple[float, float]], name: str) -> None:
        self.table, self.name = table, name

    def __call__(self, state: Node, /) -> tuple[float, float]:
        return self.table[state]


REFERENCE_PROFILES: dict[str, str] = {"random": "random", "checkdown": "call"}
"""The reference profiles of :func:`reference_value`: the bot both seats play from the
state on. ``random`` (the default) reaches every continuation, with no knowledge of
either bot judged; ``checkdown`` (both call to the showdown) is the pot the cards would
win now, the value family that hold'em's equity calculator can give later."""


def _profile_table(walk: TreeWalk, by_seat: Sequence[Declared]
                   ) -> dict[Node, tuple[float, float]]:
    """Every state's exact value when ``by_seat[s]`` plays seat ``s`` from it on."""
    table: dict[Node, tuple[float, float]] = {}
    for node in reversed(list(walk.nodes())):  # children before their parent
        if node.kind == TERMINAL:
            table[node] = node.payoff
            continue
        weights = ([p for _, p, _ in node.children] if node.kind == CHANCE
                   else by_seat[node.seat].probs(node))
        v0 = v1 = 0.0
        for (_, _, child), w in zip(node.children, weights, strict=True):
            c0, c1 = table[child]
            v0 += w * c0
            v1 += w * c1
        table[node] = (v0, v1)
    return table


def reference_value(walk: TreeWalk, profile: str = "random") -> TableValue:
    """The exact expected value of each state when both seats play the reference
    ``profile`` (:data:`REFERENCE_PROFILES`) from it on: computed by the exact walk
    from the rules alone, before any hand is played."""
    seat = Declared(make_bot(REFERENCE_PROFILES[profile], seed=0), profile)
    return TableValue(_profile_table(walk, (seat, seat)), profile)


def profile_value(walk: TreeWalk, by_seat: Sequence[Any]) -> TableValue:
    """Each state's exact value under the very bots that play (``by_seat[s]`` in seat
    ``s``): the value function AIVAT cannot beat (every hand then scores the game's
    value exactly). For tests only: it needs the bots, so it is no judge's baseline."""
    return TableValue(_profile_table(walk, [Declared(b, f"seat{s}")
                                            for s, b in enumerate(by_seat)]), "profile")


def zero_value(seats: int = 2) -> ValueFunction[Any]:
    """v ≡ 0: every term vanishes, AIVAT is the raw result (the weakest baseline)."""
    zeros = (0.0,) * seats

    def v(state: Any, /) -> tuple[float, ...]:
        return zeros
    return v


def noise_value(walk: TreeWalk, scale: float = 5.0, salt: int = 26) -> TableValue:
    """A deliberately wrong value function: seat 0 gets a uniform draw on ±``scale``
    per state (from ``salt``, in the walk's fixed order), seat 1 its negative. It knows
    nothing of the game: AIVAT must stay unbiased with it, only wider."""
    nodes = list(walk.nodes())
    draws = np.random.default_rng(salt).uniform(-scale, scale, len(nodes))
    return TableValue({n: (float(x), -float(x)) for n, x in zip(nodes, draws, strict=True)},
                      "noise")


def value_function(walk: TreeWalk, name: str) -> ValueFunction[Node]:
    """A named value function: ``random``, ``checkdown``, ``zero`` or ``noise``."""
    if name in REFERENCE_PROFILES:
        return reference_value(walk, name)
    if name == "zero":
        return zero_value(walk.seats)
    if name == "noise":
        return noise_value(walk)
    raise AivatError(f"aivat: unknown value function {name!r} (random, checkdown, "
                     "zero, noise)")


# Playing and correcting hands ----------------------------------------------------------
@dataclass(frozen=True)
class AivatMatch:
    """Per hand and per entrant: the raw chips won and the AIVAT result (same units).
    ``block[h]``: hand ``h``'s block, two hands with each entrant in each seat once (a
    duplicate pair, or two consecutive hands as the button moves)."""

    variant: str
    names: tuple[str, ...]
    duplicate: bool
    raw: np.ndarray
    aivat: np.ndarray
    block: np.ndarray

    def blocks(self, which: str = "aivat") -> np.ndarray:
        """Block totals, ``[blocks, entrants]``."""
        data = self.raw if which == "raw" else self.aivat
        out = np.zeros((int(self.block.max()) + 1, data.shape[1]))
        np.add.at(out, self.block, data)
        return out

    def estimate(self, which: str = "aivat", entrant: int = 0) -> Estimate:
        """Chips per hand with Student's 95% interval over the blocks."""
        totals = self.blocks(which)[:, entrant]
        return block_rate(totals, np.bincount(self.block))

    def reduction(self, entrant: int = 0) -> Reduction:
        """sd of the AIVAT block rates over the raw ones."""
        return reduction(self.blocks("raw")[:, entrant], self.blocks("aivat")[:, entrant],
                         np.bincount(self.block))


def seeded_bots(entrants: Sequence[Any], seed: int) -> list[Any]:
    """The entrants as bots: specs made with seeds drawn from ``seed``, objects as given."""
    seqs = np.random.SeedSequence([seed, 26]).spawn(len(entrants))
    return [make_bot(e, int(s.generate_state(1)[0])) if isinstance(e, str) else e
            for e, s in zip(entrants, seqs, strict=True)]


def _policies(bots: Sequence[Any], declared: Sequence[bool]) -> list[DeclaredPolicy | None]:
    out: list[DeclaredPolicy | None] = []
    for bot, use in zip(bots, declared, strict=True):
        fn = declared_policy(bot)
        if use and fn is None:
            raise AivatError(f"aivat: {getattr(bot, 'name', bot)!r} declares no policy; "
                             "pass declared=False for a black-box seat")
        out.append(DeclaredPolicy(fn, str(getattr(bot, "name", "bot"))) if use else None)
    return out


def play_aivat(variant: str, entrants: Sequence[Any], hands: int, seed: int, *,
               value: str | ValueFunction[Node] = "random", duplicate: bool = True,
               declared: Sequence[bool] = (True, True)) -> AivatMatch:
    """Play ``hands`` seeded hands of two bots through the engine
    (:func:`~pokerarena.arena.match.play_match`) and correct each one.

    ``entrants``: bot specs (seeded from ``seed``) or bot objects. ``declared[j]``:
    whether AIVAT may read entrant ``j``'s policy (False: a black-box seat, corrected
    at chance events only). ``hands`` is rounded up to an even number (whole blocks).
    """
    if len(entrants) != 2:
        raise AivatError("aivat: two bots (the walkable games are heads-up)")
    walk = tree_walk(variant)
    est = Aivat(walk, value_function(walk, value) if isinstance(value, str) else value)
    bots = seeded_bots(entrants, seed)
    pols = _policies(bots, declared)
    raw: list[list[float]] = []
    net: list[list[float]] = []

    def on_hand(_no: int, hand: Any, seat_of: list[int]) -> None:
        by_seat: list[DeclaredPolicy | None] = [None, None]
        for j, s in enumerate(seat_of):
            by_seat[s] = pols[j]
        deltas = [float(d) for d in hand.result().deltas]
        got = est.hand(hand.log, hand.button, deltas, by_seat)
        raw.append([deltas[s] for s in seat_of])
        net.append([got[s] for s in seat_of])

    n = hands + hands % 2
    play_match(Game(variant), bots, n, seed, duplicate=duplicate, on_hand=on_hand)
    names = tuple(str(getattr(b, "name", f"bot{j}")) for j, b in enumerate(bots))
    return AivatMatch(walk.variant, names, duplicate, np.asarray(raw), np.asarray(net),
                      np.arange(len(raw)) // 2)


# The exact law of the estimator (no sampling) ------------------------------------------
@dataclass(frozen=True)
class ExactLaw:
    """Mean and variance per hand of the raw and the AIVAT result of each seat, summed
    exactly over every deal and line of play, with the seats' true policies."""

    raw_mean: tuple[float, float]
    aivat_mean: tuple[float, float]
    raw_var: tuple[float, float]
    aivat_var: tuple[float, float]


def exact_law(est: Aivat[Node], players: Sequence[Any], button: int = 1,
              declared: Sequence[bool] = (True, True)) -> ExactLaw:
    """The exact law of one hand with ``players[seat]`` (bots that declare) at
    ``button``'s tree: every terminal path with its probability, each corrected by
    ``est`` as a played hand would be (``declared[seat]`` False: AIVAT is not told that
    seat's policy). Unbiasedness is then an identity to check, not a rate to estimate."""
    assert isinstance(est.walk, TreeWalk)
    true = [Declared(b, str(getattr(b, "name", "bot"))) for b in players]
    told = [DeclaredPolicy(declared_policy(b)) if d else None
            for b, d in zip(players, declared, strict=True)]
    sums = np.zeros((2, 2, 2))  # [raw|aivat, seat, moment]

    def walk(node: Node, p: float, path: list[Transition[Node]]) -> None:
        if node.kind == TERMINAL:
            got = est.correct(path, told).net(node.payoff)
            for s in (0, 1):
                for k, x in enumerate((node.payoff[s], got[s])):
                    sums[k, s] += (p * x, p * x * x)
            return
        weights = ([w for _, w, _ in node.children] if node.kind == CHANCE
                   else true[node.seat].probs(node))
        actor = DEALER if node.kind == CHANCE else node.seat
        for (_, _, child), w in zip(node.children, weights, strict=True):
            if w:
                path.append(Transition(actor, node, child))
                walk(child, p * w, path)
                path.pop()

    walk(est.walk.root(button), 1.0, [])
    mean, sq = sums[..., 0], sums[..., 1]
    var = sq - mean ** 2
    return ExactLaw((mean[0, 0], mean[0, 1]), (mean[1, 0], mean[1, 1]),
                    (var[0, 0], var[0, 1]), (var[1, 0], var[1, 1]))
