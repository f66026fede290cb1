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
from operator import itemgetter
from typing import Any, NamedTuple, Protocol, runtime_checkable

from pokerarena.cards import card_str, parse_cards
from pokerarena.engine import actions as _actions
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEAL_BOARD_KIND,
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
from pokerarena.engine.game import ST_DECLARE as _ST_DECLARE
from pokerarena.engine.game import ST_EXPOSE as _ST_EXPOSE
from pokerarena.engine.hand import _PHASE_NAMES, EngineError, Hand
from pokerarena.engine.hand import PH_BET as _PH_BET

__all__ = [
    "BaseBot", "Bot", "HandSummary", "MatchInfo", "SeatView", "ViewMaker", "action_from_json",
    "action_to_json", "build_view", "build_summary", "down_cards", "legal_to_json", "legalize",
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


class SeatView(NamedTuple):
    """Everything one seat may see at one moment, and nothing else (an immutable named
    tuple: cheap to build once per decision).

    Seats are table seats (``button`` is the dealer's seat). ``hole``: the seat's own
    cards (down and up) in the order dealt; ``up``: every seat's face-up cards; ``board``:
    community cards; ``stacks``/``bets`` by seat (``bets``: this betting round);
    ``committed``: chips each seat put in during the hand; ``pot``: all chips committed;
    ``to_call``; ``legal``: the legal actions with amount ranges (None unless the seat is
    to act); ``history``: the public action log, ``(seat or DEALER, Action)`` pairs with
    hidden cards as ``UNKNOWN``; ``folded``; ``street``: index of the variant's street;
    ``phase``: ``bet``, ``draw``, ``showdown`` or ``over``; ``hand_no``/``match_no``.
    """

    variant: str
    betting: str
    game: dict[str, Any]
    hand_no: int
    match_no: int
    seat: int
    button: int
    players: int
    hole: tuple[int, ...]
    up: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    committed: tuple[int, ...]
    pot: int
    to_call: int
    legal: Legal | None
    history: tuple[tuple[int, Action], ...]
    folded: tuple[bool, ...]
    street: int
    phase: str

    @property
    def live(self) -> int:
        """Seats that have not folded."""
        return sum(1 for f in self.folded if not f)


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
class Bot(Protocol):
    """What the table needs from a bot; only ``act`` is required."""

    name: str

    def act(self, view: SeatView) -> Action:
        """The bot's action for the view's legal actions."""
        ...


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
_new = tuple.__new__  # builds a SeatView without the named tuple's keyword handling
_HIDDEN = tuple((UNKNOWN,) * k for k in range(64))  # k cards face down
_BET_KINDS = frozenset((CALL_KIND, RAISE_KIND, FOLD_KIND, BRING_IN_KIND, "blind", "ante", "pr"))


class ViewMaker:
    """Builds the :class:`SeatView` of any seat of one hand, cheaply and incrementally.

    Each seat's public history is extended with the log entries added since its last
    view (the engine's observation masks them), so a view costs about the same at the
    end of a hand as at its start. The maker refers to the hand: the table keeps it; a
    bot only ever gets the plain views it makes.
    """

    __slots__ = ("hand", "hand_no", "match_no", "game_info", "_hist", "_final", "_changed",
                 "_up", "_up_at", "_fast", "_pub", "_own", "_by_seat", "_scanned")

    def __init__(self, hand: Any, *, hand_no: int = 0, match_no: int = 0,
                 game_info: dict[str, Any] | None = None) -> None:
        self.hand = hand
        self.hand_no = hand_no
        self.match_no = match_no
        self.game_info = game_info
        self._hist: dict[int, list[tuple[int, Action]]] = {}
        self._final: dict[int, int] = {}
        # Face-up cards change only with entries other than bets (deals, draws, turning
        # cards up, shows): the last such entry seen, and the up cards as of log length
        # ``_up_at`` (every seat's view has scanned every entry before its own time).
        self._changed = -1
        self._up: tuple[tuple[int, ...], ...] = ()
        self._up_at = -1
        # The fast path (games without simultaneous choices, where nothing in the log is
        # hidden for a while): the log as every seat but one sees it is built once per
        # hand (``_pub``); ``_own[seat]``: indices of the entries that seat sees unmasked.
        self._fast = _fast_game(hand)
        self._pub: list[tuple[int, Action]] = []
        self._own: dict[int, list[int]] = {}
        self._scanned = 0
        self._by_seat = itemgetter(*hand.pos_of) if self._fast else None
        if self._fast and game_info is None:
            self.game_info = hand.game.describe()

    def view(self, seat: int) -> SeatView:
        """The seat's view now (plain copies; no reference to the hand)."""
        if self._fast:
            return self._view_fast(seat)
        obs = self.hand.observation(seat, self.hand_no, self.match_no)
        hist = self._hist.get(seat)
        if hist is None:
            hist = self._hist[seat] = []
            done = 0
        else:
            done = self._final[seat]
            del hist[done:]
        new = obs.history_since(done)
        hist.extend(new)
        final = self._final[seat] = obs.history_final
        for k, (_, act) in enumerate(new, done):
            if k > self._changed and _may_turn_up(act):
                self._changed = k
        length = obs.log_length
        if final < length:  # a simultaneous choice: what is up depends on the seat
            up = tuple(map(tuple, obs.up))
        elif self._up_at > self._changed:
            up = self._up
        else:
            up = self._up = tuple(map(tuple, obs.up))
            self._up_at = length
        game = self.game_info
        if game is None:
            game = self.game_info = obs.stakes
        return _new(SeatView, (
            obs.variant, obs.betting, game, self.hand_no, self.match_no, seat, obs.button,
            obs.players, tuple(obs.hole), up, tuple(obs.board),
            tuple(obs.stacks), tuple(obs.bets), tuple(obs.committed), obs.pot, obs.to_call,
            obs.legal, tuple(hist), tuple(obs.folded), obs.street, obs.phase))

    def _scan(self, length: int) -> None:
        """Extend the public log to ``length`` entries (what the engine's observation
        masks: other seats' down cards dealt and cards discarded)."""
        log = self.hand.log
        pub = self._pub
        own = self._own
        changed = self._changed
        for k in range(self._scanned, length):
            entry = log[k]
            act = entry[1]
            kind = act.kind
            if kind in _BET_KINDS or kind == DEAL_BOARD_KIND:
                pub.append(entry)
                continue
            if kind == DEAL_HOLE_KIND:
                target = act.target
                flags = act.amount  # bit mask of face-up cards
                cards = act.cards
                if flags:
                    changed = k
                    hidden = tuple([c if (flags >> i) & 1 else UNKNOWN
                                    for i, c in enumerate(cards)])
                else:
                    hidden = _HIDDEN[len(cards)]
                entry = (entry[0], _new(Action, (kind, flags, hidden, target)))
            elif kind == DISCARD_KIND:
                changed = k
                target = entry[0]
                entry = (target, _new(Action, (kind, act.amount, _HIDDEN[len(act.cards)],
                                               act.target)))
            else:
                changed = k
                pub.append(entry)
                continue
            pub.append(entry)
            mine = own.get(target)
            if mine is None:
                own[target] = [k]
            else:
                mine.append(k)
        self._changed = changed
        self._scanned = length

    def _view_fast(self, seat: int) -> SeatView:
        h = self.hand
        if not 0 <= seat < h.n:
            raise EngineError(f"no seat {seat} at this table")
        log = h.log
        length = len(log)
        scanned = self._scanned
        if scanned < length:
            if scanned + 1 == length and log[scanned][1].kind in _BET_KINDS:
                self._pub.append(log[scanned])  # one more bet: public as it is
                self._scanned = length
            else:
                self._scan(length)
        hist = self._hist.get(seat)
        if hist is None:
            hist = self._hist[seat] = self._pub[:length]
            mine = self._own.get(seat)
            if mine:
                for k in mine:
                    hist[k] = log[k]
            self._final[seat] = length
        else:
            done = self._final[seat]
            if done < length:
                hist += self._pub[done:length]
                mine = self._own.get(seat)
                if mine and mine[-1] >= done:
                    for k in mine:
                        if k >= done:
                            hist[k] = log[k]
                self._final[seat] = length
        if self._up_at > self._changed:
            up = self._up
        else:
            up = self._up = self._by_seat(
                [tuple([x for x, u in zip(cards, isup, strict=True) if u]) if any(isup) else ()
                 for cards, isup in zip(h.hole, h.isup, strict=True)])
            self._up_at = length
        by = self._by_seat
        p = h.pos_of[seat]
        actor = h.actor
        if actor == p and not h.over:
            legal = h._legal
            if legal is None:
                legal = h.legal_actions()
        else:
            legal = None
        phase = h.phase
        to_call = h.cur - h.bets[p] if phase == _PH_BET else 0
        committed = h.committed
        game = h.game
        return _new(SeatView, (
            game.variant_id, game.system_name, self.game_info, self.hand_no, self.match_no,
            seat, h.button, h.n, tuple(h.hole[p]), up, tuple(h.board), by(h.stack),
            by(h.bets), by(committed), sum(committed) + h.dead,
            to_call if to_call > 0 else 0, legal, tuple(hist), by(h.folded), h.si,
            _PHASE_NAMES[phase]))


def _may_turn_up(act: Action) -> bool:
    """Whether a log entry may change which cards are face up (a bet or a board card
    never does, nor a card dealt face down)."""
    kind = act.kind
    if kind in _BET_KINDS or kind == DEAL_BOARD_KIND:
        return False
    return kind != DEAL_HOLE_KIND or bool(act.amount)


_FAST: dict[int, tuple[Any, bool]] = {}


def _fast_game(hand: Any) -> bool:
    """Whether views of ``hand`` may take the fast path: a plain engine hand (not a
    subclass) of at least two seats, of a game without expose or declare streets (their
    simultaneous choices hide log entries for a while)."""
    if type(hand) is not Hand or hand.n < 2:
        return False
    game = hand.game
    streets = game.streets
    hit = _FAST.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    ok = all(st[0] not in (_ST_EXPOSE, _ST_DECLARE) for st in streets)
    _FAST[id(game)] = (game, ok)
    return ok


def build_view(hand: Any, seat: int, *, hand_no: int = 0, match_no: int = 0,
               game_info: dict[str, Any] | None = None) -> SeatView:
    """The :class:`SeatView` of ``seat`` in an engine hand (copies; keeps no reference).
    Many views of one hand: :class:`ViewMaker`."""
    return ViewMaker(hand, hand_no=hand_no, match_no=match_no,
                     game_info=game_info).view(seat)


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
    if FOLD_KIND in kinds:
        return Action(FOLD_KIND)
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

