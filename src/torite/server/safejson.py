"""JSON from strangers: parse a request body or a WebSocket frame, or refuse it with a reason.

Why not plain ``json.loads``: a body of sixty thousand ``[`` overflows the decoder's recursion
(``RecursionError``, which no ``except ValueError`` catches), and an integer of more than 4,300
digits trips Python's int-conversion guard — both escaped as HTTP 500 or a dropped socket with a
traceback.  Nothing torite accepts needs deep nesting, long numbers or ``NaN``, so all three are
refused here, before any table sees the value, with one exception type the faces turn into a
400 or an error message.
"""

from __future__ import annotations

import json
from typing import Any, Final

#: deeper than any torite message (an explicit deal is three levels); far below the recursion limit
MAX_DEPTH: Final = 16
#: digits of an integer literal: a seed is at most 20 digits, a count far fewer
MAX_DIGITS: Final = 40


class BadJSON(ValueError):
    """A body or frame that is not JSON torite will read; the message says why, for the sender."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadJSON(f"a number has more than {MAX_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_DIGITS + 10:
        raise BadJSON(f"a number has more than {MAX_DIGITS} digits")
    return float(text)


def _parse_constant(name: str) -> Any:
    raise BadJSON(f"{name} is not a JSON number")


def _check_depth(value: Any) -> None:
    """Iterative, so the check itself cannot overflow."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            children: Any = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        if depth > MAX_DEPTH:
            raise BadJSON(f"nested more than {MAX_DEPTH} levels deep")
        stack.extend((c, depth + 1) for c in children)


def _depth_prescan(text: str) -> None:
    """Refuse absurd nesting before the decoder recurses into it (cheap: one pass over the text,
    brackets inside strings skipped)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise BadJSON(f"nested more than {MAX_DEPTH} levels deep")
        elif ch in "]}":
            depth -= 1


def loads(raw: str | bytes) -> Any:
    """The value of ``raw``, or :class:`BadJSON` saying what is wrong with it."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes | bytearray) else raw
    except UnicodeDecodeError:
        raise BadJSON("the body must be UTF-8 JSON") from None
    _depth_prescan(text)
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                           parse_constant=_parse_constant)
    except BadJSON:
        raise
    except RecursionError:
        raise BadJSON(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as e:
        raise BadJSON(f"not valid JSON ({e})") from None
    _check_depth(value)
    return value
