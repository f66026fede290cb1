"""The strength bots' shortcuts agree with the full computations: the kernel's keyed
high ranking, Omaha flushes and eight-or-better lows against the numpy path on fully
dealt hands, the one-hand percentile against the batch evaluator, and decisions made
without Monte Carlo against the same decision with any equity."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_check import assert_each_deal_scores

from pokerarena.arena.match import play_match
from pokerarena.bots.registry import make_bot
from pokerarena.bots.strength.estimate import Profile
from pokerarena.engine import Game


@pytest.mark.parametrize("variant", ["holdem", "stud7", "omaha", "omaha_hilo", "stud7_hilo"])
def test_kernel_shares_match_numpy_path_on_dealt_hands(variant):
    """With every card known, one kernel deal is the exact share; it must equal
    :meth:`Profile.shares` (the batch evaluator) deal by deal."""
    prof = Profile(Game(variant))
    assert prof.plan is not None
    rng = np.random.default_rng(7)
    h, nb = prof.hole_final, prof.board_final
    deals = 600
    rows = np.stack([rng.choice(prof.deck, 3 * h + nb, replace=False) for _ in range(deals)])
    if prof.omaha:  # make board flushes common: three or more of one suit on most boards
        rows = rows[np.argsort([-max(np.bincount(r[3 * h:] & 3, minlength=4))
                                for r in rows], kind="stable")]
    mine, opp1, opp2 = rows[:, :h], rows[:, h:2 * h], rows[:, 2 * h:3 * h]
    boards = rows[:, 3 * h:] if nb else None
    want = prof.shares(mine, [opp1, opp2], boards)
    assert_each_deal_scores(prof, rows, want)


def test_hand_percentile_matches_batch_percentile():
    prof = Profile(Game("draw5"))
    rng = np.random.default_rng(3)
    for _ in range(500):
        hand = rng.choice(prof.deck, 5, replace=False).tolist()
        assert prof.hand_percentile(hand) == prof.percentile(
            np.asarray([hand], dtype=np.uint8), 5)[0]


def _answers_between(bot, view, prof, spot, bluff, ths):
    """For each interval between consecutive thresholds, the set of :meth:`bet`'s answers
    (their kinds where the size follows the equity) at equities inside it."""
    cuts = sorted({0.0, 1.0, *(min(1.0, max(0.0, t)) for t in ths)})
    out = []
    for lo, hi in zip(cuts, cuts[1:], strict=False):
        if hi - lo < 1e-6:
            continue
        answers = set()
        for f in (0.02, 0.5, 0.98):
            act = bot.bet(view, prof, lo + f * (hi - lo), spot, bluff)
            answers.add(act.kind if bot.style.size_by_equity else act)
        out.append(answers)
    return out


@pytest.mark.parametrize("bot_name", ["tag", "lag", "equity"])
def test_decisions_without_equity_do_not_depend_on_it(bot_name):
    """Where :meth:`thresholds` says a decision needs no equity (a bluff, a free check
    that cannot bet), :meth:`bet` answers the same for any equity; elsewhere its choice
    changes only at the thresholds (the sampling stops early once the equity is clear of
    them). Every bot has decisions of the second kind examined, a bluffer of both."""
    game = Game("holdem", {"betting": "no_limit"})
    seen = []

    class Spy:
        name = bot_name

        def __init__(self):
            self.bot = make_bot(bot_name, 5)

        def __getattr__(self, k):
            return getattr(self.bot, k)

        def act(self, view):
            seen.append(view)
            return self.bot.act(view)

    play_match(game, [Spy(), "maniac"], 150, 3)
    bot = make_bot(bot_name, 9)
    prof = Profile(game)
    bluffs = (False, True) if bot.style.bluff > 0 else (False,)  # as decide_bet draws it
    free = bounded = 0
    for view in seen:
        if view.legal is None:
            continue
        spot = bot.spot(view)
        for bluff in bluffs:
            ths = bot.thresholds(view, spot, bluff)
            if ths is None:
                free += 1
                answers = {bot.bet(view, prof, e, spot, bluff) for e in (0.0, 0.3, 0.7, 1.0)}
                assert len(answers) == 1
            else:
                bounded += 1
                for answers in _answers_between(bot, view, prof, spot, bluff, ths):
                    assert len(answers) == 1, (ths, answers)
    assert bounded > 100
    assert free > 0 or bot.style.bluff == 0


def test_acts_last_is_the_live_seat_nearest_the_button_going_back():
    """Position: the button if live, else the first live seat before it."""
    import random as _random
    from types import SimpleNamespace

    from pokerarena.bots.strength.policy import acts_last

    rng = _random.Random(1)
    for _ in range(5000):
        n = rng.randint(2, 10)
        folded = tuple(rng.random() < 0.4 for _ in range(n))
        button = rng.randrange(n)
        live_back = [s % n for s in range(button, button - n, -1) if not folded[s % n]]
        for seat in range(n):
            view = SimpleNamespace(players=n, folded=folded, button=button, seat=seat)
            assert acts_last(view) == (bool(live_back) and live_back[0] == seat)
