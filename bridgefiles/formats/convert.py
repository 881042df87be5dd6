"""Prepare a board read in one format for the writer of another (lin.md section 11).

The models are shared, but each format carries some things its own way: LIN
explanations (``an``) and alerts are PBN notes (``Alert: <explanation>``; PBN's
``!`` suffix means "good call", pbn.md 6.3), LIN
commentary (``nt``, ``at``) is PBN's ``{...}``, a LIN claim (``mc``) is PBN's
Result with the play stopped by ``*``. :func:`adapt` moves them across, and
whatever the target cannot carry becomes a ``lost-in-conversion`` warning on
the returned board: never a silent loss (DESIGN invariant 1).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from bridgefiles.formats.guard import pbn_safe
from bridgefiles.formats.lin.auction_play import chronological
from bridgefiles.formats.lin.tokens import FORMAT as LIN
from bridgefiles.formats.lin.tokens import HEADER_POSITION
from bridgefiles.formats.lin_facts import (
    claim_for_lin,
    dealer_for_lin,
    differences,
    lin_facts,
    result_for_pbn,
    ruling,
)
from bridgefiles.laws.result import BoardResult
from bridgefiles.model.annotations import Annotations, Comment, Note
from bridgefiles.model.auction import Auction, AuctionEnd, AuctionEntry, EntryKind
from bridgefiles.model.board import Board, Extra
from bridgefiles.model.calls import PASS
from bridgefiles.model.diagnostic import Diagnostic, warning
from bridgefiles.model.play import Play, PlayEnd, Slot

LOST = "lost-in-conversion"
# Formats outside this module (bridgefiles.exchange) that say what they cannot carry:
# target name -> a function giving the board with its lost-in-conversion warnings added.
ADAPTERS: dict[str, Callable[[Board], Board]] = {}
_LIN_FAMILY = frozenset({"lin", "url"})

# Tags the LIN writer expresses: directly, through the vugraph header, or derived
# again from the auction and play when the LIN is read back.
LIN_TAGS = frozenset(
    {
        "Board",
        "West",
        "North",
        "East",
        "South",
        "Dealer",
        "Vulnerable",
        "Deal",
        "Room",
    }
)
LIN_HEADER_TAGS = frozenset({"Event", "Stage", "Scoring", "HomeTeam", "VisitTeam"})
LIN_DERIVED_TAGS = frozenset({"Declarer", "Contract", "Result"})

_LIN_SUIT = re.compile(r"!([SHDC])")
_PBN_SUIT = re.compile(r"\\([SHDC])")
_VG_FIELDS_KEPT = (0, 1, 2, 5, 7)  # event, segment, scoring, teams: tags in PBN
ALERT_NOTE = "Alert"
"""How a PBN note says its call was alerted: ``Alert`` alone, or ``Alert: <explanation>``
(a LIN alert, ``mb|1C!|``, and its ``an`` explanation)."""


def alert_note(text: str) -> tuple[bool, str | None]:
    """Whether a note's text says its call was alerted, and the explanation in it."""
    if text == ALERT_NOTE:
        return True, None
    if text.startswith(f"{ALERT_NOTE}: "):
        return True, text[len(ALERT_NOTE) + 2 :]
    return False, text


def family(fmt: str | None) -> str | None:
    if fmt in _LIN_FAMILY:
        return "lin"
    return fmt


def adapt(board: Board, target: str) -> Board:
    """``board`` ready for the ``target`` writer, with what it cannot carry reported.

    The copy's ``format`` is the target's, so adapting it again changes nothing.
    """
    source, goal = family(board.format), family(target)
    if goal == "pbn":
        if source == goal and board.source is not None:
            return board  # read from PBN text as it stands: its strings came from there
        # strings from anywhere else (JSON is untrusted, whatever format it names) are
        # made safe for PBN, each change said
        changed = board if source in (goal, None) else _to_pbn(board)
        found: list[Diagnostic] = []
        safe = _lost(pbn_safe(changed, lambda message: _say(found, changed, message)), found)
        return board if safe is board else safe.model_copy(update={"format": target})
    if goal == "json" or source == goal:
        return board
    if goal == "lin":
        return _to_lin(board).model_copy(update={"format": target})
    if goal in ADAPTERS:
        return ADAPTERS[goal](board).model_copy(update={"format": target})
    return board


