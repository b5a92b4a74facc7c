"""Claiming the rest of the tricks (ruling U19, option ``claims``): the rule, its refusals, the
bot's exact judgement and what a claim reveals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.engine.base import Action, IllegalAction
from torite.engine.registry import make_game
from torite.games.umbridge.bot import UmbridgeBot
from torite.games.umbridge.claim import CLAIM, CLAIM_TRICKS, claim_holds, wins_all
from torite.games.umbridge.rules import UmbridgeState

from .helpers import act, quick_contract, start, suits_deal

CLAIMS = {"claims": True}
#: seat 0 holds the spades, seat 1 the hearts, the dummy the clubs, the bridge the diamonds
SUITS_DEAL = suits_deal("S", "H", "C", "D")


def mask(*texts: str) -> int:
    from torite.cards import mask_of_texts
    return mask_of_texts(list(texts))


def trumps_to_the_end(options: dict[str, Any] | None = None, left: int = CLAIM_TRICKS) -> UmbridgeState:
    """1♠ by seat 0: seat 1 leads a heart, seat 0 ruffs, then leads its spades (trumps) and wins
    every trick, until ``left`` tricks remain with seat 0 on lead."""
    state = start([SUITS_DEAL], {**CLAIMS, **(options or {})})
    quick_contract(state, 0, "1 S")
    while state.hands[0].bit_count() > left or state.trick:
        seat = state.to_act()[0]
        plays = [a for a in state.legal_actions(seat) if a.kind == "play"]
        state.apply(seat, plays[-1] if seat == 0 else plays[0])  # seat 0 plays its highest card
    assert state.phase == "play" and state.turn == 0 and not state.trick
    return state


def play_out_low(state: UmbridgeState) -> None:
    """Play the deal to its end: seat 0 its highest card, the rest their lowest; nobody claims."""
    rounds = len(state.round_scores)
    while len(state.round_scores) == rounds:
        seat = state.to_act()[0]
        plays = [a for a in state.legal_actions(seat) if a.kind == "play"]
        state.apply(seat, plays[-1] if seat == 0 and state.phase == "play" else plays[0])


def round_end(state: UmbridgeState) -> dict[str, Any]:
    return [e for e in state.events if e.kind == "round_end"][-1].data


def test_without_the_option_there_is_no_claim_and_the_schema_is_unchanged() -> None:
    game = make_game("umbridge")
    assert [p.name for p in game.phases()] == ["umbrage", "auction", "exchange", "play", "dummy"]
    assert "claim" not in str(game.schema()["phases"])
    state = start([SUITS_DEAL])
    quick_contract(state, 0, "1 S")
    while state.hands[0].bit_count() > 1 or state.trick:
        seat = state.to_act()[0]
        assert CLAIM not in state.legal_actions(seat)
        state.apply(seat, state.legal_actions(seat)[0])
    before = state.clone()
    seat = state.turn
    with pytest.raises(IllegalAction) as e:
        state.apply(seat, CLAIM)
    assert e.value.refusal is not None and e.value.refusal.rule == "claims_off"
    assert state.hands == before.hands and state.phase == before.phase and state.turn == before.turn


def test_with_the_option_the_schema_offers_claim_in_play_and_the_answer() -> None:
    phases = {p.name: [t.kind for t in p.actions] for p in make_game("umbridge", CLAIMS).phases()}
    assert phases["play"] == ["play", "claim"] and phases["claim"] == ["accept", "refuse"]


def test_a_claim_is_offered_only_on_lead_in_the_last_four_tricks() -> None:
    state = trumps_to_the_end(left=CLAIM_TRICKS + 1)
    assert CLAIM not in state.legal_actions(0)
    assert state.refusal(0, CLAIM).rule == "claim_too_early"  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="claim_too_early"):
        state.apply(0, CLAIM)
    state.apply(0, [a for a in state.legal_actions(0) if a.kind == "play"][-1])  # now mid-trick
    seat = state.to_act()[0]
    assert CLAIM not in state.legal_actions(seat)
    assert state.refusal(seat, CLAIM).rule == "claim_on_lead"  # type: ignore[union-attr]
    while state.trick:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.turn == 0 and state.hands[0].bit_count() == CLAIM_TRICKS
    assert CLAIM in state.legal_actions(0) and CLAIM not in state.legal_actions(1)
    assert state.refusal(1, CLAIM).rule == "not_your_turn"  # type: ignore[union-attr]
    with pytest.raises(IllegalAction):
        state.apply(1, CLAIM)
    assert state.phase == "play" and state.turn == 0


def test_an_accepted_claim_scores_exactly_as_playing_the_tricks_out() -> None:
    claimed, played = trumps_to_the_end(), trumps_to_the_end()
    act(claimed, (0, "claim"))
    assert claimed.phase == "claim" and claimed.to_act() == (1,) and claimed.claim[0] == 0
    assert [a.kind for a in claimed.legal_actions(1)] == ["accept", "refuse"]
    act(claimed, (1, "accept"))
    play_out_low(played)
    assert round_end(played)["tricks"] == 13  # playing out, seat 0 does win every trick
    assert claimed.round_scores == played.round_scores and claimed.scores == played.scores
    a, b = round_end(claimed), round_end(played)
    assert a["tricks"] == b["tricks"] == 13 and a["summary"] == b["summary"] and a["points"] == b["points"]
    assert claimed.below == played.below and claimed.games == played.games
    kinds = [e.kind for e in claimed.events]
    assert kinds.index("claim") < kinds.index("claim_accepted") < kinds.index("round_end")


def test_an_accepted_claim_of_the_defender_scores_its_tricks_as_undertricks() -> None:
    # 1NT by seat 0: seat 1 (the defender) leads hearts, which nobody else can follow: it wins all
    state = start([SUITS_DEAL], CLAIMS)
    quick_contract(state, 0, "1 NT")
    while state.hands[1].bit_count() > CLAIM_TRICKS or state.trick:
        seat = state.to_act()[0]
        state.apply(seat, next(a for a in state.legal_actions(seat) if a.kind == "play"))
    played = state.clone()
    act(state, (1, "claim"), (0, "accept"))
    play_out_low(played)
    assert round_end(state)["tricks"] == round_end(played)["tricks"] == 0  # the declarer's
    assert state.round_scores == played.round_scores and round_end(state)["undertricks"] > 0


def test_a_refused_claim_plays_on_and_the_claimer_may_claim_again_only_at_the_next_trick() -> None:
    state = trumps_to_the_end()
    hands, won = list(state.hands), list(state.tricks_won)
    act(state, (0, "claim"), (1, "refuse"))
    assert state.phase == "play" and state.turn == 0 and state.hands == hands and state.tricks_won == won
    assert state.claim[0] == -1 and CLAIM not in state.legal_actions(0)
    with pytest.raises(IllegalAction) as e:
        state.apply(0, CLAIM)
    assert e.value.refusal is not None and e.value.refusal.rule == "claim_once_a_trick"
    assert state.phase == "play" and state.turn == 0
    # the trick is played; at the next the claim is offered again
    while state.trick or state.hands[0].bit_count() == CLAIM_TRICKS:
        seat = state.to_act()[0]
        state.apply(seat, [a for a in state.legal_actions(seat) if a.kind == "play"][-1 if seat == 0 else 0])
    assert state.turn == 0 and CLAIM in state.legal_actions(0)
    act(state, (0, "claim"), (1, "accept"))
    assert state.round_scores and len(state.round_scores) == 1


def test_the_answer_is_refused_when_it_is_not_an_answer() -> None:
    state = trumps_to_the_end()
    act(state, (0, "claim"))
    for seat, action in ((0, "accept"), (1, "play 2H"), (1, "claim")):
        with pytest.raises(IllegalAction):
            state.apply(seat, Action.parse(action))
        assert state.phase == "claim" and state.claim[0] == 0


def test_a_claim_reveals_nothing() -> None:
    state = trumps_to_the_end()
    known = [state.known_cards(s) for s in (0, 1, None)]
    act(state, (0, "claim"))
    assert [state.known_cards(s) for s in (0, 1, None)] == known
    new = [e for e in state.events if e.kind.startswith("claim")]
    assert new and all("card" not in e.data and "cards" not in e.data for e in new)
    obs = state.observation(1)
    assert obs["claim"] == [0, -1] and obs["phase"] == "claim"
    act(state, (1, "refuse"))
    assert [state.known_cards(s) for s in (0, 1, None)] == known


def test_the_bot_accepts_a_true_claim() -> None:
    state = trumps_to_the_end()
    act(state, (0, "claim"))
    bot = UmbridgeBot(state.game, 1, random.Random(1))
    assert claim_holds(state.observation(1), 1)
    assert bot.act(state.observation(1), state.legal_actions(1)).kind == "accept"
    assert bot.reason is not None and bot.reason.key == "claim_holds"


def test_the_bot_refuses_a_claim_that_fails_in_a_deal_it_cannot_rule_out() -> None:
    state = trumps_to_the_end()
    # the defender holds a trump: the claimer might hold only diamonds, which it ruffs
    spade = next(c for c in range(39, 52) if state.hands[0] >> c & 1)
    heart = next(c for c in range(26, 39) if state.hands[1] >> c & 1)
    state.hands[0] = state.hands[0] & ~(1 << spade) | 1 << heart
    state.hands[1] = state.hands[1] & ~(1 << heart) | 1 << spade
    act(state, (0, "claim"))
    bot = UmbridgeBot(state.game, 1, random.Random(1))
    assert not claim_holds(state.observation(1), 1)
    assert bot.act(state.observation(1), state.legal_actions(1)).kind == "refuse"
    assert bot.reason is not None and bot.reason.key == "claim_fails"


def test_the_bot_never_claims() -> None:
    state = trumps_to_the_end()
    bot = UmbridgeBot(state.game, 0, random.Random(1))
    assert CLAIM in state.legal_actions(0)
    assert bot.act(state.observation(0), state.legal_actions(0)).kind == "play"


@pytest.mark.parametrize(("claimer", "defender", "dummy", "controls", "second", "trump", "holds"), [
    ("AS KS", "QS JS", "2C 3C", False, True, 3, True),        # top trumps
    ("AS 2D", "KS 3H", "2C 3C", False, True, 3, True),        # draw the trump first, then the 2D stands
    ("AS 2D", "KS 3D", "2C 3C", False, True, 3, False),       # the 3D beats the 2D after the trumps
    ("2D AS", "3H 4H", "KS 3D", False, True, 3, False),       # the defender plays the dummy's 3D
    ("AD KD", "QD 2C", "JD 3C", False, False, -1, True),      # no trump: top diamonds
    ("AD 2D", "QD 3C", "KD 3D", True, True, -1, True),        # the claimer controls the dummy's KD
    ("AD 2D", "QD 3D", "KD 4C", False, False, -1, False),     # the dummy's KD is the defender's
    ("AD 2D", "QD 3D", "KD 4C", True, False, -1, True),       # lead the 2D: the dummy's KD wins it
])
def test_the_judge_is_exact_on_small_positions(claimer: str, defender: str, dummy: str, controls: bool,
                                               second: bool, trump: int, holds: bool) -> None:
    assert wins_all(mask(*claimer.split()), mask(*defender.split()), mask(*dummy.split()), controls, second,
                    trump) is holds


@pytest.mark.parametrize("level", ["easy", "hard", "ismcts", "pimc"])
def test_no_bot_level_claims(level: str) -> None:
    from torite.bots.registry import make_bot
    state = trumps_to_the_end()
    for seed in range(30 if level == "easy" else 4):  # easy: a quarter of its choices are random
        bot = make_bot(level, state.game, 0, seed)
        if hasattr(bot, "iterations"):
            bot.iterations = 20
        assert bot.act(state.observation(0), state.legal_actions(0)).kind == "play"


def test_both_faces_show_the_claim_as_a_button_beside_the_hand_and_the_answer_as_two_buttons() -> None:
    from torite.cards import iter_bits
    from torite.present.decision import group, phase_of
    state = trumps_to_the_end()
    phases = state.game.phases()
    d = group(phase_of(phases, "play"), state.legal_actions(0), list(iter_bits(state.hands[0])))
    assert [a.kind for a in d.buttons] == ["claim"] and len(d.playable) == CLAIM_TRICKS
    act(state, (0, "claim"))
    d = group(phase_of(phases, "claim"), state.legal_actions(1), list(iter_bits(state.hands[1])))
    assert [a.kind for a in d.buttons] == ["accept", "refuse"] and not d.playable


def test_claims_are_off_for_research_and_on_at_a_table() -> None:
    from torite.engine.base import table_options
    from torite.games.umbridge.rules import Umbridge
    spec = next(s for s in Umbridge.OPTIONS if s.name == "claims")
    assert spec.default is False and spec.describe()["table"] is True
    assert table_options(Umbridge.OPTIONS) == {"claims": True}
    assert make_game("umbridge", table_options(Umbridge.OPTIONS)).options["claims"] is True
