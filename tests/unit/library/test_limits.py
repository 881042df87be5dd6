"""Limits: each setting is honoured with a ``limit`` diagnostic, and inputs made to be
slow cost work linear in their size (asserted as counts of work, never as time;
the timings are in scripts/bench_limits.py)."""

from __future__ import annotations

import importlib.util
import io
import itertools
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bridgefiles as bf
from bridgefiles.errors import StrictModeError
from bridgefiles.formats.decode import CutLine, LineDecoder, LineSplitter, split_lines
from bridgefiles.formats.registry import ReadOptions
from bridgefiles.limits import DEFAULT_LIMITS, Limits
from bridgefiles.model import Board, TagPair
from bridgefiles.testing import fuzzing

HAVE_LIN = importlib.util.find_spec("bridgefiles.formats.lin") is not None
needs_lin = pytest.mark.skipif(not HAVE_LIN, reason="the LIN reader is not built yet")


def _codes(f: bf.BridgeFile) -> list[str]:
    return [d.code for d in f.all_diagnostics()]


def _limit_messages(f: bf.BridgeFile) -> list[str]:
    return [d.message for d in f.all_diagnostics() if d.code == "limit"]


def _json_event(n: int, value: str = "x", *, own: bool = False) -> bytes:
    """``n`` boards; with ``own`` each has its own Event (``value`` after the board
    number), so none is written as a reference to the board before."""
    boards = [  # boards numbered from 1: a JSON board's tags are checked as PBN's are
        Board(tags=(TagPair(name="Board", value=str(i + 1)),
                    TagPair(name="Event", value=f"{i} {value}" if own else value)))
        for i in range(n)
    ]
    return bf.dumps(boards, "json").encode("utf-8")


def _pbn_game(i: int, extra: str = "") -> str:
    """A game ending with its blank line, ``extra`` text after its tags."""
    if extra and not extra.endswith("\n"):
        extra += "\n"
    return f'[Event "e"]\n[Board "{i}"]\n[Dealer "N"]\n{extra}\n'


# -- the settings ---------------------------------------------------------------------------


def test_defaults_are_safe_and_documented() -> None:
    limits = Limits()
    for name in ("max_file_size", "max_line_length", "max_boards", "max_tags_per_game",
                 "max_value_length", "max_comment_size", "max_nesting",
                 "max_commands_per_board"):
        value = getattr(limits, name)
        assert isinstance(value, int) and value > 0, name
    assert Limits.unlimited().max_file_size is None
    assert Limits().but(max_boards=3).max_boards == 3


@pytest.mark.parametrize("bad", [0, -1, 2.5, "10"])
def test_a_limit_must_be_a_positive_int(bad: object) -> None:
    with pytest.raises(ValueError, match="max_boards"):
        Limits(max_boards=bad)  # type: ignore[arg-type]


def test_check_is_none_within_and_a_limit_diagnostic_over() -> None:
    limits = Limits(max_tags_per_game=3)
    assert limits.check("max_tags_per_game", 3, what="tags") is None
    diag = limits.check("max_tags_per_game", 4, what="the tags of this game", line=7)
    assert diag is not None
    assert diag.code == "limit" and diag.severity.value == "error" and diag.line == 7
    assert "max_tags_per_game=3" in diag.message
    with pytest.raises(StrictModeError):
        limits.check("max_tags_per_game", 4, what="tags", strict=True)


def test_read_options_carry_the_limits_both_ways() -> None:
    assert ReadOptions().limits == DEFAULT_LIMITS
    assert ReadOptions(max_line_length=10).limits.max_line_length == 10
    opts = ReadOptions(limits=Limits(max_line_length=7, max_boards=2))
    assert opts.max_line_length == 7 and opts.max_boards == 2


# -- line length (decode layer) ----------------------------------------------------------


