"""The table's words for Umbridge: the contract, the bridge as a count, the dummy face down then
its cards, the score sheet; each seat is told its own secrets only."""

from __future__ import annotations

from torite.games.umbridge.rules import Umbridge, UmbridgeState
from torite.present import labels
from torite.present.labels import load as labels_of

from .helpers import act, keep_both, start, suits_deal
from .test_rules import worked_trick_deal


def rows(state: UmbridgeState, viewer: int | None, lang: str = "en") -> dict[str, str]:
    return dict(labels.status(Umbridge, state.observation(viewer), lang))


def test_the_dummy_is_shown_face_down_then_by_its_cards_and_who_plays_it() -> None:
    state = start([worked_trick_deal()], dealer=0)
    keep_both(state)
    shown = rows(state, None)
    assert shown["dummy"] == "face down (13 cards)" and shown["bridge"] == "13 cards face down"
    act(state, (0, "pass"), (1, "bid 2 S"), (0, "pass"), (1, "done"), (0, "done"))
    shown = rows(state, None)
    assert shown["contract"] == "2♠ by seat 1" and shown["dummy played by"] == "seat 1"
    assert shown["dummy"].split()[:3] == ["♣K", "♦A", "♥2"]  # face up, in order
    assert rows(state, 0, "ja")["ダミー"] == shown["dummy"]


def test_a_seat_is_told_its_own_umbrage_discards_and_given_up_hand_only() -> None:
    state = start([suits_deal("S", "H", "D", "C")], dealer=0)
    act(state, (0, "umbrage"))
    assert rows(state, 0)["your choice"] == "you take umbrage" and "your choice" not in rows(state, 1)
    act(state, (1, "keep"), (0, "bid 1 C"), (1, "pass"), (0, "discard 2C"), (0, "done"))
    assert rows(state, 0)["your discards"] == "♣2" and "your discards" not in rows(state, 1)
    assert rows(state, 0)["you gave up"].startswith("♠2 ♠3") and "you gave up" not in rows(state, None)
    assert rows(state, 1)["cards drawn"] == "seat 0: 1; seat 1: 0"


def test_the_score_sheet_rows() -> None:
    state = start([suits_deal("S", "H", "D", "C")], dealer=0)
    shown = rows(state, None)
    assert shown["vulnerable"] == "nobody" and shown["above the line"] == "0 / 0"
    assert shown["below the line"] == "0 / 0 (this game)" and shown["games"] == "0 / 0"
    chicago = start([suits_deal("S", "H", "D", "C")], {"scoring": "chicago"})
    assert rows(chicago, 0)["deal"] == "1 of 4" and "games" not in rows(chicago, 0)


def test_events_are_told_in_words() -> None:
    state = start([worked_trick_deal()], dealer=0)
    keep_both(state)
    act(state, (0, "pass"), (1, "bid 2 S"), (0, "pass"), (1, "done"), (0, "done"), (0, "play KH"), (1, "play 3H"))
    lab = labels_of(Umbridge, "en")
    lines = [lab.event_text(e) for e in state.events if e.visible_to(None)]
    assert "seat 1 bids 2♠" in lines and "seat 1 plays the ♥3 from the dummy" in lines
    assert "nobody took umbrage" in lines and any(x.startswith("the dummy is turned face up") for x in lines)


def test_a_refused_dummy_card_says_the_dummy_holds_the_suit_led() -> None:
    """The dummy's card is chosen by a player who may hold no card of the suit led: the reason
    names the dummy as the holder, in every language (not "you hold")."""
    import random

    from torite.engine import make_game
    from torite.present.view import view, words
    game = make_game("umbridge", {"deals": 1})
    rng = random.Random(1)
    seen = 0
    for seed in range(6):
        st = game.new_state(seed)
        while not st.is_over() and seen < 40:
            seat = st.to_act()[0]
            v = view(st, seat)
            if v.phase == "dummy":
                for why in v.refused_cards.values():
                    assert why.rule == "dummy_follow" and why.data == {"suit": v.trick.led}
                    seen += 1
                if v.refused_cards:
                    said = {lang: words(v, lang).labels.text(next(iter(words(v, lang).refused_cards.values())))
                            for lang in ("en", "ja", "ko")}
                    assert "dummy holds" in said["en"] and "ダミー" in said["ja"] and "더미" in said["ko"], said
            st.apply(seat, rng.choice(st.legal_actions(seat)))
    assert seen
