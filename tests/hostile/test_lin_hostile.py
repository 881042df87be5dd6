"""LIN input made to hurt (issue 15): memory bounded inside a chunk, chunks that stream,
linear work on long runs and comment lines, non-LIN text refused; and the contract a LIN
auction comes to, computed once (model.outcome) for LIN as for PBN.

Linear work is asserted in test_limits.py (counts, never time); the timings are in
scripts/bench_limits.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared import REAL_LIN as LIN_DIR
from shared import files

import bridgefiles as bf
from bridgefiles.cli import main
from bridgefiles.formats.lin.commands import CHUNK_CAP_FACTOR, Chunk, Run
from bridgefiles.formats.lin.parser import chunks
from bridgefiles.formats.lin.source import PendingText
from bridgefiles.limits import Limits

LIN_FILES = files(LIN_DIR, ".lin")
DEAL = "md|3SAKQJ5432HAKQJ5D2C2,S6H6D6543C876543,ST987HT98DAKQJCAK,|"


def _lines(text: str) -> Iterator[str]:
    return iter(text.splitlines(keepends=True))


def _flat(found: list[Chunk]) -> list[tuple[str, str, int, int, int]]:
    out = []
    for chunk in found:
        for c in chunk.commands:
            out.append((c.tag, c.value, c.offset, c.line, c.column))
    return out


# -- the same contract as PBN (Law 36) ---------------------------------------------


def test_an_inadmissible_double_is_cancelled_as_in_pbn() -> None:
    """South doubles partner's 1H: Law 36 cancels it, the contract is 1H (was 1HX)."""
    lin = f"pn|s,w,n,e|{DEAL}sv|o|mb|1H|mb|p|mb|d|mb|p|mb|p|mb|p|pg||\n"
    board = bf.loads(lin, "lin").boards[0]
    assert board.tag("Contract") == "1H"
    assert board.tag("Declarer") == "N"
    pbn = bf.loads(bf.dumps([board], "pbn"), "pbn").boards[0]
    assert pbn.contract is not None and pbn.contract.text == board.tag("Contract")
    assert board.outcome is not None and board.outcome.irregular


# -- memory: one chunk never grows past its cap -------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "||||||||x\n" * 400,  # lines of bars, each ending in a letter: never a bar at the end
        "|" * 5000,  # one long line of bars
        "pn|a,b,c,d|" + "pc|SA|" * 800 + "\n",  # one long line of commands
        "nt|" + "word " * 300 + "|" + "pc|SA|pc|HA|" * 300,  # a long value, then pairs
    ],
)
def test_chunks_stay_under_the_cap_and_read_the_same(text: str) -> None:
    size = 64
    small = list(chunks(_lines(text), max_open=10_000, chunk_size=size))
    # at most the cap and one more pair, or a single value longer than the cap
    cap = CHUNK_CAP_FACTOR * size
    assert all(len(c.text) <= cap + 16 or c.text.count("|") <= 2 for c in small)
    assert len(small) > 1
    assert "".join(c.text for c in small) == text
    whole = list(chunks(_lines(text), max_open=10_000, chunk_size=1 << 30))
    assert _flat(small) == _flat(whole)  # same commands, values, offsets, lines and columns


def test_a_file_of_bars_ending_in_letters_streams() -> None:
    """Chunks come out while the lines are still being read (not one chunk at the end)."""
    taken = 0

    def lines() -> Iterator[str]:
        nonlocal taken
        for _ in range(10_000):
            taken += 1
            yield "||||||||||||||||||||x\n"

    first = next(chunks(lines(), max_open=1_000_000, chunk_size=1 << 10))
    assert first.items and taken < 1_000


# -- linear time: comment lines, runs with odd whitespace ------------------------------


def test_pending_text_copies_each_character_a_bounded_number_of_times() -> None:
    text = PendingText()
    pieces = [f"% line {i}\n" for i in range(5_000)]
    for p in pieces:
        text.add(p)
    assert text.cut(len(pieces[0])) == pieces[0]
    assert text.rest() == "".join(pieces[1:])
    assert text.rest() == ""


def test_pending_text_cuts_across_and_inside_pieces() -> None:
    text = PendingText()
    for p in ("abc", "def", "ghi"):
        text.add(p)
    assert text.cut(4) == "abcd"
    assert text.cut(4) == ""
    assert text.cut(8) == "efgh"
    text.add("jk")
    assert text.rest() == "ijk"
    assert text.start == text.end == 11


def test_comment_lines_before_a_board_are_file_directives() -> None:
    f = bf.loads(b"% one\n% two\n" + f"pn|a,b,c,d|{DEAL}\n".encode(), "lin")
    assert [d.text for d in f.directives] == [" one", " two"]


def _naive(text: str, line: int, column: int, at: int) -> tuple[int, int]:
    nl = text.rfind("\n", 0, at)
    return (line, column + at) if nl < 0 else (line + text.count("\n", 0, at), at - nl)


def test_run_positions_count_forward_and_match_the_plain_count() -> None:
    text = "pc|SA|\n pc|HA|  \n\npc|DA|pc|CA|\n  pc|S2|"
    run = Run(text, 100, 7, 5)
    places = [i for i in range(len(text)) if text.startswith("pc", i)]
    assert [run.position(at) for at in places] == [_naive(text, 7, 5, at) for at in places]
    assert run.position(places[1]) == _naive(text, 7, 5, places[1])  # asked again, backwards