def _lost(board: Board, found: list[Diagnostic]) -> Board:
    if not found:
        return board
    where = {"board": board.board_number or board.label}
    diags = tuple(d.model_copy(update=where) for d in found)
    return board.replace(diagnostics=(*board.diagnostics, *diags), source=None)


def _say(found: list[Diagnostic], board: Board, message: str, line: int | None = None) -> None:
    found.append(warning(LOST, message, line=line if line is not None else board.line))


# -- LIN to PBN ------------------------------------------------------------------


def lin_text_to_pbn(text: str) -> str:
    """Suit escapes of GIB explanations (``!S``) as PBN writes them (``\\S``)."""
    return _LIN_SUIT.sub(r"\\\1", text)


def pbn_text_to_lin(text: str) -> str:
    return _PBN_SUIT.sub(r"!\1", text)


def _to_pbn(board: Board) -> Board:
    found: list[Diagnostic] = []
    board = result_for_pbn(board)
    auction = board.auction
    notes: list[Note] = list(auction.notes) if auction is not None else []
    comments_at: dict[int, list[Comment]] = {}
    board_comments = list(board.comments)
    kept: list[Extra] = []
    lost_keys: Counter[str] = Counter()
    foreign: Counter[str] = Counter()
    for extra in board.extras:
        if extra.format != LIN:
            kept.append(extra)
            if extra.format != "pbn":
                foreign[extra.format] += 1
        elif extra.position == HEADER_POSITION:
            _header_extra_to_pbn(board, extra, found)
        elif extra.key in ("nt", "at"):
            if extra.key == "at":
                lost_keys["at (written as commentary, read back as nt)"] += 1
            text = extra.value
            if "}" in text:  # a PBN brace comment ends at the first '}' (PBN 3.8)
                text = text.replace("}", ")")
                _say(found, board, "'}' in LIN commentary written as ')'", extra.line)
            comment = Comment(text=text)
            if extra.position:
                comments_at.setdefault(extra.position - 1, []).append(comment)
            else:
                board_comments.append(comment)
        elif extra.key == "" or (extra.key == "pg" and not extra.value.strip()):
            if extra.value.strip():
                lost_keys["free text between commands"] += 1
        else:
            lost_keys[extra.key] += 1
    for fmt, n in sorted(foreign.items()):
        _say(found, board, f"{n} item(s) kept from {fmt} have no PBN form")
    if lost_keys:
        listed = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in sorted(lost_keys.items()))
        _say(found, board, f"LIN commands PBN has no place for: {listed}")

    entries: list[AuctionEntry] = []
    position = 0
    if auction is not None:
        for i, entry in enumerate(auction.entries):
            ann = entry.annotations
            update: dict[str, object] = {}
            if ann.alert or ann.explanation is not None:
                # an alert is a note (pbn.md 6.3: a note explains an alert), never the
                # suffix '!' (NAG $1, "good call"); the note says it was alerted
                index = max((n.index for n in notes), default=0) + 1
                text = lin_text_to_pbn(ann.explanation or "")
                if ann.alert:
                    text = f"{ALERT_NOTE}: {text}" if text else ALERT_NOTE
                if "\n" in text or "\r" in text:
                    text = " ".join(text.split())
                    _say(
                        found,
                        board,
                        "a line break in an explanation written as a space "
                        "(a PBN tag value is one line)",
                        auction.where(i)[0],
                    )
                notes.append(Note(index=index, text=text))
                if ann.note is None:
                    update["note"] = index
                update["explanation"] = None
                update["alert"] = False
            extra_comments = comments_at.pop(position, [])
            if extra_comments:
                update["comments"] = (*ann.comments, *extra_comments)
            entries.append(
                entry.model_copy(update={"annotations": ann.model_copy(update=update)})
                if update
                else entry
            )
            position += 1
    play = board.play
    if play is not None and comments_at:
        play = _comment_cards(board, play, comments_at, position)
    for stray in comments_at.values():  # past the last call or card
        board_comments.extend(stray)
    new_auction = (
        auction.model_copy(update={"entries": tuple(entries), "notes": tuple(notes)})
        if auction is not None
        else None
    )
    # a tag value with a line break (a LIN name may span lines) is made one line by
    # the guard every board bound for PBN passes (formats/guard.pbn_safe), which says so
    changed = board.replace(
        auction=new_auction,
        play=play,
        extras=tuple(kept),
        comments=tuple(board_comments),
    )
    return _lost(changed, found)


