"""Hands: one stored hand as the viewer's steps, and finding hands worth a look (issue 31).

Every read runs in the query pool like the other results (429 when it is full, 408 past
its time). Path and query values reach SQL only after validation: a unit id by pattern,
numbers as integers, a bot or variant name as an escaped string literal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse

from pokerarena.interop.stored_hand import hand_steps
from pokerarena.platform.api.context import ApiContext, ApiError, Context, RunId
from pokerarena.platform.hands_finder import hands_sql
from pokerarena.platform.query_pool import records
from pokerarena.platform.sql import sql_str

router = APIRouter(tags=["hands"])

UNIT = r"^[A-Za-z0-9_-]{1,64}$"
Unit = Annotated[str, PathParam(pattern=UNIT, description="the unit that played the hand")]
HandNo = Annotated[int, PathParam(ge=0, le=2**31 - 1,
                                  description="hand number within its match")]
MAX_LIMIT = 200
async def _store(ctx: ApiContext, run_id: str) -> Any:
    return ctx.store(run_id)


async def _hand_rows(ctx: ApiContext, run_id: str, unit: str, hand: int
                     ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """One stored hand's ``hands`` row, ``seats`` rows and ``actions`` log, read in the
    query pool (404 for a run or hand that is not there)."""
    await _store(ctx, run_id)
    where = f"WHERE unit = {sql_str(unit)} AND hand = {int(hand)}"
    out = await ctx.pooled({
        "hand": f"SELECT * FROM hands {where}",
        "seats": f"SELECT * FROM seats {where} ORDER BY seat",
        "actions": f"SELECT * FROM actions {where} ORDER BY seq",
    }, run_id)
    rows = records(out["hand"])
    if not rows:
        raise ApiError(404, f"run {run_id!r} has no hand {hand} in unit {unit!r}")
    return rows[0], records(out["seats"]), records(out["actions"])


HAND_REF = r"^[A-Za-z0-9_-]{1,64}:\d{1,10}$"


@router.get("/api/runs/{run_id}/hands/{ref}/export", response_model=None)
async def export_hand(
        run_id: RunId, ctx: Context,
        ref: Annotated[str, PathParam(pattern=HAND_REF, description=(
            "the hand as UNIT:HAND (m00000s00000:7), as the viewer's links name it"))],
        format: Annotated[Literal["phh", "pokerstars", "ohh"], Query(description=(
            "phh (TOML text), pokerstars (text, one hero's view) or ohh (JSON)"))],
        hero: Annotated[str | None, Query(min_length=1, max_length=200, description=(
            "the bot whose seat the history is written from (default: seat 0)"))] = None,
) -> Any:
    """One stored hand as a hand history others read (docs/interop.md): PHH, PokerStars
    text (404 for an unknown hand; 422 for a game PokerStars never dealt, naming it) or
    Open Hand History JSON."""
    from fastapi.responses import PlainTextResponse

    unit, number = ref.split(":")
    if int(number) > 2**31 - 1:
        raise ApiError(400, f"hand {number} is out of range")
    hand_row, seats, actions = await _hand_rows(ctx, run_id, unit, int(number))
    bots = [str(s.get("bot")) for s in sorted(seats, key=lambda s: int(s["seat"]))]
    if hero is not None and hero not in bots:
        raise ApiError(400, f"hero {hero!r} is not at this table ({', '.join(bots)})")
    seat = bots.index(hero) if hero is not None else 0
    body = await run_in_threadpool(_export, hand_row, seats, actions, format, seat)
    if format == "ohh":
        return body
    return PlainTextResponse(str(body), media_type="text/plain; charset=utf-8")


def _export(hand_row: dict[str, Any], seats: list[dict[str, Any]],
            actions: list[dict[str, Any]], fmt: str, seat: int) -> Any:
    from pokerarena.interop.history_export import (
        ExportError,
        phh_text,
        replay_rows,
        to_phh,
    )
    from pokerarena.interop.ohh import to_ohh
    from pokerarena.interop.pokerstars import to_pokerstars

    try:
        stored = replay_rows(hand_row, seats, actions)
        if fmt == "phh":
            return phh_text(to_phh(stored))
        if fmt == "ohh":
            return to_ohh(stored, seat)
        return to_pokerstars(stored, seat)
    except ExportError as exc:
        raise ApiError(422, str(exc)) from None


@router.get("/api/runs/{run_id}/hands/{unit}/{hand}")
async def hand(run_id: RunId, unit: Unit, hand: HandNo, ctx: Context,
               seat: Annotated[int | None, Query(ge=0, le=22, description=(
                   "show the hand as this seat saw it (others' down cards hidden until "
                   "the showdown); absent: every card"))] = None) -> dict[str, Any]:
    """One stored hand as steps: after each log entry the stacks, the round's bets, the
    pot, the board and each seat's cards (as ``seat`` saw them), then the showdown with
    the main and side pots and the hands in words. ``consistent``: the steps add up to
    the stored end stacks. The viewer at ``/runs/{run_id}/hands/{unit}/{hand}`` replays
    this JSON."""
    hand_row, seats, actions = await _hand_rows(ctx, run_id, unit, hand)
    if seat is not None and seat >= int(hand_row["players"]):
        raise ApiError(400, f"seat {seat} is not at this table of "
                       f"{hand_row['players']} seats")
    from pokerarena.games import family_ids

    if hand_row["variant"] in family_ids():  # a family's game: its score sheet, deal by deal
        tricks = await _family_tricks(ctx, run_id, hand_row)
        return await run_in_threadpool(_family_game, ctx, run_id, hand_row, seats, tricks)
    return await run_in_threadpool(_steps, hand_row, seats, actions, seat)


MAX_TRICK_ROWS = 20_000
"""Cards played read for one game at most (a long game of boston plays some 4,000)."""


async def _family_tricks(ctx: ApiContext, run_id: str, hand_row: dict[str, Any]
                         ) -> dict[str, Any] | None:
    """One game's tricks from its family's tricks table (``Family.extra["tricks"]``),
    read in the query pool and bounded (:data:`MAX_TRICK_ROWS`; durak's bouts are kept in
    the same shape, a bout's taker -1 when it was beaten off); None for a family that
    keeps none (binocle, red/black) and for a game stored without them (a
    run from before the table): the viewer then shows the sheet alone, not "no tricks"."""
    from pokerarena.games import family

    table = family(str(hand_row["variant"])).extra.get("tricks")
    if table is None:
        return None
    out = await ctx.pooled({"tricks": (
        f"SELECT deal, trick, seq, seat, card, won_by FROM {table.name} "
        f"WHERE unit = {sql_str(str(hand_row['unit']))} AND game = {int(hand_row['hand'])} "
        f"ORDER BY deal, trick, seq LIMIT {MAX_TRICK_ROWS + 1}")}, run_id)
    rows = records(out["tricks"])
    if not rows:
        return None
    return {"deals": trick_deals(rows[:MAX_TRICK_ROWS]),
            "truncated": len(rows) > MAX_TRICK_ROWS}


def trick_deals(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of a tricks table (one game, in deal, trick, seq order) as the viewer's
    deals: ``[{deal, tricks: [{trick, leader, plays: [{seat, card}], winner}]}]``, the
    leader the seat of the trick's first card, the winner as the game ruled."""
    deals: list[dict[str, Any]] = []
    for r in rows:
        deal, trick = int(r["deal"]), int(r["trick"])
        if not deals or deals[-1]["deal"] != deal:
            deals.append({"deal": deal, "tricks": []})
        tricks = deals[-1]["tricks"]
        if not tricks or tricks[-1]["trick"] != trick:
            tricks.append({"trick": trick, "leader": int(r["seat"]), "plays": [],
                           "winner": int(r["won_by"])})
        tricks[-1]["plays"].append({"seat": int(r["seat"]), "card": str(r["card"])})
    return deals


def _family_game(ctx: ApiContext, run_id: str, hand_row: dict[str, Any],
                 seats: list[dict[str, Any]], tricks: dict[str, Any] | None = None
                 ) -> dict[str, Any]:
    """A game family's game for the viewer: its score sheet (the record the family
    keeps: painted poker's deals), a step per deal, each seat's result, and for a
    trick-taking family every deal's tricks (``tricks``: :func:`_family_tricks`)."""
    from pokerarena.platform.score_sheets import NoSheet, sheet_data

    try:
        sheet = sheet_data(ctx.data_dir, run_id, str(hand_row["unit"]), int(hand_row["hand"]))
    except NoSheet:
        sheet = None  # a family without a record table: the result alone
    return {"run_id": run_id, "unit": hand_row["unit"], "match": int(hand_row["match"]),
            "hand": int(hand_row["hand"]), "variant": hand_row["variant"], "family": True,
            "players": int(hand_row["players"]),
            "seats": [{"seat": int(s["seat"]), "bot": s.get("bot"), "net": s.get("net"),
                       "points": None if not hand_row.get("bb") else
                       float(s["net"]) / float(hand_row["bb"])}
                      for s in sorted(seats, key=lambda s: int(s["seat"]))],
            "sheet": sheet, "tricks": None if tricks is None else tricks["deals"],
            "tricks_truncated": bool(tricks and tricks["truncated"])}


def _steps(hand_row: dict[str, Any], seats: list[dict[str, Any]],
           actions: list[dict[str, Any]], seat: int | None) -> dict[str, Any]:
    from pokerarena.rules import load_variant
    from pokerarena.rules.model import VariantError

    try:
        variant = load_variant(str(hand_row["variant"]))
    except (VariantError, OSError, ValueError):
        variant = None  # a user's variant file: the streets stay numbered, not named
    return hand_steps(hand_row, seats, actions, seat=seat, variant=variant)


@router.get("/api/runs/{run_id}/hands")
async def find_hands(
        run_id: RunId, ctx: Context,
        order: Annotated[Literal["pot", "loss", "win", "luck", "aivat"],
                         Query(description="pot: biggest pots; loss/win: a seat's "
                               "biggest losses/wins in big blinds; luck: largest all-in "
                               "luck; aivat: largest AIVAT correction")] = "pot",
        bot: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
        variant: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
        showdown: bool | None = None,
        street: Annotated[int | None, Query(ge=0, le=64, description=(
            "only hands with a decision at this street index or later"))] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 20,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> dict[str, Any]:
    """Hands worth a look, one row per hand and seat (``bot``'s seat, or every seat for
    ``loss``/``win``/``luck``/``aivat``, the pot's winner first for ``pot``), each with
    the link to the viewer. Filters: bot, variant, showdown reached, street reached."""
    store = await _store(ctx, run_id)
    if order == "aivat":
        described = await ctx.pooled({"c": "SELECT column_name FROM (DESCRIBE seats)"},
                                     run_id)
        if "aivat_net" not in {r["column_name"] for r in records(described["c"])}:
            raise ApiError(400, f"run {run_id!r} has no AIVAT column (spec aivat = true)")
    from pokerarena.platform import page_summaries as ps

    key = None
    if variant is None and street is None and offset + limit <= ps.HANDS_KEPT:
        key = await run_in_threadpool(ps.rows_key, store)  # None: summaries off
    if key is not None:
        # the first pages of an order: its top rows, kept beside the run (issue 31)
        name = ps.hands_name(order, bot, showdown)
        kept = ps.read(store, name, key)
        if kept is None:
            sql = hands_sql(order, bot, None, showdown, None, ps.HANDS_KEPT, 0)
            kept = {"hands": records((await ctx.pooled({"hands": sql}, run_id))["hands"])}
            if bot is None or kept["hands"]:  # a bot of the run: a bounded set of files
                await run_in_threadpool(ps.write, store, name, key, kept)
        rows = kept["hands"][offset:offset + limit]
    else:
        sql = hands_sql(order, bot, variant, showdown, street, limit, offset)
        rows = records((await ctx.pooled({"hands": sql}, run_id))["hands"])
    seen: set[tuple[int, int]] = set()
    hands = []
    for r in rows:
        if order == "pot" and bot is None and (r["match"], r["hand"]) in seen:
            continue  # a split pot: the hand once
        seen.add((r["match"], r["hand"]))
        r["link"] = f"/runs/{run_id}/hands/{r['unit']}/{r['hand']}"
        r["api"] = f"/api/runs/{run_id}/hands/{r['unit']}/{r['hand']}"
        hands.append(r)
    return {"run_id": run_id, "order": order, "limit": limit, "offset": offset,
            "hands": hands}


@router.get("/api/runs/{run_id}/sheet")
async def sheet(run_id: RunId, ctx: Context,
                unit: Annotated[str | None, Query(pattern=UNIT)] = None,
                game: Annotated[int | None, Query(ge=0, le=2**31 - 1)] = None
                ) -> dict[str, Any]:
    """A game family's score sheet, one game (default: the run's first): ``columns``
    and ``rows`` of the family's record (painted poker: a row per deal and seat, bid,
    tricks, points and running total), the seats' ``bots``, how many ``games`` the run
    has. 404 for a run, unit or game without one."""
    from pokerarena.platform.score_sheets import NoSheet, sheet_data

    await _store(ctx, run_id)
    try:
        out: dict[str, Any] = await run_in_threadpool(sheet_data, ctx.data_dir, run_id,
                                                      unit, game)
    except NoSheet as exc:
        raise ApiError(404, str(exc)) from None
    return out


@router.get("/runs/{run_id}/hands/{unit}/{hand}", include_in_schema=False)
def viewer_page(run_id: RunId, unit: Unit, hand: HandNo, request: Request) -> FileResponse:
    """The hand viewer's page (it reads the hand from the API above)."""
    web_dir = getattr(request.app.state, "web_dir", None)
    page = Path(web_dir) / "hand.html" if web_dir is not None else None
    if page is None or not page.is_file():
        raise ApiError(404, "this service has no web dashboard")
    return FileResponse(page, media_type="text/html")
