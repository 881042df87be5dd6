"""BRI, DGE, DUP and DLM against byte layouts written out by hand from the published
descriptions (Duplimate's convert notes, Big Deal's writers), and back.

The deal used throughout (board 1 of Big Deal's own sample files):
N AJ9.K9542.Q.AK93, E K.QJ76.K98763.75, S QT6543.AT.JT.T62, W 872.83.A542.QJ84.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles.exchange import dlm
from bridgefiles.exchange.cards import owners_of
from bridgefiles.formats.convert import LOST
from bridgefiles.model.diagnostic import Diagnostic

DEAL_1 = "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84"
DEAL_2 = "N:AKQ984.KQT7..Q83 7.J63.AJT82.A754 532.854.Q43.KT62 JT6.A92.K9765.J9"
# card numbers 01 = SA ... 13 = S2, 14 = HA ... 52 = C2, counted by hand
NORTH = "01040615192324262940414551"  # SA SJ S9 / HK H9 H5 H4 H2 / DQ / CA CK C9 C3
EAST = "02161721222832333435384749"  # SK / HQ HJ H7 H6 / DK D9 D8 D7 D6 D3 / C7 C5
SOUTH = "03050910111214183031444852"  # SQ ST S6 S5 S4 S3 / HA HT / DJ DT / CT C6 C2
BRI_1 = NORTH + EAST + SOUTH + " " * 32 + "\0" * 18
S, H, D, C = "\x06", "\x03", "\x04", "\x05"  # the DOS suit glyphs
DGE_1 = (
    f"{S}AJ9{H}K9542{D}Q{C}AK93"
    f"{S}K{H}QJ76{D}K98763{C}75"
    f"{S}QT6543{H}AT{D}JT{C}T62"
    f"{S}872{H}83{D}A542{C}QJ84"
) + "\0" * 60
# Big Deal's DLM lines for the same two boards (letters and checksums as it writes them)
DLM_1 = "Board 01=biipkkobgdfamncjfhnmdodghc030"
DLM_2 = "Board 02=admboclaeobkhhjhhpkfiomgfc020"


def _pbn(*deals: str) -> bf.BridgeFile:
    games = "\n".join(f'[Board "{i}"]\n[Deal "{d}"]\n' for i, d in enumerate(deals, start=1))
    return bf.loads(games, format="pbn")


def test_bri_layout_is_the_published_one() -> None:
    assert len(BRI_1) == 128
    assert bf.dumps(_pbn(DEAL_1), "bri") == BRI_1
    board = bf.loads(BRI_1.encode("ascii"), format="bri").boards[0]
    assert (board.tag("Deal"), board.tag("Board")) == (DEAL_1, "1")
    # Law 2 for the board number the place gives
    assert (board.tag("Dealer"), board.tag("Vulnerable")) == ("N", "None")


def test_dge_layout_is_the_published_one() -> None:
    assert len(DGE_1) == 128
    assert bf.dumps(_pbn(DEAL_1), "dge") == DGE_1
    assert bf.loads(DGE_1.encode("ascii"), format="dge").boards[0].tag("Deal") == DEAL_1


def test_dup_is_bri_then_dge_then_control_bytes() -> None:
    text = bf.dumps(_pbn(DEAL_1, DEAL_2), "dup")
    assert len(text) == 2 * 156
    assert text[:78] == BRI_1[:78] and text[78:146] == DGE_1[:68]
    # random hands Y, backwards N, lowest board 1, copies 0, highest board 2
    assert text[146:156] == "YN1  0 2  " == text[156 + 146 :]
    back = bf.loads(text.encode("ascii"), format="dup").boards
    assert [b.tag("Deal") for b in back] == [DEAL_1, DEAL_2]
    assert [b.tag("Board") for b in back] == ["1", "2"]


def test_dup_numbers_boards_from_its_lowest_board() -> None:
    record = BRI_1[:78] + " " * 68 + "NN17 1 17 "  # not shown on screen: 68 spaces
    board = bf.loads(record.encode("ascii"), format="dup").boards[0]
    assert (board.tag("Board"), board.tag("Deal"), board.tag("Dealer")) == ("17", DEAL_1, "N")
    assert [e.value for e in board.extras] == ["NN17 1 17 "]  # flags the writer would not give
    assert bf.dumps([board], "dup", layout="export")[146:] == "NN17 1 17 "


def test_dup_whose_screen_copy_disagrees_is_an_error() -> None:
    wrong = BRI_1[:78] + DGE_1[17:68] + DGE_1[:17] + "YN1  0 1  "  # hands rotated
    board = bf.loads(wrong.encode("ascii"), format="dup").boards[0]
    assert [d.code for d in board.diagnostics] == ["deal"]
    assert "DGE copy" in board.diagnostics[0].message


def test_dlm_letters_and_checksums_are_big_deals() -> None:
    text = bf.dumps(_pbn(DEAL_1, DEAL_2), "dlm")
    lines = text.split("\r\n")
    assert DLM_1 in lines and DLM_2 in lines
    assert "Board 03=" + dlm.FILLER + "013" in lines  # a filler: board 3 xor 14
    assert lines.count("Crypto key=0") == 1 and "Checksum=2" in lines  # 0 ^ 1 ^ 2 ^ 1 (shown)
    assert sum(line.startswith("Board ") for line in lines) == 99
    back = bf.loads(text.encode("ascii"), format="dlm")
    assert [b.tag("Deal") for b in back.boards] == [DEAL_1, DEAL_2]  # fillers not read
    assert back.diagnostics == ()


def _dlm_file(board_line: str, crypto: str = "0", checksum: str = "2") -> bytes:
    head = ["[Document]", "Status=Show", "Duplicates=0", "From board=1", "To board=1",
            f"Crypto key={crypto}", f"Checksum={checksum}", "Duplicates 01=0", board_line]
    return "\r\n".join(head).encode("ascii")


def test_dlm_board_with_a_wrong_checksum_is_read_without_its_deal() -> None:
    bad = bf.loads(_dlm_file(DLM_1[:-3] + "031"), format="dlm").boards[0]
    assert bad.tag("Deal") is None
    assert [d.code for d in bad.diagnostics] == ["deal"]
    assert "checksum is 031, not 030" in bad.diagnostics[0].message


def test_encrypted_dlm_is_refused_with_a_reason() -> None:
    read = bf.loads(_dlm_file(DLM_1, crypto="7"), format="dlm")
    assert len(read.boards) == 0
    assert ["encrypted" in d.message for d in read.diagnostics] == [True]


def test_dlm_document_checksum_is_checked() -> None:
    read = bf.loads(_dlm_file(DLM_1, checksum="9"), format="dlm")
    assert [d.severity.value for d in read.diagnostics] == ["warning"]
    assert read.boards[0].tag("Deal") == DEAL_1


@pytest.mark.parametrize(
    ("fmt", "body"),
    [
        ("bri", "01" * 39 + " " * 50),  # card 01 thirty-nine times
        ("bri", "53" + NORTH[2:] + EAST + SOUTH + " " * 50),  # no card 53
        ("dge", DGE_1.replace(f"{S}872", f"{S}AJ9")),  # West's spades are North's
        ("dup", "02" + BRI_1[2:78] + " " * 68 + "YN1  0 1  "),  # SK twice, no SA
    ],
)
def test_a_bad_record_is_a_deal_error_on_its_board(fmt: str, body: str) -> None:
    board = bf.loads(body.encode("ascii"), format=fmt).boards[0]
    assert board.tag("Deal") is None and board.tag("Board") == "1"
    assert [d.code for d in board.diagnostics] == ["deal"]
    with pytest.raises(bf.BridgeFileError):
        bf.loads(body.encode("ascii"), format=fmt, strict=True)


@pytest.mark.parametrize("fmt", ["bri", "dge", "dup", "dlm"])
def test_input_with_no_deal_converts_to_nothing(fmt: str, tmp_path: Path) -> None:
    source = tmp_path / f"noise.{fmt}"
    source.write_bytes(b"this is no dealing file\r\n" * 3)
    target = tmp_path / "out.pbn"
    with pytest.raises(bf.BridgeFileError, match="no board"):
        bf.convert(source, target)
    assert not target.exists()


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("bri", BRI_1),
        ("dge", DGE_1),
        ("dup", BRI_1[:78] + DGE_1[:68] + "YN1  0 1  "),
        ("dlm", _dlm_file(DLM_1).decode("ascii")),
    ],
)
def test_the_content_says_the_format(fmt: str, text: str) -> None:
    read = bf.loads(text.encode("ascii"))  # no name, no format given
    assert read.boards[0].format == fmt
    assert read.boards[0].tag("Deal") == DEAL_1


@pytest.mark.parametrize("fmt", ["bri", "dge", "dup"])
def test_preserve_layout_gives_the_records_back_byte_for_byte(fmt: str) -> None:
    odd = BRI_1[:78] + "\0" * 50 if fmt == "bri" else None  # other padding than ours
    source = {"bri": odd, "dge": DGE_1, "dup": BRI_1[:78] + " " * 68 + "YN1  3 1  "}[fmt]
    assert source is not None
    read = bf.loads(source.encode("ascii"), format=fmt)
    assert bf.dumps(read, fmt, layout="preserve") == source


def test_what_a_dealing_file_cannot_hold_is_reported() -> None:
    pbn = bf.load(FIXTURES / "sample-event.pbn")
    found: list[Diagnostic] = []
    text = bf.dumps(pbn, "bri", on_diagnostic=found.append)
    # three tables played boards 1-4: each deal once, in the order the boards come
    assert len(text) == 128 * 4
    back = bf.loads(text.encode("ascii"), format="bri").boards
    assert [b.tag("Board") for b in back] == ["1", "2", "3", "4"]
    firsts = {b.board_number: b for b in reversed(pbn.boards)}  # the first of each number
    assert [owners_of(b) for b in back] == [owners_of(firsts[n]) for n in "1234"]
    messages = [d.message for d in found if d.code == LOST]
    assert not any("board number" in m or "Dealer" in m for m in messages)
    assert any("the auction" in m for m in messages)
    assert any("the play" in m for m in messages)
    assert any("Event" in m and "West" in m for m in messages)


def test_a_board_number_or_dealer_the_place_cannot_give_is_reported() -> None:
    board = bf.loads('[Board "5"]\n[Dealer "S"]\n[Deal "' + DEAL_1 + '"]\n').boards[0]
    found: list[Diagnostic] = []
    bf.dumps([board], "bri", on_diagnostic=found.append)
    messages = " | ".join(d.message for d in found)
    assert "board number 5 (read back as 1" in messages
    assert "Dealer S (read back as N" in messages
    found.clear()
    bf.dumps([board], "dlm", on_diagnostic=found.append)  # DLM keeps the number
    assert [d.message for d in found] == [
        "DLM cannot carry Dealer S (read back as N, board 5's by Law 2)"
    ]


def test_a_second_deal_for_a_board_number_is_not_written_and_reported() -> None:
    two = bf.loads(f'[Board "1"]\n[Deal "{DEAL_1}"]\n\n[Board "1"]\n[Deal "{DEAL_2}"]\n')
    for fmt in ("bri", "dge", "dup", "dlm"):
        found: list[Diagnostic] = []
        text = bf.dumps(two, fmt, on_diagnostic=found.append)
        back = bf.loads(text.encode("ascii"), format=fmt).boards
        assert [b.tag("Deal") for b in back] == [DEAL_1], fmt
        assert [d.message for d in found] == [
            f"{fmt.upper()} cannot carry a second deal for board 1 (one deal a board is written)"
        ]


def test_dup_whose_lowest_board_is_no_number_says_so_and_counts_from_1() -> None:
    record = BRI_1[:78] + " " * 68 + "YNxx 0 1  "
    board = bf.loads(record.encode("ascii"), format="dup").boards[0]
    assert board.tag("Board") == "1"
    assert [d.severity.value for d in board.diagnostics] == ["warning"]
    assert "'xx ' is not a number" in board.diagnostics[0].message
