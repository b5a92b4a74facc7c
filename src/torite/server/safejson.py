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
import re
from typing import Any, Final

#: deeper than any torite message (an explicit deal is three levels); far below the recursion limit
MAX_DEPTH: Final = 16
#: digits of an integer literal: a seed is at most 20 digits, a count far fewer
MAX_DIGITS: Final = 40


class BadJSON(ValueError):
    """A body or frame that is not JSON torite will read; the message says why, for the sender."""


def _parse_float(text: str) -> float:
    if len(text) > MAX_DIGITS + 10:
        raise BadJSON(f"a number has more than {MAX_DIGITS} digits")
    return float(text)


def _parse_constant(name: str) -> Any:
    raise BadJSON(f"{name} is not a JSON number")


#: for the scans below: every digit made ``0`` and everything else a space; every bracket made
#: ``[`` or ``]`` (depth does not care which kind; a mismatch is the decoder's to find) and all
#: but brackets and quotes deleted
_DIGITS: Final = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
_LONG_NUMBER: Final = b"0" * (MAX_DIGITS + 1)
_ONE_KIND: Final = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE: Final = bytes(b for b in range(256) if b not in b'[]{}"')
_STRING: Final = re.compile(rb'"[^"]*"')


def _prescan(raw: bytes) -> None:
    """Refuse a number of more than ``MAX_DIGITS`` digits, and nesting deeper than ``MAX_DEPTH``
    before the decoder recurses into it.  Each pass is one of ``bytes``' own (C speed: a
    megabyte record costs the event loop about a millisecond, where a loop over its characters
    cost a hundred).  Escaped backslashes and quotes go first, so every quote left opens or
    closes a string; then only quotes and brackets are kept, and two quotes side by side go
    (an empty string, or two strings with nothing but commas and colons between them: made
    one), so the regular expression meets only the rare strings holding a bracket.  The
    brackets left are taken away a level a round, every innermost pair at once: a balanced
    text is empty after as many rounds as it is deep; one that stops shrinking is malformed
    (the decoder says how; its recursion is caught below).  A long run of digits is looked for
    outside the strings only when there is one at all."""
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    if _LONG_NUMBER in unescaped.translate(_DIGITS) and _LONG_NUMBER in _STRING.sub(b"", unescaped).translate(_DIGITS):
        raise BadJSON(f"a number has more than {MAX_DIGITS} digits")
    brackets = _STRING.sub(b"", unescaped.translate(_ONE_KIND, _NOT_STRUCTURE).replace(b'""', b""))
    for _ in range(MAX_DEPTH):
        if not brackets:
            return
        fewer = brackets.replace(b"[]", b"")
        if len(fewer) == len(brackets):
            return
        brackets = fewer
    if brackets:
        raise BadJSON(f"nested more than {MAX_DEPTH} levels deep")


def loads(raw: str | bytes) -> Any:
    """The value of ``raw``, or :class:`BadJSON` saying what is wrong with it."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes | bytearray) else raw
    except UnicodeDecodeError:
        raise BadJSON("the body must be UTF-8 JSON") from None
    _prescan(bytes(raw) if isinstance(raw, bytes | bytearray) else raw.encode("utf-8", "surrogatepass"))
    try:
        value = json.loads(text, parse_float=_parse_float, parse_constant=_parse_constant)
    except BadJSON:
        raise
    except RecursionError:
        raise BadJSON(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as e:
        raise BadJSON(f"not valid JSON ({e})") from None
    return value
