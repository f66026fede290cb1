"""The exact evaluator: every deal and every line of play of a game small enough to walk.

The tree is walked on the engine's own game: ``Game(variant, options)`` with the one
change ``dealing = "manual"``, so chance is explicit (the dealer's ``dh``/``db`` actions).
At a deal every remaining card order is one outcome with probability 1 / (n)_k, which is
the distribution of the automatic deal (a uniformly shuffled stock, hole cards to each
seat from the button's left, then the board: any fixed assignment of stock positions
gives the same uniform law over the cards dealt). The log entries are those of the
automatic deal, and the views are built with the played game's ``game`` summary
(:func:`~pokerarena.engine.keys.game_info_of` of the automatic game), so a bot sees at
each node exactly the :class:`SeatView` it would see at the table.

Two seats, zero-sum; seat 0 acts first (the button is seat 1: OpenSpiel's player 0 is
our seat 0). A bot takes part through its declared ``policy(view)``
(:class:`~pokerarena.bots.base.DeclaresPolicy`). Outputs (docs/exact.md):

- ``values[i]``: bot i's expected chips per hand, averaged over its two seats;
- ``best_response[i]``: what a best responder wins per hand against bot i, averaged over
  bot i's two seats; the responder chooses per information set (the view of its seat),
  never seeing bot i's cards;
- ``exploitability[i]`` = ``best_response[i]`` - v*, where v* = 0 is the value of the
  game with the seats alternated (two-player zero-sum). It equals OpenSpiel's
  ``exploitability(game, policy)`` for bot i's policy played by both players, i.e.
  NashConv / 2.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from pokerarena.arena.views import build_view
from pokerarena.bots.base import SeatView, canonical_action, declared_policy
from pokerarena.engine import Game
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    FOLD_KIND,
    RAISE_KIND,
    Action,
    Legal,
)
from pokerarena.engine.keys import game_info_of
from pokerarena.engine.steps import BetStep, DealStep
from pokerarena.errors import UserError

MAX_DEALS = 100_000     # card orders dealt in a whole hand (Leduc: 120)
MAX_NODES = 2_000_000   # states of the tree (Leduc: about 30,000)
TOLERANCE = 1e-9        # a declared distribution sums to 1 within this
CHANCE, DECISION, TERMINAL = 0, 1, 2


class ExactError(ValueError, UserError):
    """A game the exact evaluator cannot walk, or a bot it cannot evaluate."""


@dataclass(eq=False)
class Node:
    """One state: a deal (``CHANCE``: children with their probabilities), a decision of
    ``seat`` (children for every legal move; ``view`` and its information-set ``key``),
    or the end (``payoff``: chips won by seat 0 and seat 1)."""

    kind: int
    depth: int
    seat: int = -1
    children: list[tuple[Action, float, Node]] = field(default_factory=list)
    view: SeatView | None = None
    key: tuple[Any, ...] | None = None
    payoff: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class GameTree:
    """The walked game: the played game, the root, how many states and deals, and the
    button's seat (1 unless asked: seat 0 acts first)."""

    game: Game
    root: Node
    nodes: int
    deals: int
    button: int = 1


@dataclass(frozen=True)
class ExactResult:
    """Exact figures for two bots (see the module docstring); ``seated[s]``: the two
    seats' values with bot ``s`` in seat 0; ``best_response_by_seat[i]``: a best
    responder's value against bot i when bot i sits in seat 0, then in seat 1."""

    variant: str
    bots: tuple[str, str]
    values: tuple[float, float]
    best_response: tuple[float, float]
    exploitability: tuple[float, float]
    seated: tuple[tuple[float, float], tuple[float, float]]
    best_response_by_seat: tuple[tuple[float, float], tuple[float, float]]
    nodes: int
    deals: int

    def as_json(self) -> dict[str, Any]:
        """The ``pokerarena exact --json`` document."""
        return {"values": list(self.values), "best_response": list(self.best_response),
                "exploitability": list(self.exploitability), "units": "chips per hand"}


