"""Claiming the rest of the tricks in Umbridge (ruling U19, option ``claims``).

The player on lead may ``claim`` every remaining trick once at most :data:`CLAIM_TRICKS` tricks
are left; the other player answers ``accept`` (the tricks are the claimer's and the play ends)
or ``refuse`` (play goes on from the same position, and the claimer may not claim again until
the next trick).  Why only on lead and only near the end: a claim on lead is a claim that the
claimer wins every trick from here, so it leads every one of them and the dummy's controller
stays the same (``dummy_by``); and with at most four tricks left a player can judge it exactly
from their own view -- which is what the bot does (:func:`claim_holds`).

The judgement is double dummy within each deal: a claim holds in a deal when the claimer has a
line that wins every remaining trick against every defence with all cards seen.  The bot
accepts only when that is so in every deal consistent with what it knows (its hand, the
dummy, the cards played, its own discards, the claimer's known voids): every set of cards the
claimer might hold among the cards it has not seen.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any, Final

from torite.cards import SUIT_MASKS, SUITS, iter_bits, mask_of_texts
from torite.engine.base import Action, IllegalAction, Refusal
from torite.engine.kit.declarations import PLAY

from .deal import DUMMY, DUMMY_STEP, follow, trick_order

CLAIM: Final = Action("claim")
ACCEPT: Final = Action("accept")
REFUSE: Final = Action("refuse")
#: the phase in which the claimer's opponent answers a claim
CLAIM_PHASE: Final = "claim"
#: a claim may be made when at most this many tricks are left (so that it can be judged exactly)
CLAIM_TRICKS: Final = 4
DECK: Final = (1 << 52) - 1


def _beats(card: int, other: int, led: int, trump: int) -> bool:
    """Whether ``card`` beats ``other`` in a trick led in ``led`` (``other`` may be -1: none)."""
    if other < 0:
        return True
    cs, os_ = card // 13, other // 13
    if cs == os_:
        return card > other
    if os_ == trump:
        return False
    if cs == trump:
        return True
    return os_ != led


def wins_all(claimer: int, defender: int, dummy: int, claimer_controls: bool, dummy_second: bool,
             trump: int, memo: dict[tuple[int, int, int], bool] | None = None) -> bool:
    """Whether the claimer, leading every trick, can win every trick left against every defence
    (all cards seen).  ``claimer_controls``: the claimer plays the dummy's cards (else the
    defender does); ``dummy_second``: the dummy plays right after the leader (else last)."""
    if not claimer:
        return True
    if memo is None:
        memo = {}
    key = (claimer, defender, dummy)
    found = memo.get(key)
    if found is not None:
        return found

    def won(lead: int, x: int, y: int) -> bool:
        """The claimer wins with its lead ``lead`` or, controlling it, the dummy's ``x``."""
        led = lead // 13
        best = lead if _beats(lead, x, led, trump) else x
        if not _beats(best, y, led, trump):
            return False
        return best == lead or claimer_controls

    def rest(lead: int, x: int, y: int) -> bool:
        return wins_all(claimer & ~(1 << lead), defender & ~(1 << y), dummy & ~(1 << x),
                        claimer_controls, dummy_second, trump, memo)

    result = False
    for lead in iter_bits(claimer):
        led = lead // 13
        xs, ys = list(iter_bits(follow(dummy, led))), list(iter_bits(follow(defender, led)))
        if not claimer_controls:
            ok = all(won(lead, x, y) and rest(lead, x, y) for x in xs for y in ys)
        elif dummy_second:  # the claimer picks the dummy's card, then the defender answers
            ok = any(all(won(lead, x, y) and rest(lead, x, y) for y in ys) for x in xs)
        else:  # the defender plays, then the claimer picks the dummy's card
            ok = all(any(won(lead, x, y) and rest(lead, x, y) for x in xs) for y in ys)
        if ok:
            result = True
            break
    memo[key] = result
    return result


