"""Each game's words, as data beside its rules: ``labels.<lang>.json``.

Why data and not code: the web table, the terminal and any later face must say the same thing
in every language, and a translator (or the author of a new game) should write sentences, not
Python.  Faces hold only generic words ("Your turn", "Score sheet"); everything a game says
comes from here.

Files.  ``src/torite/present/labels/labels.<lang>.json`` holds the words every trick game shares (the
common events, "none", seat names, suit and rank names).  A game's ``labels.<lang>.json`` sits
next to its rules module (like ``rules.<lang>.md``) and is merged over the common file: section
by section, key by key; its ``status`` and ``trick_facts`` lists replace the common ones.  The
languages a game ships are those of its files.

Schema (every section optional in a game's file unless said otherwise)::

    {
      "title": "Trick of the Dead",              # required in a game's file
      "summary": "one line for the lobby",
      "words": {"none": "none", "seat": "seat {n}", "you": "you", ...},
      "suits": {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"},
      "ranks": {"A": "ace", "K": "king", ...},   # a rank's spoken name (others: as written)
      "jokers": {"JK": "Joker", "JK1": "Joker 1", "JK2": "Joker 2"},
      "denominations": {"NT": "no-trump"},       # the words of non-suit contract denominations
      "plurals": {"card": {"one": "{n} card", "other": "{n} cards"}},   # CLDR categories
      "ordinals": {"one": "{n}st", "two": "{n}nd", "few": "{n}rd", "other": "{n}th"},
      "maps": {"turned_at": {"shuffled": "somewhere in the stock", ...}},
      "options": {"survival": {"label": "Survival mode", "help": "…",
                               "choices": {"true": "…"}}},          # choices: by value as text
      "phases": {"bury": {"name": "burial", "prompt": "Choose two cards to bury."}},
      "actions": {"trump": {"label": "trump", "button": "Trump: {arg|suit}"}},
      "status": [{"label": "trump", "value": TEMPLATE, "if": CONDITION}, ...],
      "events": {"play": TEMPLATE, "kaedama_turn": null, ...},       # null: not logged
      "tags": {"zombie": "zombie"},              # a true flag of a trick entry, shown by its card
      "trick_facts": [ROW, ...],                 # rows about a finished trick (over its record)
      "goal": TEMPLATE,                          # how the game is won, in one line (over the options)
      "reasons": {"follow": TEMPLATE, ...},      # why a choice is refused, by rule (over its data)
      "hints": {"safe_high": TEMPLATE, ...},     # why the rule bot chose, by reason (over its data)
      "scoring": {"hearts": "hearts taken"},     # a round summary's rows and steps, by key
      "explain": [ROW, ...],                     # lines writing a round's scoring out (over round_end)
      "roles": [{"label": "president", "seat": KEY, "if": CONDITION}, ...]   # chips on seats
    }

Common words every language defines: ``none``, ``seat``, ``hidden`` (a card not seen, in
text), ``face_down`` (its spoken name), ``item_sep``, ``list_pair``, ``list_last`` and
``list_sep`` (how the language lists names, CLDR's list patterns with ``{0}`` and ``{1}``:
"seat 1 and seat 3", "seat 0, seat 1, and seat 3", "席1、席3", "1번 자리와 3번 자리"),
``label_sep`` and ``seat_sep`` (a per-seat list's "name: value" and what parts two seats),
``round_no`` (a round's name with its number ``{n}`` or its ordinal ``{nth}``: "Round 3",
"Deal 3", "세 번째 판"; a game may also give ``round_word``, its word for a round: "deal", 판),
``yes``, ``no``, ``you``, ``card_name`` (a card's spoken name from ``{rank}`` and ``{suit}``:
"{rank} of {suit}", "{suit}の{rank}", "{suit} {rank}"), ``card_sep`` (between spoken card
names) and ``suit_named`` (a suit with its word, from ``{symbol}`` and ``{name}``: "♥ hearts", "♥ハート").

``plurals`` gives each counted word its forms by the CLDR plural category of the count in the
file's language (Babel's rules): English has ``one`` and ``other``, Japanese and Korean only
``other``; a file must give exactly its language's categories, and ``{n}`` is the count.  Every
count a player reads goes through them (``{points|plural:point}``, never ``{points} points``:
the words tests fail on "1 points").  ``plurals.contract_<denomination>`` is how a contract is
said in words: "1 diamond", "3 diamonds"; a game may put the number after the word, as its
players do ("노기루다 20").
``ordinals`` gives the ordinal's forms the same way (English ``one`` ``two`` ``few`` ``other``:
1st 2nd 3rd 4th), and ``maps.ordinal`` may spell numbers out ahead of them (Korean "첫 번째",
"두 번째"); that map is a language's own, so the languages' files need not share its keys.

Three ``maps`` the tables read besides templates (each optional, per game):

- ``maps.piles``: the piles of cards the table shows, by observation key, with their names.  A
  key is a pile by one rule (``server.live.piles_of``): a list of card texts the seat sees (a
  card it may not see is null, drawn as a back), or null beside an integer ``<key>_size`` (a
  face-down pile, drawn as that many backs).  A card shown in a pile is clickable when a legal
  action plays it (Umbridge's dummy, for its controller).
- ``maps.glossary``: ``"term": "Term: what it means"``; the table underlines the term wherever
  it shows and explains it on hover or tap.  A term whose meaning an option changes is a list
  of variants ``[{"if": CONDITION over the options, "text": …}, …]``: the first that holds under
  the table's options is the one shown (``Labels.glossary(options)``; the web table does the
  same with the options of its state).

A TEMPLATE is a text, ``null`` (say nothing), or a variant ``{"text": …, "you": …, "if": …}``, or
a list of variants of which the first whose ``if`` holds is used.  ``you`` is the second-person
form, used when the event's seat is the reader's own (the terminal passes the person's seat;
the web table passes none): English needs it ("you play"), Japanese does not, Korean does where
a particle follows the player ("내가", not "나이(가)").  A Korean particle after a value is
written in both forms ("{player}이(가)", "{card|card}을(를)"), and rendering keeps the one the
value's reading takes ("1번 자리가 ♠A를"; :mod:`torite.present.labels.korean`).

The sections that teach a newcomer (every game has them; the audit checks each):

- ``goal``: one line on how the game is won, rendered over the game's options (Seconds: the
  second-highest total; Hearts: the lowest); the lobby, the table's header and the game's end say it.
- ``reasons``: why a choice is refused, one template per rule key of
  :class:`~torite.engine.base.Refusal` (the common file: ``follow``, ``not_in_hand``,
  ``not_now``, ``not_your_turn``, ``game_over``; a game: its own rules), rendered over the
  refusal's data ("You must follow suit: you hold ♥.").
- ``hints``: the rule bot's one-line reason for its choice, by the key of its
  :class:`~torite.engine.bot.Reason`, over the reason's data.
- ``scoring``: the words of the round summary's rows and steps
  (:mod:`torite.engine.summary`); a face shows a row's unit (``×1``) beside them.
- ``explain``: rows over the ``round_end`` data that write the scoring out (Mighty's
  ``2·(14 − 13) + (15 − 14) = 3``, Umbridge's contract value, Seconds' deal rule and partners).
- ``roles``: chips a seat's tile carries: ``seat`` is the observation key holding the seat
  (president, declarer, your partner); a game's roles follow the common ones (dealer, leader).

Texts hold placeholders ``{key|formatter|formatter:arg}``; ``{{`` and ``}}`` are braces.  Keys
are read from the context: the observation (status), the event's data (events; ``player`` is
the name of the event's seat, ``seat`` its number), the action (``card``, ``cards``, ``arg``,
``kind``), a finished trick's record (trick facts); ``you`` is the reader's seat (or null)
everywhere.  ``a+b`` joins two lists.  A key the context lacks is an error naming file and
entry.  Formatters:

    card       one card (a card text; null is a card not seen)
    cards      a list of cards (empty: nothing, so ``|or:WORD`` can name it)
    suit       a suit letter, shown with its word (♥ hearts)
    symbol     a suit letter, shown as its symbol alone (♥)
    contract   a contract or bid "LEVEL DENOMINATION" (14♥, 14 노기루다, 3NT)
    level      a contract's level alone (14)              players  a list of seats as their names,
                                                          joined as the language lists them
    plural:W   a count with the word plurals[W] in the form its number takes (1 card, 2 cards)
    ordinal    a number as an ordinal: maps.ordinal spells it out (두 번째), else ordinals (2nd)
    seats      a per-seat list as "a / b / c"          player   a seat number as its name
    by_seat    a per-seat list as "name: value; …", empty values left out (words.label_sep,
               words.seat_sep);
               a list value as cards, or each value through a formatter: ``by_seat:card``,
               ``by_seat:player``
    signed     +3, -2, +0                              plus1    a count from 0, shown from 1
    count      the length of a list                    phase    a phase id as its name
    map:NAME   the value through maps[NAME] (a list:   or:WORD  words[WORD] if the value is empty
               each item, joined by words.item_sep)
                                                                (and nothing after it applies)

Without a formatter a value shows as text, a list of numbers as ``[1, 2, 3]``: a card, a suit
or a contract always goes through its formatter, so no face shows the action notation.

Rendering is structured.  A template renders to *rich text*: a list of parts, each a plain
string or a token, a JSON object naming what it stands for rather than how it looks:

    {"t": "card", "card": "AS"}            {"t": "cards", "cards": ["AS", null]}
    {"t": "suit", "suit": "H", "word": false}   (word: shown with its name, "♥ hearts")
    {"t": "contract", "level": 14, "denom": "NT"}

Each face draws tokens with its one formatter (the web: DOM nodes, the terminal: Rich text);
``Labels.text`` is the plain one: the compact form every face shows (a card ``♠A``, ``♥10``, a
joker by its word, a suit ``♥``, a contract ``14♥`` or ``14 노기루다``: a denomination's word
follows the level after a space, unless it is an abbreviation in capitals, "3NT"), and with
``spoken=True`` the spelled-out names (``ace of spades``, ``スペードのA``, ``스페이드 A``) that
screen readers and the terminal's line mode read.  ``status``, ``event_text``, ``action_text``
and ``trick_facts`` return plain text; the ``*_rich`` methods the structure.

A CONDITION is ``clause & clause …``; a clause is ``key`` (holds when the value is not null,
false, empty text or an empty list; 0 holds), ``!key``, or ``key == x`` / ``key != x`` where x is
a key, ``null``, ``true``, ``false``, a number or ``'text'``, or ``key < x`` (``>``, ``<=``,
``>=``), which holds between numbers only.  A missing key reads as null.

Names.  ``names`` gives each seat's name (the web table: the seat names chosen in the lobby);
a seat without one is ``words.seat`` with ``{n}`` its number ("seat 0", "席0").
"""

from torite.present.labels.files import (
    COMMON_DIR,
    Langs,
    action_text,
    catalog,
    event_text,
    event_texts,
    explain_texts,
    game_folder,
    goal_texts,
    hint_texts,
    languages,
    load,
    reason_texts,
    status,
    view_texts,
)
from torite.present.labels.templates import SUIT_SYMBOLS, LabelError
from torite.present.labels.words import TOKEN_KINDS, Labels, Rich, Token, plural_categories, plural_category

__all__ = ["COMMON_DIR", "SUIT_SYMBOLS", "TOKEN_KINDS", "LabelError", "Labels", "Langs", "Rich", "Token", "action_text",
           "catalog", "event_text", "event_texts", "explain_texts", "game_folder", "goal_texts", "hint_texts",
           "languages", "load", "plural_categories", "plural_category", "reason_texts", "status", "view_texts"]
