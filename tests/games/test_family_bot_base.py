"""The one base of the game families' bots (:mod:`pokerarena.games.family_bot`, issue 28).

Six families had six copies of the base class, of the options parsing and of the lookup
by name; these tests hold the shared copy to what the six did: seeded play is the same
whichever way a bot is made (and the ``random`` bot is exactly ``random.Random(seed)``
choosing among the legal actions), options and unknown names fail the same way in every
family, with each family's own error class.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from pokerarena.errors import UserError
from pokerarena.games import family
from pokerarena.games.binocle import bots as binocle_bots
from pokerarena.games.boston import league as boston_league
from pokerarena.games.durak import bots as durak_bots
from pokerarena.games.durak import next_dealer
from pokerarena.games.family_bot import (
    BiddingBot,
    FamilyBot,
    Option,
    UniformBot,
    bot_table,
    make_family_bot,
)
from pokerarena.games.painted import bots as painted_bots
from pokerarena.games.play import play_game, play_games
from pokerarena.games.red_black import bots as red_black_bots
from pokerarena.games.variety import bots as variety_bots

# each family's table of bots, its error class, and small options that keep a game short
TABLES: dict[str, dict[str, Any]] = {
    "binocle": binocle_bots.BOTS, "boston": boston_league.BOTS, "durak": durak_bots.BOTS,
    "painted": painted_bots.BOTS, "red_black": red_black_bots.BOTS,
    "variety": variety_bots.BOTS,
}
SMALL: dict[str, dict[str, Any] | None] = {
    "binocle": {"drop": True}, "boston": None, "durak": None, "red_black": None,
    "painted": {"max_cards": 4, "deals_at_max": 1, "special_count": 1},
    "variety": {"deals": 2},
}
PLAYERS = {"binocle": 3, "boston": 4, "durak": 3, "painted": 3, "red_black": 3, "variety": 4}
MAKERS: dict[str, Callable[..., FamilyBot[Any, Any]]] = {
    "binocle": binocle_bots.make_bot, "durak": durak_bots.make_bot,
    "painted": painted_bots.make_bot, "red_black": red_black_bots.make_bot,
    "variety": variety_bots.make_bot,
}
FAMILIES = sorted(TABLES)


class Reference:
    """A uniform bot written here, not from the package: ``random.Random(seed)`` choosing
    among the legal actions, which is what every family's ``random`` bot did before the
    shared base (so a seeded game of it must replay identically)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def start_game(self, view: Any) -> None:
        pass

    def end_game(self, view: Any) -> None:
        pass

    def act(self, view: Any) -> Any:
        return self.rng.choice(view.legal)


def _seats(fam: str) -> list[str]:
    names = list(TABLES[fam])
    return [names[i % len(names)] for i in range(PLAYERS[fam])]


@pytest.mark.parametrize("fam", FAMILIES)
def test_every_built_in_bot_is_a_family_bot_seeded_by_random_random(fam: str) -> None:
    """Every bot of every family comes from the one base and draws exactly what
    ``random.Random(seed)`` draws."""
    f = family(fam)
    assert tuple(TABLES[fam]) == f.bots
    for name in f.bots:
        bot = f.new_bot(name, 17)  # type: ignore[misc]
        assert isinstance(bot, FamilyBot) and bot.name == name
        ref = random.Random(17)
        assert [bot.rng.random() for _ in range(3)] == [ref.random() for _ in range(3)]


@pytest.mark.parametrize("fam", FAMILIES)
def test_the_random_bot_replays_an_independent_uniform_bot(fam: str) -> None:
    """The family's ``random`` bot, made by name, and :class:`Reference` give the same
    game move for move on the same seeds."""
    f = family(fam)
    game = f.make(SMALL[fam])
    n = PLAYERS[fam]
    for seed in (1, 2):
        made = play_game(game, [f.new_bot("random", seed * 31 + i)  # type: ignore[misc]
                                for i in range(n)], seed, 0)
        ref = play_game(game, [Reference(seed * 31 + i) for i in range(n)], seed, 0)
        assert made.log == ref.log
        assert tuple(made.result().deltas) == tuple(ref.result().deltas)


