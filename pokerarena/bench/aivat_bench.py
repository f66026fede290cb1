"""``pokerarena bench aivat``: AIVAT against raw duplicate pairs on heads-up hold'em (and
any heads-up engine game named in a case: Omaha, stud, draw).

Each pair of bots plays a duplicate match per betting system; every hand is corrected
(``tournaments.aivat_engine``) and both estimates are printed over the same duplicate
pairs, each with its 95% interval, with AIVAT minus raw (its interval must cover 0: the
corrections have mean zero), the ratio of standard deviations and what the correction
costs in CPU seconds per hand beside the play itself. A measure, never a test.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pokerarena.errors import UserError

PAIRS = ("fixed_limit:tag:lag", "no_limit:tag:lag", "fixed_limit:call:random",
         "no_limit:call:random", "no_limit:tag:lag!")
"""The default cases, ``betting:bot0:bot1``; a bot written ``name!`` is black-box."""


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench aivat``."""
    p = sub.add_parser(
        "aivat", help="AIVAT against raw duplicate pairs on heads-up hold'em: intervals, "
        "sd ratio, CPU cost",
        description="Plays each pair in duplicate, corrects every hand with AIVAT, and "
        "prints raw and AIVAT chips per hand (in mbb/hand) with their 95% intervals and "
        "standard deviations over the same pairs, AIVAT minus raw, the sd ratio, and the "
        "CPU seconds per hand of the AIVAT pass and of the play.")
    p.add_argument("--pair", action="append", metavar="[VARIANT:]BETTING:BOT:BOT",
                   help="a case (repeatable; default: " + ", ".join(PAIRS) + "); the "
                   "variant defaults to holdem; a bot ending in '!' is treated as "
                   "black-box (its policy is not read)")
    p.add_argument("--hands", type=int, default=2000, metavar="N",
                   help="hands per case, in duplicate pairs (default 2000)")
    p.add_argument("--samples", type=int, default=None, metavar="M",
                   help="draws per chance event too large to enumerate (default: the "
                   "module's CHANCE_SAMPLES)")
    p.add_argument("--seed", type=int, default=1, help="the matches' seed (default 1)")
    p.add_argument("--value", default="default", metavar="NAME",
                   help="the value function: default (the fitted one where shipped, else "
                   "equity), equity or fitted (default: default)")
    p.add_argument("--no-lookahead", dest="lookahead", action="store_false",
                   help="the value function alone on the last street too (default: the "
                   "last street played ahead by the bots, where both can be)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=run_aivat_bench)


def bench_case(betting: str, bots: list[str], hands: int, seed: int,
               samples: int | None = None, variant: str = "holdem",
               value: str = "default", lookahead: bool = True) -> dict[str, Any]:
    """One case: the row ``bench aivat`` prints (units: mbb per hand of ``bots[0]``;
    ``sd``: of the block rates, i.e. per duplicate pair). ``value``: a name of
    ``aivat_engine.VALUES``; ``lookahead``: the last street played ahead."""
    import numpy as np

    from pokerarena.arena.faults import FaultPolicy
    from pokerarena.engine.game import Game
    from pokerarena.tournaments.aivat_engine import (
        CHANCE_SAMPLES,
        estimates,
        estimators_json,
        make_value,
        play_engine_aivat,
    )

    names = [b.rstrip("!") for b in bots]
    declared = [not b.endswith("!") for b in bots]
    # built-in bots, no time limits: a loaded machine cannot fault a slow decision
    UNTIMED = FaultPolicy(decision_time=None, hand_time=None)  # noqa: N806
    fn = make_value(value, Game(variant, {"betting": betting}))
    m = play_engine_aivat(variant, names, hands, seed, options={"betting": betting},
                          declared=declared, value=fn, policy=UNTIMED, lookahead=lookahead,
                          samples=CHANCE_SAMPLES if samples is None else samples)
    got = estimates(m)
    red = got["reduction"]
    sizes = np.bincount(m.block)
    sd_diff = float(np.std((m.blocks("aivat") - m.blocks("raw"))[:, 0] / sizes, ddof=1))
    n = len(m.raw)
    k = 1000.0 / m.big_blind
    return {
        "variant": variant, "betting": betting, "bots": names, "declared": declared, "hands": n,
        "value": str(getattr(fn, "name", value)), "lookahead": m.lookahead,
        "lookahead_steps": m.lookahead_steps,
        "estimators": estimators_json(m),
        "aivat_minus_raw": {"mbb_per_hand": got["diff"].value * k,
                            "ci95": [got["diff"].lo * k, got["diff"].hi * k],
                            "sd": sd_diff * k, "blocks": got["diff"].blocks},
        "sd_ratio": red.sd_ratio, "sd_ratio_ci95": _ratio_interval(m, seed),
        "allin_sd_ratio": got["allin_reduction"].sd_ratio,
        "hands_ratio": red.sd_ratio ** 2,
        "cpu_s_per_hand": {"play": m.cpu_play / n, "aivat": m.cpu_aivat / n},
    }


def _ratio_interval(m: Any, seed: int, resamples: int = 2000) -> list[float]:
    """The sd ratio's 95% percentile bootstrap interval over the duplicate pairs (both
    sds from the same resampled pairs: they are correlated)."""
    import numpy as np

    sizes = np.bincount(m.block)
    raw, cor = m.blocks("raw")[:, 0] / sizes, m.blocks("aivat")[:, 0] / sizes
    at = np.random.default_rng([seed, 26]).integers(0, raw.size, (resamples, raw.size))
    ratio = cor[at].std(axis=1, ddof=1) / raw[at].std(axis=1, ddof=1)
    lo, hi = np.percentile(ratio, [2.5, 97.5])
    return [float(lo), float(hi)]


def _case(text: str) -> tuple[str, str, list[str]]:
    """``[VARIANT:]BETTING:BOT:BOT`` -> (variant, betting, bots), the game checked."""
    from pokerarena.engine.game import Game

    parts = text.split(":")
    if len(parts) == 3:
        parts = ["holdem", *parts]
    if len(parts) != 4 or parts[1] not in ("fixed_limit", "no_limit", "pot_limit"):
        raise UserError(f"--pair {text!r}: expected [VARIANT:]BETTING:BOT:BOT with BETTING "
                        "one of fixed_limit, no_limit, pot_limit")
    try:
        Game(parts[0], {"betting": parts[1]})
    except Exception as exc:  # the engine's own message names what is wrong
        raise UserError(f"--pair {text!r}: {exc}") from None
    return parts[0], parts[1], parts[2:]


def run_aivat_bench(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench aivat``."""
    if args.hands < 2:
        raise UserError(f"--hands must be at least 2, got {args.hands}")
    if args.samples is not None and args.samples < 1:
        raise UserError(f"--samples must be at least 1, got {args.samples}")
    from pokerarena.tournaments.aivat_engine import VALUES

    if args.value not in VALUES:
        raise UserError(f"--value {args.value!r}: one of {', '.join(VALUES)}")
    rows = []
    cases = [_case(text) for text in args.pair or PAIRS]  # all checked before any play
    for text, (variant, betting, bots) in zip(args.pair or PAIRS, cases, strict=True):
        print(f"aivat: {text} ({args.hands} hands)", file=sys.stderr, flush=True)
        rows.append(bench_case(betting, bots, args.hands, args.seed, args.samples,
                               variant, args.value, args.lookahead))
    out = {"benchmark": "aivat", "seed": args.seed,
           "units": "mbb/hand of the first bot", "cases": rows}
    if args.json:
        print(json.dumps(out))
        return 0
    for r in rows:
        e = r["estimators"]
        print(f"{r['variant']:8} {r['betting']:12} {' vs '.join(r['bots']):16} "
              f"{r['hands']:6} hands  "
              f"raw {e['raw']['mbb_per_hand']:8.1f} ±{_half(e['raw']):7.1f}  "
              f"all-in {e['allin']['mbb_per_hand']:8.1f} ±{_half(e['allin']):7.1f}  "
              f"aivat {e['aivat']['mbb_per_hand']:8.1f} ±{_half(e['aivat']):7.1f}  "
              f"sd ratio {r['sd_ratio']:.2f} [{r['sd_ratio_ci95'][0]:.2f}, "
              f"{r['sd_ratio_ci95'][1]:.2f}]  cpu/hand play "
              f"{r['cpu_s_per_hand']['play'] * 1e3:.1f} ms, aivat "
              f"{r['cpu_s_per_hand']['aivat'] * 1e3:.1f} ms")
    return 0


def _half(e: dict[str, Any]) -> float:
    lo, hi = e["ci95"]
    return float((hi - lo) / 2)
