"""The languages the tables offer, in one place: every face and test reads this list."""

from __future__ import annotations

from typing import Final

#: code -> the language's own name, in the order a language menu lists them
LANGUAGES: Final = {"en": "English", "ja": "日本語", "ko": "한국어"}