# Walking the game ---------------------------------------------------------------------
def info_key(view: SeatView) -> tuple[Any, ...]:
    """The information set of a view: everything in it but the game summary (the same
    for every view of one game)."""
    return tuple(v for f, v in zip(SeatView._fields, view, strict=True) if f != "game")


def check_walkable(game: Game) -> int:
    """The number of deals of ``game``; an :class:`ExactError` when it cannot be walked."""
    vid = game.variant_id
    lo, hi = game.variant.players
    if not lo <= 2 <= hi:
        raise ExactError(f"exact: {vid} is not a two-player game; the exact evaluator "
                         "walks heads-up games")
    if game.program.family != "betting" or not all(
            isinstance(s, DealStep | BetStep) for s in game.program.steps):
        raise ExactError(f"exact: {vid} has streets other than deals and betting rounds; "
                         "the exact evaluator walks games like kuhn and leduc")
    dealt = sum(2 * (s.down + s.up) + s.board for s in game.program.steps
                if isinstance(s, DealStep))
    deals = math.perm(len(game.deck_list), dealt)
    if deals > MAX_DEALS:
        raise ExactError(f"exact: {vid} is too large to walk exactly ({deals:,} deals; "
                         f"the limit is {MAX_DEALS:,}, games like kuhn and leduc)")
    return deals


def betting_moves(legal: Legal) -> list[Action]:
    """Every move of a betting decision, each bet amount its own move. A decision of
    another kind (a discard, a declaration) raises ``LookupError`` naming the kind: the
    walkers list betting only."""
    out: list[Action] = []
    for kind in legal.kinds:
        if kind in (FOLD_KIND, CALL_KIND, BRING_IN_KIND):
            out.append(Action(kind))
        elif kind == RAISE_KIND:
            amounts = legal.choices or range(legal.min_to, legal.max_to + 1)
            out.extend(Action(RAISE_KIND, a) for a in amounts)
        else:
            raise LookupError(kind)
    return out


def _moves(legal: Legal, vid: str) -> list[Action]:
    """Every move of a decision (each bet amount its own move)."""
    try:
        return betting_moves(legal)
    except LookupError as exc:
        raise ExactError(f"exact: {vid}: decisions of kind {exc.args[0]!r} are not "
                         "walked") from None


class _Walker:
    """Builds the tree by replaying each state from the start (a hand is a pure function
    of its actions: nothing is copied, so nothing can leak between branches)."""

    def __init__(self, played: Game, walk: Game, max_nodes: int, button: int = 1) -> None:
        self.played, self.walk, self.max_nodes = played, walk, max_nodes
        self.button = button
        self.info = game_info_of(played)
        stack = played.variant.stakes.stack
        self.stacks = [stack, stack]
        self.nodes = 0

    def replay(self, path: list[tuple[int, Action]]) -> Any:
        hand = self.walk.new_hand(0, 2, self.stacks, button=self.button)
        for actor, action in path:
            hand.apply(action, DEALER if actor == DEALER else None)
        return hand

    def expand(self, path: list[tuple[int, Action]], used: frozenset[int], depth: int) -> Node:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise ExactError(f"exact: {self.played.variant_id} is too large to walk exactly "
                             f"(more than {self.max_nodes:,} states)")
        hand = self.replay(path)
        if hand.is_over:
            d0, d1 = hand.result().deltas
            if d0 + d1 != 0:
                raise ExactError(f"exact: {self.played.variant_id} is not zero-sum with "
                                 "these options (rake, kitty or bonus)")
            return Node(TERMINAL, depth, payoff=(float(d0), float(d1)))
        if hand.to_act == DEALER:
            node = Node(CHANCE, depth)
            for action, p in self._deals(hand, used):
                child = self.expand(path + [(DEALER, action)], used | set(action.cards),
                                    depth + 1)
                node.children.append((action, p, child))
            return node
        seat = hand.to_act
        view = build_view(hand, seat, game_info=self.info)
        assert view.legal is not None
        node = Node(DECISION, depth, seat, view=view, key=info_key(view))
        for move in _moves(view.legal, self.played.variant_id):
            node.children.append((move, 0.0, self.expand(path + [(seat, move)], used,
                                                          depth + 1)))
        return node

    def _deals(self, hand: Any, used: frozenset[int]) -> list[tuple[Action, float]]:
        """Each order of the cards owed next (the first seat owed, else the board)."""
        legal = hand.legal_actions()
        left = [c for c in self.walk.deck_list if c not in used]
        seat = legal.deal_to[0] if legal.deal_to else -1
        k = hand.owed_to(seat) if seat >= 0 else legal.deal_board
        kind = DEAL_HOLE_KIND if seat >= 0 else DEAL_BOARD_KIND
        p = 1.0 / math.perm(len(left), k)
        return [(Action(kind, 0, tuple(cards), seat), p) for cards in permutations(left, k)]


