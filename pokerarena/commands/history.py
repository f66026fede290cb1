"""Hand-history commands: ``export`` (a run's hands as PHH, PokerStars text or OHH JSON)
and ``import`` (PokerStars text into PHH that ``pokerarena replay`` plays strictly).

Handlers parse arguments, read rows and write files; the conversions are in
:mod:`pokerarena.interop` (docs/interop.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pokerarena.commands import UserError
from pokerarena.commands.index import summary


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``export`` and ``import``."""
    p = subparsers.add_parser(
        "export", help=summary("export"),
        description="Write the stored hands of RUN (or of one unit, or one hand) into DIR: "
        "phh: RUN.phhs (every hand, as `pokerarena replay` reads it); pokerstars: "
        "RUN-<bot>.txt, one file per hero (each bot of the run in turn, or --hero BOT), "
        "the hands from that bot's seat; ohh: RUN.ohh (one JSON hand after another, "
        "a blank line between). Hands PokerStars never dealt are named and left out.")
    p.add_argument("run_id", metavar="RUN")
    p.add_argument("--unit", help="only this unit (m00000s00000)")
    p.add_argument("--hand", type=int, help="only this hand number (with --unit: of that "
                   "unit; without: every match's hand of that number)")
    p.add_argument("--format", required=True, choices=("phh", "pokerstars", "ohh"))
    p.add_argument("--hero", metavar="BOT", help="write from this bot's seat (pokerstars: "
                   "one file; ohh: hero_player_id)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    p.add_argument("--data", metavar="DIR", default=None,
                   help="data directory (default: $POKERARENA_DATA or ./data)")
    p.set_defaults(func=cmd_export)

    p = subparsers.add_parser(
        "import", help=summary("import"),
        description="Read a PokerStars text hand history (one hand or many) and write PHH "
        "that `pokerarena replay` plays strictly: FILE.phh for one hand, FILE.phhs for "
        "several (or --out). A line that cannot be read is named, exit status 2.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", required=True, choices=("pokerstars",))
    p.add_argument("--out", metavar="FILE.phh", help="where to write (default: beside FILE)")
    p.set_defaults(func=cmd_import)


def _data_dir(args: argparse.Namespace) -> Path | str:
    from pokerarena.platform.storage import data_location, default_location

    return data_location(args.data) if args.data else default_location()


def read_hands(data: Path | str, run_id: str, unit: str | None = None,
               hand: int | None = None) -> list[tuple[dict, list[dict], list[dict]]]:
    """The stored rows of a run's hands (betting poker), filtered by unit and hand:
    ``(hand, seats, actions)`` per hand in match and hand order."""
    import re

    from pokerarena.platform.query import QueryError, as_records, connect, run_query

    if unit is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", unit):
        raise UserError(f"--unit {unit!r}: not a unit id (m00000s00000)")
    try:
        con = connect(data, run_id)
    except QueryError as exc:
        raise UserError(str(exc)) from None
    conds = ["TRUE"]
    if unit is not None:
        conds.append(f"unit = '{unit}'")
    if hand is not None:
        conds.append(f"hand = {int(hand)}")
    where = " AND ".join(conds)
    try:
        hands = as_records(*run_query(con, f"SELECT * FROM hands WHERE {where} "
                                           "ORDER BY match, hand"))
        seats = as_records(*run_query(con, f"SELECT * FROM seats WHERE {where} "
                                           "ORDER BY match, hand, seat"))
        acts = as_records(*run_query(con, f"SELECT * FROM actions WHERE {where} "
                                          "ORDER BY match, hand, seq"))
    finally:
        con.close()
    by_s: dict[tuple, list[dict]] = {}
    by_a: dict[tuple, list[dict]] = {}
    for s in seats:
        by_s.setdefault((s["match"], s["hand"]), []).append(s)
    for a in acts:
        by_a.setdefault((a["match"], a["hand"]), []).append(a)
    return [(h, by_s.get((h["match"], h["hand"]), []), by_a.get((h["match"], h["hand"]), []))
            for h in hands]


