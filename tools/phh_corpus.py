"""Replay every PHH hand under one or more directories, strictly, and print JSON counts.

    python tools/phh_corpus.py DIR [DIR ...] [--sample N] [--seed S] [--jobs J]
        [--pokerkit] [--odd-chip RULE] [--time-budget SECONDS] [--max-failures K]

Every ``.phh`` and ``.phhs`` file under the directories is read (a file is told apart
by content: some published ``.phh`` files hold several hands as ``[1]``, ``[2]``...
tables) and every hand is replayed with :func:`pokerarena.engine.phh.replay`. The
output is one JSON object, counts by PHH variant code:

- ``hands``: hands read; ``replayed``: replayed to the end; ``refused``: the replay
  raised (``refusals`` groups them by reason, the action's cards and amounts elided);
- ``finishing_stacks``: hands whose file records them; ``exact``: replayed to exactly
  those stacks; ``exact_split_odd_chip``: matched only when a split pot's odd chip is
  shared out as a fraction (the Pluribus logs write such pots as halves);
  ``mismatch``: replayed to other stacks;
- ``winnings`` (online hands that record each player's take from the pot, after
  rake): ``consistent`` when the players paid are the ones who collected and each
  collected at most what the engine paid, by no more than ``--rake-bound`` of the pot;
- ``pokerkit`` (with ``--pokerkit``, for hands without ``finishing_stacks``): whether
  PokerKit's replay of the same hand ends with the same stacks.

A variant code outside :func:`pokerarena.rules.phh_codes` is counted as
``not_covered``, not as a refusal. ``failures`` lists up to ``--max-failures`` refused
or mismatched hands (file, table, reason or both stacks). The exit status is 1 when a
hand of a covered variant was refused, unreadable or mismatched, else 0.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import sys
import time
import tomllib
import warnings
from collections import Counter, defaultdict
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from pokerarena.engine.phh import PHHError, load_hands, replay
from pokerarena.rules import phh_codes, variant_ids

_CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][shdc]|\?\?)+(?![A-Za-z0-9])")
_NUMBER = re.compile(r"(?<![A-Za-z])\d+(?:\.\d+)?")
_ACTION = re.compile(r"^action \d+ '([^']*)': ")


def reason_key(message: str) -> str:
    """A refusal message with its specifics elided, to group refusals by cause:
    ``action 9 'p1 sd ????': seat 0 discards ...`` -> ``[p sd] seat # discards ...``."""
    kind = ""
    m = _ACTION.match(message)
    if m:
        parts = m.group(1).split("#", 1)[0].split()
        if parts and parts[0] == "d":
            kind = "[d " + (parts[1] if len(parts) > 1 else "") + "] "
        elif len(parts) > 1:
            kind = f"[p {parts[1]}] "
        message = message[m.end():]
    message = _CARD.sub("<cards>", message)
    message = _NUMBER.sub("#", message)
    return kind + message


def _same(got: list[Any], want: Any) -> bool:
    if not isinstance(want, list) or len(got) != len(want):
        return False
    try:
        return all(Decimal(str(g)) == Decimal(str(w)) for g, w in zip(got, want, strict=True))
    except (ArithmeticError, ValueError):
        return False


def _finer_than_amounts(rep: Any, want: list[Any]) -> bool:
    """The recorded stacks are not whole in the replay's chip unit (a split odd chip)."""
    return any((Decimal(str(w)) * rep.scale) % 1 for w in want
               if isinstance(w, int | float) and not isinstance(w, bool)
               and Decimal(str(w)).is_finite())


def _paid(rep: Any) -> list[Any]:
    """What each player (PHH order) collected from the pots, in the file's units."""
    out = [Decimal(0)] * rep.hand.n
    for pot in rep.hand.result().pots:
        for seat, amount in pot.winners.items():
            q = Fraction(amount)
            out[seat] += Decimal(q.numerator) / Decimal(q.denominator) / rep.scale
    return out


def _check_winnings(rep: Any, winnings: Any, bound: float) -> str:
    """``consistent``, ``inconsistent``, or ``not_recorded`` (all zero: many online
    hands of the PHH dataset carry zeros there whoever won)."""
    if not isinstance(winnings, list) or len(winnings) != rep.hand.n:
        return "inconsistent"
    if not any(winnings):
        return "not_recorded"
    paid = _paid(rep)
    took = [Decimal(str(w)) for w in winnings]
    if [p > 0 for p in paid] != [w > 0 for w in took]:
        return "inconsistent"
    if any(w > p for p, w in zip(paid, took, strict=True)):
        return "inconsistent"
    pot = sum(paid)
    return "consistent" if pot - sum(took) <= Decimal(str(bound)) * pot else "inconsistent"