def build_tree(variant: Any, options: dict[str, Any] | None = None, *,
               max_nodes: int = MAX_NODES, button: int = 1) -> GameTree:
    """Walk every deal and every move of ``variant`` played heads-up with ``options``;
    ``button``: the dealer's seat (1: seat 0 acts first, as every figure here assumes;
    AIVAT follows hands dealt with either button, so it walks both)."""
    opts = dict(options or {})
    played = Game(variant, opts)
    deals = check_walkable(played)
    walk = Game(variant, {**opts, "dealing": "manual"})
    walker = _Walker(played, walk, max_nodes, button)
    root = walker.expand([], frozenset(), 0)
    return GameTree(played, root, walker.nodes, deals, button)


# Policies, values, best responses -------------------------------------------------------
def _move_key(action: Action) -> tuple[Any, ...]:
    """What makes two actions the same move (a check and a call are ``cc`` whatever
    amount a bot writes in them)."""
    a = canonical_action(action)
    return (a.kind, a.amount if a.kind == RAISE_KIND else 0, a.cards)


move_key = _move_key  # public: AIVAT matches declared and played moves the same way


class Declared:
    """A bot's declared policy over the tree's decisions, read once per information set."""

    def __init__(self, bot: Any, label: str) -> None:
        fn = declared_policy(bot)
        if fn is None:
            raise ExactError(f"exact: bot {label!r} declares no policy (a policy(view) "
                             "method); the exact evaluator needs one from each bot")
        self.fn, self.label = fn, label
        self.cache: dict[tuple[Any, ...], list[float]] = {}

    def probs(self, node: Node) -> list[float]:
        """The probability of each of ``node``'s moves."""
        assert node.key is not None and node.view is not None
        got = self.cache.get(node.key)
        if got is None:
            got = self.cache[node.key] = self._read(node)
        return got

    def _read(self, node: Node) -> list[float]:
        assert node.view is not None
        try:
            return policy_over(self.fn, node.view, [a for a, _, _ in node.children])
        except ValueError as exc:
            raise ExactError(f"exact: bot {self.label!r} {exc}") from None


def policy_over(fn: Any, view: SeatView, moves: Sequence[Action]) -> list[float]:
    """The probability a declared policy ``fn`` gives each of ``moves`` (the legal moves,
    by :func:`move_key`) at ``view``; ValueError (worded to follow the bot's name) for a
    declared move that is not legal, a negative probability, or a sum other than 1: the
    one reading of a declared policy, for the exact walk and AIVAT alike."""
    index = {_move_key(a): i for i, a in enumerate(moves)}
    out = [0.0] * len(moves)
    for action, p in fn(view):
        i = index.get(_move_key(action))
        if i is None or not p >= 0.0:
            raise ValueError(f"declares {action} with probability {p}, which is not a "
                             "legal move")
        out[i] += float(p)
    if abs(sum(out) - 1.0) > TOLERANCE:
        raise ValueError(f"declares probabilities that sum to {sum(out)!r}, not 1")
    return out


