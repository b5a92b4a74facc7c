"""An action: one decision, as a kind, the cards it names and any other argument.

Its own module because every layer needs it and it needs nothing of theirs: the protocol
(:mod:`torite.engine.base`) and the declared phases (:mod:`torite.engine.phases`) both read it,
and neither may import the other for it (that was the engine's one import circle).
"""

from __future__ import annotations

from typing import NamedTuple

from torite.cards import card_str, iter_bits, parse_card


class Action(NamedTuple):
    """One decision: a kind, the cards it names (a mask) and any other argument.

    The text notation is ``kind [cards…] [arg]`` – ``play 10D``, ``bury QC KC``, ``trump S``,
    ``call H``, ``replace``, ``pass`` – and :meth:`parse` reads it back.
    """

    kind: str
    cards: int = 0
    arg: str = ""

    def __str__(self) -> str:
        parts = [self.kind]
        parts.extend(card_str(c) for c in iter_bits(self.cards))
        if self.arg:
            parts.append(self.arg)
        return " ".join(parts)

    @property
    def card(self) -> int:
        """The single card a ``play``-like action names."""
        return self.cards.bit_length() - 1

    @classmethod
    def parse(cls, text: str) -> Action:
        tokens = text.split()
        if not tokens:
            raise ValueError("empty action")
        kind = tokens[0].lower()
        cards = 0
        rest: list[str] = []
        for tok in tokens[1:]:
            if rest:
                rest.append(tok)
                continue
            try:
                c = parse_card(tok)
            except ValueError:
                rest.append(tok)
                continue
            if cards >> c & 1:
                raise ValueError(f"card {card_str(c)} named twice in {text!r}")
            cards |= 1 << c
        return cls(kind, cards, " ".join(rest).upper() if rest else "")
