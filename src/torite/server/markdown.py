"""Markdown to HTML for the rules pages, by markdown-it-py (CommonMark plus tables).

Why a library: the pages grow tables, nested lists and code as games are added, and a
hand-written converter drifted from what authors expect of Markdown.  markdown-it-py is
CommonMark-exact and pinned in the lock files, so nothing is fetched at run time.

Japanese: CommonMark does not close ``**裁定 L1：**リード`` (a closing ``**`` after punctuation
must be followed by a space or punctuation, which Japanese never writes), so the emphasis rule
here counts CJK punctuation as a letter and lets a CJK character on the other side of a marker
stand for the space CommonMark asks for, as the "CJK-friendly" amendment to CommonMark
proposes; text in other scripts is unchanged.

Safety: raw HTML in a page is escaped, never passed through, and a link keeps only an http(s),
relative or fragment target (any other scheme shows its text without the link), so a rules page
cannot inject markup or script.  The output is compact (no newlines between tags, ``<hr>``
rather than ``<hr />``), as the web table's style and tests expect.  A page is rendered once and
cached: the text of a page is the key, so an edited page renders afresh.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline.state_inline import Delimiter, StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:")
_BETWEEN_TAGS = re.compile(r">\n+<")
_BEFORE_TAG = re.compile(r"\n+(?=<(?:/?(?:ul|ol|li|table|thead|tbody|tr|blockquote)\b|p>))")


def _safe_url(url: str) -> str | None:
    low = url.strip().lower()
    if low.startswith(("http://", "https://", "#", "/")) or not _SCHEME.match(low):
        return url
    return None


def _cjk(ch: str) -> bool:
    """Hangul Jamo, CJK punctuation, kana, CJK ideographs, Hangul syllables, full-width forms."""
    o = ord(ch)
    return (0x1100 <= o <= 0x11FF or 0x2E80 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF
            or 0xF900 <= o <= 0xFAFF or 0xFE30 <= o <= 0xFE4F or 0xFF00 <= o <= 0xFFEF
            or 0x20000 <= o <= 0x3FFFF)


def _scan(state: StateInline, start: int, can_split_word: bool) -> tuple[bool, bool, int]:
    """markdown-it's ``scanDelims``, a CJK neighbour counting as the space it asks for (see above)."""
    pos, maximum, src = start, state.posMax, state.src
    marker = src[start]
    last = src[start - 1] if start > 0 else " "
    while pos < maximum and src[pos] == marker:
        pos += 1
    nxt = src[pos] if pos < maximum else " "
    last_punct = not _cjk(last) and (isMdAsciiPunct(ord(last)) or isPunctChar(last))
    next_punct = not _cjk(nxt) and (isMdAsciiPunct(ord(nxt)) or isPunctChar(nxt))
    last_space, next_space = isWhiteSpace(ord(last)), isWhiteSpace(ord(nxt))
    left = not next_space and (not next_punct or last_space or last_punct or _cjk(last))
    right = not last_space and (not last_punct or next_space or next_punct or _cjk(nxt))
    can_open = left and (can_split_word or not right or last_punct)
    can_close = right and (can_split_word or not left or next_punct)
    return can_open, can_close, pos - start


def _emphasis(state: StateInline, silent: bool) -> bool:
    """markdown-it's emphasis tokenizer over :func:`_scan`."""
    start = state.pos
    marker = state.src[start]
    if silent or marker not in ("_", "*"):
        return False
    can_open, can_close, length = _scan(state, start, marker == "*")
    for _ in range(length):
        token = state.push("text", "", 0)
        token.content = marker
        state.delimiters.append(Delimiter(marker=ord(marker), length=length, token=len(state.tokens) - 1,
                                          end=-1, open=can_open, close=can_close))
    state.pos += length
    return True


def parser() -> MarkdownIt:
    """A fresh parser with the rules pages' settings (CommonMark, tables, no raw HTML, the
    CJK-friendly emphasis): the terminal table's rules view parses with it too."""
    md = MarkdownIt("commonmark", {"html": False, "xhtmlOut": False, "breaks": False, "linkify": False})
    md.enable("table")
    md.inline.ruler.at("emphasis", _emphasis)
    return md


def _build() -> MarkdownIt:
    md = parser()
    # every target reaches the renderer, which drops the unsafe ones but keeps their text
    md.validateLink = lambda url: True  # type: ignore[method-assign]

    def link_open(renderer: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        tok = tokens[idx]
        href = str(tok.attrGet("href") or "")
        if _safe_url(href) is None:
            tok.meta["dropped"] = True
            _closing(tokens, idx).meta["dropped"] = True
            return ""
        out: str = renderer.renderToken(tokens, idx, options, env)
        return out

    def link_close(renderer: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        if tokens[idx].meta.get("dropped"):
            return ""
        out: str = renderer.renderToken(tokens, idx, options, env)
        return out

    md.add_render_rule("link_open", link_open)
    md.add_render_rule("link_close", link_close)
    return md


def _closing(tokens: Sequence[Token], idx: int) -> Token:
    """The link_close that matches the link_open at ``idx`` (links do not nest)."""
    for tok in tokens[idx + 1:]:
        if tok.type == "link_close":
            return tok
    return tokens[idx]


_MD: Any = None


def _md() -> MarkdownIt:
    global _MD
    if _MD is None:
        _MD = _build()
    md: MarkdownIt = _MD
    return md


def _compact(html: str) -> str:
    return _BEFORE_TAG.sub("", _BETWEEN_TAGS.sub("><", html)).strip()


@functools.lru_cache(maxsize=128)
def to_html(md: str) -> str:
    """Convert a Markdown document into an HTML fragment (cached by its text)."""
    return _compact(_md().render(md.replace("\r\n", "\n")))


def inline(text: str) -> str:
    """One line of inline Markdown (code, bold, italic, links) as HTML, escaped."""
    out: str = _md().renderInline(text)
    return out
