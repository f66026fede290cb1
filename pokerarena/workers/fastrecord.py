"""A fast hold'em unit's rows from its :class:`~pokerarena.engine.fastholdem.arrays.
HandArrays`: the very ``hands``, ``seats`` and ``actions`` tables the reference recorder
(:mod:`pokerarena.workers.records`) builds from the played hands.

The fast table plays a whole unit in compiled code and returns numbers, not ``Hand``
objects; the rows are built here column by column with numpy and Arrow (a tuple per row
costs more than the hand itself): 2-4 us a hand without actions, 4-6 us with them (6
seats, a shared 2-core machine). The showdown's words and categories are looked up once
per distinct value.
What is left is the all-in equity settlement, the reference's own cost too: where the
bench unit's bots shove, half its hands are runouts of 4,000 sampled or up to 990
enumerated boards. Its floats must be ``equity_deltas``'; they come from the same
integer shares of the same boards (:func:`_all_shares`: one compiled pass over every
runout of the unit, 1.2-1.6x faster than the reference's call per runout).

Scope (anything else is refused): hold'em-like high games, one seating, stacks reset
every hand, no baseline, no faults, nothing carried from a passed deal (so the rake is
what the seats' nets lose). :func:`arrays_of` turns reference hands into the same
arrays (the tests, and checks of the kernel against the reference).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
from numba import njit

from pokerarena.arena.match import _category, _rankings
from pokerarena.cards import NUM_CODES, card_str, deck
from pokerarena.engine import Game
from pokerarena.engine.fastholdem.arrays import HandArrays
from pokerarena.engine.fastholdem.layout import (
    KIND_NAMES,
    L_CALL,
    L_DEAL_BOARD,
    L_DEAL_HOLE,
    L_FOLD,
    L_RAISE,
    MAXN,
)
from pokerarena.evaluator.batch import BIAS5, MASK13, batch_tables_for
from pokerarena.evaluator.equity import BOARD_CARDS, CHUNK, GAMES
from pokerarena.evaluator.kernels import CARD_MASKS, LOW_WORD, U64, flush_shift
from pokerarena.tournaments.variance import (
    _DIRECT,
    EQUITY_GAMES,
    _enumerate,
    _equities,
    _high_ranking,
    _split_sums,
    settle_by_equity,
)
from pokerarena.workers.gamecols import EQUITY_SAMPLES, game_columns
from pokerarena.workers.rows import ACTIONS, HANDS, SEATS, Table
from pokerarena.workers.unit import Unit

__all__ = ["arrays_of", "unit_tables"]

_CODE = {name: i for i, name in enumerate(KIND_NAMES)}
_PLAYER = (L_FOLD, L_CALL, L_RAISE)
# two ASCII bytes of every card code's text (``As``), by code
_TEXT2 = np.frombuffer("".join(card_str(c) for c in range(NUM_CODES)).encode("ascii"),
                       np.uint8).reshape(NUM_CODES, 2)


# --- reference hands -> arrays --------------------------------------------------------

def arrays_of(hands: Sequence[Any], n: int,
              streets: Sequence[Mapping[int, int]] | None = None) -> HandArrays:
    """The finished reference hands (``play_match``'s ``on_hand``) as the fast kernel's
    arrays. ``streets[h]``: hand ``h``'s decisions' view streets by log index (from
    ``on_decision``'s ``Decision.street``); without it a decision's street is the index
    in the variant's streets of its betting round (the first after as many board deals
    as came before it: hold'em's pre-flop, flop, turn, river)."""
    a = HandArrays.empty(len(hands), n, sum(len(h.log) for h in hands))
    k = 0
    for i, hand in enumerate(hands):
        _fill_hand(a, i, hand, n)
        given = streets[i] if streets is not None else None
        k, a.decisions[i] = _fill_log(a, k, hand.log, given, _bet_streets(hand.game))
        a.log_start[i + 1] = k
    return a


def _fill_hand(a: HandArrays, i: int, hand: Any, n: int) -> None:
    """Hand ``i``'s per-hand and per-seat fields (arrays.py's mapping)."""
    res = hand.result()
    end = hand.observation(hand.button)
    a.button[i] = hand.button
    a.nboard[i] = len(end.board)
    a.board[i, :len(end.board)] = end.board
    a.pot[i] = sum(int(p.amount) for p in res.pots)
    a.showdown[i] = bool(res.went_to_showdown)
    a.npots[i] = len(res.pots)
    for s in range(n):
        a.hole[i, s] = hand.cards_of(s)
        a.deltas[i, s] = int(res.deltas[s])
        a.stacks[i, s] = int(res.stacks[s])
        a.folded[i, s] = bool(end.folded[s])
    for s, raw in res.showdown_raw.items():
        a.in_showdown[i, s] = True
        a.high[i, s] = int(raw[1])
    for k, p in enumerate(res.pots):
        a.pot_amount[i, k] = int(p.amount)
        a.pot_eligible[i, k, list(p.eligible)] = True
        for s, v in p.winners.items():
            a.pot_won[i, k, s] = int(v)
            a.won[i, s] += int(v)


def _bet_streets(game: Any) -> list[int]:
    """The indices of the variant's betting streets, in order."""
    return [i for i, st in enumerate(game.variant.streets) if st.kind == "bet"]


