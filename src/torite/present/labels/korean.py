"""Korean particles that follow the sound before them.

A Korean particle has two forms, one after a final consonant and one after a vowel: 카드**를**
but 패**을**, 내**가** but 조커 1**이**.  A template cannot know which, since the word before it
is a value (a card, a name, a number), so it writes both, the way Korean software long has
("이(가)", "을(를)", "은(는)", "과(와)", "(으)로"), and the text is finished here: the dual is
replaced by the form the reading of the preceding text takes.  Where that reading cannot be
known (a name in Latin letters such as "Alice"), the dual form stays: it is still correct
Korean, only stiffer.

The reading of the text's end:

* a Hangul syllable: its final consonant (batchim), if any; ㄹ is told apart, since "(으)로"
  takes 로 after it;
* a number, as Korean reads it: 1 일, 7 칠, 8 팔 end in ㄹ; 3 삼, 6 육, and every multiple of ten
  (십, 백, 천, 만), and 0 (영) in another consonant; 2 이, 4 사, 5 오, 9 구 in a vowel;
* a single Latin letter or an abbreviation in capitals, read letter by letter (a card's rank:
  A 에이, K 케이, Q 큐, J 제이; NT 엔티): L 엘 and R 알 end in ㄹ, M 엠 and N 엔 in another
  consonant, every other letter in a vowel;
* a suit symbol, by its Korean name (스페이드, 하트, 다이아몬드, 클로버: all vowels);
* closing quotes and brackets are passed over (‘A’은(는) reads A);
* a closing parenthetical that glosses the word before it is passed over whole, as Korean
  writes it (컴퓨터(PC)를: the particle follows the word before the parenthesis; "4번
  자리(보통)와").

The web table's own words are finished the same way in ``web/i18n.js``; both are tested
against one table of cases (``tests/present/particles.json``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

Sound = Literal["vowel", "rieul", "consonant"]

#: the dual forms, and the form after a consonant, after a vowel
FORMS: Final = {"이(가)": ("이", "가"), "을(를)": ("을", "를"), "은(는)": ("은", "는"), "과(와)": ("과", "와"),
                "(으)로": ("으로", "로")}
DUAL: Final = re.compile("|".join(re.escape(k) for k in FORMS))
_CLOSING: Final = " \u00a0’”'\")]」』》〉"
_BUT_PAREN: Final = _CLOSING.replace(")", "")
_DIGIT_SOUND: Final[dict[str, Sound]] = {"1": "rieul", "7": "rieul", "8": "rieul", "3": "consonant", "6": "consonant",
                                         "2": "vowel", "4": "vowel", "5": "vowel", "9": "vowel"}
_SUITS: Final = "♠♥♦♣♤♡♢♧"
_TRAILING_DIGITS: Final = re.compile(r"\d+$")
_TRAILING_LETTERS: Final = re.compile(r"[A-Za-z]+$")


def final_sound(text: str) -> Sound | None:
    """How ``text`` ends when read aloud in Korean, or None when that cannot be known."""
    text = text.rstrip(_BUT_PAREN)
    while text.endswith(")") and text.rfind("(") > 0:  # a gloss: read the word it glosses
        text = text[:text.rindex("(")].rstrip(_BUT_PAREN)
    text = text.rstrip(_CLOSING)
    if not text:
        return None
    last = text[-1]
    if "가" <= last <= "힣":
        batchim = (ord(last) - ord("가")) % 28
        return "vowel" if batchim == 0 else "rieul" if batchim == 8 else "consonant"
    if last.isdigit():
        m = _TRAILING_DIGITS.search(text)
        digits = m.group() if m else last
        significant = digits.rstrip("0")
        if significant != digits or not significant:
            return "consonant"  # 십, 백, 천, 만 … and 영
        return _DIGIT_SOUND.get(significant[-1])
    if last.isascii() and last.isalpha():
        m = _TRAILING_LETTERS.search(text)
        word = m.group() if m else last
        if len(word) == 1 or (word.isupper() and len(word) <= 4):
            return "rieul" if last in "LlRr" else "consonant" if last in "MmNn" else "vowel"
        return None  # a word in Latin letters: its sound is its own
    if last in _SUITS:
        return "vowel"
    return None


def particle(dual: str, sound: Sound | None) -> str:
    """The form of ``dual`` after ``sound`` (the dual itself when the sound is unknown)."""
    if sound is None:
        return dual
    after_consonant, after_vowel = FORMS[dual]
    if sound == "vowel" or (sound == "rieul" and dual == "(으)로"):
        return after_vowel
    return after_consonant


def finish(text: str, before: str = "") -> str:
    """``text`` with each dual particle in the form the text before it takes (``before`` is what
    precedes ``text`` itself)."""
    if "(" not in text:
        return text
    out: list[str] = []
    pos = 0
    for m in DUAL.finditer(text):
        out.append(text[pos:m.start()])
        out.append(particle(m.group(), final_sound(before + "".join(out))))
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def finish_parts(parts: Sequence[Any], read: Callable[[Any], str]) -> list[Any]:
    """Rich text (strings and tokens) with its particles finished; ``read`` gives a token's
    words as spoken, which is what a particle after it follows."""
    out: list[Any] = []
    for part in parts:
        if isinstance(part, str) and "(" in part and DUAL.search(part):
            part = finish(part, "".join(p if isinstance(p, str) else read(p) for p in out))
        out.append(part)
    return out
