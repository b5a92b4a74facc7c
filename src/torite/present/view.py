"""One seat's view of the game: the one picture every face draws.

Why one: the web table, the Textual table and the line mode each used to assemble what a seat
is shown from the raw observation themselves (the hand parsed from text to be sorted, a legal
action's cards cut out of its own text, the auction parsed again from action texts), so two faces
could disagree about the same state.  Here it is built once, typed and in integers (cards are
ints, text only at the edges), from exactly what the seat may know:
``state.observation(seat)``, its legal actions and the rules' refusals of what it may not do.
The faces render a :class:`SeatView` and its :class:`ViewWords` (the same view in one language)
and read nothing else of the game: the web sends both as JSON (``torite.server.viewjson``), the
terminal draws them (``torite.cli``).

What a face may read is declared by the fields below; the observation stays inside
(:attr:`SeatView.observation`) only because the labels' templates are written over it (status
rows, prompts, roles).  Bots, records and the leak tests keep reading the observation itself.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from torite.cards import parse_card
from torite.engine.base import Action, Game, IllegalAction, Refusal, Result, State
from torite.engine.phases import Contract
from torite.present import decision as decisions
from torite.present.decision import Decision
from torite.present.labels import LabelError, Labels, Rich
from torite.present.labels import load as load_labels

log = logging.getLogger("torite.present")


@dataclass(frozen=True, slots=True)
class Played:
    """A card lying in a trick: who played it, the card (None: face down, not seen) and its tags
    (the trick entry's true flags, such as a zombie's; the labels' ``tags`` name them)."""

    seat: int
    card: int | None
    tags: tuple[str, ...] = ()
    #: the pile it was played from for its owner (Umbridge's dummy), None from a hand
    pile: str | None = None


@dataclass(frozen=True, slots=True)
class TrickView:
    """A trick as it lies, or a finished one: its cards in the order played, who led, the suit
    led (a letter, or None), and who wins it as it lies (the current trick) or took it (a
    finished one).  ``record`` is a finished trick's record, over which the labels write its
    facts (``trick_facts``)."""

    cards: tuple[Played, ...] = ()
    leader: int | None = None
    led: str | None = None
    winner: int | None = None
    record: Mapping[str, Any] | None = None

    def card_of(self, seat: int) -> Played | None:
        return next((p for p in self.cards if p.seat == seat), None)


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What the table shows on one seat's tile (None: the game keeps no such count), and its
    hand when the view lays it open (a replay's open view; never another seat's in play)."""

    hand_size: int | None = None
    tricks_won: int | None = None
    round_points: int | None = None
    score: int | None = None
    open_hand: tuple[int | None, ...] | None = None


@dataclass(frozen=True, slots=True)
class PileView:
    """A pile the game declares (``schema()["piles"]``), as this seat sees it: its cards (a card
    it may not see is None, drawn as a back) or, when it sees none of it, None and a count."""

    name: str
    cards: tuple[int | None, ...] | None
    count: int


@dataclass(frozen=True, slots=True)
class Call:
    """One call of an auction, as a bidding history writes it: a bid's contract or card(s), or
    another call by its kind (the labels name it: pass, double)."""

    seat: int
    kind: str
    cards: tuple[int, ...] = ()
    contract: Contract | None = None


@dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` (None: a spectator) is shown now; see the module's docstring."""

    game: Game
    seat: int | None
    phase: str
    round: int | None
    max_rounds: int | None
    dealer: int | None
    over: bool
    to_act: tuple[int, ...]
    #: the seat's hand in the game's display order
    hand: tuple[int, ...]
    seats: tuple[SeatFacts, ...]
    trick: TrickView
    #: the last finished trick (None before the first)
    last_trick: TrickView | None
    piles: tuple[PileView, ...]
    #: the bidding so far (None: the game keeps no auction)
    auction: tuple[Call, ...] | None
    contract: Contract | None
    #: the trump suit's letter where the game keeps one as ``trump`` (None: no trump, or not yet)
    trump: str | None
    #: what the seat may do now, in the state's order (empty when it does not decide)
    legal: tuple[Action, ...]
    #: the legal actions grouped by the widget that offers them (None when it does not decide)
    decision: Decision | None
    #: why each card the decision leaves out (of the hand, or of a pile played from) is refused
    refused_cards: Mapping[int, Refusal]
    #: why each bidding cell or call the decision shows disabled is refused
    refused_actions: Mapping[Action, Refusal]
    round_scores: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...] | None
    #: the data of the last round's end the seat saw (its summary), None before the first
    round_end: Mapping[str, Any] | None
    result: Result | None
    #: for the labels' templates only (see the module's docstring)
    observation: Mapping[str, Any] = field(repr=False)

    @property
    def deciding(self) -> bool:
        return bool(self.legal)

    @property
    def num_players(self) -> int:
        return self.game.num_players


