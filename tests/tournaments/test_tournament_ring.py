"""Ring games: n-max tables drawn round after round so every pair of bots meets, seats
rotated, table stakes reset every hand (the ACPC's "Doyle's game") or carried from hand
to hand with buy-ins, played on Ray and counted from the rows with DuckDB.

The rule of carried stacks is the document's table stakes (000_… «Настольные ставки»):
«Перед игрой каждый игрок выкладывает на стол любую угодную ему сумму денег или покупает
на эту сумму фишки ... Любая выигранная игроком сумма добавляется к настольной. Кроме
того, он может увеличить настольную сумму из своего кармана — но не во время игры и
только на по меньшей мере обговоренный минимум. Во время игры игрок не может: ...
уменьшать свою настольную сумму или изымать из нее фишки». RULES.md §2: "`table_stakes`
(default everywhere): only chips on the table at the start of a game play".
"""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from pokerarena.arena.match import TableStakes, forced_most, play_match
from pokerarena.engine import Game
from pokerarena.platform.planner import plan
from pokerarena.platform.query import query
from pokerarena.platform.spec import SpecError, parse_spec
from pokerarena.workers.records import play_unit

RANDOM = "pokerarena.bots.simple.random_bot:RandomBot"
CALL = "pokerarena.bots.simple.call_bot:CallBot"
MANIAC = "pokerarena.bots.simple.maniac:ManiacBot"
BOTS = ["random", "call", "maniac", "tag?samples=40", RANDOM, CALL, MANIAC]  # 7 names
RING = {"kind": "tournament", "format": "ring", "name": "ring", "seed": 4, "bots": BOTS,
        "seats": 3, "rounds": 5, "hands": 24, "unit_hands": 24, "stack": 30,
        "table_stakes": "carry", "games": [{"variant": "holdem", "betting": "no_limit"}]}