def test_a_long_line_is_cut_with_its_byte_offset_and_the_rest_is_read() -> None:
    data = _json_event(3, value="v" * 500, own=True)
    f = bf.loads(data, "json", limits=Limits(max_board_size=200))  # JSON: a board a line
    limits = [d for d in f.all_diagnostics() if d.code == "limit"]
    assert len(limits) == 3
    assert limits[0].line == 2 and "max_board_size=200" in limits[0].message
    assert "byte offset" in limits[0].message
    pbn = (_pbn_game(1, '[Annotator "' + "a" * 500 + '"]')).encode()
    g = bf.loads(pbn, "pbn", limits=Limits(max_line_length=200))
    assert any("max_line_length=200" in m for m in _limit_messages(g))  # others: lines


def test_splitter_keeps_at_most_the_limit_of_a_huge_line() -> None:
    splitter = LineSplitter(Limits(max_line_length=1000))
    chunks = [b"x" * 65536 for _ in range(160)] + [b"\nnext\n"]  # one 10 MB line
    lines = list(splitter.split(chunks))
    assert [len(x) for x in lines] == [1001, 5]
    assert isinstance(lines[0], CutLine) and lines[0].dropped == 160 * 65536 - 1000
    assert splitter.stats.most_held == 1000  # memory holds the limit, not the line
    assert splitter.stats.bytes_moved < 3000  # the dropped bytes are never kept


def test_cut_never_splits_a_utf8_character() -> None:
    data = "é".encode() * 10 + b"\n"
    decoder = LineDecoder(limits=Limits(max_line_length=5))
    text = decoder.decode_all(data)
    assert text == "éé\n"
    assert decoder.encoding == "utf-8"
    assert [d.code for d in decoder.diagnostics] == ["limit"]


def test_pbn_long_line_is_a_limit_diagnostic() -> None:
    text = _pbn_game(1, '[Annotator "' + "a" * 5000 + '"]') + _pbn_game(2)
    f = bf.loads(text.encode(), "pbn", limits=Limits(max_line_length=1000))
    assert "limit" in _codes(f)
    assert [b.board_number for b in f.boards] == ["1", "2"]


def test_str_input_honours_line_length_and_size() -> None:
    text = _json_event(2, value="v" * 300).decode()
    f = bf.loads(text, "json", limits=Limits(max_board_size=100))
    assert "limit" in _codes(f) and "max_board_size=100" in _limit_messages(f)[0]
    assert "limit" in _codes(bf.loads(text.replace("\n", " ", 1), "lin",
                                      limits=Limits(max_line_length=100)))
    g = bf.loads(text, "json", limits=Limits(max_file_size=120))
    assert any("max_file_size" in m for m in _limit_messages(g))


# -- file size -------------------------------------------------------------------------


