"""The bot interface: the ``Bot`` protocol, what a bot sees, and JSON forms of both.

A bot answers ``act(view) -> Action``. The table calls the optional hooks
``start_match(info)``, ``start_hand(view)`` and ``end_hand(summary)``. What a bot sees is a
:class:`SeatView`: a plain, self-contained copy of what its seat may see (the engine's
:class:`~pokerarena.engine.Observation` keeps a reference to the whole hand, which would
let a bot read the deck; a ``SeatView`` never does). Other seats' down cards and the
cards they discard are :data:`~pokerarena.engine.UNKNOWN` in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from pokerarena import protocols
from pokerarena.bots.seat_view import SeatView
from pokerarena.cards import card_str, parse_cards
from pokerarena.engine import actions as _actions
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEAL_HOLE_KIND,
    DISCARD_KIND,
    FOLD_KIND,
    PLAYER_KINDS,
    RAISE_KIND,
    SHOW_KIND,
    UNKNOWN,
    Action,
    Legal,
)
from pokerarena.engine.hand.common import DOWN_KIND

__all__ = [
    "BaseBot", "Bot", "DeclaresPolicy", "HandSummary", "Policy", "canonical_action",
    "branches_of", "declared_policy", "MatchInfo", "snapshot_of", "SeatView", "action_from_json",
    "action_to_json", "build_summary", "down_cards", "legal_to_json", "legalize",
    "passive_action",
    "view_to_json",
]


@dataclass(frozen=True)
class MatchInfo:
    """What a bot learns when a match starts."""

    match_no: int
    variant: str
    betting: str
    game: dict[str, Any]
    players: int
    hands: int
    entrants: tuple[str, ...] = ()
    entrant: int = 0

    def as_json(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {"match_no": self.match_no, "variant": self.variant, "betting": self.betting,
                "game": dict(self.game), "players": self.players, "hands": self.hands,
                "entrants": list(self.entrants), "entrant": self.entrant}


@dataclass(frozen=True)
class HandSummary:
    """What a seat may see of a finished hand (given to ``end_hand``)."""

    hand_no: int
    match_no: int
    seat: int
    deltas: tuple[Any, ...]
    stacks: tuple[Any, ...]
    pots: tuple[dict[str, Any], ...]
    shown: dict[int, tuple[int, ...]]
    board: tuple[int, ...]
    history: tuple[tuple[int, Action], ...]

    def as_json(self) -> dict[str, Any]:
        """JSON-friendly form (cards as text)."""
        return {"hand_no": self.hand_no, "match_no": self.match_no, "seat": self.seat,
                "deltas": list(self.deltas), "stacks": list(self.stacks),
                "pots": list(self.pots),
                "shown": {str(k): _cards_json(v) for k, v in self.shown.items()},
                "board": _cards_json(self.board),
                "history": [_entry_json(a, x) for a, x in self.history]}


@runtime_checkable
class Bot(protocols.Bot[SeatView, Action], Protocol):
    """What the poker table needs from a bot: the platform's one
    :class:`~pokerarena.protocols.Bot` at a ``SeatView``, answering an ``Action``; only
    ``act`` is required. A bot may also declare its policy (:class:`DeclaresPolicy`)."""

    name: str

    def act(self, view: SeatView) -> Action:
        """The bot's action for the view's legal actions."""
        ...


Policy = list[tuple[Action, float]]


@runtime_checkable
class DeclaresPolicy(Protocol):
    """A bot that declares its strategy: ``policy(view)`` is exactly the distribution its
    ``act`` draws from at that view, as ``[(action, probability), ...]`` (distinct
    actions, probabilities > 0 summing to 1; the cards of a discard or turn-up as a
    sorted tuple, since their order is no part of the move). The method is optional;
    exact tools (``pokerarena exact``) and estimators that correct at decisions need
    it, and it must be a function of the view alone."""

    def policy(self, view: SeatView) -> Policy:
        """The distribution of ``act(view)``."""
        ...


def declared_policy(bot: Any) -> Any:
    """The bot's ``policy`` method, or None when it declares none."""
    method = getattr(bot, "policy", None)
    return method if callable(method) else None


