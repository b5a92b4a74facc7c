"""The table's words for the teams: each seat is told what it knows, and no more."""

from __future__ import annotations

from torite.games.good_cop.rules import GoodCop, GoodCopState
from torite.present import labels

from .helpers import play, start

HC = ("9H", "2C")


def rows(state: GoodCopState, viewer: int | None, lang: str = "en") -> dict[str, str]:
    return dict(labels.status(GoodCop, state.observation(viewer), lang))


def test_the_table_shows_trump_penalty_suit_and_turned_cards_to_everyone() -> None:
    state = start(("4D", "JD"), {})
    for viewer in (0, None):
        shown = rows(state, viewer)
        assert shown["trump"] == "♦ diamonds" and shown["penalty suit"] == "♦ diamonds (also trump)"
        assert shown["turned cards"] == "♦4 ♦J"
    assert rows(state, 0, "ja")["切り札"] == "♦ダイヤ"


def test_each_seat_is_told_its_own_team_and_only_the_good_cops_it_knows() -> None:
    state = start(HC, {0: "2S", 1: "JK1", 2: "3S", 3: "JK2"}, voids={1: "S", 3: "S"})
    assert rows(state, 0)["your team"] == "bad cop (you hold no joker)"
    assert rows(state, 1)["your team"] == "good cop (your partner holds the other joker)"
    assert rows(state, 0)["good cops"] == "not known yet"
    assert rows(state, 1)["good cops"] == "you and the holder of the other joker, not known yet"
    assert "your team" not in rows(state, None) and rows(state, None)["good cops"] == "not known yet"
    play(state, "2S", "JK1")
    assert rows(state, 0)["good cops"] == "seat 1, and the other joker's holder is not known yet"
    assert rows(state, 3)["good cops"] == "you and seat 1; the others are bad cops"
    assert rows(state, 3, "ja")["良い警官"] == "あなたと席1（ほかは悪い警官）"
    play(state, "3S", "JK2")
    assert rows(state, None)["good cops"] == "seat 1 and seat 3; the others are bad cops"
    assert rows(state, 0, "ja")["良い警官"] == "席1と席3（ほかは悪い警官）"


def test_a_lone_good_cop_is_told_it_is_alone_and_the_others_learn_it_when_it_shows() -> None:
    state = start(("JK1", "5S"), {2: "JK2"})
    assert rows(state, 2)["your team"] == "good cop, alone against three (the other joker was turned)"
    assert rows(state, 2)["good cops"] == "you, alone against three; the others are bad cops"
    assert rows(state, 0)["good cops"] == "one player, not known yet, alone against three"
    both = start(HC, {2: "JK1 JK2"})
    assert rows(both, 2)["your team"] == "good cop, alone against three (you hold both jokers)"
    assert rows(both, 1)["good cops"] == "not known yet"
