"""tools/phh_corpus.py over a small directory of hands the test writes, and the
readings the public PHH hands needed (several hands in a ``.phh``, unknown stacks,
posts, a raise recorded short of the least raise, unknown cards shown)."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from pokerarena.engine.phh import PHHError, load_hands, loads_phh, replay

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "phh_corpus.py"


def _tool():
    spec = importlib.util.spec_from_file_location("phh_corpus", TOOL)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


NT_FOLD = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'd dh p3 7h2c', 'p3 f', 'p1 cbr 6', 'p2 f']
"""
NT_SHOWDOWN = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [0.5, 1]
min_bet = 1
starting_stacks = [50, 50.25]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cc', 'p1 cc', 'd db 2c7h9d', 'p1 cc',
           'p2 cc', 'd db Th', 'p1 cc', 'p2 cc', 'd db 3c', 'p1 cbr 2.5', 'p2 cc',
           'p1 sm AsAd', 'p2 sm KsKd']
"""
BROKEN = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'p2 cbr 3']
"""


def _corpus(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    (d / "sub").mkdir(parents=True)
    (d / "a.phh").write_text(NT_FOLD + "finishing_stacks = [102, 98, 100]\n")
    (d / "sub" / "b.phh").write_text(NT_SHOWDOWN)
    (d / "sub" / "several.phh").write_text(  # tables in a .phh, as some corpora have
        "[1]\n" + NT_FOLD + "finishing_stacks = [102, 98, 100]\n"
        "[2]\n" + NT_FOLD + "finishing_stacks = [100, 101, 99]\n")  # wrong on purpose
    (d / "broken.phhs").write_text("[x]\n" + BROKEN)
    (d / "other.phh").write_text(NT_FOLD.replace("'NT'", "'XX'"))  # not a variant we play
    (d / "bad.phh").write_text("variant = \n")
    (d / "notes.txt").write_text("not a hand")
    return d


def _run(*args: str) -> tuple[int, dict]:
    out = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True,
                         text=True, timeout=300, cwd=ROOT)
    assert "Traceback" not in out.stderr, out.stderr
    return out.returncode, json.loads(out.stdout)


def test_the_tool_counts_by_variant_and_groups_refusals(tmp_path):
    rc, report = _run(str(_corpus(tmp_path)))
    assert rc == 1  # a refusal, an unreadable file and a mismatch
    assert report["files"] == 6 and report["hands_found"] == 6
    nt = report["by_variant"]["NT"]
    assert nt["hands"] == 5 and nt["replayed"] == 4 and nt["refused"] == 1
    assert nt["finishing_stacks"] == 3 and nt["exact"] == 2 and nt["mismatch"] == 1
    assert nt["refusals"] == {"[p cbr] seat # cannot bet/raise to #: allowed # to #": 1}
    assert report["by_variant"]["XX"]["not_covered"] == 1
    assert report["by_variant"]["?"]["unreadable"] == 1
    assert report["total"]["hands"] == 7 and report["total"]["exact"] == 2
    failures = {(f["file"], f["hand"]): f for f in report["failures"]}
    assert failures[("sub/several.phh", "2")]["expected"] == [100, 101, 99]
    assert failures[("sub/several.phh", "2")]["got"] == [102, 98, 100]
    assert "p2 cbr 3" in failures[("broken.phhs", "x")]["reason"]
    assert failures[("bad.phh", None)]["status"] == "unreadable"


def test_the_tool_succeeds_on_good_hands_and_samples_them(tmp_path):
    d = tmp_path / "good"
    d.mkdir()
    for i in range(4):
        (d / f"{i}.phh").write_text(NT_FOLD + "finishing_stacks = [102, 98, 100]\n")
    rc, report = _run(str(d), "--sample", "3", "--seed", "1", "--jobs", "2")
    assert rc == 0
    assert report["hands_found"] == 4 and report["sampled"] == 3
    assert report["total"] == {"hands": 3, "replayed": 3, "refused": 0, "unreadable": 0,
                               "not_covered": 0, "finishing_stacks": 3, "exact": 3,
                               "exact_split_odd_chip": 0, "mismatch": 0}


def test_a_split_odd_chip_recorded_as_halves_is_counted_apart(tmp_path):
    # Both play the board; pot 23 (3 antes + 10 + 10) split, recorded as halves, as the
    # Pluribus hands do.
    hand = """variant = 'NT'
antes = [1, 1, 1]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 2c3d', 'd dh p2 2d3c', 'd dh p3 4c5d', 'p3 f', 'p1 cbr 10', 'p2 cc',
           'd db AsKsQs', 'p1 cc', 'p2 cc', 'd db Js', 'p1 cc', 'p2 cc', 'd db Ts',
           'p1 cc', 'p2 cc', 'p1 sm 2c3d', 'p2 sm 2d3c']
finishing_stacks = [100.5, 100.5, 99]
"""
    d = tmp_path / "split"
    d.mkdir()
    (d / "h.phh").write_text(hand)
    rc, report = _run(str(d))
    assert rc == 0 and report["total"]["exact_split_odd_chip"] == 1


def test_reason_keys_elide_cards_amounts_and_seats():
    key = _tool().reason_key
    assert key("action 9 'p1 sd ????': seat 0 discards the same card twice") == (
        "[p sd] seat # discards the same card twice")
    assert key("action 3 'd dh p2 AsAs': card As was already dealt") == (
        "[d dh] card <cards> was already dealt")
    assert key("actions: the hand is incomplete: p3 is still to act") == (
        "actions: the hand is incomplete: p3 is still to act")