def values(root: Node, players: Sequence[Declared]) -> tuple[float, float]:
    """Each seat's expected chips when ``players[s]`` plays seat ``s``."""
    def walk(node: Node) -> tuple[float, float]:
        if node.kind == TERMINAL:
            return node.payoff
        weights = ([p for _, p, _ in node.children] if node.kind == CHANCE
                   else players[node.seat].probs(node))
        v0 = v1 = 0.0
        for (_, _, child), w in zip(node.children, weights, strict=True):
            if w:
                c0, c1 = walk(child)
                v0 += w * c0
                v1 += w * c1
        return v0, v1
    return walk(root)


def best_response(root: Node, responder: int, opponent: Declared) -> float:
    """The value for seat ``responder`` of the best response to ``opponent`` in the other
    seat. The responder picks one move per information set (its view), maximizing
    the sum over the states of that set of (chance x opponent reach) x value. Sets are
    decided deepest first, so every set below is already decided when one is."""
    sets: dict[tuple[Any, ...], list[tuple[Node, float]]] = {}

    def gather(node: Node, reach: float) -> None:
        if node.kind == TERMINAL:
            return
        if node.kind == DECISION and node.seat == responder:
            assert node.key is not None
            sets.setdefault(node.key, []).append((node, reach))
            weights = [1.0] * len(node.children)
        elif node.kind == CHANCE:
            weights = [p for _, p, _ in node.children]
        else:
            weights = opponent.probs(node)
        for (_, _, child), w in zip(node.children, weights, strict=True):
            if w:
                gather(child, reach * w)

    gather(root, 1.0)
    choice: dict[tuple[Any, ...], int] = {}
    memo: dict[int, float] = {}

    def value(node: Node) -> float:
        got = memo.get(id(node))
        if got is not None:
            return got
        if node.kind == TERMINAL:
            v = node.payoff[responder]
        elif node.kind == DECISION and node.seat == responder:
            assert node.key is not None
            v = value(node.children[choice[node.key]][2])
        else:
            weights = ([p for _, p, _ in node.children] if node.kind == CHANCE
                       else opponent.probs(node))
            v = sum(w * value(c) for (_, _, c), w in zip(node.children, weights,
                                                         strict=True) if w)
        memo[id(node)] = v
        return v

    for key in sorted(sets, key=lambda k: -sets[k][0][0].depth):
        members = sets[key]
        if any(n.depth != members[0][0].depth for n, _ in members):
            raise RuntimeError("an information set spans depths: perfect recall broken")
        totals = [sum(reach * value(n.children[i][2]) for n, reach in members)
                  for i in range(len(members[0][0].children))]
        choice[key] = max(range(len(totals)), key=lambda i: (totals[i], -i))
    return value(root)


def evaluate(variant: Any, bots: Sequence[Any], names: Sequence[str] | None = None,
             options: dict[str, Any] | None = None, *,
             tree: GameTree | None = None) -> ExactResult:
    """Exact values, best responses and exploitability of two declared bots in
    ``variant``, each averaged over both seatings (module docstring)."""
    if len(bots) != 2:
        raise ExactError(f"exact: two bots, not {len(bots)}")
    labels = list(names) if names else [str(getattr(b, "name", f"bot{i}"))
                                        for i, b in enumerate(bots)]
    a, b = Declared(bots[0], labels[0]), Declared(bots[1], labels[1])
    tree = tree if tree is not None else build_tree(variant, options)
    root = tree.root
    ab = values(root, (a, b))      # a in seat 0
    ba = values(root, (b, a))      # b in seat 0
    by_seat = tuple((best_response(root, 1, p), best_response(root, 0, p)) for p in (a, b))
    br = tuple((s0 + s1) / 2 for s0, s1 in by_seat)
    return ExactResult(
        variant=tree.game.variant_id, bots=(labels[0], labels[1]),
        values=((ab[0] + ba[1]) / 2, (ab[1] + ba[0]) / 2),
        best_response=(br[0], br[1]), exploitability=(br[0] - 0.0, br[1] - 0.0),
        seated=(ab, ba), best_response_by_seat=(by_seat[0], by_seat[1]),
        nodes=tree.nodes, deals=tree.deals)
