"""The table loop of a game family (painted poker, ...): whole games between bots under
the table's rules, timed.

Any family's hand has ``to_act``, ``legal_actions()``, ``apply(action, seat)`` (an
illegal action raises and changes nothing) and ``observation(seat)``; its bots have
``start_game``, ``act`` and ``end_game``. :class:`FamilyGuard` is the family's fault
guard: a bot that raises, stalls past its decision time, answers what the family cannot
read (garbage) or an action the rules refuse (illegal) has the fault recorded, and the
guard's fallback acts for it: the first legal action (every family lists its legal
actions, so this needs nothing of the family). Built-in bots are called inline and
timed; any other bot (HTTP) runs on a worker thread that is abandoned past the limit.
A bot with ``max_faults`` faults is removed: the fallback acts for it from then on.
"""

from __future__ import annotations

import contextlib
import dis
import inspect
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from pokerarena.bots.adapters.family_http import FamilyAnswerError


@dataclass
class FamilyFault:
    """One fault: the game (``-1``: outside a game), seat, bot label, kind, detail."""

    game_no: int
    seat: int
    bot: str
    kind: str
    detail: str = ""


class _Stalled(Exception):
    pass


_NOOP_BODIES = ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)])


def does_nothing(fn: Any) -> bool:
    """True when ``fn`` is a plain Python function or method whose body is empty (a
    docstring, ``pass``): a family bot's default ``start_game``/``end_game``. Calling it
    cannot change a game or raise, so the table need not build the view it would get
    (a whole observation per seat, twice a game)."""
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is None or code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE
                                         | inspect.CO_ASYNC_GENERATOR):
        return False
    ops = [(i.opname, i.argval) for i in dis.get_instructions(code)
           if i.opname not in ("RESUME", "NOP", "CACHE")]
    return ops in _NOOP_BODIES


def _call_on_thread(fn: Callable[..., Any], arg: Any, timeout: float | None) -> Any:
    """``fn(arg)`` on a daemon thread, waited for at most ``timeout`` seconds (a stuck
    call is left behind)."""
    out: queue.SimpleQueue = queue.SimpleQueue()

    def run() -> None:
        try:
            out.put((True, fn(arg)))
        except BaseException as exc:  # noqa: BLE001 - reported to the table
            out.put((False, exc))

    threading.Thread(target=run, name="family-bot", daemon=True).start()
    try:
        ok, value = out.get(timeout=timeout)
    except queue.Empty:
        raise _Stalled from None
    if ok:
        return value
    raise value


@dataclass
class FamilyGuard:
    """A bot under the table's rules; its faults go to ``faults`` (shared list)."""

    bot: Any
    label: str
    decision_time: float | None = 5.0
    max_faults: int | None = None
    faults: list[FamilyFault] = field(default_factory=list)
    decisions: int = 0
    think_time: float = 0.0
    count: int = 0
    removed: bool = False

    def __post_init__(self) -> None:
        self.isolate = not type(self.bot).__module__.startswith("pokerarena.games.")
        self._silent = {name for name in ("start_game", "end_game")
                        if not callable(fn := getattr(self.bot, name, None)) or
                        (not self.isolate and does_nothing(fn))}

    def wants(self, name: str) -> bool:
        """Whether :meth:`hook` would call the bot's ``name`` now: not for a removed bot,
        one without the hook, or a built-in one whose hook does nothing."""
        return not self.removed and name not in self._silent

    def record(self, game_no: int, seat: int, kind: str, detail: str) -> None:
        self.faults.append(FamilyFault(game_no, seat, self.label, kind, detail[:300]))
        self.count += 1
        if self.max_faults is not None and self.count >= self.max_faults and not self.removed:
            self.removed = True
            self.faults.append(FamilyFault(game_no, seat, self.label, "removed",
                                           f"{self.count} faults"))

    def _call(self, fn: Callable[..., Any], arg: Any) -> Any:
        return _call_on_thread(fn, arg, self.decision_time) if self.isolate else fn(arg)

    def hook(self, name: str, view: Any, game_no: int, seat: int) -> None:
        """Forward ``start_game``/``end_game`` (a failure is a fault, nothing more)."""
        fn = getattr(self.bot, name, None)
        if self.removed or not callable(fn):
            return
        try:
            self._call(fn, view)
        except _Stalled:
            self.record(game_no, seat, "timeout", f"{name} took too long")
        except Exception as exc:  # noqa: BLE001 - any bot error is a fault
            self.record(game_no, seat, "exception", f"{name}: {type(exc).__name__}: {exc}")

    def decide(self, view: Any, game_no: int, seat: int) -> tuple[Any, float | None]:
        """The bot's answer (None after a fault, recorded) and the seconds it took
        (None when it was not asked: a removed bot)."""
        if self.removed:
            return None, None
        t0 = perf_counter()
        try:
            answer = self._call(self.bot.act, view)
        except _Stalled:
            self.record(game_no, seat, "timeout", f"no answer within {self.decision_time}s")
            return None, perf_counter() - t0
        except FamilyAnswerError as exc:
            answer, kind, detail = None, "garbage", str(exc)
        except Exception as exc:  # noqa: BLE001 - any bot error is a fault
            answer, kind, detail = None, "exception", f"{type(exc).__name__}: {exc}"
        else:
            kind = detail = ""
        dt = perf_counter() - t0
        self.decisions += 1
        self.think_time += dt
        if kind != "garbage" and self.decision_time is not None and dt > self.decision_time:
            # late, whatever came back: an HTTP bot's own deadline is the decision time,
            # so its client may give up (an exception) a moment before the guard does
            answer, kind, detail = None, "timeout", f"answered after {dt:.3f}s" + (
                f" ({detail})" if detail else "")
        if kind:
            self.record(game_no, seat, kind, detail)
        return answer, dt

    def close(self) -> None:
        """Close the bot (an HTTP connection), best effort."""
        closer = getattr(self.bot, "close", None)
        if callable(closer):
            with contextlib.suppress(Exception):  # closing is best effort
                closer()