def view(state: State, seat: int | None, *, obs: Mapping[str, Any] | None = None,
         deciding: bool | None = None) -> SeatView:
    """``seat``'s view of ``state`` (None: a spectator's).  ``obs`` is its observation unless
    given (a replay's open view passes the spectator's with every hand laid open); ``deciding``
    says whether the seat's decision is offered (default: when it is one of the seats to act; the
    terminal waits while a bot of the same simultaneous phase has still to move)."""
    game = state.game
    if obs is None:
        obs = state.observation(seat)
    over = state.is_over()
    to_act = tuple(state.to_act())
    if deciding is None:
        deciding = seat is not None and seat in to_act
    legal = tuple(state.legal_actions(seat)) if deciding and seat is not None and not over else ()
    hand = tuple(sorted(_cards(obs.get("hand")), key=game.sort_key))
    phase = str(obs.get("phase", ""))
    grouped: Decision | None = None
    refused_cards: dict[int, Refusal] = {}
    refused_actions: dict[Action, Refusal] = {}
    if legal:
        form = decisions.phase_of(game.phases(), phase)
        grouped = decisions.group(form, legal, hand)
        assert seat is not None
        refused_cards, refused_actions = decisions.refused(state, seat, form, grouped, obs)
    ends = [e for e in state.events if e.kind == "round_end" and e.visible_to(seat)]
    schema = game.schema()
    piles = frozenset(p["name"] for p in schema["piles"])
    return SeatView(
        game=game, seat=seat, phase=phase, round=_int(obs.get("round")), max_rounds=_int(obs.get("max_rounds")),
        dealer=_int(obs.get("dealer")), over=over, to_act=to_act, hand=hand,
        seats=_seat_facts(game, obs), trick=_trick(obs, piles), last_trick=_last_trick(game.num_players, obs, piles),
        piles=_piles(schema, obs), auction=_auction(game, obs), contract=_contract(obs.get("contract")),
        trump=obs["trump"] if obs.get("trump") in ("C", "D", "H", "S") else None,
        legal=legal, decision=grouped, refused_cards=refused_cards, refused_actions=refused_actions,
        round_scores=tuple(tuple(r) for r in obs.get("round_scores") or ()),
        scores=tuple(obs["scores"]) if isinstance(obs.get("scores"), list) else None,
        round_end=ends[-1].data if ends else None, result=state.result() if over else None,
        observation=obs)


# ---------------------------------------------------------------- the parts, from the observation
def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _card(text: Any) -> int | None:
    """A card text of the observation as its int (None: a card not seen)."""
    if text is None:
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    return parse_card(str(text))


def _cards(texts: Any) -> list[int]:
    return [c for c in (_card(t) for t in texts or ()) if c is not None]


def _seen(texts: Any) -> tuple[int | None, ...]:
    return tuple(_card(t) for t in texts)


def _per_seat(obs: Mapping[str, Any], key: str, n: int) -> list[Any]:
    v = obs.get(key)
    return list(v) if isinstance(v, list) and len(v) == n else [None] * n