def test_play_runs_with_odd_whitespace_are_placed() -> None:
    lin = f"pn|a,b,c,d|{DEAL}mb|p|\n pc|SA|\n  pc|HA|"
    play = bf.loads(lin, "lin").boards[0].play
    assert play is not None
    placed = [(s.card.code, *play.where(i)) for i, s in enumerate(play.slots) if s.card]
    assert placed == [
        ("SA", 2, 2),
        ("HA", 3, 3),
    ]
    commands = [c for chunk in chunks(_lines(lin)) for c in chunk.commands]
    assert [(c.tag, c.line, c.column) for c in commands if c.tag == "pc"] == [
        ("pc", 2, 2),
        ("pc", 3, 3),
    ]


# -- not a LIN file ------------------------------------------------------------------

UTF16_NO_BOM = f"pn|a,b,c,d|{DEAL}mb|1S|mb|p|mb|p|mb|p|pg||\n".encode("utf-16-le")


@pytest.mark.parametrize(
    "data, codes",
    [
        (b"hello world\n", ["syntax"]),
        (b"", ["syntax"]),
        (b"just some words | and a bar\n", ["syntax"]),
        (UTF16_NO_BOM, ["encoding", "syntax"]),
    ],
)
def test_text_that_is_not_lin_is_an_error_with_no_board(data: bytes, codes: list[str]) -> None:
    f = bf.loads(data, "lin")
    assert f.boards == ()
    assert [d.code for d in f.diagnostics] == codes
    assert all(d.severity.value == "error" for d in f.diagnostics)
    assert bf.dumps(f, "lin", layout="preserve") == data.decode("latin-1")


@pytest.mark.parametrize("data", [b"hello world\n", UTF16_NO_BOM])
def test_validate_exits_1_on_text_that_is_not_lin(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "upload.lin"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert "error[syntax] no board" in result.output


def test_a_board_of_commands_only_still_reads() -> None:
    f = bf.loads(f"{DEAL}\n", "lin")
    assert len(f.boards) == 1 and not f.diagnostics


# -- export, read, export: the same text ------------------------------------------------


def _stable(lin: str) -> bf.BridgeFile:
    first = bf.dumps(bf.loads(lin, "lin"), "lin")
    assert bf.dumps(bf.loads(first, "lin"), "lin") == first
    return bf.loads(first, "lin")


def test_cards_taken_back_stay_where_they_stood_and_are_taken_back_again() -> None:
    lin = f"pn|s,w,n,e|{DEAL}mb|1S|mb|p|mb|p|mb|p|pc|S6|at|x|pc|ST|pc|SA|up|2|at|undone|pc|S7|"
    f = _stable(lin)
    board = f.boards[0]
    assert board.play is not None
    assert [s.card.code for s in board.play.slots if s.card] == ["S6", "S7"]
    kept = [(e.key, e.value) for e in board.extras if e.key in ("pc", "at", "up")]
    assert kept == [("at", "x"), ("pc", "ST"), ("pc", "SA"), ("up", "2"), ("at", "undone")]


def test_a_suit_with_no_card_to_play_is_kept_as_the_suit() -> None:
    one_suit = "md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|"
    lin = f"pn|s,w,n,e|{one_suit}mb|1S|mb|p|mb|p|mb|p|pc|HA|pc|hh|"  # North has no heart
    board = _stable(lin).boards[0]
    assert [(e.key, e.value) for e in board.extras if e.key == "pc"] == [("pc", "H")] * 2
    assert board.play is not None
    assert [s.card.code for s in board.play.slots if s.card] == ["HA"]


def test_md_with_nothing_in_it_is_a_display_command() -> None:
    board = _stable("qx|o1|md||st||md||at|a|").boards[0]
    assert [e.key for e in board.extras].count("md") == 2
    assert board.deal is None


def test_a_board_whose_deal_cannot_be_read_still_opens_where_it_did() -> None:
    lin = f"qx|o1|{DEAL}sv|o|mb|p|\nst||md|1SAK1,,,|sv|n|nt|two|\n"
    f = _stable(lin)
    assert len(f.boards) == 2 and f.boards[1].tag("Vulnerable") == "NS"


def test_a_command_name_with_blanks_is_written_as_read_back() -> None:
    f = _stable("pn|a,b,c,d|qx|o3,BOARD 3|rh||md|1SA,,,|")
    assert f.boards


def test_comment_lines_before_the_first_board_stop_being_held_at_the_limit() -> None:
    board = f"pn|a,b,c,d|{DEAL}\n".encode()
    data = b"% comment\n" * 50 + board
    f = bf.loads(data, "lin", limits=Limits(max_commands_per_board=10))
    assert len(f.directives) == 10 and len(f.boards) == 1
    assert [d.code for d in f.diagnostics] == ["limit"]
    assert bf.dumps(f, "lin", layout="preserve") == data.decode()


def test_preserve_keeps_a_cp1252_lin_file_byte_for_byte(tmp_path: Path) -> None:
    data = f"pn|Jos\xe9,M\xfcller,b,c|{DEAL}sv|o|mb|p|mb|p|mb|p|mb|p|pg||\n".encode("cp1252")
    source = tmp_path / "in.lin"
    source.write_bytes(data)
    written = tmp_path / "lib.lin"
    bf.write(bf.load(source), written, "lin", layout="preserve")
    assert written.read_bytes() == data
    cli = tmp_path / "cli.lin"
    result = CliRunner().invoke(
        main, ["convert", str(source), "--to", "lin", "--preserve", "-o", str(cli)]
    )
    assert result.exit_code == 0, result.output
    assert cli.read_bytes() == data
    exported = tmp_path / "export.lin"
    bf.write(bf.load(source), exported, "lin")
    assert exported.read_bytes().decode("utf-8").startswith("pn|José,Müller")  # export: UTF-8
