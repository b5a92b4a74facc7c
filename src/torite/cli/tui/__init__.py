"""The terminal table (``torite play``) as a Textual app; see :mod:`torite.cli.tui.app`."""

from torite.cli.tui.app import TableApp, play_tui
from torite.cli.tui.session import Session

__all__ = ["Session", "TableApp", "play_tui"]
