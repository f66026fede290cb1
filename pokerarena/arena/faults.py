"""Bots under the table's rules: time limits, exceptions, illegal or garbage answers.

:class:`GuardedBot` wraps any bot. Each call runs on the bot's own daemon worker thread
and is waited for at most the decision time limit (and what is left of the hand's time
limit), so a bot that stalls, loops or blocks cannot hang the table: the call is
abandoned (the worker thread is left behind and a fresh one serves the next call), the
fault is recorded and the irregularity policy answers instead. A bot that raises, or
answers something that is not an action (garbage), or an action the rules do not allow
(illegal), gets the same treatment.

The irregularity policy (RULES.md §4) is ``check_fold`` by default: check if free, else
fold (post the bring-in when that is the only choice, stand pat at a draw, show at a
showdown); but a bot over its decision time limit has its hand killed, even where a
check was free (000_… «Если игрок не сделал ход в течение данного времени, его расклад
аннулируется»). ``call`` checks or calls instead (the ACPC dealers' convention).
``protect`` is the disconnection protection of ``002_…``: a bot that does not answer
(time limit, exception, lost connection) in a betting round where it would have to
fold is instead all in for what it has already put in
(:meth:`~pokerarena.engine.hand.Hand.protect`: it keeps its claim on the pot so far,
side pots take later bets); otherwise check/fold. With
``max_faults`` a bot that faults that many times in a match is removed: from then on the
policy acts for it without asking it.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from dataclasses import asdict, dataclass
from time import perf_counter
from typing import Any, Literal

from pokerarena.bots.base import (
    DECLARE_KIND,
    EXPOSE_KIND,
    ActionFormatError,
    BaseBot,
    HandSummary,
    MatchInfo,
    SeatView,
    coerce_action,
    down_cards,
    passive_action,
)
from pokerarena.engine.actions import (
    CALL_KIND,
    DISCARD_KIND,
    FOLD_KIND,
    RAISE_KIND,
    SHOW_KIND,
    Action,
    Legal,
)
from pokerarena.engine.hand import PROTECT_KIND

FAULT_KINDS = ("exception", "timeout", "hand_timeout", "illegal", "garbage", "removed",
               "disconnected")


@dataclass(frozen=True)
class FaultPolicy:
    """The table's rules for bots.

    ``decision_time`` and ``hand_time``: seconds (None: no limit); ``on_fault``:
    ``check_fold``, ``call`` or ``protect``; ``max_faults``: faults in a match after which
    the bot is removed (None: never); ``isolate``: run calls on a worker thread so they can be
    abandoned (without it a slow answer is still replaced by the policy, but only after
    it came); None (the default) isolates every bot except the built-in ones, whose
    thread hand-off would cost more than their decisions.
    """

    decision_time: float | None = 5.0
    hand_time: float | None = 60.0
    on_fault: Literal["check_fold", "call", "protect"] = "check_fold"
    max_faults: int | None = None
    isolate: bool | None = None


@dataclass
class Fault:
    """One recorded fault."""

    hand_no: int
    seat: int
    bot: str
    kind: str
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return asdict(self)


class _Timeout(Exception):
    pass


class _Worker:
    """A daemon thread that runs calls one at a time."""

    def __init__(self, name: str) -> None:
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name=f"bot-{name}", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            item = self.inbox.get()
            if item is None:
                return
            fn, args, out = item
            try:
                out.put((True, fn(*args)))
            except BaseException as exc:  # noqa: BLE001 - report everything to the table
                out.put((False, exc))

    def call(self, fn: Any, args: tuple, timeout: float | None) -> Any:
        out: queue.SimpleQueue = queue.SimpleQueue()
        self.inbox.put((fn, args, out))
        try:
            ok, value = out.get(timeout=timeout)
        except queue.Empty:
            raise _Timeout from None
        if ok:
            return value
        raise value

    def stop(self) -> None:
        self.inbox.put(None)


# Faults where the bot did not answer at all: disconnection protection applies to them.
NO_ANSWER = frozenset(("timeout", "hand_timeout", "exception", "disconnected"))
# Faults over a time limit: the hand is killed (000_… «его расклад аннулируется»).
TIME_FAULTS = frozenset(("timeout", "hand_timeout"))


def policy_action(legal: Legal | None, hole: Any, on_fault: str = "check_fold",
                  down: Any = None, fault: str | None = None) -> Action:
    """The irregularity policy's action (``down``: the seat's face-down cards, for
    turning cards up; ``fault``: the fault's kind, for ``protect``)."""
    if on_fault == "call" and legal is not None and CALL_KIND in legal.kinds:
        return Action(CALL_KIND)
    action = passive_action(legal, tuple(hole), down)
    if fault in TIME_FAULTS and legal is not None and FOLD_KIND in legal.kinds:
        betting = CALL_KIND in legal.kinds or RAISE_KIND in legal.kinds
        if on_fault == "protect" and betting:
            return Action(PROTECT_KIND)
        return Action(FOLD_KIND)  # the time limit kills the hand, even a free check
    if (on_fault == "protect" and action.kind == FOLD_KIND and fault in NO_ANSWER
            and legal is not None and legal.call > 0):
        return Action(PROTECT_KIND)
    return action


