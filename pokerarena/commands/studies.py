"""``pokerarena census``: the hand-category table of a rule set (exact where every hand
can be counted, sampled with 95% intervals otherwise) and where its ranking disagrees
with the frequencies."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from pokerarena.commands import game_options
from pokerarena.commands.index import summary

if TYPE_CHECKING:  # the census pulls in the engine and numba: the handler imports it
    from pokerarena.studies.census import CensusTable


def register(sub: Any) -> None:
    """Add ``census``."""
    p = sub.add_parser(
        "census", help=summary("census"),
        description="Counts every hand a player of VARIANT can hold at the showdown (deck, "
        "wild cards and how the cards combine as the variant and its options say), "
        "exactly where feasible and otherwise from a seeded sample with 95%% intervals, "
        "and lists each pair of categories where the higher one is the more common.")
    p.add_argument("--variant", required=True, help="variant id or .toml file")
    p.add_argument("--option", action="append", default=[], metavar="K=V",
                   help="engine option (wild=deuces, joker=true, ...) or deck=NAME "
                   "(standard, short, standard+joker, standard+2jokers, strip2..strip5)")
    p.add_argument("--method", default="auto", choices=("auto", "exact", "sampled"),
                   help="auto (default): exact where feasible")
    p.add_argument("--samples", type=int, default=None, metavar="N",
                   help="hands to sample when sampling (default 1,000,000; 200,000 hand "
                   "by hand for positional wild cards)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_census)


def _census(args: argparse.Namespace) -> int:
    from pokerarena.studies.census import rule_census

    options = game_options(args.option)
    if isinstance(options.get("wild"), list):  # "Js,Jh" was read as a list
        options["wild"] = ",".join(str(v) for v in options["wild"])
    result = rule_census(args.variant, options, method=args.method, samples=args.samples,
                         seed=args.seed)
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    for table in result.tables:
        print("\n".join(table_lines(result.variant, table)))
    return 0


def table_lines(variant: str, t: CensusTable) -> list[str]:
    """The table as text: header, one line per category, then the flags."""
    wild = f", wild {t.wild} ({t.wild_rule})" if t.wild != "none" else ""
    label = "exact" if t.method == "exact" else f"SAMPLED (seed {t.seed}), 95% intervals"
    lines = [f"{variant}, {t.half} hand: ranking {t.ranking}, {t.deck} deck "
             f"({t.deck_size} cards){wild}; {t.hand}",
             f"{label}: {t.hands:,} hands in {t.seconds:.2f} s",
             f"{'':3}{'category':<20}{'hands':>14}{'share':>11}"
             + ("" if t.method == "exact" else f"{'95% interval':>24}")]
    for r in t.rows:
        line = f"{r.rank:>2} {r.name:<20}{r.count:>14,}{100 * r.frequency:>10.4f}%"
        if t.method != "exact":
            line += f"{100 * r.low:>11.4f}% - {100 * r.high:.4f}%"
        lines.append(line)
    for inv in t.inversions:
        sure = "" if inv.certain else " (within sampling error)"
        lines.append(f"PARADOX: {inv.higher} ranks above {inv.lower} but is more common "
                     f"({100 * inv.higher_frequency:.4f}% vs {100 * inv.lower_frequency:.4f}%)"
                     f"{sure}")
    if t.inversions:
        lines.append("order by probability (rarest first): " + " > ".join(t.probability_order))
    elif t.probability_order:
        lines.append("the ranking follows the frequencies")
    lines += [f"note: {n}" for n in t.notes]
    return lines + [""]
