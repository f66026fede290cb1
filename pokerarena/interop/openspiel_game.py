"""Our two-player betting variants as OpenSpiel games, played by our own engine.

``import pokerarena.interop.openspiel_game`` registers ``pokerarena_<variant>`` with
OpenSpiel for every variant of the catalogue that seats two and has only deals and
betting rounds (:func:`exposed_variants`: kuhn, leduc, hold'em, Omaha, stud, ...), so
``pyspiel.load_game("pokerarena_leduc")`` and OpenSpiel's algorithms (CFR,
exploitability, ``random_sim_test``, serialization) run on our rules. Parameters:
``betting`` (one of the variant's systems; default its first) and ``stack`` (each
seat's chips; default the variant's). It needs the ``peers`` extra (open-spiel).

Why the engine and not a re-implementation: the OpenSpiel game is the platform's game,
rules, pots and showdown included. Each state is the list of OpenSpiel actions taken
(a hand is a pure function of them: :mod:`pokerarena.solvers.exact` walks the same way),
replayed on ``Game(variant, {"dealing": "manual"})``; what a state needs (player,
legal actions, chance outcomes, returns, the acting seat's information state) is
computed once per distinct history and shared by every copy of the game object, so
cloning a state copies a tuple and CFR's repeated walks cost no replays.

Conventions (docs/interop.md, "OpenSpiel"):

- players: player 0 is our seat 0, left of the button (seat 1), first to act, as in
  OpenSpiel's own ``kuhn_poker``/``leduc_poker``;
- chance: one card per chance node; the outcome is the card's code
  (:mod:`pokerarena.cards`, 0..53), each remaining card equally likely. The cards owed
  to a seat (or to the board) are applied together once all are drawn, so the engine's
  log, and every view, is the automatic deal's;
- actions: 0 fold, 1 check or call, 2 bet or raise to the smallest legal amount (the
  fixed bet of a limit game), 3 post the bring-in (stud), and, in no-limit, pot-limit
  and stud games, ``4 + k`` bet or raise to ``k`` chips for every larger legal amount;
- information state (perfect recall): the seat's view's log, every entry as the one
  visibility rule (:mod:`pokerarena.engine.visibility`) shows it to the seat, with
  seats numbered as players (:func:`info_state_string`); observation: the view now
  (cards, board, face-up cards, pot, stacks, bets, street; :func:`observation_string`),
  its tensor the PettingZoo environment's vector
  (:class:`~pokerarena.interop.encoding.PokerCodec`);
- returns: chips won or lost in the hand.
"""

from __future__ import annotations

import importlib
import math
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from pokerarena.arena.views import build_view
from pokerarena.bots.seat_view import SeatView
from pokerarena.cards import card_str
from pokerarena.engine import Game
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    FOLD_KIND,
    RAISE_KIND,
    UNKNOWN,
    Action,
    Legal,
)
from pokerarena.engine.game import SYS_FIXED
from pokerarena.engine.keys import game_info_of
from pokerarena.engine.steps import BetStep, DealStep
from pokerarena.interop import InteropError
from pokerarena.interop.encoding import CARDS, HISTORY_KINDS, PokerCodec
from pokerarena.rules import load_variant, variant_ids


def require_pyspiel() -> Any:
    """``pyspiel``, or one clear error naming the extra (the platform runs without it)."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        raise InteropError("open_spiel is not installed: pip install 'pokerarena[peers]' "
                           "(or pip install open-spiel)") from None


pyspiel = require_pyspiel()
_GameBase: Any = pyspiel.Game
_StateBase: Any = pyspiel.State

PREFIX = "pokerarena_"
FOLD, CALL, RAISE_MIN, BRING_IN, RAISE_TO = 0, 1, 2, 3, 4
"""Player action ids; ``RAISE_TO + k`` bets or raises to ``k`` chips."""
MAX_RECORDS = 2_000_000
"""Histories whose facts a game object keeps (Leduc has about 20,000; a bigger game's
random simulations touch few, and past this the store starts afresh)."""
_KIND_AT = {k: i for i, k in enumerate(HISTORY_KINDS)}
_ACTORS = 3  # player 0, player 1, the dealer


def exposed_variants() -> tuple[str, ...]:
    """The variants registered as OpenSpiel games: two seats, only deals and betting."""
    out = []
    for vid in variant_ids():
        v = load_variant(vid)
        lo, hi = v.players
        if not lo <= 2 <= hi:
            continue
        program = Game(vid).program
        if program.family == "betting" and all(isinstance(s, DealStep | BetStep)
                                               for s in program.steps):
            out.append(vid)
    return tuple(out)


# What a seat sees, as OpenSpiel strings ----------------------------------------------
def player_of(view: SeatView, seat: int) -> int:
    """OpenSpiel's player of table seat ``seat`` (0: left of the button)."""
    return (seat - view.button - 1) % view.players


