"""Both sides of the ACPC text protocol (version 2.0.0) for hold'em, limit and no-limit.

- Game definitions (``GAMEDEF`` ... ``END GAMEDEF``) are parsed by :func:`parse_gamedef`
  and mapped onto the ``holdem`` variant by :meth:`GameDef.game` (2-10 players; the
  blinds, first players, raise sizes and raise caps must describe hold'em as the engine
  plays it, which the usual ACPC files do, or the error says which field does not).
- :class:`Dealer` is a dealer: one TCP listener per external seat; ACPC clients connect,
  send ``VERSION:2.0.0`` and receive ``MATCHSTATE:<position>:<hand>:<betting>:<cards>``
  after every action; the seat to act answers with the state plus ``:<action>``. Our
  own bots may fill the other seats. Seats rotate: player ``p`` has position
  ``(p + hand) % players``. An invalid answer is turned into a call (the ACPC dealers'
  habit) and recorded as an ``illegal`` fault; a seat that does not answer in time checks
  or folds (``timeout``); a seat that disconnects checks or folds for the rest of the
  match (``disconnected``).
- :class:`Client` plays one of our bots against any ACPC dealer: each state is replayed
  on the engine (manual dealing, unseen cards unknown), the bot sees an ordinary
  :class:`~pokerarena.bots.base.SeatView`, and its action goes back as ``f``, ``c``,
  ``r`` (limit) or ``r<N>`` (no-limit: ``N`` is the total the player has put in over the
  whole hand).

Positions map onto engine seats one to one, with the button at the last position.
"""

from __future__ import annotations

import contextlib
import random
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pokerarena.arena.faults import Fault, FaultPolicy, GuardedBot, policy_action
from pokerarena.arena.match import EntrantResult, MatchResult, big_blind
from pokerarena.arena.views import ViewMaker, build_view
from pokerarena.arena.warmup import warm_up
from pokerarena.bots.base import MatchInfo, build_summary
from pokerarena.bots.registry import make_bot
from pokerarena.bots.strength.estimate import register_game
from pokerarena.cards import card_str, parse_cards
from pokerarena.engine.actions import (
    CALL_KIND,
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    FOLD_KIND,
    RAISE_KIND,
    UNKNOWN,
    Action,
    IllegalAction,
)
from pokerarena.engine.game import Game
from pokerarena.errors import UserError

VERSION = "VERSION:2.0.0"
LIMIT_STACK = 10**9  # "infinite" stacks of limit games


class AcpcError(ValueError, UserError):
    """A game definition or protocol problem."""