def _fill_log(a: HandArrays, k: int, log: Any, streets: Mapping[int, int] | None,
              rounds: list[int]) -> tuple[int, int]:
    """The hand's log entries from ``k`` on; the next free entry and its decisions."""
    decisions = 0
    dealt = 0
    for j, (actor, act) in enumerate(log):
        kind = _CODE[act.kind]
        a.actor[k] = actor
        a.kind[k] = kind
        a.amount[k] = int(act.amount)
        a.ncards[k] = len(act.cards)
        a.cards[k, :len(act.cards)] = act.cards
        if kind == L_DEAL_HOLE:
            a.target[k] = act.target
        elif kind == L_DEAL_BOARD:
            dealt += 1
        elif kind in _PLAYER and actor >= 0:
            decisions += 1
            a.street[k] = rounds[dealt] if streets is None else streets[j]
        k += 1
    return k, decisions


# --- arrays -> the unit's tables --------------------------------------------------------

def unit_tables(unit: Unit, game: Game, stack: int, arrays: HandArrays,
                seat_bot: Sequence[str]) -> tuple[dict[str, pa.Table], list[int]]:
    """The unit's ``hands``, ``seats`` and ``actions`` tables (``actions`` empty when
    ``unit.record == "hands"``), equal to :func:`~pokerarena.workers.records.play_unit`'s
    for the same hands, and each hand's evaluations (what the recorder tells the unit
    observer). ``seat_bot[s]``: the bot in seat ``s``. A unit outside the fast table's
    scope (module docstring) is refused: its rows would not be the recorder's."""
    outside = ("duplicate seatings" if unit.duplicate else "carried stacks"
               if unit.carry_stacks else "a baseline" if unit.baseline else "a low ranking"
               if _rankings(game)[1] is not None else None)
    if outside is not None:
        raise ValueError(f"unit {unit.unit_id}: the fast table's rows do not cover {outside}")
    a = arrays
    hand_no = unit.first_hand + np.arange(a.hands, dtype=np.int64)
    tables = {"hands": _hands_table(unit, game, stack, a, hand_no)}
    seats, evaluations = _seats_table(unit, game, stack, a, hand_no, seat_bot)
    tables["seats"] = seats
    tables["actions"] = (_actions_table(unit, a, hand_no, seat_bot) if unit.record != "hands"
                         else ACTIONS.table([]))
    return tables, evaluations


def _const(value: Any, kind: pa.DataType, size: int) -> pa.Array:
    """A column of ``size`` times ``value`` (None: nulls)."""
    return pa.nulls(size, kind) if value is None else pa.repeat(pa.scalar(value, kind), size)


