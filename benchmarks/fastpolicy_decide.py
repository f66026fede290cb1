"""Time the strength bots' compiled hold'em policy against the Python bots, decision by
decision on the very same views, and print JSON.

    .venv/bin/python benchmarks/fastpolicy_decide.py [HANDS]

A 6-max no-limit match (``tag``, ``lag``, ``rock``, ``equity`` x2, ``call``) is played by
the Python bots; each ``act`` is timed, and so is every ``fastmc.mc_kernel`` call it
makes (the Monte-Carlo share). The compiled policy (:mod:`pokerarena.bots.strength.
fastpolicy`, from identically seeded bots) then replays the recorded views, timed call
by call after one warm-up decision; its actions are checked against the Python ones.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import numpy as np
from numba import njit

from pokerarena.arena.match import play_match
from pokerarena.bots.strength import fastmc, fastpolicy
from pokerarena.bots.strength.estimate import profile
from pokerarena.engine import Game
from pokerarena.engine.fastholdem import layout
from pokerarena.workers.bots import new_bot

CALLS: list[Any] = []  # every mc_kernel call's arguments, in order
ORDER: list[Any] = []  # every decision in the order played: (hand, seat, V, action)
NAMES = ["tag", "lag", "rock", "equity", "call", "equity"]
KIND = {"f": layout.L_FOLD, "cc": layout.L_CALL, "cbr": layout.L_RAISE}


def _play(game: Game, hands: int) -> tuple[list[list[Any]], list[Any], float, float, int]:
    """The Python match: (each seat's (hand, view, action), the hands' logs, seconds in
    ``act``, seconds in the kernel, kernel calls)."""
    bots = [new_bot(nm, 100 + i) for i, nm in enumerate(NAMES)]
    rec: list[list[Any]] = [[] for _ in NAMES]
    logs: list[Any] = []
    order = ORDER
    spent = [0.0, 0.0, 0]
    order.clear()
    kernel = fastmc.mc_kernel

    def timed_kernel(*args: Any) -> Any:
        t = time.perf_counter()
        out = kernel(*args)
        spent[1] += time.perf_counter() - t
        spent[2] += 1
        CALLS.append(args)
        return out

    for s, bot in enumerate(bots):
        def act(view: Any, orig: Any = bot.act, s: int = s) -> Any:
            t = time.perf_counter()
            action = orig(view)
            spent[0] += time.perf_counter() - t
            v = np.zeros(layout.VLEN, dtype=np.int64)
            fastpolicy.view_array(view, v)
            rec[s].append((len(logs), v, action))
            order.append((len(logs), s, v, action))
            return action
        bot.act = act
    fastmc.mc_kernel = timed_kernel  # type: ignore[assignment]  # looked up per call
    try:
        play_match(game, bots, hands, 11, on_hand=lambda _no, hand, _s: logs.append(
            [(a, act.kind) for a, act in hand.log]))
    finally:
        fastmc.mc_kernel = kernel
    return rec, logs, spent[0], spent[1], int(spent[2])


@njit(cache=True)
def _replay_all(BS, Vs, starts, actor, kind, log_start, n, out):  # pragma: no cover - jit
    """Every decision in the order played (hand ``h``'s: ``starts[h]..starts[h + 1]``),
    each seat's ``end_hand`` after each hand: the calls the fast table's kernel makes."""
    for h in range(starts.size - 1):
        for i in range(starts[h], starts[h + 1]):
            out[i, 0], out[i, 1] = fastpolicy.decide(BS, Vs[i])
        for s in range(n):
            fastpolicy.end_hand(BS, s, actor, kind, log_start[h], log_start[h + 1])


def _replay_compiled(game: Game, order: list[Any], logs: list[Any]) -> tuple[float, int]:
    """(seconds of the whole replay inside one compiled loop, mismatches)."""
    n = len(NAMES)
    Vs = np.stack([v for _, _, v, _ in order])
    starts = np.searchsorted(np.asarray([h for h, _, _, _ in order]), np.arange(len(logs) + 1))
    actor = np.asarray([a for log in logs for a, _ in log], dtype=np.int8)
    kind = np.asarray([KIND.get(k, -1) for log in logs for _, k in log], dtype=np.int8)
    log_start = np.cumsum([0] + [len(log) for log in logs]).astype(np.int64)
    out = np.zeros((len(order), 2), dtype=np.int64)
    warm = fastpolicy.policy_state([new_bot(nm, 100 + i) for i, nm in enumerate(NAMES)],
                                   game, n)
    _replay_all(warm, Vs[:1], starts[:2].clip(0, 1), actor, kind, log_start[:2], n, out)
    BS = fastpolicy.policy_state([new_bot(nm, 100 + i) for i, nm in enumerate(NAMES)],
                                 game, n)
    t = time.perf_counter()
    _replay_all(BS, Vs, starts, actor, kind, log_start, n, out)
    seconds = time.perf_counter() - t
    bad = sum((int(k), int(a)) != (KIND[act.kind], act.amount if act.kind == "cbr" else 0)
              for (k, a), (_, _, _, act) in zip(out.tolist(), order, strict=True))
    return seconds, bad


@njit(cache=True)
def _kernel_loop(flat, flen, ints, floats, frac, fsize, deck, T, A, om,
                 ws):  # pragma: no cover - jit
    """The recorded kernel calls again, from compiled code (no dispatcher per call)."""
    total = 0.0
    for i in range(flat.shape[0]):
        g = ints[i]
        f = floats[i]
        got, _, _ = fastmc.mc_kernel(flat[i, :flen[i]], g[0], g[1], g[2], g[3], g[4], g[5],
                                      g[6], f[0], g[7], f[1], f[2], f[3], f[4],
                                      frac[i, :fsize[i]], g[8], g[9], deck, T, A, om, ws)
        total += got
    return total


def _kernel_compiled(calls: list[Any]) -> float:
    """Seconds of the recorded kernel calls made from one compiled loop."""
    m = len(calls)
    flat = np.zeros((m, 64), dtype=np.uint8)
    flen = np.zeros(m, dtype=np.int64)
    frac = np.ones((m, 16))
    fsize = np.zeros(m, dtype=np.int64)
    ints = np.zeros((m, 10), dtype=np.int64)
    floats = np.zeros((m, 5))
    for i, a in enumerate(calls):
        flen[i] = len(a[0])
        flat[i, :flen[i]] = np.frombuffer(a[0], dtype=np.uint8)
        fsize[i] = a[14].size
        frac[i, :fsize[i]] = a[14]
        ints[i] = (a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[9], a[15], a[16])
        floats[i] = (a[8], a[10], a[11], a[12], a[13])
    consts = calls[0][17:]
    _kernel_loop(flat[:1], flen[:1], ints[:1], floats[:1], frac[:1], fsize[:1], *consts)
    t = time.perf_counter()
    _kernel_loop(flat, flen, ints, floats, frac, fsize, *consts)
    return time.perf_counter() - t


def _replay(game: Game, rec: list[list[Any]], logs: list[Any]) -> tuple[float, int, int]:
    """(seconds in ``decide``, decisions, mismatches) over the recorded views."""
    BS = fastpolicy.policy_state([new_bot(nm, 100 + i) for i, nm in enumerate(NAMES)],
                                 game, len(NAMES))
    fastpolicy.decide(fastpolicy.policy_state([new_bot("call", 1)] * 6, game, 6),
                      rec[0][0][1])  # compiled (or loaded) before the clock starts
    at = [0] * len(NAMES)
    seconds, decisions, bad = 0.0, 0, 0
    for h, log in enumerate(logs):
        for s in range(len(NAMES)):
            while at[s] < len(rec[s]) and rec[s][at[s]][0] == h:
                _, v, action = rec[s][at[s]]
                at[s] += 1
                t = time.perf_counter()
                kind, amount = fastpolicy.decide(BS, v)
                seconds += time.perf_counter() - t
                decisions += 1
                want = (KIND[action.kind], action.amount if action.kind == "cbr" else 0)
                bad += (int(kind), int(amount)) != want
        actor = np.asarray([a for a, _ in log], dtype=np.int8)
        kinds = np.asarray([KIND.get(k, -1) for _, k in log], dtype=np.int8)
        for s in range(len(NAMES)):
            fastpolicy.end_hand(BS, s, actor, kinds, 0, len(log))
    return seconds, decisions, bad


def main() -> None:
    """Play, replay, print the figures."""
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    game = Game("holdem", {"betting": "no_limit"})
    profile(game).prepare_preflop(len(NAMES))
    play_match(game, NAMES, 5, 1)  # the Python bots' kernels compiled before the clock
    rec, logs, py_act, py_kernel, calls = _play(game, hands)
    fast, decisions, bad = _replay(game, rec, logs)
    inner, bad_inner = _replay_compiled(game, ORDER, logs)
    kernel_inner = _kernel_compiled(CALLS)
    us = 1e6 / decisions
    print(json.dumps({
        "hands": hands, "decisions": decisions, "mismatches": bad, "kernel_calls": calls,
        "python_act_us": round(py_act * us, 2),
        "python_kernel_us": round(py_kernel * us, 2),
        "python_rest_us": round((py_act - py_kernel) * us, 2),
        "numba_decide_from_python_us": round(fast * us, 2),
        "numba_decide_in_loop_us": round(inner * us, 2), "mismatches_in_loop": bad_inner,
        "kernel_in_loop_us": round(kernel_inner * us, 2),
        "numba_rest_in_loop_us": round((inner - kernel_inner) * us, 2),
        "speedup_in_loop": round(py_act / inner, 2) if inner else None,
    }))


if __name__ == "__main__":
    main()