# --------------------------------------------------------------------------- gamedef
@dataclass
class GameDef:
    """An ACPC game definition (fields as in the file; lists by round or position)."""

    betting: str = "limit"
    num_players: int = 2
    num_rounds: int = 4
    stack: list[int] = field(default_factory=list)
    blind: list[int] = field(default_factory=list)
    raise_size: list[int] = field(default_factory=list)
    first_player: list[int] = field(default_factory=list)
    max_raises: list[int] = field(default_factory=list)
    num_suits: int = 4
    num_ranks: int = 13
    num_hole_cards: int = 2
    num_board_cards: list[int] = field(default_factory=list)

    @property
    def limit(self) -> bool:
        """True for limit betting."""
        return self.betting == "limit"

    def stacks(self) -> list[int]:
        """Chips of each position at the start of a hand."""
        if self.limit or not self.stack:
            return [LIMIT_STACK] * self.num_players
        st = list(self.stack)
        return (st + [st[-1]] * self.num_players)[:self.num_players]

    def game(self, **extra: Any) -> Game:
        """The engine game this definition describes (hold'em only); ``extra``: more
        engine options (e.g. ``dealing="manual"``)."""
        n = self.num_players
        if not 2 <= n <= 10:
            raise AcpcError(f"numPlayers = {n}: hold'em is for 2 to 10 players")
        shape = (self.num_rounds, self.num_hole_cards, self.num_suits, self.num_ranks)
        if shape != (4, 2, 4, 13) or list(self.num_board_cards) != [0, 3, 1, 1]:
            raise AcpcError("only hold'em game definitions are supported: numRounds = 4, "
                            "numHoleCards = 2, numBoardCards = 0 3 1 1, numSuits = 4, "
                            "numRanks = 13")
        blind = (list(self.blind) + [0] * n)[:n]
        if len(self.blind) > n and any(self.blind[n:]):
            raise AcpcError(f"blind: {len(self.blind)} blinds for {n} players")
        if not any(blind):
            raise AcpcError("blind: no blinds")
        big = max(blind)
        last_big = max(i for i in range(n) if blind[i] == big)
        fp = list(self.first_player) or [(last_big + 1) % n + 1, 1, 1, 1]
        if len(fp) < 4 or fp[0] - 1 != (last_big + 1) % n or any(f != 1 for f in fp[1:4]):
            raise AcpcError(f"firstPlayer = {' '.join(map(str, fp))}: hold'em needs "
                            f"{(last_big + 1) % n + 1} 1 1 1 with these blinds")
        options: dict[str, Any] = {
            "blinds": (blind[1], blind[0]) if n == 2 else tuple(blind)}
        if self.limit:
            rs = list(self.raise_size)
            if len(rs) < 4 or rs[0] != rs[1] or rs[2] != rs[3]:
                raise AcpcError("raiseSize: hold'em needs the small bet twice, then the big "
                                "bet twice (e.g. 10 10 20 20)")
            if big != rs[0]:
                raise AcpcError(f"blind: the big blind ({big}) must equal the small bet "
                                f"({rs[0]}) in limit hold'em")
            options.update(betting="fixed_limit", small_bet=rs[0], big_bet=rs[2])
            mr = list(self.max_raises)
            if mr:
                if len(mr) < 4 or not mr[0] == mr[1] - 1 == mr[2] - 1 == mr[3] - 1:
                    raise AcpcError("maxRaises: hold'em caps need one raise fewer pre-flop "
                                    "(the big blind counts as the first bet), e.g. 3 4 4 4")
                options.update(max_raises=mr[0], heads_up_max_raises=mr[0])
            else:
                options.update(max_raises="none", heads_up_max_raises="none")
        else:
            options.update(betting="no_limit", min_bet=big)
        return Game("holdem", {**options, **extra})


_KEYS = {"numplayers": "num_players", "numrounds": "num_rounds", "stack": "stack",
         "blind": "blind", "raisesize": "raise_size", "firstplayer": "first_player",
         "maxraises": "max_raises", "numsuits": "num_suits", "numranks": "num_ranks",
         "numholecards": "num_hole_cards", "numboardcards": "num_board_cards"}
_LISTS = {"stack", "blind", "raise_size", "first_player", "max_raises", "num_board_cards"}


def parse_gamedef(text: str) -> GameDef:
    """Parse the text of an ACPC game definition."""
    gd = GameDef()
    inside = False
    seen_betting = False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        low = line.lower()
        if low == "gamedef":
            inside = True
            continue
        if low in ("end gamedef", "endgamedef"):
            break
        if not inside:
            continue
        if low in ("limit", "nolimit"):
            gd.betting = low
            seen_betting = True
            continue
        if low in ("potlimit", "pot limit"):
            raise AcpcError("pot-limit ACPC games are not supported")
        key, eq, value = line.partition("=")
        name = _KEYS.get(key.strip().lower().replace(" ", ""))
        if not eq or name is None:
            raise AcpcError(f"game definition: cannot read {raw.strip()!r}")
        try:
            nums = [int(x) for x in value.split()]
        except ValueError:
            raise AcpcError(f"game definition: {key.strip()} needs integers") from None
        if not nums:
            raise AcpcError(f"game definition: {key.strip()} has no value")
        setattr(gd, name, nums if name in _LISTS else nums[0])
    if not inside:
        raise AcpcError("game definition: no GAMEDEF line")
    if not seen_betting:
        raise AcpcError("game definition: needs 'limit' or 'nolimit'")
    return gd


def load_gamedef(path: str | Path) -> GameDef:
    """Read and parse a game definition file."""
    return parse_gamedef(Path(path).read_text())


