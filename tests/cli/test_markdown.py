"""The rules pages' Markdown, rendered by markdown-it-py: every table, list and emphasis the
pages write shows in the HTML, nothing a page holds can inject markup, and a page renders once."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from torite.engine.base import OptionError
from torite.engine.registry import game_class, game_ids
from torite.present.pages import rules_page
from torite.server.app import LANGS
from torite.server.markdown import inline, to_html

_LIST_LINE = re.compile(r"^\s*([-*+]|\d+[.)])\s+\S")
_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def pages() -> list[tuple[str, str]]:
    out = []
    for gid in game_ids():
        for lang in LANGS:
            try:
                rules_page(game_class(gid), lang)
            except OptionError:
                continue  # a game still being written
            out.append((gid, lang))
    return out


def source_blocks(md: str) -> tuple[list[tuple[int, int]], int]:
    """The tables (rows, columns) and the number of list items, read from the Markdown by line."""
    tables: list[tuple[int, int]] = []
    items = 0
    lines = md.split("\n")
    fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("```"):
            fence = not fence
        elif not fence and "|" in line and i + 1 < len(lines) and _SEP.match(lines[i + 1]):
            cols = len(line.strip().strip("|").split("|"))
            rows = 0
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                rows += 1
                i += 1
            tables.append((rows, cols))
            continue
        elif not fence and _LIST_LINE.match(line):
            items += 1
        i += 1
    return tables, items


class _Blocks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[int]] = []  # per table: cells of each body row
        self.heads: list[int] = []
        self.items = 0
        self.in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
            self.heads.append(0)
        elif tag == "thead":
            self.in_head = True
        elif tag == "tbody":
            self.in_head = False
        elif tag == "tr" and not self.in_head:
            self.tables[-1].append(0)
        elif tag == "th":
            self.heads[-1] += 1
        elif tag == "td":
            self.tables[-1][-1] += 1
        elif tag == "li":
            self.items += 1


@pytest.mark.parametrize(("game_id", "lang"), pages())
def test_every_table_and_list_of_a_rules_page_is_in_its_html(game_id: str, lang: str) -> None:
    md = rules_page(game_class(game_id), lang)
    tables, items = source_blocks(md)
    html = to_html(md)
    seen = _Blocks()
    seen.feed(html)
    assert [(len(rows), h) for rows, h in zip(seen.tables, seen.heads)] == tables
    for rows, h in zip(seen.tables, seen.heads):
        assert all(cells == h for cells in rows)
    assert seen.items == items


@pytest.mark.parametrize(("game_id", "lang"), pages())
def test_every_bold_phrase_of_a_rules_page_is_bold_in_its_html(game_id: str, lang: str) -> None:
    """Japanese closes bold after punctuation with no space ("**裁定 L1：**リード"), which bare
    CommonMark leaves as literal asterisks."""
    html = to_html(rules_page(game_class(game_id), lang))
    text_only = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    assert "**" not in text_only
    assert "<strong>" in html


def test_japanese_bold_closes_after_punctuation_and_before_any_letter() -> None:
    h = to_html("**裁定 L1：**リードしたカード。**カードを配る。**54枚を配る。得点に**+3点**、**B1：**同数。")
    assert re.findall(r"<strong>(.*?)</strong>", h) == ["裁定 L1：", "カードを配る。", "+3点", "B1："]
    assert to_html("「**強調**」と*斜体*") == "<p>「<strong>強調</strong>」と<em>斜体</em></p>"


def test_english_emphasis_follows_commonmark() -> None:
    assert to_html("a**b**c and snake_case_name and 2*3*4") == (
        "<p>a<strong>b</strong>c and snake_case_name and 2<em>3</em>4</p>")
    assert to_html("**Ruling L1:** the led suit") == "<p><strong>Ruling L1:</strong> the led suit</p>"


def test_markdown_renders_tables_nested_lists_code_and_quotes() -> None:
    md = ("# Title\n\n- one\n- two\n  - nested\n\n1. first\n2. second\n\n| a | b |\n|---|:-:|\n| 1 | `x|y` |\n\n"
          "```\nco<de>\n  kept\n```\n\n> quoted\n\n---\n")
    h = to_html(md)
    assert "<h1>Title</h1>" in h
    assert "<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>" in h
    assert "<ol><li>first</li><li>second</li></ol>" in h
    assert "<th>a</th>" in h and "<td>1</td>" in h
    assert "<pre><code>co&lt;de&gt;\n  kept\n</code></pre>" in h
    assert "<blockquote><p>quoted</p></blockquote>" in h and "<hr>" in h


def test_a_page_cannot_inject_markup_or_script_links() -> None:
    h = to_html("<script>alert(1)</script> <b>x</b> [x](javascript:alert(1)) [d](data:text/html,hi) "
                "[ok](https://example.org) [rel](rules.md#a) [top](#top)")
    assert "<script>" not in h and "<b>" not in h and "&lt;script&gt;" in h
    assert "javascript:" not in h and "data:" not in h
    assert '<a href="https://example.org">ok</a>' in h
    assert '<a href="rules.md#a">rel</a>' in h and '<a href="#top">top</a>' in h
    assert "x " in h and ">d<" not in h
    assert inline("`<i>` and **b**") == "<code>&lt;i&gt;</code> and <strong>b</strong>"


def test_a_page_is_rendered_once_and_then_served_from_the_cache() -> None:
    md = "# cached page\n\n| a |\n|---|\n| 1 |\n"
    first = to_html(md)
    hits = to_html.cache_info().hits
    assert to_html(md) is first
    assert to_html.cache_info().hits == hits + 1