def _seat_facts(game: Game, obs: Mapping[str, Any]) -> tuple[SeatFacts, ...]:
    n = game.num_players
    sizes, won = _per_seat(obs, "hand_sizes", n), _per_seat(obs, "tricks_won", n)
    points, scores = _per_seat(obs, "round_points", n), _per_seat(obs, "scores", n)
    hands = _per_seat(obs, "hands", n)
    return tuple(SeatFacts(_int(sizes[i]), _int(won[i]), _int(points[i]), _int(scores[i]),
                           _open(game, hands[i]) if isinstance(hands[i], list) else None) for i in range(n))


def _open(game: Game, texts: Sequence[Any]) -> tuple[int | None, ...]:
    """A hand laid open, in the order the table shows one's own (cards not seen last)."""
    seen = _seen(texts)
    known = sorted((c for c in seen if c is not None), key=game.sort_key)
    return (*known, *(None for c in seen if c is None))


def _trick(obs: Mapping[str, Any], piles: frozenset[str]) -> TrickView:
    played = []
    for e in obs.get("trick") or ():
        if isinstance(e, Mapping) and isinstance(e.get("seat"), int):
            tags = tuple(k for k, v in e.items() if v is True and k not in ("seat", "card"))
            played.append(Played(e["seat"], _card(e.get("card")), tags, _pile_of(tags, piles)))
    led = obs.get("led")
    return TrickView(tuple(played), _int(obs.get("leader")), led if isinstance(led, str) else None,
                     _int(obs.get("winning")))


def _pile_of(tags: Sequence[str], piles: frozenset[str]) -> str | None:
    return next((t for t in tags if t in piles), None)


def _last_trick(n: int, obs: Mapping[str, Any], piles: frozenset[str]) -> TrickView | None:
    tricks = obs.get("tricks") or []
    last = tricks[-1] if tricks and isinstance(tricks[-1], Mapping) else None
    if last is None or not isinstance(last.get("cards"), list):
        return None
    cards = last["cards"]
    leader = _int(last.get("leader"))
    seats = last.get("seats") or [((leader or 0) + k) % n for k in range(len(cards))]
    led = last.get("led")
    played = []
    for i, (s, c) in enumerate(zip(seats, cards)):
        # a finished trick's per-card flags are lists, one flag a card (the dummy's, a zombie's)
        tags = tuple(k for k, v in last.items() if isinstance(v, list) and len(v) == len(cards)
                     and k not in ("seats", "cards") and v[i] is True)
        played.append(Played(s, _card(c), tags, _pile_of(tags, piles)))
    return TrickView(tuple(played), leader, led if isinstance(led, str) else None, _int(last.get("winner")), last)


def _piles(schema: Mapping[str, Any], obs: Mapping[str, Any]) -> tuple[PileView, ...]:
    """The piles the game declares, as the seat's observation shows them: the cards of one it
    sees, or the size of one it does not."""
    out = []
    for p in schema["piles"]:
        name = p["name"]
        cards = obs.get(name)
        if isinstance(cards, list):
            out.append(PileView(name, _seen(cards), len(cards)))
        else:
            size = obs.get(name + "_size")
            out.append(PileView(name, None, size if isinstance(size, int) else 0))
    return tuple(out)


def _auction(game: Game, obs: Mapping[str, Any]) -> tuple[Call, ...] | None:
    """The observation's public ``auction`` (``[[seat, action text], …]``) as calls."""
    entries = obs.get("auction")
    if not isinstance(entries, list):
        return None
    out = []
    for seat, text in entries:
        try:
            a = game.parse_action(text)
        except (IllegalAction, ValueError):
            continue
        out.append(Call(seat, a.kind, tuple(_bits(a.cards)), _contract(a.arg) if a.arg and not a.cards else None))
    return tuple(out)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _contract(text: Any) -> Contract | None:
    if not isinstance(text, str):
        return None
    try:
        return Contract.parse(text)
    except ValueError:
        return None


def card_texts(game: Game, cards: Sequence[int | None]) -> list[str | None]:
    """Cards in the game's notation (None stays None: a card not seen), for a face's edge."""
    return [None if c is None else game.card_text(c) for c in cards]


