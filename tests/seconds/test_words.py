"""What the table says (the labels, English and Japanese): the deal, the seats by compass, who is
whose partner or half-partner this deal, what the deal pays, and why a trick was won."""

from __future__ import annotations

from torite.games.seconds.rules import Seconds, SecondsState
from torite.present import labels

from .deals import E, N, S, W, hands_with, play, state, suit

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def rows(st: SecondsState, seat: int | None, lang: str = "en") -> dict[str, str]:
    return dict(labels.status(st.game, st.observation(seat), lang, NAMES))


def at_deal(kind: int, north: int = 0) -> SecondsState:
    st = Seconds({"edition": "2021"}).new_state(1, dealer=(north + kind - 1) % 4, first_round=kind - 1)
    assert isinstance(st, SecondsState) and st.north == north
    return st


def test_the_table_names_the_deal_and_the_seats_by_compass() -> None:
    st = at_deal(3, north=2)
    r = rows(st, 0)
    assert r["deal"] == "3 of 8"
    assert r["seats"] == "North Cat · East Dan · South Ann · West Ben"
    assert rows(st, 0, "ja")["席"] == "北 Cat・東 Dan・南 Ann・西 Ben"


def test_a_partnership_deal_shows_both_sides_and_your_partner() -> None:
    st = at_deal(2)  # N + E against S + W
    r = rows(st, S)
    assert r["this deal"] == "partners Ann + Ben against Cat + Dan"
    assert r["your partner"] == "Dan (your score: your tricks × Dan's tricks)"
    assert r["score this deal"] == "own tricks × partner's tricks"
    ja = rows(st, S, "ja")
    assert ja["このディール"] == "パートナー：Ann＋Ben 対 Cat＋Dan" and ja["あなたのパートナー"].startswith("Dan（")


def test_a_half_partner_deal_shows_the_one_way_relation_to_each_player() -> None:
    st = at_deal(4)  # left neighbours: N x E, E x S, S x W, W x N
    r = rows(st, E)
    assert "Ann × Ben, Ben × Cat, Cat × Dan, Dan × Ann" in r["this deal"]
    assert r["your half-partner"] == "Cat (your score: your tricks × Cat's tricks); your tricks also count for Ann"
    right = rows(at_deal(5), E)  # right neighbours: East's is North, and South counts East's tricks
    assert right["your half-partner"] == "Ann (your score: your tricks × Ann's tricks); your tricks also count for Cat"
    assert "あなたのハーフパートナー" in rows(st, E, "ja")


def test_deals_without_partners_say_what_they_pay_and_show_no_partner() -> None:
    for kind, pays in ((6, "(own tricks)²"), (7, "13 − own tricks"), (8, "10 for exactly 3 tricks, else 0")):
        r = rows(at_deal(kind), N)
        assert r["score this deal"] == pays
        assert "your partner" not in r and "your half-partner" not in r


def test_the_table_says_which_total_wins_the_game() -> None:
    assert rows(at_deal(1), 0)["game won by"] == "the second-highest total"
    st = Seconds({"winner": "highest"}).new_state(1)
    assert isinstance(st, SecondsState)
    assert rows(st, 0)["game won by"] == "the highest total"
    assert rows(st, 0, "ja")["ゲームの勝者"] == "累計点が最も高い人"


def test_a_spectator_sees_the_arrangement_but_no_partner_of_its_own() -> None:
    r = rows(at_deal(1), None)
    assert r["this deal"] == "partners Ann + Cat against Ben + Dan" and "your partner" not in r


def test_the_log_says_why_a_trick_was_won() -> None:
    st = state(hands_with({E: suit("S"), S: ["KH"], W: ["KD"], N: ["3C"]}), kind=1)
    play(st, "5S", "KH", "KD", "3C")
    trick = next(e for e in reversed(st.events) if e.kind == "trick")
    text = labels.event_text(st.game, trick, names=NAMES)
    assert text is not None and text.startswith("Dan wins the trick (♠5 ♥K ♦K ♣3): nobody followed")
    facts = dict(labels.load(st.game, "en").trick_facts(st.history[0], NAMES))
    assert facts["winner"] == "Dan" and "played second" in facts["why"]
    arrangement = next(e for e in st.events if e.kind == "arrangement")
    assert labels.event_text(st.game, arrangement, names=NAMES) == (
        "deal 1 of 7, dealt by Ann: partners Ann + Cat against Ben + Dan")
    ja = labels.event_text(st.game, arrangement, "ja", NAMES)
    assert ja == "ディール1／7（ディーラー Ann）：パートナーは Ann＋Cat 対 Ben＋Dan"