# --------------------------------------------------------------------------- states
def _cards(cards: Sequence[int]) -> str:
    return "".join(card_str(c) for c in cards)


def betting_string(hand: Any, limit: bool) -> str:
    """The ACPC betting string of an engine hand (positions = seats)."""
    obs = hand.observation(0)
    n = obs.players
    committed = [0] * n
    bets = [0] * n
    rounds: list[list[str]] = [[]]
    for actor, act in obs.history:
        kind = act.kind
        if actor == DEALER:
            if kind == DEAL_BOARD_KIND:
                rounds.append([])
                bets = [0] * n
            continue
        if kind in ("blind", "ante"):
            committed[actor] += act.amount
            if kind == "blind":
                bets[actor] += act.amount
        elif kind == CALL_KIND:
            committed[actor] += act.amount
            bets[actor] += act.amount
            rounds[-1].append("c")
        elif kind == FOLD_KIND:
            rounds[-1].append("f")
        elif kind == RAISE_KIND:
            committed[actor] += act.amount - bets[actor]
            bets[actor] = act.amount
            rounds[-1].append("r" if limit else f"r{committed[actor]}")
    return "/".join("".join(r) for r in rounds)


def cards_string(hand: Any, viewer: int | None) -> str:
    """The ACPC cards field for ``viewer`` (None: everything, for the dealer's log)."""
    obs = hand.observation(0)
    n = obs.players
    over = hand.is_over
    folded = obs.folded
    shown = over and sum(not f for f in folded) > 1
    holes = []
    for p in range(n):
        cards = hand.cards_of(p)
        visible = viewer is None or p == viewer or (shown and not folded[p])
        holes.append(_cards(cards) if visible and UNKNOWN not in cards else "")
    out = "|".join(holes)
    for actor, act in obs.history:
        if actor == DEALER and act.kind == DEAL_BOARD_KIND:
            out += "/" + _cards(act.cards)
    return out


def match_state(hand: Any, position: int, hand_no: int, limit: bool) -> str:
    """``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` for one position."""
    return (f"MATCHSTATE:{position}:{hand_no}:{betting_string(hand, limit)}:"
            f"{cards_string(hand, position)}")


# --------------------------------------------------------------------------- sockets
class _LineSocket:
    """A socket read line by line with a deadline; lines end with \\n (\\r dropped)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""
        self.closed = False

    def send(self, line: str) -> None:
        if self.closed:
            return
        try:
            self.sock.sendall(line.encode() + b"\r\n")
        except OSError:
            self.closed = True

    def readline(self, timeout: float | None) -> str | None:
        """The next line; None on timeout; raises EOFError when the peer is gone."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf:
            if self.closed:
                raise EOFError
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            except OSError:
                self.closed = True
                raise EOFError from None
            if not chunk:
                self.closed = True
                raise EOFError
            self.buf += chunk
            if len(self.buf) > 1 << 20:
                self.closed = True
                raise EOFError
        line, _, self.buf = self.buf.partition(b"\n")
        return line.rstrip(b"\r").decode(errors="replace")

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.close()


# --------------------------------------------------------------------------- dealer
@dataclass
class _Seat:
    name: str
    line: _LineSocket | None = None
    guard: GuardedBot | None = None
    gone: bool = False


