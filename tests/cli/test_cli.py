"""The torite command as a user runs it."""

import io
import json
import random
import re
from pathlib import Path

import pytest

from torite.cli.main import main
from torite.cli.terminal import play_terminal
from torite.engine import make_game


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_ids_options_and_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    games = {g["id"]: g for g in json.loads(out)}
    opts = {o["name"]: o["default"] for o in games["trick-of-the-dead"]["options"] if not o.get("house")}
    assert opts == {"players": 3, "survival": False, "open_graveyard": False,
                    "zombie_doubles": "diamonds", "target": 100}
    house = {o["name"]: (o["default"], o["minimum"], o["maximum"]) for o in games["trick-of-the-dead"]["options"]
             if o.get("house")}
    assert house["club_points"][0] == -2 and house["joker_points"][0] == 5 and house["survivor_points"][0] == 2


def test_simulate_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "trick-of-the-dead", "--rounds", "30", "--json",
                       "--bots", "normal,random,random")
    assert code == 0
    d = json.loads(out)
    for key in ("game", "options", "bots", "rounds", "points_per_round", "points_per_round_ci95", "stats",
                "rounds_per_second"):
        assert key in d
    assert d["rounds"] == 30 and len(d["points_per_round"]) == 3
    for key in ("zombies_per_round", "joker_wins_per_round", "zombie_wins_per_round",
                "survival_points_per_round", "tricks_per_round"):
        assert key in d["stats"]


def test_simulate_gives_intervals_as_low_high_and_none_from_one_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "kaedama", "--rounds", "20", "--json")
    assert code == 0
    d = json.loads(out)
    for mean, (low, high) in zip(d["points_per_round"], d["points_per_round_ci95"], strict=True):
        assert low < mean < high
    code, out, _ = run(capsys, "simulate", "kaedama", "--rounds", "1", "--json")
    assert code == 0 and json.loads(out)["points_per_round_ci95"] == [None, None, None]
    code, out, _ = run(capsys, "simulate", "kaedama", "--rounds", "1")
    assert code == 0 and out.count("(one deal: no interval)") == 3 and "1 round," in out


def test_simulate_says_the_counters_in_words_and_what_never_happened(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "kaedama", "--rounds", "12", "--bots", "normal")
    assert code == 0
    assert "reversals per round: " in out and "kaedama replacements per round: " in out
    assert "  never happened: replacements while winning" in out and out.count("replacements while winning") == 1
    assert "_per_round" not in out and "replacements_while_winning" not in out
    code, out, _ = run(capsys, "simulate", "kaedama", "--rounds", "12", "--bots", "random", "-o", "reverse=true")
    assert code == 0 and "replacements while winning per round: " in out and "never happened" not in out


@pytest.mark.parametrize(("command", "default"), [("simulate", "(default random)"), ("compare", "(default normal)"),
                                                  ("play", "(default normal)")])
def test_help_says_the_default_bots(capsys: pytest.CaptureFixture[str], command: str, default: str) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    bots = text[text.rindex("--bots BOTS"):]  # its help, after the usage line
    assert default in bots[:bots.index(" -", 12)]


