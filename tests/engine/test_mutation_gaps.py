"""Tests that a mutation of the code found missing (issue 12): the evaluator's table
cache follows the builder's code, pot limit's maximum on the engine's general betting
path, PHH replay refusing actions after the end of the hand."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import numpy as np
import pytest
from acpc_games import LIMIT2, NOLIMIT2

from pokerarena.engine import Game
from pokerarena.engine.actions import Action
from pokerarena.engine.phh import PHHError, replay
from pokerarena.evaluator import ranking, tables

# The evaluator's table cache. -----------------------------------------------------------


def test_the_suite_builds_tables_in_its_own_cache():
    """conftest.py points the cache at a directory of this session, never the shared one."""
    here = tables.cache_dir()
    assert here != Path.home() / ".cache" / "pokerarena"
    assert here.name.startswith("pokerarena-test-cache-")
    assert os.environ["POKERARENA_CACHE"] == str(here)


def test_the_cache_key_follows_the_builders_source(tmp_path, monkeypatch):
    """An edited builder (here: one more line in tables.py) never reads the tables an older
    one built: the key of every ranking's tables changes."""
    params = ranking("high").params
    before = tables.cache_key(params)
    assert tables.cache_key(ranking("short_deck").params) != before
    for i, mod in enumerate(tables.BUILDER_MODULES):
        src = Path(tables.__file__ if mod is None else str(mod.__file__))
        edited = tmp_path / str(i) / src.name
        edited.parent.mkdir()
        edited.write_bytes(src.read_bytes() + b"\n# edited\n")
        target = tables if mod is None else mod
        with monkeypatch.context() as m:
            m.setattr(target, "__file__", str(edited))
            m.setattr(tables, "_DIGEST", [])
            assert tables.cache_key(params) != before, src.name
    monkeypatch.setattr(tables, "_DIGEST", [])
    assert tables.cache_key(params) == before


def test_a_damaged_cached_layout_is_searched_again(tmp_path, monkeypatch):
    """A layout in the disk cache that no longer hashes is searched afresh (the layouts
    shipped with the package left out: tests/evaluator/test_shipped_tables.py)."""
    monkeypatch.setenv("POKERARENA_CACHE", str(tmp_path))
    monkeypatch.setattr(tables, "SHIPPED", tmp_path / "nothing-shipped")
    monkeypatch.setattr(tables, "_LAYOUTS", {})
    ms = tables.rank_multisets(5)
    keys, values = tables._multiset_values(ms, ranking("high").params, 5)
    shift, offsets, table = tables._perfect_hash(keys, values)
    (path,) = tmp_path.glob("layout-*.npz")
    np.savez(path, shift=np.array([shift]), offsets=np.zeros_like(offsets),
             size=np.array([table.size]))
    monkeypatch.setattr(tables, "_LAYOUTS", {})
    again = tables._perfect_hash(keys, values)
    assert again[0] == shift and np.array_equal(again[1], offsets)
    assert np.array_equal(again[2], table)


# Pot limit on the engine's general betting path. ---------------------------------------


def _pot_limit_max(hand, legal) -> int:
    """The pot-limit maximum worked out from the chips alone: the current bet, plus the
    pot after calling (every chip put in so far, and the call)."""
    p = list(hand.seat_of).index(hand.to_act)  # bets and stacks are by position
    put_in = sum(hand.start) - sum(hand.stack)
    bet, stack = hand.bets[p], hand.stack[p]
    cur = bet + legal.call
    return max(legal.min_to, min(cur + put_in + legal.call, bet + stack))


def test_pot_limit_with_raise_caps_bets_the_pot_at_most():
    """With a raise cap the general path (``Hand._raise_range``) computes the range, not
    the no-cap fast path; its maximum is the pot after the call, at every decision of
    random hands, and the same as the fast path's while the cap is not reached."""
    capped = Game("holdem", {"betting": "pot_limit", "max_raises": 20})
    plain = Game("holdem", {"betting": "pot_limit"})
    assert not capped.fast_raises and plain.fast_raises
    first = capped.new_hand(1, 3, [1000] * 3, 0).legal_actions()
    assert (first.call, first.min_to, first.max_to) == (2, 4, 7)  # blinds 1/2: 2 + 3 + 2
    rng = np.random.default_rng(12)
    raises = 0
    for seed in range(40):
        stacks = [int(s) for s in rng.integers(30, 400, 4)]
        a, b = capped.new_hand(seed, 4, stacks, seed % 4), plain.new_hand(seed, 4, stacks, seed % 4)
        while not a.is_over:
            la, lb = a.legal_actions(), b.legal_actions()
            assert la == lb
            if a.phase_name == "bet" and "cbr" in la.kinds:
                assert la.max_to == _pot_limit_max(a, la)
            kinds = [k for k in la.kinds if k in ("f", "cc", "cbr")] or list(la.kinds)
            kind = kinds[int(rng.integers(len(kinds)))]
            if kind == "cbr":
                raises += 1
                amount = la.max_to if rng.random() < 0.5 else la.min_to
                act = Action("cbr", amount)
            else:
                act = Action(kind)
            a.apply(act)
            b.apply(act)
    assert raises > 50


