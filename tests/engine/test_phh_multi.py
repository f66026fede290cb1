"""``.phhs`` files: several hands as TOML tables, written, read and replayed."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

from pokerarena.arena.session import play_hand
from pokerarena.bots import RandomBot
from pokerarena.engine import Game
from pokerarena.engine.phh import PHHError, dumps_phhs, loads_phhs, replay


def _hands(k):
    out = []
    for seed in range(k):
        variant = ("holdem", "stud7", "knock")[seed % 3]
        game = Game(variant)
        n = 3
        hand = game.new_hand(np.random.default_rng(seed), n, [40, 55, 70], seed % n)
        play_hand(hand, [RandomBot(seed * 10 + i) for i in range(n)])
        out.append(hand)
    return out


def test_written_hands_read_back_in_order_and_replay_exactly():
    hands = _hands(6)
    parsed = loads_phhs(dumps_phhs(hands))
    assert [k for k, _ in parsed] == [str(i) for i in range(1, 7)]
    for hand, (_, data) in zip(hands, parsed, strict=True):
        rep = replay(data)
        assert rep.finishing_stacks == [hand.stacks()[hand.seat_of[p]] for p in range(3)]


def test_a_field_outside_the_tables_is_named():
    with pytest.raises(PHHError, match="'variant' is outside"):
        loads_phhs('variant = "NT"\n[1]\nvariant = "NT"\n')


def test_replay_command_prints_every_hand_and_a_list_of_lists(pokerarena_cli, tmp_path):
    hands = _hands(3)
    path = tmp_path / "session.phhs"
    path.write_text(dumps_phhs(hands))
    out = subprocess.run([*pokerarena_cli, "replay", str(path)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert "3 hands replayed" in out.stdout and "NOT" not in out.stdout
    assert json.loads(lines[-1]) == [[h.stacks()[h.seat_of[p]] for p in range(3)]
                                     for h in hands]


def test_replay_command_names_the_bad_hand(pokerarena_cli, tmp_path):
    path = tmp_path / "bad.phhs"
    path.write_text('[a]\nvariant = "NT"\nstarting_stacks = [100, 100]\nantes = [0, 0]\n'
                    'blinds_or_straddles = [1, 2]\nmin_bet = 2\n'
                    'actions = ["d dh p1 AsKs", "d dh p2 QdQc", "p2 cbr 1"]\n')
    out = subprocess.run([*pokerarena_cli, "replay", str(path)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 2 and "hand [a]" in out.stderr and "p2 cbr 1" in out.stderr
    assert "Traceback" not in out.stderr
