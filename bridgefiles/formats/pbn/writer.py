"""Writes boards as PBN: the export format of PBN 2.1 section 3, or the text as read.

``layout="export"`` follows pbn.md section 3 and the reference verifier's exporter
(its expected outputs are our conformance tests): the 15 MTS tags in order with
``"?"`` for a missing one, supplemental tags alphabetically, the auction four
calls a line from the dealer, the play a trick a line, tables a row a line padded
to their column widths, commentary kept where it was attached, CRLF.

``layout="preserve"`` gives back the file's preamble, each board's ``source`` and
the trailer, byte for byte; a board without ``source`` (built or changed since it
was read) is written in export form with the file's line ends.

Where we differ from the verifier on purpose is listed in README.md, "PBN export:
differences from the reference verifier".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from bridgefiles.formats.pbn.tables import pad
from bridgefiles.formats.pbn.tags import MTS, MTS_1_0, NO_INHERITANCE, escape, plain_value
from bridgefiles.formats.registry import FileInfo, WriteOptions
from bridgefiles.model.annotations import SUFFIX_NAGS, Annotations, Comment, CommentKind, Note
from bridgefiles.model.auction import Auction, AuctionEnd, EntryKind
from bridgefiles.model.board import Board, Table, TagPair
from bridgefiles.model.deal import Deal
from bridgefiles.model.outcome import auction_outcome
from bridgefiles.model.play import Play, PlayEnd, Slot
from bridgefiles.model.seats import Seat

MAX_SECTION_LINE = 79  # the verifier wraps auction and play lines below 80 characters


def write_pbn(
    boards: Iterable[Board], options: WriteOptions, info: FileInfo | None
) -> Iterator[str]:
    """The registry's writer."""
    if options.layout == "preserve":
        newline = options.newline or (info.newline if info else None) or "\r\n"
        yield from preserve(boards, info, newline)
    else:
        yield from export(boards, newline=options.newline or "\r\n")


def export(
    boards: Iterable[Board], *, version: str = "2.1", newline: str = "\r\n"
) -> Iterator[str]:
    """PBN export format: the header, then each game followed by an empty line."""
    yield f"% PBN {version}{newline}% EXPORT{newline}%{newline}"
    writer = GameWriter(version)
    for board in boards:
        yield _text(writer.lines(board), newline)


def preserve(boards: Iterable[Board], info: FileInfo | None, newline: str) -> Iterator[str]:
    """The text as read: preamble, each board's source, trailer."""
    if info is not None and info.preamble:
        yield info.preamble
    writer = GameWriter("2.1")
    separator = ""  # what the next game needs first so that it starts a new game
    for board in boards:
        if board.source is not None:
            text = board.source
        else:
            text = _text(writer.lines(board), newline)
        yield separator + text
        last = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if not text.endswith(("\n", "\r")):
            separator = newline + newline
        elif len(last) >= 2 and not last[-2].strip(" \t"):
            separator = ""
        else:
            separator = newline
    if info is not None and info.trailer:
        yield info.trailer


def game_text(board: Board) -> str:
    """One board as a PBN game in export form, ``\n`` line ends: ``str(board)``."""
    return "\n".join(GameWriter("2.1").lines(board)) + "\n"


def _text(lines: list[str], newline: str) -> str:
    """A game's lines and the empty line after it; comments' own line ends follow suit,
    whichever of CR LF, CR or LF spells them (a CR LF in a comment written as CR CR LF
    would read back as two line breaks)."""
    text = "\n".join(lines) + "\n\n"
    if newline == "\n":
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", newline)


# -- pieces -------------------------------------------------------------------------------


def tag_line(name: str, written: str) -> str:
    """``[Name "value"]``; like the verifier, without the space when the line would
    otherwise reach PBN's 255 characters (CRLF included)."""
    line = f'[{name} "{written}"]'
    return line if len(line) + 2 <= 255 else f'[{name}"{written}"]'


def written(pair: TagPair) -> str:
    """The value as the file should say it: the raw text when there is one."""
    return pair.raw if pair.raw is not None else escape(pair.value)


def comment_text(c: Comment) -> str:
    return f";{c.text}" if c.kind is CommentKind.LINE else f"{{{c.text}}}"