def _direct(fam: str, bots: list[str], games: int, seed: int) -> list[tuple[float, ...]]:
    """The family's public ``play`` written out here, each bot made from its class (not
    by name through ``make_bot``), with the family's documented seeds and dealers."""
    f = family(fam)
    game = f.make(SMALL[fam])
    out: list[tuple[float, ...]] = []
    dealer: int | None = None
    for g in range(games):
        players = [TABLES[fam][nm]((seed + g) * 31 + i) for i, nm in enumerate(bots)]
        if fam == "durak":  # a series: the last durak deals the next game
            hand = play_game(game, players, seed + g, dealer, series_game=g)
            dealer = next_dealer(hand)
        else:
            hand = play_game(game, players, seed + g, g % len(bots))
        res = hand.result()
        out.append(tuple(res.totals if fam == "painted" else res.deltas))
    return out


@pytest.mark.parametrize("fam", FAMILIES)
def test_the_public_play_and_bots_made_from_their_classes_agree(fam: str) -> None:
    """Seeded play does not depend on the path that made the bots: the family's public
    ``play`` (bots by name, through the shared ``make_family_bot``) and the same games
    played here with bots made from their classes give the same points, every built-in
    bot seated (the simulation bots' ``random.Random`` included)."""
    bots = _seats(fam)
    public = [tuple(p) for p in play_games(family(fam), SMALL[fam], bots, 2, 3)]
    assert public == _direct(fam, bots, 2, 3)


@pytest.mark.parametrize("fam", FAMILIES)
def test_an_unknown_bot_is_the_familys_error_naming_the_built_in_ones(fam: str) -> None:
    f = family(fam)
    with pytest.raises(UserError) as err:
        f.new_bot("nobody", 1)  # type: ignore[misc]
    assert type(err.value).__module__.startswith(f"pokerarena.games.{fam}.")
    assert str(err.value) == f"{fam}: unknown bot 'nobody'; built in: {', '.join(f.bots)}"


def test_durak_keeps_its_own_bot_error_class() -> None:
    with pytest.raises(durak_bots.DurakBotError, match="unknown bot 'x'"):
        durak_bots.make_bot("x")


@pytest.mark.parametrize("fam", FAMILIES)
def test_an_unknown_option_is_one_type_error_in_every_family(fam: str) -> None:
    """Before the shared base, four families' bots refused ``**options`` with Python's
    own message and two with a clear one; now every bot names what it does not know and
    what it does."""
    for name, cls in TABLES[fam].items():
        with pytest.raises(TypeError, match=r"unknown options \['bogus', 'zz'\]; known: ") as e:
            cls(1, zz=1, bogus=2)
        assert str(e.value).startswith(f"{cls.__name__}: ")
        if fam in MAKERS:
            with pytest.raises(TypeError, match="bogus"):
                MAKERS[fam](name, 1, bogus=2)


@pytest.mark.parametrize(("fam", "name", "option", "default"), [
    ("durak", "counter", "samples", 6), ("durak", "counter", "budget", 12),
    ("painted", "sim", "samples", 24), ("painted", "sim", "bid_window", 2.5),
    ("variety", "sim", "bid_samples", 24), ("variety", "sim", "threshold", 0.0),
])
def test_options_default_convert_and_stay_per_bot(fam: str, name: str, option: str,
                                                  default: float) -> None:
    """An option reads as its default until given; a given value is converted to the
    default's type (``"8"`` from a command line is 8) and belongs to that bot alone."""
    make = MAKERS[fam]
    plain, given = make(name, 1), make(name, 1, **{option: "8"})
    assert getattr(plain, option) == default and type(getattr(plain, option)) is type(default)
    assert getattr(given, option) == 8 and type(getattr(given, option)) is type(default)
    assert getattr(make(name, 2), option) == default
    assert option in type(plain).known_options()