def test_simulate_games_reports_wins(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "simulate", "trick-of-the-dead", "--games", "4", "--json", "-o", "target=30",
                       "--records", str(tmp_path))
    assert code == 0
    d = json.loads(out)
    assert sum(d["wins"]) >= 4 and d["rounds"] >= 4
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    code, out, _ = run(capsys, "replay", str(files[0]), "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_simulate_numbers_do_not_depend_on_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    results = []
    for jobs in ("1", "2"):
        code, out, _ = run(capsys, "simulate", "trick-of-the-dead", "--rounds", "40", "--seed", "9",
                           "--jobs", jobs, "--json", "-o", "survival=true")
        assert code == 0
        d = json.loads(out)
        for k in ("rounds_per_second", "actions_per_second", "jobs"):
            d.pop(k)
        results.append(d)
    assert results[0] == results[1]


@pytest.mark.parametrize("args", [
    ("simulate", "trick-of-the-dead", "--rounds", "3", "-o", "bogus=1"),
    ("simulate", "trick-of-the-dead", "--rounds", "3", "-o", "target"),
    ("simulate", "trick-of-the-dead", "--rounds", "3", "--bots", "wizard"),
    ("simulate", "trick-of-the-dead", "--rounds", "3", "--bots", "random,random"),
    ("simulate", "trick-of-the-dead", "--rounds", "0"),
    ("simulate", "nope", "--rounds", "3"),
    ("play", "trick-of-the-dead", "--seat", "5"),
    ("rules", "trick-of-the-dead", "--lang", "xx"),
    ("play", "trick-of-the-dead", "--lang", "xx"),
])
def test_bad_input_is_one_clear_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("torite ") and "Traceback" not in err


def test_replay_of_a_broken_record_exits_1_naming_the_action(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    run(capsys, "simulate", "trick-of-the-dead", "--games", "1", "--records", str(tmp_path), "-o", "target=20")
    path = next(tmp_path.glob("*.json"))
    doc = json.loads(path.read_text())
    doc["actions"][5]["action"] = "play JK9"
    path.write_text(json.dumps(doc))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1 and "action 5 (seat" in err


def test_rules_prints_the_page_in_every_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "trick-of-the-dead")
    assert code == 0 and "zombie" in out.lower()
    code, out, _ = run(capsys, "rules", "trick-of-the-dead", "--lang", "ja")
    assert code == 0 and "ゾンビ" in out
    code, out, _ = run(capsys, "rules", "mighty", "--lang", "ko")
    assert code == 0 and "主攻" in out and "딜미스" in out


def test_a_person_plays_a_whole_game_in_the_terminal(tmp_path: Path) -> None:
    """Answers come from a scripted 'person' who always types the first legal entry's number,
    with a few mistakes on the way that must be refused without harm."""
    game = make_game("trick-of-the-dead", {"target": 1})
    out = io.StringIO()
    typed = iter(["help", "ZZ", "play 2C 3C", "last", "hand"])

    def ask(prompt: str) -> str:
        return next(typed, "1")

    rec = play_terminal(game, 1, ["normal", "random"], 11, records=tmp_path, out=out, ask=ask)
    text = out.getvalue()
    assert "your hand:" in text and "Final scores" in text and "Record saved" in text
    assert "!" in text  # the mistakes were answered with an error line
    assert rec.result is not None
    saved = tmp_path / "trick-of-the-dead-11.json"
    assert saved.exists()
    assert main(["replay", str(saved)]) == 0


def test_quitting_saves_an_unfinished_record(tmp_path: Path) -> None:
    game = make_game("trick-of-the-dead")
    out = io.StringIO()
    rec = play_terminal(game, 0, ["random", "random"], 3, records=tmp_path, out=out, inp=io.StringIO("quit\n"))
    assert rec.result is None and "unfinished" in out.getvalue()
    assert main(["replay", str(tmp_path / "trick-of-the-dead-3.json")]) == 0


@pytest.mark.parametrize("opts", [[], ["-o", "blind=true"], ["-o", "double=true"], ["-o", "reverse=true"],
                                  ["-o", "trump_card=top"],
                                  ["-o", "blind=true", "-o", "double=true", "-o", "rounds=2"]])
def test_kaedama_variants_simulate_and_their_records_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            opts: list[str]) -> None:
    code, out, _ = run(capsys, "simulate", "kaedama", "--games", "2", "--json", "--bots", "normal,random,easy",
                       "--records", str(tmp_path), *opts)
    assert code == 0
    d = json.loads(out)
    assert {"replacements_per_round", "reversals_per_round", "tricks_per_round"} <= set(d["stats"])
    for f in tmp_path.glob("*.json"):
        code, out, _ = run(capsys, "replay", str(f), "--json")
        assert code == 0 and json.loads(out)["finished"] is True


def test_a_person_plays_kaedama_blind_in_the_terminal(tmp_path: Path) -> None:
    game = make_game("kaedama", {"blind": True, "rounds": 1})
    out = io.StringIO()
    rec = play_terminal(game, 2, ["normal", "normal"], 8, records=tmp_path, out=out, ask=lambda _: "1")
    assert rec.result is not None and "Final scores" in out.getvalue()


def test_the_terminal_speaks_to_the_person_in_the_second_person(tmp_path: Path) -> None:
    game = make_game("trick-of-the-dead", {"target": 1})
    out = io.StringIO()
    play_terminal(game, 1, ["random", "random"], 4, records=tmp_path, out=out, ask=lambda _: "1")
    text = out.getvalue()
    assert "you play " in text and "you bury " in text and "seat 0 plays " in text
    assert "seat 1 plays" not in text and "seat 1 buries" not in text and "you plays" not in text
    assert "points this round:" in text