def _table(t: Table, size: int, cols: dict[str, Any]) -> pa.Table:
    """Table ``t`` from its columns by name: Arrow arrays, numpy arrays (cast to the
    column's type) or one value for every row."""
    out = []
    for c in t.stored:
        v = cols[c.name]
        if isinstance(v, pa.Array):
            out.append(v)
        elif isinstance(v, np.ndarray):
            out.append(pa.array(v, c.arrow))
        else:
            out.append(_const(v, c.arrow, size))
    return pa.Table.from_arrays(out, schema=t.schema)


def _card_texts(cards: np.ndarray, counts: np.ndarray) -> pa.Array:
    """Each row's first ``counts[r]`` cards as text (``AsKd``), null where it has none
    (the reference's ``cards_text(cards) if cards else None``)."""
    rows, width = cards.shape
    counts = counts.astype(np.int64)
    data = _TEXT2[cards[np.arange(width) < counts[:, None]]]
    offsets = np.zeros(rows + 1, np.int32)
    np.cumsum(2 * counts, out=offsets[1:])
    valid = counts > 0
    nulls = rows - int(np.count_nonzero(valid))
    bitmap = pa.py_buffer(np.packbits(valid, bitorder="little")) if nulls else None
    return pa.StringArray.from_buffers(rows, pa.py_buffer(offsets), pa.py_buffer(data),
                                       bitmap, nulls)


def _hands_table(unit: Unit, game: Game, stack: int, a: HandArrays, hand_no: np.ndarray
                 ) -> pa.Table:
    """The ``hands`` rows (the recorder's ``_hand_row``): one rotation, no passed deals,
    the rake what the seats' nets lose."""
    h = a.hands
    shared = game_columns(unit.options, game, stack)  # ``bb`` .. ``options``
    names = HANDS.names
    cols: dict[str, Any] = dict(zip(names[names.index("bb"):], shared, strict=True))
    cols.update(
        run_id=unit.run_id, match=unit.match, hand=hand_no, deal=hand_no,
        variant=unit.variant, betting=unit.betting, players=a.seats, button=a.button,
        board=_card_texts(a.board, a.nboard), pot=a.pot, rake=-a.deltas.sum(axis=1),
        showdown=a.showdown, passed=False, carry_in=0, carry_out=0,
        decisions=a.decisions, winners=np.count_nonzero(a.won > 0, axis=1))
    return _table(HANDS, h, cols)


def _seats_table(unit: Unit, game: Game, stack: int, a: HandArrays, hand_no: np.ndarray,
                 seat_bot: Sequence[str]) -> tuple[pa.Table, list[int]]:
    """The ``seats`` rows (the recorder's ``_seat_rows``) and each hand's evaluations."""
    h, n = a.hands, a.seats
    rows = h * n
    seat = np.tile(np.arange(n, dtype=np.int64), h)
    button = np.repeat(a.button.astype(np.int64), n)
    high, category, evaluated = _showdown_texts(game, a)
    cols: dict[str, Any] = dict(
        run_id=unit.run_id, match=unit.match, hand=np.repeat(hand_no, n),
        variant=unit.variant, betting=unit.betting, seat=seat,
        position=np.mod(seat - button - 1, n), is_button=seat == button,
        bot=pa.array(list(seat_bot), pa.string()).take(pa.array(seat)),
        cards=_card_texts(a.hole.reshape(rows, 2), np.full(rows, 2)), up_cards=None,
        start_stack=stack, end_stack=a.stacks.ravel(), net=a.deltas.ravel(),
        pot_won=a.won.ravel(), folded=a.folded.ravel(), showdown=a.in_showdown.ravel(),
        high=high, high_category=category, low=None, low_category=None, faults=0,
        equity_net=_equity_nets(game, a, unit.first_hand), baseline_net=None, rebuy=0,
        aivat_net=None)
    evaluations = evaluated.reshape(h, n).sum(axis=1).tolist()
    return _table(SEATS, rows, cols), evaluations


