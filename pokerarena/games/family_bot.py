"""The one base class of the game families' built-in bots, their options, and the one
way to make a bot by name.

Every family (binocle, boston, durak, painted, red_black, variety) had written its own
base class (a name, a seeded ``random.Random``, no-op hooks), its own random bot, its own
option parsing and its own lookup by name, and the copies had drifted: two took
``**options`` and four did not, so the same misspelt option was a clear message in one
family and Python's ``unexpected keyword argument`` in another. One copy keeps them
alike: a bot's options, the error for an unknown or a bad one and the error for an
unknown bot read the same in every family.

A family states its types and its error class once::

    class DurakBot(FamilyBot[DurakView, DurakAction]):
        family, error = "durak", DurakError

declares a bot's options as class attributes (``samples = Option(6)``), lists its bots
in a table (:func:`bot_table`) and makes them with :func:`make_family_bot`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, overload

ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT")
T = TypeVar("T", int, float)


class Option(Generic[T]):
    """A bot option, declared as a class attribute: ``samples = Option(24, least=1)``.

    Read on a bot it is the bot's value: the ``default`` unless the bot was made with
    another (``make_bot("sim", 1, samples=8)``), converted to the default's type (so
    ``"8"`` from a command line is 8) and refused below ``least`` with the family's own
    error (the one its callers and the CLI already catch). The value given is stored in
    the bot's ``__dict__``, which Python reads before this descriptor: an option costs
    a decision nothing."""

    def __init__(self, default: T, least: T | None = None) -> None:
        self.default: T = default
        self.least: T | None = least
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, bot: None, owner: type) -> Option[T]: ...

    @overload
    def __get__(self, bot: object, owner: type) -> T: ...

    def __get__(self, bot: object | None, owner: type) -> Option[T] | T:
        return self if bot is None else self.default

    def value(self, bot: FamilyBot[Any, Any], given: Any) -> T:
        """``given`` as this option's value for ``bot``, or the family's error."""
        kind = type(self.default)
        try:
            value = kind(given)
        except (TypeError, ValueError):
            raise bot.error(f"{bot.family}: {bot.name}: {self.name} is a number "
                            f"({kind.__name__}), not {given!r}") from None
        if self.least is not None and value < self.least:
            raise bot.error(f"{bot.family}: {bot.name}: {self.name} is {self.least} or more, "
                            f"not {given!r}")
        return value


class FamilyBot(Generic[ViewT, ActionT]):
    """A built-in bot of a game family: a ``name``, a one-line ``description``, its own
    ``random.Random`` seeded with ``seed`` (so a seeded game replays exactly, and one
    bot's draws never shift another's), hooks that do nothing, and ``act`` to define.

    Keyword ``options`` set the bot's :class:`Option` attributes; any other is one
    ``TypeError`` naming every unknown option and the known ones, so a misspelt option
    never plays silently with the default. A family's base sets ``family`` (the prefix
    of its messages) and ``error`` (the class of a bad option value)."""

    name = "family-bot"
    description = ""
    family: ClassVar[str] = "game"
    error: ClassVar[type[Exception]] = ValueError

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        # the rng first, exactly as every family seeded it before: seeded play is unchanged
        self.rng = random.Random(seed)
        known = self.known_options()
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise TypeError(f"{type(self).__name__}: unknown options {unknown}; known: "
                            f"{', '.join(known) or 'none'}")
        for key, given in options.items():
            vars(self)[key] = known[key].value(self, given)

    @classmethod
    def known_options(cls) -> dict[str, Option[Any]]:
        """The bot's options by name (a subclass's own after those it inherits)."""
        return {k: v for c in reversed(cls.__mro__) for k, v in vars(c).items()
                if isinstance(v, Option)}

    def start_game(self, view: ViewT) -> None:
        """Called when a game starts (a tour, for variety)."""

    def end_game(self, view: ViewT) -> None:
        """Called when a game is over."""

    def act(self, view: ViewT) -> ActionT:  # pragma: no cover - abstract
        """The seat's action for ``view`` (one of ``view.legal``)."""
        raise NotImplementedError


class LegalView(Protocol):
    """What :class:`UniformBot` reads of a view: the seat's legal actions."""

    @property
    def legal(self) -> Sequence[Any]: ...


LegalViewT = TypeVar("LegalViewT", bound=LegalView)


class UniformBot(FamilyBot[LegalViewT, ActionT]):
    """Uniform over the legal actions: every family's ``random`` bot, the baseline any
    other bot must beat. A family's ``RandomBot`` mixes it with its own base."""

    name = "random"
    description = "uniform over the legal actions"

    def act(self, view: LegalViewT) -> ActionT:
        return self.rng.choice(view.legal)


class BiddingBot(FamilyBot[LegalViewT, ActionT]):
    """A bot of a family whose deal has an auction and then the play of cards (painted
    poker, variety): it defines ``bid(view)`` and ``play(view)``, and ``act`` asks the
    right one, after returning a lone legal action outright (a forced bid or card is no
    decision: no kernel runs for it and the bot's ``random.Random`` draws nothing, which
    every seeded game of these families has relied on). A bid is an action whose
    ``kind`` is ``bid_kind``."""

    bid_kind: ClassVar[str] = "bid"

    def act(self, view: LegalViewT) -> ActionT:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        return self.bid(view) if legal[0].kind == self.bid_kind else self.play(view)

    def bid(self, view: LegalViewT) -> ActionT:  # pragma: no cover - abstract
        """The seat's bid (``view.legal`` holds two or more)."""
        raise NotImplementedError

    def play(self, view: LegalViewT) -> ActionT:  # pragma: no cover - abstract
        """The seat's card (``view.legal`` holds two or more)."""
        raise NotImplementedError


BotT = TypeVar("BotT", bound=FamilyBot[Any, Any])


def bot_table(*classes: type[BotT]) -> dict[str, type[BotT]]:
    """A family's built-in bots by their ``name``, in the order given (the order the
    error for an unknown bot lists them in). Two classes under one name are an error
    here, at import, rather than the later one silently hiding the earlier."""
    table: dict[str, type[BotT]] = {}
    for cls in classes:
        if cls.name in table:
            raise ValueError(f"two bots named {cls.name!r}: {table[cls.name].__name__} "
                             f"and {cls.__name__}")
        table[cls.name] = cls
    return table


def make_family_bot(family: str, bots: Mapping[str, type[BotT]], error: type[Exception],
                    name: str, seed: int | None = None, /, **options: Any) -> BotT:
    """The bot called ``name`` in ``family``'s table ``bots``, seeded with ``seed`` and
    given ``options``; an unknown name is one ``error`` (the family's own class, which its
    callers and the CLI already catch) naming the built-in bots. The leading parameters
    are positional-only, so a bot option may be called ``name`` or ``family``."""
    cls = bots.get(name)
    if cls is None:
        raise error(f"{family}: unknown bot {name!r}; built in: {', '.join(bots)}")
    return cls(seed, **options)


__all__ = ["ActionT", "BiddingBot", "BotT", "FamilyBot", "LegalView", "Option", "UniformBot",
           "ViewT", "bot_table", "make_family_bot"]