def _end_line(c: Comment) -> int | None:
    return None if c.line is None else c.line + c.text.count("\n")


def comment_block(comments: Sequence[Comment]) -> list[str]:
    """Comments after a tag (or opening a game): the first begins a new line, and a
    comment that shared a line with the one before it in the source still does."""
    lines: list[str] = []
    prev: Comment | None = None
    for c in comments:
        same_line = (
            prev is not None
            and prev.kind is CommentKind.BRACE
            and c.line is not None
            and c.line == _end_line(prev)
        )
        if same_line:
            lines[-1] += " " + comment_text(c)
        else:
            lines.append(comment_text(c))
        prev = c
    return lines


def annotation_tokens(ann: Annotations, play: bool) -> list[str]:
    """Note reference, then NAGs ascending (suffix as its NAG), each with its comments."""
    by_anchor: dict[str | None, list[Comment]] = {}
    for c in ann.comments:
        by_anchor.setdefault(c.follows, []).append(c)
    out = [comment_text(c) for c in by_anchor.pop(None, [])]
    if ann.note is not None:
        out.append(f"={ann.note}=")
        out.extend(comment_text(c) for c in by_anchor.pop("note", []))
    nags: list[tuple[int, str]] = [(n, f"${n}") for n in ann.nags]
    if ann.suffix is not None and ann.suffix in SUFFIX_NAGS:
        nags.append((SUFFIX_NAGS[ann.suffix] + (6 if play else 0), "suffix"))
    for n, anchor in sorted(nags, key=lambda x: x[0]):
        out.append(f"${n}")
        out.extend(comment_text(c) for c in by_anchor.pop(anchor, []))
    for rest in by_anchor.values():  # comments whose anchor is gone
        out.extend(comment_text(c) for c in rest)
    return out


def flow(units: Sequence[list[str]], per_line: int) -> list[str]:
    """Units (a call or card and its annotations) ``per_line`` to a line, wrapped below
    80 characters, and a new line after a ``;`` comment."""
    lines: list[str] = []
    current = ""
    for i, unit in enumerate(units):
        if i and i % per_line == 0 and current:
            lines.append(current)
            current = ""
        for tok in unit:
            tail = current.rsplit("\n", 1)[-1]
            if current and len(tail) + 1 + len(tok) > MAX_SECTION_LINE:
                lines.append(current)
                current = ""
            current = f"{current} {tok}" if current else tok
            if tok.startswith(";"):
                lines.append(current)
                current = ""
    if current:
        lines.append(current)
    return lines