def _showdown_texts(game: Game, a: HandArrays) -> tuple[pa.Array, pa.Array, np.ndarray]:
    """Each seat row's high hand in words and its category (null unless its hand was
    compared), and whether it has a category (an evaluation): one description and one
    category per distinct value."""
    mask = a.in_showdown.ravel()
    values, inverse = np.unique(a.high.ravel()[mask], return_inverse=True)
    words = _words(game, values.tolist())
    texts = [w[0] for w in words]
    cats = [w[1] for w in words]
    index = np.full(mask.shape[0], values.shape[0], np.int64)
    index[mask] = inverse
    take = pa.array(index)
    evaluated = np.array([c is not None for c in cats] + [False], np.bool_)[index]
    return (pa.array([*texts, None], pa.string()).take(take),
            pa.array([*cats, None], pa.string()).take(take), evaluated)


_WORDS: dict[tuple[str, int], tuple[str | None, str | None]] = {}  # (game, value): words
_WORDS_KEPT = 200_000  # entries (a high ranking has 7,462 values; an option sweep many games)


def _words(game: Game, values: list[int]) -> list[tuple[str | None, str | None]]:
    """Each high value's words and category (the showdown's ``describe``, ``or None``;
    ``showdown_categories``'), kept across units: a worker's units share them."""
    key = game.key
    out = []
    for v in values:
        found = _WORDS.get((key, v))
        if found is None:
            if len(_WORDS) >= _WORDS_KEPT:
                _WORDS.clear()
            found = _WORDS[key, v] = (game.scorer.describe(v) or None,
                                      _category(v, _rankings(game)[0]))
        out.append(found)
    return out


def _equity_nets(game: Game, a: HandArrays, first_hand: int) -> np.ndarray:
    """Each seat row's ``equity_net``: its net, or for a hand with an all-in runout its
    equity-settled delta (``equity_deltas``' steps in its order: the same floats),
    rounded as the recorder rounds it. Every runout's equities are computed first, in
    one compiled pass where the reference's own direct path applies."""
    out = a.deltas.astype(np.float64)
    variant = EQUITY_GAMES.get(game.variant_id)
    if variant is None or getattr(game.options, "wild", None):
        return out.ravel()
    plans = [(h, board, _pot_plan(a, h)) for h, board in _runouts(a)]
    jobs = {(h, tuple(live)): board for h, board, pots in plans
            for _, live in pots if len(live) >= 2}
    shares = _all_shares(a, jobs, variant, first_hand)
    for h, _, pots in plans:
        row = settle_by_equity([float(d) for d in a.deltas[h].tolist()], pots,
                               lambda live, h=h: shares[h, tuple(live)])
        out[h] = [round(x, 3) for x in row]
    return out.ravel()


def _runouts(a: HandArrays) -> list[tuple[int, list[int]]]:
    """The hands with an all-in runout and the board at their last decision
    (:func:`~pokerarena.tournaments.variance.allin_board`: more board cards dealt after
    the last betting entry, to a showdown of two or more)."""
    start = a.log_start
    size = int(start[-1])
    kind = a.kind[:size]
    dealt = np.concatenate(([0], np.cumsum(np.where(kind == L_DEAL_BOARD, a.ncards[:size], 0))))
    pos = np.where(np.isin(kind, _PLAYER), np.arange(size), -1)
    first = start[:-1]
    last = np.maximum.reduceat(pos, first) if size else np.full(a.hands, -1)
    at_last = dealt[np.maximum(last, 0)] - dealt[first]
    found = ((last >= 0) & (at_last < dealt[start[1:]] - dealt[first]) & a.showdown
             & (np.count_nonzero(a.in_showdown, axis=1) >= 2))
    return [(h, a.board[h, :at_last[h]].tolist()) for h in np.flatnonzero(found).tolist()]


