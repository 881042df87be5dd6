"""The LIN reader's fast paths read exactly as its general ones, and its memory per board
stays within the constant its docstring states (issues 10 and 15).

Memory is measured with tracemalloc (traced Python allocations, not the clock): a
streaming read's peak above what was traced before it, against the largest board's input.
"""

from __future__ import annotations

import io
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from lark import Lark

import bridgefiles as bf
from bridgefiles.formats.lin import tables
from bridgefiles.formats.lin.commands import grammar_hash, grammar_text, parser, serialized_tables
from bridgefiles.synthetic import generate, to_lin

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
LIN_DIR = SHARED / "corpus" / "real" / "lin"
FILES = sorted(LIN_DIR.rglob("*.lin")) if LIN_DIR.is_dir() else []

BOARD = "pn|a,b,c,d|md|3SAKQJ5432HAKQJ5D2C2,S6H6D6543C876543,ST987HT98DAKQJCAK,|"


# -- the parser's tables ---------------------------------------------------------------


def test_the_stored_tables_are_those_of_the_grammar() -> None:
    """After a change of grammars/lin.lark: write_tables() (commands.py) writes them again.
    (Lark numbers its LALR states in no fixed order: the tables are compared by what they
    hold and by the tokens they give, not as data.)"""
    assert grammar_hash(grammar_text()) == tables.GRAMMAR_SHA256
    loaded = Lark.load(tables.TABLES)
    built = Lark(grammar_text(), parser="lalr", lexer="basic")
    assert sorted(map(repr, loaded.terminals)) == sorted(map(repr, built.terminals))
    assert sorted(map(str, loaded.rules)) == sorted(map(str, built.rules))
    assert serialized_tables().keys() == tables.TABLES.keys()


@pytest.mark.skipif(not FILES, reason=f"shared corpus not found at {LIN_DIR}")
def test_the_parser_from_the_tables_gives_the_grammars_tokens() -> None:
    built = Lark(grammar_text(), parser="lalr", lexer="basic")
    loaded = parser(False)
    for path in FILES:
        text = path.read_bytes().decode("latin-1")
        assert loaded.parse(text).children == built.parse(text).children, path.name


# -- a run of plain cards (CARD_RUN) reads as any other run of pc ------------------------


def _play(text: str) -> list[tuple[str, int | None, int | None]]:
    (board,) = bf.loads(text, "lin").boards
    assert board.play is not None
    return [(s.card.code, s.line, s.column) for s in board.play.slots if s.card is not None]


@pytest.mark.parametrize(
    "play",
    [
        "pc|SA|pc|S2|pc|S3|pc|S4|pg||pc|hA|pc|Hk|PC|h2|pC|h3|",
        "pg||pc|DA|pg||pg||pc|D2|",
        "pc|C2|pc|C3|pc|C4|pc|C5|pg|a pause with text|pc|SA|",
    ],
)
def test_a_run_of_plain_cards_reads_as_the_same_run_across_lines(play: str) -> None:
    auction = "mb|1N|mb|p|mb|p|mb|p|"
    one_line = _play(BOARD + auction + play + "\n")
    pairs = play.split("|")
    split = "|".join(pairs[:4]) + "|\n" + "|".join(pairs[4:])  # a line break after 2 pairs
    across = _play(BOARD + auction + split + "\n")
    assert [c for c, _, _ in one_line] == [c for c, _, _ in across]
    line = one_line[0][1]
    assert all(ln == line for _, ln, _ in one_line)
    start, at, columns = len(BOARD + auction) + 1, 0, []
    for name, value in zip(pairs[::2], pairs[1::2], strict=False):
        if name.lower() == "pc":
            columns.append(start + at)
        at += len(name) + len(value) + 2
    assert [column for _, _, column in one_line] == columns


# -- memory: peak above the base, against the largest board's input ----------------------

# The LIN generators of scripts/bench_limits.py (and a board of unknown commands), small.
GENERATORS: dict[str, Callable[[int], bytes]] = {
    "unknown commands": lambda n: (BOARD + "zz|x|" * n).encode(),
    "many calls": lambda n: (BOARD + "mb|p|" * n + "\n").encode(),
    "a line of bars": lambda n: b"|" * (2 * n),
    "lines of bars ending in a letter": lambda n: b"||||||||||||x\n" * (n // 6),
    "play run with line breaks": lambda n: (BOARD + "pc|SA|\n pc|HA| " * (n // 2)).encode(),
    "% lines inside a board": lambda n: (BOARD + "\n" + "% comment line\n" * n).encode(),
}


def _peak(data: bytes) -> tuple[int, int]:
    """Peak traced bytes of a streaming read above the base, and the largest board's input
    (the whole input when no board is read: all of it is then the file's preamble)."""
    sum(1 for _ in bf.read(io.BytesIO(BOARD.encode()), "lin"))  # parser built, caches warm
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        largest = 0
        for board in bf.read(io.BytesIO(data), "lin"):
            largest = max(largest, len((board.source or "").encode("utf-8")))
            del board
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return peak, largest or len(data)


# The constants stated in bridgefiles/formats/lin/reader.py's docstring.
PER_INPUT_BYTE = 600
PER_KEPT_COMMAND = 1_300
BASE = 1_000_000


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_peak_memory_is_a_constant_times_the_largest_board(name: str) -> None:
    peak, largest = _peak(GENERATORS[name](4_000))
    assert peak <= BASE + PER_INPUT_BYTE * largest, (name, peak, largest)


def test_a_kept_command_holds_about_a_kilobyte() -> None:
    """An unknown command after the deal keeps an extra and a finding: ~1.1 KB, not the
    ~2.2 KB of validated models (issue 15)."""
    small, _ = _peak(GENERATORS["unknown commands"](2_000))
    large, _ = _peak(GENERATORS["unknown commands"](10_000))
    assert (large - small) / 8_000 <= PER_KEPT_COMMAND


def test_a_generated_event_stays_within_the_base() -> None:
    """Boards stream: 300 generated boards peak at the working set of a few chunks."""
    data = "".join(to_lin(generate(300, seed=7))).encode("utf-8")
    peak, largest = _peak(data)
    assert largest < 2_000
    assert peak <= BASE
