"""Pure rules of the hand: openers, who shows the best up cards, forced raises, the
best hands at a showdown."""

from __future__ import annotations

from typing import Final

from pokerarena.engine.actions import UNKNOWN


def _best(players: list[int], values: dict, high: bool,
          low: bool) -> tuple[list[int] | None, list[int] | None]:
    """(best high hands, best qualifying low hands) among ``players`` (None: nobody)."""
    highs: list[int] = []
    lows: list[int] = []
    if high and players:
        best = None
        for p in players:  # the players with the highest value, in the given order
            v = values[p][0]
            if best is None or v > best:
                best = v
                highs = [p]
            elif v == best:
                highs.append(p)
    if low:
        best = None
        for p in players:
            v = values[p][1]
            if v is None:
                continue
            if best is None or v > best:
                best = v
                lows = [p]
            elif v == best:
                lows.append(p)
    return highs or None, lows or None


_PROGRESSIVE: Final = (9, 10, 11, 12, 11, 10)  # progressive openers: J, Q, K, A, K, Q, J, ...


def _has_openers(cards: list[int], min_rank: int) -> bool:
    """A pair of ``min_rank`` (9 = jacks) or better: any higher pair, two pair, trips,
    straight, flush or better (asked at every decision of a first round: plain lists and
    a rank bit mask)."""
    counts = [0] * 13
    suits = [0, 0, 0, 0]
    for c in cards:
        if c < 52:
            counts[c >> 2] += 1
            suits[c & 3] += 1
    pairs = 0
    mask = 0
    for r in range(13):
        k = counts[r]
        if k:
            mask |= 1 << r
            if k >= 2:
                if k >= 3 or r >= min_rank:
                    return True
                pairs += 1
    if pairs >= 2 or max(suits) >= 5:
        return True
    mask = (mask << 1) | (mask >> 12)  # bit r + 1: rank r; bit 0: the ace, low
    return any((mask >> r) & 31 == 31 for r in range(10))


def _has_bobtail(cards: list[int]) -> bool:
    """A bobtail (jacks or bobtail openers): four cards of one suit, or four consecutive
    ranks open at both ends (2-3-4-5 up to T-J-Q-K; not A-2-3-4 or J-Q-K-A)."""
    suits: dict[int, int] = {}
    ranks = set()
    for c in cards:
        if c < 52:
            suits[c & 3] = suits.get(c & 3, 0) + 1
            ranks.add(c >> 2)
    if any(k >= 4 for k in suits.values()):
        return True
    return any(all(r + i in ranks for i in range(4)) for r in range(9))


def _forced_raises(bets: list[int], size: int) -> int:
    """How many bets and raises the forced bets already make (blinds, a straddle, live
    antes): each level at least ``size`` above the one before is one (002_… blind open:
    the second blind «поднимает его ставку»)."""
    count = level = 0
    for b in sorted(set(bets)):
        if b > 0 and b - level >= size:
            count += 1
            level = b
    return count


def _showing_key_high(cards: list[int], four_flush: bool = False) -> tuple:
    """Strength of up cards for who opens (pairs, trips, quads, high cards; higher better).
    With ``four_flush``, four up cards of one suit rank above a pair and below two pair
    (000_… «При вскрытии (а также при определении начала круга ставок) он старше пары,
    но слабее двух пар»)."""
    counts: dict[int, int] = {}
    for c in cards:
        if c != UNKNOWN:
            r = c >> 2
            counts[r] = counts.get(r, 0) + 1
    groups = sorted([(k, r) for r, k in counts.items()], reverse=True)  # (count, rank)
    shape = tuple([g[0] for g in groups])
    if four_flush and shape < (2, 2):
        suits: dict[int, int] = {}
        for c in cards:
            if c < 52:
                suits[c & 3] = suits.get(c & 3, 0) + 1
        if any(k >= 4 for k in suits.values()):
            # (2, 1, 5) sorts above every one-pair shape and below two pair.
            return (2, 1, 5), tuple(sorted([c >> 2 for c in cards if c != UNKNOWN],
                                           reverse=True))
    return shape, tuple([g[1] for g in groups])


def _showing_key_low(cards: list[int]) -> tuple:
    """Strength of up cards for razz-style openers (ace low; *lower* key is better)."""
    counts: dict[int, int] = {}
    for c in cards:
        if c != UNKNOWN:
            r = ((c >> 2) + 1) % 13
            counts[r] = counts.get(r, 0) + 1
    groups = sorted([(k, r) for r, k in counts.items()], reverse=True)  # (count, rank)
    return tuple([g[0] for g in groups]), tuple([g[1] for g in groups])