def _pot_plan(a: HandArrays, h: int) -> list[tuple[dict[int, float], list[int]]]:
    """Each pot of hand ``h`` in order: what it paid each winner, and its live seats
    (eligible and compared at the showdown)."""
    compared = a.in_showdown[h].tolist()
    out = []
    for k in range(int(a.npots[h])):
        paid = {s: float(v) for s, v in enumerate(a.pot_won[h, k].tolist()) if v}
        out.append((paid, [s for s, e in enumerate(a.pot_eligible[h, k].tolist())
                           if e and compared[s]]))
    return out


def _all_shares(a: HandArrays, jobs: dict[tuple[int, tuple[int, ...]], list[int]],
                variant: str, first_hand: int) -> dict[tuple[int, tuple[int, ...]], list[float]]:
    """The equities of each (hand, live seats) on its board: ``variance._equities``'
    figures (seeded by the hand's match number). The direct path's runouts (hold'em and
    short deck; boards enumerated on the flop and the turn, sampled before the flop) go
    through one compiled pass: the same boards and the same integer shares, so the same
    floats; anything else through ``_equities`` itself."""
    g = GAMES[variant]
    rk = _high_ranking(g.ranking, g.deck)
    fast = variant in _DIRECT and rk.table_friendly
    out: dict[tuple[int, tuple[int, ...]], list[float]] = {}
    batch = []
    for (h, live), board in jobs.items():
        exact = _enumerate(len(live), len(board), variant, EQUITY_SAMPLES)
        if fast and (not exact or BOARD_CARDS - len(board) <= 2):
            batch.append((h, live, board, exact))
        else:
            holes = [a.hole[h, s].tolist() for s in live]
            out[h, live] = _equities(holes, board, variant, exact, EQUITY_SAMPLES,
                                     first_hand + h)
    if batch:
        out.update(_batched_shares(a, batch, g, rk, first_hand))
    return out


_UNITS = [math.lcm(*range(1, p + 1)) for p in range(MAXN + 1)]  # a board's pot, p players


def _batched_shares(a: HandArrays, batch: list[tuple[int, tuple[int, ...], list[int], bool]],
                    g: Any, rk: Any, first_hand: int
                    ) -> dict[tuple[int, tuple[int, ...]], list[float]]:
    """:func:`_all_shares`' compiled pass: the sampled runouts' draws from each hand's
    Generator in ``_equities``' order, then every runout's integer shares at once."""
    cards = np.asarray(deck(g.deck))
    hand = np.array([h for h, _, _, _ in batch], np.int64)
    seats = np.array([[*live, *[live[0]] * (MAXN - len(live))] for _, live, _, _ in batch])
    holes = np.ascontiguousarray(a.hole[hand[:, None], seats])
    boards = np.array([[*b, *[0] * (BOARD_CARDS - len(b))] for _, _, b, _ in batch], np.uint8)
    players = np.array([len(live) for _, live, _, _ in batch], np.int64)
    nboard = np.array([len(b) for _, _, b, _ in batch], np.int64)
    exact = np.array([ex for _, _, _, ex in batch], np.bool_)
    units = np.array([_UNITS[p] for p in players.tolist()], np.int64)
    taken = np.zeros(len(batch) + 1, np.int64)  # each runout's first draws column
    taken[1:] = np.cumsum(~exact) * EQUITY_SAMPLES
    cols = np.zeros((BOARD_CARDS, int(taken[-1])), np.int64)  # a board's draws: a column
    for j, (h, live, board, ex) in enumerate(batch):
        if not ex:
            _draws(first_hand + h, cards.size - 2 * len(live) - len(board),
                   cols[:BOARD_CARDS - len(board), taken[j]:taken[j + 1]])
    bt = batch_tables_for(rk)
    totals = np.zeros((len(batch), MAXN), np.int64)
    nboards = np.zeros(len(batch), np.int64)
    _runout_totals(cards, holes, players, boards, nboard, exact, cols, taken, units, bt.ck,
                   bt.test, bt.flush, bt.shift7, bt.adj7, bt.values7, totals, nboards)
    out = {}
    for (h, live, _, _), whole, row in zip(batch, (units * nboards).tolist(),
                                           totals.tolist(), strict=True):
        out[h, live] = [float(x / whole) for x in row[:len(live)]]
    return out


