"""Hand histories out and in (issue 30, section 3): a run's stored hands as PokerStars
text, OHH JSON and PHH, and PokerStars text back into PHH.

Two small local runs make the data: six-seat no-limit hold'em with carried stacks (side
pots, short all-ins, uncalled bets), and a four-seat mixed run through every game
PokerStars dealt plus ``draw5`` (which it never dealt). Each check is against the stored
rows: PokerKit's own PokerStars importer (a parser nobody here wrote) replays the
no-limit hands to the stored stacks; every other game round-trips through our importer
and the strict PHH replay to the stored stacks and moves; OHH validates against the
schema written from the specification and adds up as the specification says.
"""

from __future__ import annotations

import json
import re
import warnings
from collections import Counter
from pathlib import Path

import httpx
import jsonschema
import pytest
from pokerkit import HandHistory

from pokerarena.cli import main
from pokerarena.commands.history import export_hands, read_hands
from pokerarena.engine.phh import loads_phhs, replay
from pokerarena.interop.history_export import ExportError, replay_rows, to_phh
from pokerarena.interop.ohh import to_ohh
from pokerarena.interop.pokerstars import GAMES, names_of, to_pokerstars
from pokerarena.interop.pokerstars_import import PokerStarsError, loads_pokerstars
from pokerarena.platform.api import create_app
from pokerarena.platform.api.server import ServedApp

SCHEMA = Path(__file__).parents[2] / "pokerarena" / "interop" / "schemas" / "ohh.schema.json"
NL = {"kind": "tournament", "name": "nl", "seed": 11, "seats": 6,
      "bots": ["maniac", "call", "random", "lag", "rock", "tag"], "hands": 240,
      "unit_hands": 120, "table_stakes": "carry",
      # the odd chip of a split pot to the first seat left of the button, as PokerStars
      # and PokerKit give it (the engine's default gives it elsewhere)
      "games": [{"variant": "holdem", "betting": "no_limit",
                 "options": {"odd_chip": "position"}}]}
MIXED = {"kind": "tournament", "name": "mixed", "seed": 3, "seats": 3,
         "bots": ["maniac", "call", "random"], "hands": 12, "unit_hands": 12,
         "table_stakes": "carry",
         "games": [{"variant": ["holdem", "omaha"], "betting": "pot_limit"},
                   {"variant": ["holdem", "omaha_hilo", "stud7", "stud7_hilo", "razz",
                                "draw27_triple", "badugi", "draw5"],
                    "betting": "fixed_limit"},
                   {"variant": ["draw27_single"], "betting": "no_limit"},
                   {"variant": ["draw5_blind"], "betting": ["fixed_limit", "no_limit"],
                    "options": {"ante": 0}}]}
DEALT = {(v, b) for v, (_n, _k, bets) in GAMES.items() for b in bets}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("histories")
    for run_id, spec in (("nl", NL), ("mixed", MIXED)):
        path = root / f"{run_id}.json"
        path.write_text(json.dumps(spec))
        assert main(["run", str(path), "--local", "--data", str(root / "data"),
                     "--run-id", run_id]) == 0
    return root / "data"


@pytest.fixture(scope="module")
def stored(data):
    """Every hand of both runs, replayed from its rows."""
    return {run: [replay_rows(*r) for r in read_hands(data, run)] for run in ("nl", "mixed")}


def _by_position(st, values):
    out = [0] * st.n
    for s, v in zip(st.seats, values, strict=True):
        out[int(s["position"])] = v
    return out


def test_nl_holdem_hands_parse_in_pokerkit_to_the_stored_stacks(stored):
    """PokerKit's PokerStars importer reads every exported no-limit hand (the hero
    rotating over the seats) and its replay ends at the stacks our rows stored."""
    hands = stored["nl"]
    checked, side_pots, uncalled = 0, 0, 0
    for i, st in enumerate(hands):
        text = to_pokerstars(st, i % st.n)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            [hh] = list(HandHistory.from_pokerstars(text, error_status=True))
        got = dict(zip(hh.players, list(hh)[-1].stacks, strict=True))
        want = dict(zip(names_of(st), (int(s["end_stack"]) for s in st.seats), strict=True))
        assert got == want, text
        checked += 1
        side_pots += "side pot" in text
        uncalled += "Uncalled bet (" in text
    assert checked == len(hands) == 240
    assert side_pots > 5 and uncalled > 20