def snapshot_of(bot: Any) -> Any:
    """A copy of the bot's state now, which :func:`branches_of` can play on from (the bot
    itself where its policy reads the view alone: ``pure_policy = True``), or None where
    the bot cannot be played ahead (a remote bot, a bot that declares nothing)."""
    take = getattr(bot, "snapshot", None)
    if callable(take):
        return take()
    return bot if getattr(bot, "pure_policy", False) else None


def branches_of(state: Any, view: SeatView) -> list[tuple[Action, float, Any]]:
    """What a bot in ``state`` (from :func:`snapshot_of`) does at ``view``: each action
    with its chance and the bot's state after it (a bot with private randomness, such
    as a bluff coin, gives one branch per way it can fall). The state is never
    changed. For values that play the bots ahead (AIVAT's lookahead)."""
    go = getattr(state, "branches", None)
    if callable(go):
        return list(go(view))
    return [(a, float(p), state) for a, p in state.policy(view)]


def draw_from(dist: Policy, u: float) -> Action:
    """The action of ``dist`` that one uniform ``u`` in [0, 1) picks (cumulative
    probabilities; the last action takes what rounding leaves): how a bot whose ``act``
    is its declared policy draws, so the two cannot drift apart."""
    acc = 0.0
    for action, p in dist:
        acc += p
        if u < acc:
            return action
    return dist[-1][0]


def canonical_action(action: Action) -> Action:
    """``action`` as a policy names it: the cards of a discard or turn-up sorted (their
    order is not part of the move), nothing else changed."""
    if action.kind in (DISCARD_KIND, EXPOSE_KIND) and len(action.cards) > 1:
        return Action(action.kind, action.amount, tuple(sorted(action.cards)),
                      action.target, action.face_up)
    return action


class BaseBot:
    """A convenient base class: a name, a seeded ``random.Random`` and no-op hooks."""

    name = "bot"
    description = ""

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        import random

        self.rng = random.Random(seed)
        self.seed = seed
        if options:
            raise TypeError(f"{type(self).__name__}: unknown options {sorted(options)}")

    def start_match(self, info: MatchInfo) -> None:
        """Called once before the first hand."""

    def start_hand(self, view: SeatView) -> None:
        """Called when a hand starts (the view before the first decision)."""

    def end_hand(self, summary: HandSummary) -> None:
        """Called when a hand is over."""

    def act(self, view: SeatView) -> Action:  # pragma: no cover - abstract
        """The bot's decision."""
        raise NotImplementedError


# --------------------------------------------------------------------------- building
def build_summary(hand: Any, seat: int, *, hand_no: int = 0, match_no: int = 0) -> HandSummary:
    """What ``seat`` may see of a finished hand: deltas, pots, cards shown at showdown."""
    res = hand.result()
    shown: dict[int, tuple[int, ...]] = {}
    if res.went_to_showdown:
        for s in res.showdown:
            shown[int(s)] = tuple(hand.cards_of(int(s)))
    obs = hand.observation(seat, hand_no, match_no)
    return HandSummary(hand_no=hand_no, match_no=match_no, seat=seat,
                       deltas=tuple(res.deltas), stacks=tuple(res.stacks),
                       pots=tuple(p.as_dict() for p in res.pots), shown=shown,
                       board=tuple(obs.board), history=tuple(obs.history))


def down_cards(view: SeatView) -> tuple[int, ...]:
    """The seat's own cards that are face down."""
    up = view.up[view.seat] if view.up else ()
    if not up:
        return tuple(view.hole)
    return tuple(c for c in view.hole if c not in up)


EXPOSE_KIND = getattr(_actions, "EXPOSE_KIND", "ex")
DECLARE_KIND = getattr(_actions, "DECLARE_KIND", "dc")