def _draws(seed: int, free: int, into: np.ndarray) -> None:
    """The sampled boards' draws of ``_equities`` (``free`` cards left; ``into``: a row
    per card to deal, a column per board), in its order of Generator calls."""
    rng = np.random.default_rng(seed)
    boards = 0
    while boards < EQUITY_SAMPLES:
        m = min(CHUNK, EQUITY_SAMPLES - boards)
        for j in range(into.shape[0]):
            into[j, boards:boards + m] = rng.integers(0, free - j, size=m)
        boards += m


_BOARDS = 1024  # boards scored per pass (their keys and values stay in the L1 cache)


@njit(cache=True)
def _chunk_shares(keys, masks_of, boards, p, base, masks, tables, unit, value,
                  out):  # pragma: no cover - jit
    """Add each player's share of ``boards`` boards to ``out``: ``evaluate_batch``'s
    7-card values (``batch._high7``'s lookups on the summed card keys: ``base``/``masks``
    each player's hole cards and known board, ``keys``/``masks_of`` each board's cards
    to come), without a branch (the flush slot read for every hand, kept for one), then
    ``variance._split_sums``' split of ``unit``."""
    test, flush, shift, adj, values = tables
    for q in range(p):
        b = base[q]
        m = masks[q]
        for i in range(boards):
            full = b + keys[i]  # unbiased: what the flush's shift reads
            biased = full + BIAS5
            rk = biased & LOW_WORD
            v = np.int32(values[U64(np.int64(rk) + adj[rk >> shift])])
            f = np.int32(flush[((m + masks_of[i]) >> flush_shift(full)) & MASK13])
            value[q, i] = f if biased & test else v
    _split_sums(value[:p, :boards], unit, out)


@njit(cache=True)
def _known(cards, holes, p, board, nb, ck, base, masks, rest):  # pragma: no cover - jit
    """Each player's summed card keys and rank masks of its hole cards and the known
    board into ``base``/``masks``; the cards left, in the deck's order, into ``rest``;
    returns how many are left."""
    used = np.zeros(256, np.bool_)
    key = U64(0)
    mask = U64(0)
    for i in range(nb):
        c = board[i]
        used[c] = True
        key += ck[c]
        mask += CARD_MASKS[c & 63]
    for q in range(p):
        h0, h1 = holes[q, 0], holes[q, 1]
        used[h0] = used[h1] = True
        base[q] = key + ck[h0] + ck[h1]
        masks[q] = mask + CARD_MASKS[h0 & 63] + CARD_MASKS[h1 & 63]
    nr = 0
    for c in cards:
        if not used[c]:
            rest[nr] = c
            nr += 1
    return nr


