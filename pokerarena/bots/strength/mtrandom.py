"""Python's ``random.Random`` (MT19937) in numba, for the compiled policies.

The strength bots draw their bluffs with ``rng.random()`` and their Monte-Carlo seeds
with ``mc_rng.getrandbits(31)``; a compiled policy that must decide exactly as the
Python bot does has to draw the very same numbers from the very same state. A state is
a row of 625 uint32-valued int64 cells: the generator's 624 words, then its position
(``random.Random.getstate()[1]``), so it goes to and from the Python object unchanged.
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

N = 624
M = 397
STATE = N + 1  # cells of a state row: the words, then the position
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MASK32 = 0xFFFFFFFF


def state_of(rng: random.Random) -> np.ndarray:
    """The state row of a ``random.Random``."""
    version, words, _gauss = rng.getstate()
    if version != 3 or len(words) != STATE:
        raise ValueError(f"unknown random.Random state (version {version})")
    return np.asarray(words, dtype=np.int64)


def set_state(rng: random.Random, row: np.ndarray) -> None:
    """Give ``rng`` the state ``row`` (its pending gauss value kept as it was)."""
    version, _words, gauss = rng.getstate()
    rng.setstate((version, tuple(int(x) for x in row), gauss))


@njit(cache=True, inline="always")
def _twist(mt):  # pragma: no cover - jit
    """The generator's next 624 words, in place (MT19937's reload)."""
    for k in range(N):
        y = (mt[k] & _UPPER) | (mt[(k + 1) % N] & _LOWER)
        v = mt[(k + M) % N] ^ (y >> 1)
        if y & 1:
            v ^= _MATRIX_A
        mt[k] = v


@njit(cache=True)
def genrand(mt):  # pragma: no cover - jit
    """The next 32-bit output of the state row ``mt`` (``genrand_uint32``)."""
    i = mt[N]
    if i >= N:
        _twist(mt)
        i = 0
    y = mt[i]
    mt[N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _MASK32


@njit(cache=True)
def random01(mt):  # pragma: no cover - jit
    """``random.Random.random()``: 53 bits of two outputs, in [0, 1)."""
    a = genrand(mt) >> 5
    b = genrand(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def getrandbits31(mt):  # pragma: no cover - jit
    """``random.Random.getrandbits(31)``."""
    return genrand(mt) >> 1
