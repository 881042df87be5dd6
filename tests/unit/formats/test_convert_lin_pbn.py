"""LIN <-> PBN through the models: what each keeps, and what is reported as lost.

``adapt`` is tested on its own (LIN -> PBN form -> LIN) over the whole LIN corpus,
and the text round trips through the PBN writer and reader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from shared import REAL as SHARED
from shared import REAL_LIN, REAL_PBN, files, needs_corpus

import bridgefiles as bf
from bridgefiles.api import dumps_with_diagnostics
from bridgefiles.formats.convert import (
    LIN_DERIVED_TAGS,
    LIN_TAGS,
    LOST,
    adapt,
    alert_note,
    lin_text_to_pbn,
    pbn_text_to_lin,
)
from bridgefiles.model import (
    Annotations,
    Auction,
    AuctionEnd,
    AuctionEntry,
    Board,
    Call,
    Comment,
    Note,
    PlayEnd,
    Seat,
    TagPair,
)
from bridgefiles.model.calls import PASS
from bridgefiles.model.diagnostic import Diagnostic

LIN_FILES = files(REAL_LIN, ".lin")
# the large PBN files only slow the suite: the small ones show every feature
PBN_FILES = [p for p in files(REAL_PBN, ".pbn") if p.stat().st_size < 200_000]

# the tags a LIN text carries, as such or derived again on reading (the converter's list)
KEPT_TAGS = sorted(LIN_TAGS | LIN_DERIVED_TAGS)


SOUTH_DEALS = "1SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,"  # md: South deals


def _lin_board(text: str) -> Board:
    """The first board of a line of LIN."""
    return bf.loads(text + "\n", format="lin").boards[0]


def _read_back(boards: Sequence[Board], fmt: str) -> tuple[tuple[Board, ...], list[Diagnostic]]:
    """The boards written in ``fmt`` and read again (as many as were written), with what
    the writer said it could not carry."""
    text, lost = dumps_with_diagnostics(boards, format=fmt)
    again = bf.loads(text, format=fmt).boards
    assert len(again) == len(boards)
    return again, lost


def _same_boards(boards: Sequence[Board], again: Sequence[Board],
                 key: Callable[[Board], Any]) -> None:
    """The boards read back are as many, and each the same as its original by ``key``."""
    assert len(again) == len(boards)
    for a, b in zip(boards, again, strict=True):
        assert key(a) == key(b), a.label


def _movie(board: Board) -> bool:
    return any(
        e.key in ("up", "ub", "") or (e.key in ("md", "pc", "mb") and e.position)
        for e in board.extras
    ) or any(d.code == "syntax" and d.severity.value == "warning" for d in board.diagnostics)


def _calls(board: Board) -> list[tuple[str, bool, str | None]]:
    if board.auction is None:
        return []
    return [
        (e.call.text if e.call else "?", e.annotations.alert, _one_line(e.annotations))
        for e in board.auction.entries
    ]


def _one_line(ann: Annotations) -> str | None:
    """Line breaks inside an explanation become spaces in PBN (reported as lost)."""
    text = ann.explanation
    return text if text is None or "\n" not in text else " ".join(text.split())


def _cards(board: Board) -> list[tuple[str | None, str]]:
    if board.play is None:
        return []
    return [(s.card.code if s.card else None, s.slot.value) for s in board.play.slots]


def _game(board: Board) -> dict[str, Any]:
    return {
        "tags": {name: board.tag(name) for name in KEPT_TAGS},
        "calls": _calls(board),
        "cards": _cards(board),
        "claim": board.play.claim.tricks if board.play and board.play.claim else None,
        "first": board.play.first if board.play else None,
    }


def _as_pbn(board: Board) -> Board:
    """What a PBN reader would give back for the adapted board (the writer's job aside)."""
    return adapt(board, "pbn").model_copy(update={"format": "pbn", "source": None})


@needs_corpus
@pytest.mark.parametrize("path", LIN_FILES, ids=[p.name for p in LIN_FILES])
def test_lin_pbn_lin_through_the_models(path: Path) -> None:
    for board in bf.load(path).boards:
        if _movie(board):
            continue
        pbn = _as_pbn(board)
        assert pbn.auction is None or all(
            e.annotations.explanation is None and not e.annotations.alert
            for e in pbn.auction.entries
        )
        back = adapt(pbn, "lin")
        text = bf.dumps([back], format="lin")
        again = bf.loads(text, format="lin").boards[0]
        assert _game(again) == _game(board), board.label
        # commentary comes back as nt (an at is reported lost as such)
        text_of = [e.value.replace("}", ")") for e in board.extras if e.key in ("nt", "at")]
        assert [e.value for e in again.extras if e.key == "nt"] == text_of


def test_explanations_become_notes_and_come_back() -> None:
    board = _lin_board(f"pn|s,w,n,e|md|{SOUTH_DEALS}|sv|o|"
                       "mb|1C!|an|16+ with 4 !S|mb|2H|an|weak|mb|p|mb|p|mb|p|pg||nt|what a hand|")
    pbn = adapt(board, "pbn")
    assert pbn.auction is not None
    first, second = pbn.auction.entries[:2]
    # an alert is a note, never the suffix '!' (NAG $1 "good call", pbn.md 6.3)
    assert first.annotations.suffix is None and first.annotations.note == 1
    assert second.annotations.suffix is None and second.annotations.note == 2
    assert not first.annotations.nags and not first.annotations.alert
    assert [n.text for n in pbn.auction.notes] == ["Alert: 16+ with 4 \\S", "weak"]
    assert pbn.auction.entries[-1].annotations.comments == (Comment(text="what a hand"),)
    back = adapt(pbn.model_copy(update={"format": "pbn"}), "lin")
    assert _calls(back)[:2] == [("1C", True, "16+ with 4 !S"), ("2H", False, "weak")]


def test_alerts_without_text_and_through_pbn_text() -> None:
    lin = (
        "pn|s,w,n,e|md|1SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,|sv|o|"
        "mb|1C!|mb|2H!|an|weak|mb|p|mb|p|mb|p|pg||\n"
    )
    board = bf.loads(lin, format="lin").boards[0]
    pbn_text, _ = dumps_with_diagnostics([board], format="pbn")
    assert '[Note "1:Alert"]' in pbn_text and '[Note "2:Alert: weak"]' in pbn_text
    assert "$1" not in pbn_text and "!" not in pbn_text.split("[Auction")[1].split("[Note")[0]
    from_pbn = bf.loads(pbn_text, format="pbn").boards[0]
    lin_text, _ = dumps_with_diagnostics([from_pbn], format="lin")
    assert "mb|1C!|mb|2H!|an|weak|mb|p|" in lin_text
    assert alert_note("Alert: x") == (True, "x") and alert_note("x") == (False, "x")


def test_suit_escapes() -> None:
    assert lin_text_to_pbn("3+ !C; 11-21") == "3+ \\C; 11-21"
    assert pbn_text_to_lin("5\\S") == "5!S"


@needs_corpus
def test_vugraph_header_loss_is_reported() -> None:
    board = bf.load(SHARED / "lin" / "vugraph" / "bph__00350.lin").boards[0]
    pbn = adapt(board, "pbn")
    lost = [d for d in pbn.diagnostics if d.code == LOST]
    assert any("rs" in d.message for d in lost)
    assert all(d.severity.value == "warning" for d in lost)
    assert pbn.tag("Event") == "EC 2004 Finland-Italy"


@needs_corpus
def test_vugraph_header_loss_is_reported_once_per_file() -> None:
    # the header is copied into every board; what PBN cannot carry of it is one fact
    path = SHARED / "lin" / "vugraph" / "bph__00350.lin"
    read = bf.load(path)
    assert len(read.boards) > 2
    found: list[Diagnostic] = []
    text = "".join(bf.iter_dumps(read, "pbn", on_diagnostic=found.append))
    header = [d for d in found if d.message.startswith("file header: ")]
    messages = [d.message for d in header]
    assert any("rs list" in m for m in messages)
    assert len(messages) == len(set(messages))
    # every board still carries the loss for whoever reads its own diagnostics
    assert all(
        any(d.message.startswith("file header: ") for d in adapt(b, "pbn").diagnostics)
        for b in read.boards
    )
    assert text.count("[Board ") == len(read.boards)


def _pbn_board(**changes: Any) -> Board:
    auction = Auction(
        first=Seat.N,
        entries=(
            AuctionEntry(call=Call.parse("1NT"), annotations=Annotations(note=1)),
            AuctionEntry(call=PASS),
            AuctionEntry(call=Call.parse("3NT"), annotations=Annotations(suffix="!")),
        ),
        end=AuctionEnd.ALL_PASS,
        notes=(Note(index=1, text="15-17 \\H"),),
    )
    tags = (
        TagPair(name="Event", value="Club night"),
        TagPair(name="Date", value="2024.01.01"),
        TagPair(name="Board", value="1"),
        TagPair(name="North", value="Smith, J"),
        TagPair(name="Dealer", value="N"),
        TagPair(name="Vulnerable", value="None"),
        TagPair(name="Deal", value="N:AKQJ.AKQ.AKQ.AKQ 5432.5432.5432.2 6789.6789.6789.3 -"),
        TagPair(name="Declarer", value="N"),
        TagPair(name="Contract", value="3NT"),
        TagPair(name="Result", value="12"),
    )
    board = Board(tags=tags, auction=auction, format="pbn")
    return board.model_copy(update=changes)


def test_pbn_to_lin_keeps_what_lin_can_say_and_reports_the_rest() -> None:
    board = _pbn_board()
    text, lost = dumps_with_diagnostics([board], format="lin")
    assert "mb|1N|an|15-17 !H|mb|p|mb|3N|mb|p|mb|p|mb|p|" in text  # '!' is "good call"
    assert "mc|12|" in text  # the Result with no play becomes a claim
    assert "pn|,,Smith  J,|" in text
    messages = " / ".join(d.message for d in lost)
    assert "Event" in messages and "Date" in messages  # no room: no vugraph header
    assert "','" in messages
    assert "suffix !" in messages
    assert all(d.code == LOST and d.board == "1" for d in lost)
    again = bf.loads(text, format="lin").boards[0]
    assert again.contract is not None and again.contract.text == "3NT"
    assert again.tag("Result") == "12" and again.declarer is Seat.N


def test_pbn_stopped_play_becomes_a_claim() -> None:
    lin = _lin_board(f"md|{SOUTH_DEALS}|sv|o|"
                     "mb|7N|mb|p|mb|p|mb|p|pc|D5|pc|D6|pc|DT|pc|DA|pc|SA|mc|13|")
    assert lin.play is not None
    # as the PBN reader gives it: no claim object, play stopped, Result 13
    pbn = lin.model_copy(
        update={
            "format": "pbn",
            "play": lin.play.model_copy(update={"claim": None, "end": PlayEnd.STOPPED}),
        }
    )
    text = bf.dumps([pbn], format="lin")
    assert "pc|SA|mc|13|" in text


def test_team_match_from_pbn_gets_a_vugraph_header() -> None:
    open_room = _pbn_board().with_tag("Room", "Open").model_copy(update={"format": "pbn"})
    closed = open_room.with_tag("Room", "Closed").model_copy(update={"format": "pbn"})
    text, lost = dumps_with_diagnostics([open_room, closed], format="lin")
    assert any("Date" in d.message for d in lost)
    lines = text.splitlines()
    assert lines[0].startswith("vg|Club night,")
    assert lines[1].startswith("qx|o1|") and lines[2].startswith("qx|c1|")
    again = bf.loads(text, format="lin").boards
    assert [b.room for b in again] == ["Open", "Closed"]
    assert again[0].tag("Event") == "Club night"


@needs_corpus
@pytest.mark.parametrize("path", LIN_FILES, ids=[p.name for p in LIN_FILES])
def test_lin_to_pbn_to_lin_text(path: Path) -> None:
    boards = [b for b in bf.load(path).boards if not _movie(b) and b.deal is not None]
    if not boards:
        pytest.skip("no board with a deal outside movie steps")
    again, _ = _read_back(_read_back(boards, "pbn")[0], "lin")
    _same_boards(boards, again, _game)


@needs_corpus
@pytest.mark.parametrize("path", PBN_FILES[:40], ids=[p.name for p in PBN_FILES[:40]])
def test_pbn_to_lin_to_pbn(path: Path) -> None:
    loaded = bf.load(path)
    boards = [b for b in loaded.boards[:200] if b.deal is not None and b.deal.is_complete]
    if not boards:
        pytest.skip("no complete deals")
    again, lost = _read_back(boards, "lin")
    for a, b in zip(boards, again, strict=True):
        assert a.deal is not None and b.deal is not None and a.deal.hands == b.deal.hands
        for name in ("Board", "West", "North", "East", "South", "Dealer", "Room"):
            if a.tag(name) not in (None, "", "?") and "," not in (a.tag(name) or ""):
                assert a.tag(name) == b.tag(name), (a.label, name)
        if a.vulnerable is not None:
            assert a.vulnerable == b.vulnerable
        if a.auction is not None and a.auction.entries:
            calls_a = [c.text for _, c in a.auction.calls()]
            calls_b = [c.text for _, c in b.auction.calls()] if b.auction else []
            assert calls_b[: len(calls_a)] == calls_a, a.label
    assert all(d.code == LOST for d in lost)


def _bridge(board: Board) -> tuple[str | None, Seat | None, str | None]:
    """What the board comes to: contract and declarer from its auction (model.outcome,
    the one reckoning both readers use), and the tricks declarer took."""
    outcome = board.outcome
    if outcome is None or outcome.contract is None:
        return None, None, None
    result = (board.tag("Result") or "").strip()
    tricks = result if result.isdigit() and outcome.declarer is not None else None
    return outcome.contract.text, outcome.declarer, tricks  # PBN export writes '?' or


@needs_corpus
@pytest.mark.parametrize("path", LIN_FILES, ids=[p.name for p in LIN_FILES])
def test_every_lin_board_means_the_same_in_pbn(path: Path) -> None:
    """LIN -> PBN text -> read: every board, movies included, has the same contract,
    declarer and tricks."""
    boards = bf.load(path).boards
    _same_boards(boards, _read_back(boards, "pbn")[0], _bridge)


@needs_corpus
@pytest.mark.parametrize("path", PBN_FILES, ids=[p.name for p in PBN_FILES])
def test_every_pbn_board_means_the_same_in_lin(path: Path) -> None:
    """PBN -> LIN text -> read: the same contract, declarer and tricks for every board
    whose deal and auction LIN can carry."""
    boards = [
        b
        for b in bf.load(path).boards
        if b.deal is not None and b.deal.is_complete and b.auction is not None
    ]
    if not boards:
        pytest.skip("no board with a complete deal and an auction")
    again, _ = _read_back(boards, "lin")
    for a, b in zip(boards, again, strict=True):
        contract, declarer, result = _bridge(a)
        if contract is None:
            continue
        assert _bridge(b)[:2] == (contract, declarer), a.label
        if result is not None and _bridge(b)[2] != result:
            # a Result LIN cannot hold as such (a partial result) is said for the board
            said = [d.message for d in adapt(a, "lin").diagnostics if d.code == LOST]
            assert any("result" in m for m in said), a.label