def _pokerkit_stacks(raw: dict[str, Any]) -> list[Any]:
    import pokerkit as pk  # the peers extra; imported only when asked for

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hh = pk.HandHistory(**pk.HandHistory._filter_non_fields(**raw))
        state = None
        for state in hh:  # noqa: B007 - the last state is the finished hand
            pass
    assert state is not None
    return [x for x in state.stacks]


@lru_cache(maxsize=4)
def _raw_tables(path: Path) -> dict[str | None, dict[str, Any]]:
    """The file parsed as PokerKit parses it (decimal amounts), by table key."""
    data = tomllib.loads(path.read_text(encoding="utf-8"), parse_float=Decimal)
    if "variant" in data:
        return {None: data}
    return {k: v for k, v in data.items() if isinstance(v, dict)}


def replay_one(task: tuple[str, str, str | None, dict[str, Any], dict[str, Any]]
               ) -> dict[str, Any]:
    """Replay one hand; the outcome as a small JSON-friendly dict."""
    root, rel, key, data, opts = task
    code = data.get("variant")
    out: dict[str, Any] = {"file": rel, "hand": key,
                           "variant": code if isinstance(code, str) else "?"}
    if not isinstance(code, str) or (code not in phh_codes() and code not in variant_ids()):
        out["status"] = "not_covered"
        return out
    try:
        rep = replay(data, odd_chip=opts["odd_chip"])
    except Exception as exc:  # noqa: BLE001 - an engine bug is a finding, not a crash
        out["status"] = "refused"
        out["reason"] = (str(exc) if isinstance(exc, PHHError)
                         else f"internal error {type(exc).__name__}: {exc}")
        if opts["pokerkit"]:
            _compare_pokerkit(out, Path(root) / rel, key, None)
        return out
    out["status"] = "replayed"
    want = data.get("finishing_stacks")
    if want is not None:
        if _same(rep.finishing_stacks, want):
            out["stacks"] = "exact"
        elif opts["odd_chip"] != "fractional" and _finer_than_amounts(rep, want):
            frac = replay(data, odd_chip="fractional")
            out["stacks"] = ("exact_split_odd_chip" if _same(frac.finishing_stacks, want)
                             else "mismatch")
        else:
            out["stacks"] = "mismatch"
        if out["stacks"] == "mismatch":
            out["expected"] = want
            out["got"] = rep.finishing_stacks
    if "winnings" in data:
        out["winnings"] = _check_winnings(rep, data["winnings"], opts["rake_bound"])
        if out["winnings"] == "inconsistent":
            out["winnings_recorded"] = data["winnings"]
            out["paid"] = [float(x) for x in _paid(rep)]
    if opts["pokerkit"] and want is None:
        _compare_pokerkit(out, Path(root) / rel, key, rep.finishing_stacks)
    return out


def _close(a: Any, b: Any) -> bool:
    x, y = Decimal(str(a)), Decimal(str(b))
    return x == y or (x.is_finite() and y.is_finite() and abs(x - y) <= Decimal("1e-6"))


def _compare_pokerkit(out: dict[str, Any], path: Path, key: str | None,
                      ours: list[Any] | None) -> None:
    """PokerKit's replay of the same hand: ``agree``/``disagree`` with ours, or, when
    the engine refused the hand, ``replayed`` (its stacks are listed) or ``refused``."""
    try:
        theirs = _pokerkit_stacks(_raw_tables(path)[key])
    except Exception as exc:  # noqa: BLE001 - the peer's refusal is reported
        out["pokerkit"] = "refused"
        out["pokerkit_reason"] = f"{type(exc).__name__}: {exc}"
        return
    if ours is None:
        out["pokerkit"] = "replayed"
        out["pokerkit_stacks"] = [float(x) for x in theirs]
        return
    agree = len(theirs) == len(ours) and all(
        _close(a, b) for a, b in zip(ours, theirs, strict=True))
    out["pokerkit"] = "agree" if agree else "disagree"
    if not agree:
        out["pokerkit_stacks"] = [float(x) for x in theirs]
        out["got"] = ours


def collect(dirs: list[Path]) -> tuple[list[tuple[str, str, str | None, dict[str, Any]]],
                                       list[dict[str, Any]], int]:
    """Every hand under ``dirs`` as ``(root, relative path, key, data)``; files that
    cannot be read are returned as outcomes; also the number of files."""
    hands: list[tuple[str, str, str | None, dict[str, Any]]] = []
    unreadable: list[dict[str, Any]] = []
    files = 0
    for root in dirs:
        paths = sorted(p for p in root.rglob("*") if p.suffix in (".phh", ".phhs")
                       and p.is_file())
        for path in paths:
            files += 1
            rel = str(path.relative_to(root))
            try:
                for key, data in load_hands(path):
                    hands.append((str(root), rel, key, data))
            except PHHError as exc:
                unreadable.append({"file": rel, "hand": None, "variant": "?",
                                   "status": "unreadable", "reason": str(exc)})
    return hands, unreadable, files


