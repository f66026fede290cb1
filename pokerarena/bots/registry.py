"""Naming bots: registered names, Python paths and adapter URLs.

A bot spec is one of

- a registered name: ``tag``, ``equity`` ... (``pokerarena bots`` lists them);
- a Python path ``package.module:Class`` (the class is called with ``seed=`` when it
  takes one, and with the spec's keyword options);
- an adapter URL: ``http://host:port/path`` (:mod:`pokerarena.bots.adapters.http`); the
  adapter's options ``hooks`` and ``policy`` may follow in its query
  (``http://host:port/act?policy=true``), any other query parameter is the endpoint's;
- ``openspiel:GAME?policy=FILE``: an OpenSpiel tabular policy
  (:mod:`pokerarena.interop.openspiel_bot`; needs the ``peers`` extra).

Keyword options follow a ``?`` as ``key=value`` pairs joined by ``&``:
``tag?samples=300``, ``mybots.deep:Bot?depth=3&style=calm``. Values are read as int,
float, true/false, or text.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
from typing import Any

from pokerarena.errors import UserError

# name -> (module:Class, one-line description)
REGISTRY: dict[str, tuple[str, str]] = {
    "random": ("pokerarena.bots.simple.random_bot:RandomBot",
               "uniform over the legal action kinds, then over amounts and discards"),
    "call": ("pokerarena.bots.simple.call_bot:CallBot",
             "calling station: checks or calls every bet, never raises"),
    "rock": ("pokerarena.bots.strength.rock:RockBot",
             "tight-passive: plays strong hands, rarely raises, never bluffs"),
    "tag": ("pokerarena.bots.strength.tag:TagBot",
            "tight-aggressive: equity vs. pot odds, value bets, few bluffs"),
    "lag": ("pokerarena.bots.strength.lag:LagBot",
            "loose-aggressive: wide calls, frequent bets and bluffs"),
    "equity": ("pokerarena.bots.strength.equity_bot:EquityBot",
               "Monte-Carlo equity vs. ranges narrowed by aggression; value bets, "
               "pot-odds calls"),
    "maniac": ("pokerarena.bots.simple.maniac:ManiacBot",
               "raises whenever it may (pot-sized or all-in), never folds"),
    "cfr": ("pokerarena.bots.simple.cfr_bot:CfrBot",
            "heads-up limit hold'em: MCCFR strategy over E[HS] card buckets"),
}


class BotSpecError(ValueError, UserError):
    """A bot spec that names no bot."""


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """(target, options) of a spec; the target is a name, a path or a URL."""
    spec = spec.strip()
    if not spec:
        raise BotSpecError("empty bot spec")
    if spec.startswith(("http://", "https://")):
        return spec, {}
    target, _, query = spec.partition("?")
    options: dict[str, Any] = {}
    for part in filter(None, query.split("&")):
        key, eq, val = part.partition("=")
        if not eq or not key.strip():
            raise BotSpecError(f"bot option {part!r} is not key=value")
        options[key.strip()] = _value(val.strip())
    return target, options


def load_class(path: str) -> type:
    """The class named by ``package.module:Class``."""
    mod_name, colon, cls_name = path.partition(":")
    if not colon or not mod_name or not cls_name:
        raise BotSpecError(f"{path!r} is not a registered bot ({', '.join(REGISTRY)}), "
                           "a Python path package.module:Class, or an http:// URL")
    try:
        module = importlib.import_module(mod_name)
    except ImportError as exc:
        raise BotSpecError(f"cannot import {mod_name!r}: {exc}") from None
    obj: Any = module
    for attr in cls_name.split("."):
        obj = getattr(obj, attr, None)
        if obj is None:
            raise BotSpecError(f"{mod_name!r} has no {cls_name!r}")
    if not isinstance(obj, type):
        raise BotSpecError(f"{path!r} is not a class")
    if not callable(getattr(obj, "act", None)):
        # checked before anything is constructed: a class that is not a bot never runs
        raise BotSpecError(f"{path!r} has no act(observation) method: not a bot")
    return obj


def _takes_seed(cls: Any) -> bool:
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params or any(p.kind == p.VAR_KEYWORD for p in params.values())


def make_bot(spec: str, seed: int | None = None, **extra: Any) -> Any:
    """Build the bot a spec names; its ``name`` becomes the spec when it has none. A
    ``seed`` option in the spec replaces ``seed``."""
    target, options = parse_spec(spec)
    if target.startswith("cfr:"):   # cfr:PATH plays a strategy file (docs/exact.md)
        from pokerarena.bots.simple.strategy_table import file_version

        path = target[4:]
        target = ("pokerarena.bots.simple.cfr_bot:CfrBot" if file_version(path) == 2
                  else "pokerarena.bots.simple.strategy_bot:StrategyBot")
        options["path"] = path
    if target.startswith("openspiel:"):  # an OpenSpiel policy (docs/interop.md)
        options["game"] = target[len("openspiel:"):]
        options["policy"] = str(options.get("policy", ""))
        target = OPENSPIEL_BOT
    options.update(extra)
    seed = options.pop("seed", seed)  # a seed in the spec wins over the table's
    if target.startswith(("http://", "https://")):
        from pokerarena.bots.adapters.http import http_bot

        try:  # the URL's own options (?hooks=true&policy=true): docs/bots.md
            return http_bot(target, **options)
        except (TypeError, ValueError) as exc:
            raise BotSpecError(f"{spec}: {exc}") from None
    path = REGISTRY[target][0] if target in REGISTRY else target
    cls = load_class(path)
    try:
        bot = cls(seed=seed, **options) if _takes_seed(cls) else cls(**options)
    except TypeError as exc:
        raise BotSpecError(f"{spec}: {exc}") from None
    if not callable(getattr(bot, "act", None)):
        raise BotSpecError(f"{spec}: the object has no act(observation) method")
    if not isinstance(getattr(bot, "name", None), str):
        with contextlib.suppress(AttributeError):
            bot.name = target
    return bot


def listing() -> list[dict[str, str]]:
    """The registered bots: name, Python path, description."""
    return [{"name": k, "path": v[0], "description": v[1]} for k, v in REGISTRY.items()]


OPENSPIEL_BOT = "pokerarena.interop.openspiel_bot:OpenSpielBot"
STRATEGY_BOTS = ("pokerarena.bots.simple.cfr_bot:CfrBot",
                 "pokerarena.bots.simple.strategy_bot:StrategyBot", OPENSPIEL_BOT)


def check_bots_for_game(specs: Any, games: Any, players: int) -> None:
    """Let each bot of ``specs`` that plays a strategy file (``cfr``, ``cfr:FILE``, or
    their classes by path) refuse any of ``games`` at a table of ``players`` now, so a
    file of another game is one error before any hand (a match's fault guard would
    otherwise record a fault at every decision). Other bots are not built here: their
    constructors may be costly or have effects."""
    from pokerarena.engine.keys import game_info_of

    infos = [game_info_of(g) for g in games]
    for spec in dict.fromkeys(specs):
        target = parse_spec(spec)[0]
        path = REGISTRY[target][0] if target in REGISTRY else target
        if not (target.startswith(("cfr:", "openspiel:")) or path in STRATEGY_BOTS):
            continue
        bot = make_bot(spec, 0)
        for info in infos:
            bot.check_game(info, players)