def _cards(cards: Any) -> str:
    return "".join("??" if c == UNKNOWN else card_str(c) for c in cards)


def entry_string(view: SeatView, actor: int, act: Action) -> str:
    """One log entry as the viewing seat sees it, seats as players."""
    if act.kind == DEAL_HOLE_KIND:
        return f"d{player_of(view, act.target)}:{_cards(act.cards)}"
    if act.kind == DEAL_BOARD_KIND:
        return f"b:{_cards(act.cards)}"
    who = "d" if actor == DEALER else str(player_of(view, actor))
    cards = f":{_cards(act.cards)}" if act.cards else ""
    return f"{who}{act.kind}{act.amount}{cards}"


def info_state_string(view: SeatView) -> str:
    """The information state of ``view``'s seat: its player and the whole log as the
    seat saw it. Everything in it comes from the view, so it never holds a card the
    seat may not see, and two views give the same string exactly when the seat has seen
    the same things (perfect recall). A bot at a table computes the very string the
    OpenSpiel game gives (:mod:`pokerarena.interop.openspiel_bot`)."""
    log = " ".join(entry_string(view, a, act) for a, act in view.history)
    return f"p{player_of(view, view.seat)} {log}"


def observation_string(view: SeatView) -> str:
    """What ``view``'s seat sees now, without the order of past moves: its cards, the
    board, each player's face-up cards, pot, stacks, bets this round and the street."""
    order = [(view.button + 1 + p) % view.players for p in range(view.players)]
    up = "/".join(_cards(view.up[s]) for s in order)
    stacks = " ".join(str(view.stacks[s]) for s in order)
    bets = " ".join(str(view.bets[s]) for s in order)
    return (f"p{player_of(view, view.seat)} hole:{_cards(view.hole)} "
            f"board:{_cards(view.board)} up:{up} pot:{view.pot} stacks:{stacks} "
            f"bets:{bets} street:{view.street}")


# Actions --------------------------------------------------------------------------------
def action_ids(legal: Legal) -> list[int]:
    """The OpenSpiel ids of the legal moves, ascending."""
    out = []
    if FOLD_KIND in legal.kinds:
        out.append(FOLD)
    if CALL_KIND in legal.kinds:
        out.append(CALL)
    if RAISE_KIND in legal.kinds:
        out.append(RAISE_MIN)
    if BRING_IN_KIND in legal.kinds:
        out.append(BRING_IN)
    if RAISE_KIND in legal.kinds:
        amounts = legal.choices or range(legal.min_to, legal.max_to + 1)
        low = min(amounts)
        out.extend(RAISE_TO + k for k in amounts if k != low)
    return out


def to_action(a: int, legal: Legal) -> Action:
    """Our action for OpenSpiel's id ``a`` at a decision with ``legal``."""
    if a == FOLD:
        return Action(FOLD_KIND)
    if a == CALL:
        return Action(CALL_KIND)
    if a == BRING_IN:
        return Action(BRING_IN_KIND)
    if a == RAISE_MIN:
        return Action(RAISE_KIND, min(legal.choices) if legal.choices else legal.min_to)
    return Action(RAISE_KIND, a - RAISE_TO)


def to_id(action: Action, legal: Legal) -> int:
    """OpenSpiel's id of our ``action`` (a check and a call are both 1)."""
    if action.kind == RAISE_KIND:
        low = min(legal.choices) if legal.choices else legal.min_to
        return RAISE_MIN if action.amount == low else RAISE_TO + action.amount
    return {FOLD_KIND: FOLD, CALL_KIND: CALL, BRING_IN_KIND: BRING_IN}[action.kind]


