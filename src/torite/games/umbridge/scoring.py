"""Contract-bridge scoring as Umbridge uses it (rules page §8): pure functions on numbers, so
the rules, the bot and the tests share one table of truth.

``doubled`` is 0 (undoubled), 1 (doubled) or 2 (redoubled) everywhere; ``denom`` one of
``DENOMS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

DENOMS: Final = ("C", "D", "H", "S", "NT")  # low to high; C D H S are also the suits 0..3
NT: Final = "NT"
GAME: Final = 100  # below-the-line points that make a game (§8.2)


def trick_points(level: int, denom: str, doubled: int = 0) -> int:
    """Below-the-line points of a contract bid and made (§8.1): per odd trick bid, minors 20,
    majors 30, no trump 40 for the first and 30 for each further one; ×2 doubled, ×4 redoubled."""
    per = 20 if denom in ("C", "D") else 30
    base = per * level + (10 if denom == NT else 0)
    return base * (1 << doubled)


def overtrick_points(over: int, denom: str, doubled: int, vulnerable: bool) -> int:
    """Above the line, to the declarer (§8.3): undoubled at trick value (minors 20, majors and
    no trump 30); doubled 100 / 200 vulnerable each; redoubled 200 / 400."""
    if doubled == 0:
        return over * (20 if denom in ("C", "D") else 30)
    return over * (100 if doubled == 1 else 200) * (2 if vulnerable else 1)


def undertrick_points(down: int, doubled: int, vulnerable: bool) -> int:
    """Above the line, to the defender (§8.6)."""
    if down <= 0:
        return 0
    if doubled == 0:
        return down * (100 if vulnerable else 50)
    # vulnerable 200, 500, 800, …; not vulnerable 100, 300, 500, then +300 each
    first = 200 if vulnerable else 100
    per = 300 if vulnerable else 200
    doubled_pts = first + per * min(down - 1, 2) + 300 * max(down - 3, 0)
    return doubled_pts * (2 if doubled == 2 else 1)


def insult_points(doubled: int) -> int:
    """Bonus for making a doubled (50) or redoubled (100) contract (§8.4)."""
    return (0, 50, 100)[doubled]


def slam_points(level: int, vulnerable: bool) -> int:
    """Small slam (level 6) 500 / 750 vulnerable; grand slam (level 7) 1000 / 1500 (§8.5)."""
    if level == 6:
        return 750 if vulnerable else 500
    if level == 7:
        return 1500 if vulnerable else 1000
    return 0


@dataclass(frozen=True)
class ContractScore:
    """What one played contract scores: below the line (declarer), above the line for each
    side."""

    made: bool
    below: int = 0
    overtricks: int = 0
    insult: int = 0
    slam: int = 0
    undertricks: int = 0  # to the defender

    @property
    def declarer_above(self) -> int:
        return self.overtricks + self.insult + self.slam

    @property
    def defender_above(self) -> int:
        return self.undertricks


def contract_score(level: int, denom: str, doubled: int, vulnerable: bool, tricks: int) -> ContractScore:
    """The score of a contract of ``level`` in ``denom`` when the declarer took ``tricks`` of 13
    (``vulnerable``: the declarer's vulnerability)."""
    if not 1 <= level <= 7 or denom not in DENOMS or doubled not in (0, 1, 2) or not 0 <= tricks <= 13:
        raise ValueError(f"no such contract result: {level} {denom}, doubled {doubled}, {tricks} tricks")
    need = 6 + level
    if tricks < need:
        return ContractScore(False, undertricks=undertrick_points(need - tricks, doubled, vulnerable))
    return ContractScore(True, below=trick_points(level, denom, doubled),
                         overtricks=overtrick_points(tricks - need, denom, doubled, vulnerable),
                         insult=insult_points(doubled), slam=slam_points(level, vulnerable))


def chicago_bonus(score: ContractScore, vulnerable: bool, part_score: int = 50) -> int:
    """Chicago (§8.8): a made game contract (100 or more below the line) 300 / 500 vulnerable,
    a made part-score 50 (``part_score``: the house rule's); nothing for a contract that went down."""
    if not score.made:
        return 0
    if score.below >= GAME:
        return 500 if vulnerable else 300
    return part_score


def chicago_vulnerable(deal: int, dealer: int, seats: int = 2) -> list[bool]:
    """Vulnerability on the ``deal``-th deal of a Chicago (0-based, §8.8): deal 1 nobody,
    deals 2 and 3 the dealer, deal 4 both."""
    pos = deal % 4
    if pos == 0:
        return [False] * seats
    if pos == 3:
        return [True] * seats
    return [s == dealer for s in range(seats)]


def honours_points(hand: int, trump: int) -> int:
    """Honours held in one hand (§8.8): with a trump suit, 4 of its A K Q J 10 score 100 and
    all 5 score 150; at no trump (``trump`` -1), all four aces score 150."""
    if trump < 0:
        aces = sum(hand >> (s * 13 + 12) & 1 for s in range(4))
        return 150 if aces == 4 else 0
    held = sum(hand >> (trump * 13 + r) & 1 for r in range(8, 13))  # 10 J Q K A
    return 150 if held == 5 else 100 if held == 4 else 0


def rubber_bonus(games: Sequence[int], two_nil: int = 700, two_one: int = 500) -> list[int]:
    """The rubber bonus (§8.7) to the player who won two games: 700 two games to none, 500 two
    to one (the house rules' ``two_nil`` and ``two_one``)."""
    out = [0] * len(games)
    for s, g in enumerate(games):
        if g >= 2:
            out[s] = two_nil if all(x == 0 for i, x in enumerate(games) if i != s) else two_one
    return out


def unfinished_bonus(games: Sequence[int], part_scores: Sequence[int]) -> list[int]:
    """An unfinished rubber (§8.7): 300 to a player with a game, 100 to a player with a
    part-score in the unfinished game."""
    return [(300 if g >= 1 else 0) + (100 if p > 0 else 0) for g, p in zip(games, part_scores)]


__all__ = ["DENOMS", "GAME", "NT", "ContractScore", "chicago_bonus", "chicago_vulnerable", "contract_score",
           "honours_points", "insult_points", "overtrick_points", "rubber_bonus", "slam_points", "trick_points",
           "undertrick_points", "unfinished_bonus"]


@cache
def best_payment(chicago: bool, honours: bool, rubber: int = 700, part_score: int = 50) -> int:
    """The most one Umbridge deal can pay one player, over every contract, doubling,
    vulnerability and result (what ``Umbridge.bounds`` declares), for a greatest rubber bonus
    ``rubber`` and a Chicago part-score bonus ``part_score`` (the house rules')."""
    declarer = defender = 0
    for level in range(1, 8):
        for denom in DENOMS:
            for doubled in (0, 1, 2):
                for vul in (False, True):
                    for tricks in range(14):
                        cs = contract_score(level, denom, doubled, vul, tricks)
                        end = chicago_bonus(cs, vul, part_score) if chicago else max(rubber, 300 + 100)
                        declarer = max(declarer, cs.below + cs.declarer_above + (end if cs.made else 0))
                        defender = max(defender, cs.defender_above + (0 if chicago else 300 + 100))
    return max(declarer, defender) + (150 if honours else 0)
