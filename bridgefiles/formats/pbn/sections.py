"""The Auction and Play sections: call and card tokens with their annotations.

A section's data reaches us as coarse DATA tokens (whole runs of lines) with the
comments between them; one compiled regex splits the data into tokens here.
Only the structure of the tokens is judged (PBN 6.2, 6.3, 7.2 and 12.4-12.5):
well-formed calls and cards, ``^`` marks, at most one suffix and one note
reference, NAG ranges, ``+`` and ``*`` placement. Whether the calls and cards
are legal is for the Laws package, which replays these models.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from bridgefiles.model.annotations import (
    NO_ANNOTATIONS,
    SUFFIX_NAGS,
    Annotations,
    Comment,
)
from bridgefiles.model.auction import AuctionEnd, AuctionEntry, EntryKind
from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from bridgefiles.model.cards import ALL_CARDS, Card, Strain
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.fast import construct, construct_all, make, shared_fields
from bridgefiles.model.play import PlayedCard, PlayEnd, Slot, trick_winner
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

# The plain words of a section, as the token path reads them (Card.parse, Call.parse):
# data made of these alone takes the fast path of SectionReader.data.
_PLAIN_CARDS: dict[str, Card] = {}
for _card in ALL_CARDS:
    for _s in (_card.suit.value, _card.suit.value.lower()):
        for _r in (_card.rank.char, _card.rank.char.lower()):
            _PLAIN_CARDS[_s + _r] = _card
_PLAIN_CALLS: dict[str, Call] = {"Pass": PASS, "PASS": PASS, "pass": PASS}
for _call in (DOUBLE, REDOUBLE, *ALL_BIDS):
    _PLAIN_CALLS[_call.text] = _call
    _PLAIN_CALLS[_call.text.lower()] = _call
_WORD = re.compile(r"\S+")
_NOTE_REF = {f"={n}=": n for n in range(1, 33)}  # the note references _annotation takes
# Every field is given when the reader builds these (the fields-set pydantic keeps).
_ENTRY_FIELDS = frozenset(AuctionEntry.model_fields)
_SLOT_FIELDS = frozenset(PlayedCard.model_fields)
_ENTRY_SET = shared_fields(_ENTRY_FIELDS)
_SLOT_SET = shared_fields(_SLOT_FIELDS)

AUCTION_ONLY_NAGS = frozenset({*range(1, 7), 13, *range(20, 94)})
PLAY_ONLY_NAGS = frozenset({*range(7, 13), 14, *range(200, 239)})


def tokens(text: str, line: int, column: int) -> Iterator[tuple[str, str, int, int]]:
    """(kind, text, line, column) of each token of a DATA run that starts at line:column."""
    for i, row in enumerate(text.splitlines()):
        base = column if i == 0 else 1
        for m in TOKEN.finditer(row):
            kind = m.lastgroup or "other"
            yield kind, m.group(), line + i, base + m.start()


@dataclass(slots=True)
class _Item:
    """A call or card being read, with its annotations, before it becomes a model."""

    line: int
    column: int
    kind: EntryKind = EntryKind.CALL
    call: Call | None = None
    slot: Slot = Slot.CARD
    card: Card | None = None
    insufficient: bool = False
    text: str | None = None  # an unknown call's token as written
    revoke: bool = False
    lead_out_of_turn: bool = False
    suffix: str | None = None
    note: int | None = None
    nags: list[int] | None = None  # made when the first NAG comes (most items have none)
    comments: list[Comment] | None = None
    last: str | None = None  # what the next comment follows

    def annotations(self) -> Annotations:
        if self.suffix is None and self.note is None and self.nags is None and not self.comments:
            return NO_ANNOTATIONS
        return make(
            Annotations,
            suffix=self.suffix,
            note=self.note,
            nags=tuple(self.nags or ()),
            alert=False,
            explanation=None,
            comments=tuple(self.comments or ()),
        )


_CARD_SLOT = Slot.CARD
_CALL_ENTRY = EntryKind.CALL


def _unplain(model: AuctionEntry | PlayedCard) -> _Item:
    """A plain call or card back as an _Item, for an annotation or comment to come."""
    line, column = model.line or 0, model.column or 0
    if isinstance(model, PlayedCard):
        return _Item(line, column, card=model.card)
    return _Item(line, column, call=model.call)


def _card_of(item: _Item | AuctionEntry | PlayedCard) -> Card | None:
    return None if isinstance(item, AuctionEntry) else item.card


def _entry_model(item: _Item | AuctionEntry | PlayedCard) -> AuctionEntry:
    if isinstance(item, AuctionEntry):
        return item
    assert isinstance(item, _Item)  # an auction holds no PlayedCard
    return construct(
        AuctionEntry,
        {
            "kind": item.kind,
            "call": item.call,
            "insufficient": item.insufficient,
            "text": item.text,
            "annotations": item.annotations(),
            "line": item.line,
            "column": item.column,
        },
        _ENTRY_SET,
    )


def _slot_model(item: _Item | AuctionEntry | PlayedCard) -> PlayedCard:
    if isinstance(item, PlayedCard):
        return item
    assert isinstance(item, _Item)  # a play holds no AuctionEntry
    return construct(
        PlayedCard,
        {
            "slot": item.slot,
            "card": item.card,
            "revoke": item.revoke,
            "lead_out_of_turn": item.lead_out_of_turn,
            "annotations": item.annotations(),
            "line": item.line,
            "column": item.column,
        },
        _SLOT_SET,
    )


@dataclass
class SectionReader:
    """Reads the tokens of one Auction (``play=False``) or Play section."""

    play: bool
    problems: list[Problem]
    # _Item while a call or card may still take annotations; plain ones read by the fast
    # path are their models already (see _plain), made into an _Item again if need be.
    items: list[_Item | AuctionEntry | PlayedCard] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)  # before the first token
    end_item: _Item | None = None  # AP or '*' with its annotations
    end: str = ""
    plus: _Item | None = None  # the '+' (in the play it is also one of the items)
    plus_index: int | None = None
    pending_mark: str | None = None  # ^I / ^R / ^L waiting for its call or card
    note_refs: list[tuple[int, int, int]] = field(default_factory=list)  # (n, line, col)
    max_tokens: int | None = None  # Limits.max_commands_per_board
    token_count: int = 0
    stopped: bool = False  # past max_tokens: the rest of the section is not read

    def _problem(self, message: str, line: int, column: int, code: str = "syntax") -> None:
        self.problems.append((code, Severity.ERROR, message, line, column))

    @property
    def _current(self) -> _Item | None:
        if self.end_item is not None:
            return self.end_item
        if self.plus is not None and not self.play:
            return self.plus
        if not self.items:
            return None
        last = self.items[-1]
        if not isinstance(last, _Item):
            last = self.items[-1] = _unplain(last)
        return last

    def comment(self, comment: Comment) -> None:
        current = self._current
        if current is None:
            self.comments.append(comment)
        else:
            if current.comments is None:
                current.comments = []
            current.comments.append(comment.model_copy(update={"follows": current.last}))

    def data(self, text: str, line: int, column: int) -> None:
        if self.stopped or self._plain(text, line, column):
            return
        for kind, tok, ln, col in tokens(text, line, column):
            self.token_count += 1
            if self.max_tokens is not None and self.token_count > self.max_tokens:
                self.problems.append(
                    (
                        "limit",
                        Severity.ERROR,
                        f"the section's token count goes over the limit max_commands_per_board="
                        f"{self.max_tokens:,}; the rest is not read "
                        "(raise it with Limits(max_commands_per_board=...))",
                        ln,
                        col,
                    )
                )
                self.stopped = True
                return
            if kind == "word":
                self._word(tok, ln, col)
            elif kind == "mark":
                self._mark(tok, ln, col)
            elif kind == "irr":
                self._irregular(tok, ln, col)
            elif kind in ("suffix", "note", "nag"):
                self._annotation(kind, tok, ln, col)
            else:
                self._problem(f"unexpected character {tok!r}", ln, col)

    def _plain(self, text: str, line: int, column: int) -> bool:
        """Data of plain calls or cards only (and a last ``AP`` or ``*``), nothing pending:
        read here in one pass, as the token path would read it. False, having changed
        nothing, when the token path must read the data (DESIGN.md, Performance)."""
        if self.end or self.plus is not None or self.pending_mark is not None:
            return False
        play = self.play
        # plain ones as their models' fields, built in one batch at the end
        found: list[_Item | dict[str, object]] = []
        unplained = False
        end: _Item | None = None  # AP or '*', the last word
        end_mark = ""
        refs: list[tuple[int, int, int]] = []
        for i, row in enumerate(text.splitlines()):
            base = column if i == 0 else 1
            for m in _WORD.finditer(row):
                if end is not None:
                    return False  # something after AP or '*': the token path reports it
                word = m.group()
                if play:
                    card = _PLAIN_CARDS.get(word)
                    if card is not None:
                        found.append(
                            {
                                "slot": _CARD_SLOT,
                                "card": card,
                                "revoke": False,
                                "lead_out_of_turn": False,
                                "annotations": NO_ANNOTATIONS,
                                "line": line + i,
                                "column": base + m.start(),
                            }
                        )
                        continue
                else:
                    call = _PLAIN_CALLS.get(word)
                    if call is not None:
                        found.append(
                            {
                                "kind": _CALL_ENTRY,
                                "call": call,
                                "insufficient": False,
                                "text": None,
                                "annotations": NO_ANNOTATIONS,
                                "line": line + i,
                                "column": base + m.start(),
                            }
                        )
                        continue
                    if word.upper() == "AP":
                        end_mark = AuctionEnd.ALL_PASS.value
                        end = _Item(line + i, base + m.start())
                        continue
                ref = _NOTE_REF.get(word)
                if ref is not None and found and not isinstance(found[-1], _Item):
                    last = found[-1]  # as _annotation reads =n=
                    target = found[-1] = _Item(
                        last["line"],  # type: ignore[arg-type]
                        last["column"],  # type: ignore[arg-type]
                        card=last.get("card"),  # type: ignore[arg-type]
                        call=last.get("call"),  # type: ignore[arg-type]
                    )
                    unplained = True
                    target.note = ref
                    target.last = "note"
                    refs.append((ref, line + i, base + m.start()))
                    continue
                if word != "*":
                    return False
                end_mark = "*"
                end = _Item(line + i, base + m.start())
        count = len(found) + len(refs) + (end is not None)
        if self.max_tokens is not None and self.token_count + count > self.max_tokens:
            return False
        self.token_count += count
        model: type[PlayedCard] | type[AuctionEntry] = PlayedCard if play else AuctionEntry
        if not unplained:
            self.items.extend(construct_all(model, found))  # type: ignore[arg-type]
        else:
            for item in found:
                if isinstance(item, _Item):
                    self.items.append(item)
                else:
                    self.items.append(construct(model, item, shared_fields(item.keys())))
        self.note_refs.extend(refs)
        if end is not None:
            self.end = end_mark
            self.end_item = end
        return True

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
            self.end_item = _Item(line, column)
            return
        item = _Item(line, column)
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
        self.items.append(item)

    def _card(self, tok: str, line: int, column: int) -> None:
        if self._after_end(tok, line, column):
            return
        item = _Item(line, column)
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
        self.items.append(item)

    def _mark(self, tok: str, line: int, column: int) -> None:
        if tok == "*":
            if self.end:
                self._problem(f"'*' after {self.end!r}", line, column)
                return
            if self.plus is not None and not self.play:
                self._problem("'*' and '+' together: '+' means the auction goes on", line, column)
            self.end = "*"
            self.end_item = _Item(line, column)
            return
        # '+'
        if self.end:
            self._problem(f"'+' after {self.end!r}", line, column)
            return
        if self.plus is not None:
            self._problem("a second '+': only one is allowed", line, column)
            return
        if self.play:
            item = _Item(line, column, slot=Slot.NEXT)
            self.plus = item
            self.plus_index = len(self.items)
            self.items.append(item)
            return
        if self._auction_complete():
            self._problem("'+' after a completed auction", line, column)
        self.plus = _Item(line, column)

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
            self.items.append(_Item(line, column, kind=EntryKind.SKIP))
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

    def _nag(self, target: _Item, tok: str, line: int, column: int) -> None:
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

    def _suffix_nag_clash(self, target: _Item, line: int, column: int) -> None:
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
            if len(slots) < 4 or any(_card_of(i) is None for i in slots):
                return
            order = [_card_of(slots[(first.distance(leader) + k) % 4]) for k in range(4)]
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
            elif seen_plus and _card_of(item) is not None:
                self._problem(
                    f"card {_card_of(item)} comes after '+' in the order of play",
                    item.line or 0,
                    item.column or 0,
                )

    # -- results --------------------------------------------------------------------
    def finish(self, end_line: int, end_column: int) -> None:
        if self.pending_mark:
            self._problem(
                f"{self.pending_mark} with no call or card after it", end_line, end_column
            )

    def auction_entries(self) -> tuple[AuctionEntry, ...]:
        return tuple(_entry_model(i) for i in self.items)

    def auction_end(self) -> tuple[AuctionEnd, Annotations]:
        if self.plus is not None:
            return AuctionEnd.CONTINUE, self.plus.annotations()
        if self.end_item is not None:
            return AuctionEnd(self.end), self.end_item.annotations()
        return AuctionEnd.OPEN, NO_ANNOTATIONS

    def play_slots(self) -> tuple[PlayedCard, ...]:
        return tuple(_slot_model(i) for i in self.items)

    def play_end(self) -> tuple[PlayEnd, Annotations]:
        if self.end_item is not None:
            return PlayEnd.STOPPED, self.end_item.annotations()
        return PlayEnd.OPEN, NO_ANNOTATIONS


SUFFIXES = SUFFIX_NAGS