def _moves_rows(st):
    pos = {int(s["seat"]): int(s["position"]) for s in st.seats}
    return [(pos[int(a["seat"])], a["kind"], int(a["amount"] or 0) if a["kind"] == "cbr"
             else len(a["cards"] or "") // 2 if a["kind"] == "sd" else 0)
            for a in st.actions if int(a["seat"]) >= 0
            and a["kind"] in ("f", "cc", "cbr", "pb", "sd")]


def _moves_replay(hand):
    return [(hand.pos_of[s], a.kind, a.amount if a.kind == "cbr" else len(a.cards)
             if a.kind == "sd" else 0)
            for s, a in hand.log if s >= 0 and a.kind in ("f", "cc", "cbr", "pb", "sd")]


def test_every_game_round_trips_through_our_importer(stored):
    """Hold'em (pot and fixed limit), Omaha, Omaha hi/lo, stud, stud hi/lo, razz,
    five-card draw, 2-7 single and triple draw and badugi: the text read back replays
    strictly to the stored stacks and moves, and the chips the text says were collected
    and returned give the same stacks."""
    games: Counter = Counter()
    for i, st in enumerate(stored["mixed"]):
        key = (st.hand["variant"], st.hand["betting"])
        if key not in DEALT:
            continue
        [d] = loads_pokerstars(to_pokerstars(st, i % st.n))
        rep = replay(d)
        want = _by_position(st, [int(s["end_stack"]) for s in st.seats])
        assert rep.finishing_stacks == want == d["finishing_stacks"], (key, i)
        assert _moves_replay(rep.hand) == _moves_rows(st), (key, i)
        games[key] += 1
    assert set(games) == {
        ("holdem", "pot_limit"), ("omaha", "pot_limit"), ("holdem", "fixed_limit"),
        ("omaha_hilo", "fixed_limit"), ("stud7", "fixed_limit"),
        ("stud7_hilo", "fixed_limit"), ("razz", "fixed_limit"),
        ("draw27_triple", "fixed_limit"), ("badugi", "fixed_limit"),
        ("draw27_single", "no_limit"), ("draw5_blind", "fixed_limit"),
        ("draw5_blind", "no_limit")}
    assert len(games) == 12 and min(games.values()) == 12


def test_lines_follow_real_pokerstars_histories(stored):
    """The line formats of real PokerStars histories of each game (parser test suites'
    files): stud deals up cards to all and the hero's down cards to him alone, a
    completion over the bring-in is a raise, draws say how many cards, triple draw names
    its draws, the summary says where each seat folded."""
    texts: dict[str, str] = {}
    for st in stored["mixed"]:
        key = f"{st.hand['variant']} {st.hand['betting']}"
        if (st.hand["variant"], st.hand["betting"]) in DEALT:
            texts[key] = texts.get(key, "") + to_pokerstars(st, 0) + "\n\n"
    stud = texts["stud7 fixed_limit"]
    assert re.search(r"^PokerStars Hand #\d+:  7 Card Stud Limit \(4/8\) - ", stud, re.M)
    assert re.search(r"^Table '.+' 3-max$", stud, re.M)  # no button at stud
    assert re.search(r"^\*\*\* 3rd STREET \*\*\*$", stud, re.M)
    assert re.search(r"^Dealt to \w+ \[\w\w \w\w \w\w\]$", stud, re.M)  # the hero
    assert re.search(r"^Dealt to \w+ \[\w\w\]$", stud, re.M)  # another seat's up card
    assert re.search(r"^Dealt to \w+ \[\w\w( \w\w)*\] \[\w\w\]$", stud, re.M)
    assert re.search(r"^\w+: posts the ante 1$", stud, re.M)
    assert re.search(r"^Seat \d: \w+ folded on the (3rd|4th|5th|6th) Street", stud, re.M)
    razz = texts["razz fixed_limit"]
    assert re.search(r"^\w+: brings in for 2$", razz + stud, re.M)
    assert re.search(r"^\w+: raises 2 to 4", razz + stud, re.M)  # completing the bring-in
    triple = texts["draw27_triple fixed_limit"]
    assert "*** DEALING HANDS ***" in triple and "*** FIRST DRAW ***" in triple
    assert re.search(r"^\w+: discards \d cards? \[\w\w( \w\w)*\]$", triple, re.M)
    assert re.search(r"^\w+: discards \d cards?$", triple, re.M)
    assert re.search(r"^Dealt to \w+ \[[^\]]*\] \[[^\]]+\]$", triple, re.M)
    assert re.search(r"^Seat \d: \w+.* folded (before the Draw|after the \dst Draw)",
                     triple + texts["draw5_blind no_limit"], re.M)
    holdem = texts["holdem fixed_limit"]
    assert re.search(r"^PokerStars Hand #\d+:  Hold'em Limit \(2/4\) - ", holdem, re.M)
    assert re.search(r"^\*\*\* TURN \*\*\* \[\w\w \w\w \w\w\] \[\w\w\]$", holdem, re.M)
    assert re.search(r"^Total pot \d+ \| Rake 0$", holdem, re.M)
    assert re.search(r"^Seat \d: \w+ \((button|small blind|big blind)\) ", holdem, re.M)


def test_a_game_pokerstars_never_dealt_gets_one_message(data, stored, capsys, tmp_path):
    """draw5 (jacks to open, antes, passed deals) is named and left out; a unit of it
    alone is an error; PHH and OHH write it."""
    draw5 = [st for st in stored["mixed"] if st.hand["variant"] == "draw5"]
    with pytest.raises(ExportError, match="PokerStars never dealt 'draw5'"):
        to_pokerstars(draw5[0], 0)
    assert main(["export", "mixed", "--format", "pokerstars", "--out", str(tmp_path),
                 "--data", str(data)]) == 0
    err = capsys.readouterr().err
    assert f"left out {len(draw5)} hand(s): PokerStars never dealt 'draw5'" in err
    unit = draw5[0].hand["unit"]
    assert main(["export", "mixed", "--unit", unit, "--format", "pokerstars",
                 "--out", str(tmp_path), "--data", str(data)]) == 2
    assert "no hand could be written" in capsys.readouterr().err
    for fmt in ("phh", "ohh"):
        assert main(["export", "mixed", "--unit", unit, "--format", fmt,
                     "--out", str(tmp_path / fmt), "--data", str(data)]) == 0


def test_ohh_validates_and_adds_up(stored):
    """Every hand's OHH validates against the schema written from the specification,
    and the structural rules hold: actions numbered 1, 2, ...; each pot won in full
    (its amount less its rake); the pots are the chips put in, less the uncalled bet
    returned, plus a pot carried in and less one carried out; every player's stack
    follows from its contributions and wins.

    The amounts follow the specification's reading (hh-specs.handhistory.org, action
    object): "For a "Raise" the "amount" ... should be the amount the player put into
    the pot for this action. For example, if a player bet $2 and was raised then
    re-raised to a total of $20 the amount for the raise should be 18.00". Summing
    raise-to totals instead would break the pot and stack sums below."""
    schema = json.loads(SCHEMA.read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for st in stored["nl"][:60] + stored["mixed"]:
        doc = to_ohh(st, 0)
        validator.validate(doc)
        o = doc["ohh"]
        ext = o["pokerarena"]
        numbers = [a["action_number"] for r in o["rounds"] for a in r["actions"]]
        assert numbers == list(range(1, len(numbers) + 1))
        put = Counter()
        for r in o["rounds"]:
            for a in r["actions"]:
                put[a["player_id"]] += a.get("amount", 0)
        back = ext["uncalled"]
        if back:
            put[back["player_id"]] -= back["amount"]
        pots = sum(p["amount"] for p in o["pots"])
        assert pots == sum(put.values()) + ext["carry_in"] - ext["carry_out"]
        won = Counter()
        for p in o["pots"]:
            assert sum(w["win_amount"] for w in p["player_wins"]) == p["amount"] - p["rake"]
            for w in p["player_wins"]:
                won[w["player_id"]] += w["win_amount"]
        for pl in o["players"]:
            k = pl["id"]
            assert pl["starting_stack"] - put[k] + won[k] == ext["end_stacks"][k]
    bad = to_ohh(stored["nl"][0], 0)
    bad["ohh"]["rounds"][0]["actions"][0]["action"] = "Bluffs"
    assert not validator.is_valid(bad)


def test_cli_export_then_import_replays_strictly(data, capsys, tmp_path):
    """export --hero writes one file; import turns it into PHH that `pokerarena replay`
    plays to the finishing stacks the text says; export --format phh replays too."""
    out = tmp_path / "out"
    assert main(["export", "nl", "--format", "pokerstars", "--hero", "call",
                 "--out", str(out), "--data", str(data)]) == 0
    text_file = out / "nl-call.txt"
    assert text_file.is_file() and [p.name for p in out.iterdir()] == ["nl-call.txt"]
    capsys.readouterr()
    assert main(["import", str(text_file), "--format", "pokerstars"]) == 0
    phhs = out / "nl-call.phhs"
    assert "240 hand(s) written" in capsys.readouterr().out
    # PokerStars gives a split pot's odd chip to the first seat left of the button
    assert main(["replay", str(phhs), "--odd-chip", "position"]) == 0
    assert "240 hands replayed" in capsys.readouterr().out
    assert all(d["players"] and "finishing_stacks" in d for _k, d in
               loads_phhs(phhs.read_text()))
    one = tmp_path / "one.txt"
    one.write_text(text_file.read_text().split("\n\n\n")[0])
    assert main(["import", str(one), "--format", "pokerstars", "--out",
                 str(tmp_path / "one.phh")]) == 0
    assert main(["replay", str(tmp_path / "one.phh"), "--odd-chip", "position"]) == 0
    assert main(["export", "mixed", "--format", "phh", "--out", str(out),
                 "--data", str(data)]) == 0
    assert main(["replay", str(out / "mixed.phhs")]) == 0
    rows = read_hands(data, "mixed", unit="m00000s00000", hand=3)
    assert len(rows) == 1 and to_phh(replay_rows(*rows[0]))["_hand"] == 3


HAND = """PokerStars Hand #201:  Hold'em No Limit ($0.05/$0.10 USD) - 2024/01/15 14:30:00 ET
Table 'Alpha II' 6-max Seat #1 is the button
Seat 1: Anna ($10 in chips)
Seat 2: Ben ($8.50 in chips)
Seat 3: Cleo ($4 in chips)
Ben: posts small blind $0.05
Cleo: posts big blind $0.10
*** HOLE CARDS ***
Dealt to Anna [As Kh]
Anna: raises $0.20 to $0.30
Ben: folds
Cleo: raises $3.70 to $4 and is all-in
Anna: calls $3.70
*** FLOP *** [Ah 7c 2d]
*** TURN *** [Ah 7c 2d] [9s]
*** RIVER *** [Ah 7c 2d 9s] [Qc]
*** SHOW DOWN ***
Cleo: shows [Kd Kc] (a pair of Kings)
Anna: shows [As Kh] (a pair of Aces)
Anna collected $8.05 from pot
*** SUMMARY ***
Total pot $8.05 | Rake $0
"""


def test_import_reads_currency_hands_and_real_layouts(tmp_path):
    """A cash-game hand in dollars (amounts scaled to whole cents by the replay), the
    hero's cards, an all-in re-raise, a showdown: PHH that replays to the text's stacks."""
    [d] = loads_pokerstars(HAND)
    assert d["players"] == ["Ben", "Cleo", "Anna"] and d["variant"] == "NT"
    assert d["actions"][:3] == ["d dh p1 ????", "d dh p2 ????", "d dh p3 AsKh"]
    rep = replay(d)
    assert rep.finishing_stacks == d["finishing_stacks"] == [8.45, 0, 14.05]


STUD = """PokerStars Game #310:  7 Card Stud Limit ($0.10/$0.20 USD) - 2011/04/17 9:00:00 ET
Table 'Beta III' 8-max
Seat 1: Alba ($2 in chips)
Seat 2: Bo ($3 in chips)
Seat 3: Cy ($1.50 in chips)
Alba: posts the ante $0.02
Bo: posts the ante $0.02
Cy: posts the ante $0.02
*** 3rd STREET ***
Dealt to Alba [9d]
Dealt to Bo [Ah Kh 5c]
Dealt to Cy [2s]
Cy: brings in for $0.05
Alba: folds
Bo: raises $0.05 to $0.10
Cy: calls $0.05
Bo said, "gl"
*** 4th STREET ***
Dealt to Bo [Ah Kh 5c] [Kd]
Dealt to Cy [2s] [7h]
Bo: bets $0.10
Cy: calls $0.10
*** 5th STREET ***
Dealt to Bo [Ah Kh 5c Kd] [3c]
Dealt to Cy [2s 7h] [8d]
Bo: bets $0.20
Cy: folds
Uncalled bet ($0.20) returned to Bo
Bo collected $0.46 from pot
Bo: doesn't show hand
*** SUMMARY ***
Total pot $0.46 | Rake $0
Seat 1: Alba folded on the 3rd Street (didn't bet)
Seat 2: Bo collected ($0.46)
Seat 3: Cy folded on the 5th Street
"""
DRAW = """PokerStars Game #311:  5 Card Draw No Limit ($0.25/$0.50 USD) - 2010/09/20 20:50:00 ET
Table 'Gamma VI' 6-max Seat #1 is the button
Seat 1: Dee ($20 in chips)
Seat 2: Eli ($15 in chips)
Seat 3: Fay ($10 in chips)
Eli: posts small blind $0.25
Fay: posts big blind $0.50
*** DEALING HANDS ***
Dealt to Fay [Kc Kd 7h 4s 2c]
Dee: raises $1 to $1.50
Eli: folds
Fay: calls $1
Fay: discards 3 cards [7h 4s 2c]
Dealt to Fay [Kc Kd] [Ks 9d 3h]
Dee: discards 1 card
Fay: checks
Dee: bets $2
Fay: raises $4 to $6
Dee: calls $4
*** SHOW DOWN ***
Fay: shows [Kc Kd Ks 9d 3h] (three of a kind, Kings)
Dee: mucks hand
Fay collected $15.25 from pot
*** SUMMARY ***
Total pot $15.25 | Rake $0
"""


@pytest.mark.parametrize(("text", "players", "stacks"), [
    (STUD, ["Alba", "Bo", "Cy"], [1.98, 3.24, 1.28]),
    (DRAW, ["Eli", "Fay", "Dee"], [14.75, 17.75, 12.5]),
])
def test_import_reads_stud_and_draw_as_pokerstars_writes_them(text, players, stacks):
    """Stud (no button: seats in dealing order; others' up cards, a bring-in and its
    completion, chat) and five-card draw (the hero's discards and new cards, another
    player's unknown draw, a muck at the showdown) replay to the text's stacks."""
    [d] = loads_pokerstars(text)
    assert d["players"] == players
    rep = replay(d)
    assert rep.finishing_stacks == d["finishing_stacks"] == stacks


@pytest.mark.parametrize(("text", "line", "what"), [
    ("hello\n" + HAND, 1, "not a PokerStars hand history"),
    (HAND.replace("Hold'em No Limit", "Pineapple No Limit"), 1, "not a game"),
    (HAND.replace("Table 'Alpha II'", "Tabel 'Alpha II'"), 2, "expected the table line"),
    (HAND.replace("Anna: calls $3.70", "Anna: calls $3.7x"), 13, "is not an amount"),
    (HAND.replace("raises $0.20 to $0.30", "raises $0.20 to $0.50"), 10, "does not add up"),
    (HAND.replace("[As Kh]\n", "[As Xh]\n"), 9, "is not a card"),
    (HAND.replace("Ben: folds", "Ben: dances"), 11, "not a move"),
    (HAND.replace("*** FLOP *** [Ah 7c 2d]", "*** FLOP ***"), 14, "has no cards"),
])
def test_malformed_text_names_its_line(tmp_path, capsys, text, line, what):
    """Each kind of bad text: one line naming the line, exit status 2, no traceback."""
    with pytest.raises(PokerStarsError, match=f"line {line}: .*{what}"):
        loads_pokerstars(text)
    path = tmp_path / "bad.txt"
    path.write_text(text)
    assert main(["import", str(path), "--format", "pokerstars"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"line {line}" in err and "Traceback" not in err


def test_cli_bad_inputs(data, capsys, tmp_path):
    """Unknown run, bot or unit, an unreadable file: one line each, exit 2."""
    cases = [
        (["export", "nope", "--format", "ohh", "--out", str(tmp_path)], "no run 'nope'"),
        (["export", "nl", "--format", "ohh", "--hero", "ghost", "--out", str(tmp_path)],
         "--hero 'ghost'"),
        (["export", "nl", "--unit", "m9", "--format", "ohh", "--out", str(tmp_path)],
         "no hands"),
        (["export", "nl", "--unit", "a'b", "--format", "ohh", "--out", str(tmp_path)],
         "not a unit id"),
    ]
    for argv, what in cases:
        assert main([*argv, "--data", str(data)]) == 2
        assert what in capsys.readouterr().err
    assert main(["import", str(tmp_path / "missing.txt"), "--format", "pokerstars"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_api_export_route(data, stored):
    """GET /api/runs/{id}/hands/{unit}:{hand}/export?format=...: the three formats, and
    4xx for what cannot be answered."""
    token = "t-hist"
    app = create_app(data, token=token, web_dir=None)
    auth = {"Authorization": f"Bearer {token}"}
    st = stored["mixed"][0]
    draw5 = next(s for s in stored["mixed"] if s.hand["variant"] == "draw5")
    ref = f"{st.hand['unit']}:{st.hand['hand']}"
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=60,
                                                headers=auth) as client:
        base = "/api/runs/mixed/hands"
        r = client.get(f"{base}/{ref}/export", params={"format": "pokerstars",
                                                       "hero": "call"})
        assert r.status_code == 200 and r.text.startswith("PokerStars Hand #")
        assert r.text == to_pokerstars(st, names_of(st).index("call"))
        r = client.get(f"{base}/{ref}/export", params={"format": "ohh"})
        assert r.status_code == 200 and r.json() == to_ohh(st, 0)
        r = client.get(f"{base}/{ref}/export", params={"format": "phh"})
        assert r.status_code == 200
        assert replay(loads_phhs("[1]\n" + r.text)[0][1]).finishing_stacks == \
            _by_position(st, [int(s["end_stack"]) for s in st.seats])
        d5 = f"{draw5.hand['unit']}:{draw5.hand['hand']}"
        for path, params, status in [
            (f"{base}/{st.hand['unit']}:9999/export", {"format": "ohh"}, 404),
            ("/api/runs/nope/hands/m00000s00000:1/export", {"format": "ohh"}, 404),
            (f"{base}/{ref}/export", {"format": "xml"}, 422),
            (f"{base}/{ref}/export", {}, 422),
            (f"{base}/{st.hand['unit']}/export", {"format": "ohh"}, 422),
            (f"{base}/{ref}/export", {"format": "ohh", "hero": "ghost"}, 400),
            (f"{base}/{d5}/export", {"format": "pokerstars"}, 422),
        ]:
            r = client.get(path, params=params)
            assert r.status_code == status, (path, params, r.text)
        assert "never dealt 'draw5'" in client.get(
            f"{base}/{d5}/export", params={"format": "pokerstars"}).text


def test_export_hands_keys_files_by_hero(data):
    """Without --hero each bot of the run gets its file, every hand it sat in."""
    rows = read_hands(data, "nl")[:12]
    files, skipped = export_hands(rows, "pokerstars")
    assert not skipped and set(files) == {f"{b}.txt" for b in NL["bots"]}
    for name, text in files.items():
        bot = name[:-4]
        assert text.count("PokerStars Hand #") == 12
        assert text.count(f"Dealt to {bot} [") == 12