class GameWriter:
    """Export-form lines of one game; remembers ``##`` defaults across games."""

    def __init__(self, version: str = "2.1") -> None:
        self.mts = MTS_1_0 if version.startswith("1") else MTS
        # What a reader of our output will know: "##" defaults and last values (for "#").
        self.defaults: dict[str, str] = {}
        self.last: dict[str, str] = {}

    def tag(self, name: str, text: str, value: str) -> str:
        """A tag line, remembering what it does to inheritance for the games after."""
        if text.startswith("##"):
            self.defaults[name] = value
        else:
            self.defaults.pop(name, None)
        self.last[name] = value
        return tag_line(name, text)

    def inherited(self, pair: TagPair, text: str) -> str:
        """``"#"`` only where a reader of our output resolves it to the same value
        (export fills missing tags with "?", which can change what "#" finds)."""
        own = not (pair.raw is not None and pair.raw.startswith("#"))
        if text.startswith("#") and own and pair.name not in NO_INHERITANCE:
            # A value of its own that starts with '#' would read back as inheritance:
            # "##" + value reads as that value (and as the default for later games that
            # leave the tag out, which export format does only for tags it inherits).
            return "##" + text
        if text != "#":
            return text
        expected = self.defaults.get(pair.name, self.last.get(pair.name, ""))
        return "#" if expected == pair.value else escape(pair.value)

    def lines(self, board: Board) -> list[str]:
        out: list[str] = comment_block(board.comments)
        first: dict[str, TagPair] = {}
        implied: dict[str, TagPair] = {}
        for pair in board.tags:
            if pair.implied:
                implied.setdefault(pair.name, pair)
            else:
                first.setdefault(pair.name, pair)
        derived = derive_outcome(board, first)
        for name in self.mts:
            found = first.get(name)
            if found is None:
                if name in implied:
                    value = implied[name].value
                    if self.defaults.get(name) != value:
                        out.append(self.tag(name, "##" + escape(value), value))
                    continue
                if name in self.defaults:
                    continue
                value = derived.get(name, "?")
                out.append(self.tag(name, value, value))
                continue
            text = self.inherited(found, self.canonical(board, found))
            out.append(self.tag(name, text, found.value))
            out.extend(comment_block(found.comments))
        sections: list[tuple[str, list[str]]] = []
        mts = set(self.mts)
        supplemental = sorted(
            (p for n, p in first.items() if n not in mts),
            key=lambda p: (p.name.lower(), p.name),
        )
        for pair in supplemental:
            text = self.inherited(pair, written(pair))
            lines = [self.tag(pair.name, text, pair.value), *comment_block(pair.comments)]
            if pair.section:
                sections.append((pair.name, [*lines, *pair.section]))
            else:
                out.extend(lines)
        for name, pair in implied.items():
            if name not in mts and name not in first and self.defaults.get(name) != pair.value:
                out.append(self.tag(name, "##" + escape(pair.value), pair.value))
        if board.auction is not None:
            out.extend(self.auction(board.auction, board))
        if board.play is not None:
            out.extend(self.play(board.play))
        for table in board.tables:
            sections.append((table.name, self.table(table)))
        for _, lines in sorted(sections, key=lambda s: (s[0].lower(), s[0])):
            out.extend(lines)
        return out

    # -- canonical values of the MTS ----------------------------------------------------
    def canonical(self, board: Board, pair: TagPair) -> str:
        name, value = pair.name, pair.value
        if pair.raw is not None and pair.raw.startswith("#"):
            return pair.raw
        try:
            plain = plain_value(name, value)
            if plain is not None:
                return plain
            if name == "Deal" and value not in ("", "?"):
                deal = Deal.parse(value)
                if not deal.problems() and _parses_exactly(value):
                    return deal.pbn(first=board.dealer or deal.first)
            if name == "Result" and value not in ("", "?"):
                result = board.result
                tricks = board.declarer_tricks
                if result is not None and tricks is not None and board.declarer is not None:
                    return ("^" if result.disputed else "") + str(tricks)
        except ValueError:
            pass
        return written(pair)

    # -- sections -----------------------------------------------------------------------
    def auction(self, auction: Auction, board: Board) -> list[str]:
        auction = explanations_as_notes(auction)
        entries = list(auction.entries)
        skipped = 0
        while skipped < len(entries) and entries[skipped].kind is EntryKind.NONE:
            skipped += 1
        first = auction.first.offset(skipped)
        units: list[list[str]] = []
        for entry in entries[skipped:]:
            if entry.kind is EntryKind.SKIP:
                unit = ["^S"]
            elif entry.kind is EntryKind.NONE:
                unit = ["-"]
            else:
                # an unknown call goes back as it was read, never as a token of other meaning
                call = entry.call.text if entry.call is not None else entry.text or "-"
                unit = ["^I", call] if entry.insufficient else [call]
            unit.extend(annotation_tokens(entry.annotations, play=False))
            units.append(unit)
        end_tokens = annotation_tokens(auction.end_annotations, play=False)
        if auction.end is AuctionEnd.ALL_PASS:
            passes = _all_pass_count(auction)
            for i in range(passes):
                units.append(["Pass", *(end_tokens if i == passes - 1 else [])])
            if passes == 0 and end_tokens:
                if units:
                    units[-1].extend(end_tokens)
                else:
                    units.append(end_tokens)
        elif auction.end in (AuctionEnd.STOPPED, AuctionEnd.CONTINUE):
            units.append([auction.end.value, *end_tokens])
        out = [tag_line("Auction", first.value), *comment_block(auction.comments)]
        out.extend(flow(units, 4))
        out.extend(note_lines(auction.notes))
        return out

    def play(self, play: Play) -> list[str]:
        units: list[list[str]] = []
        for slot in play.slots:
            if slot.slot is Slot.CARD and slot.card is not None:
                card = slot.card.code
            else:
                card = "+" if slot.slot is Slot.NEXT else "-"
            unit = (
                ["^R", card] if slot.revoke else ["^L", card] if slot.lead_out_of_turn else [card]
            )
            unit.extend(annotation_tokens(slot.annotations, play=True))
            units.append(unit)
        while len(units) % 4:
            units.append(["-"])
        lines = []
        for t in range(0, len(units), 4):
            lines.extend(flow(units[t : t + 4], 4))
        if play.end is PlayEnd.STOPPED:
            lines.extend(flow([["*", *annotation_tokens(play.end_annotations, play=True)]], 4))
        out = [tag_line("Play", play.first.value), *comment_block(play.comments)]
        out.extend(lines)
        out.extend(note_lines(play.notes))
        return out

    def table(self, table: Table) -> list[str]:
        header = table.raw if table.raw is not None else table.header
        inline = [c for c in table.comments if c.follows != "element"]
        after = [c for c in table.comments if c.follows == "element"]
        out = [tag_line(table.name, header), *comment_block(inline)]
        if table.raw == "#":  # the verifier writes inherited-header rows an element a line
            out.extend(e for row in table.rows for e in row)
        else:
            cols = table.columns
            for row in table.rows:
                out.append(
                    " ".join(pad(e, cols[i] if i < len(cols) else None) for i, e in enumerate(row))
                )
        out.extend(comment_block(after))
        return out