class Dealer:
    """An ACPC dealer; see the module docstring."""

    def __init__(self, gamedef: GameDef, *, hands: int, seed: int, ports: Sequence[int] = (),
                 bots: Sequence[Any] = (), host: str = "127.0.0.1",
                 decision_time: float = 10.0, connect_timeout: float = 60.0,
                 log_path: str | Path | None = None,
                 on_listen: Callable[[list[int]], None] | None = None,
                 policy: FaultPolicy | None = None) -> None:
        self.gd = gamedef
        self.game = gamedef.game()
        self.n = gamedef.num_players
        if len(ports) + len(bots) != self.n:
            raise AcpcError(f"the game is for {self.n} players, got {len(ports)} ports and "
                            f"{len(bots)} bots")
        self.hands = hands
        self.seed = seed
        self.host = host
        self.decision_time = decision_time
        self.connect_timeout = connect_timeout
        self.log_path = log_path
        self.on_listen = on_listen
        self.policy = policy or FaultPolicy(decision_time=decision_time)
        self.requested_ports = list(ports)
        self.bot_specs = list(bots)
        self.ports: list[int] = []
        self._listeners: list[socket.socket] = []
        self.faults: list[Fault] = []
        # Our bots are made (and warmed up) before anyone connects: a fresh machine's
        # first strength-bot decision compiles kernels for seconds, which external bots
        # waiting for their first state must not sit through.
        register_game(self.game)
        ss = np.random.SeedSequence(self.seed)
        self._deal_seq, *bot_seqs = ss.spawn(len(self.bot_specs) + 1)
        self._ours: list[tuple[str, Any]] = []
        for spec, bs in zip(self.bot_specs, bot_seqs, strict=True):
            bot = make_bot(spec, int(bs.generate_state(1)[0])) if isinstance(spec, str) else spec
            label = spec if isinstance(spec, str) else str(getattr(spec, "name", "bot"))
            self._ours.append((label, bot))
        warm_up(self.game, [bot for _, bot in self._ours], self.n)

    def listen(self) -> list[int]:
        """Open the listeners; the actual port numbers (0 asks for a free one)."""
        if self._listeners:
            return self.ports
        for port in self.requested_ports:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((self.host, port))
            except OSError as exc:
                s.close()
                self.close()
                raise AcpcError(f"cannot listen on {self.host}:{port}: {exc}") from None
            s.listen(1)
            self._listeners.append(s)
            self.ports.append(s.getsockname()[1])
        if self.on_listen is not None:
            self.on_listen(list(self.ports))
        return self.ports

    def close(self) -> None:
        """Close the listeners."""
        for s in self._listeners:
            s.close()
        self._listeners = []

    def _accept(self) -> list[_Seat]:
        seats: list[_Seat] = []
        deadline = time.monotonic() + self.connect_timeout
        for lst, port in zip(self._listeners, self.ports, strict=True):
            lst.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                conn, _ = lst.accept()
            except TimeoutError:
                raise AcpcError(f"nobody connected to port {port} within "
                                f"{self.connect_timeout}s") from None
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            line = _LineSocket(conn)
            try:
                hello = line.readline(max(0.01, deadline - time.monotonic()))
            except EOFError:
                hello = None
            if hello is None or not hello.startswith("VERSION:2."):
                line.close()
                raise AcpcError(f"port {port}: expected {VERSION}, got {hello!r}")
            seats.append(_Seat(f"acpc:{port}", line=line))
        return seats

    def run(self) -> MatchResult:
        """Listen, accept every external seat, deal the match; the result."""
        t0 = time.perf_counter()
        self.listen()
        try:
            seats = self._accept()
        finally:
            self.close()
        deal_seq = self._deal_seq
        for label, bot in self._ours:
            seats.append(_Seat(label, guard=GuardedBot(bot, self.policy, label=label,
                                                        faults=self.faults)))
        names = [s.name for s in seats]
        info = self.game.describe()
        for j, s in enumerate(seats):
            if s.guard is not None:
                s.guard.start_match(MatchInfo(0, "holdem", self.game.system_name, info, self.n,
                                              self.hands, tuple(names), j), j)
        results = [EntrantResult(nm) for nm in names]
        rng = np.random.default_rng(deal_seq)
        log_lines: list[str] = []
        conserved = True
        try:
            for h in range(self.hands):
                deltas = self._play_hand(h, seats, rng, log_lines)
                if sum(deltas) != 0:
                    conserved = False
                for p in range(self.n):
                    results[p].net += deltas[p]
                    results[p].samples.append(float(deltas[p]))
        finally:
            for s in seats:
                if s.line is not None:
                    s.line.close()
                if s.guard is not None:
                    s.guard.close()
        for p, s in enumerate(seats):
            results[p].faults = sum(1 for f in self.faults if f.bot == s.name)
            if s.guard is not None:
                results[p].decisions = s.guard.decisions
                results[p].think_time = s.guard.think_time
        if self.log_path is not None:
            score = "|".join(_num(r.net) for r in results)
            log_lines.append(f"SCORE:{score}:{'|'.join(names)}")
            Path(self.log_path).write_text("\n".join(log_lines) + "\n")
        return MatchResult("holdem", self.game.system_name, self.seed, self.hands, False,
                           big_blind(self.game), results, self.faults, conserved,
                           time.perf_counter() - t0)

    def _fault(self, hand_no: int, seat: _Seat, pos: int, kind: str, detail: str) -> None:
        self.faults.append(Fault(hand_no, pos, seat.name, kind, detail[:300]))

    def _play_hand(self, h: int, seats: list[_Seat], rng: np.random.Generator,
                   log_lines: list[str]) -> list[Any]:
        n, limit = self.n, self.gd.limit
        hand = self.game.new_hand(rng, n, self.gd.stacks(), n - 1)
        player_at = [(pos - h) % n for pos in range(n)]  # position -> player
        last_sent: dict[int, str] = {}

        def broadcast() -> None:
            for pos in range(n):
                seat = seats[player_at[pos]]
                if seat.line is not None and not seat.gone:
                    state = match_state(hand, pos, h, limit)
                    last_sent[pos] = state
                    seat.line.send(state)

        views = ViewMaker(hand, hand_no=h)
        for pos in range(n):
            g = seats[player_at[pos]].guard
            if g is not None:
                g.start_hand(views.view(pos))
        broadcast()
        while not hand.is_over:
            actor = hand.to_act
            assert actor is not None  # an unfinished hand always has a seat to act
            pos = actor
            seat = seats[player_at[pos]]
            view = views.view(pos)
            if seat.guard is not None:
                action = seat.guard.act(view)
            else:
                action = self._external_action(h, seat, pos, view, last_sent.get(pos, ""))
            try:
                hand.apply(action)
            except IllegalAction as exc:
                self._fault(h, seat, pos, "illegal", str(exc))
                hand.apply(policy_action(view.legal, view.hole, "call"))
            broadcast()
        for pos in range(n):
            g = seats[player_at[pos]].guard
            if g is not None:
                g.end_hand(build_summary(hand, pos, hand_no=h))
        res = hand.result()
        values = [res.deltas[pos] for pos in range(n)]
        log_lines.append(f"STATE:{h}:{betting_string(hand, limit)}:{cards_string(hand, None)}:"
                         f"{'|'.join(_num(v) for v in values)}:"
                         f"{'|'.join(seats[player_at[pos]].name for pos in range(n))}")
        by_player = [0] * n
        for pos in range(n):
            by_player[player_at[pos]] = values[pos]
        return by_player

    def _external_action(self, h: int, seat: _Seat, pos: int, view: Any, state: str) -> Action:
        legal = view.legal
        if seat.gone or seat.line is None:
            return policy_action(legal, view.hole)
        deadline = time.monotonic() + self.decision_time
        while True:
            try:
                line = seat.line.readline(max(0.0, deadline - time.monotonic()))
            except EOFError:
                seat.gone = True
                self._fault(h, seat, pos, "disconnected", "the connection closed")
                return policy_action(legal, view.hole)
            if line is None:
                self._fault(h, seat, pos, "timeout", f"no answer within {self.decision_time}s")
                return policy_action(legal, view.hole)
            if not line or line[0] in "#;":
                continue
            if not line.startswith(state + ":"):
                if line.startswith("MATCHSTATE:"):
                    continue  # an answer to an older state: ignore it
                self._fault(h, seat, pos, "garbage", f"unexpected line {line[:80]!r}")
                continue
            token = line[len(state) + 1:].strip()
            return self._parse_action(h, seat, pos, view, token)

    def _parse_action(self, h: int, seat: _Seat, pos: int, view: Any, token: str) -> Action:
        legal = view.legal
        call = Action(CALL_KIND)
        if token == "c" or token == "k":
            return call
        if token == "f":
            if FOLD_KIND in legal.kinds:
                return Action(FOLD_KIND)
            self._fault(h, seat, pos, "illegal", "fold with nothing to call: check")
            return call
        if token.startswith("r") and (RAISE_KIND in legal.kinds and legal.max_to > 0):
            if self.gd.limit:
                if token != "r":
                    self._fault(h, seat, pos, "illegal", f"{token!r} in a limit game: raise")
                return Action(RAISE_KIND, legal.min_to)
            try:
                total = int(token[1:])
            except ValueError:
                self._fault(h, seat, pos, "illegal", f"raise {token!r} without a size: call")
                return call
            before = view.committed[pos] - view.bets[pos]
            to = total - before
            if not legal.min_to <= to <= legal.max_to:
                fixed = min(legal.max_to, max(legal.min_to, to))
                self._fault(h, seat, pos, "illegal",
                            f"raise to {total} out of range: raise to {before + fixed}")
                to = fixed
            return Action(RAISE_KIND, to)
        self._fault(h, seat, pos, "illegal", f"action {token!r} not allowed: call")
        return call