def passive_action(legal: Legal | None, hole: tuple[int, ...] | list[int] = (),
                   down: tuple[int, ...] | list[int] | None = None) -> Action:
    """Check if free, else fold; post a bring-in; stand pat; show at a showdown; turn up
    the first down cards when cards must be turned up; declare the first choice."""
    down = list(hole) if down is None else list(down)
    if legal is None:
        return Action(CALL_KIND)
    kinds = legal.kinds
    if CALL_KIND in kinds and legal.call == 0:
        return Action(CALL_KIND)
    if FOLD_KIND in kinds and (CALL_KIND in kinds or RAISE_KIND in kinds) \
            and DOWN_KIND not in kinds:
        return Action(FOLD_KIND)  # a bet to face (a fold is also legal at a draw: not here)
    if BRING_IN_KIND in kinds:
        return Action(BRING_IN_KIND)
    if CALL_KIND in kinds:
        return Action(CALL_KIND)
    if DISCARD_KIND in kinds:
        return Action(DISCARD_KIND, 0, tuple(hole[:legal.discard_min]))
    if SHOW_KIND in kinds:
        return Action(SHOW_KIND, 0, tuple(hole))
    if EXPOSE_KIND in kinds:
        return Action(EXPOSE_KIND, 0, tuple(down[:legal.discard_min]))
    if DECLARE_KIND in kinds:
        return Action(DECLARE_KIND, (getattr(legal, "choices", ()) or (1,))[0])
    if DOWN_KIND in kinds:
        return Action(CALL_KIND)  # take the card up
    if FOLD_KIND in kinds:
        return Action(FOLD_KIND)
    return Action(kinds[0]) if kinds else Action(CALL_KIND)


def legalize(action: Action, legal: Legal | None, hole: Any = (),
             down: Any = None) -> Action:
    """``action`` if its kind is allowed, else the nearest allowed one: a check or call
    becomes the smallest bet where checking is not allowed (or a fold), a bet becomes a
    call, a fold with nothing to call a check; amounts are clamped into the range."""
    if legal is None:
        return action
    kinds = legal.kinds
    kind = action.kind
    if kind == RAISE_KIND and RAISE_KIND in kinds:
        choices = getattr(legal, "choices", ())
        amt = min(legal.max_to, max(legal.min_to, action.amount))
        if choices and amt not in choices:
            amt = min(choices, key=lambda c: abs(c - amt))
        return action if amt == action.amount else Action(RAISE_KIND, amt)
    if kind in kinds:
        return action
    if kind == RAISE_KIND and CALL_KIND in kinds:
        return Action(CALL_KIND)
    if kind == FOLD_KIND and CALL_KIND in kinds:
        return Action(CALL_KIND)
    if kind == CALL_KIND:
        if BRING_IN_KIND in kinds:
            return Action(BRING_IN_KIND)
        if FOLD_KIND in kinds:
            return Action(FOLD_KIND)
        if RAISE_KIND in kinds:
            return Action(RAISE_KIND, legal.min_to)
    return passive_action(legal, tuple(hole), down)


# --------------------------------------------------------------------------- JSON
def _card_json(c: int) -> str:
    return "??" if c == UNKNOWN else card_str(c)


def _cards_json(cards: Any) -> list[str]:
    return [_card_json(c) for c in cards]


