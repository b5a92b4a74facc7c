"""Mighty's scoring (rules page §9, rulings A5, A6, M2, M3): what a deal pays, apart from the
play, so the rules, the bot and the round summary share one formula."""

from __future__ import annotations

from typing import Final

MIN_BID: Final = 13  # M of the scoring formula


def base_amount(contract: int, party: int, formula: str = "pagat") -> int:
    """S before the multipliers (§9): made ``2·(B−M) + (P−B)`` (or the option's formula), failed
    ``B − P``.  M is 13, or the contract itself for a contract of 12 (ruling M2)."""
    m = min(MIN_BID, contract)
    if party < contract:
        return contract - party
    if formula == "P-10":
        return party - 10
    if formula == "P-M":
        return party - m
    if formula == "P-M+1":
        return party - m + 1
    return 2 * (contract - m) + (party - contract)


def multipliers(contract: int, party: int, no_trump: bool, no_friend: bool) -> list[str]:
    """The doublings that apply (§9): no-trump, no friend declared, run, back run."""
    made = party >= contract
    out = []
    if no_trump:
        out.append("no_trump")
    if no_friend:
        out.append("no_friend")
    if made and party == 20:
        out.append("run")
    if not made and party <= 9:
        out.append("back_run")
    return out


def payments(n: int, president: int, friend: int, amount: int, made: bool, lone_share: int = 4) -> list[int]:
    """Each seat's score for a deal (§9, A5, A6): with a friend ±2S, ±S and ∓S for each of
    the three others; alone ±``lone_share``·S and ∓S for each of the four others."""
    sign = 1 if made else -1
    out = [-sign * amount] * n
    if friend >= 0 and friend != president:
        out[president] = 2 * sign * amount
        out[friend] = sign * amount
    else:
        out[president] = lone_share * sign * amount
    return out
