"""`bridgefiles show`: exact text for corpus boards, through the library and the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared import REAL, REAL_LIN, REAL_PBN, ROOT, needs_corpus

import bridgefiles as bf
from bridgefiles import batch
from bridgefiles.cli import main
from bridgefiles.views.render import can_print_symbols, render_board

PBN_FILE = REAL_PBN / "endplay__example1.pbn"
LIN_FILE = REAL_LIN / "pbntools__3381671193.lin"

pytestmark = needs_corpus

ENDPLAY_OPEN_ASCII = """\
Board 1 (Open)   Dealer North   Vul None
16th European Youth Team Championships

              North (Linde J)
              S T32
              H AKQ7
              D T3
              C AQJT
West (Gloyer A)             East (Saurer B)
S KQ75                      S A9864
H 6                         H 83
D QJ9865                    D AK4
C 42                        C 987
              South (Balschun R)
              S J
              H JT9542
              D 72
              C K653

West      North     East      South
          1C        1S        2H
4S        5H        Pass      Pass
Pass

 1. W DQ  N D3  E D4  S D2  won by W
 2. W SK  N S2  E S4  S SJ  won by W
 3. W DJ  N DT  E DK  S D7  won by E
    play stopped (claim or concession)

Contract 5H by South, 10 tricks, down 1, NS -50"""

BBO_SYMBOLS = """\
Board 1   Dealer North   Vul None

              North (jaak99)
              ♠ AQ983
              ♥ A973
              ♦ K92
              ♣ 3
West (sisse1745)            East (myriam1745)
♠ 654                       ♠ J7
♥ KJ65                      ♥ -
♦ T54                       ♦ AQJ863
♣ AQ7                       ♣ KJ864
              South (jdr9999)
              ♠ KT2
              ♥ QT842
              ♦ 7
              ♣ T952

West      North     East      South
          1♠        2NT!      Pass
3♣        Pass      3♦        Pass
3♥        Pass      4♦        Pass
5♦        Pass      Pass      Pass
  2NT!: gesthem

 1. S ♠2  W ♠4  N ♠A  E ♠7  won by N
 2. N ♠3  E ♠J  S ♠K  W ♠5  won by S
 3. S ♠T  W ♠6  N ♠Q  E ♦3  won by E
 4. E ♣4  S ♣5  W ♣Q  N ♣3  won by W
 5. W ♦T  N ♦2  E ♦6  S ♦7  won by W
 6. W ♦4  N ♦9  E ♦J  S ♥2  won by E
 7. E ♦A  S ♥4  W ♦5  N ♦K  won by E
 8. E ♣6  S ♣2  W ♣A  N ♥3  won by W
 9. W ♣7  N ♠9  E ♣K  S ♣9  won by E
10. E ♣J  S ♣T  W ♥5  N ♥7  won by E
11. E ♣8  S ♥8  W ♥6  N ♥9  won by E
    claim: declarer's side 11 tricks