def action_string(a: int) -> str:
    """A player action id as text."""
    names = {FOLD: "fold", CALL: "call", RAISE_MIN: "raise", BRING_IN: "bring-in"}
    return names.get(a, f"raise to {a - RAISE_TO}")


# The shared walk ------------------------------------------------------------------------
class Record(NamedTuple):
    """The facts of one history: who acts, the legal ids (or chance outcomes with
    ``probs``), the returns at the end, and the acting seat's information state."""

    player: int
    actions: tuple[int, ...]
    probs: tuple[float, ...] = ()
    returns: tuple[float, float] = (0.0, 0.0)
    info: str = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> Record:
        return self  # immutable: a cloned state shares it


class Path(tuple[int, ...]):
    """A state's action path; immutable, so a cloned state shares it."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Path:
        return self


class Walk:
    """A variant with a betting system and stack, walked from OpenSpiel action paths;
    shared by every state of its games (copying or pickling a state keeps the same
    walk, named by its arguments)."""

    def __init__(self, variant: str, betting: str, stack: int) -> None:
        self.args = (variant, betting, stack)
        # the variant's first system is named as a table names it by default: not at all
        # (the views' game key counts a betting option given)
        opts = {} if betting == load_variant(variant).betting[0] else {"betting": betting}
        self.played = Game(variant, opts)
        self.walk = Game(variant, {**opts, "dealing": "manual"})
        self.info = game_info_of(self.played)
        self.stack = stack
        self.codec = PokerCodec(self.played.variant, 2)
        self.records: dict[tuple[int, ...], Record] = {}
        self._last: tuple[tuple[int, ...], Any, list[int]] | None = None
        steps = self.played.program.steps
        self.dealt = sum(2 * (s.down + s.up) + s.board for s in steps
                         if isinstance(s, DealStep))
        self.rounds = sum(1 for s in steps if isinstance(s, BetStep))
        self.wide = self.played.sys != SYS_FIXED or self.played.bring_in > 0
        self.distinct_actions = RAISE_TO + 2 * stack + 1 if self.wide else RAISE_TO
        self.max_moves = self.rounds * self._round_moves() + 2
        self.max_entries = 4 + self.dealt + self.max_moves
        self.entry_width = _ACTORS + len(HISTORY_KINDS) + 2 + CARDS

    def __deepcopy__(self, memo: dict[int, Any]) -> Walk:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, str, int]]:
        return walk_of, self.args

    def _round_moves(self) -> int:
        """The most player moves in one betting round: the bets and raises the cap (or
        the chips) allow, each answered, and a check and a call."""
        g = self.played
        cap = g.heads_up_max_raises if g.heads_up_max_raises is not None else g.max_raises
        if g.sys != SYS_FIXED or cap is None:
            # a bet or raise adds the minimum bet at least, but for the two all-ins
            cap = 2 * self.stack // max(1, g.min_bet) + 3
        return 2 * (cap + 2) + 2

    def replay(self, path: tuple[int, ...]) -> tuple[Any, list[int]]:
        """The engine hand after ``path`` and the cards drawn for the deal under way. A
        path one action longer than the last one replayed goes on from that hand (a
        walk visits a child right after its parent); any other starts afresh."""
        last = self._last
        if last is not None and len(path) == len(last[0]) + 1 and path[:-1] == last[0]:
            hand, pending = last[1], last[2]
            self._step(hand, pending, path[-1])
        else:
            hand = self.walk.new_hand(0, 2, [self.stack, self.stack], button=1)
            pending = []
            for a in path:
                self._step(hand, pending, a)
        self._last = (tuple(path), hand, pending)
        return hand, pending

    @staticmethod
    def _step(hand: Any, pending: list[int], a: int) -> None:
        """Apply OpenSpiel's action ``a``: a card drawn for the deal under way (dealt
        once the seat, or the board, has all it is owed), or a player's move."""
        if hand.to_act != DEALER:
            hand.apply(to_action(a, hand.legal_actions()))
            return
        pending.append(a)
        legal = hand.legal_actions()
        seat = legal.deal_to[0] if legal.deal_to else -1
        owed = hand.owed_to(seat) if seat >= 0 else legal.deal_board
        if len(pending) == owed:
            kind = DEAL_HOLE_KIND if seat >= 0 else DEAL_BOARD_KIND
            hand.apply(Action(kind, 0, tuple(pending), seat), DEALER)
            pending.clear()

    def view(self, hand: Any, player: int) -> SeatView:
        """``player``'s view of ``hand``: the seat's as the table builds it."""
        return build_view(hand, player, game_info=self.info)

    def record(self, path: tuple[int, ...]) -> Record:
        """The facts of ``path`` (computed once)."""
        got = self.records.get(path)
        if got is not None:
            return got
        if len(self.records) >= MAX_RECORDS:
            self.records.clear()
        hand, _ = self.replay(path)
        if hand.is_over:
            d0, d1 = hand.result().deltas
            if d0 + d1 != 0:
                raise InteropError(f"{self.played.variant_id} is not zero-sum with these "
                                   "options (rake, kitty or bonus)")
            got = Record(pyspiel.PlayerId.TERMINAL, (), returns=(float(d0), float(d1)))
        elif hand.to_act == DEALER:
            used = set(self._dealt_cards(path))
            left = tuple(c for c in self.walk.deck_list if c not in used)
            got = Record(pyspiel.PlayerId.CHANCE, left, (1.0 / len(left),) * len(left))
        else:
            seat = hand.to_act
            view = self.view(hand, seat)
            assert view.legal is not None
            got = Record(seat, tuple(action_ids(view.legal)), info=info_state_string(view))
        self.records[path] = got
        return got

    def _dealt_cards(self, path: tuple[int, ...]) -> list[int]:
        """The chance outcomes of ``path`` (every card dealt or drawn)."""
        out = []
        for i, a in enumerate(path):
            if self.record(path[:i]).player == pyspiel.PlayerId.CHANCE:
                out.append(a)
        return out