# PHH replay: nothing after the end of the hand. ------------------------------------------

_FOLDED = {"variant": "NT", "antes": [0, 0, 0], "blinds_or_straddles": [1, 2, 0],
           "min_bet": 2, "starting_stacks": [100, 100, 100],
           "actions": ["d dh p1 8h2s", "d dh p2 KcJs", "d dh p3 9d7s", "p3 f", "p1 f"]}


@pytest.mark.parametrize("extra", ["p2 cc", "p2 cbr 10", "p3 f", "d db 2c3c4c", "p2 f"])
def test_phh_refuses_an_action_after_the_end_of_the_hand(extra):
    done = replay(dict(_FOLDED))
    assert done.hand.is_over and list(done.finishing_stacks) == [99, 101, 100]
    with pytest.raises(PHHError, match="action 6 .*over"):
        replay(dict(_FOLDED, actions=[*_FOLDED["actions"], extra]))


def test_phh_accepts_a_voluntary_show_after_the_end():
    shown = replay(dict(_FOLDED, actions=[*_FOLDED["actions"], "p2 sm KcJs"]))
    assert list(shown.finishing_stacks) == [99, 101, 100]


# The ACPC client refuses a dealer playing another game than its definition. -------------

# the heads-up definitions of the ACPC protocol tests
_ACPC_LIMIT, _ACPC_NOLIMIT = LIMIT2, NOLIMIT2


@pytest.mark.parametrize(("gdef", "state"), [
    (_ACPC_LIMIT, "MATCHSTATE:0:0:r300:AsKd|"),   # a no-limit dealer's raise
    (_ACPC_NOLIMIT, "MATCHSTATE:0:0:r:AsKd|"),    # a limit dealer's raise
    (_ACPC_NOLIMIT, "MATCHSTATE:0:0:r90000:AsKd|"),  # more than the definition's stacks
])
def test_acpc_client_refuses_another_game(gdef, state):
    from pokerarena.arena.acpc import (
        AcpcError,
        parse_gamedef,
        parse_match_state,
        replay_state,
    )

    gd = parse_gamedef(gdef)
    with pytest.raises(AcpcError, match="does not match"):
        replay_state(gd.game(dealing="manual"), gd, parse_match_state(state))


def test_acpc_client_stops_on_a_mismatched_dealer():
    """Connected with the limit definition to a dealer sending no-limit states, the
    client stops with an error instead of playing on."""
    import socket
    import threading

    from pokerarena.arena.acpc import AcpcError, Client, parse_gamedef

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def dealer():
        conn, _ = server.accept()
        with conn:
            conn.makefile().readline()  # VERSION
            conn.sendall(b"MATCHSTATE:1:0:r250:|AsKd\r\n")
            conn.settimeout(10)
            with contextlib.suppress(OSError):
                conn.recv(100)

    t = threading.Thread(target=dealer, daemon=True)
    t.start()
    client = Client(parse_gamedef(_ACPC_LIMIT), "call", read_timeout=10)
    with pytest.raises(AcpcError, match="does not match"):
        client.run("127.0.0.1", server.getsockname()[1])
    t.join(10)
    server.close()


# `pokerarena replay` says when the file's finishing stacks disagree. ---------------------

_PHH = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'd dh p3 7h2c', 'p3 f', 'p1 cbr 30', 'p2 f']
finishing_stacks = [1010, 990, 1000]
"""


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_replay_exits_1_when_the_files_finishing_stacks_disagree(tmp_path, capsys, json_flag):
    from pokerarena.cli import main

    good, bad = tmp_path / "good.phh", tmp_path / "bad.phh"
    good.write_text(_PHH)
    bad.write_text(_PHH.replace("[1010, 990, 1000]", "[1000, 1000, 1000]"))
    assert main(["replay", str(good), *json_flag]) == 0
    capsys.readouterr()
    assert main(["replay", str(bad), *json_flag]) == 1
    out = capsys.readouterr()
    assert out.out.strip().splitlines()[-1] == "[1010, 990, 1000]"  # still printed
    assert "differ" in out.err
    many = tmp_path / "hands.phhs"
    many.write_text("[1]\n" + _PHH + "\n[2]\n" + bad.read_text())
    assert main(["replay", str(many), *json_flag]) == 1
    assert "1 hand(s)" in capsys.readouterr().err
    many.write_text("[1]\n" + _PHH + "\n[2]\n" + _PHH)
    assert main(["replay", str(many), *json_flag]) == 0


def test_no_help_text_prints_a_doubled_percent(capsys):
    """argparse %-formats ``help`` but prints ``description`` as written."""
    from pokerarena.cli import main

    for argv in (["match", "--help"], ["--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        out = capsys.readouterr().out
        assert "%%" not in out
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    assert "95% confidence" in " ".join(capsys.readouterr().out.split())
