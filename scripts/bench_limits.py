"""Timings and peak memory of inputs made to be slow or big: each is read at sizes n, 2n,
4n, 8n; the time per input byte should stay flat (linear work) and the peak memory stay
well under 1 GB at the largest. The tests assert the same as counts of work
(tests/test_limits.py, tests/test_hostile_core.py); only this script looks at the clock.

    .venv/bin/python scripts/bench_limits.py [--quick] [--max-seconds S]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bridgefiles as bf
from bridgefiles.formats.decode import LineDecoder
from bridgefiles.limits import Limits

GAME = '[Event "e"]\n[Board "1"]\n[Dealer "N"]\n'


_LIN_BOARD = b"pn|a,b,c,d|md|3SAKQJ5432HAKQJ5D2C2,S6H6D6543C876543,ST987HT98DAKQJCAK,|\n"


def _pbn(extra: str) -> bytes:
    return (GAME + extra + "\n\n").encode()


CASES: list[tuple[str, str, Callable[[int], bytes], int]] = [
    # name, format (or "decode"), input of size parameter n, first n
    ("one long line (cut at 256 KB)", "decode", lambda n: b"x" * n + b"\n", 2_500_000),
    ("PBN: many tags", "pbn", lambda n: _pbn("".join(f'[T{i} "v"]\n' for i in range(n))), 2_000),
    ("PBN: many tags, each with a comment", "pbn",
     lambda n: _pbn("".join(f'[T{i} "v"] {{c}}\n' for i in range(n))), 250),
    ("PBN: one long tag value", "pbn", lambda n: _pbn('[Annotator "' + "a" * n + '"]'), 100_000),
    ("PBN: unterminated comment", "pbn", lambda n: _pbn("{ open\n" + "words words\n" * n),
     10_000),
    ("PBN: long auction (deep repetition)", "pbn",
     lambda n: _pbn('[Auction "N"]\n' + "1C X XX\n" * n), 1_000),
    ("PBN: many games", "pbn", lambda n: (GAME + "\n").encode() * n, 500),
    ("LIN: unterminated value", "lin", lambda n: b"pn|a,b,c,d|nt|" + b"x y " * n, 250_000),
    ("LIN: many commands in a board", "lin",
     lambda n: b"pn|a,b,c,d|md|1SAKQ,,,|" + b"mb|p|" * n + b"\n", 2_000),
    ("LIN: a line of bars", "lin", lambda n: b"|" * n, 10_000),
    # -- LIN, issue 15 (the reading core's LIN part: chunks capped inside a line, pending
    # text kept in pieces, run positions counted forward) --------------------------------
    ("LIN: lines of bars ending in a letter", "lin", lambda n: b"||||||||||||x\n" * n, 20_000),
    ("LIN: % lines before a board", "lin", lambda n: b"% comment line\n" * n + _LIN_BOARD,
     50_000),
    ("LIN: play run with line breaks", "lin",
     lambda n: _LIN_BOARD.rstrip(b"\n") + b"pc|SA|\n pc|HA| " * n + b"\n", 10_000),
    ("JSON: deep nesting", "json", lambda n: b"[" * n, 250_000),
    # issue 15, the reading core's own generators
    ("PBN: one game of {c} comments", "pbn", lambda n: _pbn("{c}\n" * n), 100_000),
    ("PBN: % lines before a game", "pbn", lambda n: b"%x\n" * n + _pbn(""), 200_000),
    ("PBN: % lines inside a game", "pbn", lambda n: _pbn("%x\n" * n), 200_000),
    ("PBN: generated event (boards)", "pbn", lambda n: _event(n, "pbn"), 1_000),
    ("JSON: a string of escaped quotes", "json",
     lambda n: b'{"tags": [{"name": "Event", "value": "' + b'\\"' * n + b'"}]}', 80_000),
    ("JSON: lone surrogate escapes", "json",
     lambda n: b'{"tags": [{"name": "Event", "value": "' + b"\\ud800" * n + b'"}]}', 20_000),
    ("JSON: generated event (boards)", "json", lambda n: _event(n, "json"), 500),
    ("JSON: written from PBN, long commentary", "json",
     lambda n: bf.dumps(bf.loads(_pbn("{" + "w " * n + "}"), "pbn"), "json").encode(), 20_000),
]


def _event(boards: int, fmt: str) -> bytes:
    """A generated event (full auctions, play, notes) as PBN, or as our JSON of it."""
    from bridgefiles.synthetic import generate, to_pbn

    text = "".join(to_pbn(generate(boards, seed=7)))
    if fmt == "json":
        text = bf.dumps(bf.loads(text, "pbn"), "json")
    return text.encode("utf-8")


# -- scoring (issue 15; this block belongs to the scoring part) ---------------------------
_SCORE_HEAD = GAME + '[Vulnerable "None"]\n[Scoring "{scoring}"]\n'
_SCORE_COLUMNS = (
    '[ScoreTable "Contract\\2R;Declarer\\1R;Result\\2R;Score_NS\\5R;Multiplicity\\8R"]\n'
)


def _score_table(rows: list[str], scoring: str = "MP") -> bytes:
    return (_SCORE_HEAD.format(scoring=scoring) + _SCORE_COLUMNS + "".join(rows) + "\n").encode()


def _score_records(n: int) -> bytes:
    """n records of one deal: a pairs event with n results."""
    game = _SCORE_HEAD.format(scoring="MP") + '[Contract "{c}"]\n[Declarer "N"]\n[Result "{r}"]\n'
    return "".join(
        game.format(c=("3NT", "4S", "2H")[i % 3], r=7 + i % 7) + "\n" for i in range(n)
    ).encode()


CASES += [
    ("score: ScoreTable rows (matchpoints)", "score",
     lambda n: _score_table([f"3NT N {7 + i % 7} - 1\n" for i in range(n)]), 2_500),
    ("score: distinct scores (cross-IMPs)", "score",
     lambda n: _score_table([f"- - - {10 * i} 1\n" for i in range(n)], "IMP;Cross"), 500),
    ("score: distinct scores (Butler)", "score",
     lambda n: _score_table([f"- - - {10 * i} {1 + i % 3}\n" for i in range(n)], "IMP;Butler"),
     2_500),
    ("score: Multiplicity value", "score",
     lambda n: _score_table([f"3NT N 9 - {n}\n", "4S N 10 - 1\n"]), 1_000),
    ("score: exponent of a cell", "score",
     lambda n: _score_table([f"- - - 1e{n} 1\n", "- - - 420 1\n"]), 1_000_000),
    ("score: records of one deal", "score", _score_records, 250),
]


def _run(fmt: str, data: bytes) -> None:
    if fmt == "score":
        with contextlib.suppress(bf.BridgeFileError):
            bf.score(bf.loads(data, "pbn"))
        return
    if fmt == "decode":
        LineDecoder(limits=Limits()).decode_all(data)
        return
    with contextlib.suppress(bf.BridgeFileError):
        bf.loads(data, fmt)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="three sizes instead of four")
    parser.add_argument("--only", default=None, help="cases whose name holds this text")
    parser.add_argument("--max-seconds", type=float, default=20.0,
                        help="stop a series once one size takes longer than this")
    opts = parser.parse_args(argv)
    steps = 3 if opts.quick else 4
    print(f"{'case':40} {'n':>9} {'bytes':>11} {'seconds':>8} {'us/KB':>8} {'x time':>7} "
          f"{'peak MB':>8}")
    worst = 0.0
    peak = largest = 0.0
    for name, fmt, make, first in CASES:
        if opts.only and opts.only.lower() not in name.lower():
            continue
        previous = None
        for step in range(steps):
            n = first * 2**step
            data = make(n)
            started = time.perf_counter()
            _run(fmt, data)
            elapsed = time.perf_counter() - started
            tracemalloc.start()  # a second run: tracing allocations slows it down
            _run(fmt, data)
            peak = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
            largest = max(largest, peak)
            growth = elapsed / previous if previous else float("nan")
            if previous:
                worst = max(worst, growth)
            print(f"{name:40} {n:>9,} {len(data):>11,} {elapsed:>8.3f} "
                  f"{1e6 * elapsed / (len(data) / 1024):>8.1f} {growth:>7.2f} {peak:>8.1f}",
                  flush=True)
            previous = elapsed
            if elapsed > opts.max_seconds:
                print(f"{name:40} stopped: {elapsed:.1f} s at n={n:,} (not linear?)")
                break
    print(f"worst growth of time when the input doubles: x{worst:.2f} (linear: about x2)")
    print(f"largest peak memory (traced Python allocations): {largest:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
