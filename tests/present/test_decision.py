"""A decision is offered by the forms its phase declares, the same way at both faces."""

from __future__ import annotations

from torite.cards import card_str, parse_card
from torite.engine.base import Action
from torite.engine.phases import Bid, Card, Cards, Ladder, Phase, Word, suit_choice
from torite.engine.registry import make_game
from torite.present.decision import group, phase_of
from torite.server.viewjson import decision_json


def acts(*texts: str) -> list[Action]:
    return [Action.parse(t) for t in texts]


def test_a_bidding_box_shows_the_whole_ladder_with_the_legal_cells_and_the_calls_beside_it() -> None:
    phase = Phase("auction", (Bid("bid", Ladder((1, 2, 3))), Word("pass"), Word("double")))
    legal = acts("bid 2 S", "bid 2 NT", "bid 3 C", "pass", "double")
    d = group(phase, legal, [parse_card("AS"), parse_card("KH")])
    box = d.bids["bid"]
    assert box.levels == [1, 2, 3] and box.denoms == ["C", "D", "H", "S", "NT"]
    assert set(box.cells) == {(2, "S"), (2, "NT"), (3, "C")} and d.calls == legal[3:] and not d.others
    assert decision_json(d, make_game("umbridge"))["bids"]["bid"]["cells"]["2 NT"] == "bid 2 NT"


def test_cards_of_the_hand_cards_named_from_the_deck_sets_and_buttons() -> None:
    phase = Phase("x", (Card("play"), Card("call", from_="deck"), Cards("bury", (2,)), suit_choice("trump")))
    hand = [parse_card("AS"), parse_card("KH"), parse_card("2C")]
    d = group(phase, acts("play AS", "call QS", "bury AS KH", "trump S"), hand)
    assert [card_str(c) for c in d.playable] == ["AS"]
    assert d.named["call"] and d.sources["call"] == "deck"
    assert d.multis["bury"].count == 2 and d.others == acts("trump S")


def test_a_card_two_forms_of_the_hand_could_play_becomes_buttons() -> None:
    phase = Phase("x", (Card("play"), Card("lead")))
    d = group(phase, acts("play AS", "lead AS", "play 2C"), [parse_card("AS"), parse_card("2C")])
    assert [card_str(c) for c in d.playable] == ["2C"] and len(d.others) == 2


def test_galapagos_play_off_sets_are_chosen_like_cards_and_mighty_bids_by_their_ladder() -> None:
    game = make_game("glapgos")
    phase = phase_of(game.phases(), "playoff")
    d = group(phase, acts("play AS AH", "play 2C", "pass"), [parse_card("AS"), parse_card("AH"), parse_card("2C")])
    assert d.multis["play"].count == 2 and set(d.multis["play"].combos) >= {Action.parse("play AS AH").cards}
    mighty = make_game("mighty")
    d = group(phase_of(mighty.phases(), "bid"), acts("bid 14 H", "pass"), [])
    assert d.bids["bid"].levels == list(range(13, 21)) and d.calls == acts("pass")