def check_legal(action: Action, legal: Legal | None, hole: Any) -> str | None:
    """Why ``action`` is not allowed by ``legal`` (None when it is)."""
    if legal is None:
        return "not this seat's turn"
    kind = action.kind
    if kind not in legal.kinds:
        return f"{kind!r} is not one of {', '.join(legal.kinds)}"
    if kind == RAISE_KIND and not legal.min_to <= action.amount <= legal.max_to:
        rng = f"{legal.min_to}" if legal.min_to == legal.max_to else \
            f"{legal.min_to} to {legal.max_to}"
        return f"cannot bet/raise to {action.amount}: allowed {rng}"
    choices = getattr(legal, "choices", ())
    if kind == RAISE_KIND and choices and action.amount not in choices:
        return f"cannot bet/raise to {action.amount}: allowed {' or '.join(map(str, choices))}"
    if kind == DISCARD_KIND:
        cards = action.cards
        if len(set(cards)) != len(cards) or any(c not in hole for c in cards):
            return "discards cards it does not hold"
        if not legal.discard_min <= len(cards) <= legal.discard_max:
            return f"discards {len(cards)} cards: allowed {legal.discard_min}-{legal.discard_max}"
    if kind == SHOW_KIND and action.cards and sorted(action.cards) != sorted(hole):
        return "shows cards it does not hold"
    if kind == EXPOSE_KIND:
        cards = action.cards
        if len(set(cards)) != len(cards) or any(c not in hole for c in cards):
            return "turns up cards it does not hold"
        if not legal.discard_min <= len(cards) <= legal.discard_max:
            return f"turns up {len(cards)} cards: {legal.discard_min} needed"
    if kind == DECLARE_KIND and action.amount not in (getattr(legal, "choices", ()) or (1, 2, 3)):
        return f"declares {action.amount!r}: 1 high, 2 low, 3 both"
    return None