def explanations_as_notes(auction: Auction) -> Auction:
    """LIN carries a call's explanation on the call; PBN as ``=n=`` and a Note tag.
    Each explanation without a note gets the next free index (1-32), in order."""
    if not any(e.annotations.explanation and e.annotations.note is None for e in auction.entries):
        return auction
    notes = list(auction.notes)
    used = {n.index for n in notes}
    entries = []
    free = (i for i in range(1, 33) if i not in used)
    for entry in auction.entries:
        ann = entry.annotations
        if ann.explanation and ann.note is None:
            index = next(free, None)
            if index is not None:
                notes.append(Note(index=index, text=ann.explanation))
                entry = entry.model_copy(
                    update={"annotations": ann.model_copy(update={"note": index})}
                )
        entries.append(entry)
    return auction.model_copy(update={"entries": tuple(entries), "notes": tuple(notes)})


def derive_outcome(board: Board, tags: dict[str, TagPair]) -> dict[str, str]:
    """Values for missing Contract, Declarer and Result that the game itself implies,
    as the verifier's exporter writes them: from a Contract "Pass", or from a complete
    auction without irregularities (``auction_outcome``). A passed-out deal has
    Declarer and Result ``""``."""
    contract = tags.get("Contract")
    if contract is not None:
        if contract.value.strip().lower() == "pass":
            return {"Declarer": "", "Result": ""}
        return {}
    auction = board.auction
    if auction is None or auction.end in (AuctionEnd.STOPPED, AuctionEnd.CONTINUE):
        return {}
    outcome = auction_outcome(auction, None)
    if not outcome.complete or outcome.irregular or outcome.contract is None:
        return {}
    if outcome.passed_out:
        return {"Contract": "Pass", "Declarer": "", "Result": ""}
    return {"Contract": outcome.contract.text, "Declarer": seat_text(outcome.declarer)}


def note_lines(notes: Sequence[Note]) -> list[str]:
    out: list[str] = []
    for note in notes:
        value = note.raw if note.raw is not None else escape(f"{note.index}:{note.text}")
        out.append(tag_line("Note", value))
        out.extend(comment_block(note.comments))
    return out


def _all_pass_count(auction: Auction) -> int:
    """How many passes ``AP`` stands for after the recorded calls (PBN 6.2)."""
    trailing = 0
    any_bid = False
    for entry in auction.entries:
        if entry.kind is EntryKind.NONE:
            continue
        if entry.kind is EntryKind.CALL and entry.call is not None and entry.call.is_pass:
            trailing += 1
            continue
        trailing = 0
        if entry.call is not None and entry.call.is_bid:
            any_bid = True
    need = 3 if any_bid else 4
    return max(0, need - trailing)


def _parses_exactly(value: str) -> bool:
    """Whether ``Deal.parse`` read ``value`` as written (it also takes ``10`` for tens)."""
    return "10" not in value


def seat_text(seat: Seat | None) -> str:
    return seat.value if seat is not None else "?"