def _comment_cards(
    board: Board, play: Play, comments_at: dict[int, list[Comment]], calls: int
) -> Play:
    """Commentary kept at a position among the cards goes onto that card."""
    strain = board.contract.strain if board.contract is not None else None
    order = chronological(play.first, play.slots, strain)
    slot_of = {s.card: i for i, s in enumerate(play.slots) if s.card is not None}
    slots = list(play.slots)
    for n, card in enumerate(order):
        extra = comments_at.pop(calls + n, None)
        if extra:
            i = slot_of[card]
            ann = slots[i].annotations
            slots[i] = slots[i].model_copy(
                update={"annotations": ann.model_copy(update={"comments": (*ann.comments, *extra)})}
            )
    return play.model_copy(update={"slots": tuple(slots)})


def _header_extra_to_pbn(board: Board, extra: Extra, found: list[Diagnostic]) -> None:
    key, fields = extra.key, extra.value.split(",")
    if key == "vg":
        dropped = [f for i, f in enumerate(fields) if i not in _VG_FIELDS_KEPT and f.strip()]
        if dropped:
            lost = ", ".join(dropped)
            message = f"vg fields with no PBN tag (board range, carry-over): {lost}"
            _say_header(found, board, message, extra.line)
    elif key in ("rs", "mp", "pw", "bn"):
        if any(f.strip() for f in fields):
            _say_header(found, board, f"the segment's {key} list is not carried by PBN", extra.line)
    elif key == "pn":
        pass  # the players of this table are the seat tags
    elif key not in ("pg", "") or extra.value.strip():
        _say_header(found, board, f"header command {key}|{extra.value}| is not carried by PBN",
                    extra.line)


FILE_HEADER = "file header: "
"""How a loss from a LIN file's header starts: the header is copied into every board,
but what it loses is one fact about the file, reported once (see :func:`once_per_file`)."""


def _say_header(found: list[Diagnostic], board: Board, message: str, line: int | None) -> None:
    _say(found, board, FILE_HEADER + message, line)


def once_per_file() -> Callable[[Diagnostic], bool]:
    """A filter for one file's conversion that passes a file-header loss only the
    first time (the same line and message on the next board is the same fact)."""
    seen: set[tuple[int | None, str]] = set()

    def first(diag: Diagnostic) -> bool:
        if not diag.message.startswith(FILE_HEADER):
            return True
        key = (diag.line, diag.message)
        if key in seen:
            return False
        seen.add(key)
        return True

    return first


# -- PBN to LIN ------------------------------------------------------------------