def summarize(outcomes: list[dict[str, Any]], max_failures: int) -> dict[str, Any]:
    """Counts by variant, refusals grouped by reason, and the first failures."""
    by: dict[str, dict[str, Any]] = {}
    reasons: dict[str, Counter[str]] = defaultdict(Counter)
    failures: list[dict[str, Any]] = []
    counted = ("replayed", "refused", "unreadable", "not_covered")
    for o in sorted(outcomes, key=lambda o: (o["file"], str(o["hand"]))):
        v = by.setdefault(o["variant"], {"hands": 0, **{k: 0 for k in counted},
                                         "finishing_stacks": 0, "exact": 0,
                                         "exact_split_odd_chip": 0, "mismatch": 0})
        v["hands"] += 1
        v[o["status"]] += 1
        if "stacks" in o:
            v["finishing_stacks"] += 1
            v[o["stacks"]] += 1
        for field in ("winnings", "pokerkit"):
            if field in o:
                v.setdefault(field, Counter())[o[field]] += 1
        failed = (o["status"] in ("refused", "unreadable") or o.get("stacks") == "mismatch"
                  or o.get("winnings") == "inconsistent" or o.get("pokerkit") == "disagree")
        if o["status"] in ("refused", "unreadable"):
            reasons[o["variant"]][reason_key(o["reason"])] += 1
        if failed and len(failures) < max_failures:
            failures.append({k: val for k, val in o.items() if k != "status"} |
                            {"status": o["status"]})
    for code, v in by.items():
        if reasons[code]:
            v["refusals"] = dict(reasons[code].most_common())
        for field in ("winnings", "pokerkit"):
            if field in v:
                v[field] = dict(v[field])
    keys = ("hands", *counted, "finishing_stacks", "exact", "exact_split_odd_chip",
            "mismatch")
    total = {k: sum(v[k] for v in by.values()) for k in keys}
    return {"total": total, "by_variant": dict(sorted(by.items())), "failures": failures}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", type=Path, help="directories to search for PHH files")
    ap.add_argument("--sample", type=int, default=0,
                    help="replay a uniform random sample of this many hands (0: all)")
    ap.add_argument("--seed", type=int, default=0, help="the sample's seed")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--odd-chip", default="called",
                    help="odd-chip rule passed to replay (default: called)")
    ap.add_argument("--pokerkit", action="store_true",
                    help="also compare with PokerKit where no finishing_stacks are recorded")
    ap.add_argument("--rake-bound", type=float, default=0.1,
                    help="largest rake, as a share of the pot, for the winnings check")
    ap.add_argument("--time-budget", type=float, default=0,
                    help="stop replaying after this many seconds (0: no limit)")
    ap.add_argument("--max-failures", type=int, default=50,
                    help="how many failures to list")
    args = ap.parse_args(argv)
    for d in args.dirs:
        if not d.is_dir():
            ap.error(f"{d} is not a directory")
    start = time.monotonic()
    hands, outcomes, files = collect(args.dirs)
    found = len(hands)
    if args.sample and args.sample < found:
        hands = random.Random(args.seed).sample(hands, args.sample)
    opts = {"odd_chip": args.odd_chip, "pokerkit": args.pokerkit,
            "rake_bound": args.rake_bound}
    tasks = [(*h, opts) for h in hands]
    not_run = 0
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            it = pool.imap_unordered(replay_one, tasks, chunksize=16)
            for done, outcome in enumerate(it, 1):
                outcomes.append(outcome)
                if args.time_budget and time.monotonic() - start > args.time_budget:
                    not_run = len(tasks) - done
                    pool.terminate()
                    break
    else:
        for done, task in enumerate(tasks, 1):
            outcomes.append(replay_one(task))
            if args.time_budget and time.monotonic() - start > args.time_budget:
                not_run = len(tasks) - done
                break
    report = {"dirs": [str(d) for d in args.dirs], "files": files, "hands_found": found,
              "sampled": len(hands) if args.sample else None, "seed": args.seed,
              "odd_chip": args.odd_chip, "not_run": not_run,
              "seconds": round(time.monotonic() - start, 1),
              **summarize(outcomes, args.max_failures)}
    print(json.dumps(report, indent=2, default=str))
    bad = any(o["status"] in ("refused", "unreadable") or o.get("stacks") == "mismatch"
              for o in outcomes)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
