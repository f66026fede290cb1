"""Engine commands: ``replay`` (PHH), ``variants`` and ``play`` (an in-process session)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pokerarena.commands import UserError, check_bench_counts
from pokerarena.commands.index import benchmark_summary, summary


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``replay``, ``variants`` and ``play``."""
    p = subparsers.add_parser("replay", help=summary("replay"),
                              description="Replay a .phh hand strictly; the last line of "
                              "the output is the finishing stacks as a JSON list. A .phhs "
                              "file (hands as tables [1], [2], ...) replays every hand; "
                              "the last line is then a JSON list of those lists.")
    p.add_argument("file", help="a .phh file (or a .phhs file of several hands)")
    p.add_argument("--json", action="store_true", help="also print the details as JSON")
    p.add_argument("--odd-chip", choices=("called", "position", "fractional"),
                   default="called", help="odd chips of split pots (fractional: PHH halves)")
    p.set_defaults(func=cmd_replay)

    p = subparsers.add_parser(
        "variants", help=summary("variants"),
        description="Without options: list the shipped variants. --check FILE validates "
        "variant files (TOML) as the engine loads them; --schema prints the JSON Schema "
        "of a variant file as written (--schema options: of the game options). The "
        "guide to the file is docs/variants.md.")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--check", nargs="+", metavar="FILE",
                   help="validate variant files (and compile each betting system they "
                   "offer); exit 2 naming the first bad field of a bad file")
    p.add_argument("--schema", nargs="?", const="variant", choices=("variant", "options"),
                   help="print a JSON Schema: of a variant file (the default), or of the "
                   "game options (options)")
    p.add_argument("--info", metavar="ID",
                   help="what one game is (a variant or a game family): players, utility "
                   "and its range, the most decisions of a hand, its parameters")
    p.add_argument("--betting", help="with --info: the variant's betting system (default: "
                   "its first)")
    p.set_defaults(func=cmd_variants)

    p = subparsers.add_parser("play", help=summary("play"))
    p.add_argument("--variant", required=True, help="variant id or path to a variant file")
    p.add_argument("--betting", help="betting system (default: the variant's first)")
    p.add_argument("--option", action="append", default=[], metavar="K=V",
                   help="game option, e.g. max_raises=4, blinds=1,2 (repeatable)")
    p.add_argument("--bots", required=True,
                   help="comma-separated bots, one per seat: registered names (pokerarena "
                   "bots), Python paths package.module:Class, or http:// URLs")
    p.add_argument("--hands", type=int, default=100, help="hands to play")
    p.add_argument("--seed", type=int, default=0, help="session seed")
    p.add_argument("--stack", type=int, help="chips per seat (the buy-in)")
    p.add_argument("--freeze-out", action="store_true",
                   help="equal chips, no rebuys: play until one seat holds all (or --hands)")
    p.add_argument("--wangdoodle", action="store_true",
                   help="after a flush or better wins, the limits double for the next deal")
    p.add_argument("--jackpot", action="store_true",
                   help="when all fold to the opener, the next deal is a jackpot")
    p.add_argument("--on-fault", choices=("check_fold", "call", "protect"),
                   default="check_fold", help="irregularity policy for a bot's fault "
                   "(protect: a bot that does not answer stays in all in)")
    p.add_argument("--decision-time", type=float, default=5.0,
                   help="seconds a bot may think per decision")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_play)


def _fmt(x: Any) -> str:
    return json.dumps(x)


