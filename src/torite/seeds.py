"""Seeds derived from a run's seed and a unit's coordinates.

Shared by the simulator, the arena and the terminal so that each derives its games' and bots'
seeds the same way, and none has to import another just for this.

Why arithmetic (issue 37): a seed used to be drawn from a Mersenne Twister seeded by the parts
joined into a string (``random.Random("7:bot:2")``), which hashes the string with SHA-512 and
fills a 2.5 kB state: five of those a simulated round were 15 % of ``torite simulate``.  Now
the parts are folded through splitmix64 (Steele, Lea & Flood 2014, the seeding function of
``java.util.SplittableRandom`` and xoshiro): a few integer operations a part, and as well
spread for seeding (every output bit depends on every input bit).  A text part (``"bot"``) is a
label: its 64-bit FNV-1a hash of the UTF-8 bytes, computed once and kept.  The seeds differ
from those before (``docs/research.md``, "Seeds"); records store their actions, so every old
record still replays.
"""

from __future__ import annotations

from typing import Final

MASK64: Final = (1 << 64) - 1
#: splitmix64's increment (the golden ratio's fraction, 2^64 / φ)
GAMMA: Final = 0x9E3779B97F4A7C15
#: where every derivation starts (the first 64 bits of π's fraction: any fixed odd number)
_START: Final = 0x243F6A8885A308D3
#: folded in after a negative integer part, so that -1 and 2^64 - 1 derive different seeds
_NEGATIVE: Final = 0x13198A2E03707344

_LABELS: Final[dict[str, int]] = {}


def splitmix64(x: int) -> int:
    """splitmix64's output function of ``x`` (taken mod 2^64): a bijection of 64-bit integers."""
    z = (x + GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def label(text: str) -> int:
    """A text part's number: the 64-bit FNV-1a hash of its UTF-8 bytes (made once a text)."""
    found = _LABELS.get(text)
    if found is None:
        h = 0xCBF29CE484222325
        for b in text.encode("utf-8"):
            h = ((h ^ b) * 0x100000001B3) & MASK64
        found = _LABELS[text] = h
    return found


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from a tuple of integers and labels, the same in every process, Python run
    and build: each part is folded in by ``h = splitmix64(h ^ part)`` (an integer of more than
    64 bits a 64-bit word at a time, lowest first)."""
    h = _START
    for part in parts:
        if isinstance(part, str):
            h = splitmix64(h ^ label(part))
            continue
        v = part
        h = splitmix64(h ^ (v & MASK64))
        v >>= 64
        while v != 0 and v != -1:
            h = splitmix64(h ^ (v & MASK64))
            v >>= 64
        if v == -1:
            h = splitmix64(h ^ _NEGATIVE)
    return h >> 1
