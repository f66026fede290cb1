"""PHH (poker hand history) files: read, replay strictly, write (``.phh``: one hand;
``.phhs``: several, each a TOML table ``[1]``, ``[2]``, ...).

A ``.phh`` file is TOML: ``variant`` (FT, NT, NS, PO, FO/8, F7S, F7S/8, FR, N2L1D, F2L3D,
FB, or a pokerarena variant id with ``_betting`` and other ``_`` options), ``antes``,
``blinds_or_straddles``,
``min_bet`` / ``small_bet`` + ``big_bet`` / ``bring_in``, ``starting_stacks`` and
``actions`` (``d dh p1 AsKd``, ``d db 7c8cTs``, ``p2 cbr 350``, ``p1 cc``, ``p3 f``,
``p1 sd 2c``, ``p2 sm KcTd``, ``p1 pb``; ``??`` is an unknown card; ``#`` starts a
comment). Player p1 is the first seat left of the button; the replay seats the button
at seat ``n - 1`` so that seat ``i`` is player ``p{i+1}``.

Amounts may be fractional (online cash games): the replay scales them to integer chips
by the smallest power of ten that makes every amount whole, and scales back at the end.

Readings the public hand histories need (the PHH dataset's televised and online hands):
``??`` cards in a discard are distinct unknown cards, as in dealing; a starting stack of
``inf`` (unknown) plays deeper than any chip the hand moves and finishes as ``inf``; a
negative blind is a post (a live bet that does not move the first to act); a bet or
raise short of the least raise but covering every other player is the least raise;
``pN sm ????`` reveals nothing before the showdown, and at it shows the cards the deal
named or, when none were named, is a muck.
"""

from pokerarena.engine.phh.common import PHHError, Replay, parse_cards_text
from pokerarena.engine.phh.export import dumps_phh, dumps_phhs, hand_to_phh
from pokerarena.engine.phh.parse import load_hands, load_phh, load_phhs, loads_phh, loads_phhs
from pokerarena.engine.phh.replay import replay

__all__ = ["PHHError", "Replay", "dumps_phh", "dumps_phhs", "hand_to_phh", "load_hands",
           "load_phh", "load_phhs", "loads_phh", "loads_phhs", "parse_cards_text", "replay"]