def _to_lin(board: Board) -> Board:
    found: list[Diagnostic] = []
    own = ruling(board)
    board, said = dealer_for_lin(board)
    if said is not None:
        _say(found, board, said)
    dropped_tags = [
        t.name
        for t in board.tags
        if t.name not in LIN_TAGS | LIN_DERIVED_TAGS
        and not (t.name in LIN_HEADER_TAGS and board.room in ("Open", "Closed"))
        and t.value not in ("", "?")
        and not t.implied
    ]
    if dropped_tags:
        _say(found, board, f"tags LIN has no command for: {', '.join(dropped_tags)}")
    for i, t in enumerate(board.tags):
        line = board.tag_where(i)[0]
        if t.comments:
            _say(found, board, f"commentary on the {t.name} tag", line)
        if t.name in LIN_TAGS and "|" in t.value:
            _say(found, board, f"'|' in {t.name} written as '/'", line)
        if t.name in ("West", "North", "East", "South") and "," in t.value:
            _say(found, board, f"',' in {t.name} written as ' ' (pn is a comma list)", line)
    for what, items in (("tables", board.tables), ("% lines", board.escapes)):
        if items:
            _say(found, board, f"{what} ({len(items)}) have no LIN form")
    extras: list[Extra] = [e for e in board.extras if e.format == LIN]
    others = [e for e in board.extras if e.format != LIN]
    if others:
        _say(found, board, f"{len(others)} item(s) kept from {others[0].format} have no LIN form")
    for comment in board.comments:
        extras.append(_nt(comment, 0))

    auction = board.auction
    new_auction: Auction | None = None
    calls = 0
    if auction is not None:
        new_auction, calls = _auction_to_lin(board, auction, extras, found)
    play = board.play
    if play is not None:
        play = _play_to_lin(board, play, extras, calls, found, own)
    elif board.tag("Result") not in (None, "", "?") and (auction is None or not auction.entries):
        _say(found, board, "a Result with no auction: LIN has no contract to claim for")
    differ = differences(own, lin_facts(new_auction, board.dealer), calls > 0)
    if differ is not None:
        _say(found, board, differ)
    for text, where in _texts(extras):
        if "|" in text:
            _say(found, board, f"'|' in {where} written as '/'")
    changed = board.replace(auction=new_auction, play=play, extras=tuple(extras), comments=())
    return _lost(changed, found)


def _texts(extras: list[Extra]) -> list[tuple[str, str]]:
    return [(e.value, f"{e.key} text") for e in extras]


def _nt(comment: Comment, position: int) -> Extra:
    return Extra(
        format=LIN,
        key="nt",
        value=comment.text,
        position=position,
        line=comment.line,
        column=comment.column,
    )


def _auction_to_lin(
    board: Board, auction: Auction, extras: list[Extra], found: list[Diagnostic]
) -> tuple[Auction, int]:
    entries: list[AuctionEntry] = []
    marks: Counter[str] = Counter()
    for comment in auction.comments:
        extras.append(_nt(comment, 0))
    for entry in auction.entries:
        if entry.kind is not EntryKind.CALL or entry.call is None:
            marks["'-' or ^S placeholders"] += 1
            continue
        ann = entry.annotations
        alert = ann.alert
        explanation = ann.explanation
        if ann.note is not None:
            note = auction.note(ann.note)
            if note is None:
                marks["note references with no note"] += 1
            else:
                noted, text = alert_note(pbn_text_to_lin(note.text))
                alert = alert or noted
                if text is not None:
                    explanation = text if explanation is None else f"{explanation}; {text}"
                if note.comments:
                    marks["commentary on notes"] += 1
        if explanation is not None and "|" in explanation:
            marks["'|' in explanations written as '/'"] += 1
        if ann.suffix is not None:  # '!' is "good call" (pbn.md 6.3), not an alert
            marks[f"suffix {ann.suffix}"] += 1
        if ann.nags:
            marks["NAGs on calls"] += 1
        if entry.insufficient:
            marks["^I marks"] += 1
        entries.append(
            entry.model_copy(
                update={"annotations": Annotations(alert=alert, explanation=explanation)}
            )
        )
        for comment in ann.comments:
            extras.append(_nt(comment, len(entries)))
    if auction.end is AuctionEnd.ALL_PASS:
        entries.extend(_closing_passes(entries))
    elif auction.end in (AuctionEnd.STOPPED, AuctionEnd.CONTINUE):
        marks[f"auction end mark {auction.end.value}"] += 1
    if not auction.end_annotations.is_empty:
        marks["annotations after the auction's end mark"] += 1
    used = {e.annotations.note for e in auction.entries if e.annotations.note is not None}
    unused = [n.index for n in auction.notes if n.index not in used]
    if unused:
        marks["notes not referenced by a call"] += len(unused)
    if marks:
        listed = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in sorted(marks.items()))
        _say(found, board, f"auction items LIN cannot carry: {listed}", auction.line)
    return auction.model_copy(
        update={
            "entries": tuple(entries),
            "end": AuctionEnd.OPEN,
            "notes": (),
            "comments": (),
            "end_annotations": Annotations(),
        }
    ), len(entries)


