"""Helpers for writing a game's tests: explicit deals from a few named cards, and short drives.

A rules test names only the cards that matter ("seat 2 holds the joker and no hearts") and
wants the rest dealt legally: every hand and dealt pile its declared size, each card of the deck
once.  :func:`deal` completes such a deal from the game's own declarations (hand size, dealt
piles, deck), so the per-game test helpers need not each write their own filler.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from torite.cards import SUITS, parse_card
from torite.engine.base import Action, State
from torite.engine.kit import TrickGame

__all__ = ["act", "cards", "deal", "legal_texts", "play_cards", "why"]


def cards(text: str) -> list[int]:
    """``"AS KS 10D"`` (commas allowed) as cards."""
    return [parse_card(t) for t in text.replace(",", " ").split()]


def deal(game: TrickGame, hands: Mapping[int, str] | Sequence[str] = (), piles: Mapping[str, str] | None = None,
         *, voids: Mapping[int, str] | None = None, piles_first: bool = True, **extras: Any) -> dict[str, Any]:
    """An explicit deal for ``game``: the ``hands`` (seat -> cards text, or a list by seat) and
    ``piles`` (name -> cards, top first) hold at least the cards named, and every other card of
    the deck goes where there is room.

    With ``piles_first`` the dealt piles not fully named take the lowest cards left first (a
    kitty of low cards); otherwise the hands are filled first and the piles take the rest.  A
    hand is filled most constrained card first, each card to the seat with the most room (the
    lowest such seat) that is not void in its suit: ``voids`` maps a seat to suit letters, and
    ``J`` for no joker.  ``extras`` are the game's own deal keys, passed through."""
    named_hands = dict(enumerate(hands)) if isinstance(hands, Sequence) else dict(hands)
    n, size = game.num_players, game.hand_size
    hand_cards = [cards(named_hands.get(s, "")) for s in range(n)]
    dealt = game.dealt_piles()
    pile_cards = {p.name: cards((piles or {}).get(p.name, "")) for p, _ in dealt}
    unknown = set(piles or {}) - set(pile_cards)
    if unknown:
        raise ValueError(f"{game.id} deals no pile {', '.join(sorted(unknown))}")
    used = [c for h in hand_cards for c in h] + [c for p in pile_cards.values() for c in p]
    if len(used) != len(set(used)):
        raise ValueError("a card is named twice")
    rest = sorted(c for c in game.deck if c not in set(used))
    voids = dict(voids or {})

    def fill_piles() -> None:
        for p, k in dealt:
            while len(pile_cards[p.name]) < k:
                pile_cards[p.name].append(rest.pop(0))

    def allowed(c: int) -> list[int]:
        suit = SUITS[c // 13] if c < 52 else "J"
        return [s for s in range(n) if suit not in voids.get(s, "") and len(hand_cards[s]) < size]

    if piles_first:
        fill_piles()
    want = sum(size - len(h) for h in hand_cards)
    order = sorted(rest, key=lambda c: (len(allowed(c)), c))
    for c in order:
        if want == 0:
            break
        room = allowed(c)
        if not room:
            continue
        s = max(room, key=lambda s: (size - len(hand_cards[s]), -s))
        hand_cards[s].append(c)
        rest.remove(c)
        want -= 1
    if want:
        raise ValueError("the hands cannot be filled with the voids asked for")
    fill_piles()
    if rest:
        raise ValueError(f"{len(rest)} cards are left over: name fewer or check the piles' sizes")
    out: dict[str, Any] = {"hands": [[game.card_text(c) for c in h] for h in hand_cards]}
    out |= {name: [game.card_text(c) for c in p] for name, p in pile_cards.items()}
    return out | extras


def act(state: State, *texts: str) -> None:
    """Apply each action text for the (first) seat to act, as the rules read it."""
    for text in texts:
        state.apply_text(state.to_act()[0], text)


def legal_texts(state: State, seat: int | None = None) -> list[str]:
    """The legal actions of ``seat`` (default: the first to act) in the game's notation."""
    seat = state.to_act()[0] if seat is None else seat
    return [state.game.action_text(a) for a in state.legal_actions(seat)]


def play_cards(state: State, *texts: str) -> None:
    """Each named card played by the seat to act (a ``play`` action)."""
    for text in texts:
        state.apply(state.to_act()[0], Action("play", 1 << parse_card(text)))


def why(state: State, text: str) -> str | None:
    """The rule that refuses ``text`` (a card of the hand, played; or an action text) for the
    first seat to act, or None when it is legal: what a face says of a disabled choice."""
    seat = state.to_act()[0]
    action = Action("play", 1 << parse_card(text)) if len(text.split()) == 1 and _is_card(text) \
        else state.game.parse_action(text)
    refusal = state.refusal(seat, action)
    return None if refusal is None else refusal.rule


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


def played_games(rounds: int = 1, seed: int = 7) -> str:
    """Games of every registered game played by bots, as one JSON text: what the test that both
    builds play alike compares byte for byte (the pure build in one process, the compiled in
    another).  Per game: a round of random bots, of the rule-of-thumb bots, and of both search
    bots (on a small budget) among them, each with its actions, result, stats, every event and a
    hash of every observation a bot was given: the rules, the deals, the bots' choices and what
    each seat was shown all agree, or the texts differ."""
    import json
    import random

    from torite.bots import make_bot
    from torite.bots.search import ISMCTSBot, PIMCBot
    from torite.engine.bot import Bot
    from torite.engine.registry import game_ids, make_game

    out: list[dict[str, Any]] = []
    for gid in game_ids():
        game = make_game(gid)
        n = game.num_players
        for mix in ("random", "normal", "search"):
            for r in range(rounds):
                round_seed = seed + 101 * r
                bots: dict[int, Bot] = {}
                for s in range(n):
                    rng = random.Random(round_seed * 10 + s)
                    if mix == "search" and s == 0:
                        bots[s] = ISMCTSBot(game, s, rng, iterations=24)
                    elif mix == "search" and s == 1:
                        bots[s] = PIMCBot(game, s, rng, iterations=24, worlds=4)
                    else:
                        bots[s] = make_bot("random" if mix == "random" else "normal", game, s, rng)
                state = game.new_state(round_seed, dealer=r % n, max_rounds=1, first_round=r)
                actions, shown = _play_logged(state, bots)
                out.append({"game": gid, "bots": mix, "round": r, "actions": actions,
                            "result": state.result().to_json(), "stats": state.stats(),
                            "events": [[e.kind, e.seat, e.data, e.visible] for e in state.events],
                            "observations": shown})
    return json.dumps(out, sort_keys=True, ensure_ascii=False)


def _play_logged(state: State, bots: Mapping[int, Any]) -> tuple[list[str], str]:
    """Let ``bots`` play ``state``; the actions as text and a hash of every observation and
    legal-action list shown after each."""
    import hashlib
    import json

    from torite.engine import driver

    game = state.game
    shown = hashlib.sha256()
    actions: list[str] = []

    def on_action(seat: int, action: Action, _seconds: float) -> None:
        actions.append(f"{seat} {game.action_text(action)}")
        if not state.is_over():
            for s in state.to_act():
                shown.update(json.dumps(state.observation(s), sort_keys=True).encode())
                shown.update(" ".join(map(str, state.legal_actions(s))).encode())

    driver.run(state, bots, on_action=on_action)
    return actions, shown.hexdigest()
