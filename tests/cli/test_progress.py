"""The progress display of long runs: rate, elapsed, time left, per worker; silent off a terminal."""

from __future__ import annotations

import io
import re

import pytest

from torite.cli.common import Progress
from torite.cli.main import main

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def drawn(stream: io.StringIO) -> str:
    return _ANSI.sub("", stream.getvalue())


def test_progress_shows_done_of_total_rate_elapsed_and_time_left() -> None:
    out = Terminal()
    now = [100.0]
    p = Progress("kaedama rounds", file=out, clock=lambda: now[0])
    for i in range(1, 5):
        now[0] += 0.5
        p(i, 10)
    text = drawn(out)
    last = text.rstrip().split("\n")[-1]
    assert "kaedama rounds" in last and "4/10" in last
    assert "2.00/s" in last  # 4 done in 2 seconds since it was created
    assert "elapsed 0:00:02" in last and "left 0:00:03" in last
    for i in range(5, 11):
        now[0] += 0.5
        p(i, 10)
    assert p.finished and "10/10" in drawn(out)


def test_progress_draws_one_line_per_worker_when_told_their_counts() -> None:
    out = Terminal()
    now = [0.0]
    p = Progress("arena", file=out, clock=lambda: now[0])
    now[0] = 1.0
    p(3, 12, workers=[1, 2])
    p.close()
    text = drawn(out)
    assert "worker 1" in text and "worker 2" in text and "3/12" in text


def test_progress_draws_nothing_when_the_stream_is_not_a_terminal() -> None:
    out = io.StringIO()
    p = Progress("x", file=out)
    p(1, 2)
    p(2, 2)
    assert out.getvalue() == "" and not p.enabled


def test_simulate_writes_no_progress_to_a_piped_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "kaedama", "--rounds", "3", "--json"]) == 0
    assert capsys.readouterr().err == ""
