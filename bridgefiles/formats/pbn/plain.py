"""The fast path of a section's data: rows of plain calls or cards, read in one pass.

Most data of a real file is plain: calls or cards one space apart, a note reference
``=n=`` now and then, ``AP`` or ``*`` at the end. This path reads such data as the
token path (sections.py) would and gives up, having changed nothing, on anything
else (DESIGN.md, Performance).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import repeat
from typing import NamedTuple, cast

from bridgefiles.formats.pbn.items import Item, call_fields
from bridgefiles.model.auction import AuctionEnd
from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from bridgefiles.model.cards import ALL_CARDS, Card
from bridgefiles.model.play import plain_card_fields as card_fields
from bridgefiles.model.play import plain_card_rows

# The plain words of a section, as the token path reads them (Card.parse, Call.parse).
PLAIN_CARDS: dict[str, Card] = {}
for _card in ALL_CARDS:
    for _s in (_card.suit.value, _card.suit.value.lower()):
        for _r in (_card.rank.char, _card.rank.char.lower()):
            PLAIN_CARDS[_s + _r] = _card
PLAIN_INDICES: dict[str, int] = {word: card.index for word, card in PLAIN_CARDS.items()}
PLAIN_CALLS: dict[str, Call] = {"Pass": PASS, "PASS": PASS, "pass": PASS}
for _call in (DOUBLE, REDOUBLE, *ALL_BIDS):
    PLAIN_CALLS[_call.text] = _call
    PLAIN_CALLS[_call.text.lower()] = _call
NOTE_REFS = {f"={n}=": n for n in range(1, 33)}  # the note references the token path takes
_WORD = re.compile(r"\S+")


class Plain(NamedTuple):
    """What the fast path read: the calls or cards (plain ones as their models' fields,
    those with a note reference as Items), the references, and the ending AP or '*'."""

    found: list[Item | dict[str, object]]
    refs: list[tuple[int, int, int]]  # (n, line, column)
    end: Item | None
    end_mark: str
    indices: list[int] | None = None  # the cards' indices, when the fast path has them


# What str.splitlines takes for a line end, one row at a time: a section's data may be
# megabytes, and its rows are read one by one, never listed all at once.
_ENDS = "\n\r\v\f\x1c-\x1e\x85\u2028\u2029"
_ROW = re.compile(rf"([^{_ENDS}]*)(?:\r\n|[{_ENDS}])?")


def rows_of(text: str) -> Iterator[str]:
    """``text.splitlines()``, lazily."""
    for m in _ROW.finditer(text):
        if not m.group():
            return
        yield m.group(1)


def _words(row: str, base: int) -> list[tuple[str, int]]:
    return [(m.group(), base + m.start()) for m in _WORD.finditer(row)]


# Where the k-th card of a play laid out four to a row stands: its row, and its column
# in a row that starts in column 1 ("H9 H3 HK HA": columns 1, 4, 7 and 10).
_ROW_OF = tuple(k // 4 for k in range(52))
_COLUMN_OF = tuple(1 + 3 * (k % 4) for k in range(52))
_ROW_LENGTHS = frozenset({2, 5, 8, 11})


def _card_rows(text: str, line: int) -> Plain | None:
    """Play data in its usual layout, read in a few C-level passes: rows of four plain
    cards one space apart starting in column 1, the last row maybe shorter, and maybe a
    last row ``*``. None for anything else (the row by row path reads it). The same
    cards, lines and columns as the row by row path gives."""
    if text.count("\n") > 14:  # more rows than a play has (checked before splitting them all)
        return None
    rows = text.splitlines()
    end: Item | None = None
    if rows[-1] == "*":
        end = Item(line + len(rows) - 1, 1)
        rows.pop()
    if not rows or len(rows) > 13:
        return None
    lengths = list(map(len, rows))
    if lengths[-1] not in _ROW_LENGTHS or lengths[:-1].count(11) != len(rows) - 1:
        return None
    words = text.split()
    if end is not None:
        words.pop()
    # each row holds at most (length + 1) // 3 words of two letters: as many words as
    # that in all means each row is laid out exactly so
    if len(words) != 4 * len(rows) - 4 + (lengths[-1] + 1) // 3:
        return None
    cards = list(map(PLAIN_CARDS.get, words))
    if not all(cards):  # (a card is always true: no __eq__ called)
        return None
    fields = plain_card_rows(cards, map(line.__add__, _ROW_OF), _COLUMN_OF)  # type: ignore[arg-type]
    found = cast(list[Item | dict[str, object]], fields)  # (field rows only)
    indices = list(map(PLAIN_INDICES.__getitem__, words))  # (every word is a card)
    return Plain(found, [], end, "*" if end is not None else "", indices)


def read_plain(
    text: str, line: int, column: int, play: bool, most: int | None = None
) -> Plain | None:
    """The data ``text`` (starting at ``line``:``column``) of a Play (``play``) or
    Auction section, if it is plain; None when the token path must read it. Past
    ``most`` tokens it gives up as soon as it gets there (the token path reads up to the
    limit and says so), so a section of millions of calls builds no more than ``most``."""
    if play and column == 1 and text:
        rows = _card_rows(text, line)
        if rows is not None:
            return rows
    found: list[Item | dict[str, object]] = []
    refs: list[tuple[int, int, int]] = []
    end: Item | None = None  # AP or '*', the last word
    end_mark = ""
    cards, calls, note_refs = PLAIN_CARDS, PLAIN_CALLS, NOTE_REFS
    for i, row in enumerate(rows_of(text)):
        if most is not None and len(found) + len(refs) > most:
            return None
        ln = line + i
        base = column if i == 0 else 1
        words = row.split()
        pairs: Iterable[tuple[str, int]]
        if end is None and " ".join(words) == row:  # words one space apart
            if play and len(row) == 3 * len(words) - 1:
                # two-character words (the usual play row): plain cards, all of them?
                columns = range(base, base + len(row), 3)
                row_cards = list(map(cards.get, words))
                if all(row_cards):  # (no None: a card is always true, no __eq__ called)
                    found.extend(map(card_fields, row_cards, repeat(ln), columns))
                    continue
                pairs = zip(words, columns, strict=True)
            elif not play:
                row_calls = list(map(calls.get, words))
                if all(row_calls):  # plain calls only (no None)
                    col = base
                    for call, word in zip(row_calls, words, strict=True):
                        found.append(call_fields(call, ln, col))  # type: ignore[arg-type]
                        col += len(word) + 1
                    continue
                pairs = _words(row, base)
            else:
                pairs = _words(row, base)
        else:
            pairs = _words(row, base)
        for word, col in pairs:
            if end is not None:
                return None  # something after AP or '*': the token path reports it
            if play:
                card = cards.get(word)
                if card is not None:
                    found.append(card_fields(card, ln, col))
                    continue
            else:
                call = calls.get(word)
                if call is not None:
                    found.append(call_fields(call, ln, col))
                    continue
                if word.upper() == "AP":
                    end_mark = AuctionEnd.ALL_PASS.value
                    end = Item(ln, col)
                    continue
            ref = note_refs.get(word)
            if ref is not None and found and not isinstance(found[-1], Item):
                last = found[-1]  # as the token path reads =n=
                target = found[-1] = Item(
                    last["line"],  # type: ignore[arg-type]
                    last["column"],  # type: ignore[arg-type]
                    card=last.get("card"),  # type: ignore[arg-type]
                    call=last.get("call"),  # type: ignore[arg-type]
                )
                target.note = ref
                target.last = "note"
                refs.append((ref, ln, col))
                continue
            if word != "*":
                return None
            end_mark = "*"
            end = Item(ln, col)
    return Plain(found, refs, end, end_mark)