def test_load_hands_tells_one_hand_from_several_by_content(tmp_path):
    one = tmp_path / "one.phh"
    one.write_text(NT_FOLD)
    several = tmp_path / "several.phh"
    several.write_text("[1]\n" + NT_FOLD + "[2]\n" + NT_FOLD)
    assert [k for k, _ in load_hands(one)] == [None]
    assert [k for k, _ in load_hands(several)] == ["1", "2"]
    bad = tmp_path / "bad.phhs"
    bad.write_text(NT_FOLD)
    with pytest.raises(PHHError, match="outside a hand's table"):
        load_hands(bad)


# Readings the public hands need ----------------------------------------------------

def test_unknown_stacks_play_deep_and_end_unknown():
    # iPoker hands in the PHH dataset: "Unknown stack values can be denoted as inf".
    data = loads_phh(NT_FOLD.replace("[100, 100, 100]", "[inf, inf, 40]"))
    data["actions"] = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 40",
                       "p1 cbr 500", "p2 f", "p3 sm 7h2c", "p1 sm AsKs",
                       "d db 7d7c2d", "d db Th", "d db 3c"]
    rep = replay(data)
    assert math.isinf(rep.finishing_stacks[0]) and math.isinf(rep.finishing_stacks[1])
    assert rep.finishing_stacks[2] == 82  # 40 + 40 + p2's big blind 2


def test_a_negative_blind_is_a_post_that_does_not_move_the_first_to_act():
    # PokerStars hand of the dataset's 1000NL set: p4 posts 10 to play at once.
    hand = """variant = 'NT'
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [5, 10, 0, -10, 0]
min_bet = 10
starting_stacks = [255, 146.25, 1236, 200, 185]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????', 'd dh p5 ????',
           'p3 f', 'p4 cc', 'p5 cbr 40', 'p1 f', 'p2 f', 'p4 cbr 200', 'p5 f']
"""
    rep = replay(loads_phh(hand))
    # p4's 10 is live: his check, then his raise to 200; he wins 5 + 10 + 40.
    assert rep.finishing_stacks == [250, 136.25, 1236, 255, 145]
    with pytest.raises(PHHError, match="post"):
        replay(loads_phh(hand.replace("antes = [0, 0, 0, 0, 0]", "antes = [1, 1, 1, 1, 1]")))


def test_a_raise_short_of_the_least_raise_but_covering_everyone_is_read_as_it():
    # 2023 WSOP #43 (razz), recorded by an older PokerKit that capped the least raise
    # at what the others could put in: p1 can reach 750000, a full raise is to 1200000.
    hand = """variant = 'FR'
ante_trimming_status = true
antes = [100000, 100000]
bring_in = 100000
small_bet = 300000
big_bet = 600000
starting_stacks = [2650000, 27050000]
actions = ['d dh p1 8c2h4c', 'd dh p2 4h3d8d', 'p2 pb', 'p1 cbr 300000', 'p2 cbr 600000',
           'p1 cc', 'd dh p1 Ad', 'd dh p2 2s', 'p1 cbr 300000', 'p2 cbr 600000', 'p1 cc',
           'd dh p1 Qd', 'd dh p2 Td', 'p2 cbr 600000', 'p1 cc', 'd dh p1 Jd',
           'd dh p2 8s', 'p1 cbr 600000', 'p2 cbr 750000', 'p1 cc', 'd dh p1 Kh',
           'd dh p2 7h', 'p1 sm 8c2h4cAdQdJdKh', 'p2 sm 4h3d8d2sTd8s7h']
finishing_stacks = [0, 29700000]
"""
    data = loads_phh(hand)
    assert replay(data).finishing_stacks == data["finishing_stacks"]
    # Short of the least raise and short of what p1 can reach: still refused.
    with pytest.raises(PHHError, match="p2 cbr 700000"):
        replay(loads_phh(hand.replace("p2 cbr 750000", "p2 cbr 700000")))


SHOWN_UNKNOWN = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [500, 500, 500]
"""


def _shown(*actions: str) -> dict:
    data = loads_phh(SHOWN_UNKNOWN)
    data["actions"] = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f",
                       "p1 cbr 500", "p2 cc", *actions]
    return data


def test_unknown_cards_shown_before_the_runout_reveal_nothing():
    data = _shown("p1 sm ????", "p2 sm ????", "d db 2c7h9d", "p1 sm ????", "p2 sm ????",
                  "d db Th", "d db 3c", "p1 sm AsAd", "p2 sm KsKd")
    assert replay(data).finishing_stacks == [1000, 0, 500]


def test_unknown_cards_shown_at_the_showdown_by_an_unseen_hand_are_a_muck():
    data = _shown("d db 2c7h9d", "d db Th", "d db 3c", "p1 sm AsAd", "p2 sm ????")
    assert replay(data).finishing_stacks == [1000, 0, 500]
    data = _shown("d db 2c7h9d", "d db Th", "d db 3c", "p1 sm ????", "p2 sm ????")
    with pytest.raises(PHHError, match="does not say who won"):
        replay(data)


def test_unknown_cards_shown_by_a_hand_the_deal_named_show_it():
    data = _shown("d db 2c7h9d", "d db Th", "d db 3c", "p1 sm ????", "p2 sm ????")
    data["actions"][:2] = ["d dh p1 KsKd", "d dh p2 AsAd"]
    assert replay(data).finishing_stacks == [0, 1000, 500]
