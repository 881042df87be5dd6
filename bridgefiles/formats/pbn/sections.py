"""The Auction and Play sections: call and card tokens with their annotations.

A section's tokens come from the grammar (grammars/pbn.lark), one at a time, each
with its terminal: a call or card, a row of plain ones (CALLS, CARDS: built as their
models at once), a mark, an annotation, the end. The grammar has judged their order;
what is judged here needs the values (PBN 6.2, 6.3, 7.2 and 12.4-12.5):
well-formed calls and cards, ``^`` marks, at most one suffix and one note
reference, NAG ranges, ``+`` and ``*`` placement. Whether the calls and cards
are legal is for the Laws package, which replays these models.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import cast

from bridgefiles.formats.pbn.dialect import dialect_call
from bridgefiles.formats.pbn.items import (
    PLAIN_ENTRIES,
    PLAIN_SLOTS,
    Item,
    card_of,
    entry_model,
    slot_model,
    unplain,
)
from bridgefiles.model.annotations import NO_ANNOTATIONS, SUFFIX_NAGS, Annotations, Comment
from bridgefiles.model.auction import AuctionEnd, AuctionEntry, EntryKind, plain_entry
from bridgefiles.model.calls import Call
from bridgefiles.model.cards import Card, Strain
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.play import PlayedCard, PlayEnd, Slot, trick_winner
from bridgefiles.model.positions import Places
from bridgefiles.model.seats import Seat

# (code, severity, message, line, column)
Problem = tuple[str, Severity, str, int, int]

TOKEN = re.compile(
    r"(?P<note>=[^=\s]*=?)"
    r"|(?P<nag>\$[^\s!?=$^*+]*)"
    r"|(?P<suffix>[!?]{1,2})"
    r"|(?P<irr>\^\S?)"
    r"|(?P<mark>[*+])"
    r"|(?P<word>[A-Za-z0-9-]+)"
    r"|(?P<other>\S)"
)
_CALL = re.compile(r"pass|xx?|[1-7](?:nt|[cdhs])", re.IGNORECASE)
_CARD = re.compile(r"[SHDCshdc][AKQJTakqjt2-9]")

AUCTION_ONLY_NAGS = frozenset({*range(1, 7), 13, *range(20, 94)})
PLAY_ONLY_NAGS = frozenset({*range(7, 13), 14, *range(200, 239)})


_WORD = re.compile(r"\S+")
# A row (CALLS, CARDS) that holds an annotation, and its items: the grammar's SUFFIX,
# NOTE and NAG, and the calls or cards between them
_ANNOTATION_MARK = re.compile(r"[!?=$]")
_ROW_ITEM = re.compile(
    r"(?P<suffix>[!?]{1,2})|(?P<note>=[0-9]+=)|(?P<nag>\$[0-9]+)|(?P<word>[^\s!?=$]+)"
)
_PLAIN_ENTRY = PLAIN_ENTRIES.get
# the grammar's terminals of a section, to what reads them here
_KIND = {
    "SUFFIX": "suffix",
    "NOTE": "note",
    "NAG": "nag",
    "STOP": "mark",
    "NEXT": "mark",
    "INSUFFICIENT": "irr",
    "SKIPPED": "irr",
    "REVOKE": "irr",
    "LEAD": "irr",
}


def words(text: str, line: int, column: int) -> Iterator[tuple[str, int, int]]:
    """Each word of a row token that starts at line:column, with where it stands, one
    at a time (a row past the budget is read only up to it: nothing listed whole)."""
    for i, row in enumerate(text.split("\n")):
        base = column if i == 0 else 1
        for m in _WORD.finditer(row):
            yield m.group(), line + i, base + m.start()


@dataclass
class SectionReader:
    """Reads the tokens of one Auction (``play=False``) or Play section."""

    play: bool
    problems: list[Problem]
    # Item while a call or card may still take annotations; plain ones read from a row
    # are their shared values already (see _row), made into an Item again if need be.
    items: list[Item | AuctionEntry | PlayedCard] = field(default_factory=list)
    places: Places = field(default_factory=Places)  # where each item stands
    comments: list[Comment] = field(default_factory=list)  # before the first token
    end_item: Item | None = None  # AP or '*' with its annotations
    end: str = ""
    plus: Item | None = None  # the '+' (in the play it is also one of the items)
    plus_index: int | None = None
    pending_mark: str | None = None  # ^I / ^R / ^L waiting for its call or card
    note_refs: list[tuple[int, int, int]] = field(default_factory=list)  # (n, line, col)
    max_tokens: int | None = None  # Limits.max_commands_per_board
    token_count: int = 0
    stopped: bool = False  # past max_tokens: the rest of the section is not read
    plain_count: int = 0  # items that are shared values (see _row), not Items

    def _problem(self, message: str, line: int, column: int, code: str = "syntax") -> None:
        self.problems.append((code, Severity.ERROR, message, line, column))

    @property
    def _current(self) -> Item | None:
        if self.end_item is not None:
            return self.end_item
        if self.plus is not None and not self.play:
            return self.plus
        if not self.items:
            return None
        last = self.items[-1]
        if not isinstance(last, Item):
            last = self.items[-1] = unplain(last, *self.places[-1])
            self.plain_count -= 1
        return last

    def _add(self, item: Item) -> None:
        self.items.append(item)
        self.places.add(item.line, item.column)

    def comment(self, comment: Comment) -> None:
        current = self._current
        if current is None:
            self.comments.append(comment)
        else:
            if current.comments is None:
                current.comments = []
            current.comments.append(comment.model_copy(update={"follows": current.last}))

    def take(self, kind: str, text: str, line: int, column: int) -> None:
        """A token of the section, by its terminal in the grammar."""
        if self.stopped:
            return
        if kind[0] == "!":  # passed over by the grammar: said here what is wrong with it
            if kind in ("!ELEMENT", "!TEXT"):
                self.element(text, line, column, rejected=True)
                return
            if not self._count(1, line, column):
                return
            self._explained(kind[1:], text, line, column)
            return
        if kind in ("CALLS", "CARDS"):
            self._row(text, line, column)
            return
        if not self._count(1, line, column):
            return
        if kind in ("CALL", "CARD") and self.pending_mark is None and self.plus_index is None:
            self._row(text, line, column, counted=True)  # a plain one, as a row of one
        elif kind in ("CALL", "CARD", "WORD", "DASH", "ALL_PASS"):
            self._word(text, line, column)
        else:
            self._token(_KIND[kind], text, line, column)

    def element(self, text: str, line: int, column: int, rejected: bool = False) -> None:
        """Text the grammar read as a section element after a Note (or passed over,
        ``rejected``): its tokens, read as the section's."""
        for m in TOKEN.finditer(text):
            if not self._count(1, line, column + m.start()):
                return
            kind, at = m.lastgroup or "other", column + m.start()
            if rejected:
                self._explained(kind, m.group(), line, at)
            else:
                self._token(kind, m.group(), line, at)

    def _explained(self, kind: str, tok: str, line: int, column: int) -> None:
        """A token the grammar passed over, read as the section's would be, so that what
        is wrong with it is said as such; if nothing is, the grammar's rejection is."""
        said = len(self.problems)
        if kind in _KIND:
            kind = _KIND[kind]
        elif kind not in ("word", "mark", "irr", "suffix", "note", "nag", "other"):
            kind = "word"
        self._token(kind, tok, line, column)
        if len(self.problems) == said:
            where = "auction" if not self.play else "play"
            self._problem(f"{tok!r} cannot stand here in the {where}", line, column)

    def _token(self, kind: str, tok: str, line: int, column: int) -> None:
        if kind == "word":
            self._word(tok, line, column)
        elif kind == "mark":
            self._mark(tok, line, column)
        elif kind == "irr":
            self._irregular(tok, line, column)
        elif kind in ("suffix", "note", "nag"):
            self._annotation(kind, tok, line, column)
        else:
            self._problem(f"unexpected character {tok!r}", line, column)

    def _count(self, n: int, line: int, column: int) -> bool:
        """Whether ``n`` more tokens stay within ``max_tokens``; past it, says so once
        and reads no more of the section."""
        self.token_count += n
        if self.max_tokens is None or self.token_count <= self.max_tokens:
            return True
        self.problems.append(
            (
                "limit",
                Severity.ERROR,
                "the section's calls or cards go over the limit max_commands_per_board="
                f"{self.max_tokens:,}; the rest is not read "
                "(raise it with Limits(max_commands_per_board=...))",
                line,
                column,
            )
        )
        self.stopped = True
        return False

    def _row(self, text: str, line: int, column: int, counted: bool = False) -> None:
        """Calls or cards (the grammar's CALLS and CARDS, or one alone), each plain one its
        shared value at once; a card after the trick of '+' or a mark pending goes one
        by one, and a row with annotations item by item (:meth:`_annotated_row`)."""
        if _ANNOTATION_MARK.search(text) is not None:
            self._annotated_row(text, line, column)
            return
        # (a row of n characters holds at most (n + 1) // 2 words: within the budget,
        # the row is split whole; else word by word, up to the budget)
        if (
            self.pending_mark is None
            and self.plus_index is None
            and (
                counted
                or self.max_tokens is None
                or self.token_count + (len(text) + 1) // 2 <= self.max_tokens
            )
        ):
            written = text.split()
            self.token_count += 0 if counted else len(written)
            placed = self.places.add_row(text, line, column)
            assert placed == len(written)  # (one notion of a word: blanks between)
            if self.play:
                self.items.extend(map(PLAIN_SLOTS.__getitem__, written))
            else:
                entries = list(map(_PLAIN_ENTRY, written))
                if all(entries):
                    self.items.extend(cast("list[AuctionEntry]", entries))  # (no None: all)
                else:  # (a call in another mix of cases: 1Nt)
                    self.items.extend([self._plain_call(w) for w in written])
            self.plain_count += placed
            return
        found: list[AuctionEntry | PlayedCard] = []
        found_lines: list[int] = []
        found_columns: list[int] = []
        for word, ln, col in words(text, line, column):
            if not counted and not self._count(1, ln, col):
                break
            if self.pending_mark is not None or self.plus_index is not None:
                self._flush(found, found_lines, found_columns)
                found, found_lines, found_columns = [], [], []
                self._word(word, ln, col)
                continue
            found.append(PLAIN_SLOTS[word] if self.play else self._plain_call(word))
            found_lines.append(ln)
            found_columns.append(col)
        self._flush(found, found_lines, found_columns)

    def _annotated_row(self, text: str, line: int, column: int) -> None:
        """A row with annotations in it, item by item in its order, as its tokens one by
        one would be read: each call or card counted and placed (its shared value while
        nothing is pending), each annotation on the call or card before it."""
        for i, row in enumerate(text.split("\n")):
            at, base = line + i, column if i == 0 else 1
            for m in _ROW_ITEM.finditer(row):
                col = base + m.start()
                if not self._count(1, at, col):
                    return
                kind, tok = m.lastgroup, m.group()
                if kind != "word":
                    self._annotation(cast("str", kind), tok, at, col)
                elif self.pending_mark is None and self.plus_index is None:
                    self.items.append(PLAIN_SLOTS[tok] if self.play else self._plain_call(tok))
                    self.places.add(at, col)
                    self.plain_count += 1
                else:
                    self._word(tok, at, col)

    @staticmethod
    def _plain_call(word: str) -> AuctionEntry:
        """The shared entry of a call as written (any case: ``1Nt``)."""
        return PLAIN_ENTRIES.get(word) or plain_entry(Call.parse(word))

    def _flush(
        self, found: Sequence[AuctionEntry | PlayedCard], lines: list[int], columns: list[int]
    ) -> None:
        if not found:
            return
        self.items.extend(found)
        for at in zip(lines, columns, strict=True):
            self.places.add(*at)
        self.plain_count += len(found)

    # -- tokens ---------------------------------------------------------------------
    def _after_end(self, tok: str, line: int, column: int) -> bool:
        if self.end or (self.plus is not None and not self.play):
            what = repr(self.end) if self.end else "'+'"
            self._problem(f"{tok!r} after {what}: nothing may follow it", line, column)
            return True
        return False

    def _word(self, tok: str, line: int, column: int) -> None:
        if self.play:
            self._card(tok, line, column)
        else:
            self._call(tok, line, column)

    def _call(self, tok: str, line: int, column: int) -> None:
        if self._after_end(tok, line, column):
            return
        if tok.upper() == "AP":
            if self.pending_mark:
                self._problem(f"{self.pending_mark} before AP", line, column)
                self.pending_mark = None
            self.end = AuctionEnd.ALL_PASS.value
            self.end_item = Item(line, column)
            return
        item = Item(line, column)
        if tok == "-":
            if any(
                not isinstance(i, PlayedCard) and i.kind is not EntryKind.NONE for i in self.items
            ):
                self._problem(
                    "'-' after a call: it only fills seats before the dealer", line, column
                )
            item.kind = EntryKind.NONE
        elif _CALL.fullmatch(tok):
            item.call = Call.parse(tok)
        elif (read := dialect_call(tok, line, column)) is not None:  # 1N: 1NT, with a warning
            item.call, problem = read
            self.problems.append(problem)
        else:
            try:
                item.call = Call.parse(tok)
                self._problem(
                    f"{tok!r} is not a PBN call (Pass, X, XX, 1C..7NT); read as {item.call.text}",
                    line,
                    column,
                )
            except ValueError:
                item.call = None
                item.text = tok
                self._problem(
                    f"{tok!r} is not a call (Pass, X, XX, 1C..7NT); read as unknown", line, column
                )
        if self.pending_mark == "^I":
            item.insufficient = True
            if item.call is None or not item.call.is_bid:
                self._problem("^I must stand before a bid", line, column)
            self.pending_mark = None
        self._add(item)

    def _card(self, tok: str, line: int, column: int) -> None:
        if self._after_end(tok, line, column):
            return
        item = Item(line, column)
        if tok == "-":
            item.slot = Slot.UNKNOWN
        elif _CARD.fullmatch(tok):
            item.card = Card.parse(tok)
            if self.plus_index is not None and len(self.items) // 4 > self.plus_index // 4:
                self._problem(f"card {tok} comes after '+' in the play", line, column)
        elif re.fullmatch(r"[SHDCshdc]10", tok):
            item.card = Card.parse(tok)
            self._problem(
                f"{tok!r} is not a PBN card (the ten is T); read as {item.card}", line, column
            )
        else:
            item.slot = Slot.UNKNOWN
            what = "rank" if tok[:1].upper() in "SHDC" else "suit"
            self._problem(f"{tok!r} is not a card (bad {what}); read as '-'", line, column)
        if self.pending_mark in ("^R", "^L"):
            if item.slot is Slot.CARD:
                item.revoke = self.pending_mark == "^R"
                item.lead_out_of_turn = self.pending_mark == "^L"
            else:
                self._problem(f"{self.pending_mark} must stand before a card", line, column)
            self.pending_mark = None
        self._add(item)

    def _mark(self, tok: str, line: int, column: int) -> None:
        if tok == "*":
            if self.end:
                self._problem(f"'*' after {self.end!r}", line, column)
                return
            if self.plus is not None and not self.play:
                self._problem("'*' and '+' together: '+' means the auction goes on", line, column)
            self.end = "*"
            self.end_item = Item(line, column)
            return
        # '+'
        if self.end:
            self._problem(f"'+' after {self.end!r}", line, column)
            return
        if self.plus is not None:
            self._problem("a second '+': only one is allowed", line, column)
            return
        if self.play:
            item = Item(line, column, slot=Slot.NEXT)
            self.plus = item
            self.plus_index = len(self.items)
            self._add(item)
            return
        if self._auction_complete():
            self._problem("'+' after a completed auction", line, column)
        self.plus = Item(line, column)

    def _auction_complete(self) -> bool:
        calls = [
            i.call for i in self.items if not isinstance(i, PlayedCard) and i.kind is EntryKind.CALL
        ]
        if len(calls) >= 4 and all(c is not None and c.is_pass for c in calls[:4]):
            return True
        if not any(c is not None and c.is_bid for c in calls):
            return False
        tail = calls[-3:]
        return len(tail) == 3 and all(c is not None and c.is_pass for c in tail)

    def _irregular(self, tok: str, line: int, column: int) -> None:
        mark = tok.upper() if len(tok) == 2 else tok
        allowed = ("^R", "^L") if self.play else ("^I", "^S")
        if mark not in allowed:
            where = "play" if self.play else "auction"
            self._problem(f"{tok!r} is not an irregularity mark of the {where}", line, column)
            return
        if self._after_end(tok, line, column):
            return
        if mark == "^S":
            if self.pending_mark:
                self._problem(f"{self.pending_mark} before ^S", line, column)
                self.pending_mark = None
            self._add(Item(line, column, kind=EntryKind.SKIP))
            return
        if self.pending_mark == mark:
            self._problem(
                f"{mark} twice before one {'card' if self.play else 'call'}", line, column
            )
        elif self.pending_mark:
            self._problem(f"{self.pending_mark} and {mark} on one card", line, column)
        self.pending_mark = mark

    def _annotation(self, kind: str, tok: str, line: int, column: int) -> None:
        target = self._current
        if target is None:
            self._problem(f"{tok!r} before any call or card", line, column)
            return
        if kind == "suffix":
            if target.suffix is not None:
                self._problem(
                    f"a second suffix {tok!r}: at most one is allowed", line, column, "nag"
                )
                return
            target.suffix = tok
            target.last = "suffix"
            self._suffix_nag_clash(target, line, column)
        elif kind == "note":
            body = tok[1:-1] if len(tok) >= 2 and tok.endswith("=") else tok[1:]
            if not tok.endswith("=") or len(tok) < 3 or not body.isdecimal():
                self._problem(f"{tok!r} is not a note reference =n=", line, column, "note")
                return
            n = int(body)
            if not 1 <= n <= 32:
                self._problem(f"note reference {tok} is not 1-32", line, column, "note")
                return
            if target.note is not None:
                self._problem(
                    f"a second note reference {tok}: at most one is allowed", line, column, "note"
                )
                return
            target.note = n
            target.last = "note"
            self.note_refs.append((n, line, column))
        else:
            self._nag(target, tok, line, column)

    def _nag(self, target: Item, tok: str, line: int, column: int) -> None:
        body = tok[1:]
        if not body.isdecimal():
            self._problem(f"{tok!r} is not a NAG $n (a number 0-255)", line, column, "nag")
            return
        n = int(body)
        if n > 255:
            self._problem(f"NAG {tok} is above 255", line, column, "nag")
            return
        wrong = PLAY_ONLY_NAGS if not self.play else AUCTION_ONLY_NAGS
        if n in wrong:
            where = "the play" if not self.play else "the auction"
            self._problem(f"NAG {tok} belongs to {where} only", line, column, "nag")
            return
        if target.nags is None:
            target.nags = []
        if n in target.nags:
            self.problems.append(("nag", Severity.WARNING, f"NAG {tok} repeated", line, column))
        target.nags.append(n)
        target.last = f"${n}"
        self._suffix_nag_clash(target, line, column)

    def _suffix_nag_clash(self, target: Item, line: int, column: int) -> None:
        if target.suffix is None:
            return
        low = 7 if self.play else 1
        if any(low <= n < low + 6 for n in target.nags or ()):
            self.problems.append(
                (
                    "nag",
                    Severity.WARNING,
                    f"suffix {target.suffix} together with a NAG of the same kind",
                    line,
                    column,
                )
            )

    def check_plus_order(self, first: Seat, strain: Strain | None) -> None:
        """In the trick holding '+', no real card may follow it in play order (PBN 7.2);
        finding the trick's leader needs the earlier tricks complete."""
        if not self.play or self.plus_index is None:
            return
        trick = self.plus_index // 4
        leader = first
        for t in range(trick):
            slots = self.items[4 * t : 4 * t + 4]
            if len(slots) < 4 or any(card_of(i) is None for i in slots):
                return
            order = [card_of(slots[(first.distance(leader) + k) % 4]) for k in range(4)]
            leader = trick_winner(leader, [c for c in order if c is not None], strain)
        slots = self.items[4 * trick : 4 * trick + 4]
        start = first.distance(leader)
        seen_plus = False
        for k in range(4):
            pos = (start + k) % 4
            if pos >= len(slots):
                continue
            item = slots[pos]
            if item is self.plus:
                seen_plus = True
            elif seen_plus and card_of(item) is not None:
                self._problem(
                    f"card {card_of(item)} comes after '+' in the order of play",
                    *self.places[4 * trick + pos],
                )

    # -- results --------------------------------------------------------------------
    def finish(self, end_line: int, end_column: int) -> None:
        if self.pending_mark:
            self._problem(
                f"{self.pending_mark} with no call or card after it", end_line, end_column
            )

    @property
    def all_plain(self) -> bool:
        """Every item is a shared plain call or card (see _row)."""
        return self.plain_count == len(self.items)

    def positions(self) -> bytes:
        """Where each item stood, packed (model/positions.py)."""
        return self.places.packed()

    def auction_entries(self) -> tuple[AuctionEntry, ...]:
        if self.all_plain:
            return tuple(self.items)  # type: ignore[arg-type]  # models all
        return tuple(entry_model(i) for i in self.items)

    def auction_end(self) -> tuple[AuctionEnd, Annotations]:
        if self.plus is not None:
            return AuctionEnd.CONTINUE, self.plus.annotations()
        if self.end_item is not None:
            return AuctionEnd(self.end), self.end_item.annotations()
        return AuctionEnd.OPEN, NO_ANNOTATIONS

    def play_slots(self) -> tuple[PlayedCard, ...]:
        if self.all_plain:
            return tuple(self.items)  # type: ignore[arg-type]  # models all
        return tuple(slot_model(i) for i in self.items)

    def play_end(self) -> tuple[PlayEnd, Annotations]:
        if self.end_item is not None:
            return PlayEnd.STOPPED, self.end_item.annotations()
        return PlayEnd.OPEN, NO_ANNOTATIONS


SUFFIXES = SUFFIX_NAGS
