"""A PBN board's game content in the terms the export format keeps, so a board and its
export can be compared (the rules are tests/corpus/test_pbn_corpus.py's docstring)."""

from __future__ import annotations

from typing import Any

from bridgefiles.formats.pbn.tags import MTS, plain_value, unescape
from bridgefiles.model.annotations import SUFFIX_NAGS, Annotations, Comment, Note
from bridgefiles.model.auction import Auction, AuctionEnd, EntryKind
from bridgefiles.model.board import Board
from bridgefiles.model.deal import Deal
from bridgefiles.model.play import Play, Slot


def _comments(
    comments: tuple[Comment, ...], play: bool = False, suffix_nag: int | None = None
) -> list[tuple[str, str, str | None]]:
    out = []
    for c in comments:
        follows = c.follows
        if follows == "suffix" and suffix_nag is not None:
            follows = f"${suffix_nag}"
        out.append((c.text.replace("\r\n", "\n"), c.kind.value, follows))
    return out


def _annotations(ann: Annotations, play: bool) -> Any:
    nags = list(ann.nags)
    suffix_nag = None
    if ann.suffix in SUFFIX_NAGS:
        suffix_nag = SUFFIX_NAGS[ann.suffix] + (6 if play else 0)
        nags.append(suffix_nag)
    by_anchor = sorted(_comments(ann.comments, play, suffix_nag), key=lambda c: str(c[2]))
    return (ann.note, sorted(nags), by_anchor)


def _note(note: Note) -> Any:
    """A note's raw text matters only when it is not ``index:text`` escaped."""
    raw = note.raw
    if raw is not None and unescape(raw) == f"{note.index}:{note.text}":
        raw = None
    return (note.index, note.text, raw, _comments(note.comments))


def _auction(auction: Auction) -> Any:
    entries = list(auction.entries)
    skipped = 0
    while skipped < len(entries) and (
        entries[skipped].kind is EntryKind.NONE
        or (entries[skipped].kind is EntryKind.CALL and entries[skipped].call is None)
    ):
        skipped += 1
    out = []
    for i, e in enumerate(entries[skipped:], skipped):
        if e.kind is EntryKind.SKIP:
            what = "^S"
        elif e.call is None:
            what = "?"
        else:
            what = e.call.text
        out.append(
            [
                auction.first.offset(i).value,
                what,
                e.insufficient,
                _annotations(e.annotations, False),
            ]
        )
    end = auction.end
    end_ann = _annotations(auction.end_annotations, False)
    if end is AuctionEnd.ALL_PASS:
        from bridgefiles.formats.pbn.writer import _all_pass_count

        n = _all_pass_count(auction)
        for k in range(n):
            seat = auction.first.offset(len(entries) + k).value
            out.append([seat, "Pass", False, end_ann if k == n - 1 else (None, [], [])])
        if n == 0 and out:
            out[-1][3] = (
                out[-1][3][0],
                sorted(out[-1][3][1] + end_ann[1]),
                out[-1][3][2] + end_ann[2],
            )
        end, end_ann = AuctionEnd.OPEN, (None, [], [])
    notes = [_note(n) for n in auction.notes]
    return out, end.value, end_ann, notes, _comments(auction.comments)


def _play(play: Play) -> Any:
    slots = list(play.slots)
    while slots and slots[-1].slot is Slot.UNKNOWN and slots[-1].annotations.is_empty:
        slots.pop()
    cards = [
        (
            s.slot.value,
            s.card.code if s.card else None,
            s.revoke,
            s.lead_out_of_turn,
            _annotations(s.annotations, True),
        )
        for s in slots
    ]
    notes = [_note(n) for n in play.notes]
    return (
        play.first.value,
        cards,
        play.end.value,
        _annotations(play.end_annotations, True),
        notes,
        _comments(play.comments),
    )


def _tag_value(board: Board, name: str, value: str) -> Any:
    try:
        plain = plain_value(name, value)
        if plain is not None:
            return plain
        if name == "Deal" and value not in ("", "?"):
            deal = Deal.parse(value)
            if not deal.problems():
                return sorted((s.value, h.pbn if h else "-") for s, h in deal.hands.items())
        if name == "Result" and board.declarer is not None and board.declarer_tricks is not None:
            return (board.result.disputed if board.result else False, board.declarer_tricks)
    except ValueError:
        pass
    return value


def normalise(board: Board, keep: set[str] | None = None) -> dict[str, Any]:
    """The game content in the terms export keeps (see the module docstring)."""
    tags: dict[str, Any] = {}
    for t in board.tags:
        if t.implied or t.name in tags:
            continue
        if keep is not None and t.name in MTS and t.name not in keep:
            continue
        raw = t.raw if t.raw is not None and t.raw.startswith("##") else None
        if raw is not None and t.value.startswith("#") and unescape(raw[2:]) == t.value:
            raw = None  # a value of its own that starts with '#' can only be written "##..."
        tags[t.name] = (_tag_value(board, t.name, t.value), raw, _comments(t.comments), t.section)
    tables = sorted(
        (
            t.name,
            [c.spec for c in t.columns],
            [list(r) for r in t.rows],
            t.raw,
            _comments(t.comments),
        )
        for t in board.tables
    )
    return {
        "tags": tags,
        "auction": _auction(board.auction) if board.auction else None,
        "play": _play(board.play) if board.play else None,
        "tables": tables,
        "comments": _comments(board.comments),
    }
