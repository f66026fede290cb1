"""``pokerarena eval``: census of a deck under a ranking, and single hands in words.

The cards and the evaluator (numpy, numba) are imported by the handlers, not here:
parsing, ``--help`` included, needs only the names in :mod:`pokerarena.commands.constants`.
"""

from __future__ import annotations

import argparse
import json
import time

from pokerarena.commands import UserError
from pokerarena.commands.constants import DECK_NAMES, RANKING_NAMES, WILD_NAMES
from pokerarena.commands.index import summary


def add_ranking_options(p: argparse.ArgumentParser) -> None:
    """The options that build a :class:`Ranking`, shared by the evaluator commands."""
    p.add_argument("--ranking", default="high", choices=RANKING_NAMES,
                   help="hand ranking (default: high)")
    p.add_argument("--wild", default="none",
                   help=f"wild cards: {', '.join(WILD_NAMES)}, or a card list such as Ks,Kd")
    p.add_argument("--wild-rule", default="any", choices=("any", "lacking"),
                   help="a wild card is any card (any) or only one the player lacks (lacking)")
    p.add_argument("--five-of-a-kind", action=argparse.BooleanOptionalAction, default=None,
                   help="five of a kind tops everything (wild rule 'any'; default on)")
    p.add_argument("--double-ace-flush", action=argparse.BooleanOptionalAction, default=None,
                   help="a flush with two aces beats a flush (wild rule 'any'; default off)")
    p.add_argument("--fewer-wilds-win", action=argparse.BooleanOptionalAction, default=True,
                   help="equal hands: fewer wild cards wins (default on; off: tie)")
    p.add_argument("--four-flush", action="store_true", help="count the four flush hand")
    p.add_argument("--blaze", action="store_true", help="count the blaze hand")
    p.add_argument("--trips-beat-straight", action="store_true",
                   help="three of a kind beats a straight")


def ranking_from_args(args: argparse.Namespace, deck_name: str | None = None):
    """Build and check the ranking the options describe."""
    from pokerarena.cards import CardError
    from pokerarena.evaluator import ranking

    wild_options = [name for name in ("five_of_a_kind", "double_ace_flush")
                    if getattr(args, name) is not None]
    if wild_options and (args.wild == "none" or args.wild_rule != "any"):
        flag = "--" + wild_options[0].replace("_", "-")
        raise UserError(f"{flag} needs wild cards (--wild) used under --wild-rule any")
    try:
        r = ranking(
            args.ranking, wild=args.wild, wild_rule=args.wild_rule,
            five_of_a_kind=True if args.five_of_a_kind is None else args.five_of_a_kind,
            double_ace_flush=bool(args.double_ace_flush), fewer_wilds_win=args.fewer_wilds_win,
            four_flush=args.four_flush, blaze=args.blaze,
            trips_beat_straight=args.trips_beat_straight, deck=deck_name,
        )
    except CardError as exc:
        raise UserError(str(exc)) from exc
    return r


def _census(args: argparse.Namespace) -> int:
    from pokerarena.cards import cards_str, deck
    from pokerarena.evaluator.census import census

    deck_name = args.deck
    if deck_name is None:
        deck_name = "short" if args.ranking == "short_deck" else "standard"
        if args.wild == "jokers":
            deck_name = "standard+joker"
    r = ranking_from_args(args, deck_name)
    cards = set(deck(deck_name).tolist())
    if r.wild and not set(r.wild) & cards:
        raise UserError(f"none of the wild cards ({cards_str(r.wild, ' ')}) is in the "
                        f"{deck_name} deck; add jokers with --deck standard+joker")
    if not 1 <= args.cards <= min(9, len(cards)):
        raise UserError(f"--cards must be between 1 and {min(9, len(cards))}")
    start = time.perf_counter()
    result = census(args.cards, deck_name, r)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps(result))
        return 0
    total = result["hands"]
    print(f"{total:,} hands of {args.cards} cards from the {deck_name} deck, "
          f"ranking {r.name}, in {seconds:.2f} s")
    print(f"{'category':<20}{'hands':>14}{'share':>10}{'classes':>10}")
    for name, n in result["counts"].items():
        share = 100.0 * n / total if total else 0.0
        print(f"{name:<20}{n:>14,}{share:>9.4f}%{result['distinct'][name]:>10,}")
    print(f"{'total':<20}{total:>14,}{'':>10}{result['distinct_total']:>10,}")
    for extra in ("royal_flush", "qualifying_8"):
        if extra in result:
            print(f"{extra}: {result[extra]:,}")
    return 0


def _hand(args: argparse.Namespace) -> int:
    from pokerarena.cards import CardError, cards_str, parse_cards
    from pokerarena.evaluator import category, describe, evaluate, evaluate_omaha

    r = ranking_from_args(args)
    try:
        hole = parse_cards(args.cards)
        board = parse_cards(args.board) if args.board else []
        if set(hole) & set(board):
            raise CardError("a card is both in the hand and on the board")
        value = evaluate_omaha(hole, board, r) if args.omaha else evaluate(hole + board, r)
    except CardError as exc:
        raise UserError(str(exc)) from exc
    result = {"cards": cards_str(hole + board), "value": value,
              "category": category(value, r), "description": describe(value, r)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['cards']}: {result['description']} ({result['category']}, {value})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``eval census`` and ``eval hand``."""
    group = sub.add_parser("eval", help=summary("eval"))
    evsub = group.add_subparsers(dest="eval_command", metavar="SUBCOMMAND")
    evsub.required = True

    p = evsub.add_parser("census", help="count every K-card hand of a deck by category")
    p.add_argument("--cards", type=int, required=True, help="cards per hand (1..9)")
    p.add_argument("--deck", choices=DECK_NAMES, default=None,
                   help="deck (default: standard; short for --ranking short_deck)")
    add_ranking_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_census)

    p = evsub.add_parser("hand", help="evaluate one hand and say it in words")
    p.add_argument("cards", help="the cards, e.g. AsKd or 'As Kd Jk'")
    p.add_argument("--board", default="", help="board cards")
    p.add_argument("--omaha", action="store_true",
                   help="use exactly two hole cards and three board cards")
    add_ranking_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_hand)
