"""``GameOptions``: the options of a :class:`~pokerarena.engine.game.Game` (a pydantic
model, validated when a game is made)."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["GameOptions"]


class GameOptions(BaseModel):
    """Options of a game; every field is optional and defaults to the variant's choice.

    Amount fields override the variant's ``stakes``. ``antes`` and ``blinds`` are lists by
    role (as PHH writes them: first the player left of the button; heads-up with blinds,
    the button posts ``blinds[0]``). ``max_raises`` / ``heads_up_max_raises`` accept
    ``"none"`` for no cap. ``phh_compat`` (set by PHH replay) also accepts PokerKit's
    conventions where they differ from casino practice. ``wild``, ``wild_rule``,
    ``five_of_a_kind``, ``double_ace_flush``, ``fewer_wilds_win``, ``four_flush``,
    ``blaze``, ``trips_beat_straight`` and ``combine`` override the variant's showdown
    (RULES.md §1). ``hilo`` plays any variant high-low (RULES.md §3): ``cards_speak``
    (low: ``hilo_low``), ``cards_speak_8`` (low: ace-to-five eight or better),
    ``declare_in_turn`` / ``declare_simultaneous`` (a declaration before the showdown,
    low: ``hilo_low``). ``rake_percent`` (of the pots, rounded down, at most
    ``rake_cap``; with ``rake_showdown_only`` only hands that reach a showdown) goes to the
    house: chips are then conserved as stacks + rake. ``kitty_unit``: one unit from each
    pot with more than one raise goes to the table's kitty. ``bonus`` (four of a kind,
    straight flush or royal): such a hand shown down is paid ``bonus_multiplier`` x the
    big bet by every other player. ``openers``, ``pass_and_out``, ``draw_more_when_few``
    (draw streets' ``max_if_players_at_most``): RULES.md §3 draw. ``last_card_down``: stud
    deals its last card down. ``freeze_multiple`` (fixed limit, 2-5): after two raises a
    player who has not raised may bet that multiple of the bet, then the round is frozen.
    ``knock_immediate`` (knock poker): a knock on any turn shows the hands at once.
    ``last_card_choice``: stud's last up card is dealt down to each player who asks for
    it (``dd``; ``cc`` takes it up). ``joker``: one joker joins a standard deck, wild at
    the showdown; as an up card it ranks above the ace when the showing hands decide who
    opens (five-card stud).

    Rules where the documents are silent follow casino (TDA) practice by default, each an
    option (RULES.md §4): ``min_bet_big_blind`` (no limit and pot limit: the smallest bet
    is the big blind), ``all_in_reopen`` (``cumulative``: short all-ins that together make
    a full raise reopen the betting for players who have acted; ``single``: only one full
    raise does), ``half_bet_reopens`` (fixed limit: an all-in raise of at least half a bet
    counts as a full raise). ``free_fold`` (000_… «Игрок может сделать это в любой
    момент»): a player may fold when he could check, and at any decision. ``jackpot``: the
    maximum bet or raise of this deal is the pot as it stands before the deal (when it is
    above the usual maximum; the minimum stays the usual one). ``void_if_all_check``
    overrides the variant's rule for a first betting round everybody checks. ``draw_max``
    overrides every draw street's maximum; ``ante_by`` who antes; ``amounts`` the
    ``fixed_amounts`` system's amounts; ``live_ante`` whether the antes count as bets in
    the first round (the variant's ``forced.live_ante``; PHH replay: PokerKit's posts).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    betting: str | None = None
    irregularities: Literal["strict", "house"] = "strict"
    odd_chip: Literal["called", "position", "fractional"] = "called"
    dealing: Literal["auto", "manual"] = "auto"
    showdown: Literal["auto", "manual"] = "auto"
    ante: int | None = Field(None, ge=0)
    antes: tuple[int, ...] | None = None
    blinds: tuple[int, ...] | None = None
    bring_in: int | None = Field(None, ge=0)
    small_bet: int | None = Field(None, ge=1)
    big_bet: int | None = Field(None, ge=1)
    min_bet: int | None = Field(None, ge=1)
    max_bet: int | None = Field(None, ge=1)
    max_raises: int | Literal["none"] | None = None
    heads_up_max_raises: int | Literal["none"] | None = None
    max_raises_per_player: int | Literal["none"] | None = None
    round_multipliers: tuple[int, ...] | None = None
    reset_each_round: bool | None = None
    ante_trimming: bool = True
    phh_compat: bool = False
    open_pair_big_bet: bool = True
    pass_and_out: bool = False
    draw_more_when_few: bool = False
    last_card_down: bool = False
    freeze_multiple: int = Field(0, ge=0, le=10)
    openers: Literal["any", "jacks_or_better", "progressive", "jacks_or_bobtail"] | None = None
    combine: Literal["any", "omaha", "crisscross", "one_board"] | None = None
    hilo: Literal["cards_speak", "cards_speak_8", "declare_in_turn",
                  "declare_simultaneous"] | None = None
    wild: str | None = None
    wild_rule: Literal["any", "lacking"] | None = None
    five_of_a_kind: bool | None = None
    double_ace_flush: bool | None = None
    fewer_wilds_win: bool | None = None
    four_flush: bool | None = None
    blaze: bool | None = None
    trips_beat_straight: bool | None = None
    rake_percent: Fraction = Field(Fraction(0), ge=0, le=100)
    rake_cap: int | None = Field(None, ge=0)
    rake_showdown_only: bool = False
    kitty_unit: int = Field(0, ge=0)
    bonus: Literal["none", "four_of_a_kind", "straight_flush", "royal"] = "none"
    bonus_multiplier: int = Field(3, ge=1, le=10)
    knock_immediate: bool | None = None
    last_card_choice: bool = False
    joker: bool = False
    free_fold: bool = True
    min_bet_big_blind: bool = True
    all_in_reopen: Literal["cumulative", "single"] = "cumulative"
    half_bet_reopens: bool = True
    jackpot: bool = False
    void_if_all_check: bool | None = None
    draw_max: int | None = Field(None, ge=0, le=13)
    ante_by: Literal["none", "all", "dealer", "dealer_and_left", "dealer_and_two_left",
                     "big_blind"] | None = None
    amounts: tuple[int, ...] | None = None
    live_ante: bool | None = None
