"""The generator's draws the hot path makes (a shuffle, a sample), the same draws as
``random.Random``'s own methods but faster: a record replays only if every shuffle of a deal
draws exactly as ``random.shuffle`` did when it was made, and the search bots sample hidden hands
thousands of times a decision.

Each is written twice where the builds differ: interpreted, the fastest form calls the generator
once a card; compiled, one call for the whole deal (:data:`COMPILED`).  Both are checked against
``random`` at import and by the tests.
"""

from __future__ import annotations

import importlib.machinery
import math
import random
from collections.abc import Callable
from typing import Final

#: whether this runs compiled (mypyc builds ``torite.build.COMPILED`` together): the few hot
#: loops whose fastest interpreted form is a C builtin over a bound method (``sum(map(...))``,
#: slow when compiled) read it to take the loop compiled code runs fastest
COMPILED: Final = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def _shuffle_by_calls(rng: random.Random, deck: list[int]) -> None:
    """``rng.shuffle(deck)`` with the very same draws (CPython's ``shuffle`` and its
    ``_randbelow`` written out), without two Python calls per card: a deal is on the hot path.
    Interpreted, this is the fastest form; compiled, :func:`_shuffle_by_words` is."""
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def _shuffle_by_words(rng: random.Random, deck: list[int]) -> None:
    """``rng.shuffle(deck)`` with the very same draws, in one call to the generator instead of
    one a card (compiled, a call costs more than the rest of a card's work).

    Why it is the same: ``getrandbits(k)`` (k ≤ 32) is the top k bits of the generator's next
    32-bit word, and ``getrandbits(32 * m)`` is its next m words, the first lowest.  Every
    position of the shuffle takes at least one word, so those are drawn at once; a word the
    rejection loop refuses is followed by the next word, as in the original, and once the batch
    is spent each further word is drawn alone.  ``same_as_random_shuffle`` compares it with
    ``random.shuffle`` at import."""
    count = len(deck) - 1
    if count < 1:
        return
    data = rng.getrandbits(32 * count).to_bytes(4 * count, "little")
    used = 0
    for i in range(count, 0, -1):
        n = i + 1
        k = n.bit_length()
        while True:
            if used >= count:
                j = rng.getrandbits(k)
            elif k <= 8:
                j = data[4 * used + 3] >> (8 - k)  # the top bits of the word's last (high) byte
            else:
                j = int.from_bytes(data[4 * used:4 * used + 4], "little") >> (32 - k)
            used += 1
            if j < n:
                break
        deck[i], deck[j] = deck[j], deck[i]


def same_as_random_shuffle(fn: Callable[[random.Random, list[int]], None]) -> bool:
    """Whether ``fn`` shuffles exactly as this Python's ``random.shuffle`` does: the same
    permutations from the same generator, which draws no more and no less."""
    for seed in range(4):
        for size in (2, 9, 54, 300):
            a, b = list(range(size)), list(range(size))
            ra, rb = random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            fn(rb, b)
            if a != b or ra.getrandbits(32) != rb.getrandbits(32):
                return False
    return True


_SAME_SHUFFLE: Final = same_as_random_shuffle(_shuffle_by_words if COMPILED else _shuffle_by_calls)


def _sample_by_calls(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``rng.sample(population, k)`` with the very same draws (CPython's ``sample`` for a list,
    its ``_randbelow`` written out): no Python-level call a draw besides the generator's."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    getrandbits = rng.getrandbits
    result = [0] * k
    setsize = 21  # CPython's choice between its two methods, to the bit
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            m = n - i
            b = m.bit_length()
            j = getrandbits(b)
            while j >= m:
                j = getrandbits(b)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        b = n.bit_length()
        for i in range(k):
            j = getrandbits(b)
            while j >= n or j in selected:
                j = getrandbits(b)
            selected.add(j)
            result[i] = population[j]
    return result


def same_as_random_sample(fn: Callable[[random.Random, list[int], int], list[int]]) -> bool:
    """Whether ``fn`` samples exactly as this Python's ``random.sample`` does a list: the same
    cards in the same order, the generator left where it leaves it (both of its methods: a small
    population copied and drawn from, a large one drawn from by index and a set)."""
    for seed in range(4):
        for size, k in ((1, 1), (13, 0), (13, 5), (13, 13), (26, 6), (54, 3), (54, 13), (300, 40)):
            population = list(range(100, 100 + size))
            ra, rb = random.Random(seed), random.Random(seed)
            if ra.sample(population, k) != fn(rb, population, k) or ra.getrandbits(32) != rb.getrandbits(32):
                return False
    return True


_SAME_SAMPLE: Final = same_as_random_sample(_sample_by_calls)


def sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``k`` distinct cards of ``population`` as ``rng.sample`` draws them (the same cards from
    the same state), faster: a sampled deal of hidden cards under voids draws from here, many
    times a search decision."""
    if _SAME_SAMPLE and type(rng) is random.Random:
        return _sample_by_calls(rng, population, k)
    return rng.sample(population, k)


def shuffle(rng: random.Random, deck: list[int]) -> None:
    """Shuffle ``deck`` as ``rng.shuffle`` does (the same permutation from the same state),
    faster: for a game that shuffles a pile on the hot path."""
    if _SAME_SHUFFLE and type(rng) is random.Random:
        if COMPILED:
            _shuffle_by_words(rng, deck)
        else:
            _shuffle_by_calls(rng, deck)
    else:
        rng.shuffle(deck)