def test_the_terminal_plays_trick_of_the_dead_in_japanese(tmp_path: Path) -> None:
    game = make_game("trick-of-the-dead", {"target": 1})
    out = io.StringIO()
    typed = iter(["help", "last", "999"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed, "1")

    rec = play_terminal(game, 0, ["normal", "random"], 6, records=tmp_path, out=out, ask=ask, lang="ja")
    text = out.getvalue()
    assert rec.result is not None
    assert text.startswith("トリック・オブ・ザ・デッド：あなたは席0です。")
    for words in ("あなたの手札：", "切り札：", "このラウンドの得点：",
                  "埋葬する（墓地に送る）カードを2枚選んでください",
                  "を埋葬しました", "あなたが", "席1が", "がトリックを取りました", "最終得点：", "勝者：",
                  "記録を保存しました", "直前のトリック：まだありません", "1から"):
        assert words in text, words
    assert {"埋葬> ", "出す> "} <= set(prompts)
    for english in ("you play", " plays ", "wins the trick", "your hand", "Final scores", "trump:"):
        assert english not in text, english


def test_the_terminal_plays_kaedama_in_japanese_from_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    code = main(["play", "kaedama", "--lang", "ja", "--seed", "3", "-o", "rounds=1", "--bots", "normal,random",
                 "--record-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    for words in ("替え玉トリック：あなたは席0です。", "切り札：", "山札：", "を表にしました。切り札は", "見送",
                  "最終得点："):
        assert words in out, words
    assert main(["replay", str(tmp_path / "kaedama-3.json")]) == 0


def test_the_line_mode_speaks_korean_where_the_game_has_korean_words(tmp_path: Path) -> None:
    from torite.present.labels import languages

    game = make_game("kaedama", {"rounds": 1})
    assert "ko" in languages(game)
    out = io.StringIO()
    rec = play_terminal(game, 0, ["random", "random"], 2, records=tmp_path, out=out, ask=lambda _: "1", lang="ko")
    text = out.getvalue()
    assert rec.result is not None
    for words in ("나는 0번 자리입니다", "내 손패", "최종 점수", "기록을 저장했습니다", "봇(무작위)"):
        assert words in text, words
    for english in ("your hand", "Final scores", "Record saved", "random", "당신"):
        assert english not in text, english


NOTATION = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[2-9JQKA])[CDHS]|JK\d?|\d+ (?:NT|[CDHS]))(?![A-Za-z0-9])")


@pytest.mark.parametrize(("game_id", "lang", "spelled"), [
    ("mighty", "ko", "스페이드 "), ("trick-of-the-dead", "en", " of "), ("umbridge", "ja", "の"),
    ("glapgos", "ko", "하트 "),
])
def test_the_line_mode_spells_every_card_out_for_a_screen_reader(tmp_path: Path, game_id: str, lang: str,
                                                                 spelled: str) -> None:
    """What --plain prints (a screen reader reads it): cards, suits and contracts in words, never
    the notation and never a suit symbol; every choice numbered."""
    game = make_game(game_id)
    out = io.StringIO()
    rng = random.Random(5)
    play_terminal(game, 0, ["random"] * (game.num_players - 1), 5, records=tmp_path, out=out,
                  ask=lambda _: str(rng.randint(1, 2)), lang=lang, max_rounds=1)
    text = out.getvalue()
    assert spelled in text and "1) " in text
    found = NOTATION.findall(text)
    assert not found, found[:10]
    assert not re.search("[♠♥♦♣]", text)