def _entry_json(actor: int, act: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": actor, "kind": act.kind}
    if act.kind in (RAISE_KIND, CALL_KIND, BRING_IN_KIND, DECLARE_KIND, "blind", "ante"):
        d["amount"] = act.amount
    if act.cards:
        d["cards"] = _cards_json(act.cards)
    if act.kind in (DEAL_HOLE_KIND,):
        d["target"] = act.target
    return d


def legal_to_json(legal: Legal | None) -> dict[str, Any] | None:
    """JSON form of a :class:`Legal` (None stays None)."""
    if legal is None:
        return None
    return {"kinds": list(legal.kinds), "call": legal.call, "min_to": legal.min_to,
            "max_to": legal.max_to, "bring_in": legal.bring_in,
            "discard_min": legal.discard_min, "discard_max": legal.discard_max,
            "choices": list(getattr(legal, "choices", ()))}


def view_to_json(view: SeatView) -> dict[str, Any]:
    """The JSON document an HTTP bot receives (see ``schemas/observation.schema.json``)."""
    return {
        "variant": view.variant, "betting": view.betting, "game": dict(view.game),
        "hand_no": view.hand_no, "match_no": view.match_no, "seat": view.seat,
        "button": view.button, "players": view.players, "hole": _cards_json(view.hole),
        "up": [_cards_json(u) for u in view.up], "board": _cards_json(view.board),
        "stacks": list(view.stacks), "bets": list(view.bets),
        "committed": list(view.committed), "pot": view.pot, "to_call": view.to_call,
        "legal": legal_to_json(view.legal),
        "history": [_entry_json(a, x) for a, x in view.history],
        "folded": list(view.folded), "street": view.street, "phase": view.phase,
    }


class ActionFormatError(ValueError):
    """An answer that is not an action at all (garbage)."""


def action_to_json(action: Action) -> dict[str, Any]:
    """JSON form of an action: ``{"kind": ..., "amount": ..., "cards": [...]}``."""
    d: dict[str, Any] = {"kind": action.kind}
    if action.kind == RAISE_KIND:
        d["amount"] = action.amount
    if action.kind in (DISCARD_KIND, SHOW_KIND, EXPOSE_KIND):
        d["cards"] = _cards_json(action.cards)
    if action.kind == DECLARE_KIND:
        d["amount"] = action.amount
    return d


_KIND_ALIASES = {"fold": FOLD_KIND, "check": CALL_KIND, "call": CALL_KIND,
                 "bet": RAISE_KIND, "raise": RAISE_KIND, "complete": RAISE_KIND,
                 "bring_in": BRING_IN_KIND, "discard": DISCARD_KIND, "draw": DISCARD_KIND,
                 "show": SHOW_KIND, "muck": SHOW_KIND, "expose": "ex", "declare": "dc"}


def action_from_json(data: Any) -> Action:
    """Parse an action document; :class:`ActionFormatError` when it is garbage.

    Accepts ``{"kind": "cbr", "amount": 10}``, the long names (``fold``, ``check``,
    ``call``, ``bet``, ``raise``, ``discard``, ``show``...), and cards as text
    (``["As", "Kd"]`` or ``"AsKd"``) or codes.
    """
    if not isinstance(data, dict):
        raise ActionFormatError(f"an action is a JSON object, not {type(data).__name__}")
    kind = data.get("kind", data.get("action"))
    if not isinstance(kind, str):
        raise ActionFormatError("the action has no 'kind' string")
    kind = _KIND_ALIASES.get(kind.lower(), kind.lower())
    if kind not in PLAYER_KINDS:
        raise ActionFormatError(f"unknown action kind {kind!r}")
    amount = data.get("amount", 0)
    if isinstance(amount, bool) or not isinstance(amount, int | float) or amount != int(amount):
        raise ActionFormatError(f"amount {amount!r} is not an integer")
    raw = data.get("cards", [])
    try:
        if isinstance(raw, str):
            cards = tuple(parse_cards(raw)) if raw else ()
        elif isinstance(raw, list):
            cards = tuple(c if isinstance(c, int) and not isinstance(c, bool)
                          else parse_cards(c)[0] for c in raw)
            if any(isinstance(c, bool) or not 0 <= c < 54 for c in cards):
                raise ValueError("card code out of range")
        else:
            raise ValueError("cards must be a list or a string")
    except (ValueError, IndexError, TypeError) as exc:
        raise ActionFormatError(f"bad cards {raw!r}: {exc}") from None
    return Action(kind, int(amount), cards)


def coerce_action(value: Any) -> Action:
    """An :class:`Action` from a bot's answer (an Action, a dict, or a kind string)."""
    if isinstance(value, Action):
        if not isinstance(value.kind, str) or not isinstance(value.amount, int) \
                or not isinstance(value.cards, tuple):
            raise ActionFormatError(f"malformed action {value!r}")
        return value
    if isinstance(value, dict):
        return action_from_json(value)
    if isinstance(value, str):
        return action_from_json({"kind": value})
    raise ActionFormatError(f"a bot must answer an Action, not {type(value).__name__}")