# ---------------------------------------------------------------- the view in words
@dataclass(frozen=True, slots=True)
class StatusRow:
    """A row of the game's status (the contract, the trump, …); a pinned one stays in view."""

    label: str
    value: Rich
    pinned: bool = False


@dataclass(frozen=True, slots=True)
class ViewWords:
    """A :class:`SeatView` in one language, as rich text (each face draws its tokens): what the
    game's labels say over it.  Every field renders the view, none reads the state."""

    lang: str
    labels: Labels
    phase: str
    prompt: Rich | None
    goal: Rich | None
    status: tuple[StatusRow, ...]
    #: each seat's role chips (dealer, president, declarer, your partner…)
    roles: tuple[tuple[str, ...], ...]
    #: the last trick's facts (winner, points…)
    last_trick: tuple[tuple[str, Rich], ...]
    #: each legal action's button, and each refused call's (the bidding box shows them struck)
    actions: Mapping[Action, Rich]
    refused_cards: Mapping[int, Rich]
    refused_actions: Mapping[Action, Rich]
    #: the last round's scoring written out (``explain`` over its end)
    explain: tuple[tuple[str, Rich], ...]


#: a label bug must not take a face down: the part is left out (or a plain fallback shown) and
#: logged; the labels tests are what catch the bug
RENDER_ERRORS = (LabelError, KeyError, TypeError, ValueError, IndexError)


def words(v: SeatView, lang: str, names: Sequence[str | None] | None = None, *,
          you: int | None = None) -> ViewWords:
    """``v`` in ``lang``: ``names`` names the seats (the web: the names chosen in the lobby; the
    terminal: "you" for the person), ``you`` is the reader's seat where a text has a
    second-person form ("you win the trick"; the web passes None)."""
    lab = load_labels(v.game, lang)
    obs = v.observation

    def part(what: str, make: Any, fallback: Any) -> Any:
        try:
            return make()
        except RENDER_ERRORS as e:
            _logged(f"{v.game.id} {lang} {what}", e)
            return fallback

    def refusal(why: Refusal) -> Rich:
        said: Rich = part(f"reason {why.rule}", lambda: lab.reason_rich(why.rule, why.data, names),
                          lab.reason_rich("not_now", {}))
        return said

    actions: dict[Action, Rich] = {}
    for a in (*v.legal, *v.refused_actions):
        actions[a] = part(f"action {a}", lambda a=a: lab.action_rich(a), [lab.action_label(a.kind)])
    last = v.last_trick
    phase = lab.phase_name(v.phase) if v.phase else ""
    prompt = part("prompt", lambda: lab.prompt_rich(obs), None)
    status = [StatusRow(k, r, p) for k, r, p in part("status", lambda: lab.status_pinned(obs, names), [])]
    if prompt and v.legal:
        # a row named after the phase (Kaedama's 替え玉 in 替え玉フェーズ) says what the phase asks;
        # to the seat deciding it the prompt says it already, and every face would say it twice
        status = [row for row in status if not (row.label and phase.lower().startswith(row.label.lower()))]
    return ViewWords(
        lang=lang, labels=lab, phase=phase,
        prompt=prompt,
        goal=part("goal", lambda: lab.goal_rich(v.game.options), None),
        status=tuple(status),
        roles=tuple(tuple(r) for r in part("roles", lambda: lab.roles(obs), [])),
        last_trick=tuple(part("trick facts", lambda: lab.trick_facts_rich(last.record, names, v.seat), []))
        if last is not None and last.record is not None else (),
        actions=actions,
        refused_cards={c: refusal(why) for c, why in v.refused_cards.items()},
        refused_actions={a: refusal(why) for a, why in v.refused_actions.items()},
        explain=tuple(part("explain", lambda: lab.explain_rich(v.round_end, names, you), []))
        if v.round_end is not None else ())


def _logged(what: str, exc: Exception) -> None:
    log.error("labels: %s: %s", what, exc)