_WARM: set[tuple[str, int, tuple[str, ...]]] = set()


def warm_up(game: Any, key: str, bots: Sequence[Any], steps: int) -> None:
    """Throwaway play of ``game`` (identified by ``key``) by ``bots`` (fresh built-in
    ones, one per seat) for up to ``steps`` decisions, once per process and game, seats
    and bot types, outside every time limit: a bot's first decisions compile its numba
    kernels (seconds on a loaded machine), which must not count as its thinking time."""
    ident = (key, len(bots), tuple(type(b).__qualname__ for b in bots))
    if ident in _WARM:
        return
    hand = game.new_hand(0, len(bots), 0)
    for s, b in enumerate(bots):
        b.start_game(hand.observation(s))
    for _ in range(steps):
        if hand.is_over:
            break
        s = hand.to_act
        try:
            hand.apply(bots[s].act(hand.observation(s)), s)
        except Exception:  # noqa: BLE001 - a warm-up's mistakes are nobody's faults
            hand.apply(hand.legal_actions()[0], s)
    _WARM.add(ident)


OnDecision = Callable[[int, float], None]
"""``on_decision(seat, seconds)``: a decision the bot in ``seat`` was asked for."""


def play_family_game(game: Any, guards: Sequence[FamilyGuard], seed: int,
                     game_no: int, dealer: int | None = None,
                     on_decision: OnDecision | None = None,
                     series_game: int | None = None) -> tuple[Any, list[bool]]:
    """One whole game, seat ``i`` played by ``guards[i]``; the finished hand and, per
    entry of its log, whether the guard's fallback made that move (a fault).
    ``series_game``: the game's position in a series, for a family that chains its
    games (``Family.extra["next_dealer"]``); None for the others."""
    if series_game is None:
        hand = game.new_hand(seed, len(guards), dealer)
    else:
        hand = game.new_hand(seed, len(guards), dealer, series_game=series_game)
    for s, g in enumerate(guards):
        if g.wants("start_game"):
            g.hook("start_game", hand.observation(s), game_no, s)
    by_fault: list[bool] = []
    while not hand.is_over:
        s = hand.to_act
        guard = guards[s]
        answer, seconds = guard.decide(hand.observation(s), game_no, s)
        if seconds is not None and on_decision is not None:
            on_decision(s, seconds)
        fault = answer is None
        if not fault:
            try:
                hand.apply(answer, s)
            except Exception as exc:  # noqa: BLE001 - the rules refused it: illegal
                guard.record(game_no, s, "illegal", f"{answer!r}: {exc}")
                fault = True
        if fault:
            hand.apply(hand.legal_actions()[0], s)
        by_fault.append(fault)
    for s, g in enumerate(guards):
        if g.wants("end_game"):
            g.hook("end_game", hand.observation(s), game_no, s)
    return hand, by_fault


__all__ = ["FamilyFault", "FamilyGuard", "OnDecision", "does_nothing", "play_family_game",
           "warm_up"]
