"""The row layout of a unit's tables, declared once.

Each table (``hands``, ``seats``, ``actions``, ``faults``, ``places``, ``units``) is a
:class:`Table` of :class:`Column` s: name, type and meaning. Everything else comes from
here: the Arrow schema the Parquet writer uses (:attr:`Table.schema`), the DuckDB types
of the query views (:attr:`Column.duckdb`, the empty views of a run without parts) and
the column tables of ``docs/schema.md`` (:func:`render_schema_doc`; regenerate with
``python -m pokerarena.workers.rows docs/schema.md``, a test checks the file is current).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cached_property

import pyarrow as pa

from pokerarena.games import RecordTable

# The types a column may have: its name in the docs -> (Arrow type, DuckDB type).
TYPES: dict[str, tuple[pa.DataType, str]] = {
    "string": (pa.string(), "VARCHAR"),
    "bool": (pa.bool_(), "BOOLEAN"),
    "int8": (pa.int8(), "TINYINT"),
    "int16": (pa.int16(), "SMALLINT"),
    "int32": (pa.int32(), "INTEGER"),
    "int64": (pa.int64(), "BIGINT"),
    "double": (pa.float64(), "DOUBLE"),
    "timestamp (ms, UTC)": (pa.timestamp("ms", tz="UTC"), "TIMESTAMP WITH TIME ZONE"),
    "list of int64": (pa.list_(pa.int64()), "BIGINT[]"),
    "list of double": (pa.list_(pa.float64()), "DOUBLE[]"),
}


@dataclass(frozen=True, slots=True)
class Column:
    """One column: ``kind`` is a key of :data:`TYPES`; ``partition`` marks the Hive
    partition column ``unit`` (in the folder name and the views, not in the file)."""

    name: str
    kind: str
    doc: str
    partition: bool = False

    @property
    def arrow(self) -> pa.DataType:
        """The column's Arrow type (what the Parquet part holds)."""
        return TYPES[self.kind][0]

    @property
    def duckdb(self) -> str:
        """The column's type in the DuckDB views."""
        return TYPES[self.kind][1]