@pytest.fixture(scope="module")
def ring_run(ray_cluster: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """RING played on the session's Ray cluster (two workers)."""
    from pokerarena.platform.api.testing import played
    from pokerarena.platform.executors import RayExecutor

    data = tmp_path_factory.mktemp("ring")
    return data, played(data, RING, executor=RayExecutor(2)).run_id


def test_every_pair_meets_at_tables_of_every_size(ring_run: tuple[Path, str]) -> None:
    """Seven bots at 3-max tables: each draw seats them at tables of 3, 2 and 2, and
    over five draws every one of the 21 pairs sat at a table together, as often as the
    draw says (counted from the stored seats), the most-met pair at most three times as
    often as the least; seats rotate (the button moves every hand)."""
    data, run_id = ring_run
    spec = parse_spec(RING)
    _, rows = query(data, "SELECT a.bot, b.bot, count(DISTINCT a.match) FROM seats a JOIN seats b "
                    "ON a.match = b.match AND a.hand = b.hand AND a.bot < b.bot GROUP BY 1, 2",
                    run_id)
    met = {(a, b): n for a, b, n in rows}
    drawn: Counter[tuple[str, str]] = Counter()
    for lineup in spec.lineups():
        drawn.update(tuple(sorted(p)) for p in itertools.combinations(lineup, 2))
    assert met == dict(drawn)
    assert len(met) == 21 and min(met.values()) >= 1
    assert max(met.values()) <= 3 * min(met.values())
    _, sizes = query(data, "SELECT players, count(DISTINCT match) FROM hands GROUP BY 1 "
                     "ORDER BY 1", run_id)
    assert sizes == [(2, 10), (3, 5)]
    _, ((matches, hands, buttons),) = query(
        data, "SELECT count(DISTINCT match), count(*), count(DISTINCT (match, button)) "
        "FROM hands", run_id)
    assert (matches, hands) == (15, 15 * 24)
    assert buttons == 10 * 2 + 5 * 3  # every seat of every table had the button


def test_carried_stacks_go_on_from_hand_to_hand_with_counted_buy_ins(
        ring_run: tuple[Path, str]) -> None:
    """«Любая выигранная игроком сумма добавляется к настольной»: a seat starts hand k+1
    with what it ended hand k with, plus a buy-in only when it was left short of the
    forced bets (topped up to the starting stack between hands, never during one, and a
    stack above it is never taken down); every unit's chips are conserved (stacks =
    seats x starting stack + buy-ins, every hand); the stored nets are the hands'
    deltas, so the standings read the same rows as with stacks reset."""
    data, run_id = ring_run
    need = forced_most(Game("holdem", {"betting": "no_limit"}), 3)  # the big blind
    _, rows = query(data, "SELECT unit, seat, hand, start_stack, end_stack, net, rebuy "
                    "FROM seats ORDER BY unit, seat, hand", run_id)
    buy_ins = 0
    for (unit, seat), chain in itertools.groupby(rows, key=lambda r: (r[0], r[1])):
        prev = None
        for _, _, hand, start, end, net, rebuy in chain:
            assert end - start == net
            if prev is None:
                assert (hand, start, rebuy) == (0, 30, 0)
            elif prev < min(need, 30):
                assert rebuy == 30 - prev and start == 30, (unit, seat, hand)
                buy_ins += 1
            else:
                assert rebuy == 0 and start == prev, (unit, seat, hand)
            prev = end
    assert buy_ins > 10  # maniac and random at 15 big blinds bust often
    _, bad = query(data, "SELECT unit, hand FROM seats GROUP BY unit, hand "
                   "HAVING sum(start_stack) <> count(*) * 30 + (SELECT coalesce(sum(r.rebuy), 0) "
                   "FROM seats r WHERE r.unit = seats.unit AND r.hand <= seats.hand) "
                   "OR sum(net) <> 0", run_id)
    assert bad == []
    _, ((distinct,),) = query(data, "SELECT count(DISTINCT start_stack) FROM seats", run_id)
    assert distinct > 20


def test_the_leaderboard_ranks_every_ring_bot(ring_run: tuple[Path, str]) -> None:
    """The standings of a ring run: every bot ranked with its interval, its rate its
    stored chips over its hands in big blinds (buy-ins are not winnings)."""
    from pokerarena.platform.standings import run_standings

    data, run_id = ring_run
    board = run_standings(data, run_id)
    _, truth = query(data, "SELECT s.bot, 1000 * sum(s.net / h.bb) / count(*) FROM seats s "
                     "JOIN hands h USING (run_id, match, hand) GROUP BY 1", run_id)
    rates = {r["bot"]: r for r in board["bots"]}
    assert set(rates) == set(BOTS)
    for bot, value in truth:
        assert rates[bot]["value"] == pytest.approx(value, abs=0.06)
        assert rates[bot]["lo"] <= rates[bot]["value"] <= rates[bot]["hi"]


def _hands(game: Game, bots: list[str], hands: int, seed: int, **kw
           ) -> tuple[object, list[tuple[list[int], list[int]]]]:
    """A match and each hand's (start stacks, end stacks) by seat."""
    seen: list[tuple[list[int], list[int]]] = []

    def on_hand(_no: int, hand: object, _seats: list[int]) -> None:
        res = hand.result()  # type: ignore[attr-defined]
        ends = [int(x) for x in res.stacks]
        seen.append(([e - int(d) for e, d in zip(ends, res.deltas, strict=True)], ends))

    return play_match(game, bots, hands, seed, on_hand=on_hand, **kw), seen


@pytest.mark.parametrize(("variant", "options", "stack"), [
    ("holdem", {"betting": "no_limit"}, 20),
    ("stud7", {"betting": "fixed_limit", "rake_percent": 5, "rake_cap": 3}, 14),
    ("draw5", {"betting": "fixed_limit", "openers": "jacks_or_better"}, 12),
])
def test_play_match_carries_stacks_and_conserves_chips(variant: str, options: dict,
                                                       stack: int) -> None:
    """In the arena: with carried stacks each hand starts from the last one's end
    stacks but for the buy-ins (a seat short of what the game may force it to post:
    the blind, or the ante and the bring-in; to the starting stack), counted per
    entrant; the chips on the table, the rake and a passed deal's pot always add up to
    the buy-ins (``chips_conserved``), and the net is the sum of the hands' deltas."""
    game = Game(variant, options)
    need = min(forced_most(game, 3), stack)
    res, seen = _hands(game, ["maniac", "random", "call"], 60, 9, stack=stack,
                       carry_stacks=True)
    assert res.chips_conserved and res.carry_stacks
    rebuys = [0, 0, 0]
    bought = [0, 0, 0]
    for (_, before), (start, _) in itertools.pairwise(seen):
        for s in range(3):
            if before[s] < need:
                assert start[s] == stack
                rebuys[s] += 1
                bought[s] += stack - before[s]
            else:
                assert start[s] == before[s]
    assert [e.rebuys for e in res.entrants] == rebuys and sum(rebuys) > 0
    assert [e.bought_in for e in res.entrants] == bought
    assert len({s for start, _ in seen for s in start}) > 5
    assert [e.net for e in res.entrants] == [sum(end[s] - st[s] for st, end in seen)
                                             for s in range(3)]
    assert res.as_dict()["entrants"][0]["rebuys"] == rebuys[0]


def test_table_stakes_need_and_conservation_check() -> None:
    """The least a seat needs to be dealt in: the blind in hold'em, ante + bring-in in
    stud, one chip in a game without forced bets, never more than the starting stack;
    a chip gone missing fails the check."""
    assert forced_most(Game("holdem", {"betting": "no_limit"}), 6) == 2
    stud = Game("stud7", {"betting": "fixed_limit"})
    assert forced_most(stud, 6) == stud.ante + stud.bring_in == 3
    assert TableStakes(200, 2, 0, True).need == 1
    assert TableStakes(2, 2, 5, True).need == 2
    t = TableStakes(10, 2, 2, True)
    assert t.deal() == [10, 10]
    assert t.settle([19, 1], 0, 0)
    assert t.deal() == [19, 10] and t.rebuys == [0, 1] and t.bought == [0, 9]
    assert not t.settle([19, 9], 0, 0)  # one chip short of 29


def test_reset_stacks_play_exactly_as_before() -> None:
    """Stacks reset every hand (the default) play the very hands they did before carried
    stacks existed: this ring spec's seats rows (cards, stacks, nets) and totals were
    taken from the code before the change (commit fae3d67); the ``rebuy`` column is 0
    and every hand starts from the stack. (Cheap bots: no tables to build; two of them
    named by their Python paths, so five bots make tables of 3 and 2.)"""
    import hashlib

    spec = parse_spec({"kind": "tournament", "format": "ring", "seed": 11,
                       "bots": ["random", "call", "maniac", RANDOM, CALL], "seats": 3,
                       "rounds": 2, "hands": 12, "unit_hands": 6,
                       "games": [{"variant": "holdem", "betting": "no_limit"}]})
    totals: Counter[str] = Counter()
    digest = hashlib.sha256()
    for u in plan(spec).units:
        seats = play_unit(u).tables["seats"]
        cols = [seats.column(c).to_pylist() for c in ("match", "hand", "seat", "bot", "cards",
                                                       "start_stack", "end_stack", "net")]
        for row in zip(*cols, strict=True):
            digest.update(repr(row).encode())
            totals[row[3]] += row[7]
        assert set(seats.column("rebuy").to_pylist()) == {0}
        assert set(seats.column("start_stack").to_pylist()) == {200}
    assert dict(totals) == {"call": -1020, "maniac": 630, CALL: 997, RANDOM: -593,
                            "random": -14}
    assert digest.hexdigest()[:16] == "22a049db583e35a7"


def test_carried_stacks_refuse_duplicate_deals_and_fractional_chips() -> None:
    """One clear message each: a spec asking for carried stacks with duplicate deals
    (each seating would need its own chain of stacks), and the arena asked for carried
    stacks with duplicate deals or with fractional odd chips (a stack must be whole)."""
    with pytest.raises(SpecError, match="^table_stakes: carried stacks cannot be dealt in"):
        parse_spec({**RING, "format": "round_robin", "rounds": None, "seats": 2,
                    "duplicate": True, "hands": 24})
    game = Game("holdem", {"betting": "no_limit"})
    with pytest.raises(ValueError, match="duplicate"):
        play_match(game, ["call", "call"], 4, 1, duplicate=True, carry_stacks=True)
    frac = Game("holdem", {"betting": "no_limit", "odd_chip": "fractional"})
    with pytest.raises(ValueError, match="whole chips"):
        play_match(frac, ["call", "call"], 4, 1, carry_stacks=True)


def test_the_baseline_replays_carried_stacks_on_the_same_deals() -> None:
    """With carried stacks the baseline bot replays the unit's deals carrying its own
    stacks: a table of calling stations is exactly its own ``call`` baseline, hand by
    hand; three maniacs replaying a 3-handed table with 8-chip buy-ins win and lose
    more than the 16 chips a hand can move when every stack starts from 8 (stacks
    reset), and every hand's baseline nets sum to zero."""
    calls = parse_spec({**RING, "bots": ["call", CALL], "seats": 2, "rounds": 1, "hands": 40,
                        "unit_hands": 40, "stack": 8, "baseline": "call"})
    seats = play_unit(plan(calls).units[0]).tables["seats"].to_pydict()
    assert seats["net"] == seats["baseline_net"] and sum(seats["rebuy"]) > 0
    wild = parse_spec({**RING, "bots": ["call", "random", "maniac"], "rounds": 1,
                       "hands": 60, "unit_hands": 60, "stack": 8, "baseline": "maniac"})
    seats = play_unit(plan(wild).units[0]).tables["seats"].to_pydict()
    base = seats["baseline_net"]
    assert max(abs(x) for x in base) > 16
    per_hand: Counter[int] = Counter()
    for hand, x in zip(seats["hand"], base, strict=True):
        per_hand[hand] += x
    assert set(per_hand.values()) == {0}
