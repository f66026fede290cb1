"""``Hand``: the table state machine of one deal.

Internally everything is indexed by *position*: 0 is the first seat left of the button,
``n - 1`` the button (this is also PHH's player order p1..pn). The public interface
speaks *seats* (``to_act``, ``observation(seat)``, ``result().deltas``). Hot-path state
is plain Python ints and lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from pokerarena.cards import card_str
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    DECLARE_KIND,
    DISCARD_KIND,
    EXPOSE_KIND,
    FOLD_KIND,
    PLAYER_KINDS,
    RAISE_KIND,
    SHOW_KIND,
    UNKNOWN,
    Action,
    EngineError,
    IllegalAction,
    Legal,
)
from pokerarena.engine.program import Program, bet_size, register_family
from pokerarena.engine.scoring import positional_wilds
from pokerarena.engine.steps import (
    OPEN_BRING_IN,
    OPEN_HIGH_SHOWING,
    OPEN_LEFT_OF_ANTES,
    OPEN_LEFT_OF_BLINDS,
    OPEN_LOW_SHOWING,
    OPEN_OPENER,
    SIZE_ANTE,
    SYS_AMOUNTS,
    SYS_FIXED,
    SYS_LASTBET,
    SYS_NO,
    SYS_POT,
    SYS_SPREAD,
    BetStep,
    ChooseStep,
    DealStep,
    DeclareStep,
    DrawStep,
    ExposeStep,
    FamilyStep,
)
from pokerarena.engine.visibility import seen_by

try:  # compiled with mypyc when installed so; a no-op decorator otherwise
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - plain Python
    def _no_attr(*_args: Any, **_kwargs: Any) -> Any:
        """No-op stand-in for mypy_extensions.mypyc_attr."""
        return lambda cls: cls

    mypyc_attr = _no_attr  # type: ignore[assignment]

from pokerarena.evaluator.lookup import high_with_board as _high_with_board

PH_NONE: Final = 0
PH_BET: Final = 1
PH_DRAW: Final = 2
PH_DEAL: Final = 3
PH_SHOW: Final = 4
PH_OVER: Final = 5
PH_EXPOSE: Final = 6
PH_DECLARE: Final = 7
_FCR: Final[tuple[str, ...]] = (FOLD_KIND, CALL_KIND, RAISE_KIND)
_FC: Final[tuple[str, ...]] = (FOLD_KIND, CALL_KIND)
_FR: Final[tuple[str, ...]] = (FOLD_KIND, RAISE_KIND)
_CR: Final[tuple[str, ...]] = (CALL_KIND, RAISE_KIND)
_C: Final[tuple[str, ...]] = (CALL_KIND,)
_CHECK: Final = Action(CALL_KIND)  # logged for every check (shared: actions are immutable)
_NO_RAISE: tuple[int, int, tuple[int, ...]] = (0, 0, ())
_new_tuple: Final = tuple.__new__  # Legal(...) without NamedTuple.__new__'s keyword handling
PH_CHOOSE: Final = 8  # each player chooses his next up card up (cc) or down (dd)
DOWN_KIND: Final = "dd"
# Phase names by phase number; families add theirs (new_phase).
PHASE_NAMES: list[str] = ["none", "bet", "draw", "deal", "showdown", "over", "expose",
                          "declare", "choose"]


def new_phase(name: str) -> int:
    """A new phase for a family of games (its hand sets ``phase`` to it): its number."""
    if name in PHASE_NAMES:
        return PHASE_NAMES.index(name)
    PHASE_NAMES.append(name)
    return len(PHASE_NAMES) - 1


def _card_text(c: int) -> str:
    return "??" if c == UNKNOWN else card_str(c)


def _best(players: list[int], values: dict, high: bool,
          low: bool) -> tuple[list[int] | None, list[int] | None]:
    """(best high hands, best qualifying low hands) among ``players`` (None: nobody)."""
    highs: list[int] = []
    lows: list[int] = []
    if high and players:
        best = None
        for p in players:  # the players with the highest value, in the given order
            v = values[p][0]
            if best is None or v > best:
                best = v
                highs = [p]
            elif v == best:
                highs.append(p)
    if low:
        best = None
        for p in players:
            v = values[p][1]
            if v is None:
                continue
            if best is None or v > best:
                best = v
                lows = [p]
            elif v == best:
                lows.append(p)
    return highs or None, lows or None


_PROGRESSIVE: Final = (9, 10, 11, 12, 11, 10)  # progressive openers: J, Q, K, A, K, Q, J, ...


def _has_openers(cards: list[int], min_rank: int) -> bool:
    """A pair of ``min_rank`` (9 = jacks) or better: any higher pair, two pair, trips,
    straight, flush or better."""
    counts: dict[int, int] = {}
    suits: dict[int, int] = {}
    for c in cards:
        if c < 52:
            counts[c >> 2] = counts.get(c >> 2, 0) + 1
            suits[c & 3] = suits.get(c & 3, 0) + 1
    pairs = [r for r, k in counts.items() if k >= 2]
    if len(pairs) >= 2 or any(k >= 3 for k in counts.values()):
        return True
    if any(r >= min_rank for r in pairs):
        return True
    if any(k >= 5 for k in suits.values()):
        return True
    ranks = set(counts)
    if 12 in ranks:
        ranks.add(-1)
    return any(all(r + i in ranks for i in range(5)) for r in range(-1, 9))


def _has_bobtail(cards: list[int]) -> bool:
    """A bobtail (jacks or bobtail openers): four cards of one suit, or four consecutive
    ranks open at both ends (2-3-4-5 up to T-J-Q-K; not A-2-3-4 or J-Q-K-A)."""
    suits: dict[int, int] = {}
    ranks = set()
    for c in cards:
        if c < 52:
            suits[c & 3] = suits.get(c & 3, 0) + 1
            ranks.add(c >> 2)
    if any(k >= 4 for k in suits.values()):
        return True
    return any(all(r + i in ranks for i in range(4)) for r in range(9))


def _forced_raises(bets: list[int], size: int) -> int:
    """How many bets and raises the forced bets already make (blinds, a straddle, live
    antes): each level at least ``size`` above the one before is one (002_… blind open:
    the second blind «поднимает его ставку»)."""
    count = level = 0
    for b in sorted(set(bets)):
        if b > 0 and b - level >= size:
            count += 1
            level = b
    return count


def _showing_key_high(cards: list[int], four_flush: bool = False) -> tuple:
    """Strength of up cards for who opens (pairs, trips, quads, high cards; higher better).
    With ``four_flush``, four up cards of one suit rank above a pair and below two pair
    (000_… «При вскрытии (а также при определении начала круга ставок) он старше пары,
    но слабее двух пар»)."""
    counts: dict[int, int] = {}
    for c in cards:
        if c != UNKNOWN:
            r = c >> 2
            counts[r] = counts.get(r, 0) + 1
    groups = sorted([(k, r) for r, k in counts.items()], reverse=True)  # (count, rank)
    shape = tuple([g[0] for g in groups])
    if four_flush and shape < (2, 2):
        suits: dict[int, int] = {}
        for c in cards:
            if c < 52:
                suits[c & 3] = suits.get(c & 3, 0) + 1
        if any(k >= 4 for k in suits.values()):
            # (2, 1, 5) sorts above every one-pair shape and below two pair.
            return (2, 1, 5), tuple(sorted([c >> 2 for c in cards if c != UNKNOWN],
                                           reverse=True))
    return shape, tuple([g[1] for g in groups])


def _showing_key_low(cards: list[int]) -> tuple:
    """Strength of up cards for razz-style openers (ace low; *lower* key is better)."""
    counts: dict[int, int] = {}
    for c in cards:
        if c != UNKNOWN:
            r = ((c >> 2) + 1) % 13
            counts[r] = counts.get(r, 0) + 1
    groups = sorted([(k, r) for r, k in counts.items()], reverse=True)  # (count, rank)
    return tuple([g[0] for g in groups]), tuple([g[1] for g in groups])


@dataclass
class Pot:
    """One pot (main or side): its chips, who could win it and what each won."""

    amount: int
    eligible: list[int]
    winners: dict[int, Any] = field(default_factory=dict)
    kind: str = "main"

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form (seats as ints)."""
        return {"amount": _num(self.amount), "kind": self.kind, "eligible": self.eligible,
                "winners": {str(k): _num(v) for k, v in self.winners.items()}}


def _num(x: Any) -> Any:
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    return x


@dataclass
class HandResult:
    """The outcome: per-seat chip deltas and final stacks, pots, showdown details.

    ``passed``: nobody opened (openers rule); ``carry`` chips then wait in the pot for the
    next deal (``Game.new_hand(..., carry=...)``); ``kitty``: the unit taken for the table's
    kitty; ``bonuses``: seat -> chips received as a bonus hand. Chips are conserved as
    stacks + rake + kitty + carry."""

    deltas: list[Any]
    stacks: list[Any]
    pots: list[Pot]
    showdown_raw: dict[int, tuple] = field(default_factory=dict, repr=False)
    rake: int = 0
    went_to_showdown: bool = False
    passed: bool = False
    carry: int = 0
    scorer: Any = field(default=None, repr=False, compare=False)
    kitty: int = 0
    bonuses: dict[int, int] = field(default_factory=dict)
    _described: dict[int, dict[str, Any]] | None = field(default=None, repr=False,
                                                          compare=False)

    @property
    def showdown(self) -> dict[int, dict[str, Any]]:
        """Seat -> {cards, high, low} for every hand that was compared at the showdown."""
        if self._described is None:
            sc = self.scorer
            self._described = {
                seat: {"cards": "".join(_card_text(c) for c in cards),
                       "high": sc.describe(hv, wild=wild) if sc else str(hv),
                       "low": sc.describe(lv, low=True, wild=wild) if sc else str(lv)}
                for seat, (cards, hv, lv, wild) in self.showdown_raw.items()}
        return self._described

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {"deltas": [_num(d) for d in self.deltas], "stacks": [_num(s) for s in self.stacks],
                "pots": [p.as_dict() for p in self.pots],
                "showdown": {str(k): v for k, v in self.showdown.items()},
                "rake": self.rake, "went_to_showdown": self.went_to_showdown,
                "passed": self.passed, "carry": self.carry, "kitty": self.kitty,
                "bonuses": {str(k): v for k, v in self.bonuses.items()}}


PROTECT_KIND: Final = "pr"  # disconnection protection: all in for what the seat has put in
_MASKED: Final = frozenset((DEAL_HOLE_KIND, DISCARD_KIND, EXPOSE_KIND, DECLARE_KIND))