def test_file_size_stops_reading_with_a_limit_diagnostic() -> None:
    data = _json_event(50)
    f = bf.loads(data, "json", limits=Limits(max_file_size=len(data) // 2))
    assert 0 < len(f.boards) < 50
    assert any("max_file_size" in m for m in _limit_messages(f))


def test_file_size_in_strict_mode_raises() -> None:
    data = _json_event(50)
    with pytest.raises(StrictModeError, match="max_file_size"):
        bf.loads(data, "json", strict=True, limits=Limits(max_file_size=100))


class _CountingStream(io.BytesIO):
    read_bytes = 0

    def read(self, size: int | None = -1) -> bytes:
        out = super().read(size)
        self.read_bytes += len(out)
        return out


def test_load_reads_no_more_than_the_file_size_limit(tmp_path: Path) -> None:
    stream = _CountingStream(_json_event(2000))
    f = bf.load(stream, "json", limits=Limits(max_file_size=10_000))
    assert stream.read_bytes <= 10_001 + 8192
    assert any("max_file_size" in m for m in _limit_messages(f))


def test_read_streams_no_more_than_the_file_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(_json_event(3000))
    boards = list(bf.read(path, limits=Limits(max_file_size=20_000)))
    assert 0 < len(boards) < 3000


# -- boards per file ------------------------------------------------------------------


def test_boards_per_file() -> None:
    f = bf.loads(_json_event(10), "json", limits=Limits(max_boards=4))
    assert len(f.boards) == 4
    assert any("max_boards=4" in m for m in _limit_messages(f))
    g = bf.loads(_json_event(4), "json", limits=Limits(max_boards=4))
    assert len(g.boards) == 4 and "limit" not in _codes(g)
    with pytest.raises(StrictModeError):
        bf.loads(_json_event(10), "json", strict=True, limits=Limits(max_boards=4))


def test_read_stops_at_the_board_limit(tmp_path: Path) -> None:
    path = tmp_path / "e.json"
    path.write_bytes(_json_event(10))
    assert len(list(bf.read(path, limits=Limits(max_boards=3)))) == 3


def test_pbn_boards_per_file() -> None:
    text = "".join(_pbn_game(i) for i in range(1, 8))
    f = bf.loads(text, "pbn", limits=Limits(max_boards=5))
    assert len(f.boards) == 5
    assert "limit" in _codes(f)


# -- per-format limits (the readers call Limits.check) --------------------------------


def test_pbn_tags_per_game() -> None:
    tags = "".join(f'[Tag{i} "v"]\n' for i in range(200))
    f = bf.loads(_pbn_game(1, tags), "pbn", limits=Limits(max_tags_per_game=50))
    assert any("max_tags_per_game" in m for m in _limit_messages(f))


def test_pbn_value_length() -> None:
    f = bf.loads(_pbn_game(1, '[Annotator "' + "a" * 500 + '"]'), "pbn",
                 limits=Limits(max_value_length=100))
    assert any("max_value_length" in m for m in _limit_messages(f))


def test_pbn_unterminated_comment_stops_at_the_comment_size() -> None:
    text = _pbn_game(1, "{ never closed\n" + "more text\n" * 2000) + _pbn_game(2)
    f = bf.loads(text, "pbn", limits=Limits(max_comment_size=1000))
    assert any("max_comment_size" in m for m in _limit_messages(f))


@needs_lin
def test_lin_unterminated_value_stops_at_the_comment_size() -> None:
    text = "pn|a,b,c,d|st||md|1SAKQ,,,|nt|" + "no closing bar " * 500 + "\nmb|p|mb|p|\n"
    f = bf.loads(text, "lin", limits=Limits(max_comment_size=1000))
    assert any("max_comment_size" in m for m in _limit_messages(f))


@needs_lin
def test_lin_commands_per_board() -> None:
    text = "pn|a,b,c,d|st||md|1SAKQ,,,|" + "mb|p|" * 300 + "\n"
    f = bf.loads(text, "lin", limits=Limits(max_commands_per_board=100))
    assert any("max_commands_per_board" in m for m in _limit_messages(f))


def test_json_deep_nesting_is_refused_cleanly() -> None:
    for data in (b"[" * 200_000, b'{"boards": ' * 100_000):
        try:
            f = bf.loads(data, "json")
        except bf.BridgeFileError as exc:
            assert not fuzzing.is_internal(exc), exc  # a bug of ours is no refusal
            continue
        assert f.all_diagnostics(), "deep nesting read without a word"


# -- linear work (counts, never time) -------------------------------------------------


def _work(fn: Callable[[], object]) -> int:
    """Python and C function calls made by ``fn``: a deterministic measure of work."""
    calls = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls


def _linear(make: Callable[[int], bytes], fmt: str, n: int, limits: Limits = DEFAULT_LIMITS
            ) -> tuple[int, int]:
    small, large = make(n), make(2 * n)
    a = _work(lambda: bf.loads(small, fmt, limits=limits))
    b = _work(lambda: bf.loads(large, fmt, limits=limits))
    assert b <= 2.2 * a, f"work grew from {a} to {b} when the input doubled"
    return a, b


def test_splitter_work_is_linear_in_the_bytes() -> None:
    def moved(data: bytes) -> int:
        splitter = LineSplitter()
        for _ in splitter.split([data[i : i + 4096] for i in range(0, len(data), 4096)]):
            pass
        return splitter.stats.bytes_in + splitter.stats.bytes_moved + splitter.stats.lines

    for unit in (b"x", b"ab\n", b"\r\n", b"\r", b"[Tag \"v\"]\r\n"):
        a, b = moved(unit * 50_000), moved(unit * 100_000)
        assert b <= 2.2 * a, unit


def test_decoding_a_10mb_line_is_bounded_work() -> None:
    line = b"y" * (10 << 20)
    a = _work(lambda: LineDecoder(limits=Limits(max_line_length=1 << 20)).decode_all(line))
    b = _work(lambda: LineDecoder(limits=Limits(max_line_length=1 << 20)).decode_all(line * 2))
    assert b <= 2.2 * a


@given(st.binary(max_size=300), st.lists(st.integers(1, 40), min_size=1, max_size=20))
@settings(max_examples=200, deadline=None)
def test_chunking_never_changes_the_lines(data: bytes, sizes: list[int]) -> None:
    """CRLF split across chunks, empty chunks: the same lines as from the whole."""
    chunks, i = [], 0
    for size in sizes * (len(data) // max(1, sum(sizes)) + 1):
        chunks.append(data[i : i + size])
        i += size
    chunks.append(data[i:])
    lines = list(split_lines(data))
    assert list(LineSplitter().split(chunks)) == lines
    assert b"".join(lines) == data
    for line in lines:  # only CR, LF and CRLF end a line, and only at its end
        body = line[:-2] if line.endswith(b"\r\n") else line[:-1] if line[-1:] in b"\r\n" \
            else line
        assert b"\r" not in body and b"\n" not in body, line
    for a, b in itertools.pairwise(lines):  # a CRLF is never split in two
        assert not (a.endswith(b"\r") and b.startswith(b"\n"))


def test_json_lines_work_is_linear() -> None:
    _linear(lambda n: _json_event(n), "json", 200)


@pytest.mark.parametrize(
    "case, make",
    [
        ("many tags", lambda n: _pbn_game(1, "".join(f'[T{i} "v"]\n' for i in range(n))).encode()),
        ("many tags with comments",
         lambda n: _pbn_game(1, "".join(f'[T{i} "v"] {{c}}\n' for i in range(n))).encode()),
        ("long value", lambda n: _pbn_game(1, '[Annotator "' + "a" * (50 * n) + '"]').encode()),
        ("unterminated comment",
         lambda n: (_pbn_game(1, "{ open\n" + "words words\n" * n)).encode()),
        ("repeated games", lambda n: "".join(_pbn_game(i) for i in range(n)).encode()),
        ("long auction", lambda n: _pbn_game(1, '[Auction "N"]\n' + "1C X XX " * n).encode()),
        ("deep braces", lambda n: _pbn_game(1, "{" * n + "}" * n).encode()),
    ],
)
def test_pbn_slow_inputs_are_linear(case: str, make: Callable[[int], bytes]) -> None:
    _linear(make, "pbn", 1000)


_LIN_BOARD = b"pn|a,b,c,d|md|3SAKQJ5432HAKQJ5D2C2,S6H6D6543C876543,ST987HT98DAKQJCAK,|\n"


@needs_lin
@pytest.mark.parametrize(
    "case, make",
    [
        ("many commands", lambda n: ("pn|a,b,c,d|md|1SAKQ,,,|" + "mb|p|" * n + "\n").encode()),
        ("unterminated value", lambda n: ("pn|a,b,c,d|nt|" + "x y " * (25 * n)).encode()),
        ("many boards", lambda n: "".join(f"qx|o{i}|md|1SA,,,|pg||\n" for i in range(n)).encode()),
        ("long line of bars", lambda n: ("|" * (20 * n)).encode()),
        # issue 15: one chunk that never ended, a buffer copied per comment line, and
        # line numbers counted from the start of a run for every pair
        ("lines of bars ending in a letter", lambda n: b"||||||||||||x\n" * n),
        ("comment lines before a board", lambda n: b"% comment\n" * (2 * n) + _LIN_BOARD),
        ("play run with line breaks",
         lambda n: _LIN_BOARD.rstrip(b"\n") + b"pc|SA|\n pc|HA| " * n + b"\n"),
    ],
)
def test_lin_slow_inputs_are_linear(case: str, make: Callable[[int], bytes]) -> None:
    _linear(make, "lin", 1000)