def test_the_line_mode_says_which_rule_refuses_a_card_and_gives_a_hint(tmp_path: Path) -> None:
    """Hearts: the person types a card the rules refuse (not the two of clubs to open, or a suit
    not followed) and is told the rule in words; 'hint' names the normal bot's choice; the record
    counts the hint."""
    game = make_game("hearts")
    out = io.StringIO()
    tried: list[str] = []
    cards = iter([r + s for s in "CDHS" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")])

    def ask(prompt: str) -> str:
        if not tried:
            tried.append("hint")
            return "hint"
        if prompt.startswith("play"):  # every card in turn until one is played: most are refused
            return next(cards, "1")
        return "1"

    # seed 6: a deal and bots (seeded since issue 37) under which a typed card meets a rule
    rec = play_terminal(game, 0, ["random"] * 3, 6, records=tmp_path, out=out, ask=ask)
    text = out.getvalue()
    assert "Hint: " in text
    refused = [line for line in text.splitlines() if line.strip().startswith("! ")]
    rules = ("The two of clubs leads the first trick.", "You must follow suit", "No heart and no queen of spades",
             "Hearts may not lead")
    assert any(r in line for line in refused for r in rules), refused
    assert any("That card is not in your hand." in line for line in refused)
    assert rec.hints == [1, 0, 0, 0]


def test_the_line_mode_reads_a_count_a_seat_with_the_seats_names_and_the_instruction_once(tmp_path: Path) -> None:
    """Kaedama in Japanese: "取ったトリック：あなた 0、席1（ふつう） 1、…", not "0 / 1 / 0"; and
    at its kaedama decision the instruction is said once (the prompt), not again as a status row
    named after the phase.  (Before, both: the bare counts, and the instruction twice.)"""
    game = make_game("kaedama", {"rounds": 1})
    out = io.StringIO()
    play_terminal(game, 0, ["normal", "normal"], 3, records=tmp_path, out=out, ask=lambda _: "1", lang="ja")
    text = out.getvalue()
    assert re.search(r"  取ったトリック：あなた \d+、席1（ふつう） \d+、席2（ふつう） \d+\n", text)
    assert not re.search(r"取ったトリック[:：] ?\d+ / ", text)
    blocks = text.split("\n\n")
    kaedama = [b for b in blocks if "選択肢：1) 替え玉する" in b]
    assert kaedama
    for b in kaedama:
        said = b.split("選択肢：")[0]
        assert said.count("見送るか") == 1, said


def _script(game_id: str, seed: int, path: Path, answers: list[str]) -> str:
    out = io.StringIO()
    typed = iter(answers)
    play_terminal(make_game(game_id, {}), 0, ["normal"] * (make_game(game_id).num_players - 1), seed,
                  records=path, out=out, ask=lambda _: next(typed, "1"))
    return out.getvalue()


@pytest.mark.parametrize("game_id", ["kaedama", "mighty"])
def test_a_game_quit_and_resumed_goes_on_as_the_unbroken_game(game_id: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``torite play --resume RECORD``: the record replays to where it stopped and the bots carry
    on with their seeds where they were, so the same answers give the very game an unbroken
    one gives, action for action (a bot made afresh would draw from the start of its seed)."""
    seed = 5
    _script(game_id, seed, tmp_path / "whole", ["1"] * 2000)
    whole = json.loads((tmp_path / "whole" / f"{game_id}-{seed}.json").read_text())
    assert whole["result"] is not None
    quit_text = _script(game_id, seed, tmp_path / "cut", ["1"] * 7 + ["quit"])
    saved = tmp_path / "cut" / f"{game_id}-{seed}.json"
    assert f"torite play --resume {saved}" in quit_text
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2000))
    code, out, err = run(capsys, "play", "--resume", str(tmp_path / "cut"), "--plain")  # the folder: its newest
    assert code == 0, err
    assert "where it stopped" in out and "Final scores" in out
    resumed = json.loads(saved.read_text())
    assert resumed["actions"] == whole["actions"] and resumed["result"] == whole["result"]


def test_a_bad_record_to_resume_is_one_clear_error_and_nothing_is_played(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    _script("kaedama", 2, tmp_path, ["1"] * 3 + ["quit"])
    path = tmp_path / "kaedama-2.json"
    good = json.loads(path.read_text())
    cases = {
        "missing.json": None,
        "not-json.json": "{",
        "over.json": {**good, "result": {"scores": [0, 0, 0], "winners": [0]}},
        "changed.json": {**good, "actions": [*good["actions"][:2], {"seat": 0, "action": "play 2C"}]},
        "simulated.json": {**good, "seats": ["bot:normal", "bot:normal", "bot:normal"]},
        "no-seed.json": {**good, "seed": None},
    }
    for name, data in cases.items():
        f = tmp_path / name
        if data is not None:
            f.write_text(data if isinstance(data, str) else json.dumps(data))
        before = f.read_text() if f.exists() else None
        code, out, err = run(capsys, "play", "--resume", str(f), "--plain")
        assert code == 2 and err.startswith("torite play: cannot resume") and err.count("\n") == 1, (name, err)
        assert out == "" and (f.read_text() if f.exists() else None) == before, name
    code, _, err = run(capsys, "play", "--resume", str(path), "--seed", "3", "--plain")
    assert code == 2 and "--resume" in err
    code, _, err = run(capsys, "play", "mighty", "--resume", str(path), "--plain")
    assert code == 2 and "kaedama" in err


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """`torite rules mighty | head -1`: the reader has gone before the page is written; the
    command ends quietly (141, as a piped program does) instead of a BrokenPipeError traceback.
    The pipe's read end is closed before the command starts, so the write always fails."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)
    cmd = [sys.executable, "-c", "import sys; from torite.cli.main import main; sys.exit(main(['rules', 'mighty']))"]
    try:
        proc = subprocess.run(cmd, stdout=write_end, stderr=subprocess.PIPE, timeout=60, check=False)
    finally:
        os.close(write_end)
    err = proc.stderr.decode()
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert proc.returncode == 141