class Observation:
    """What one seat may see: a cheap view of the hand, valid until the next action.

    ``hole``: the seat's own cards; ``up``: every seat's face-up cards; ``board``;
    ``stacks``/``bets`` by seat; ``pot`` (all chips committed, this round's bets
    included); ``to_call``; ``legal`` (None unless the seat is to act); ``history``: the
    action log with other seats' down cards hidden; ``committed``/``folded`` by seat;
    ``betting`` and ``stakes``; ``hand_no``/``match_no`` (given by the caller). The list
    fields are computed on first use; :meth:`snapshot` copies everything for keeping.
    The observation refers to the hand: hand it to code you trust (a bot gets a
    ``pokerarena.bots.base.SeatView`` built from it instead).
    """

    __slots__ = ("seat", "legal", "_hand", "_loglen", "_cache", "_hidden_from", "hand_no",
                 "match_no")

    def __init__(self, hand: Hand, seat: int, hand_no: int = 0, match_no: int = 0) -> None:
        h = hand
        self._hand = h
        self._loglen = len(h.log)
        self._cache: dict[str, Any] = {}
        self.seat = seat
        self.hand_no = hand_no
        self.match_no = match_no
        self.legal = (h.legal_actions() if not h.over and h.actor >= 0
                      and h.seat_of[h.actor] == seat else None)
        # Choices made in a simultaneous expose/declare stay hidden until all have chosen.
        self._hidden_from = h.turn_start if h.simultaneous and h.turn_start >= 0 else -1

    def _get(self, name: str) -> Any:
        c = self._cache
        if name not in c:
            h = self._hand
            p = h.pos_of[self.seat]
            if name == "pot":
                c[name] = sum(h.committed) + h.dead
            elif name == "to_call":
                to_call = h.cur - h.bets[p]
                c[name] = to_call if h.phase == PH_BET and to_call > 0 else 0
            elif name == "street":
                c[name] = h.si
            elif name == "phase":
                c[name] = PHASE_NAMES[h.phase]
        return c[name]

    @property
    def variant(self) -> str:
        """The variant's identifier."""
        return self._hand.game.variant_id

    @property
    def button(self) -> int:
        """The button's seat."""
        return self._hand.button

    @property
    def players(self) -> int:
        """Number of seats in the hand."""
        return self._hand.n

    @property
    def pot(self) -> int:
        """All chips in the pot, this round's bets included."""
        return self._get("pot")

    @property
    def to_call(self) -> int:
        """Chips this seat must add to call (0 outside betting)."""
        return self._get("to_call")

    @property
    def street(self) -> int:
        """Index of the current street in the variant's street list."""
        return self._get("street")

    @property
    def phase(self) -> str:
        """``bet``, ``draw``, ``expose``, ``declare``, ``deal``, ``showdown`` or ``over``."""
        return self._get("phase")

    def _by_seat(self, values: list) -> list:
        return [values[p] for p in self._hand.pos_of]

    def _per_seat(self, name: str, field: str) -> list:
        """The hand's by-position list ``field``, reordered by seat, computed once."""
        c = self._cache
        if name not in c:
            c[name] = self._by_seat(getattr(self._hand, field))
        return c[name]

    @property
    def hole(self) -> list[int]:
        """The seat's own cards (down and up) in the order dealt."""
        c = self._cache
        if "hole" not in c:
            c["hole"] = list(self._hand.hole[self._hand.pos_of[self.seat]])
        return c["hole"]

    @property
    def up(self) -> list[list[int]]:
        """Face-up cards of every seat."""
        c = self._cache
        if "up" not in c:
            h = self._hand
            hidden: set[int] = set()
            if self._hidden_from >= 0:
                for actor, act in h.log[self._hidden_from:self._loglen]:
                    if act.kind == EXPOSE_KIND and actor != self.seat:
                        hidden.update(act.cards)
            c["up"] = self._by_seat([[x for x, u in zip(h.hole[q], h.isup[q], strict=True)
                                      if u and x not in hidden] for q in range(h.n)])
        return c["up"]

    @property
    def board(self) -> list[int]:
        """Community cards."""
        c = self._cache
        if "board" not in c:
            c["board"] = list(self._hand.board)
        return c["board"]

    @property
    def stacks(self) -> list[int]:
        """Chips behind, by seat."""
        return self._per_seat("stacks", "stack")

    @property
    def bets(self) -> list[int]:
        """This round's bets, by seat."""
        return self._per_seat("bets", "bets")

    def snapshot(self) -> Observation:
        """Compute every field now so the observation can be kept after the hand moves."""
        for name in ("hole", "up", "board", "stacks", "bets", "history", "pot", "to_call",
                     "street", "phase"):
            getattr(self, name)
        return self

    @property
    def committed(self) -> list[int]:
        """Chips each seat has put in during the hand, by seat."""
        return self._per_seat("committed", "committed")

    @property
    def folded(self) -> list[bool]:
        """Whether each seat has folded, by seat."""
        return self._per_seat("folded", "folded")

    @property
    def betting(self) -> str:
        """The betting system's name (``no_limit``, ``fixed_limit`` ...)."""
        return self._hand.game.system_name

    @property
    def stakes(self) -> dict[str, Any]:
        """The game's summary: variant, betting, ante, blinds, bring-in, bet sizes."""
        return self._hand.game.describe()

    @property
    def log_length(self) -> int:
        """Entries in the action log when the observation was taken."""
        return self._loglen

    @property
    def history_final(self) -> int:
        """History entries before this index are final: later observations of the same
        seat show them the same (a simultaneous choice is shown once all have chosen)."""
        hf = self._hidden_from
        return self._loglen if hf < 0 else min(hf, self._loglen)

    @property
    def history(self) -> list[tuple[int, Action]]:
        """(actor seat or DEALER, action) pairs; others' down cards are UNKNOWN."""
        if "history" in self._cache:
            return self._cache["history"]
        out = self.history_since(0)
        self._cache["history"] = out
        return out

    def history_since(self, start: int) -> list[tuple[int, Action]]:
        """The history's entries from index ``start`` on (a fresh list; the log's own
        immutable entries where nothing is hidden)."""
        out = self._hand.log[start:self._loglen]
        seat, hf = self.seat, self._hidden_from
        face_up = self._hand.prog.discards_face_up
        for i, entry in enumerate(out):
            if entry[1].kind in _MASKED:
                seen = seen_by(entry, seat, face_up, 0 <= hf <= start + i)
                if seen is not entry:
                    out[i] = seen
        return out