def _closing_passes(entries: list[AuctionEntry]) -> list[AuctionEntry]:
    """PBN ``AP``: the passes it stands for, written out as LIN has no such mark."""
    bid_made = any(e.call is not None and not e.call.is_pass for e in entries)
    trailing = 0
    for e in reversed(entries):
        if e.call is not None and e.call.is_pass:
            trailing += 1
        else:
            break
    need = (3 if bid_made else 4) - trailing
    return [AuctionEntry(call=PASS) for _ in range(max(0, need))]


def _play_to_lin(
    board: Board,
    play: Play,
    extras: list[Extra],
    calls: int,
    found: list[Diagnostic],
    own: BoardResult,
) -> Play:
    strain = board.contract.strain if board.contract is not None else None
    order = chronological(play.first, play.slots, strain)
    recorded = [s for s in play.slots if s.slot is Slot.CARD and s.card is not None]
    marks: Counter[str] = Counter()
    if len(order) < len(recorded):
        marks[f"{len(recorded) - len(order)} card(s) after a gap in the play"] += 1
    slot_of = {s.card: s for s in recorded}
    for n, card in enumerate(order):
        slot = slot_of[card]
        ann = slot.annotations
        for comment in ann.comments:
            extras.append(_nt(comment, calls + n + 1))
        if ann.suffix is not None or ann.nags or ann.note is not None:
            marks["card suffixes, NAGs and notes"] += 1
        if slot.revoke or slot.lead_out_of_turn:
            marks["^R/^L marks"] += 1
    for comment in play.comments:
        extras.append(_nt(comment, calls))
    leader = own.declarer.lho if own.declarer is not None else None
    if order and leader is not None and play.first is not leader:
        # LIN names no leader: its reader takes declarer's LHO (lin.md), so these cards
        # would read back as played from another seat
        _say(found, board, f"the play starts with {play.first.full_name}, not the opening "
             f"leader {leader.full_name}: LIN has no leader of its own, so its cards read "
             f"back as led by {leader.full_name}", play.line)
    if play.notes:
        marks["play notes"] += len(play.notes)
    if marks:
        listed = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in sorted(marks.items()))
        _say(found, board, f"play items LIN cannot carry: {listed}", play.line)
    claim = claim_for_lin(board, play, len(order), own,
                          lambda message: _say(found, board, message, play.line))
    slots = tuple(
        s.model_copy(update={"annotations": Annotations()}) if not s.annotations.is_empty else s
        for s in play.slots
    )
    return play.model_copy(
        update={
            "slots": slots,
            "comments": (),
            "notes": (),
            "claim": claim,
            "end": PlayEnd.STOPPED if claim else play.end,
        }
    )


__all__ = [
    "FILE_HEADER",
    "LOST",
    "adapt",
    "family",
    "lin_text_to_pbn",
    "once_per_file",
    "pbn_text_to_lin",
]