@pytest.mark.parametrize(("fam", "error"), [("painted", painted_bots.PaintedError),
                                            ("variety", variety_bots.VarietyError)])
def test_a_bad_option_value_is_the_familys_error(fam: str, error: type[Exception]) -> None:
    make = MAKERS[fam]
    with pytest.raises(error, match=f"{fam}: sim: samples is 1 or more, not 0"):
        make("sim", 1, samples=0)
    with pytest.raises(error, match="bid_samples is a number"):
        make("sim", 1, bid_samples="many")


def test_a_given_option_changes_play_and_the_default_does_not() -> None:
    """The option reaches the decision: the durak counter bot with fewer samples plays
    differently somewhere, and with its defaults spelt out exactly as without them."""
    def play(**options: Any) -> list[Any]:
        logs = []
        for seed in range(6):
            bots = [durak_bots.make_bot("counter", 10 * seed, **options),
                    durak_bots.make_bot("rule", 10 * seed + 1)]
            logs.append(play_game(family("durak").make(None), bots, seed, 0).log)
        return logs

    base = play()
    assert play(samples=6, sim_stock=4, budget=12) == base
    assert play(sim_stock=0) != base


@dataclass(frozen=True)
class _Action:
    kind: str


@dataclass(frozen=True)
class _View:
    legal: tuple[_Action, ...]


class _Bidder(BiddingBot[_View, _Action]):
    name = "bidder"

    def bid(self, view: _View) -> _Action:
        return view.legal[self.rng.randrange(len(view.legal))]

    def play(self, view: _View) -> _Action:
        return view.legal[-1]


def test_a_bidding_bot_plays_a_lone_action_without_a_decision() -> None:
    """A forced bid or card is no decision: the bot's random draws stay for its real
    decisions (what painted poker's and variety's seeded games rely on)."""
    bot = _Bidder(5)
    before = bot.rng.getstate()
    assert bot.act(_View((_Action("bid"),))) == _Action("bid")
    assert bot.rng.getstate() == before
    bids = (_Action("bid"), _Action("bid"), _Action("bid"))
    bot.act(_View(bids))
    assert bot.rng.getstate() != before
    cards = (_Action("play"), _Action("card"))
    assert bot.act(_View(cards)) == _Action("card")


def test_the_uniform_bot_draws_one_choice_even_when_forced() -> None:
    """Unlike a bidding bot, the random bot draws on a lone action too, as the families'
    random bots always did (skipping it would shift every later draw)."""
    bot: UniformBot[_View, _Action] = UniformBot(5)
    ref = random.Random(5)
    for legal in [(_Action("a"),), (_Action("a"), _Action("b"), _Action("c"))] * 3:
        assert bot.act(_View(legal)) == ref.choice(legal)


class _A(FamilyBot[_View, _Action]):
    name = "a"


class _B(FamilyBot[_View, _Action]):
    name = "a"
    width = Option(3, least=1)


def test_bot_table_refuses_two_bots_under_one_name() -> None:
    assert list(bot_table(_A)) == ["a"]
    with pytest.raises(ValueError, match="two bots named 'a': _A and _B"):
        bot_table(_A, _B)


def test_make_family_bot_keeps_name_and_family_free_for_options() -> None:
    """Its own parameters are positional-only, so they never swallow a bot option."""
    with pytest.raises(TypeError, match=r"unknown options \['family', 'name'\]"):
        make_family_bot("test", {"a": _B}, KeyError, "a", 1, name="x", family="y")
    assert make_family_bot("test", {"a": _B}, KeyError, "a", 1, width=4).width == 4
    with pytest.raises(KeyError, match="test: unknown bot 'b'; built in: a"):
        make_family_bot("test", {"a": _B}, KeyError, "b")
    with pytest.raises(ValueError, match="game: a: width is 1 or more, not -1"):
        _B(0, width=-1)