def _num(x: Any) -> str:
    return str(int(x)) if float(x).is_integer() else str(float(x))


# --------------------------------------------------------------------------- client
@dataclass
class ParsedState:
    """The fields of a ``MATCHSTATE`` line."""

    position: int
    hand_no: int
    betting: str
    holes: list[list[int] | None]
    boards: list[list[int]]


def parse_match_state(line: str) -> ParsedState:
    """Parse ``MATCHSTATE:<position>:<hand>:<betting>:<cards>``."""
    parts = line.split(":")
    if len(parts) < 5 or parts[0] != "MATCHSTATE":
        raise AcpcError(f"not a match state: {line[:80]!r}")
    try:
        position, hand_no = int(parts[1]), int(parts[2])
    except ValueError:
        raise AcpcError(f"bad position or hand number: {line[:80]!r}") from None
    betting, cards = parts[3], parts[4]
    sections = cards.split("/")
    holes: list[list[int] | None] = []
    for text in sections[0].split("|"):
        holes.append(list(parse_cards(text)) if text else None)
    boards = [list(parse_cards(b)) if b else [] for b in sections[1:]]
    return ParsedState(position, hand_no, betting, holes, boards)


def _tokens(betting: str) -> list[str]:
    """Betting actions and round separators: ``['c', 'r300', '/', 'c', ...]``."""
    out: list[str] = []
    i = 0
    while i < len(betting):
        ch = betting[i]
        if ch in "fc/k":
            out.append(ch)
            i += 1
        elif ch == "r":
            j = i + 1
            while j < len(betting) and betting[j].isdigit():
                j += 1
            out.append(betting[i:j])
            i = j
        else:
            raise AcpcError(f"unknown betting action {ch!r} in {betting!r}")
    return out


