"""What a bot sees: :class:`SeatView`, and :class:`ViewMaker`, which builds the views of
one hand cheaply (compiled with mypyc when the native build is installed: see
:mod:`pokerarena.native`).

A ``SeatView`` is a plain, self-contained copy of what its seat may see (the engine's
:class:`~pokerarena.engine.Observation` keeps a reference to the whole hand, which would
let a bot read the deck; a ``SeatView`` never does). Other seats' down cards and the
cards they discard (except knock poker's face-up discards) are
:data:`~pokerarena.engine.UNKNOWN` in it.

A view's ``game`` (the game's summary, :meth:`~pokerarena.engine.Game.describe`) also
holds ``game_key``: a short digest of the game's canonical key (``Game.key``: the
option-transformed variant, the betting system and every option; :func:`game_digest`),
by which a bot finds what it keeps per game (an option sweep keeps the variant id).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Final

from pokerarena.bots.seat_view import SeatView
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    FOLD_KIND,
    RAISE_KIND,
    Action,
    EngineError,
)
from pokerarena.engine.hand import PHASE_NAMES, Hand
from pokerarena.engine.keys import game_digest, game_info_of, game_of
from pokerarena.engine.visibility import NO_SEAT, owner, seen_by

__all__ = ["SeatView", "ViewMaker", "build_view", "game_digest", "game_info_of",
           "game_of"]


_new: Final = tuple.__new__  # builds a SeatView without the named tuple's keyword handling
_BET_KINDS: Final = frozenset((CALL_KIND, RAISE_KIND, FOLD_KIND, BRING_IN_KIND, "blind", "ante",
                               "pr"))


class ViewMaker:
    """Builds the :class:`SeatView` of any seat of one hand, cheaply and incrementally.

    Each seat's public history is extended with the log entries added since its last
    view (the engine's observation masks them), so a view costs about the same at the
    end of a hand as at its start. The maker refers to the hand: the table keeps it; a
    bot only ever gets the plain views it makes. Both of its paths (``fast``, where the
    game allows it, and the engine's observation) mask the log with the one rule of
    :func:`pokerarena.engine.visibility.seen_by`; ``fast=False`` forces the observation
    path (the tests compare the two).
    """

    __slots__ = ("hand", "hand_no", "match_no", "game_info", "_hist", "_final", "_changed",
                 "_up", "_up_at", "_fast", "_pub", "_own", "_by_seat", "_scanned",
                 "_chips_at", "_chips_si", "_stacks_t", "_bets_t", "_comm_t", "_pot",
                 "_live", "_folded_t", "_board_n", "_board_t")

    def __init__(self, hand: Any, *, hand_no: int = 0, match_no: int = 0,
                 game_info: dict[str, Any] | None = None, fast: bool = True) -> None:
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
        self._fast = fast and _fast_game(hand)
        self._pub: list[tuple[int, Action]] = []
        self._own: dict[int, list[int]] = {}
        self._scanned = 0
        self._by_seat: Any = itemgetter(*hand.pos_of) if self._fast else None
        # The fast path's by-seat tuples, kept while nothing they show can have changed:
        # the chips while only checks were added in the same street (``_chips_at``: log
        # length when checked, ``_chips_si``: the street), the folds while as many seats
        # are live, the board while it has as many cards.
        self._chips_at = -1
        self._chips_si = -2
        self._stacks_t: tuple[Any, ...] = ()
        self._bets_t: tuple[Any, ...] = ()
        self._comm_t: tuple[Any, ...] = ()
        self._pot: Any = 0
        self._live = -1
        self._folded_t: tuple[bool, ...] = ()
        self._board_n = -1
        self._board_t: tuple[int, ...] = ()
        if game_info is None:
            if self._fast:
                self.game_info = game_info_of(hand.game)
        elif "game_key" not in game_info:
            key = getattr(getattr(hand, "game", None), "key", None)
            if key is not None:  # a caller's summary without the key: a copy with it
                self.game_info = {**game_info, "game_key": game_digest(hand.game)}

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
            game = obs.stakes
            if getattr(getattr(self.hand, "game", None), "key", None) is not None:
                game = {**game, "game_key": game_digest(self.hand.game)}
            self.game_info = game
        return _new(SeatView, (
            obs.variant, obs.betting, game, self.hand_no, self.match_no, seat, obs.button,
            obs.players, tuple(obs.hole), up, tuple(obs.board),
            tuple(obs.stacks), tuple(obs.bets), tuple(obs.committed), obs.pot, obs.to_call,
            obs.legal, tuple(hist), tuple(obs.folded), obs.street, obs.phase))

    def _scan(self, length: int) -> None:
        """Extend the public log to ``length`` entries (what the engine's observation
        masks: other seats' down cards dealt and cards discarded)."""
        h: Hand = self.hand
        log = h.log
        pub = self._pub
        own = self._own
        changed = self._changed
        face_up = h.prog.discards_face_up
        for k in range(self._scanned, length):
            entry = log[k]
            kind = entry[1].kind
            if kind in _BET_KINDS or kind == DEAL_BOARD_KIND:
                pub.append(entry)
                continue
            if kind != DEAL_HOLE_KIND or entry[1].face_up:
                changed = k  # _may_turn_up, inlined
            seen = seen_by(entry, NO_SEAT, face_up, False)  # the fast path hides no turn
            pub.append(seen)
            if seen is not entry:
                who = owner(entry)
                mine = own.get(who)
                if mine is None:
                    own[who] = [k]
                else:
                    mine.append(k)
        self._changed = changed
        self._scanned = length

    def _view_fast(self, seat: int) -> SeatView:
        h: Hand = self.hand  # the fast path is for plain engine hands (typed for mypyc)
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
        p = h.pos_of[seat]
        legal = h.legal_actions() if h.actor == p and not h.over else None
        phase = PHASE_NAMES[h.phase]  # Hand.phase_name and Hand.to_call, inlined
        to_call = h.cur - h.bets[p] if phase == "bet" else 0
        by = self._by_seat
        si = h.si
        if self._chips_si != si or not self._only_checks_since(log, length):
            committed = h.committed
            pot: Any = h.dead
            for chips in committed:
                pot += chips
            self._stacks_t, self._bets_t, self._comm_t = by(h.stack), by(h.bets), by(committed)
            self._pot = pot
            self._chips_si = si
        self._chips_at = length
        if h.live != self._live:
            self._folded_t = by(h.folded)
            self._live = h.live
        if len(h.board) != self._board_n:
            self._board_t = tuple(h.board)
            self._board_n = len(h.board)
        game = h.game
        return _new(SeatView, (
            game.variant_id, game.system_name, self.game_info, self.hand_no, self.match_no,
            seat, h.button, h.n, tuple(h.hole[p]), up, self._board_t, self._stacks_t,
            self._bets_t, self._comm_t, self._pot, to_call if to_call > 0 else 0, legal,
            tuple(hist), self._folded_t, si, phase))

    def _only_checks_since(self, log: list[tuple[int, Action]], length: int) -> bool:
        """Whether every log entry since the chips were last read is a check."""
        for k in range(self._chips_at, length):
            act = log[k][1]
            if act.kind != CALL_KIND or act.amount:
                return False
        return True


def _may_turn_up(act: Action) -> bool:
    """Whether a log entry may change which cards are face up (a bet or a board card
    never does, nor a card dealt face down)."""
    kind = act.kind
    if kind in _BET_KINDS or kind == DEAL_BOARD_KIND:
        return False
    return kind != DEAL_HOLE_KIND or bool(act.face_up)


def _fast_game(hand: Any) -> bool:
    """Whether views of ``hand`` may take the fast path: an engine hand of at least two
    seats, of a game where no choice stays hidden for a while (simultaneous expose or
    declare streets: what is hidden then depends on the seat and the moment)."""
    return isinstance(hand, Hand) and hand.n >= 2 and not hand.prog.hides_choices


def build_view(hand: Any, seat: int, *, hand_no: int = 0, match_no: int = 0,
               game_info: dict[str, Any] | None = None, fast: bool = True) -> SeatView:
    """The :class:`SeatView` of ``seat`` in an engine hand (copies; keeps no reference).
    Many views of one hand: :class:`ViewMaker`."""
    return ViewMaker(hand, hand_no=hand_no, match_no=match_no, game_info=game_info,
                     fast=fast).view(seat)


