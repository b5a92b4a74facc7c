"""What every ``torite`` subcommand shares: the user-error type, ``-o KEY=VALUE`` parsing and
the progress bar.

It lives apart from ``torite.cli.main`` so that commands defined in other modules
(``torite.cli.arena_cmd``, ``torite.server.cli``) can use it while ``main`` imports them to
register them: the imports run one way, main → command → common.
"""

from __future__ import annotations

import atexit
import sys
import time
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress
    from rich.progress import Task, TaskID


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in pairs:
        key, sep, value = p.partition("=")
        if not sep or not key.strip():
            raise CliError(f"option {p!r}: write it as KEY=VALUE, e.g. -o target=50")
        out[key.strip()] = value
    return out


def add_game_module_argument(parser: Any) -> None:
    """``--game-module MODULE:CLASS`` (repeatable) on a subcommand's parser."""
    parser.add_argument("--game-module", action="append", default=[], metavar="MODULE:CLASS",
                        help="load a game written against the kit from outside torite (my_rules:MyGame, or "
                             "path/to/my_rules.py:MyGame), then name it by its id (repeatable)")


def load_game_modules(args: Any) -> list[str]:
    """Load the games ``--game-module`` names (before the command runs); their ids."""
    from torite.engine.registry import load_game_modules as load

    return load(getattr(args, "game_module", None) or [])


def _rate(task: Task) -> str:
    """Items a second over the whole run so far: steadier than rich's windowed speed when the
    items of a parallel run arrive in bursts."""
    elapsed = task.elapsed or 0.0
    if not task.completed or elapsed <= 0:
        return "-/s"
    r = task.completed / elapsed
    return f"{r:,.0f}/s" if r >= 10 else f"{r:.2f}/s"


def _close_at_exit(ref: weakref.ref[Progress]) -> None:
    p = ref()
    if p is not None:
        p.close()


class Progress:
    """Progress on stderr for long runs (simulate, arena, compare): a bar, done/total, the
    rate, the time elapsed and the time left; with ``workers`` counts (``--jobs`` > 1, when the
    caller can see them), one line per worker under it.  Nothing is drawn when stderr is not a
    terminal, so piped and logged output stays clean.

    Callers only call it: ``progress(done, total)`` after each finished item (``done == total``
    ends the display).  ``file`` is for tests (a terminal-like stream).
    """

    def __init__(self, label: str, *, file: TextIO | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.label = label
        self.file = sys.stderr if file is None else file
        self.enabled = bool(getattr(self.file, "isatty", lambda: False)())
        self.clock = clock or time.monotonic
        self.started = self.clock()  # elapsed counts from here, not from the first item done
        self._bar: RichProgress | None = None
        self._main: TaskID | None = None
        self._workers: list[TaskID] = []
        self.finished = False

    def _start(self, total: int) -> RichProgress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        console = Console(file=self.file, force_terminal=True, stderr=self.file is sys.stderr)
        bar = RichProgress(TextColumn("{task.description}"), BarColumn(bar_width=None), MofNCompleteColumn(),
                           TextColumn("{task.fields[rate]}"), TextColumn("elapsed"), TimeElapsedColumn(),
                           TextColumn("left"), TimeRemainingColumn(), console=console, auto_refresh=False,
                           redirect_stdout=False, redirect_stderr=False, get_time=self.clock)
        bar.start()
        self._main = bar.add_task(self.label, total=total, rate="-/s")
        bar.tasks[self._main].start_time = self.started
        self._bar = bar
        atexit.register(_close_at_exit, weakref.ref(self))  # a run cut short must not leave the cursor hidden
        return bar

    def __call__(self, done: int, total: int, *, workers: Sequence[int] | None = None) -> None:
        """``workers``: items finished by each worker so far (optional)."""
        if not self.enabled or self.finished:
            return
        bar = self._bar or self._start(total)
        assert self._main is not None
        bar.update(self._main, completed=done, total=total)
        task = bar.tasks[self._main]
        bar.update(self._main, rate=_rate(task))
        if workers is not None:
            while len(self._workers) < len(workers):
                tid = bar.add_task(f"  worker {len(self._workers) + 1}", total=None, rate="")
                bar.tasks[tid].start_time = self.started
                self._workers.append(tid)
            for tid, n in zip(self._workers, workers):
                bar.update(tid, completed=n)
                bar.update(tid, rate=_rate(bar.tasks[tid]))
        bar.refresh()
        if done >= total:
            self.close()

    def close(self) -> None:
        """End the display (called at ``done == total``; safe to call again)."""
        if self._bar is not None and not self.finished:
            self._bar.stop()
        self.finished = True

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
