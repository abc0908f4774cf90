"""The game's own random number generator.

A tiny, fast, portable generator (xorshift64*) whose whole state is one integer. That makes a game
copy cheap (no Mersenne Twister state to clone), makes the state trivially serialisable, and gives
the same sequence on every platform and Python version: same seed and same actions, same game.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
_MUL = 0x2545F4914F6CDD1D


def seed_state(seed: int) -> int:
    """Turn any integer seed into a non-zero generator state (splitmix64 finaliser)."""
    z = (seed + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return z or 0x9E3779B97F4A7C15


def next_state(x: int) -> int:
    """Advance the xorshift64 state by one step."""
    x ^= x >> 12
    x ^= (x << 25) & MASK64
    x ^= x >> 27
    return x


def below(state: int, n: int) -> tuple[int, int]:
    """Return ``(new_state, r)`` with ``r`` uniform-enough in ``range(n)`` for ``n >= 1``.

    The 64-bit output is reduced by multiply-shift; the bias is below 2**-56 for the tiny ranges
    a card game needs.
    """
    state = next_state(state)
    return state, ((((state * _MUL) & MASK64) >> 32) * n) >> 32


def shuffled(state: int, items: list) -> int:
    """Shuffle ``items`` in place (Fisher-Yates); return the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
