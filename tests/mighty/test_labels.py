"""What the table's words tell each seat: the friend row to the friend and to the others, the
discards to the president only, the Korean and Japanese words of the game."""

from __future__ import annotations

from torite.engine.registry import make_game
from torite.present import labels
from torite.present.labels import load as labels_of

from .helpers import play, setup


def rows(state: object, seat: int | None, lang: str = "en") -> dict[str, str]:
    from torite.games.mighty.rules import MightyState
    assert isinstance(state, MightyState)
    return dict(labels.status(state.game, state.observation(seat), lang))


def test_the_friend_row_tells_the_friend_and_nobody_else_who_it_is() -> None:
    state = setup({3: "KS 2C 3C 4C 5C 6C 7C 8C 9C 10C"}, bid="13 H", friend="friend KS")
    assert rows(state, 3)["friend"] == "you (secret until you play the ♠K)"
    for seat in (0, 1, 2, 4, None):
        assert rows(state, seat)["friend"] == "the holder of ♠K: not known yet"
    assert rows(state, 3, "ko")["프렌드"] == "나 (♠K를 낼 때까지 비밀)"
    assert rows(state, 1, "ja")["フレンド"] == "♠Kの持ち主：まだ不明"


def test_the_discards_row_is_the_presidents_alone() -> None:
    state = setup({}, kitty="2C 3D 4H", discards="2C 3D 4H", friend="friend none")
    assert set(rows(state, 0)["your discards"].split()) == {"♣2", "♦3", "♥4"}
    assert all("your discards" not in rows(state, s) for s in (1, 2, 3, 4, None))
    assert rows(state, 2)["friend"] == "no friend: seat 0 plays alone (×2)"


def test_a_fake_friend_is_told_to_everyone_when_the_president_plays_the_card() -> None:
    state = setup({0: "AS KH QH JH 10H 9H 8H 7H 6H 5H"}, bid="13 D", friend="friend AS")
    play(state, "AS")
    assert all(rows(state, s)["friend"] == "nobody: seat 0 plays alone (fake friend)" for s in (1, 4, None))
    game = make_game("mighty")
    said = {lang: next(labels.event_text(game, e, lang) for e in state.events if e.kind == "friend_shown")
            for lang in ("en", "ja", "ko")}
    # the president holds the card: nobody *else* does (the Korean line once said nobody held it)
    assert str(said["ko"]).startswith("주공 말고는 아무도 ♠A를 갖고 있지 않았습니다")
    assert str(said["ko"]).endswith("(가짜 프렌드)")
    assert str(said["en"]).startswith("nobody else held the ♠A") and "ほかの誰も" in str(said["ja"])


def test_the_game_has_its_words_in_korean_and_japanese() -> None:
    ko, ja = labels_of(make_game("mighty"), "ko"), labels_of(make_game("mighty"), "ja")
    assert ko.title == "마이티" and ja.title == "マイティ"