@lru_cache(maxsize=64)
def walk_of(variant: str, betting: str, stack: int) -> Walk:
    """The one walk of these settings."""
    return Walk(variant, betting, stack)


# OpenSpiel classes ----------------------------------------------------------------------
def _game_type(vid: str) -> Any:
    v = load_variant(vid)
    return pyspiel.GameType(
        short_name=PREFIX + vid,
        long_name=f"pokerarena {v.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"betting": list(v.betting)[0], "stack": v.stakes.stack})


class PokerArenaGame(_GameBase):
    """One of our variants as an OpenSpiel game (a subclass per variant is registered)."""

    VARIANT = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        v = load_variant(self.VARIANT)
        merged = {"betting": list(v.betting)[0], "stack": v.stakes.stack, **(params or {})}
        betting, stack = str(merged["betting"]), int(merged["stack"])
        if betting not in v.betting:
            raise InteropError(f"{self.VARIANT} is played {', '.join(v.betting)}, not "
                               f"{betting!r}")
        if stack < 1:
            raise InteropError(f"stack: at least 1 chip, not {stack}")
        self.walk = walk_of(self.VARIANT, betting, stack)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.walk.distinct_actions,
            max_chance_outcomes=CARDS,
            num_players=2,
            min_utility=-float(stack),
            max_utility=float(stack),
            utility_sum=0.0,
            max_game_length=self.walk.max_moves + self.walk.dealt)
        super().__init__(_game_type(self.VARIANT), info, {"betting": betting, "stack": stack})

    def new_initial_state(self) -> PokerArenaState:
        """The hand before any card is dealt."""
        return PokerArenaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """Information states (perfect recall) or observations, per OpenSpiel's type."""
        if params:
            raise InteropError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return Observer(self.walk, recall)


