"""A small Markdown-to-HTML converter for the rules pages.

The web table must load nothing from the internet and the project keeps its dependencies few,
so this covers only what the rules pages use: headings, paragraphs, nested lists, tables,
block quotes, fenced code, rules, and inline code, bold, italic and links.  All text is
HTML-escaped first, and links keep only http(s), relative and fragment targets, so a rules
page cannot inject markup or script.
"""

from __future__ import annotations

import html
import re

_INLINE_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_LIST = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_HR = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _safe_url(url: str) -> str | None:
    low = url.lower()
    if low.startswith(("http://", "https://", "#", "/")) or not re.match(r"^[a-z][a-z0-9+.-]*:", low):
        return url
    return None


def inline(text: str) -> str:
    """Escape then apply inline markup; code spans are protected from the other rules."""
    codes: list[str] = []

    def keep_code(m: re.Match[str]) -> str:
        codes.append(f"<code>{html.escape(m.group(1), quote=False)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    text = _INLINE_CODE.sub(keep_code, text)
    text = html.escape(text, quote=False)

    def link(m: re.Match[str]) -> str:
        url = _safe_url(html.unescape(m.group(2)))
        if url is None:
            return m.group(1)
        return f'<a href="{html.escape(url, quote=True)}">{m.group(1)}</a>'

    text = _LINK.sub(link, text)
    text = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", text)
    text = _ITALIC.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", text)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], text)


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip() for c in s.split("|")]


def _list_html(items: list[tuple[int, str, str]]) -> str:
    """Items are (indent, marker, text); deeper indents nest inside the previous item."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent, tag)
    for indent, marker, text in items:
        tag = "ol" if marker[0].isdigit() else "ul"
        if stack and indent > stack[-1][0]:
            out.append(f"<{tag}>")
            stack.append((indent, tag))
        else:
            while stack and indent < stack[-1][0]:
                out.append(f"</li></{stack.pop()[1]}>")
            if stack:
                out.append("</li>")
            else:
                out.append(f"<{tag}>")
                stack.append((indent, tag))
        out.append(f"<li>{inline(text)}")
    while stack:
        out.append(f"</li></{stack.pop()[1]}>")
    return "".join(out)


def to_html(md: str) -> str:
    """Convert a Markdown document into an HTML fragment."""
    lines = md.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    para: list[str] = []
    i = 0

    def flush() -> None:
        if para:
            out.append(f"<p>{inline(' '.join(x.strip() for x in para))}</p>")
            para.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            body: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body.append(lines[i])
                i += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(body), quote=False)}</code></pre>")
            i += 1
            continue
        if not stripped:
            flush()
            i += 1
            continue
        m = _HEADING.match(stripped)
        if m:
            flush()
            level = len(m.group(1))
            out.append(f"<h{level}>{inline(m.group(2))}</h{level}>")
            i += 1
            continue
        if _HR.match(stripped):
            flush()
            out.append("<hr>")
            i += 1
            continue
        if "|" in stripped and i + 1 < len(lines) and _TABLE_SEP.match(lines[i + 1]):
            flush()
            head = _cells(stripped)
            rows: list[list[str]] = []
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                rows.append(_cells(lines[i]))
                i += 1
            parts = ["<table><thead><tr>", *(f"<th>{inline(c)}</th>" for c in head), "</tr></thead><tbody>"]
            for r in rows:
                parts.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>")
            parts.append("</tbody></table>")
            out.append("".join(parts))
            continue
        if stripped.startswith(">"):
            flush()
            quote: list[str] = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                quote.append(lines[i].strip()[1:].removeprefix(" "))
                i += 1
            out.append(f"<blockquote>{to_html(chr(10).join(quote))}</blockquote>")
            continue
        if _LIST.match(line):
            flush()
            items: list[tuple[int, str, str]] = []
            while i < len(lines):
                lm = _LIST.match(lines[i])
                if lm:
                    items.append((len(lm.group(1).expandtabs(4)), lm.group(2), lm.group(3)))
                elif lines[i].strip() and items and lines[i].startswith((" ", "\t")):
                    indent, marker, text = items[-1]
                    items[-1] = (indent, marker, text + " " + lines[i].strip())  # continuation line
                else:
                    break
                i += 1
            out.append(_list_html(items))
            continue
        para.append(line)
        i += 1
    flush()
    return "\n".join(out)
