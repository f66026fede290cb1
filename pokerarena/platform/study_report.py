"""A study run's report from its stored rows: DuckDB reduces the rows to sums per cell
(and per cell against the baseline, on the deals both played), the statistics of
:mod:`pokerarena.studies` turn them into estimates, differences and corrections, and
:mod:`pokerarena.studies.report` renders them. The CLI (``pokerarena report``) and the
API (``GET /api/runs/{id}/report``) both call :func:`write_report`.

A study's cells are its matches, in plan order (the spec's games as expanded, each with
every mix). Every metric is a ratio of two per-deal columns of one wide table ``dl``
(one row per cell and deal), so the cells' moments and the paired cross moments are
each one ``GROUP BY`` over it, whatever the number of hands. The skill edge's pair is
chosen on half of the deals and its edge measured on the other half (:func:`held_out`),
so that equally strong bots do not look apart by the luck that chose them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pyarrow as pa

from pokerarena.errors import UserError
from pokerarena.platform import family_standings as fs
from pokerarena.platform.spec import RunSpec, parse_spec, run_family
from pokerarena.platform.sql import sql_str
from pokerarena.platform.storage import RunStore
from pokerarena.rules.model import POSITIONAL_WILDS
from pokerarena.studies.compare import CrossMoments, correct, paired_difference, unpaired_difference
from pokerarena.studies.metrics import (
    Moments,
    hands_to_separate,
    metric_info,
    quantile_ranks,
    ratio_interval,
)
from pokerarena.studies.settings import StudySettings, parse_settings

__all__ = ["NotAStudy", "REPORT_FILE", "study_results", "write_report"]

REPORT_FILE = "report.html"
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


class NotAStudy(UserError):
    """A report is made of a study run (``kind = "study"``) with finished hands."""


# Per hand: the betting rounds with a decision, the raises in them (the opening bet of
# a round is not a raise; a blind is the round's bet), the longest raising war, and the
# decisions that faced a bet, raise, blind or bring-in, and the folds among them.
ROUNDS_SQL = """
CREATE TEMP TABLE r AS
WITH d AS (
    SELECT match, hand, street, kind,
           coalesce(max(CASE WHEN kind IN ('cbr', 'blind', 'pb') THEN 1 ELSE 0 END)
               OVER (PARTITION BY match, hand, street ORDER BY seq
                     ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS facing
    FROM actions WHERE kind IN ('f', 'cc', 'cbr', 'pb', 'blind')),
rounds AS (
    SELECT match, hand, street,
           greatest(count(*) FILTER (WHERE kind = 'cbr')
                    - CASE WHEN bool_or(kind = 'blind') THEN 0 ELSE 1 END, 0) AS raises,
           count(*) FILTER (WHERE facing = 1 AND kind IN ('f', 'cc', 'cbr')) AS faced,
           count(*) FILTER (WHERE facing = 1 AND kind = 'f') AS folds
    FROM d GROUP BY ALL
    HAVING count(*) FILTER (WHERE kind IN ('f', 'cc', 'cbr')) > 0)
SELECT match, hand, count(*) AS rounds, sum(raises) AS raises, max(raises) AS war,
       sum(faced) AS faced, sum(folds) AS folds
FROM rounds GROUP BY ALL
"""


def held_out(deal: str, players: str) -> str:
    """SQL: whether a deal measures the skill edge (else it chooses the pair). Deals go
    by whole orbits of the button (``players`` deals in a row, where every seat takes
    every position once), alternately to the choice (even orbits) and to the
    measurement (odd orbits): a rule fixed before any hand is played, the same deal
    numbers in every cell of a table size (common deals), and each half balanced over
    the positions, so a position's advantage cannot pass for skill in one half."""
    return f"(({deal}) // greatest({players}, 1)) % 2 = 1"


SKILL_RULE = ("the pair is chosen on the baseline rules' even orbits of the button (deals "
              "0..P-1, 2P..3P-1, ... at a table of P) and every cell's edge is measured "
              "on the odd orbits only, so the choice never sees the hands that measure it")
"""How the skill pair is chosen, as the report says it."""

# The stronger and the weaker bot of each cell: the best and the worst result per seat
# taken on the deals that choose (:func:`held_out` false), and the seats each holds at
# a table (cells whose mix seats one bot have none); :func:`_same_pairs` then gives
# every cell its mix's pair under the baseline's rules. Choosing the pair on the
# deals that measure it would be the winner's curse: among equally strong bots the
# best and the worst of the sample always look apart.
SKILL_SQL = f"""
CREATE TEMP TABLE sw AS
WITH b AS (SELECT match, bot, sum(net / bb) / count(*) AS rate,
                  count(*) / count(DISTINCT hand) AS seats
           FROM seats JOIN (SELECT match, hand, bb, coalesce(deal, hand) AS deal, players
                            FROM hands) USING (match, hand)
           WHERE NOT {held_out("deal", "players")}
           GROUP BY ALL),
r AS (SELECT *, row_number() OVER (PARTITION BY match ORDER BY rate DESC, bot) AS hi,
             row_number() OVER (PARTITION BY match ORDER BY rate ASC, bot) AS lo,
             count(*) OVER (PARTITION BY match) AS bots FROM b)
SELECT s.match, s.bot AS strong, w.bot AS weak, s.seats AS strong_seats,
       w.seats AS weak_seats
FROM r s JOIN r w ON s.match = w.match AND s.hi = 1 AND w.lo = 1 AND s.bots > 1
"""

HELD_OUT_METRICS = frozenset({"skill_edge"})
"""The metrics measured on the held-out deals only (``dl.held_out``)."""


HIGH_ORDER = ("five_of_a_kind", "straight_flush", "four_of_a_kind", "full_house",
              "double_ace_flush", "flush", "straight", "three_of_a_kind", "two_pair",
              "one_pair", "high_card")
"""The high categories best first (RULES.md section 1); others follow by frequency."""


def ranked(categories: list[str]) -> list[str]:
    """``categories`` (most frequent first) with the known high ones in ranking order."""
    known = [c for c in HIGH_ORDER if c in categories]
    return known + [c for c in categories if c not in known]




def _deal_table_sql(positions: int, categories: list[str]) -> str:
    """The wide table ``dl``: per cell (match) and deal, the numerators and
    denominators of every metric (:func:`metric_columns`)."""
    pos = ", ".join(f"sum(s.net / h.bb) FILTER (WHERE s.position = {p}) AS pos{p}"
                    for p in range(positions))
    cats = ", ".join(
        f"count(*) FILTER (WHERE s.showdown AND s.high_category = {sql_str(c)}) AS c{i}, "
        f"count(*) FILTER (WHERE s.showdown AND s.pot_won > 0 "
        f"AND s.high_category = {sql_str(c)}) AS w{i}" for i, c in enumerate(categories))
    return f"""
CREATE TEMP TABLE dl AS
WITH hs AS (
    SELECT h.match, h.hand, coalesce(h.deal, h.hand) AS deal, h.showdown, h.passed,
           h.winners, h.pot / h.bb AS pot_bb, coalesce(r.rounds, 0) AS rounds,
           coalesce(r.raises, 0) AS raises, coalesce(r.war, 0) AS war,
           coalesce(r.faced, 0) AS faced, coalesce(r.folds, 0) AS folds,
           coalesce(bs.has_best, 0) AS has_best, coalesce(bs.best_wins, 0) AS best_wins,
           {held_out("coalesce(h.deal, h.hand)", "h.players")} AS held_out
    FROM hands h LEFT JOIN r USING (match, hand) LEFT JOIN bs USING (match, hand)),
ss AS (
    SELECT s.match, s.hand, {pos + "," if pos else ""} {cats + "," if cats else ""}
           count(*) FILTER (WHERE s.showdown) AS sd_seats,
           count(*) FILTER (WHERE s.showdown AND s.pot_won > 0) AS sd_winners,
           count(*) FILTER (WHERE s.showdown AND s.pot_won > 0) > 1
               AND count(DISTINCT s.high) FILTER (WHERE s.showdown AND s.pot_won > 0) = 1
               AND NOT bool_or(s.low IS NOT NULL) AS tie,
           count(*) FILTER (WHERE s.showdown AND s.pot_won > 0 AND list_has_any(
               regexp_extract_all(coalesce(s.cards, '') || coalesce(h.board, ''), '..'),
               wl.cards)) AS wild_winners,
           sum(CASE WHEN s.bot = sw.strong THEN s.net / h.bb / sw.strong_seats
                    WHEN s.bot = sw.weak THEN -s.net / h.bb / sw.weak_seats
                    ELSE 0 END) / 2 AS edge
    FROM seats s JOIN hands h USING (match, hand) LEFT JOIN sw USING (match)
         LEFT JOIN wl USING (match)
    GROUP BY s.match, s.hand)
SELECT hs.match, hs.deal, count(*)::DOUBLE AS hands,
       sum(hs.showdown::INT)::DOUBLE AS showdowns,
       sum(hs.passed::INT)::DOUBLE AS passed,
       sum((hs.showdown AND hs.winners > 1)::INT)::DOUBLE AS splits,
       sum(hs.pot_bb) AS pot_bb, sum(hs.rounds)::DOUBLE AS rounds,
       sum(hs.raises)::DOUBLE AS raises, sum(hs.war)::DOUBLE AS war,
       sum(hs.faced)::DOUBLE AS faced, sum(hs.folds)::DOUBLE AS folds,
       {"".join(f"coalesce(sum(ss.pos{p}), 0) AS pos{p}, " for p in range(positions))}
       {"".join(f"sum(ss.c{i})::DOUBLE AS c{i}, sum(ss.w{i})::DOUBLE AS w{i}, "
                for i in range(len(categories)))}
       sum(ss.sd_seats)::DOUBLE AS sd_seats, sum(ss.sd_winners)::DOUBLE AS sd_winners,
       sum(ss.wild_winners)::DOUBLE AS wild_winners, sum(ss.tie::INT)::DOUBLE AS ties,
       sum(hs.has_best)::DOUBLE AS has_best, sum(hs.best_wins)::DOUBLE AS best_wins,
       sum(ss.edge) AS edge, bool_and(hs.held_out) AS held_out
FROM hs JOIN ss USING (match, hand)
GROUP BY hs.match, hs.deal
"""


def metric_columns(positions: int, categories: list[str]) -> dict[str, tuple[str, str]]:
    """Each metric's ``(numerator, denominator)`` columns of ``dl``."""
    cols = {"showdown_rate": ("showdowns", "hands"), "pot_bb": ("pot_bb", "hands"),
            "passed_rate": ("passed", "hands"), "split_rate": ("splits", "showdowns"),
            "tie_rate": ("ties", "showdowns"),
            "rounds_reached": ("rounds", "hands"), "raises_per_round": ("raises", "rounds"),
            "war_length": ("war", "hands"), "fold_to_bet": ("folds", "faced"),
            "skill_edge": ("edge", "hands"), "wild_in_winner": ("wild_winners", "sd_winners"),
            "best_start_wins": ("best_wins", "has_best")}
    cols.update({f"seat_net:{p}": (f"pos{p}", "hands") for p in range(positions)})
    for i, c in enumerate(categories):
        cols[f"category:{c}"] = (f"c{i}", "sd_seats")
        cols[f"win_category:{c}"] = (f"w{i}", "sd_winners")
    return cols


def _moment_sums(x: str, y: str, prefix: str = "") -> str:
    x, y = f"coalesce({prefix}{x}, 0)", f"coalesce({prefix}{y}, 0)"
    return f"sum({x}), sum({y}), sum({x} * {x}), sum({y} * {y}), sum({x} * {y})"


def _moments(con: Any, cols: dict[str, tuple[str, str]], where: str = "true"
             ) -> dict[int, dict[str, Moments]]:
    """Each cell's moments of every metric, over the deals ``where`` holds for."""
    select = ", ".join(_moment_sums(x, y) for x, y in cols.values())
    out: dict[int, dict[str, Moments]] = {}
    if not cols:
        return out
    for row in con.execute(f"SELECT match, count(*), {select} FROM dl WHERE {where} "
                           "GROUP BY match ORDER BY match").fetchall():
        match, n, sums = int(row[0]), int(row[1]), row[2:]
        out[match] = {name: Moments(n, *(float(v or 0) for v in sums[5 * i:5 * i + 5]))
                      for i, name in enumerate(cols)}
    return out


def _cross(con: Any, cols: dict[str, tuple[str, str]], refs: dict[int, int],
           where: str = "true") -> dict[int, dict[str, CrossMoments]]:
    """Per cell, the paired moments of every metric against its reference cell
    (``refs``) on the deals both played (``where``: of those, the deals it holds for;
    ``c`` is the cell's row, ``b`` its reference's)."""
    if not cols:
        return {}
    parts = []
    for x, y in cols.values():
        xc, yc, xb, yb = (f"coalesce({t}.{c}, 0)" for t, c in
                          (("c", x), ("c", y), ("b", x), ("b", y)))
        parts.append(f"{_moment_sums(x, y, 'c.')}, {_moment_sums(x, y, 'b.')}, "
                     f"sum({xc} * {xb}), sum({xc} * {yb}), sum({yc} * {xb}), "
                     f"sum({yc} * {yb})")
    con.execute("CREATE OR REPLACE TEMP TABLE refs (match INTEGER, ref INTEGER)")
    if refs:
        con.executemany("INSERT INTO refs VALUES (?, ?)", [[c, r] for c, r in refs.items()])
    rows = con.execute(
        f"SELECT c.match, count(*), {', '.join(parts)} FROM dl c JOIN refs USING (match) "
        f"JOIN dl b ON b.match = refs.ref AND c.deal = b.deal WHERE {where} "
        "GROUP BY c.match ORDER BY c.match").fetchall()
    out: dict[int, dict[str, CrossMoments]] = {}
    for row in rows:
        n, sums = int(row[1]), [float(v or 0) for v in row[2:]]
        out[int(row[0])] = {
            name: CrossMoments(Moments(n, *sums[14 * i:14 * i + 5]),
                               Moments(n, *sums[14 * i + 5:14 * i + 10]),
                               *sums[14 * i + 10:14 * i + 14])
            for i, name in enumerate(cols)}
    return out


def _cells(spec: RunSpec) -> list[dict[str, Any]]:
    """The cells in plan order, each labelled by what sets it apart from the others."""
    configs, mixes = spec.game_configs(), spec.lineups()
    cells = [{"cell": g * len(mixes) + m, "variant": cfg["variant"], "betting": cfg["betting"],
              "options": {k: v for k, v in cfg["options"].items() if k != "betting"},
              "mix": list(mix)} for g, cfg in enumerate(configs) for m, mix in enumerate(mixes)]
    varying = {k for c in cells for k in c["options"]
               if len({json.dumps(d["options"].get(k)) for d in cells}) > 1}
    for c in cells:
        words = []
        if len({(d["variant"], d["betting"]) for d in cells}) > 1:
            words.append(f"{c['variant']} {c['betting'].replace('_', ' ')}")
        words += [f"{k}={_value(c['options'].get(k))}" for k in sorted(varying)]
        if len(mixes) > 1:
            words.append(" v ".join(c["mix"]))
        c["label"] = ", ".join(words) or f"{c['variant']} {c['betting']}"
    return cells


def _value(v: Any) -> str:
    """An option's value as a reader writes it (strings unquoted)."""
    return v if isinstance(v, str) else json.dumps(v)


def _quantiles(con: Any, played: dict[int, int]
               ) -> tuple[list[dict[str, Any]], dict[int, list]]:
    """Pot-size quantiles per cell with their order-statistic intervals, and each cell's
    percentiles 0..100 (the distribution's plot), over the hands played (a passed deal
    has no pot of its own: it waits for the next deal)."""
    rows, ecdf = [], {}
    for match, n in played.items():
        probs = []
        for p in QUANTILES:
            probs += [p, *quantile_ranks(p, n)]
        grid = [i / 100 for i in range(101)]
        got = con.execute(f"SELECT quantile_disc(pot / bb, {probs}), "
                          f"quantile_cont(pot / bb, {grid}) FROM hands WHERE match = {match} "
                          "AND NOT passed").fetchone()
        if got is None or got[0] is None:
            continue
        q, e = got if got else ([], [])
        for i, p in enumerate(QUANTILES):
            rows.append({"cell": match, "p": p, "value": float(q[3 * i]),
                         "lo": float(q[3 * i + 1]), "hi": float(q[3 * i + 2]), "hands": n})
        ecdf[match] = [float(v) for v in e]
    return rows, ecdf


def study_results(data: str | Path, run_id: str, *, exact: bool = True) -> dict[str, Any]:
    """Everything the report shows, as plain data (see :mod:`pokerarena.studies.report`);
    ``exact``: with the exact census tables of the cells' rule sets."""
    from pokerarena.platform.query import connect

    store = RunStore(data, run_id)
    if not store.exists():
        raise UserError(f"no run {run_id!r} under {data}")
    spec = parse_spec(store.spec_doc()["spec"])
    if not spec.traits.compares_games:
        raise NotAStudy(f"run {run_id!r} is a {spec.kind}, not a study (kind = \"study\")")
    con = connect(data, run_id)
    try:
        out = results_from(con, spec, run_id)
    finally:
        con.close()
    family = out["family"]
    out["exact_tables"] = exact_tables(_cells(spec)) if exact and family is None else None
    return out


def results_from(con: Any, spec: RunSpec, run_id: str) -> dict[str, Any]:
    """:func:`study_results` (without the exact tables) from a DuckDB connection whose
    ``hands``, ``seats`` and ``actions`` (and ``places`` with freeze-outs) hold the rows
    of ``spec``'s study: what the calibration (:mod:`pokerarena.bench.calib_study`)
    replays on rows played in process, so it measures the very estimator users get."""
    cells = _cells(spec)
    settings = parse_settings(spec.study or {}, len(cells))
    freezeouts = _set_freezeouts_apart(con, len(cells), settings.freezeouts)
    (hands_total,) = con.execute("SELECT count(*) FROM hands").fetchone() or (0,)
    if not hands_total:
        raise NotAStudy(f"run {run_id!r} has no finished hands yet")
    positions = int((con.execute("SELECT max(players) FROM hands").fetchone() or (0,))[0])
    con.execute(SKILL_SQL)
    _same_pairs(con, settings.baseline, len(spec.lineups()))
    family = run_family(spec)
    if family is None:
        cols, categories, wilds, starts = _poker_deal_table(con, cells, positions)
    else:  # a game family's study: its own metrics (platform.family_standings)
        record = fs.dealer_record(family)
        con.execute(fs.deal_table_sql(positions, record))
        cols, categories, wilds, starts = fs.metric_columns(positions, record), [], {}, []
    # the skill edge on the held-out deals only (SKILL_SQL chose its pair on the others)
    split = {k: v for k, v in cols.items() if k in HELD_OUT_METRICS}
    whole = {k: v for k, v in cols.items() if k not in HELD_OUT_METRICS}
    moments = _moments(con, whole)
    for cell, by_metric in _moments(con, split, "held_out").items():
        moments.setdefault(cell, {}).update(by_metric)
    for cell, m in freezeouts.items():
        moments.setdefault(cell, {})["hands_per_freezeout"] = m
    refs = references(settings.baseline, len(cells), len(spec.lineups()))
    cross: dict[int, dict[str, CrossMoments]] = {}
    if spec.common_deals:
        cross = _cross(con, whole, refs)
        for cell, paired in _cross(con, split, refs, "c.held_out AND b.held_out").items():
            cross.setdefault(cell, {}).update(paired)
    pairs = {int(m): (s, w) for m, s, w, *_ in con.execute("SELECT * FROM sw").fetchall()}
    hands = {int(m): int(n) for m, n in con.execute(
        "SELECT match, count(*) FROM hands GROUP BY 1 ORDER BY 1").fetchall()}
    quantiles, ecdf = _quantiles(con, {int(m): int(n) for m, n in con.execute(
        "SELECT match, count(*) FROM hands WHERE NOT passed GROUP BY 1").fetchall()}) \
        if family is None else ([], {})
    out = _assemble(run_id, spec, settings, cells, moments, cross, refs, pairs, hands,
                    quantiles, ecdf, categories, set(wilds), {m for m, *_ in starts})
    out["family"] = family
    return out


def _set_freezeouts_apart(con: Any, cells: int, per_cell: int) -> dict[int, Moments]:
    """A study with freeze-outs (``[study] freezeouts``, matches from ``cells`` on):
    the ordinary views shadowed by ones of the cells' own matches (every other metric
    reads those), and per cell the hands each of its freeze-outs lasted, as moments of
    one value per freeze-out (``hands_per_freezeout``)."""
    if not per_cell:
        return {}
    (db,) = con.execute("SELECT current_database()").fetchone()
    for table in ("hands", "seats", "actions", "faults"):
        con.execute(f'CREATE TEMP VIEW {table} AS SELECT * FROM "{db}".main.{table} '
                    f"WHERE match < {cells}")
    lasted: dict[int, list[float]] = {}
    for match, hands in con.execute(
            f'SELECT match, any_value(hands) FROM "{db}".main.places WHERE match >= {cells} '
            "GROUP BY match ORDER BY match").fetchall():
        lasted.setdefault((int(match) - cells) // per_cell, []).append(float(hands))
    return {cell: Moments.of(xs, [1.0] * len(xs)) for cell, xs in lasted.items()}


def _poker_deal_table(con: Any, cells: list[dict[str, Any]], positions: int
                      ) -> tuple[dict[str, tuple[str, str]], list[str], dict[int, list[str]],
                                 list[tuple[int, int, int, int]]]:
    """Betting poker's ``dl`` (:func:`_deal_table_sql`) and what it rests on: the metric
    columns, the showdown categories, the wild cards and the best starting hands."""
    categories = ranked([r[0] for r in con.execute(
        "SELECT high_category, count(*) FROM seats WHERE showdown AND high_category "
        "IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()])
    con.execute(ROUNDS_SQL)
    wilds = wild_cards(cells)
    con.execute("CREATE TEMP TABLE wl (match INTEGER, cards VARCHAR[])")
    if wilds:
        con.executemany("INSERT INTO wl VALUES (?, ?)", [[m, w] for m, w in wilds.items()])
    starts = best_starts(con, cells)
    con.execute("CREATE TEMP TABLE bs (match INTEGER, hand INTEGER, has_best INTEGER, "
                "best_wins INTEGER)")
    if starts:
        con.executemany("INSERT INTO bs VALUES (?, ?, ?, ?)", starts)
    con.execute(_deal_table_sql(positions, categories))
    return metric_columns(positions, categories), categories, wilds, starts


STARTS_SQL = """
SELECT a.match, a.hand, a.target, arg_min(a.cards, a.seq) AS dealt,
       any_value(s.pot_won) > 0 AS won, any_value(h.passed) AS passed
FROM actions a JOIN seats s ON s.match = a.match AND s.hand = a.hand AND s.seat = a.target
     JOIN hands h ON h.match = a.match AND h.hand = a.hand
WHERE a.kind = 'dh' AND a.match = ? AND a.hand < ?
GROUP BY ALL ORDER BY 1, 2, 3
"""
START_HANDS = 200_000
"""The hands of a cell whose starting hands are scored (hand by hand, in Python): the
first ones, the same deals in every cell, so the comparison stays paired."""


def _same_pairs(con: Any, base: int, mixes: int) -> None:
    """Every cell measures the skill edge of the pair its mix has in the baseline's
    rules (the best and the worst bot there, on its choosing deals), so the edges
    compare across rules: a rule set may narrow the edge, or turn it round."""
    rows = {int(r[0]): r[1:] for r in con.execute("SELECT * FROM sw").fetchall()}
    g_base = base // mixes
    cells = [int(r[0]) for r in con.execute("SELECT DISTINCT match FROM hands").fetchall()]
    keep = [[c, *rows[g_base * mixes + c % mixes]] for c in cells
            if g_base * mixes + c % mixes in rows]
    con.execute("DELETE FROM sw")
    if keep:
        con.executemany("INSERT INTO sw VALUES (?, ?, ?, ?, ?)", keep)


def best_starts(con: Any, cells: list[dict[str, Any]]) -> list[tuple[int, int, int, int]]:
    """Per hand of the cells whose first deal gives every seat five cards or more (the
    draw games): ``(match, hand, has_best, best_wins)``, ``has_best`` when one seat was
    dealt a strictly better high hand than every other (scored by the cell's own
    showdown, its wild cards included) in a hand that was played (not passed),
    ``best_wins`` when that seat won chips from a pot. Over the first
    :data:`START_HANDS` hands of each cell."""
    from pokerarena.cards import parse_cards
    from pokerarena.engine import Game
    from pokerarena.engine.scoring import Scorer

    out: list[tuple[int, int, int, int]] = []
    for c in cells:
        program = Game(c["variant"], c["options"]).program
        if program.showdown.high is None or program.showdown.wild in POSITIONAL_WILDS:
            continue
        rows = con.execute(STARTS_SQL, [c["cell"], START_HANDS]).fetchall()
        if not rows or min(len(r[3] or "") for r in rows) < 10:
            continue  # a first deal of fewer than five cards: no hand to score yet
        scorer = Scorer(program.showdown, program.variant.deck)
        by_hand: dict[int, list[tuple[int, bool, bool]]] = {}
        for _, hand, _, dealt, won, passed in rows:
            value = scorer.high(parse_cards(dealt, allow_duplicates=True), [])
            by_hand.setdefault(hand, []).append((value, bool(won), bool(passed)))
        for hand, seats in by_hand.items():
            ranked_seats = sorted(seats, key=lambda v: v[0], reverse=True)
            unique = len(ranked_seats) == 1 or ranked_seats[0][0] > ranked_seats[1][0]
            has = int(unique and not seats[0][2])
            out.append((c["cell"], hand, has, int(has and ranked_seats[0][1])))
    return out


def wild_cards(cells: list[dict[str, Any]]) -> dict[int, list[str]]:
    """Each cell's wild cards as the rows write them (``2c``, ``Jk``), for the cells
    whose rules name fixed wild cards (positional wilds, which depend on the deal, are
    left out)."""
    from pokerarena.cards import card_str
    from pokerarena.engine import Game
    from pokerarena.evaluator import ranking

    out = {}
    for c in cells:
        wild = Game(c["variant"], c["options"]).program.showdown.wild
        if wild and wild != "none" and wild not in POSITIONAL_WILDS:
            out[c["cell"]] = sorted({card_str(code) for code in ranking(wild=wild).wild})
    return out


def references(base: int, cells: int, mixes: int) -> dict[int, int]:
    """The cell each cell is compared with: the baseline's rules with the cell's own
    mix (so a rule's effect is measured at the same table, never mixed up with the
    bots'), and for the baseline's other mixes, the baseline itself (the mix's effect)."""
    g_base, m_base = divmod(base, mixes)
    out = {}
    for cell in range(cells):
        g, m = divmod(cell, mixes)
        ref = g_base * mixes + m if g != g_base else base
        if ref != cell:
            out[cell] = ref
    return out


def _assemble(run_id: str, spec: RunSpec, settings: StudySettings,
              cells: list[dict[str, Any]], moments: dict[int, dict[str, Moments]],
              cross: dict[int, dict[str, CrossMoments]], refs: dict[int, int],
              pairs: dict[int, tuple[str, str]],
              hands: dict[int, int], quantiles: list[dict[str, Any]],
              ecdf: dict[int, list], categories: list[str],
              wild_cells: set[int], start_cells: set[int]) -> dict[str, Any]:
    seats = {c["cell"]: len(c["mix"]) for c in cells}

    def applies(name: str, cell: int) -> bool:
        if name.startswith("seat_net:"):
            return int(name.split(":")[1]) < seats.get(cell, 0)
        if name == "wild_in_winner":
            return cell in wild_cells
        if name == "best_start_wins":
            return cell in start_cells
        return name != "skill_edge" or cell in pairs

    metrics = []
    for cell, by_metric in moments.items():
        for name, m in by_metric.items():
            if applies(name, cell):
                metrics.append({"cell": cell, "metric": name, **_bounded(name, m)})
    items = []
    for cell, by_metric in moments.items():
        base = refs.get(cell)
        if base is None or base not in moments:
            continue
        for name, m in by_metric.items():
            b = moments[base].get(name)
            if b is None or not (applies(name, cell) and applies(name, base)) or m.sy == 0 \
                    or b.sy == 0:
                continue
            if name == "skill_edge" and pairs.get(cell) != pairs.get(base):
                continue  # a skill edge compares only between the same two bots
            cm = cross.get(cell, {}).get(name)
            d = paired_difference(cm) if cm is not None else unpaired_difference(m, b)
            items.append((name, cell, base, m.ratio, b.ratio, d))
    mixes = {c["cell"]: c["mix"] for c in cells}
    comparisons = [{**c.as_dict(), "effect": "lineup" if mixes[c.cell] != mixes[c.baseline]
                    else "rules"} for c in correct(items, settings.correction, settings.alpha)]
    skill = []
    mixes_n = len(spec.lineups())
    chooser = (settings.baseline // mixes_n) * mixes_n
    for cell, (strong, weak) in sorted(pairs.items()):
        held = moments.get(cell, {}).get("skill_edge")
        if held is None:
            continue  # no held-out deal: too few hands to measure a chosen pair
        edge = ratio_interval(held)
        need = hands_to_separate(edge, int(held.sy))
        skill.append({"cell": cell, "strong": strong, "weak": weak, **{
            f"edge_{k}": v for k, v in edge.as_dict().items() if k != "n"},
            **{f"hands_{k}": v for k, v in need.as_dict().items() if k != "n"},
            "chosen_in": chooser + cell % mixes_n, "edge_deals": held.n,
            "edge_hands": int(held.sy)})
    for c in cells:
        c["hands"] = hands.get(c["cell"], 0)
        c["deals"] = next(iter(moments.get(c["cell"], {}).values()), Moments(0, 0, 0, 0, 0, 0)).n
    return {"run_id": run_id, "title": settings.title or spec.name or run_id,
            "settings": settings.model_dump(mode="json"), "common_deals": spec.common_deals,
            "seed": spec.seed, "cells": cells, "metrics": metrics,
            "comparisons": comparisons, "quantiles": quantiles, "ecdf": ecdf,
            "skill": skill, "skill_rule": SKILL_RULE, "categories": categories}


def _bounded(name: str, m: Moments) -> dict[str, Any]:
    """A metric's estimate and interval; a share's interval kept inside 0..1."""
    est = ratio_interval(m).as_dict()
    if metric_info(name).unit.startswith("share") and est["lo"] is not None:
        est["lo"], est["hi"] = max(0.0, est["lo"]), min(1.0, est["hi"])
    return est


def exact_tables(cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The exact hand-category table of each distinct rule set of the cells (the
    census of :func:`pokerarena.studies.census.rule_census`: exact where every hand can
    be enumerated, else a labelled sample with intervals), with the pairs whose ranking
    disagrees with their frequencies (the paradox flags)."""
    from pokerarena.studies.census import CensusError, rule_census

    seen: dict[str, list[int]] = {}
    for c in cells:
        key = json.dumps([c["variant"], c["options"]], sort_keys=True)
        seen.setdefault(key, []).append(c["cell"])
    merged: dict[tuple, dict[str, Any]] = {}
    out: list[dict[str, Any]] = []
    for key, members in seen.items():
        variant, options = json.loads(key)
        try:
            census = rule_census(variant, options)
        except CensusError as exc:
            out.append({"title": f"{variant} {_options_text(options)}", "cells": members,
                        "error": str(exc), "rows": []})
            continue
        for t in census.tables:
            # rule sets that deal the same hands (options of the betting only) share one
            ident = (variant, t.half, t.ranking, t.deck, t.wild, t.wild_rule, t.hand, t.rows)
            if ident in merged:
                merged[ident]["cells"] = sorted(merged[ident]["cells"] + members)
                continue
            merged[ident] = _exact_entry(variant, t, members)
            out.append(merged[ident])
    return out


def _exact_entry(variant: str, t: Any, members: list[int]) -> dict[str, Any]:
    """One census table for the report, each category flagged where it ranks above a
    more common one."""
    flags: dict[str, list[str]] = {}
    for inv in t.inversions:
        flags.setdefault(inv.higher, []).append(
            f"ranks above {inv.lower.replace('_', ' ')} yet is more common"
            + ("" if inv.certain else " (within the sample's error)"))
    order = {name: i + 1 for i, name in enumerate(t.probability_order)}
    return {"title": f"{variant}: {t.half} hands ({t.hand}; {t.deck} deck; wild: {t.wild})",
            "cells": list(members), "sampled": t.method != "exact", "hands": t.hands,
            "probability_order": list(t.probability_order), "notes": list(t.notes),
            "rows": [{"category": r.name, "rank": r.rank, "count": r.count,
                      "probability": r.frequency, "low": r.low, "high": r.high,
                      "probability_rank": order.get(r.name),
                      "flag": "; ".join(flags.get(r.name, [])) or None} for r in t.rows]}


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(options.items())) or \
        "(variant's own rules)"


def report_tables(results: dict[str, Any]) -> dict[str, pa.Table]:
    """The report's numbers as Arrow tables (written beside ``report.html``)."""
    def table(rows: list[dict[str, Any]]) -> pa.Table:
        return pa.Table.from_pylist([{k: _plain(v) for k, v in r.items()} for r in rows])

    cells = [{**c, "options": json.dumps(c["options"], sort_keys=True),
              "mix": ",".join(c["mix"])} for c in results["cells"]]
    out = {"cells": table(cells), "metrics": table(results["metrics"]),
           "comparisons": table(results["comparisons"]),
           "pot_quantiles": table(results["quantiles"])}
    if results["skill"]:
        out["skill"] = table(results["skill"])
    exact = [{"table": t["title"], "cells": ",".join(map(str, t["cells"])),
              "sampled": t.get("sampled"), **r}
             for t in results.get("exact_tables") or [] for r in t["rows"]]
    if exact:
        out["exact_tables"] = table(exact)
    return out


def _plain(v: Any) -> Any:
    return None if isinstance(v, float) and not math.isfinite(v) else v


def write_report(data: str | Path, run_id: str, out: str | Path | None = None, *,
                 exact: bool = True) -> Path:
    """Write run ``run_id``'s report to ``out/report.html`` (default: the run's
    ``report/`` folder) with its Parquet tables beside it; returns the HTML's path.
    ``exact``: with the census tables (a deuces-wild seven-card census takes a minute)."""
    from pokerarena.platform.standings import write_tables
    from pokerarena.studies.report import render

    results = study_results(data, run_id, exact=exact)
    folder = Path(out) if out is not None else RunStore(data, run_id).run_dir / "report"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"--out {folder}: cannot create it: {exc.strerror}") from None
    write_tables(folder, report_tables(results), {"run_id": run_id, "report": REPORT_FILE})
    path = folder / REPORT_FILE
    tmp = folder / f".{REPORT_FILE}.tmp"
    tmp.write_text(render(results), encoding="utf-8")
    tmp.replace(path)
    return path
