"""Export a run's no-limit hold'em hands as PokerStars text and have PokerKit's own
PokerStars importer (``HandHistory.from_pokerstars``) parse and replay each one; count
the hands whose final stacks are the stored ones (issue 30). One hand per hero, the
hero rotating over the seats. PokerKit is a test-only peer (the ``test`` extra).

    python tools/pokerkit_check.py RUN --data DIR            # an existing run
    python tools/pokerkit_check.py --make 10000 --data DIR   # play one first (local)

``--make N`` plays N hands at a six-seat table with carried stacks (side pots, short
all-ins) and the odd chip to the first seat left of the button (``odd_chip =
"position"``: PokerStars' rule). PokerKit divides a split pot otherwise (the whole
remainder to the winner first in its player order); a hand whose stacks differ is
counted apart when the stored stacks, with each split pot divided by PokerKit's rule,
are exactly PokerKit's (:func:`pokerkits_split`), and as a failure otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import warnings
from pathlib import Path


def make_run(data: str, hands: int) -> str:
    from pokerarena.cli import main

    spec = {"kind": "tournament", "name": "pokerkit-check", "seed": 30, "seats": 6,
            "bots": ["maniac", "call", "random", "lag", "rock", "tag"], "hands": hands,
            "unit_hands": 500, "table_stakes": "carry",
            "games": [{"variant": "holdem", "betting": "no_limit",
                       "options": {"odd_chip": "position"}}]}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(spec, f)
    run_id = f"pokerkit-check-{hands}"
    if main(["run", f.name, "--local", "--data", data, "--run-id", run_id]) != 0:
        raise SystemExit("the run failed")
    return run_id


def pokerkits_split(want: dict, stored, players: list) -> dict:
    """The stored end stacks with each split pot divided as PokerKit divides it (its
    ``State._update_chips_pushing``: every winner the quotient, and the whole remainder
    to the winner first in PokerKit's player order; its pots are formed after the hands
    that win nothing are killed), where PokerStars and the engine's
    ``odd_chip = "position"`` give one chip each, from the first seat left of the
    button. Equal to PokerKit's stacks means the hand differs by that rule alone."""
    from pokerarena.interop.pokerstars import names_of

    names = names_of(stored)
    order = {name: i for i, name in enumerate(players)}
    # PokerKit kills the hands that win nothing before it pushes the chips and forms its
    # pots from the live hands alone: pots of ours that only a losing all-in separated,
    # with the same winners, are one pot there
    pots: list[dict[str, int]] = []
    for pot in stored.engine.result().pots:
        won = {names[s]: int(v) for s, v in pot.winners.items()}
        if pots and set(pots[-1]) == set(won):
            pots[-1] = {n: pots[-1][n] + won[n] for n in won}
        else:
            pots.append(won)
    out = dict(want)
    for won in pots:
        if len(won) < 2:
            continue
        q, r = divmod(sum(won.values()), len(won))
        first = min(won, key=lambda n: order.get(n, len(order)))
        for name, v in won.items():
            out[name] += q + (r if name == first else 0) - v
    return out


def check(data: str, run_id: str) -> tuple[int, int, int, list[str]]:
    """(hands parsed to the stored stacks, hands checked, of the others those equal to
    the stored stacks once each split pot is divided by PokerKit's rule, first
    failures)."""
    from pokerkit import HandHistory

    from pokerarena.commands.history import read_hands
    from pokerarena.interop.history_export import replay_rows
    from pokerarena.interop.pokerstars import names_of, to_pokerstars

    good = total = odd = 0
    failures: list[str] = []
    for i, (h, seats, acts) in enumerate(read_hands(data, run_id)):
        if (h["variant"], h["betting"]) != ("holdem", "no_limit"):
            continue
        stored = replay_rows(h, seats, acts)
        text = to_pokerstars(stored, i % stored.n)
        total += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                [hh] = list(HandHistory.from_pokerstars(text, error_status=True))
            final = list(hh)[-1].stacks
            got = dict(zip(hh.players or [], final, strict=True))
            want = dict(zip(names_of(stored), (int(s["end_stack"]) for s in stored.seats),
                            strict=True))
            if got == want:
                good += 1
                continue
            if got == pokerkits_split(want, stored, list(hh.players or [])):
                odd += 1  # the same hand under PokerKit's rule for a split pot's odd chips
                continue
            failures.append(f"{h['unit']}/{h['hand']}: PokerKit {got}, rows {want}")
        except Exception as exc:  # noqa: BLE001 - a peer's failure is a count, not a crash
            failures.append(f"{h['unit']}/{h['hand']}: {type(exc).__name__}: {exc}")
    return good, total, odd, failures[:5]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run_id", nargs="?", metavar="RUN")
    p.add_argument("--data", required=True)
    p.add_argument("--make", type=int, metavar="HANDS")
    args = p.parse_args()
    run_id = make_run(args.data, args.make) if args.make else args.run_id
    if run_id is None:
        p.error("give RUN or --make HANDS")
    good, total, odd, failures = check(str(Path(args.data)), run_id)
    print(json.dumps({"run_id": run_id, "nl_holdem_hands": total,
                      "parsed_by_pokerkit_to_stored_stacks": good,
                      "equal_under_pokerkits_odd_chip_rule": odd,
                      "other_failures": total - good - odd, "failures": failures}))
    return 0 if good + odd == total and total else 1


if __name__ == "__main__":
    sys.exit(main())