Contract 5♦ by East, 11 tricks, made, NS -400"""


def _ascii(text: str) -> str:
    for symbol, letter in zip("♠♥♦♣", "SHDC", strict=True):
        text = text.replace(symbol, letter)
    return text


def test_render_pbn_board_exactly() -> None:
    board = next(iter(bf.read(PBN_FILE)))
    assert render_board(board, symbols=False) == ENDPLAY_OPEN_ASCII


def test_render_lin_board_with_alert_and_claim_exactly() -> None:
    board = next(iter(bf.read(LIN_FILE)))
    assert render_board(board, symbols=True) == BBO_SYMBOLS
    assert render_board(board, symbols=False) == _ascii(BBO_SYMBOLS)


def test_show_command_prints_the_board_runner() -> None:
    result = CliRunner().invoke(main, ["show", str(LIN_FILE), "--ascii"])
    assert result.exit_code == 0, result.output
    assert result.stdout == _ascii(BBO_SYMBOLS) + "\n"


def test_show_command_selects_a_board_by_number_subprocess() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bridgefiles.cli", "show", str(PBN_FILE), "--board", "1"],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode("utf-8")
    # two rooms of board 1, with symbols since the stream can print them
    assert text.count("Board 1 (") == 2
    assert "♠ T32" in text and "S T32" not in text
    first = text.split("\n\n", 1)[0]
    assert first == ENDPLAY_OPEN_ASCII.split("\n\n", 1)[0]


def test_show_falls_back_to_letters_when_the_terminal_cannot_print_symbols() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bridgefiles.cli", "show", str(LIN_FILE)],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("ascii") == _ascii(BBO_SYMBOLS) + "\n"


def test_show_from_standard_input() -> None:
    data = LIN_FILE.read_bytes()
    result = CliRunner().invoke(main, ["show", "-", "--ascii", "--from", "lin"], input=data)
    assert result.exit_code == 0, result.output
    assert result.stdout == _ascii(BBO_SYMBOLS) + "\n"


def test_show_unknown_board_exits_1_and_missing_file_exits_2() -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["show", str(PBN_FILE), "--board", "99"])
    assert missing.exit_code == 1
    assert "no board 99" in missing.stderr
    unreadable = runner.invoke(main, ["show", "no/such/file.pbn"])
    assert unreadable.exit_code == 2


class _Stream:
    def __init__(self, encoding: str | None) -> None:
        self.encoding = encoding


def test_can_print_symbols_follows_the_stream_encoding() -> None:
    assert can_print_symbols(_Stream("utf-8"))
    assert not can_print_symbols(_Stream("ascii"))
    assert not can_print_symbols(_Stream("latin-1"))
    assert not can_print_symbols(_Stream(None))


# -- every board, and what a file must not do to a terminal ---------------------------------

PCH = REAL_PBN / "pbntools__PCH1003.pbn"  # board "01", 5CX contracts
PAV = REAL_PBN / "ben__pav_first120.pbn"  # board 59 holds the unknown call "AC"
ALL_FILES = [Path(i.path) for i in batch.expand([str(REAL)])] if REAL.is_dir() else []


@pytest.mark.parametrize("path", ALL_FILES, ids=[p.name for p in ALL_FILES])
def test_every_board_of_every_real_file_renders(path: Path) -> None:
    """Every board, with symbols and in letters; every contract line names its strain."""
    for board in bf.read(path):
        for symbols in (True, False):
            text = render_board(board, symbols=symbols)
            contract = [line for line in text.splitlines() if line.startswith("Contract ")]
            assert all(not line[len("Contract "):][:1].isalpha() or "Pass" in line
                       for line in contract), contract
            assert "♣ontract" not in text and "\x1b" not in text


def test_a_board_number_finds_its_zero_padded_spelling() -> None:
    one = CliRunner().invoke(main, ["show", str(PCH), "--board", "1"])
    zero_one = CliRunner().invoke(main, ["show", str(PCH), "--board", "01"])
    assert one.exit_code == 0 and one.stdout == zero_one.stdout
    assert "Contract 5♣X by North" in one.stdout or "Contract 5CX by North" in one.stdout
    assert "♣ontract" not in one.stdout


def test_an_auction_with_an_unknown_call_renders() -> None:
    result = CliRunner().invoke(main, ["show", str(PAV), "--board", "59"])
    assert result.exit_code == 0 and result.exception is None
    assert "?" in result.stdout


def test_control_characters_from_a_file_are_escaped(tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.pbn"
    hostile.write_bytes(
        b'[Event "Club\x1b]0;owned\x07 night"]\n[Board "1"]\n[West "A\x1b[2J"]\n'
        b'[Dealer "N"]\n[Vulnerable "None"]\n'
        b'[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n')
    result = CliRunner().invoke(main, ["show", str(hostile)])
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "Club\\x1b]0;owned\\x07 night" in result.stdout and "A\\x1b[2J" in result.stdout
