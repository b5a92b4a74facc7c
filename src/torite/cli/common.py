"""What every ``torite`` subcommand shares: the user-error type, ``-o KEY=VALUE`` parsing and
the progress bar.

It lives apart from ``torite.cli.main`` so that commands defined in other modules
(``torite.cli.arena_cmd``, ``torite.server.cli``) can use it while ``main`` imports them to
register them: the imports run one way, main → command → common.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence


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


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done != total and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
