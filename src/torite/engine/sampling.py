"""Dealing hidden cards into hidden places under constraints, for ``determinize``.

A seat that failed to follow a suit holds no hidden card of it; every other constraint is a
place's size.  The fast path deals each constrained place from the cards it may hold, the
unconstrained places taking the rest, and restarts on a dead end.  If that keeps failing (the
voids are tight), an exact method places one card at a time and keeps only choices after which
the rest can still be placed, checked by Hall's condition over the groups of cards that share
the same forbidden places.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from torite.cards import iter_bits, mask_of
from torite.engine.draws import sample, shuffle


@mypyc_attr(native_class=False)  # compiled: an exception class stays a Python class
class SamplingError(RuntimeError):
    """No assignment satisfies the constraints (the knowledge given was inconsistent)."""


def deal_constrained(pool: int, sizes: Sequence[int], forbidden: Sequence[int],
                     rng: random.Random, *, tries: int = 20) -> list[int]:
    """Split the cards of ``pool`` into places of ``sizes``; place ``i`` takes no card of
    ``forbidden[i]`` (a card mask).  Returns one mask per place."""
    n = len(sizes)
    total = pool.bit_count()
    if total != sum(sizes):
        raise SamplingError(f"{total} hidden cards for {sum(sizes)} hidden places")
    constrained = [p for p in range(n) if forbidden[p] & pool and sizes[p]]
    if not constrained:
        cards = list(iter_bits(pool))
        shuffle(rng, cards)
        out, i = [], 0
        for size in sizes:
            out.append(mask_of(cards[i:i + size]))
            i += size
        return out
    free = [p for p in range(n) if p not in constrained]
    for _ in range(tries):
        rest = pool
        out = [0] * n
        ok = True
        for p in sorted(constrained, key=lambda q: (pool & ~forbidden[q]).bit_count()):
            allowed = list(iter_bits(rest & ~forbidden[p]))
            if len(allowed) < sizes[p]:
                ok = False
                break
            out[p] = mask_of(sample(rng, allowed, sizes[p]))
            rest &= ~out[p]
        if not ok:
            continue
        cards = list(iter_bits(rest))
        shuffle(rng, cards)
        i = 0
        for p in free:
            out[p] = mask_of(cards[i:i + sizes[p]])
            i += sizes[p]
        return out
    return _deal_exact(pool, sizes, forbidden, rng)


def _deal_exact(pool: int, sizes: Sequence[int], forbidden: Sequence[int],
                rng: random.Random) -> list[int]:
    n = len(sizes)
    cards = list(iter_bits(pool))
    rng.shuffle(cards)
    sig_of = {c: sum(1 << p for p in range(n) if forbidden[p] >> c & 1) for c in cards}
    sigs = sorted(set(sig_of.values()))
    count = {s: 0 for s in sigs}
    for c in cards:
        count[sig_of[c]] += 1
    allowed_places = {s: [p for p in range(n) if not s >> p & 1] for s in sigs}
    room = list(sizes)
    subsets = [[s for i, s in enumerate(sigs) if k >> i & 1] for k in range(1, 1 << len(sigs))]

    def feasible() -> bool:
        for sub in subsets:
            need = sum(count[s] for s in sub)
            if not need:
                continue
            places = set()
            for s in sub:
                places.update(allowed_places[s])
            if need > sum(room[p] for p in places):
                return False
        return True

    if not feasible():
        raise SamplingError("no placement of the hidden cards fits the voids shown")
    out = [0] * n
    for c in cards:
        s = sig_of[c]
        count[s] -= 1
        options = []
        for p in allowed_places[s]:
            if room[p]:
                room[p] -= 1
                if feasible():
                    options.append(p)
                room[p] += 1
        weights = [room[p] for p in options]
        p = rng.choices(options, weights)[0]
        room[p] -= 1
        out[p] |= 1 << c
    return out