def _read_phh_file(load: Any, path: str) -> Any:
    """``load(path)`` (``load_phh`` or ``load_phhs``), with every problem of the file a
    user can cause (unreadable, not UTF-8, not TOML, nested past the parser) as one
    :class:`UserError` line."""
    from pokerarena.engine.phh import PHHError

    try:
        return load(path)
    except PHHError as exc:
        raise UserError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start}); a PHH file is "
                        "TOML") from None
    except RecursionError:
        raise UserError(f"{path}: not a PHH file: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise UserError(f"{path}: not valid TOML: {exc}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a PHH file and print its finishing stacks."""
    from pokerarena.engine.phh import PHHError, load_phh, replay

    if str(args.file).endswith(".phhs"):
        return _replay_many(args)
    data = _read_phh_file(load_phh, args.file)
    try:
        rep = replay(data, odd_chip=args.odd_chip)
    except PHHError as exc:
        raise UserError(str(exc)) from None
    res = rep.hand.result()
    expected = rep.data.get("finishing_stacks")
    if args.json:
        scale = rep.scale

        def unscale(v: Any) -> Any:
            q = v / scale
            return int(q) if float(q).is_integer() else float(q)

        detail = {"variant": rep.data.get("variant"), "players": rep.hand.n,
                  "finishing_stacks": rep.finishing_stacks,
                  "matches_file": None if expected is None else _same(expected,
                                                                      rep.finishing_stacks),
                  "pots": [{"amount": unscale(p.amount),
                            "winners": {f"p{s + 1}": unscale(v) for s, v in p.winners.items()}}
                           for p in res.pots]}
        print(json.dumps(detail))
    else:
        print(f"variant {rep.data.get('variant')}, {rep.hand.n} players")
        for i, pot in enumerate(res.pots):
            winners = ", ".join(f"p{s + 1}" for s in pot.winners)
            amount = pot.amount / rep.scale
            text = str(int(amount)) if float(amount).is_integer() else f"{float(amount):.10g}"
            print(f"pot {i + 1}: {text} to {winners}")
        if expected is not None:
            print("matches the file's finishing_stacks: "
                  f"{'yes' if _same(expected, rep.finishing_stacks) else 'NO'}")
    print(_fmt(rep.finishing_stacks))
    if expected is not None and not _same(expected, rep.finishing_stacks):
        print(f"{args.file}: the replay's finishing stacks differ from the file's "
              "finishing_stacks", file=sys.stderr)
        return 1
    return 0


def _replay_many(args: argparse.Namespace) -> int:
    """Replay every hand of a ``.phhs`` file; the last line lists each hand's finishing
    stacks (a JSON list of lists, in file order)."""
    from pokerarena.engine.phh import PHHError, load_phhs, replay

    hands = _read_phh_file(load_phhs, args.file)
    finishing: list[list] = []
    mismatches = 0
    for key, data in hands:
        try:
            rep = replay(data, odd_chip=args.odd_chip)
        except PHHError as exc:
            raise UserError(f"hand [{key}]: {exc}") from None
        expected = data.get("finishing_stacks")
        same = None if expected is None else _same(expected, rep.finishing_stacks)
        mismatches += same is False
        finishing.append(rep.finishing_stacks)
        if args.json:
            print(json.dumps({"hand": key, "variant": data.get("variant"),
                              "finishing_stacks": rep.finishing_stacks,
                              "matches_file": same}))
        else:
            note = "" if same is None else ("  (matches the file)" if same else "  (NOT as "
                                                                                "in the file)")
            print(f"hand [{key}] {data.get('variant')}: {_fmt(rep.finishing_stacks)}{note}")
    if not args.json:
        print(f"{len(hands)} hands replayed" + (f", {mismatches} not as in the file"
                                               if mismatches else ""))
    print(_fmt(finishing))
    if mismatches:
        print(f"{args.file}: {mismatches} hand(s) finish otherwise than the file's "
              "finishing_stacks", file=sys.stderr)
        return 1
    return 0


def _same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(abs(float(x) - float(y)) < 1e-9 for x, y in zip(a, b,
                                                                                   strict=True))


def cmd_variants(args: argparse.Namespace) -> int:
    """List the shipped variants, check variant files, or print a JSON Schema."""
    from pokerarena.rules import VariantError, all_variants

    if sum(bool(x) for x in (args.schema, args.check, args.info)) > 1:
        raise UserError("--schema, --check and --info: give one of them")
    if args.betting and not args.info:
        raise UserError("--betting goes with --info")
    if args.info:
        return _print_info(args.info, args.betting, args.json)
    if args.schema:
        schema = options_schema() if args.schema == "options" else variant_file_schema()
        print(json.dumps(schema, indent=2, ensure_ascii=False))
        return 0
    if args.check:
        return _check_variant_files(args.check, args.json)
    try:
        variants = all_variants()
    except VariantError as exc:
        raise UserError(str(exc)) from None
    rows: list[dict[str, Any]] = [
        {"id": v.id, "name": v.name, "players": list(v.players), "deck": v.deck,
         "betting": list(v.betting), "phh": dict(v.phh)} for v in variants]
    from pokerarena.games import family, family_ids  # the families beside betting poker
    rows += [{"id": f.id, "name": f.name, "players": list(f.players), "deck": f.deck,
              "betting": [], "phh": {}, "family": f.id} for f in map(family, family_ids())]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        phh = ", ".join(f"{k}={c}" for k, c in r["phh"].items())
        print(f"{r['id']:<16} {r['name']:<42} {r['players'][0]}-{r['players'][1]} players  "
              f"{r['deck']:<9} {', '.join(r['betting']) or 'game family, no betting'}"
              + (f"  [PHH {phh}]" if phh else ""))
    return 0


def _print_info(name: str, betting: str | None, as_json: bool) -> int:
    """``variants --info ID``: the game's :class:`~pokerarena.protocols.GameInfo`."""
    from pokerarena.games import any_game, family_ids

    if betting and name in family_ids():
        raise UserError(f"--betting: {name} is a game family, played without betting")
    info = any_game(name, {"betting": betting} if betting else None).info
    if as_json:
        print(json.dumps(info.as_dict(), indent=2))
        return 0
    span = info.utility_range
    rows = [("game", f"{info.name}" + (f" ({info.betting})" if info.betting else "")),
            ("family", info.family), ("players", f"{info.players[0]} to {info.players[1]}"),
            ("information", info.information),
            ("utility", info.utility + ("" if info.utility_sum is None
                                        else f", sums to {info.utility_sum:g}")),
            ("one seat's result", "unbounded" if span is None
             else f"{span[0]:g} to {span[1]:g} (fullest table, default stacks)"),
            ("decisions a hand", "no bound" if info.max_length is None
             else f"at most {info.max_length}"),
            ("chance as moves", "yes (dealing = \"manual\")" if info.explicit_chance else "no")]
    for key, value in rows:
        print(f"{key:<18} {value}")
    print("parameters:")
    for p in info.parameters:
        print(f"  {p.name:<22} {p.type:<40} default {p.default!r}")
    return 0


def _street_text(street: Any) -> str:
    """One street as a user wrote it, without its defaults: ``deal(down=2)``."""
    body = street.model_dump(exclude_defaults=True, exclude={"kind"})
    inner = ", ".join(f"{k}={json.dumps(v)}" for k, v in body.items())
    return f"{street.kind}({inner})" if inner else street.kind


def _check_variant_files(paths: list[str], as_json: bool) -> int:
    """Validate each variant file as ``pokerarena play --variant FILE`` loads it, and make
    a game of each betting system it offers; a bad file is one ``pokerarena: error:``
    line on stderr (exit 2 when any file is bad)."""
    import sys
    from pathlib import Path

    from pokerarena.engine import EngineError, Game
    from pokerarena.rules import VariantError, load_variant_text, variant_ids

    bad = 0
    for path in paths:
        try:
            try:
                text = Path(path).read_text(encoding="utf-8")
            except OSError as exc:
                raise VariantError(f"{path}: cannot read: {exc.strerror}") from None
            variant = load_variant_text(text, origin=path)
            if variant.id in variant_ids():
                raise VariantError(f"{path}: id: {variant.id!r} is a shipped variant's id; "
                                   "give your variant its own (--variant "
                                   f"{variant.id} means the shipped one)")
            for system in variant.betting:
                Game(variant, {"betting": system})
        except (VariantError, EngineError) as exc:
            text = str(exc)
            if not text.startswith(str(path)):
                text = f"{path}: {text}"
            print(f"pokerarena: error: {text}", file=sys.stderr)
            bad += 1
            continue
        streets = [_street_text(s) for s in variant.streets]
        row = {"file": path, "id": variant.id, "name": variant.name,
               "players": list(variant.players), "deck": variant.deck,
               "hole_cards": variant.hole_cards, "board_cards": variant.board_cards,
               "betting": list(variant.betting),
               "streets": streets}
        if as_json:
            print(json.dumps(row))
        else:
            print(f"{path}: ok: {variant.id} ({variant.name}), {variant.players[0]}-"
                  f"{variant.players[1]} players, {variant.deck} deck, "
                  f"{variant.hole_cards} cards dealt to each player, "
                  f"{variant.board_cards} to the board; "
                  f"betting {', '.join(variant.betting)}")
            print("  streets: " + " | ".join(streets))
    return 2 if bad else 0


_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _prop(schema: dict[str, Any], model: str | None, field: str) -> dict[str, Any] | None:
    """The property ``field`` of ``$defs[model]`` (None: the top level), or None."""
    where = schema if model is None else schema.get("$defs", {}).get(model)
    if not isinstance(where, dict):
        return None
    found = where.get("properties", {}).get(field)
    return found if isinstance(found, dict) else None


def _replace(prop: dict[str, Any] | None, **keys: Any) -> None:
    """Replace a property's type description in place, keeping its title, default and
    description."""
    if prop is None:
        return
    kept: dict[str, Any] = {k: prop[k] for k in ("title", "default", "description")
                            if k in prop}
    prop.clear()
    prop.update(keys)
    prop.update(kept)


def variant_file_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a variant file *as written*: the pydantic
    schema of :class:`~pokerarena.rules.Variant`, with the streets as the one-key tables
    the files use (``{ deal = { down = 2 } }``, ``{ bet = true }``; the ``kind`` form
    ``{ kind = "deal", down = 2 }`` is accepted too) and the names the validators accept
    (decks, rankings, wild cards) listed. Rules across fields (a bet street, enough
    cards in the deck, ...) are checked by ``pokerarena variants --check FILE`` only."""
    import copy

    from pokerarena.cards import DECK_NAMES
    from pokerarena.rules import model as m

    schema = copy.deepcopy(m.Variant.model_json_schema())
    defs = schema.setdefault("$defs", {})
    streets = _prop(schema, None, "streets")
    items = streets.get("items", {}) if streets else {}
    alternatives: list[dict[str, Any]] = []
    tables: list[dict[str, Any]] = []
    for alt in items.get("oneOf", items.get("anyOf", [])):
        name = alt.get("$ref", "").rsplit("/", 1)[-1]
        model = defs.get(name, {})
        kind = model.get("properties", {}).get("kind", {}).get("const")
        if not kind:
            alternatives.append(alt)
            continue
        body = copy.deepcopy(model)
        body["properties"].pop("kind")
        body["title"] = f"{name} ({kind} = {{...}})"
        defs[f"{name}Body"] = body
        value: dict[str, Any] = {"$ref": f"#/$defs/{name}Body"}
        if kind == "bet":
            value = {"anyOf": [value, {"const": True, "description": "bet = true: a "
                                       "betting round with every default"}]}
        tables.append({"type": "object", "title": f"{{ {kind} = {{...}} }}",
                       "properties": {kind: value}, "required": [kind],
                       "additionalProperties": False})
        model["required"] = sorted({*model.get("required", ()), "kind"})
        alternatives.append({"$ref": f"#/$defs/{name}"})
    if streets is not None:
        streets["items"] = {"anyOf": [*tables, *alternatives]}
        streets["minItems"] = 1
        streets["description"] = (
            "the order of play: one-key tables { deal = {...} }, { bet = {...} }, "
            "{ draw = {...} }, { expose = {...} }, { declare = {...} }, { knock = {...} } "
            "(or a table with kind = \"deal\" and the same keys)")
    _replace(_prop(schema, None, "deck"), type="string", enum=list(DECK_NAMES))
    players = _prop(schema, None, "players")
    for item in (players or {}).get("prefixItems", []):
        item.update(minimum=2, maximum=23)
    betting = _prop(schema, None, "betting")
    if betting is not None:
        betting.update(minItems=1, uniqueItems=True)
    phh = _prop(schema, None, "phh")
    if phh is not None:
        phh["propertyNames"] = {"enum": list(m.BETTING_SYSTEMS)}
    highs = [r for r in m.RANKING_NAMES if r not in m.LOW_RANKINGS]
    _replace(_prop(schema, "Showdown", "high"), enum=[*highs, "none", "", None])
    _replace(_prop(schema, "Showdown", "low"), enum=[*m.LOW_RANKINGS, "none", "", None])
    _replace(_prop(schema, "Showdown", "wild"), anyOf=[
        {"enum": [*m.WILD_NAMES, *m.POSITIONAL_WILDS]},
        {"type": "string", "description": "a list of cards, e.g. \"Ks,Kd\" or \"KsKd\""}])
    blinds = _prop(schema, "Stakes", "blinds")
    if blinds is not None and isinstance(blinds.get("items"), dict):
        blinds["items"]["minimum"] = 0
    for model in defs.values():
        at_most = model.get("properties", {}).get("max_if_players_at_most")
        if isinstance(at_most, dict):
            at_most["propertyNames"] = {"pattern": "^[0-9]+$"}
    out: dict[str, Any] = {
        "$schema": _SCHEMA_DIALECT, "title": "pokerarena variant file",
        "description": (
            "A poker variant as data (TOML). Guide: docs/variants.md. This schema checks "
            "each field; `pokerarena variants --check FILE` also checks the rules across "
            "fields (at least one bet street, enough cards in the deck for the most "
            "players, a bring-in needs up cards, ...).")}
    out.update({k: v for k, v in schema.items() if k not in ("title", "description")})
    return out


def options_schema() -> dict[str, Any]:
    """The JSON Schema of the game options (:class:`~pokerarena.engine.GameOptions`): the
    ``--option K=V`` of ``pokerarena play`` and the ``options`` table of a run spec."""
    from pokerarena.engine.options import GameOptions

    out: dict[str, Any] = {
        "$schema": _SCHEMA_DIALECT, "title": "pokerarena game options",
        "description": ("Options of a game; every field is optional. Guide: "
                        "docs/variants.md, section Game options.")}
    out.update({k: v for k, v in GameOptions.model_json_schema().items()
                if k not in ("title", "description")})
    return out


def _play_family(args: argparse.Namespace) -> int:
    """``pokerarena play --variant FAMILY``: whole games of a game family (painted
    poker: a game is the whole sequence of deals), each seat's points per game with a
    95% interval over the games, and the total."""
    import math

    from pokerarena.commands import game_options
    from pokerarena.games import family

    fam = family(args.variant)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    lo, hi = fam.players
    if not lo <= len(bots) <= hi:
        raise UserError(f"--bots: {fam.id} is for {lo} to {hi} players, not {len(bots)}")
    if args.hands < 1:
        raise UserError("--hands: the number of games, 1 or more")
    from pokerarena.games.play import play_games

    results = play_games(fam, game_options(args.option), bots, args.hands, args.seed)
    seats = []
    for s, name in enumerate(bots):
        points = [r[s] for r in results]
        mean = sum(points) / len(points)
        sd = math.sqrt(sum((x - mean) ** 2 for x in points) / (len(points) - 1)) \
            if len(points) > 1 else None
        seats.append({"seat": s, "bot": name, "total": sum(points), "per_game": mean,
                      "ci95": None if sd is None else 1.96 * sd / math.sqrt(len(points))})
    if args.json:
        print(json.dumps({"variant": fam.id, "games": args.hands, "seed": args.seed,
                          "seats": seats}))
        return 0
    print(f"{fam.name}: {args.hands} game(s) of {len(bots)} players, seed {args.seed}")
    for r in seats:
        ci = "" if r["ci95"] is None else f" ± {r['ci95']:.1f}"
        print(f"  seat {r['seat']}  {r['bot']:<8} {r['per_game']:+9.1f}{ci} points per game"
              f"   total {r['total']:+,.1f}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play a session with any bots and print the summary."""
    from pokerarena.games import family_ids

    if args.variant in family_ids():
        return _play_family(args)
    from pokerarena.arena.faults import FaultPolicy
    from pokerarena.arena.session import play_session
    from pokerarena.bots.registry import REGISTRY, BotSpecError, check_bots_for_game, parse_spec
    from pokerarena.commands import game_options
    from pokerarena.engine import EngineError, Game
    from pokerarena.rules import VariantError

    options = game_options(args.option)
    if args.betting:
        options["betting"] = args.betting
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    for b in bots:
        try:
            target = parse_spec(b)[0]
        except BotSpecError as exc:
            raise UserError(f"--bots: {exc}") from None
        if target not in REGISTRY and ":" not in target:
            raise UserError(f"--bots: unknown bot {b!r}; registered: {', '.join(REGISTRY)} "
                            "(or a Python path package.module:Class, or an http:// URL)")
    if args.hands < 0:
        raise UserError("--hands: must be 0 or more")
    if args.stack is not None and args.stack < 1:
        raise UserError("--stack: must be 1 or more")
    if not args.decision_time > 0:
        raise UserError("--decision-time: must be more than 0")
    policy = FaultPolicy(decision_time=args.decision_time, on_fault=args.on_fault)
    try:
        game = Game(args.variant, options)
        lo, hi = game.variant.players
        if not lo <= len(bots) <= hi:
            raise UserError(f"--bots: {game.variant.id} is for {lo} to {hi} players, "
                            f"not {len(bots)}")
        check_bots_for_game(bots, [game], len(bots))  # a strategy file of another game
        summary = play_session(game, bots, args.hands, args.seed, args.stack,
                               mode="freeze_out" if args.freeze_out else "cash",
                               wangdoodle=args.wangdoodle, jackpot=args.jackpot,
                               policy=policy)
    except (VariantError, EngineError) as exc:
        raise UserError(str(exc)) from None
    except BotSpecError as exc:
        raise UserError(f"--bots: {exc}") from None
    out = summary.as_dict()
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{out['variant']} ({out['betting']}), {out['hands']} hands, seed {out['seed']}")
    for s in out["seats"]:
        print(f"seat {s['seat']} {s['bot']:<8} net {s['net']:>+8}  showdowns {s['showdowns']:>5}"
              f"  faults {s['faults']}")
    print(f"showdown hands: {out['showdown_hands']}")
    if out["passed_deals"]:
        print(f"passed deals (nobody opened): {out['passed_deals']}, pot carried at the end: "
              f"{out['carry']}")
    if out["rake"]:
        print(f"rake: {out['rake']}")
    print(f"chips_conserved: {'true' if out['chips_conserved'] else 'false'}")
    return 0


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench engine`` (joined to the ``bench`` group through commands/index.py)."""
    p = sub.add_parser(
        "engine", help=benchmark_summary("engine"),
        description="Bots play complete hands (one core, CPU time after a warm-up) through "
        "the public bot interface; with the peers extra, PokerKit plays the same workload "
        "in the same run. Prints {\"hands_per_sec\": x, \"peers\": {\"pokerkit\": y}} "
        "with --json.")
    p.add_argument("--variant", default="holdem", help="variant id (default holdem)")
    p.add_argument("--betting", default=None,
                   help="betting system (default: no_limit for holdem, else the variant's "
                   "first)")
    p.add_argument("--players", type=int, default=6, help="seats (default 6)")
    p.add_argument("--bots", default="call",
                   help="one bot name for every seat, or a comma-separated list")
    p.add_argument("--hands", type=int, default=5000, metavar="N",
                   help="hands to time (default 5000)")
    p.add_argument("--seed", type=int, default=0, help="session seed (default 0)")
    p.add_argument("--repeats", type=int, default=3, metavar="R",
                   help="timed runs of the same session; the best is reported (default 3)")
    p.add_argument("--no-peers", action="store_true", help="skip PokerKit")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=cmd_bench_engine)


def cmd_bench_engine(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench engine``."""
    from pokerarena.bench.engine import engine_bench
    from pokerarena.bots import BUILTIN_BOTS
    from pokerarena.engine import EngineError
    from pokerarena.rules import VariantError

    check_bench_counts(args)
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in names if b not in BUILTIN_BOTS]
    if not names or unknown:
        raise UserError(f"--bots: unknown bot {(unknown or [args.bots])[0]!r}; built-in: "
                        f"{', '.join(BUILTIN_BOTS)}")
    betting = args.betting
    if betting is None and args.variant == "holdem":
        betting = "no_limit"
    try:
        from pokerarena.engine import Game

        game = Game(args.variant, {"betting": betting} if betting else {})
        lo, hi = game.variant.players
        players = len(names) if len(names) > 1 else args.players
        if not lo <= players <= hi:
            raise UserError(f"--players: {game.variant.id} is for {lo} to {hi} players, "
                            f"not {players}")
        out = engine_bench(args.variant, betting, players=players, bots=",".join(names),
                           hands=args.hands, seed=args.seed, peers=not args.no_peers,
                           repeats=args.repeats)
    except (VariantError, EngineError) as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(out))
        return 0
    loop = "compiled table loop" if out.get("native") else "plain Python table loop"
    print(f"{out['variant']} ({out['betting']}), {out['players']} players, bots "
          f"{','.join(sorted(set(out['bots'])))}: {out['hands']} hands, one core, {loop}")
    print(f"  pokerarena : {out['hands_per_sec']:10.0f} hands/s  "
          f"(showdowns {out['showdown_hands']}, chips conserved: "
          f"{'yes' if out['chips_conserved'] else 'NO'})")
    for name, rate in out["peers"].items():
        ratio = out["hands_per_sec"] / rate if rate else float("inf")
        print(f"  {name:<11}: {rate:10.1f} hands/s  (pokerarena {ratio:.0f}x)")
    return 0
