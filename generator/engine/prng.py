"""The specified PRNG and shuffle (docs/engine.md has the exact text).

Everything here is 32-bit unsigned arithmetic with shifts, xors and
multiplies, and the shuffle draws single bytes with rejection, so an 8-bit AVR
reproduces it without floating point or 64-bit division.
"""

from __future__ import annotations

M32 = 0xFFFFFFFF
GOLDEN = 0x9E3779B9  # added once per hand number to spread hand seeds apart
MIX_MUL1 = 0x7FEB352D
MIX_MUL2 = 0x846CA68B
AI_SALT = 0x5EED5EED  # separates the players' random stream from the deals
XORSHIFT = (13, 17, 5)


def mix32(x: int) -> int:
    """A 32-bit finaliser (lowbias32): neighbouring seeds give unrelated states."""
    x &= M32
    x ^= x >> 16
    x = (x * MIX_MUL1) & M32
    x ^= x >> 15
    x = (x * MIX_MUL2) & M32
    x ^= x >> 16
    return x


class Rng:
    """xorshift32 (13, 17, 5); the state is never zero."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        state &= M32
        self.state = state if state else 1

    def next(self) -> int:
        x = self.state
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        self.state = x
        return x

    def uniform(self, n: int) -> int:
        """Unbiased integer in ``[0, n)`` for ``1 <= n <= 256`` from the top byte."""
        if not 1 <= n <= 256:
            raise ValueError("uniform() takes 1 <= n <= 256")
        limit = 256 - 256 % n
        x = self.state
        while True:  # next() inline: a draw at every shuffle step and every random decision
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            r = x >> 24
            if r < limit:
                self.state = x
                return r % n


def hand_rng(seed: int, hand: int) -> Rng:
    """The stream that shuffles hand ``hand`` (1-based) of the game ``seed``."""
    return Rng(mix32((seed + GOLDEN * hand) & M32))


def ai_rng(seed: int) -> Rng:
    """The stream random players draw from, one per game, shared by both seats."""
    return Rng(mix32((seed ^ AI_SALT) & M32))


# (i, i + 1, limit) for i = 255 .. 1: a shuffle's steps from the top with uniform(i + 1)'s rejection limit
SHUFFLE_STEPS = tuple((i, i + 1, 256 - 256 % (i + 1)) for i in range(255, 0, -1))


def shuffle(items: list[int], rng: Rng) -> list[int]:
    """Fisher-Yates from the top: for i = n-1 .. 1 swap items[i] with items[uniform(i+1)].

    ``uniform`` inline, xorshift step and all: the deal of every hand draws 51 times.
    """
    out = list(items)
    if len(out) > 256:
        raise ValueError("shuffle() takes at most 256 items")
    x = rng.state
    for i, n, limit in SHUFFLE_STEPS[256 - len(out):]:
        while True:
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            r = x >> 24
            if r < limit:
                break
        j = r % n
        out[i], out[j] = out[j], out[i]
    rng.state = x
    return out