def export_hands(rows: list[tuple[dict, list[dict], list[dict]]], fmt: str,
                 hero: str | None = None) -> tuple[dict[str, str], dict[str, int]]:
    """The files of ``rows`` in ``fmt``: ``({file name suffix: text}, {reason: hands
    left out})``. PokerStars files are keyed by hero bot."""
    from pokerarena.interop.history_export import ExportError, phh_text, replay_rows, to_phh
    from pokerarena.interop.ohh import to_ohh
    from pokerarena.interop.pokerstars import to_pokerstars

    files: dict[str, list[str]] = {}
    skipped: dict[str, int] = {}
    for h, seats, acts in rows:
        try:
            stored = replay_rows(h, seats, acts)
            bots = [str(s.get("bot")) for s in stored.seats]
            if hero is not None and hero not in bots:
                continue
            if fmt == "phh":
                files.setdefault("phhs", []).append(phh_text(to_phh(stored)))
            elif fmt == "ohh":
                seat = bots.index(hero) if hero is not None else None
                files.setdefault("ohh", []).append(json.dumps(to_ohh(stored, seat)))
            else:
                for bot in ([hero] if hero is not None else list(dict.fromkeys(bots))):
                    text = to_pokerstars(stored, bots.index(bot))
                    files.setdefault(f"{bot}.txt", []).append(text)
        except ExportError as exc:
            reason = str(exc)
            key = reason.split(": ", 1)[1] if reason.startswith("hand ") else reason
            skipped[key] = skipped.get(key, 0) + 1
    out: dict[str, str] = {}
    for name, parts in files.items():
        if name == "phhs":
            out[name] = "\n".join(f"[{i}]\n{p}" for i, p in enumerate(parts, 1))
        elif name == "ohh":
            out[name] = "\n\n".join(parts) + "\n"
        else:
            out[name] = "\n\n\n".join(parts)
    return out, skipped


def cmd_export(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena export``."""
    rows = read_hands(_data_dir(args), args.run_id, args.unit, args.hand)
    if not rows:
        where = "".join(f" {k} {v}" for k, v in (("unit", args.unit), ("hand", args.hand))
                        if v is not None)
        raise UserError(f"run {args.run_id!r} has no hands of betting poker{where}")
    if args.hero is not None and not any(s.get("bot") == args.hero for _h, ss, _a in rows
                                         for s in ss):
        raise UserError(f"--hero {args.hero!r}: no such bot in these hands")
    files, skipped = export_hands(rows, args.format, args.hero)
    for reason, count in sorted(skipped.items()):
        print(f"left out {count} hand(s): {reason}", file=sys.stderr)
    if not files:
        raise UserError("no hand could be written in this format (see above)")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        written = 0
        for name, text in sorted(files.items()):
            path = out / (f"{args.run_id}.{name}" if name in ("phhs", "ohh")
                          else f"{args.run_id}-{name}")
            path.write_text(text, encoding="utf-8")
            print(path)
            written += 1
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write: {exc.strerror}") from None
    hands = len(rows) - sum(skipped.values())
    print(f"{hands} hands exported as {args.format} into {written} file(s)", file=sys.stderr)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena import``."""
    from pokerarena.interop.history_export import phh_text
    from pokerarena.interop.pokerstars_import import loads_pokerstars

    src = Path(args.file)
    try:
        text = src.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UserError(f"{src}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{src}: not UTF-8 text (byte {exc.start})") from None
    hands = loads_pokerstars(text)
    dest = Path(args.out) if args.out else src.with_suffix(".phh" if len(hands) == 1
                                                            else ".phhs")
    if len(hands) == 1 and dest.suffix != ".phhs":
        body = phh_text(hands[0])
    else:
        body = "\n".join(f"[{i}]\n{phh_text(h)}" for i, h in enumerate(hands, 1))
    try:
        dest.write_text(body, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{dest}: cannot write: {exc.strerror}") from None
    print(f"{len(hands)} hand(s) written to {dest}")
    return 0