class PokerArenaState(_StateBase):
    """A state: the OpenSpiel actions taken (``path``) on the game's shared walk."""

    def __init__(self, game: PokerArenaGame) -> None:
        super().__init__(game)
        self.walk: Walk = game.walk
        self.path = Path()
        self.rec = self.walk.record(self.path)

    def _record(self) -> Record:
        return self.rec

    def current_player(self) -> int:
        return int(self._record().player)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._record().actions)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rec = self._record()
        return list(zip(rec.actions, rec.probs, strict=True))

    def _apply_action(self, action: int) -> None:
        if action not in self._record().actions:
            raise InteropError(f"action {action} is not legal in {self}")
        self.path = Path(self.path + (int(action),))
        self.rec = self.walk.record(self.path)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {card_str(action)}"
        return action_string(action)

    def is_terminal(self) -> bool:
        return bool(self._record().player == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        return list(self._record().returns)

    def seat_view(self, player: int) -> SeatView:
        """``player``'s :class:`SeatView` now (cards drawn for an unfinished deal are not
        yet dealt, so no seat sees them)."""
        return self.walk.view(self.walk.replay(self.path)[0], player)

    def __str__(self) -> str:
        return " ".join(self._action_to_string(self.walk.record(self.path[:i]).player, a)
                        for i, a in enumerate(self.path))


class Observer:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``) over the seat's view."""

    def __init__(self, walk: Walk, perfect_recall: bool) -> None:
        self.walk, self.recall = walk, perfect_recall
        if perfect_recall:
            shape: tuple[int, ...] = (walk.max_entries, walk.entry_width)
            self.tensor = np.zeros(2 + math.prod(shape), np.float32)
            self.dict = {"player": self.tensor[:2],
                         "history": self.tensor[2:].reshape(shape)}
        else:
            self.tensor = np.zeros(walk.codec.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: PokerArenaState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        view = state.seat_view(player)
        self.tensor.fill(0.0)
        if not self.recall:
            self.tensor[:] = self.walk.codec.encode(view)
            return
        self.dict["player"][player] = 1.0
        rows = self.dict["history"]
        chips = 2.0 * self.walk.stack
        for i, (actor, act) in enumerate(view.history[:len(rows)]):
            row = rows[i]
            row[2 if actor == DEALER else player_of(view, actor)] = 1.0
            kind = "deal" if act.kind in (DEAL_HOLE_KIND, DEAL_BOARD_KIND) else act.kind
            row[_ACTORS + _KIND_AT.get(kind, _KIND_AT["other"])] = 1.0
            at = _ACTORS + len(HISTORY_KINDS)
            row[at] = act.amount / chips
            row[at + 1] = sum(1 for c in act.cards if c == UNKNOWN)
            for c in act.cards:
                if c != UNKNOWN:
                    row[at + 2 + c] = 1.0
            if act.kind == DEAL_HOLE_KIND:  # the dealer, and the player dealt to
                row[player_of(view, act.target)] = 1.0

    def string_from(self, state: PokerArenaState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as text."""
        if self.recall and state.current_player() == player:
            return state.rec.info
        view = state.seat_view(player)
        return info_state_string(view) if self.recall else observation_string(view)


def _register() -> tuple[str, ...]:
    """Register every exposed variant (once per process: OpenSpiel refuses a name twice)."""
    known = set(pyspiel.registered_names())
    out = []
    for vid in exposed_variants():
        name = PREFIX + vid
        out.append(name)
        if name not in known:
            cls = type(f"PokerArenaGame_{vid}", (PokerArenaGame,), {"VARIANT": vid})
            pyspiel.register_game(_game_type(vid), cls)
    return tuple(out)


GAMES = _register()
"""The registered OpenSpiel names, ``pokerarena_<variant>``."""


def load(variant: str, **params: Any) -> Any:
    """``pyspiel.load_game`` of our ``variant`` (``betting=``, ``stack=``), or one
    error naming the exposed variants."""
    if PREFIX + variant not in GAMES:
        raise InteropError(f"{variant!r} is not exposed to OpenSpiel (two seats, deals "
                           f"and betting only): {', '.join(g[len(PREFIX):] for g in GAMES)}")
    return pyspiel.load_game(PREFIX + variant, params)


__all__ = ["GAMES", "PREFIX", "Observer", "PokerArenaGame", "PokerArenaState", "Walk",
           "action_ids", "exposed_variants", "info_state_string", "load",
           "observation_string", "require_pyspiel", "to_action", "to_id"]