@dataclass(frozen=True)
class Table:
    """One table of a unit: its name, what a row is, and its columns in order."""

    name: str
    doc: str
    columns: tuple[Column, ...]

    @cached_property
    def stored(self) -> tuple[Column, ...]:
        """The columns a part file holds (all but the partition column)."""
        return tuple(c for c in self.columns if not c.partition)

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Names of the stored columns, in order."""
        return tuple(c.name for c in self.stored)

    @cached_property
    def schema(self) -> pa.Schema:
        """The Arrow schema of a part file."""
        return pa.schema([(c.name, c.arrow) for c in self.stored])

    def table(self, rows: list[tuple]) -> pa.Table:
        """An Arrow table of ``rows`` (tuples in :attr:`names` order)."""
        cols = list(zip(*rows, strict=True)) if rows else [()] * len(self.stored)
        return pa.Table.from_arrays([pa.array(v, c.arrow) for v, c in
                                     zip(cols, self.stored, strict=True)],
                                    schema=self.schema)

    @cached_property
    def view_columns(self) -> tuple[Column, ...]:
        """The columns of the table's DuckDB view, in its order: the stored columns,
        then the partition column (where a Hive-partitioned read puts it)."""
        return self.stored + tuple(c for c in self.columns if c.partition)

    def empty_sql(self) -> str:
        """A DuckDB ``SELECT`` of no rows with the view's columns and types (the view of
        a table without parts)."""
        return "SELECT " + ", ".join(f"CAST(NULL AS {c.duckdb}) AS {c.name}"
                                     for c in self.view_columns) + " WHERE false"


def _c(name: str, kind: str, doc: str) -> Column:
    if kind not in TYPES:
        raise ValueError(f"column {name}: unknown type {kind!r}")
    return Column(name, kind, doc)


def _unit(doc: str) -> Column:
    return Column("unit", "string", doc, partition=True)

HANDS = Table(
    'hands', 'One row per hand.', (
    _c('run_id', 'string', 'the run'),
    _unit('the unit that played the hand (Hive partition)'),
    _c('match', 'int32', "match number in the run's plan"),
    _c('hand', 'int32', 'hand number within the match (0-based; unique per match)'),
    _c('deal', 'int32',
        'deal number within the match: with `duplicate = true` the hands of one deal (one per '
        'rotation of the lineup) share the same cards; otherwise equal to `hand`'),
    _c('variant', 'string', 'variant id (`holdem`, `stud7`, ...)'),
    _c('betting', 'string',
        'betting system (`no_limit`, `pot_limit`, `fixed_limit`, `spread_limit`)'),
    _c('players', 'int8', 'seats at the table'),
    _c('button', 'int8', "the button's seat"),
    _c('board', 'string', 'community cards, null in games without a board'),
    _c('pot', 'int64', 'chips in all pots at the end (rake included)'),
    _c('rake', 'int64', 'chips the house took'),
    _c('showdown', 'bool', 'two or more players reached the showdown'),
    _c('passed', 'bool', 'nobody opened (openers rules): the pot waits for the next deal'),
    _c('carry_in', 'int64',
        'chips carried into this hand from a passed deal (0 at the first hand of a unit)'),
    _c('carry_out', 'int64', 'chips this hand leaves in the pot for the next deal'),
    _c('decisions', 'int16',
        'player decisions (rows of `actions` with `seat >= 0` and a player kind)'),
    _c('winners', 'int8', 'seats that won chips from a pot'),
    _c('bb', 'int32',
        'the unit of mbb: the big blind, or the small bet in games without blinds'),
    _c('stack', 'int64',
        'the starting stack, the buy-in (with carried stacks each seat starts from its '
        'own `seats.start_stack`)'),
    _c('ante', 'int32', 'ante per player (rule option)'),
    _c('small_blind', 'int32', 'smallest non-zero blind, 0 without blinds'),
    _c('big_blind', 'int32', 'largest blind, 0 without blinds'),
    _c('bring_in', 'int32', 'stud bring-in'),
    _c('small_bet', 'int32', 'fixed-limit small bet'),
    _c('big_bet', 'int32', 'fixed-limit big bet'),
    _c('min_bet', 'int32', 'spread-limit minimum bet'),
    _c('max_bet', 'int32', 'spread-limit maximum bet'),
    _c('max_raises', 'int32', 'raise cap per round, null for no cap'),
    _c('options', 'string',
        'the game options of the spec as JSON (sorted keys; `betting` included): every rule '
        "option, for grouping with `options->>'$.name'`"),
))

SEATS = Table(
    'seats', 'One row per seat per hand.', (
    _c('run_id', 'string', 'the run'),
    _unit('the unit (Hive partition)'),
    _c('match', 'int32', 'match number'),
    _c('hand', 'int32', 'hand number within the match'),
    _c('variant', 'string', 'variant id (copied from `hands` for grouping without a join)'),
    _c('betting', 'string', 'betting system (copied from `hands`)'),
    _c('seat', 'int8', 'the seat'),
    _c('position', 'int8', '0 = first seat left of the button ... `players - 1` = the button'),
    _c('is_button', 'bool', 'the seat is the button'),
    _c('bot', 'string', "the bot's registered name"),
    _c('cards', 'string',
        "the seat's own cards at the end, in the order dealt (after draws in draw games); "
        'recorded for folded seats too'),
    _c('up_cards', 'string', 'its face-up cards (stud), else null'),
    _c('start_stack', 'int64',
        'chips at the start of the hand: the starting stack every hand, or with carried stacks '
        '(`table_stakes = "carry"`) what the seat kept from its last hand, plus any `rebuy`'),
    _c('end_stack', 'int64', 'chips at the end'),
    _c('net', 'int64', '`end_stack - start_stack`'),
    _c('pot_won', 'int64', 'chips won from pots (0 for a loser)'),
    _c('folded', 'bool', 'the seat folded'),
    _c('showdown', 'bool', "the seat's hand was scored at the showdown"),
    _c('high', 'string', 'its high hand in words (`two pair, aces and sevens`), showdown only'),
    _c('high_category', 'string',
        'category of the high hand: `high_card`, `one_pair`, `two_pair`, `three_of_a_kind`, '
        '`straight`, `flush`, `full_house`, `four_of_a_kind`, `straight_flush`, '
        '`five_of_a_kind`; for lowball rankings `8-high` etc.; badugi `4-card` etc.'),
    _c('low', 'string', 'its qualifying low hand in words, high-low games only'),
    _c('low_category', 'string', 'category of the low hand (`8-high`, `7-high`, ...)'),
    _c('faults', 'int16',
        'decisions of this seat in this hand decided by the irregularity policy'),
    _c('equity_net', 'double',
        '`net` with an all-in runout settled by equity (every player still in all in before '
        'the last card: each credited with its equity in each pot it can win, 4,000 seeded '
        'Monte Carlo boards where enumerating takes more; hold\'em, short deck and Omaha); '
        'equal to `net` otherwise. Duplicate deals: the hands of a deal are settled '
        'together, at the deepest board any of them depends on (no settlement when that '
        'is the full board), every hole card of the deal dead and the boards seeded by '
        'the deal, so twins share their board luck. A variance reduction: same '
        'expectation, less luck'),
    _c('baseline_net', 'int64',
        "what the spec's `baseline` bot won in this seat on the same deal, every seat played "
        'by the baseline (a control variate: `net - baseline_net` has the same expectation '
        'and less card luck); null without a baseline'),
    _c('rebuy', 'int64',
        'chips the seat bought in before this hand: with carried stacks, a seat left with less '
        'than the forced bets of a hand is topped up to the starting stack (counted here); 0 '
        'when stacks reset every hand'),
    _c('aivat_net', 'double',
        '`net` corrected by AIVAT (spec `aivat = true`, heads-up betting poker): minus a '
        'term of mean zero at every chance event (its cards against the mean over every '
        'way they could have fallen, sampled by the deal so duplicate twins share them) '
        'and at every decision of a bot that declares its policy (the move played against '
        "the policy's mean), valued by the fixed equity value function of "
        '`tournaments.aivat_value`. Same expectation as `net`, less luck; sums to zero per '
        'hand without rake. Null when the spec does not ask for it'),
))

ACTIONS = Table(
    'actions', "One row per entry of the hand's action log: forced bets, deals, decisions.", (
    _c('run_id', 'string', 'the run'),
    _unit('the unit (Hive partition)'),
    _c('match', 'int32', 'match number'),
    _c('hand', 'int32', 'hand number within the match'),
    _c('seq', 'int16', "position in the hand's log (0-based)"),
    _c('street', 'int8',
        "index in the variant's street list of the decision's betting or draw round; forced "
        'bets and deals carry the street of the decision that follows them (after the last '
        'decision: its street)'),
    _c('seat', 'int8', 'who acted; -1 for the dealer'),
    _c('bot', 'string', 'the bot in that seat, null for the dealer'),
    _c('kind', 'string',
        'PHH codes: `f` fold, `cc` check/call, `cbr` bet/raise to, `pb` bring-in, `sd` '
        'discard, `sm` show; `ante`, `blind` forced bets; `dh` deal to a seat, `db` deal to '
        'the board'),
    _c('amount', 'int64',
        '`cbr`: the total bet to; `cc`: chips added (0: a check); `ante`/`blind`/`pb`: chips '
        'posted; 0 otherwise'),
    _c('cards', 'string', 'cards of `dh`, `db`, `sd` (the discards), `sm`; else null'),
    _c('target', 'int8', '`dh`: the seat dealt to; else null'),
    _c('fault', 'bool',
        "the decision was the irregularity policy's, not the bot's (exception, timeout, "
        'illegal or garbage answer, removed bot)'),
))

FAULTS = Table(
    'faults', 'One row per fault the table recorded (RULES.md §4; kinds from '
    '`pokerarena.arena.faults`).', (
    _c('run_id', 'string', 'the run'),
    _unit('the unit (Hive partition)'),
    _c('match', 'int32', 'match number'),
    _c('hand', 'int32',
        'hand number within the match; null for a fault outside a hand (`start_match`)'),
    _c('seat', 'int8', 'the seat'),
    _c('bot', 'string', "the bot's label in the match"),
    _c('kind', 'string',
        '`exception`, `timeout`, `hand_timeout`, `illegal`, `garbage`, `removed`, '
        '`disconnected`'),
    _c('detail', 'string', 'what happened (truncated to 300 characters)'),
))

UNITS = Table(
    'units', 'One row per finished unit, written last by the worker.', (
    _c('run_id', 'string', 'the run'),
    _unit('the unit id (Hive partition)'),
    _c('match', 'int32', 'match number'),
    _c('shard', 'int32', 'shard number within the match'),
    _c('variant', 'string', 'variant id'),
    _c('betting', 'string', 'betting system'),
    _c('options', 'string', 'game options as JSON'),
    _c('bots', 'string',
        'the lineup in seat order, comma-separated (rotated one seat per shard)'),
    _c('hands', 'int32', 'hands in the unit'),
    _c('first_hand', 'int32', 'match hand number of its first hand'),
    _c('seed', 'int64', 'the run seed'),
    _c('spawn_key', 'string',
        "`match,shard`: the unit's seed is `SeedSequence(seed, spawn_key=(match, shard))`"),
    _c('worker', 'string', '`host:pid` of the process that played it'),
    _c('attempt', 'int32', '1 for the first attempt, 2+ after retries'),
    _c('started_at', 'timestamp (ms, UTC)', 'when the worker started it'),
    _c('play_seconds', 'double', 'time playing the hands and building the columns'),
    _c('write_seconds', 'double',
        'time writing the `hands`, `seats`, `actions` and `faults` parts'),
    _c('rows_hands', 'int64', 'rows written to `hands`'),
    _c('rows_seats', 'int64', 'rows written to `seats`'),
    _c('rows_actions', 'int64', 'rows written to `actions`'),
    _c('rows_faults', 'int64', 'rows written to `faults`'),
    _c('bytes', 'int64', 'bytes of its `hands`, `seats`, `actions` and `faults` parts'),
    _c('bot_decisions', 'list of int64',
        'decisions each bot of `bots` was asked for, in that order'),
    _c('bot_think_seconds', 'list of double',
        "time each bot of `bots` spent deciding (inside `act` and its hooks, as the table's "
        "time guard measures it), in that order; against `play_seconds` it is the bots' share "
        "of the unit's time. A unit played on the fast table (docs/architecture.md) times its "
        "decisions together: each bot gets its decisions times the unit's mean"),
))

PLACES = Table(
    'places', 'One row per entry of a freeze-out (`format = "freezeout"`): its finish. Every '
    'unit writes this table; other units write it empty. Runs written before it existed '
    'have no `places` folder and read as without rows.', (
    _c('run_id', 'string', 'the run'),
    _unit('the unit that played the tournament (Hive partition)'),
    _c('match', 'int32', "the tournament's number in the run (its hands' `match`)"),
    _c('entry', 'int32', "the entry, 0-based, in the unit's `bots` order"),
    _c('bot', 'string', "the entry's bot"),
    _c('place', 'int32',
        '1 = the winner; entries out in the same round with the same chips at its start tie '
        'and share the best place they span (and the mean of those places\' prizes)'),
    _c('prize', 'double', 'its prize from the payout table (the tournament\'s prizes sum to '
       '`prize_pool`)'),
    _c('chips', 'int64', 'chips at the end (0 for an entry that went out)'),
    _c('out_round', 'int32',
        "the round it went out in (its last hand's `deal`: rounds count from 0); null: still "
        'in at the end'),
    _c('icm', 'double',
        'its stack\'s ICM chip equity (Malmuth-Harville) when the tournament stopped at the '
        'round limit with it still in; null otherwise'),
    _c('rounds', 'int32', 'rounds the tournament played (a round: one hand at every table)'),
    _c('hands', 'int32', 'hands the tournament played (all tables)'),
    _c('finished', 'bool', 'one entry won every chip (false: stopped at the round limit)'),
    _c('chips_conserved', 'bool',
        'the chips on all tables summed to `entrants` x the starting stack after every round'),
    _c('entrants', 'int32', "the tournament's entries"),
    _c('buy_in', 'double', 'the buy-in of an entry'),
    _c('prize_pool', 'double', '`entrants` x `buy_in`'),
))



def record_table(record: RecordTable) -> Table:
    """The storage table of a game family's score record (:class:`~pokerarena.games.
    RecordTable`): ``run_id``, ``unit``, ``match`` and ``game`` in front of its columns."""
    return Table(record.name, record.doc + " Written by the units of that family's runs "
                 "only (other runs have no folder for it and read as without rows).", (
        _c('run_id', 'string', 'the run'),
        _unit('the unit that played the game (Hive partition)'),
        _c('match', 'int32', 'match number'),
        _c('game', 'int32', 'the game: its `hands.hand` (one `hands` row per game)'),
        *(_c(name, kind, doc) for name, kind, doc in record.columns)))


def _family_tables() -> tuple[Table, ...]:
    """Every registered family's record tables, in family order, read from the families'
    light ``sheet`` modules (:func:`pokerarena.games.record_tables`): no game's code is
    imported to list the storage tables."""
    from pokerarena.games import family_ids, record_tables

    return tuple(record_table(r) for f in family_ids() for r in record_tables(f))


FAMILY_TABLES: dict[str, Table] = {t.name: t for t in _family_tables()}
"""The game families' record tables (``painted_deals``, ``painted_tricks``, ...), by name."""
TABLES: dict[str, Table] = {t.name: t for t in (HANDS, SEATS, ACTIONS, FAULTS, PLACES,
                                               *FAMILY_TABLES.values(), UNITS)}
"""Every table of a unit, in the order the docs list them."""
SCHEMAS: dict[str, pa.Schema] = {name: t.schema for name, t in TABLES.items()}
"""The Arrow schema of each table (from the declaration)."""
DATA_TABLES = ("hands", "seats", "actions", "faults", "places")
"""Tables a unit of betting poker writes before its ``units`` row (written last: it
marks a complete unit); a game family's unit adds its record tables
(:func:`unit_tables`)."""
ADDED_TABLES = ("places", *FAMILY_TABLES)
"""Data tables added after runs were first written, or written by some runs only (the
families' records): a run without a folder for one has none (its units are complete
without it); in a run with the folder, every complete unit has its part."""


def unit_tables(variant: str) -> tuple[str, ...]:
    """The data tables a unit of ``variant`` writes: :data:`DATA_TABLES`, and for a
    game family, its record tables (its score record, its tricks: a run plays one
    family)."""
    from pokerarena.games import family_ids, record_tables

    if variant in family_ids():
        return (*DATA_TABLES, *(r.name for r in record_tables(variant)))
    return DATA_TABLES


BEGIN = "<!-- generated by pokerarena.workers.rows: edit the declaration there, not here -->"
END = "<!-- end of the generated tables -->"


def render_tables() -> str:
    """The column tables of ``docs/schema.md``: a section per table."""
    out = [BEGIN, ""]
    for t in TABLES.values():
        out += [f"## `{t.name}`", "", t.doc, "", "| column | type | meaning |", "|---|---|---|"]
        out += [f"| `{c.name}` | {c.kind} | {c.doc} |" for c in t.columns]
        out.append("")
    return "\n".join([*out, END])


def render_schema_doc(text: str) -> str:
    """``text`` (the page) with its generated part replaced by :func:`render_tables`."""
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise ValueError("the page has no generated part (its markers are missing)")
    return pattern.sub(lambda _m: render_tables(), text, count=1)


if __name__ == "__main__":  # python -m pokerarena.workers.rows docs/schema.md
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            page = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(render_schema_doc(page))