@mypyc_attr(allow_interpreted_subclasses=True)
class Hand:
    """One hand of a :class:`~pokerarena.engine.game.Game`; see the module docstring."""

    def __init__(self, game: Any, rng: Any, n: int, stacks: Any, button: int, *,
                 carry: int = 0, passes: int = 0) -> None:
        g = game.program
        self.game = game  # the Game (its program: ``prog``)
        self.prog: Program = g
        self.rng = rng
        self.n = n
        self.button = button
        self.seat_of = [(button + 1 + p) % n for p in range(n)]
        self.pos_of = [0] * n
        for p, s in enumerate(self.seat_of):
            self.pos_of[s] = p
        start = []
        for p in range(n):
            s = stacks[self.seat_of[p]]
            if type(s) is not int or s < 0:
                if s != int(s) or s < 0:
                    raise EngineError(f"stacks: seat {self.seat_of[p]} has {s!r} chips")
                s = int(s)
            start.append(s)
        self.start = start
        self.stack: list[Any] = list(start)  # chips may turn fractional (odd_chip option)
        self.bets = [0] * n
        self.committed = [0] * n
        self.antes = [0] * n
        self.folded = [False] * n
        self.mucked = [False] * n
        self.shown = [False] * n
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.isup: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[int] = []
        self.muck_pile: list[int] = []
        self.seen: set[int] = set()
        self.log: list[tuple[int, Action]] = []
        self.manual = g.manual_deal
        if self.manual:
            self.stock: list[int] = []
        else:
            self.stock = rng.permutation(g.deck_cards).tolist()
        self.live = n
        self.si = -1
        self.phase = PH_NONE
        self.actor = -1  # position to act; -1: the dealer (manual dealing) or nobody
        # betting round state
        self.cur = 0
        self.min_raise = 0
        self.nraises = 0
        self.bet_sz = 0
        self.bet_sz_ante = False  # this round's bet size is the ante (lowball)
        self.need = [False] * n
        self.can_raise = [True] * n
        self.top = -1          # position that made the current highest bet
        self.called = -1       # position that was called in the last round with a bet
        self.bring_in_pos = -1
        self.bring_in_pending = False
        self.aggressor = -1    # last full bet/raise of the round
        self.check_ok = True
        self.open_pair = False
        self.show_first = 0    # who shows first at the showdown
        # draw state
        self.drawn = [False] * n
        self.owed = [0] * n
        self.thrown: list[tuple[int, ...]] = [()] * n
        self.draw_min = 0
        self.draw_max = 0
        self.draw_replace = True
        # manual dealing state
        self.owe_down = [0] * n
        self.owe_up = [0] * n
        self.owe_board = 0
        self.over = False
        self.rake = 0
        self.kitty = 0
        self.hand_raises = 0
        self.dead = carry      # chips in the pot that are nobody's bet (carried pot, remedies)
        self.carry_in = carry
        self.passes = passes
        self.opener = -1       # who opened the first betting round
        self.bet_rounds = 0    # betting rounds played so far
        self.need_openers = False
        self.openers_rank = -1       # the openers this deal needed (-1: none)
        self.choose_down: list[bool] | None = None  # up card asked for down, by position
        self.split_openers: dict[int, tuple[int, ...]] = {}  # seat -> declared split cards
        self.passed = False
        self.raises_by = [0] * n
        self.short_open = False
        self.frozen = False
        self.checked = [False] * n
        self.check_raise_ok = True
        self.declared = [0] * n      # high-low declarations: 1 high, 2 low, 3 both
        self.turn_done = [False] * n
        self.turn_start = -1         # log index where a simultaneous expose/declare began
        self.simultaneous = False
        self.expose_count = self.expose_keep = 0
        self.lb_open = game.max_bet  # last-bet limit: the most a round's first bet may be
        self.irregularities: list[tuple[int, str, str]] = []
        self.protected: dict[int, Any] = {}  # position -> chips set aside (protection)
        self._result: HandResult | None = None
        self.went_to_showdown = False
        self.acted_at = [0] * n      # the bet each player last acted at (reopening)
        self.pending: dict[int, int] = {}  # house: chips bet out of turn, by position
        antes, blinds = game.forced_by_position(n)
        stack, committed = self.stack, self.committed
        live_ante = g.live_ante
        for p in range(n):
            a = antes[p]
            if a:
                a = min(a, stack[p])
                stack[p] -= a
                committed[p] += a
                if live_ante:  # a live ante is the player's bet in the first round
                    self.bets[p] += a
                else:
                    self.antes[p] = a
                self.log.append((self.seat_of[p], _new_tuple(Action, ("ante", a, (), -1))))
        self._antes = antes
        for p in range(n):
            b = blinds[p]
            if b:
                b = min(b, stack[p])
                stack[p] -= b
                committed[p] += b
                self.bets[p] = b
                self.log.append((self.seat_of[p], _new_tuple(Action, ("blind", b, (), -1))))
        self._blinds = blinds
        # Jackpot (RULES.md §2): the maximum bet or raise is the pot before the deal.
        self.jackpot_max = sum(committed) + self.dead if g.jackpot else 0
        self._legal: Legal | None = None
        self._advance()

    # ------------------------------------------------------------------ public API
    @property
    def is_over(self) -> bool:
        """True once the pots have been awarded."""
        return self.over

    @property
    def to_act(self) -> int | None:
        """Seat to act, ``DEALER`` (-1) when a manual deal is owed, None when over."""
        if self.over:
            return None
        if self.actor < 0:
            return DEALER
        return self.seat_of[self.actor]

    @property
    def phase_name(self) -> str:
        """``bet``, ``draw``, ``deal`` (manual), ``showdown`` (manual) or ``over``."""
        return PHASE_NAMES[self.phase]

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` must add to call (0 outside a betting round)."""
        if self.phase != PH_BET:
            return 0
        to_call = self.cur - self.bets[self.pos_of[seat]]
        return to_call if to_call > 0 else 0

    def showdown_order(self) -> list[int]:
        """Positions (0: left of the button) of the players still in, in the order they
        show down."""
        n = self.n
        start = self.show_first
        return [(start + i) % n for i in range(n) if not self.folded[(start + i) % n]]

    def stacks(self) -> list[int]:
        """Chips behind, by seat."""
        out = [0] * self.n
        for p in range(self.n):
            out[self.seat_of[p]] = self.stack[p]
        return out

    def pot_total(self) -> int:
        """All chips committed so far (this round's bets included)."""
        return sum(self.committed) + self.dead

    def cards_of(self, seat: int) -> list[int]:
        """The seat's cards (down and up), in the order dealt."""
        return list(self.hole[self.pos_of[seat]])

    def legal_actions(self) -> Legal:
        """What the seat (or dealer) to act may do, with amount ranges."""
        legal = self._legal
        if legal is None:
            if self.phase == PH_BET and not self.over:
                legal = self._legal = self._legal_bet(self.actor)
            else:
                legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> Legal:
        if self.over:
            return Legal(())
        ph = self.phase
        if ph == PH_BET:
            return self._legal_bet(self.actor)
        # A player may fold at any decision (000_… «в любой момент»; option free_fold).
        f = (FOLD_KIND,) if self.prog.free_fold else ()
        if ph == PH_DRAW:
            if self.actor >= 0:
                p = self.actor
                return Legal((*f, DISCARD_KIND), discard_min=min(self.draw_min, len(self.hole[p])),
                             discard_max=min(self.draw_max, len(self.hole[p])))
            return self._legal_deal()
        if ph == PH_DEAL:
            return self._legal_deal()
        if ph == PH_EXPOSE:
            k = self._expose_needed(self.actor)
            return Legal((*f, EXPOSE_KIND), discard_min=k, discard_max=k)
        if ph == PH_CHOOSE:
            return Legal((*f, CALL_KIND, DOWN_KIND))
        if ph == PH_DECLARE:
            return Legal((*f, DECLARE_KIND), choices=self._declare_choices(self.actor))
        if ph == PH_SHOW:
            return Legal((SHOW_KIND,))
        return Legal(())

    def observation(self, seat: int, hand_no: int = 0, match_no: int = 0) -> Observation:
        """What ``seat`` may see now (``hand_no``/``match_no``: the caller's numbering)."""
        if not 0 <= seat < self.n:
            raise EngineError(f"no seat {seat} at this table")
        return Observation(self, seat, hand_no, match_no)

    def protect(self, seat: int | None = None) -> None:
        """Disconnection protection (RULES.md §4, ``002_…``): the seat to act in a betting
        round stays in the hand all in for what it has already put in. It keeps its claim
        on the pot so far; later bets go to side pots it cannot win. The chips it still
        has are set aside (``protected``; its stack reads 0) and given back when the hand
        is settled. Logged as ``(seat, Action("pr"))``, so ``apply`` replays it."""
        if self.over or self.phase != PH_BET or self.actor < 0:
            raise IllegalAction("protection is for the seat to act in a betting round")
        p = self.actor
        if seat is not None and seat != self.seat_of[p]:
            raise IllegalAction(f"seat {seat} cannot act now: seat {self.seat_of[p]} is to act")
        if self.bring_in_pending and p == self.bring_in_pos:
            raise IllegalAction(f"seat {self.seat_of[p]} must post the bring-in")
        protected = self.protected
        protected[p] = protected.get(p, 0) + self.stack[p]
        self.stack[p] = 0
        self.need[p] = False
        self.can_raise[p] = False
        self._legal = None
        self.log.append((self.seat_of[p], Action(PROTECT_KIND)))
        self._next_actor(p)

    def _unprotect(self) -> None:
        """Give protected seats back the chips set aside (at settlement)."""
        if self.protected:
            for p, chips in self.protected.items():
                self.stack[p] += chips
            self.protected = {}

    def result(self) -> HandResult:
        """The outcome; only once the hand is over."""
        if self._result is None:
            raise EngineError("the hand is not over yet")
        return self._result

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (or the given ``seat``: ``DEALER`` for
        manual deals, any live seat for showing cards). Illegal actions raise
        :class:`IllegalAction` and change nothing."""
        if seat is None and self.phase == PH_BET and self.actor >= 0 and not self.over:
            self._apply_bet(self.actor, action)  # the hot path of _dispatch
        else:
            self._dispatch(action, seat)
        self._legal = None

    def _dispatch(self, action: Action, seat: int | None) -> None:
        if self.over:
            raise IllegalAction("the hand is over")
        kind = action.kind
        if kind == PROTECT_KIND:
            return self.protect(seat)
        actor_pos = self.actor
        if seat is not None and (seat == DEALER or seat != self.to_act):
            if seat == DEALER:
                if not self.manual or kind not in (DEAL_HOLE_KIND, DEAL_BOARD_KIND):
                    raise IllegalAction(f"the dealer cannot {kind!r} now")
                return self._apply_deal(action)
            if not 0 <= seat < self.n:
                raise IllegalAction(f"no seat {seat}")
            p = self.pos_of[seat]
            if kind == SHOW_KIND and not self.folded[p] and self.phase != PH_BET:
                return self._apply_show(p, action)
            if self.prog.house and kind in PLAYER_KINDS:
                return self._out_of_turn(p, action)
            raise IllegalAction(f"seat {seat} cannot act now: seat {self.to_act} is to act")
        if actor_pos < 0:
            if kind in (DEAL_HOLE_KIND, DEAL_BOARD_KIND):
                return self._apply_deal(action)
            raise IllegalAction("the dealer is to act: the hand waits for cards")
        ph = self.phase
        if ph == PH_BET:
            self._apply_bet(actor_pos, action)
        elif kind == FOLD_KIND and ph in (PH_DRAW, PH_EXPOSE, PH_DECLARE, PH_CHOOSE):
            if not self.prog.free_fold:
                raise IllegalAction(f"seat {self.seat_of[actor_pos]} cannot fold now")
            self._fold(actor_pos)
        elif ph == PH_DRAW:
            if kind != DISCARD_KIND:
                raise IllegalAction(f"seat {self.seat_of[actor_pos]} must discard (sd), "
                                    f"not {kind!r}")
            self._apply_discard(actor_pos, action)
        elif ph in (PH_EXPOSE, PH_DECLARE, PH_CHOOSE):
            self._apply_turn(actor_pos, action)
        elif ph == PH_SHOW:
            if kind != SHOW_KIND:
                raise IllegalAction(f"showdown: seat {self.seat_of[actor_pos]} shows or mucks "
                                    f"(sm), not {kind!r}")
            self._apply_show(actor_pos, action)
        else:
            raise IllegalAction("nothing to do")

    # ------------------------------------------------------------------ betting
    def _others_can_act(self, p: int) -> bool:
        """True when another player could put in more than the current bet (else a
        raise could never be called: every other player has folded or is all in)."""
        folded, stack, bets, cur = self.folded, self.stack, self.bets, self.cur
        for q in range(self.n):  # noqa: SIM110 - a plain loop is faster here
            if q != p and stack[q] > 0 and not folded[q] and bets[q] + stack[q] > cur:
                return True
        return False

    def _raise_range(self, p: int) -> tuple[int, int, tuple[int, ...]]:
        """(min_to, max_to, choices) for a cbr by ``p``; (0, 0, ()) when not allowed."""
        cur = self.cur
        stacks, bets = self.stack, self.bets
        stack = stacks[p]
        to_call = cur - bets[p]
        if stack <= to_call or not self.can_raise[p] or self.frozen:
            return _NO_RAISE
        # Another player must be able to put in more than the current bet (else a raise
        # could never be called: every other player has folded or is all in); this is
        # _others_can_act, inlined on the hot path.
        folded = self.folded
        for q in range(self.n):
            if q != p and stacks[q] > 0 and not folded[q] and bets[q] + stacks[q] > cur:
                break
        else:
            return _NO_RAISE
        g = self.prog
        freeze_to = 0
        if not g.plain_raises:
            if (g.freeze_multiple and g.sys == SYS_FIXED and self.nraises >= 3
                    and self.raises_by[p] == 0):
                # Freeze: after two raises, a player who has not raised may bet a multiple
                # of the normal bet; then the round is frozen (call or fold only).
                freeze_to = min(cur + g.freeze_multiple * self.bet_sz, bets[p] + stack)
            cap = g.max_raises
            # One-on-one games (a table of two) have their own cap (002_… «В играх «один
            # на один» кэп объявляется после 5 подъемов»); a pot that gets down to two
            # players at a bigger table keeps the table's cap.
            if self.n == 2 and (g.sys == SYS_FIXED or g.heads_up_max_raises is not None):
                cap = g.heads_up_max_raises
            if cap is not None and self.nraises >= cap + 1:
                return (freeze_to, freeze_to, (freeze_to,)) if freeze_to > cur else _NO_RAISE
            cap_pp = g.max_raises_per_player
            if cap_pp is not None and self.raises_by[p] >= cap_pp:
                return _NO_RAISE
        if self.need_openers and not self._opens(self.hole[p]):
            return _NO_RAISE
        if not self.check_raise_ok and self.checked[p]:
            return _NO_RAISE  # no check-raise in this round
        total = bets[p] + stack
        sysc = g.sys
        choices: tuple[int, ...] = ()
        if sysc == SYS_FIXED:
            size = self.bet_sz
            nominal = size if (self.nraises == 0 and cur < size) else cur + size
            lo = hi = nominal
            if self.short_open and g.phh_compat and self.nraises == 0:
                # After an all-in bet of less than a bet, the casino rule completes the
                # bet; PokerKit-recorded hands raise by a full bet instead: accept both.
                hi = cur + size
                choices = (min(lo, total), min(hi, total))
            if self.open_pair and g.big_bet > size:
                # An open pair on fourth street: every bet or raise may be the small or
                # the big bet until one is big (002_… «Если он ставит $2, все остальные
                # игроки, повышая, должны ставить $2 или $4»).
                hi = g.big_bet if nominal == size else cur + g.big_bet
                choices = (min(lo, total), min(hi, total))
        elif sysc == SYS_AMOUNTS:
            # Only certain amounts (or only the minimum or the maximum) are a bet or raise.
            amounts = g.amounts
            if self.bet_sz_ante:
                amounts = tuple(a for a in amounts if a <= g.ante) or amounts[:1]
            choices = tuple(cur + a for a in amounts)
            lo, hi = choices[0], choices[-1]
        else:
            base = g.open_min
            # Completing a bring-in (or a short blind) goes to the base bet.
            lo = base if self.nraises == 0 and 0 < cur < base else cur + self.min_raise
            if sysc == SYS_NO:
                hi = total
            elif sysc == SYS_LASTBET:
                # After the first bet, the previous bet is the most a bet or raise may be;
                # the minimum stays the agreed one (000_… «Предел последней ставки»).
                lo = base if self.nraises == 0 and 0 < cur < base else cur + base
                limit = cur if cur > 0 else self.lb_open
                hi = cur + limit
                lo = min(lo, hi)
            elif sysc == SYS_POT:
                hi = cur + sum(self.committed) + self.dead + to_call
            else:  # spread: any amount between the minimum and the maximum
                lo = base if self.nraises == 0 and 0 < cur < base else cur + base
                hi = cur + (min(g.max_bet, g.ante) if self.bet_sz_ante else g.max_bet)
        jackpot = self.jackpot_max
        if jackpot and cur + jackpot > hi:
            # A jackpot deal: any bet or raise from the usual minimum up to the pot as it
            # stood before the deal (000_… «Джекпот»).
            hi = cur + jackpot
            choices = ()
        if hi < lo:
            hi = lo  # the minimum bet is always allowed (a tiny pot in pot limit)
        if lo > total:
            lo = total
        if hi > total:
            hi = total
        if choices and sysc == SYS_AMOUNTS:
            choices = tuple(sorted({min(c, total) for c in choices}))
        if freeze_to > hi:
            choices = (*(choices or (lo,)), freeze_to)
            hi = freeze_to
        if len(choices) == 2 and choices[0] == choices[1]:
            choices = ()
        return lo, hi, choices

    def _legal_bet(self, p: int) -> Legal:
        if self.bring_in_pending and p == self.bring_in_pos:
            lo, hi, choices = self._raise_range(p)
            kinds: tuple[str, ...] = (BRING_IN_KIND, RAISE_KIND) if hi else (BRING_IN_KIND,)
            return Legal(kinds, bring_in=min(self.prog.bring_in, self.stack[p]),
                         min_to=lo, max_to=hi, choices=choices)
        cur, bets, stacks = self.cur, self.bets, self.stack
        bet, stack = bets[p], stacks[p]
        to_call = cur - bet
        call = to_call if to_call < stack else stack
        g = self.prog
        if g.fast_raises and not self.need_openers and self.check_raise_ok and not self.pending:
            # Hot path: _raise_range inlined for no-limit and pot-limit without caps.
            lo = hi = 0
            if stack > to_call and self.can_raise[p] and not self.frozen:
                folded = self.folded
                for q in range(self.n):
                    if q != p and stacks[q] > 0 and not folded[q] and bets[q] + stacks[q] > cur:
                        base = g.open_min
                        lo = (base if self.nraises == 0 and 0 < cur < base
                              else cur + self.min_raise)
                        total = bet + stack
                        if g.sys == SYS_NO:
                            hi = total
                        else:  # pot limit
                            hi = cur + sum(self.committed) + self.dead + to_call
                            if hi < lo:
                                hi = lo
                            if hi > total:
                                hi = total
                        if lo > total:
                            lo = total
                        break
            if to_call > 0 or (g.free_fold and (cur or self.check_ok or not hi)):
                kinds = _FCR if hi else _FC
            elif not self.check_ok and cur == 0 and hi:
                kinds = _FR  # pass and out: no checking an unopened pot
            else:
                kinds = _CR if hi else _C
            return _new_tuple(Legal, (kinds, call, lo, hi, 0, 0, 0, (), 0, ()))
        pend = self.pending.get(p) if self.pending else None
        if pend is not None:
            return self._legal_pending(p, pend)
        lo, hi, choices = self._raise_range(p)
        if to_call > 0 or (g.free_fold and (cur or self.check_ok or not hi)):
            # A player may fold at any time, also when he could check (000_… «Игрок
            # может сделать это в любой момент»; option free_fold).
            kinds = _FCR if hi else _FC
        elif not self.check_ok and cur == 0 and hi:
            kinds = _FR  # pass and out: no checking an unopened pot
        else:
            kinds = _CR if hi else _C
        return _new_tuple(Legal, (kinds, call, lo, hi, 0, 0, 0, (), 0, choices))

    def _apply_bet(self, p: int, action: Action) -> None:
        if self.pending and p in self.pending:
            return self._apply_pending(p, action)
        kind = action.kind
        if kind == CALL_KIND and not (self.bring_in_pending and p == self.bring_in_pos):
            cur, bets = self.cur, self.bets
            to_call = cur - bets[p]
            if to_call > 0 or cur or self.check_ok:
                # Hot path: a check or call is always legal here (see _legal_bet), so the
                # raise range is not needed.
                if to_call > 0:
                    stack = self.stack
                    amt = to_call if to_call < stack[p] else stack[p]
                    stack[p] -= amt
                    bets[p] += amt
                    self.committed[p] += amt
                    act = _new_tuple(Action, (CALL_KIND, amt, (), -1))
                else:
                    self.checked[p] = True
                    act = _CHECK
                need = self.need
                need[p] = False
                self.can_raise[p] = False
                self.acted_at[p] = cur
                self.log.append((self.seat_of[p], act))
                n = self.n
                q = p
                for _ in range(n):  # _next_actor, inlined
                    q += 1
                    if q == n:
                        q = 0
                    if need[q]:
                        self.actor = q
                        return
                self._end_round()
                self._advance()
                return
        seat = self.seat_of[p]
        if kind == PROTECT_KIND:
            return self.protect(seat)
        n = self.n
        if self.bring_in_pending and p == self.bring_in_pos:
            if kind == BRING_IN_KIND:
                amt = min(self.prog.bring_in, self.stack[p])
                self.stack[p] -= amt
                self.bets[p] += amt
                self.committed[p] += amt
                if self.bets[p] > self.cur:
                    self.cur = self.bets[p]
                    self.top = p
                self.bring_in_pending = False
                self.need[p] = False
                self.log.append((seat, Action(BRING_IN_KIND, amt)))
                self._next_actor(p)
                return
            if kind != RAISE_KIND:
                raise IllegalAction(f"seat {seat} must post the bring-in (pb) or complete "
                                    f"(cbr), not {kind!r}")
        legal = self.legal_actions()
        if self.prog.house and (kind == RAISE_KIND or (kind == FOLD_KIND
                                                       and kind not in legal.kinds)):
            action = self._house_fix(p, action, legal)
            kind = action.kind
        if kind not in legal.kinds and not (kind == FOLD_KIND and self.prog.house):
            if kind == FOLD_KIND:
                raise IllegalAction(f"seat {seat} cannot fold: nothing to call (check instead)")
            if kind == CALL_KIND:
                raise IllegalAction(f"seat {seat} cannot check: no checking in this round "
                                    "(pass and out: bet or fold)")
            if kind == RAISE_KIND:
                raise IllegalAction(f"seat {seat} cannot bet or raise now")
            raise IllegalAction(f"seat {seat} is in a betting round: {kind!r} is not a "
                                f"betting action ({', '.join(legal.kinds)})")
        if kind == CALL_KIND:
            to_call = self.cur - self.bets[p]
            if to_call <= 0:
                self.checked[p] = True
            amt = to_call if to_call < self.stack[p] else self.stack[p]
            if amt:
                self.stack[p] -= amt
                self.bets[p] += amt
                self.committed[p] += amt
            self.need[p] = False
            self.can_raise[p] = False
            self.acted_at[p] = self.cur
            self.log.append((seat, Action(CALL_KIND, amt)))
            self._next_actor(p)
        elif kind == FOLD_KIND:
            self._fold(p)
        elif kind == RAISE_KIND:
            lo, hi = legal.min_to, legal.max_to
            to = action.amount
            try:
                to_int = int(to)
            except (TypeError, ValueError):
                to_int = None
            if (to_int is None or to_int != to or not lo <= to_int <= hi
                    or (legal.choices and to_int not in legal.choices)):
                rng = (" or ".join(map(str, legal.choices)) if legal.choices
                       else f"{lo}" if lo == hi else f"{lo} to {hi}")
                raise IllegalAction(f"seat {seat} cannot bet/raise to {to}: allowed {rng}")
            to = to_int
            cur = self.cur
            add = to - self.bets[p]
            self.stack[p] -= add
            self.bets[p] = to
            self.committed[p] += add
            inc = to - cur
            g = self.prog
            sysc = g.sys
            if sysc == SYS_FIXED:
                size = self.bet_sz
                nominal = size if (self.nraises == 0 and cur < size) else cur + size
                big_to = g.big_bet if nominal == size else cur + g.big_bet
                if self.open_pair and legal.choices and size < g.big_bet and to == big_to:
                    # an open-pair big bet or raise: from now on every raise is big
                    self.bet_sz = size = g.big_bet
                    nominal = size if (self.nraises == 0 and cur < size) else cur + size
                elif legal.choices and g.freeze_multiple and to > cur + size:
                    self.frozen = True  # a freeze bet: call or fold only from now on
                full_inc = size  # what a full raise adds
                full = to >= nominal
                if (not full and g.half_bet_reopens and self.nraises > 0
                        and self.stack[p] == 0 and 2 * inc >= size):
                    full = True  # casino: an all-in of half a bet or more is a raise
            else:
                if sysc in (SYS_NO, SYS_POT):
                    base, full_inc = g.open_min, self.min_raise
                else:  # spread, last bet, fixed amounts: any legal amount is a full raise
                    base = full_inc = g.amounts[0] if sysc == SYS_AMOUNTS else g.min_bet
                full = inc >= full_inc or (self.nraises == 0 and cur < base <= to)
            self.cur = to
            self.top = p
            self.show_first = p
            if self.bet_rounds == 1 and self.opener < 0:
                self.opener = p
            self.need_openers = False
            need, can_raise, folded, stack = self.need, self.can_raise, self.folded, self.stack
            if full:
                if sysc in (SYS_NO, SYS_POT) and inc > self.min_raise:
                    self.min_raise = inc
                if self.nraises > 0:
                    # A raise, not the opening bet: kitty rule, per-player caps, freeze
                    # (000_… «Ограничение на повышение ставок»).
                    self.hand_raises += 1
                    self.raises_by[p] += 1
                self.nraises += 1
                self.aggressor = p
                for q in range(n):
                    if q != p and not folded[q] and stack[q] > 0:
                        need[q] = True
                        can_raise[q] = True
            else:
                if self.nraises == 0:
                    self.short_open = True  # an all-in opening bet below the bet size
                # Casino: short all-ins that together make a full raise reopen the
                # betting for a player who has acted.
                reopen = full_inc if g.cumulative_reopen else 0
                acted_at = self.acted_at
                for q in range(n):
                    if q != p and not folded[q] and stack[q] > 0 and self.bets[q] < to:
                        need[q] = True
                        if cur == 0 or (reopen and to - acted_at[q] >= reopen):
                            can_raise[q] = True  # nobody had faced a bet: all may raise
            need[p] = False
            can_raise[p] = False
            self.acted_at[p] = to
            self.bring_in_pending = False
            self.log.append((seat, _new_tuple(Action, (RAISE_KIND, to, (), -1))))
            self._next_actor(p)
        else:
            raise IllegalAction(f"seat {seat} is in a betting round: {kind!r} is not a "
                                f"betting action (f, cc, cbr)")

    def _out_of_turn(self, p: int, action: Action) -> None:
        """House remedies for an action out of turn (003_… «Нарушение правил»): a fold
        kills the hand («карты нарушителя выходят из игры»); chips bet stay in the pot
        and bind the player when his turn comes («поставленные им фишки остаются в
        банке»); anything else is ignored."""
        seat = self.seat_of[p]
        kind = action.kind
        if self.phase == PH_BET and not self.folded[p] and kind == FOLD_KIND:
            self.irregularities.append((seat, "f out of turn", "hand killed"))
            self._fold(p)
            return
        if (self.phase == PH_BET and not self.folded[p] and kind == RAISE_KIND
                and self.need[p] and self.stack[p] > 0):
            try:
                to = int(action.amount)
            except (TypeError, ValueError):
                raise IllegalAction(f"seat {seat}: bet amount {action.amount!r} is not a "
                                    "number") from None
            chips = min(max(0, to - self.bets[p] - self.pending.get(p, 0)), self.stack[p])
            if chips <= 0:
                raise IllegalAction(f"seat {seat}: a bet out of turn to {to} puts in no chips")
            self.stack[p] -= chips
            self.dead += chips
            self.pending[p] = self.pending.get(p, 0) + chips
            self.log.append((seat, Action("oot", chips)))
            self.irregularities.append((seat, f"cbr {to} out of turn",
                                        f"{chips} in the pot, binding at his turn"))
            return
        self.irregularities.append((seat, f"{kind} out of turn", "ignored"))

    def _pending_action(self, p: int, chips: int) -> tuple[Action, int] | None:
        """What chips bet out of turn count as at the player's turn: (action, chips of
        them that go to the pot); None when they do not reach a call (he completes the
        call or folds, forfeiting them). 003_…: «В случае перебора фишек, требуемых для
        повторения, считают, что нарушитель повысил ставку на излишек»; with no bet
        before him «поставленные им фишки расценивают в качестве ставки и любое
        количество фишек сверх установленного предела конфискуют в банк»."""
        cur = self.cur
        total = self.bets[p] + chips
        if total < cur:
            return None
        if total == cur:
            return Action(CALL_KIND), 0
        lo, hi, choices = self._raise_range(p)
        if not hi or total < lo:
            return Action(CALL_KIND), total - cur  # not a raise: a call, the rest to the pot
        top = max([c for c in choices if c <= total] or [lo]) if choices else min(total, hi)
        return Action(RAISE_KIND, top), total - top

    def _legal_pending(self, p: int, chips: int) -> Legal:
        fixed = self._pending_action(p, chips)
        if fixed is None:
            call = min(self.cur - self.bets[p] - chips, self.stack[p])
            return Legal(_FC, call=call)
        act, _extra = fixed
        if act.kind == RAISE_KIND:
            return Legal((RAISE_KIND,), min_to=act.amount, max_to=act.amount)
        return Legal(_C)

    def _apply_pending(self, p: int, action: Action) -> None:
        """The player's turn after chips he bet out of turn: they bind him."""
        chips = self.pending[p]
        fixed = self._pending_action(p, chips)
        seat = self.seat_of[p]
        if fixed is None:
            if action.kind not in _FC:
                raise IllegalAction(f"seat {seat} bet {chips} out of turn, short of a call: "
                                    "complete the call (cc) or fold (f)")
            del self.pending[p]
            if action.kind == CALL_KIND:
                self.dead -= chips
                self.stack[p] += chips
            self._legal = None
            self._apply_bet(p, action)  # a fold forfeits the chips (they stay in the pot)
            return
        act, extra = fixed
        del self.pending[p]
        self.dead -= chips - extra
        self.stack[p] += chips - extra
        if extra:
            self.log.append((seat, Action("dead", extra)))
        self._legal = None
        self._apply_bet(p, act)

    def _house_fix(self, p: int, action: Action, legal: Legal) -> Action:
        """RULES.md §4 ``house`` remedies for a bad bet; returns the action that counts.

        A raise below the minimum counts as a call and the extra chips go to the pot; a
        bet above the limit counts as the limit and the excess goes to the pot; a short
        opening bet (or completion) is completed to the minimum. A fold with nothing to
        call is accepted as a fold. Dead chips go to the pot as nobody's bet.
        """
        seat = self.seat_of[p]
        if action.kind == FOLD_KIND:
            self.irregularities.append((seat, "fold with nothing to call", "folded"))
            return action
        try:
            to = int(action.amount)
        except (TypeError, ValueError):
            raise IllegalAction(f"seat {seat}: bet amount {action.amount!r} is not a number") \
                from None
        if to != action.amount:
            raise IllegalAction(f"seat {seat}: bet amount {action.amount!r} is not whole chips")
        lo, hi, choices = legal.min_to, legal.max_to, legal.choices
        cur, bets, stack = self.cur, self.bets, self.stack
        to_call = min(cur - bets[p], stack[p])
        if RAISE_KIND in legal.kinds and lo <= to <= hi and (not choices or to in choices):
            return action  # nothing wrong
        opening = cur == 0 or self.nraises == 0  # an opening bet or a completion
        if RAISE_KIND not in legal.kinds:
            if CALL_KIND not in legal.kinds:
                raise IllegalAction(f"seat {seat} cannot bet or raise now")
            fixed, cost, what = Action(CALL_KIND), to_call, "bet above the limit"
        elif to < lo and opening:
            fixed, cost, what = Action(RAISE_KIND, lo), lo - bets[p], "short bet completed"
        elif to < lo:
            fixed, cost, what = Action(CALL_KIND), to_call, "raise below the minimum"
        else:
            top = max([c for c in choices if c <= to] or [lo]) if choices else hi
            fixed, cost, what = Action(RAISE_KIND, top), top - bets[p], "bet above the limit"
        extra = max(0, to - bets[p] - cost) if what != "short bet completed" else 0
        extra = min(extra, stack[p] - cost)
        if extra > 0:
            stack[p] -= extra
            self.dead += extra
            self.log.append((seat, Action("dead", extra)))
        counts = "a call" if fixed.kind == CALL_KIND else f"cbr {fixed.amount}"
        to_pot = f", {extra} to the pot" if extra > 0 else ""
        self.irregularities.append((seat, f"cbr {to}", f"{what}: counts as {counts}{to_pot}"))
        return fixed

    def _fold(self, p: int) -> None:
        """``p`` folds (at his turn, out of turn, or outside a betting round: 000_…
        «Игрок может сделать это в любой момент»)."""
        self.folded[p] = True
        self.live -= 1
        self.need[p] = False
        self.muck_pile.extend(c for c in self.hole[p] if c != UNKNOWN)
        self.log.append((self.seat_of[p], Action(FOLD_KIND)))
        if self.live == 1:
            if self.phase == PH_BET:
                self._end_round()
            self._settle()
            return
        ph = self.phase
        if ph == PH_BET:
            if self.actor == p:
                self._next_actor(p)
            elif not any(self.need):
                self._end_round()
                self._advance()
        elif ph == PH_DRAW and self.actor >= 0:
            self._continue_draw()
        elif ph in (PH_EXPOSE, PH_DECLARE, PH_CHOOSE) and self.actor == p:
            self._turn_over()

    def _next_actor(self, p: int) -> None:
        n, need = self.n, self.need
        q = p
        for _ in range(n):
            q += 1
            if q == n:
                q = 0
            if need[q]:
                self.actor = q
                return
        self._end_round()
        self._advance()

    def _end_round(self) -> None:
        if self.cur > 0 and not self.prog.reset_each_round:
            self.lb_open = max(self.lb_open, self.cur)  # last-bet limit keeps growing
        if self.need_openers and self.phase == PH_BET and self.live > 1:
            self.passed = True  # nobody could or would open: the deal is passed
        elif (self.phase == PH_BET and self.bet_rounds == 1 and self.cur == 0
              and self.live > 1 and self.prog.void_if_all_check):
            # 000_…: «Если все игроки пропустили ход в первом круге ставок, игра
            # аннулируется и завершается»: the pot waits for the next deal.
            self.passed = True
        self.need_openers = False
        if self.pending:  # chips bet out of turn by a player whose turn never came
            self.pending = {}
        if self.cur > 0 and self.top >= 0:
            self.called = self.top
        elif self.phase == PH_BET:
            self.called = -1
        self.bets = [0] * self.n
        self.cur = 0
        self.bring_in_pending = False
        self.phase = PH_NONE

    def _start_bet(self, step: BetStep) -> bool:
        """Set up a betting round; False when nobody can bet (round skipped)."""
        g, n = self.prog, self.n
        folded, stack, bets = self.folded, self.stack, self.bets
        first = step.opener
        self.bet_sz = bet_size(g, step.size, step.round_no)
        self.bet_sz_ante = step.size == SIZE_ANTE
        self.raises_by = [0] * n
        self.acted_at = [0] * n
        self.short_open = False
        self.frozen = False
        self.check_raise_ok = step.check_raise
        self.checked = [False] * n
        self.check_ok = step.check
        self.open_pair = step.open_pair and self._open_pair_showing()
        cur = max(bets)
        self.cur = cur
        self.top = bets.index(cur) if cur else -1
        self.aggressor = -1
        if g.sys == SYS_FIXED:
            self.min_raise = self.bet_sz
            self.nraises = _forced_raises(bets, self.bet_sz) if cur else 0
        else:
            self.min_raise = max(g.open_min, cur)
            self.nraises = max(1, _forced_raises(bets, g.open_min)) if cur > 0 else 0
        need = [not folded[p] and stack[p] > 0 for p in range(n)]
        self.can_raise = [True] * n
        self.bring_in_pending = False
        start = 0
        if first == OPEN_LEFT_OF_BLINDS:
            blinds = self._blinds
            mx = max(blinds) if blinds else 0
            if mx:
                last = max(i for i in range(n) if blinds[i] == mx)
                start = (last + 1) % n
        elif first == OPEN_BRING_IN:
            start = self.bring_in_pos = self._bring_in_position()
        elif first in (OPEN_HIGH_SHOWING, OPEN_LOW_SHOWING):
            start = self._showing_first(first == OPEN_LOW_SHOWING)
        elif first == OPEN_OPENER:
            start = self.opener if self.opener >= 0 else 0
        elif first == OPEN_LEFT_OF_ANTES:  # left of the last ante payer, from the dealer
            antes = self._antes
            order = [n - 1, *range(n - 1)]
            payers = [q for q in order if antes[q]]
            start = (payers[-1] + 1) % n if payers else 0
        # The showdown starts with the opener of the last betting round (or its last
        # bettor/raiser), even when nobody could bet in it.
        self.show_first = start
        active = sum(need)
        if active == 0:
            self.need = need
            return False
        if active == 1:
            p = need.index(True)
            if bets[p] >= cur:
                self.need = [False] * n
                return False
        self.need = need
        if first == OPEN_BRING_IN and g.bring_in > 0 and need[start]:
            self.bring_in_pending = True
        self.bet_rounds += 1
        if self.bet_rounds == 1 and g.openers != "any" and cur == 0:
            self.need_openers = True
            self.openers_rank = (9 if g.openers in ("jacks_or_better", "jacks_or_bobtail")
                                 else _PROGRESSIVE[self.passes % len(_PROGRESSIVE)])
        q = start
        for _ in range(n):
            if need[q]:
                self.actor = q
                self.phase = PH_BET
                return True
            q = (q + 1) % n
        return False

    def _open_pair_showing(self) -> bool:
        for p in range(self.n):
            if not self.folded[p]:
                ranks = [c >> 2 for c, u in zip(self.hole[p], self.isup[p], strict=True)
                         if u and c != UNKNOWN]
                if len(set(ranks)) < len(ranks):
                    return True
        return False

    def _bring_in_position(self) -> int:
        rule = self.prog.bring_in_rule
        best_p, best_key = 0, None
        for p in range(self.n):
            if self.folded[p]:
                continue
            ups = [c for c, u in zip(self.hole[p], self.isup[p], strict=True) if u]
            if not ups:
                continue
            c = ups[0]
            if c == UNKNOWN:
                continue
            # razz: the highest door brings in (ace low, spades highest); else the
            # lowest door brings in (clubs lowest).
            key = ((-(((c >> 2) + 1) % 13), -(c & 3)) if rule == "highest_door"
                   else (c >> 2, c & 3))
            if best_key is None or key < best_key:
                best_p, best_key = p, key
        return best_p

    def _showing_first(self, low: bool) -> int:
        best_p, best_key = 0, None
        for p in range(self.n):
            if self.folded[p]:
                continue
            ups = [c for c, u in zip(self.hole[p], self.isup[p], strict=True) if u]
            if low:
                key = _showing_key_low(ups)
                better = best_key is None or key < best_key
            else:
                key = _showing_key_high(ups, self.prog.showdown.four_flush)
                better = best_key is None or key > best_key
            if better:
                best_p, best_key = p, key
        return best_p

    # ------------------------------------------------------------------ streets
    def _advance(self) -> None:
        """Play the steps from the next one on until someone must act or the hand ends."""
        steps = self.prog.steps
        while True:
            if self.passed:
                self._settle_passed()
                return
            if self.live == 1:
                self._settle()
                return
            self.si += 1
            if self.si >= len(steps):
                self._showdown()
                return
            step = steps[self.si]
            if isinstance(step, DealStep):
                if self.manual:
                    self._owe_deal(step.down, step.up, step.board)
                    if self.phase == PH_DEAL:
                        return
                else:
                    self._deal_auto(step.down, step.up, step.board)
            elif isinstance(step, BetStep):
                if self._start_bet(step):
                    return
                self._end_round()
            elif isinstance(step, DrawStep):
                if self._start_draw(step):
                    return
            elif isinstance(step, FamilyStep):
                self._start_family_step(step)  # the family's hand plays it
                return
            elif self._start_turns(step):
                return

    def _start_turns(self, step: ChooseStep | ExposeStep | DeclareStep) -> bool:
        """Turns of choosing, exposing or declaring; False when nobody has one."""
        n = self.n
        if isinstance(step, ChooseStep):
            self.phase = PH_CHOOSE
            self.simultaneous = False
            self.choose_down = [False] * n
        elif isinstance(step, ExposeStep):
            self.expose_count, self.expose_keep = step.count, step.keep_down
            self.phase = PH_EXPOSE
            self.simultaneous = step.simultaneous
        else:
            self.phase = PH_DECLARE
            self.simultaneous = step.simultaneous
        self.turn_start = len(self.log)
        self.turn_done = [False] * n
        p = self._next_turn()
        if p >= 0:
            self.actor = p
            return True
        self.phase = PH_NONE
        return False

    def _start_draw(self, step: DrawStep) -> bool:
        """A draw; False when nobody draws."""
        self.draw_min, self.draw_max = step.min, step.max
        self.draw_replace = step.replace
        if step.burn and not self.manual:  # burn: face up to the discards
            for _ in range(min(step.burn, len(self.stock) - 1)):
                self.muck_pile.append(self.stock.pop())
        for limit, most in step.max_by_players:
            if self.live <= limit:
                self.draw_max = most
                break
        self.drawn = [False] * self.n
        self.owed = [0] * self.n
        self.thrown = [()] * self.n
        self.phase = PH_DRAW
        p = self._next_drawer(-1)
        if p >= 0:
            self.actor = p
            return True
        self.phase = PH_NONE
        return False

    def _start_family_step(self, step: FamilyStep) -> None:
        """A step of a family of games: the family's hand class overrides this."""
        raise EngineError(f"a {step.family!r} step needs that family's hand "
                          "(pokerarena.engine.program.register_family)")

    def _next_turn(self) -> int:
        for q in range(self.n):
            if not self.folded[q] and not self.turn_done[q]:
                return q
        return -1

    def _declare_choices(self, p: int) -> tuple[int, ...]:
        """High (1), low (2), and both (3) only for a player who makes his hand from more
        than five cards (000_… «Заявить оба расклада можно в игре, где на руках у игрока
        больше пяти карт, из которых он составляет свой окончательный расклад»)."""
        return (1, 2, 3) if len(self.hole[p]) + len(self.board) > 5 else (1, 2)

    def _expose_needed(self, p: int) -> int:
        down = sum(1 for u in self.isup[p] if not u)
        return max(0, min(self.expose_count, down - self.expose_keep))

    def _apply_turn(self, p: int, action: Action) -> None:
        seat = self.seat_of[p]
        kind = action.kind
        if self.phase == PH_CHOOSE:
            if kind not in (CALL_KIND, DOWN_KIND):
                raise IllegalAction(f"seat {seat} takes the next card up (cc) or down (dd), "
                                    f"not {kind!r}")
            choose = self.choose_down
            if choose is not None:
                choose[p] = kind == DOWN_KIND
            if kind == DOWN_KIND:
                # He turns his hole card up first, so he still has one hidden card (000_…
                # «игрок может вскрыть свою «забивную» карту ... и получить пятую карту
                # втемную»).
                flags = self.isup[p]
                for i in range(len(flags)):
                    flags[i] = True
            self.log.append((seat, Action(kind)))
        elif self.phase == PH_EXPOSE:
            if kind != EXPOSE_KIND:
                raise IllegalAction(f"seat {seat} must turn cards up (ex), not {kind!r}")
            need = self._expose_needed(p)
            cards = tuple(action.cards)
            if len(cards) != need or len(set(cards)) != need:
                raise IllegalAction(f"seat {seat} turns up {need} card(s), not {len(cards)}")
            hole, flags = self.hole[p], self.isup[p]
            for c in cards:
                if c not in hole or flags[hole.index(c)] or c == UNKNOWN:
                    raise IllegalAction(f"seat {seat} has no down card {_card_text(c)}")
            for c in cards:
                flags[hole.index(c)] = True
            self.log.append((seat, Action(EXPOSE_KIND, 0, cards)))
        else:
            if kind != DECLARE_KIND:
                raise IllegalAction(f"seat {seat} must declare (dc), not {kind!r}")
            choices = self._declare_choices(p)
            if action.amount not in choices:
                both = " or 3 (both)" if 3 in choices else (
                    "; both only with more than five cards to make a hand from")
                raise IllegalAction(f"seat {seat}: declare 1 (high), 2 (low){both}, "
                                    f"not {action.amount!r}")
            self.declared[p] = int(action.amount)
            self.log.append((seat, Action(DECLARE_KIND, int(action.amount))))
        self.turn_done[p] = True
        self._turn_over()

    def _turn_over(self) -> None:
        """The next player's turn (expose, declare, choose), or the next street."""
        q = self._next_turn()
        if q >= 0:
            self.actor = q
            return
        self.phase = PH_NONE
        self.turn_start = -1
        self._advance()

    def _take(self, k: int, exclude: tuple[int, ...] = ()) -> list[int]:
        stock = self.stock
        # Draw poker: the bottom card of the stock is not dealt; when more cards are
        # needed it is shuffled with the discards (000_… «Нижняя карта колоды не
        # используется»). Split openers are set aside, never reshuffled.
        bottom = 1 if self.prog.dead_bottom_card else 0
        if len(stock) - bottom < k:
            aside = set(exclude)
            for cards in self.split_openers.values():
                aside.update(cards)
            pile = [c for c in self.muck_pile if c not in aside]
            if bottom and stock:
                pile.append(stock.pop(0))
            if len(stock) + len(pile) < k:
                raise EngineError("the deck ran out of cards")
            self.muck_pile = [c for c in self.muck_pile if c in aside]
            fresh = self.rng.permutation(pile).tolist() if pile else []
            stock[:0] = fresh
        out = stock[-k:]
        del stock[-k:]
        return out

    def _deal_auto(self, down: int, up: int, board: int) -> None:
        n = self.n
        per = down + up
        if per:
            live = [p for p in range(n) if not self.folded[p]]
            if len(self.stock) < per * len(live) and not up and not board:
                # Stud: not enough cards for everyone: one shared card to the board.
                board = 1
                per = 0
            if per:
                mask = ((1 << up) - 1) << down
                flags = [False] * down + [True] * up
                stock, hole, isup, log, seat_of = (self.stock, self.hole, self.isup, self.log,
                                                   self.seat_of)
                enough = len(stock) >= per * len(live)
                choose, self.choose_down = self.choose_down, None
                for p in live:
                    if enough:  # _take inlined: the top ``per`` cards of the stock
                        cards = stock[-per:]
                        del stock[-per:]
                    else:
                        cards = self._take(per)
                    hole[p].extend(cards)
                    if choose is not None and choose[p]:  # the up card asked for down
                        isup[p].extend([False] * per)
                        log.append((DEALER, Action(DEAL_HOLE_KIND, 0, tuple(cards), seat_of[p])))
                        continue
                    isup[p].extend(flags)
                    log.append((DEALER, _new_tuple(Action, (DEAL_HOLE_KIND, mask, tuple(cards),
                                                            seat_of[p]))))
        if board:
            cards = self._take(board)
            self.board.extend(cards)
            self.log.append((DEALER, _new_tuple(Action, (DEAL_BOARD_KIND, 0, tuple(cards), -1))))

    def _owe_deal(self, down: int, up: int, board: int) -> None:
        choose, self.choose_down = self.choose_down, None
        for p in range(self.n):
            if not self.folded[p]:
                self.owe_down[p] = down
                self.owe_up[p] = up
                if choose is not None and choose[p]:  # this up card asked for down
                    self.owe_down[p], self.owe_up[p] = down + up, 0
        self.owe_board = board
        if down + up or board:
            self.phase = PH_DEAL
            self.actor = -1

    def _legal_deal(self) -> Legal:
        to = tuple(self.seat_of[p] for p in range(self.n)
                   if self.owe_down[p] + self.owe_up[p] + self.owed[p] > 0)
        return Legal((DEAL_HOLE_KIND, DEAL_BOARD_KIND) if self.owe_board else (DEAL_HOLE_KIND,),
                     deal_to=to, deal_board=self.owe_board)

    def _check_new_cards(self, cards: tuple[int, ...]) -> None:
        seen = set()
        deck = self.prog.deck_list
        for c in cards:
            if c == UNKNOWN:
                continue
            if c in seen or (c in self.seen and not self._reusable(c)):
                raise IllegalAction(f"card {_card_text(c)} was already dealt")
            if c not in deck:
                raise IllegalAction(f"card {_card_text(c)} is not in the {self.prog.variant.deck} "
                                    "deck")
            seen.add(c)

    def _reusable(self, c: int) -> bool:
        """In draw games a discarded or folded card may come back after the discards
        are reshuffled; a card in a live hand or on the board never can."""
        if not self.prog.reshuffles_discards or c in self.board:
            return False
        return not any(c in self.hole[p] for p in range(self.n) if not self.folded[p])

    def _apply_deal(self, action: Action) -> None:
        cards = tuple(action.cards)
        if not cards:
            raise IllegalAction("a deal needs cards")
        if action.kind == DEAL_BOARD_KIND:
            owe = self.owe_board
            if owe == 0 and self.phase == PH_DEAL and not any(self.owe_up) and any(self.owe_down):
                # Stud with too few cards: the last card is one shared board card.
                if len(cards) != 1:
                    raise IllegalAction("a shared stud card is one card")
                self._check_new_cards(cards)
                self.owe_down = [0] * self.n
                owe = 1
            if len(cards) > owe:
                raise IllegalAction(f"the board is owed {owe} card(s), not {len(cards)}")
            self._check_new_cards(cards)
            self.board.extend(cards)
            self.seen.update(c for c in cards if c != UNKNOWN)
            self.owe_board -= len(cards) if self.owe_board else 0
            self.log.append((DEALER, Action(DEAL_BOARD_KIND, 0, cards)))
        else:
            seat = action.target
            if not 0 <= seat < self.n:
                raise IllegalAction(f"no seat {seat} to deal to")
            p = self.pos_of[seat]
            down, up, draw = self.owe_down[p], self.owe_up[p], self.owed[p]
            if len(cards) > down + up + draw:
                raise IllegalAction(f"seat {seat} is owed {down + up + draw} card(s), "
                                    f"not {len(cards)}")
            self._check_new_cards(cards)
            mask = 0
            for i, c in enumerate(cards):
                if draw:
                    draw -= 1
                    faceup = False
                elif down:
                    down -= 1
                    faceup = False
                else:
                    up -= 1
                    faceup = True
                if faceup:
                    mask |= 1 << i
                self.hole[p].append(c)
                self.isup[p].append(faceup)
            self.owe_down[p], self.owe_up[p], self.owed[p] = down, up, draw
            self.seen.update(c for c in cards if c != UNKNOWN)
            self.log.append((DEALER, Action(DEAL_HOLE_KIND, mask, cards, seat)))
        self._after_manual_deal()

    def _after_manual_deal(self) -> None:
        if any(self.owe_down) or any(self.owe_up) or self.owe_board:
            return
        if self.phase == PH_DEAL:
            self.phase = PH_NONE
            self._advance()
        elif self.phase == PH_DRAW:
            self._continue_draw()

    # ------------------------------------------------------------------ draws
    def _next_drawer(self, p: int) -> int:
        for q in range(p + 1, self.n):
            if not self.folded[q] and not self.drawn[q]:
                return q
        return -1

    def _apply_discard(self, p: int, action: Action) -> None:
        seat = self.seat_of[p]
        cards = tuple(action.cards)
        hole = self.hole[p]
        k = len(cards)
        if not min(self.draw_min, len(hole)) <= k <= min(self.draw_max, len(hole)):
            raise IllegalAction(f"seat {seat} may discard {self.draw_min} to "
                                f"{min(self.draw_max, len(hole))} cards, not {k}")
        # ``??`` entries are distinct unknown cards (as in dealing): only known cards can
        # repeat.
        known = [c for c in cards if c != UNKNOWN]
        if len(set(known)) != len(known):
            raise IllegalAction(f"seat {seat} discards the same card twice")
        idx: list[int] = []
        unknown = [i for i, c in enumerate(hole) if c == UNKNOWN]
        # Known cards first: one held leaves its place; one not held was one of the
        # unknown cards. Then each ``??`` is a different one of the unknown cards left.
        for c in known:
            if c in hole:
                idx.append(hole.index(c))
            elif unknown:
                idx.append(unknown.pop())
            else:
                raise IllegalAction(f"seat {seat} does not hold {_card_text(c)}")
        n_unknown = k - len(known)
        if n_unknown > len(unknown):
            raise IllegalAction(f"seat {seat} discards {n_unknown} unknown card(s) but holds "
                                f"{''.join(map(_card_text, hole))}")
        idx.extend(unknown.pop() for _ in range(n_unknown))
        if self.manual:
            # A known card from an unknown place must not be live elsewhere; in draw games a
            # mucked card may have come back with the reshuffled discards (as in dealing).
            self._check_seen_discards(tuple(c for c in known if not self._reusable(c)), hole)
        # Splitting openers (RULES.md §3 draw): an opener whose discard breaks up his
        # openers declares it; the log marks the discard (amount 1) for everyone to see.
        split = (p == self.opener and k > 0 and self.openers_rank >= 0
                 and UNKNOWN not in hole and self._opens(hole))
        for i in sorted(idx, reverse=True):
            del hole[i]
            del self.isup[p][i]
        split = split and not self._opens(hole)
        thrown = tuple(c for c in cards if c != UNKNOWN)
        self.drawn[p] = True
        self.log.append((seat, Action(DISCARD_KIND, 1 if split else 0, cards)))
        if split:
            self.split_openers[seat] = thrown
        if self.manual:
            self.seen.update(thrown)
        self.muck_pile.extend(thrown)
        self.owed[p] = k if self.draw_replace else 0
        self.thrown[p] = thrown
        self._continue_draw()

    def _opens(self, cards: list[int]) -> bool:
        """True when ``cards`` hold the openers this deal needed."""
        return _has_openers(cards, self.openers_rank) or (
            self.prog.openers == "jacks_or_bobtail" and _has_bobtail(cards))

    def _check_seen_discards(self, cards: tuple[int, ...], hole: list[int]) -> None:
        for c in cards:
            if c != UNKNOWN and c not in hole and c in self.seen:
                raise IllegalAction(f"card {_card_text(c)} was already dealt elsewhere")

    def _continue_draw(self) -> None:
        p = self._next_drawer(-1)
        if p >= 0:
            self.actor = p
            return
        if any(self.owed):
            if self.manual:
                self.actor = -1
                return
            # Everyone has discarded: the replacements are dealt in turn (as PHH records
            # them); a player never gets his own discards back from a reshuffle.
            for q in range(self.n):
                k = self.owed[q]
                if k:
                    new = self._take(k, exclude=self.thrown[q])
                    self.hole[q].extend(new)
                    self.isup[q].extend([False] * k)
                    self.owed[q] = 0
                    self.log.append((DEALER, Action(DEAL_HOLE_KIND, 0, tuple(new),
                                                    self.seat_of[q])))
        self.phase = PH_NONE
        self._advance()

    # ------------------------------------------------------------------ showdown
    def _showdown(self) -> None:
        self.went_to_showdown = True
        if not self.prog.manual_show:
            self._settle()
            return
        self.phase = PH_SHOW
        self._show_order = self.showdown_order()
        self._next_shower()

    def _next_shower(self) -> None:
        for p in self._show_order:
            if not self.shown[p] and not self.mucked[p]:
                self.actor = p
                return
        self._settle()

    def _apply_show(self, p: int, action: Action) -> None:
        seat = self.seat_of[p]
        cards = tuple(action.cards)
        hole = self.hole[p]
        if cards:
            # Unknown cards (PHH "??") in a show are distinct cards nobody names.
            known = [c for c in hole if c != UNKNOWN]
            named = [c for c in cards if c != UNKNOWN]
            missing = [c for c in known if c not in named]
            if len(missing) > len(cards) - len(named) or len(cards) > len(hole):
                raise IllegalAction(f"seat {seat} shows {''.join(map(_card_text, cards))} but "
                                    f"holds {''.join(map(_card_text, hole))}")
            extra = [c for c in named if c not in known]
            n_unknown = len(hole) - len(known)
            if len(extra) > n_unknown or len(named) != len(set(named)):
                raise IllegalAction(f"seat {seat} shows {''.join(map(_card_text, cards))} but "
                                    f"holds {''.join(map(_card_text, hole))}")
            self._check_new_cards(tuple(extra))
            it = iter(extra)
            for i, c in enumerate(hole):
                if c == UNKNOWN:
                    nxt = next(it, None)
                    if nxt is not None:
                        hole[i] = nxt
            self.seen.update(extra)
            self.shown[p] = True
        else:
            if self.phase != PH_SHOW:
                raise IllegalAction(f"seat {seat} can only muck at the showdown")
            self.mucked[p] = True
        self.log.append((seat, Action(SHOW_KIND, 0, cards)))
        if self.phase == PH_SHOW:
            self._next_shower()

    def finish_showdown(self) -> None:
        """Show every hand still owed at a manual showdown (PHH files may omit them)."""
        if self.phase == PH_SHOW and not self.over:
            for p in list(self._show_order):
                if not self.shown[p] and not self.mucked[p]:
                    self.shown[p] = True
            self._settle()

    # ------------------------------------------------------------------ settlement
    def _settle_passed(self) -> None:
        """Nobody opened: the pot (antes and any carried pot) waits for the next deal."""
        self._unprotect()
        n = self.n
        self.phase = PH_OVER
        self.actor = -1
        carry = sum(self.committed) + self.dead
        stacks: list[Any] = [0] * n
        deltas: list[Any] = [0] * n
        for p in range(n):
            stacks[self.seat_of[p]] = self.stack[p]
            deltas[self.seat_of[p]] = self.stack[p] - self.start[p]
        self.committed = [0] * n
        self.bets = [0] * n
        self.dead = 0
        self.over = True
        self._result = HandResult(deltas, stacks, [], {}, passed=True, carry=carry)

    def _declared_winners(self, claim: list[int],
                          values: dict) -> tuple[list[int] | None, list[int] | None]:
        """High and low winners after a declaration: each half among those who declared
        it; a player who declared both and fails to win or tie either gets nothing."""
        decl = self.declared
        contenders = list(claim)
        while True:
            hi_c = [p for p in contenders if decl[p] & 1]
            lo_c = [p for p in contenders if decl[p] & 2]
            highs, _ = _best(hi_c, values, True, False)
            _, lows = _best(lo_c, values, False, True)
            losers = [p for p in contenders if decl[p] == 3
                      and (p not in (highs or ()) or p not in (lows or ()))]
            if not losers:
                break
            contenders = [p for p in contenders if p not in losers]
        if not highs and not lows:  # everyone who declared both failed: cards speak high
            highs, _ = _best(claim, values, True, False)
        return highs, lows

    def _pay_bonuses(self, values: dict) -> dict[int, int]:
        """RULES.md §2 ``bonus``: a hand shown down at or above the bonus hand is paid
        ``bonus_multiplier`` x the big bet by every other player (what they have left)."""
        g = self.prog
        threshold = g.scorer.bonus_threshold(g.bonus)
        if threshold is None:
            return {}
        # «в три — пять раз превышающей максимальную ставку»: the maximum bet is the big
        # bet in fixed limit; the agreed maximum in spread, fixed-amount and last-bet
        # limits; no limit and pot limit have none, so the big bet stands in.
        top = g.max_bet if g.sys in (SYS_SPREAD, SYS_AMOUNTS, SYS_LASTBET) else g.big_bet
        amount = g.bonus_multiplier * top
        paid: dict[int, int] = {}
        for p, (hv, _lv) in values.items():
            if hv is None or hv < threshold:
                continue
            for q in range(self.n):
                if q != p:
                    pay = min(amount, self.stack[q])
                    self.stack[q] -= pay
                    self.stack[p] += pay
                    paid[p] = paid.get(p, 0) + pay
            self.log.append((self.seat_of[p], Action("bonus", paid.get(p, 0))))
        return paid

    def _priority(self) -> list[int]:
        n = self.n
        order = list(range(n))
        if self.prog.odd_chip == "called" and self.called >= 0:
            order.remove(self.called)
            order.insert(0, self.called)
        return order

    def _split(self, amount: int, winners: list[int], prio: list[int] | None,
               got: dict[int, Any]) -> None:
        k = len(winners)
        if k == 1:
            p = winners[0]
            got[p] = got.get(p, 0) + amount
            return
        if self.prog.odd_chip == "fractional" and amount % k:
            part = Fraction(amount, k)
            for p in winners:
                got[p] = got.get(p, 0) + part
            return
        share, rem = divmod(amount, k)
        ordered = sorted(winners, key=(prio or self._priority()).index)
        for i, p in enumerate(ordered):
            got[p] = got.get(p, 0) + share + (1 if i < rem else 0)

    def _settle(self) -> None:
        self._unprotect()
        n = self.n
        self.phase = PH_OVER
        self.actor = -1
        folded = self.folded
        contrib = list(self.committed)
        dead = self.dead
        if not self.prog.ante_trimming:
            for p in range(n):
                contrib[p] -= self.antes[p]
                dead += self.antes[p]
        # Uncalled chips go back.
        srt = sorted(contrib)
        top_amt, second = srt[-1], (srt[-2] if n > 1 else 0)
        if top_amt > second:
            p = contrib.index(top_amt)
            self.stack[p] += top_amt - second
            contrib[p] = second
        alive = [p for p in range(n) if not folded[p]]
        pots: list[Pot] = []
        levels = sorted({contrib[p] for p in alive})
        if len(levels) == 1:  # no side pots: everything (and the dead chips) in one pot
            amount = sum(contrib) + dead
            if amount:
                pots.append(Pot(amount, list(alive), kind="main"))
            levels = []
        prev = 0
        for i, level in enumerate(levels):
            amount = sum(min(c, level) - min(c, prev) for c in contrib)
            if i == len(levels) - 1:
                amount += sum(max(0, c - level) for c in contrib)
            if i == 0:
                amount += dead
            elig = [p for p in alive if contrib[p] >= level]
            prev = level
            if amount:
                pots.append(Pot(amount, elig, kind="main" if not pots else "side"))
        if not pots and dead:
            pots.append(Pot(dead, alive))
        rake = 0
        g = self.prog
        if g.rake_percent and (self.went_to_showdown or not g.rake_showdown_only):
            total = sum(pot.amount for pot in pots)
            rake = int(total * g.rake_percent / 100)
            if g.rake_cap is not None:
                rake = min(rake, g.rake_cap)
            left = rake
            for pot in pots:  # taken from the main pot first
                take = min(left, pot.amount)
                pot.amount -= take
                left -= take
        self.rake = rake
        kitty = 0
        if g.kitty_unit and self.hand_raises > 1 and pots:
            kitty = min(g.kitty_unit, pots[0].amount)  # one unit from a pot with 2+ raises
            pots[0].amount -= kitty
        self.kitty = kitty
        showdown_info: dict[int, tuple] = {}
        values: dict[int, tuple[Any, Any]] = {}
        wilds: dict[int, tuple[int, ...] | None] = {}
        prio: list[int] | None = None  # the odd-chip order, found when a split needs it
        scorer = g.scorer
        board = self.board
        # Plain high hands of 5-7 known cards: the evaluator's table lookup directly
        # (the same value Scorer.high gives).
        fast = scorer._fast if scorer._fast is not False else scorer._fast_tables()
        plain = (fast is not None and not scorer.omaha and scorer._low_name is None
                 and (not board or max(board) < 52))  # no unknown card or joker on board
        board_key = -1
        for pot in pots:
            elig = pot.eligible
            claim = [p for p in elig if not self.mucked[p]] or elig
            got: dict[int, Any] = {}
            if len(claim) == 1:
                got[claim[0]] = pot.amount
            else:
                for p in claim:
                    if p not in values:
                        hole = self.hole[p]
                        if (plain and 5 <= len(hole) + len(board) <= 7 and hole
                                and max(hole) < 52):
                            if board_key < 0:
                                ck = fast.card_keys
                                board_key = sum([ck[c] for c in board])
                            wilds[p] = None
                            values[p] = (_high_with_board(hole, board_key, board, fast), None)
                            continue
                        if UNKNOWN in hole or UNKNOWN in board:
                            raise EngineError(f"showdown: the cards of seat {self.seat_of[p]} "
                                              "are not known")
                        wild = (positional_wilds(scorer.spec.wild, hole, self.isup[p],
                                                 board) if scorer.positional else None)
                        wilds[p] = wild
                        values[p] = (scorer.high(hole, board, wild),
                                     scorer.low(hole, board, wild))
                if any(self.declared):
                    highs, lows = self._declared_winners(claim, values)
                else:
                    highs, lows = _best(claim, values, scorer.spec.high is not None,
                                        scorer.spec.low is not None)
                if highs and lows:
                    low_amt = pot.amount // 2
                    self._split(pot.amount - low_amt, highs, prio, got)
                    self._split(low_amt, lows, prio, got)
                else:
                    self._split(pot.amount, highs or lows or claim, prio, got)
            for p, v in got.items():
                self.stack[p] += v
            pot.winners = {self.seat_of[p]: v for p, v in got.items()}
            pot.eligible = [self.seat_of[p] for p in elig]
        bonuses = self._pay_bonuses(values) if g.bonus != "none" and values else {}
        for p, (hv, lv) in values.items():  # described on first use (see HandResult)
            showdown_info[self.seat_of[p]] = (tuple(self.hole[p]), hv, lv, wilds.get(p))
        stacks: list[Any] = [0] * n
        deltas: list[Any] = [0] * n
        fractional = g.odd_chip == "fractional"
        seat_of, stack, start = self.seat_of, self.stack, self.start
        for p in range(n):
            s = seat_of[p]
            st = stack[p]
            if fractional and isinstance(st, Fraction) and st.denominator == 1:
                st = int(st)
                stack[p] = st
            stacks[s] = st
            deltas[s] = st - start[p]
        self.committed = [0] * n
        self.bets = [0] * n
        self.over = True
        self._result = HandResult(deltas, stacks, pots, showdown_info, rake=rake,
                                  went_to_showdown=self.went_to_showdown and len(alive) > 1,
                                  scorer=scorer, kitty=kitty,
                                  bonuses={self.seat_of[p]: v for p, v in bonuses.items()})


register_family("betting", Hand)
