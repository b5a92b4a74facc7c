"""Text that wraps as Japanese is set: never a line that begins with closing punctuation
(。、」）ー…) or ends with an opening one (「（), and a line break allowed between any two
kana or kanji (Japanese has no spaces to break at).  Korean and English break at spaces.

Why its own wrapping: Rich folds a run without spaces at the width, character by character, so
a Japanese sentence could put its 。 or 」 at the start of the next line.  :class:`Prose` is a
widget whose height counts the lines this wrapping makes (the prompt, the status rows)."""

from __future__ import annotations

import unicodedata
from typing import Final

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

#: may not begin a line (JIS X 4051's closing brackets, full stops, small kana, the long mark)
NO_START: Final = frozenset("、。，．・：；？！）」』】〕〉》］｝”’ゝゞ々ー…‥"
                            "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
                            ",.:;?!)]}%")
#: may not end a line
NO_END: Final = frozenset("（「『【〔〈《［｛“‘([{")


def _cjk(ch: str) -> bool:
    """A character between which and its neighbours a line may break: kana, kanji, full-width
    punctuation (not Hangul: Korean breaks at its spaces)."""
    if not ch or ch.isspace():
        return False
    o = ord(ch)
    if 0xAC00 <= o <= 0xD7AF or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F:
        return False
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _breakable(plain: str, i: int) -> bool:
    """May a line break before ``plain[i]``?"""
    before, here = plain[i - 1], plain[i]
    if here in NO_START or before in NO_END:
        return False
    if before.isspace():
        return True
    return _cjk(before) or _cjk(here)


def break_offsets(plain: str, width: int) -> list[int]:
    """Where to break one line of ``plain`` (no newlines) so each piece fits ``width`` cells."""
    width = max(2, width)
    offsets: list[int] = []
    start, used, last = 0, 0, -1
    for i, ch in enumerate(plain):
        w = cell_len(ch)
        if i > start and _breakable(plain, i):
            last = i
        if used + w > width and i > start:
            cut = last if last > start else i
            if cut == i and plain[i] in NO_START and i - 1 > start:
                cut = i - 1  # a closing mark takes the character before it to the next line
            offsets.append(cut)
            start, last = cut, -1
            used = cell_len(plain[start:i])
        used += w
    return offsets


def wrap(text: Text, width: int) -> Text:
    """``text`` broken into lines of at most ``width`` cells (see the module docstring); spaces
    where a line breaks are dropped."""
    out: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        offsets = break_offsets(line.plain, width)
        for piece in line.divide(offsets) if offsets else [line]:
            piece.rstrip()
            out.append(piece)
    joined = Text("\n", style=text.style).join(out)
    joined.no_wrap = True
    return joined


class Prose(Widget):
    """A block of rich text drawn wrapped by :func:`wrap` at its width."""

    DEFAULT_CSS = "Prose { height: auto; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.text = Text()

    def update(self, text: Text) -> None:
        self.text = text
        self.refresh(layout=True)

    @property
    def content(self) -> Text:
        return self.text

    def render(self) -> Text:
        return wrap(self.text, self.content_size.width or 78)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if not self.text.plain:
            return 0
        return len(wrap(self.text, width).plain.split("\n"))
