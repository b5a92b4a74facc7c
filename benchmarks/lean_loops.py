"""Lean plain-Python bitmask loops of random play: the yardsticks for torite's protocol speed.

Each function plays one round of a game with uniform random decisions, in the leanest Python a
careful programmer would write for that one game: hands as int bitmasks, no objects, no events,
no observations, no checks.  They play the same rules as torite (so the same number of decisions
per round) and return ``(decisions, points)``; ``bench_hearts.py`` times them beside torite's
protocol loop and pyspiel.  Cards are torite's: ``suit * 13 + rank - 2``, jokers 52 and 53.

- :func:`hearts_round`: OpenSpiel's Hearts with its defaults (pass direction by chance, three
  cards passed per seat, 2♣ leads, no points on the first trick, hearts broken by a heart or
  Q♠, the moon).
- :func:`trick_of_the_dead_round`: Trick of the Dead with its defaults (three players, 16 cards
  each, two buried, the graveyard shuffled, jokers trump and call, zombies rising on a repeated
  rank, clubs -2, diamonds by rank, hearts 1, +2 per surviving heart).
"""

from __future__ import annotations

import random

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SUIT = tuple((1 << 13) - 1 << 13 * s for s in range(4))
HEARTS_MASK = SUIT[HEARTS]
QS = 3 * 13 + 10
POINTS_MASK = HEARTS_MASK | 1 << QS
JOKERS = 3 << 52


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _pick(mask: int, rng: random.Random) -> int:
    """A uniform random card of ``mask``."""
    cards = _bits(mask)
    return cards[rng.randrange(len(cards))]


def hearts_round(rng: random.Random) -> tuple[int, list[int]]:
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(deck):
        hands[i & 3] |= 1 << c
    offset = rng.randrange(4)
    decisions = 0
    if offset:
        passed = [0, 0, 0, 0]
        for s in range(4):
            for _ in range(3):
                c = _pick(hands[s] & ~passed[s], rng)
                passed[s] |= 1 << c
                decisions += 1
        for s in range(4):
            hands[s] &= ~passed[s]
        for s in range(4):
            hands[(s + offset) & 3] |= passed[s]
    turn = next(s for s in range(4) if hands[s] & 1)
    points = [0, 0, 0, 0]
    played = 0
    for trick_no in range(13):
        leader = turn
        led = -1
        best, best_seat, trick = -1, leader, 0
        for k in range(4):
            hand = hands[turn]
            if k == 0:
                if trick_no == 0:
                    allowed = 1
                elif not played & POINTS_MASK and hand & ~HEARTS_MASK:
                    allowed = hand & ~HEARTS_MASK
                else:
                    allowed = hand
            else:
                allowed = hand & SUIT[led]
                if not allowed:
                    allowed = hand
                    if trick_no == 0 and hand & ~POINTS_MASK:
                        allowed = hand & ~POINTS_MASK
            c = _pick(allowed, rng)
            decisions += 1
            hands[turn] &= ~(1 << c)
            if k == 0:
                led = c // 13
            if c // 13 == led and c > best:
                best, best_seat = c, turn
            trick |= 1 << c
            turn = (turn + 1) & 3
        played |= trick
        points[best_seat] += (trick & HEARTS_MASK).bit_count() + 13 * (trick >> QS & 1)
        turn = best_seat
    if 26 in points:
        shooter = points.index(26)
        points = [0 if s == shooter else 26 for s in range(4)]
    return decisions, points


_TOTD_POINTS = tuple(-2 if c < 13 else c % 13 + 2 if c < 26 else 1 if c < 39 else 0 for c in range(54))


def _totd_winner(trick: list[int], led: int, trump: int) -> int:
    if trump < 0:
        for i, c in enumerate(trick):
            if c >= 52:
                return i
    else:
        best, best_val = -1, -1
        for i, c in enumerate(trick):
            if c >= 52:
                val = 12
            elif c // 13 == trump:
                val = c % 13
            else:
                continue
            if val > best_val:
                best, best_val = i, val
        if best >= 0:
            return best
    best, best_rank = 0, -1
    for i, c in enumerate(trick):
        if c < 52 and c // 13 == led and c % 13 > best_rank:
            best, best_rank = i, c % 13
    return best


def trick_of_the_dead_round(rng: random.Random) -> tuple[int, list[int]]:
    n = 3
    deck = list(range(54))
    rng.shuffle(deck)
    hands = [0] * n
    for s in range(n):
        for c in deck[16 * s:16 * s + 16]:
            hands[s] |= 1 << c
    grave = deck[48:]
    decisions = 0
    for s in range(n):  # bury two cards (one decision)
        a = _pick(hands[s], rng)
        b = _pick(hands[s] & ~(1 << a), rng)
        hands[s] &= ~(1 << a | 1 << b)
        grave += [a, b]
        decisions += 1
    rng.shuffle(grave)
    zombies = [0] * n
    points = [0] * n
    trump = trump_now = -1
    jokers = 0
    turn = rng.randrange(n)
    while all(hands):
        trick: list[int] = []
        seats: list[int] = []
        zombie: list[bool] = []
        led = -1
        for k in range(n):
            hand = hands[turn]
            allowed = hand
            if k and led >= 0 and hand & SUIT[led]:
                allowed = hand & SUIT[led] | hand & JOKERS
            c = _pick(allowed, rng)
            decisions += 1
            hands[turn] &= ~(1 << c)
            if k == 0:
                led = c // 13 if c < 52 else -1
            trick.append(c)
            seats.append(turn)
            zombie.append(bool(zombies[turn] >> c & 1))
            zombies[turn] &= ~(1 << c)
            if c >= 52:
                jokers += 1
                if jokers == 1:
                    trump = rng.randrange(4)
                    decisions += 1
                if k == 0:
                    led = rng.randrange(4)
                    decisions += 1
            turn = (turn + 1) % n
        win = _totd_winner(trick, led, trump_now)
        winner = seats[win]
        if zombie[win]:
            total = sum(_TOTD_POINTS[c] * (2 if 13 <= c < 26 else 1) for c in trick)
        else:
            total = sum(_TOTD_POINTS[c] for c in trick)
        if trick[win] >= 52:
            total += 5
        points[winner] += total
        ranks = [c % 13 for c in trick if c < 52]
        if len(set(ranks)) < len(ranks) and grave:
            risen = grave.pop()
            hands[winner] |= 1 << risen
            zombies[winner] |= 1 << risen
        trump_now = trump
        turn = winner
    for s in range(n):
        points[s] += 2 * (hands[s] & HEARTS_MASK).bit_count()
    return decisions, points


__all__ = ["hearts_round", "trick_of_the_dead_round"]