def replay_state(game: Game, gd: GameDef, st: ParsedState) -> Any:
    """An engine hand (manual dealing) brought to the state a MATCHSTATE describes."""
    n = gd.num_players
    hand = game.new_hand(0, n, gd.stacks(), n - 1)
    if len(st.holes) != n:
        raise AcpcError(f"{len(st.holes)} hands in a state of a {n}-player game")
    for pos in range(n):
        cards = st.holes[pos] or [UNKNOWN, UNKNOWN]
        hand.apply(Action(DEAL_HOLE_KIND, 0, tuple(cards), pos), DEALER)
    boards = list(st.boards)
    kind = "limit" if gd.limit else "no-limit"
    for tok in _tokens(st.betting):
        _deal_boards(hand, boards)
        if tok == "/":
            continue
        if hand.is_over or hand.to_act is None or hand.to_act == DEALER:
            raise AcpcError(f"betting {st.betting!r}: {tok!r} when no player is to act")
        pos = hand.to_act
        if tok[0] == "r" and (len(tok) > 1) == gd.limit:
            # a limit dealer sends a bare 'r', a no-limit one the amount: the dealer plays
            # another game than our definition describes
            raise AcpcError(f"betting {st.betting!r}: the raise {tok!r} is not one of a "
                            f"{kind} game: the dealer's game does not match the game "
                            "definition")
        try:
            if tok in ("c", "k"):
                hand.apply(Action(CALL_KIND))
            elif tok == "f":
                hand.apply(Action(FOLD_KIND))
            else:
                legal = hand.legal_actions()
                if gd.limit:
                    hand.apply(Action(RAISE_KIND, legal.min_to))
                else:
                    obs = hand.observation(pos)
                    before = obs.committed[pos] - obs.bets[pos]
                    hand.apply(Action(RAISE_KIND, int(tok[1:]) - before))
        except IllegalAction as exc:
            raise AcpcError(f"betting {st.betting!r}: {tok!r} is illegal in the {kind} game "
                            f"of the definition ({exc}): the dealer's game does not match "
                            "it") from None
    _deal_boards(hand, boards)
    return hand