@njit(cache=True)
def _boards(rest, nr, k, exact, draws, p, base, masks, ck, tables, unit, buffers,
            out):  # pragma: no cover - jit
    """Score a runout's boards, :data:`_BOARDS` at a time: every completion (``k``: one
    or two cards to come), or the sampled ones: ``k`` cards of ``rest`` each by
    ``variance._sampled_hands``' partial Fisher-Yates with the board's ``draws`` column
    (its swaps undone after it). Returns the boards. (No call per board: each would count
    its arrays' references.)"""
    keys, masks_of, value = buffers
    total = (nr if k == 1 else nr * (nr - 1) // 2) if exact else draws.shape[1]
    perm = np.arange(nr)
    i, i2 = 0, 1  # a completion's cards in ``rest``
    n = 0  # boards waiting in keys/masks_of
    for b in range(total):
        key = U64(0)
        mask = U64(0)
        if exact:
            c = rest[i]
            key, mask = ck[c], CARD_MASKS[c & 63]
            if k == 2:
                key += ck[rest[i2]]
                mask += CARD_MASKS[rest[i2] & 63]
                i2 += 1
            if k == 1 or i2 == nr:
                i += 1
                i2 = i + 1
        else:
            for t in range(k):
                r = t + draws[t, b]
                x = perm[t]
                perm[t] = perm[r]
                perm[r] = x
                key += ck[rest[perm[t]]]
                mask += CARD_MASKS[rest[perm[t]] & 63]
            for t in range(k - 1, -1, -1):
                r = t + draws[t, b]
                x = perm[t]
                perm[t] = perm[r]
                perm[r] = x
        keys[n] = key
        masks_of[n] = mask
        n += 1
        if n == _BOARDS or b == total - 1:
            _chunk_shares(keys, masks_of, n, p, base, masks, tables, unit, value, out)
            n = 0
    return total


@njit(cache=True)
def _runout_totals(cards, holes, players, boards, nboard, exact, draws, draw_off, units,
                   ck, test, flush, shift, adj, values, totals,
                   nboards):  # pragma: no cover - jit
    """``totals[j, p]``: player ``p``'s summed share of runout ``j``'s boards, and
    ``nboards[j]`` its boards (:func:`_boards`): every completion, or the drawn samples
    (``draws`` columns ``draw_off[j]`` ..); ``cards``: the deck in its order."""
    tables = (test, flush, U64(shift), adj, values)
    base = np.zeros(MAXN, np.uint64)
    masks = np.zeros(MAXN, np.uint64)
    buffers = (np.zeros(_BOARDS, np.uint64), np.zeros(_BOARDS, np.uint64),
               np.zeros((MAXN, _BOARDS), np.int32))
    rest = np.empty(cards.size, np.int64)
    for j in range(holes.shape[0]):
        p = players[j]
        k = BOARD_CARDS - nboard[j]
        nr = _known(cards, holes[j], p, boards[j], nboard[j], ck, base, masks, rest)
        nboards[j] = _boards(rest, nr, k, exact[j], draws[:, draw_off[j]:draw_off[j + 1]], p,
                             base, masks, ck, tables, units[j], buffers, totals[j])


def _actions_table(unit: Unit, a: HandArrays, hand_no: np.ndarray, seat_bot: Sequence[str]
                   ) -> pa.Table:
    """The ``actions`` rows (the recorder's ``_action_rows``): no faults at the fast
    table."""
    start = a.log_start
    size = int(start[-1])
    per_hand = np.diff(start)
    first = np.repeat(start[:-1], per_hand)
    kind = a.kind[:size]
    actor = a.actor[:size].astype(np.int64)
    deal = (kind == L_DEAL_HOLE) | (kind == L_DEAL_BOARD)
    bots = pa.array([*seat_bot, None], pa.string())
    cols: dict[str, Any] = dict(
        run_id=unit.run_id, match=unit.match, hand=np.repeat(hand_no, per_hand),
        seq=np.arange(size) - first, street=_streets(a.street[:size], first, first
                                                     + np.repeat(per_hand, per_hand)),
        seat=actor, bot=bots.take(pa.array(np.where(actor >= 0, actor, len(seat_bot)))),
        kind=pa.array(list(KIND_NAMES), pa.string()).take(pa.array(kind.astype(np.int64))),
        amount=np.where(deal, 0, a.amount[:size]),
        cards=_card_texts(a.cards[:size], a.ncards[:size]),
        target=pa.array(a.target[:size], pa.int8(), mask=kind != L_DEAL_HOLE), fault=False)
    return _table(ACTIONS, size, cols)


def _streets(street: np.ndarray, first: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Each entry's ``street`` (``records._streets``): a decision's own; other entries
    the next decision's in the hand, after the last decision its, 0 in a hand without
    decisions. ``first``/``end``: each entry's hand's entries."""
    size = street.shape[0]
    index = np.arange(size)
    decided = street >= 0
    nxt = np.minimum.accumulate(np.where(decided, index, size)[::-1])[::-1]
    prev = np.maximum.accumulate(np.where(decided, index, -1))
    last = size - 1
    return np.where(nxt < end, street[np.minimum(nxt, last)],
                    np.where(prev >= first, street[np.maximum(prev, 0)], 0))