class GuardedBot:
    """A bot run under a :class:`FaultPolicy`; faults go to ``faults`` (shared list)."""

    def __init__(self, bot: Any, policy: FaultPolicy | None = None, *, label: str = "",
                 faults: list[Fault] | None = None) -> None:
        self.bot = bot
        self.policy = policy or FaultPolicy()
        self.label = label or str(getattr(bot, "name", type(bot).__name__))
        self.faults: list[Fault] = faults if faults is not None else []
        self.count = 0
        self.removed = False
        self.removed_at: int | None = None
        self._worker: _Worker | None = None
        self._hand_no = -1
        self._hand_spent = 0.0
        self._hand_out = False
        self.decisions = 0
        self.think_time = 0.0
        # the last decision: the bot's own answer (None: it gave none) and the fault's kind
        self.last_answer: Any = None
        self.last_fault: str | None = None
        # seconds the bot spent on the last decision (None: it was not asked)
        self.last_seconds: float | None = None
        self._wants: dict[str, bool] = {}
        iso = self.policy.isolate
        if iso is None:
            mod = type(bot).__module__
            iso = not (mod.startswith("pokerarena.bots.") and ".adapters." not in mod)
        self.isolate = iso

    # ------------------------------------------------------------------ plumbing
    def _record(self, hand_no: int, seat: int, kind: str, detail: str) -> None:
        self.faults.append(Fault(hand_no, seat, self.label, kind, detail[:300]))
        self.count += 1
        mf = self.policy.max_faults
        if mf is not None and self.count >= mf and not self.removed:
            self.removed = True
            self.removed_at = hand_no
            self.faults.append(Fault(hand_no, seat, self.label, "removed",
                                     f"{self.count} faults"))

    def _call(self, fn: Any, args: tuple, timeout: float | None) -> Any:
        if not self.isolate:
            return fn(*args)
        if self._worker is None:
            self._worker = _Worker(self.label)
        try:
            return self._worker.call(fn, args, timeout)
        except _Timeout:
            # The worker is stuck in the bot: leave it behind, start afresh next time.
            self._worker = None
            raise

    def close(self) -> None:
        """Stop the worker thread (a stuck one is a daemon and dies with the process)."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
        closer = getattr(self.bot, "close", None)
        if callable(closer):
            with contextlib.suppress(Exception):  # closing is best effort
                closer()

    def _hook(self, name: str, arg: Any, hand_no: int, seat: int) -> None:
        fn = getattr(self.bot, name, None)
        if self.removed or not callable(fn):
            return
        try:
            self._call(fn, (arg,), self.policy.decision_time)
        except _Timeout:
            self._record(hand_no, seat, "timeout", f"{name} took too long")
        except Exception as exc:  # noqa: BLE001 - any bot error is a fault
            self._record(hand_no, seat, "exception", f"{name}: {type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------ hooks
    def wants(self, hook: str) -> bool:
        """False when the bot's ``hook`` does nothing (absent, or BaseBot's no-op), so
        the table can skip building its argument."""
        if self.removed:
            return False
        found = self._wants.get(hook)
        if found is None:
            fn = getattr(type(self.bot), hook, None)
            if fn is None:
                found = callable(getattr(self.bot, hook, None))
            else:
                found = fn is not getattr(BaseBot, hook, None)
            self._wants[hook] = found
        return found

    def start_match(self, info: MatchInfo, seat: int = -1) -> None:
        """Forward ``start_match`` under the time limit."""
        self._hook("start_match", info, -1, seat)

    def start_hand(self, view: SeatView) -> None:
        """Forward ``start_hand`` (resets the hand's time budget)."""
        self._hand_no = view.hand_no
        self._hand_spent = 0.0
        self._hand_out = False
        self._hook("start_hand", view, view.hand_no, view.seat)

    def end_hand(self, summary: HandSummary) -> None:
        """Forward ``end_hand`` under the time limit."""
        self._hook("end_hand", summary, summary.hand_no, summary.seat)

    # ------------------------------------------------------------------ decisions
    def act(self, view: SeatView) -> Action:
        """The bot's action if it is legal and in time, else the policy's;
        ``last_answer``/``last_fault``/``last_seconds`` tell what happened."""
        self.last_answer = None
        self.last_seconds = None
        if self.removed:
            return self._fallback(view, "removed")
        if view.hand_no != self._hand_no:
            self._hand_no = view.hand_no
            self._hand_spent = 0.0
            self._hand_out = False
        elif self._hand_out:
            return self._fallback(view, "hand_timeout")
        pol = self.policy
        limit = pol.decision_time
        hand_left = None
        if pol.hand_time is not None:
            hand_left = pol.hand_time - self._hand_spent
            if hand_left < 0.0:
                hand_left = 0.0
            if limit is None or hand_left < limit:
                limit = hand_left
        if self.isolate:
            return self._act_isolated(view, limit, hand_left)
        # a trusted built-in bot runs inline (no worker hand-off): see ``_call``
        t0 = perf_counter()
        try:
            answer = self.bot.act(view)
        except Exception as exc:  # noqa: BLE001 - any bot error is a fault
            return self._bot_error(view, exc, t0)
        dt = perf_counter() - t0
        self._hand_spent += dt
        self.last_seconds = dt
        if limit is not None and dt > limit:
            self.think_time += dt
            self.decisions += 1
            self.last_answer = answer
            kind = "hand_timeout" if (hand_left is not None and dt > hand_left) else "timeout"
            if kind == "hand_timeout":
                self._hand_out = True
            self._record(view.hand_no, view.seat, kind, f"answered after {dt:.3f}s")
            return self._fallback(view, kind)
        return self._accept(view, answer, dt)

    def _act_isolated(self, view: SeatView, limit: float | None,
                      hand_left: float | None) -> Action:
        """``act`` for a bot run on the worker thread (it can be abandoned)."""
        pol = self.policy
        t0 = perf_counter()
        try:
            answer = self._call(self.bot.act, (view,), limit)
        except _Timeout:
            spent = perf_counter() - t0
            self._hand_spent += spent
            self.last_seconds = spent
            if hand_left is not None and (pol.decision_time is None
                                          or hand_left <= pol.decision_time):
                self._hand_out = True
                self._record(view.hand_no, view.seat, "hand_timeout",
                             f"over {pol.hand_time}s in the hand")
                return self._fallback(view, "hand_timeout")
            self._record(view.hand_no, view.seat, "timeout",
                         f"no answer within {pol.decision_time}s")
            return self._fallback(view, "timeout")
        except Exception as exc:  # noqa: BLE001 - any bot error is a fault
            return self._bot_error(view, exc, t0)
        dt = perf_counter() - t0
        self._hand_spent += dt
        self.last_seconds = dt
        return self._accept(view, answer, dt)

    def _bot_error(self, view: SeatView, exc: Exception, t0: float) -> Action:
        """The bot raised ``exc`` (it started at ``t0``): a fault, and the policy's action."""
        spent = perf_counter() - t0
        self._hand_spent += spent
        self.last_seconds = spent
        self._record(view.hand_no, view.seat, "exception", f"{type(exc).__name__}: {exc}")
        return self._fallback(view, "exception")

    def _accept(self, view: SeatView, answer: Any, dt: float) -> Action:
        """Count a decision that came in time; the answer if it is a legal action."""
        self.think_time += dt
        self.decisions += 1
        self.last_answer = answer
        legal = view.legal
        # (the kind read untyped: a garbage Action may carry anything there)
        kind: Any = getattr(answer, "kind", None) if type(answer) is Action else None
        if kind == CALL_KIND and legal is not None and CALL_KIND in legal.kinds:
            self.last_fault = None  # the common answer: a check or call where allowed
            return answer
        try:
            action = coerce_action(answer)
        except ActionFormatError as exc:
            self._record(view.hand_no, view.seat, "garbage", str(exc))
            return self._fallback(view, "garbage")
        why = check_legal(action, legal, view.hole)
        if why is not None:
            self._record(view.hand_no, view.seat, "illegal", why)
            return self._fallback(view, "illegal")
        self.last_fault = None
        return action

    def _fallback(self, view: SeatView, kind: str) -> Action:
        """The irregularity policy's action for a fault of ``kind`` (noted)."""
        self.last_fault = kind
        return policy_action(view.legal, view.hole, self.policy.on_fault, down_cards(view),
                             kind)