def _deal_boards(hand: Any, boards: list[list[int]]) -> None:
    while not hand.is_over and hand.to_act == DEALER and boards:
        cards = boards.pop(0)
        if not cards:
            break
        hand.apply(Action(DEAL_BOARD_KIND, 0, tuple(cards)), DEALER)


def to_acpc(action: Action, view: Any, limit: bool) -> str:
    """Our action as an ACPC action token."""
    legal = view.legal
    if action.kind == FOLD_KIND and legal is not None and FOLD_KIND in legal.kinds:
        return "f"
    if action.kind == RAISE_KIND and legal is not None and RAISE_KIND in legal.kinds:
        if limit:
            return "r"
        before = view.committed[view.seat] - view.bets[view.seat]
        return f"r{before + action.amount}"
    return "c"


class Client:
    """Plays one of our bots as an ACPC client; see the module docstring."""

    def __init__(self, gamedef: GameDef, bot: Any, *, seed: int = 0,
                 decision_time: float = 10.0, read_timeout: float | None = 600.0) -> None:
        self.gd = gamedef
        self.game = gamedef.game(dealing="manual")
        register_game(gamedef.game())
        self.spec = bot
        b = make_bot(bot, seed) if isinstance(bot, str) else bot
        label = bot if isinstance(bot, str) else str(getattr(bot, "name", "bot"))
        self.faults: list[Fault] = []
        self.guard = GuardedBot(b, FaultPolicy(decision_time=decision_time, hand_time=None),
                                label=label, faults=self.faults)
        warm_up(gamedef.game(), [b], gamedef.num_players)  # before the dealer's clock runs
        self.read_timeout = read_timeout
        self.rng = random.Random(seed)

    def run(self, host: str, port: int) -> dict[str, Any]:
        """Connect, play until the dealer closes the connection; a summary."""
        sock = socket.create_connection((host, port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        line = _LineSocket(sock)
        line.send(VERSION)
        hands = 0
        net = 0
        actions = 0
        current = -1
        limit = self.gd.limit
        self.guard.start_match(MatchInfo(0, "holdem", self.game.system_name,
                                         self.game.describe(), self.gd.num_players, 0))
        try:
            while True:
                try:
                    text = line.readline(self.read_timeout)
                except EOFError:
                    break
                if text is None:
                    raise AcpcError(f"the dealer sent nothing for {self.read_timeout}s")
                if not text or text[0] in "#;" or not text.startswith("MATCHSTATE:"):
                    continue
                st = parse_match_state(text)
                hand = replay_state(self.game, self.gd, st)
                pos = st.position
                if st.hand_no != current:
                    current = st.hand_no
                    self.guard.start_hand(build_view(hand, pos, hand_no=st.hand_no))
                if hand.is_over:
                    hands += 1
                    net += hand.result().deltas[pos]
                    self.guard.end_hand(build_summary(hand, pos, hand_no=st.hand_no))
                    current = -1
                    continue
                if hand.to_act != pos:
                    continue
                view = build_view(hand, pos, hand_no=st.hand_no)
                action = self.guard.act(view)
                line.send(f"{text}:{to_acpc(action, view, limit)}")
                actions += 1
        finally:
            line.close()
            self.guard.close()
        return {"hands": hands, "net": net, "actions": actions,
                "faults": [f.as_dict() for f in self.faults]}
