"""The LIN reader's fast path for plain cards reads as its general one, and its memory per board
stays within the constant its docstring states (issues 10 and 15).

Memory is measured with tracemalloc (traced Python allocations, not the clock): a
streaming read's peak above what was traced before it, against the largest board's input.
"""

from __future__ import annotations

import gc
import io
import tracemalloc
from collections.abc import Callable

import pytest

import bridgefiles as bf
from bridgefiles.limits import Limits
from bridgefiles.testing.synthetic import generate, to_lin

BOARD = "pn|a,b,c,d|md|3SAKQJ5432HAKQJ5D2C2,S6H6D6543C876543,ST987HT98DAKQJCAK,|"


# -- a run of plain cards (CARD_RUN) reads as any other run of pc ------------------------


def _play(text: str) -> list[tuple[str, int | None, int | None]]:
    (board,) = bf.loads(text, "lin").boards
    play = board.play
    assert play is not None
    return [
        (s.card.code, *play.where(i)) for i, s in enumerate(play.slots) if s.card is not None
    ]


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
    gc.collect()  # the same start whatever ran before (issue 28)
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
    """An unknown command after the deal keeps an extra and a finding, about a kilobyte:
    half what validated models held (issue 15)."""
    small, _ = _peak(GENERATORS["unknown commands"](2_000))
    large, _ = _peak(GENERATORS["unknown commands"](10_000))
    assert (large - small) / 8_000 <= PER_KEPT_COMMAND


def test_a_generated_event_stays_within_the_base() -> None:
    """Boards stream: 300 generated boards peak at the working set of a few chunks."""
    data = "".join(to_lin(generate(300, seed=7))).encode("utf-8")
    peak, largest = _peak(data)
    assert largest < 2_000
    assert peak <= BASE


def test_commands_held_after_a_deal_are_no_more_than_a_boards() -> None:
    """Commands that may open the next board (here ``pn``) wait after a deal to see where
    they belong; past ``max_commands_per_board`` of them, they are the current board's
    (counted, then dropped at the limit) instead of piling up (issue 15)."""
    data = (BOARD + "\n" + "pn|a|\n" * 40_000).encode()
    limits = Limits().but(max_commands_per_board=1_000)
    sum(1 for _ in bf.read(io.BytesIO(BOARD.encode()), "lin"))
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        boards = list(bf.read(io.BytesIO(data), "lin", limits=limits))
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    (board,) = boards
    assert any(d.code == "limit" for d in board.diagnostics)
    assert peak <= BASE + 3 * 1_000 * PER_KEPT_COMMAND + 2 * len(data), peak


def test_the_commands_kept_as_extras_share_their_keys() -> None:
    """A vugraph file repeats its display commands on every board: each ``nt`` kept is
    one key string, not one a board."""
    board = "qx|o{n}|md|3S23456789TJQKA,H23456789TJQKA,D23456789TJQKA,|mb|p|nt|well {n}|pg||\n"
    boards = bf.loads("".join(board.format(n=n) for n in range(1, 4)), "lin").boards
    keys = [e.key for b in boards for e in b.extras if e.key == "nt"]
    assert len(keys) == 3 and len({id(k) for k in keys}) == 1