def claim_holds(obs: Mapping[str, Any], seat: int) -> bool:
    """Whether the claim of ``seat``'s opponent (``obs["claimer"]``) wins every remaining trick in
    every deal consistent with ``seat``'s observation ``obs`` (see the module's note)."""
    claimer = obs["claim"][0]
    hand = mask_of_texts(obs["hand"])
    dummy = mask_of_texts(obs["dummy"] or [])
    played = 0
    for t in obs["tricks"]:
        played |= mask_of_texts(t["cards"])
    unseen = DECK & ~hand & ~dummy & ~played & ~mask_of_texts(obs["discarded"])
    for s in obs["voids"][claimer]:
        unseen &= ~SUIT_MASKS[SUITS.index(s)]
    trump = SUITS.index(obs["trump"]) if obs["trump"] else -1
    controls = obs["dummy_by"] == claimer
    dummy_second = trick_order(claimer, obs["dealer"])[1] == DUMMY_STEP
    k = hand.bit_count()
    memo: dict[tuple[int, int, int], bool] = {}
    for cards in combinations(list(iter_bits(unseen)), k):
        m = 0
        for c in cards:
            m |= 1 << c
        if not wins_all(m, hand, dummy, controls, dummy_second, trump, memo):
            return False
    return True


__all__ = ["ACCEPT", "CLAIM", "CLAIM_PHASE", "CLAIM_TRICKS", "REFUSE", "claim_holds", "wins_all"]


# --------------------------------------------------------------- the rule, on the state
def claim_refusal(state: Any, seat: int, action: Action) -> Refusal | None:
    """Why ``seat`` may not ``claim`` now (None: it may): claims are an option, made on lead
    with at most :data:`CLAIM_TRICKS` tricks left, once a trick."""
    if not state.claims:
        return Refusal("claims_off")
    if action.cards or action.arg:
        return Refusal("claim_alone")
    if state.phase not in (PLAY, DUMMY) or seat != state.turn:
        return Refusal("not_your_turn")
    if state.trick:
        return Refusal("claim_on_lead")
    if state.hands[seat].bit_count() > CLAIM_TRICKS:
        return Refusal("claim_too_early", {"tricks": CLAIM_TRICKS})
    if state.claim[1] == len(state.history):
        return Refusal("claim_once_a_trick")
    return None


def make_claim(state: Any, seat: int, action: Action) -> None:
    """``seat`` claims the rest: its opponent answers (phase ``claim``); a claim that may not be
    made raises :class:`IllegalAction` and changes nothing."""
    why = claim_refusal(state, seat, action)
    if why is not None:
        raise IllegalAction(f"seat {seat} may not claim now ({why.rule}"
                            + "".join(f", {k} {v}" for k, v in why.data.items()) + ")", why)
    state.claim = [seat, state.claim[1]]
    state.phase = CLAIM_PHASE
    state.turn = 1 - seat
    state.emit("claim", seat, {"tricks": state.hands[seat].bit_count()})


def answer_claim(state: Any, seat: int, action: Action) -> None:
    """Accepted, every trick left is the claimer's and the deal is scored; refused, the claimer
    plays on from the same position and may not claim again in this trick."""
    claimer = state.claim[0]
    left = state.hands[claimer].bit_count()
    if action.kind == "accept":
        won = state.tricks_won
        won[claimer] = won[claimer] + left
        state.claim = [-1, -1]
        state.emit("claim_accepted", seat, {"claimer": claimer, "tricks": left})
        state.end_round()
        return
    state.claim = [-1, len(state.history)]
    state.emit("claim_refused", seat, {"claimer": claimer})
    state.phase = PLAY
    state.turn = claimer


__all__ = ["ACCEPT", "CLAIM", "CLAIM_PHASE", "CLAIM_TRICKS", "REFUSE", "answer_claim", "claim_holds", "claim_refusal",
           "make_claim", "wins_all"]
