"""Timings and peak memory of inputs made to be slow or big: each is read (or converted,
scored, run through the command line) at sizes n, 2n, 4n, 8n, each size in a fresh
process; the time per input byte should stay flat (linear work) and the peak memory
well under 1 GB at the largest. Peak memory is the process's real peak (``ru_maxrss``,
shown over what the process held before the run: interpreter, imports, the input) and
the traced Python peak of a second run (tracemalloc). ``out/in`` is the output's size
over the input's for the cases that write. The tests assert the same as counts of work
(tests/unit/library/test_limits.py, tests/hostile/test_hostile_core.py); only this script
looks at the clock.

    .venv/bin/python scripts/bench_limits.py [--quick] [--only TEXT] [--max-seconds S]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bridgefiles as bf
from bridgefiles.formats.decode import LineDecoder
from bridgefiles.limits import Limits
from bridgefiles.testing import fuzzing

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
    from bridgefiles.testing.synthetic import generate, to_pbn

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
    # From 2,500 records: past scoring's cache of 2,048, where records go to disk and back
    # (up to 2,048 they stay in memory, about 2.4 times faster a record).
    ("score command: records of one deal (streamed)", "score:pbn", _score_records, 2_500),
]


# -- issue 15, output amplification and the command line (the seams' part) ----------------
def _vugraph(boards: int) -> bytes:
    """Issue 15's vugraph header, growing with the boards (n=32: 39 KB), so without a
    budget the output grows as the square of the input."""
    return fuzzing.vugraph_header(20_000 * boards // 32, 2_000 * boards // 32, boards)


CASES += [
    ("convert: vugraph header to JSON (budget)", "convert:json", _vugraph, 32),
    ("convert: vugraph header to JSON (no budget)", "convert:json:unlimited", _vugraph, 32),
    ("convert: vugraph header to CSV", "convert:csv", _vugraph, 32),
    ("convert: generated event to JSON", "convert:json", lambda n: _event(n, "pbn"), 1_000),
    ("convert: JSON event back to PBN", "convert:pbn", lambda n: _event(n, "json"), 500),
    ("CLI: convert a big PBN file to LIN", "cli:lin", lambda n: _event(n, "pbn"), 2_000),
    ("CLI: score a big PBN file", "cli:score", lambda n: _event(n, "pbn"), 1_000),
    ("CLI: validate a big LIN file", "cli:validate", lambda n: _LIN_BOARD * n, 2_000),
]

_FORMAT_OF = {"decode": "pbn", "score": "pbn"}


def _run(kind: str, data: bytes, scratch: str) -> int:
    """One run of a case on ``data``; the bytes it wrote (0 when it writes nothing)."""
    if kind == "score":
        with contextlib.suppress(bf.BridgeFileError):
            bf.score(bf.loads(data, "pbn"))
        return 0
    if kind == "decode":
        LineDecoder(limits=Limits()).decode_all(data)
        return 0
    if kind.startswith("convert:"):
        to, _, unlimited = kind.removeprefix("convert:").partition(":")
        target = os.path.join(scratch, f"out.{to}")
        with contextlib.suppress(bf.BridgeFileError):
            bf.convert(io.BytesIO(data), target, to=to, check=False, name="in.data",
                       limits=Limits.unlimited() if unlimited else None,
                       on_diagnostic=lambda d: None)
        return os.path.getsize(target) if os.path.exists(target) else 0
    if kind.startswith("cli:"):
        from bridgefiles.cli import main as cli

        what = kind.removeprefix("cli:")
        source = os.path.join(scratch, "in.lin" if data.startswith(b"pn|") else "in.pbn")
        with open(source, "wb") as f:
            f.write(data)
        target = os.path.join(scratch, "out")
        args = (["validate", source, "-q"] if what == "validate"
                else ["score", source, "-q", "-o", target + ".pbn"] if what == "score"
                else ["convert", source, "--to", what, "-q", "-o", f"{target}.{what}"])
        with contextlib.suppress(SystemExit):
            cli.main([*args, "-j", "1"], standalone_mode=True)
        written = [n for n in os.listdir(scratch) if n.startswith("out")]
        return sum(os.path.getsize(os.path.join(scratch, n)) for n in written)
    if kind.startswith(("score:", "preserve:")):  # the score command, convert --preserve
        what, _, fmt = kind.partition(":")
        source = os.path.join(scratch, f"in.{fmt}")
        with open(source, "wb") as f:
            f.write(data)
        target = os.path.join(scratch, f"out.{fmt}")
        with contextlib.suppress(bf.BridgeFileError):
            bf.convert(source, target, score=what == "score",
                       layout="preserve" if what == "preserve" else "export",
                       on_diagnostic=lambda d: None)
        return os.path.getsize(target) if os.path.exists(target) else 0
    if kind.startswith(("read:", "validate:", "load+score:")):
        what, _, fmt = kind.partition(":")
        with contextlib.suppress(bf.BridgeFileError):
            if what == "load+score":
                bf.score(bf.load(io.BytesIO(data), fmt))
            for board in bf.read(io.BytesIO(data), fmt) if what != "load+score" else ():
                if what == "validate":
                    bf.validate(board)
        return 0
    with contextlib.suppress(bf.BridgeFileError):
        bf.loads(data, kind)
    return 0


# -- the memory constant (issue 15): peak RSS over a fixed base, against the largest board --
def _lin_event(n: int) -> bytes:
    return bf.dumps(bf.loads(_event(n, "pbn"), "pbn"), "lin").encode()


_LIN_HEAD = _LIN_BOARD.rstrip(b"\n")
SHAPES: list[tuple[str, str, Callable[[int], bytes], int, bool]] = [
    # name, format, input of size n, first n, one board (True) or many
    ("PBN: many small boards (generated)", "pbn", lambda n: _event(n, "pbn"), 500, False),
    ("PBN: one board, one long commentary", "pbn",
     lambda n: _pbn("{" + "word " * n + "}"), 25_000, True),
    ("PBN: one board, many {c} comments", "pbn", lambda n: _pbn("{c}\n" * n), 12_500, True),
    ("PBN: one board, a long auction", "pbn",
     lambda n: _pbn('[Auction "N"]\n' + "1C X XX\n" * n), 4_000, True),
    ("LIN: many small boards (generated)", "lin", _lin_event, 500, False),
    ("LIN: one board, many nt commands", "lin",
     lambda n: _LIN_HEAD + b"nt|hello|" * n + b"\n", 12_500, True),
    ("LIN: one board, many mb commands", "lin",
     lambda n: _LIN_HEAD + b"mb|p|" * n + b"\n", 12_500, True),
]


OPERATIONS = ("read", "validate", "load+score", "convert:json", "score", "preserve")


def constant(steps: int, only: str | None, ops: tuple[str, ...] = OPERATIONS) -> None:
    """Peak RSS of read, validate, load+score (``bf.score`` of a file in memory),
    convert, score (``convert --score``, as the ``score`` command runs it) and preserve
    (``convert --preserve``) over the base of a one-board file, for many small boards
    and for one big board: the per-byte constant."""
    print("memory constant: MB = the run's own peak RSS (peak reset before it, Linux) over "
          "the RSS before it, less the same for a one-board file; "
          "per byte = bytes of memory per byte of the largest board (for many boards: "
          "of the average board)")
    print(f"{'shape':40} {'operation':13} {'n':>7} {'bytes':>10} {'MB':>7} {'per byte':>9}")
    tiny = _pbn("")
    for name, fmt, make, first, one_board in SHAPES:
        if only and only.lower() not in name.lower():
            continue
        for op in ops:
            kind = op if op.startswith("convert") else f"{op}:{fmt}"
            base = measure(kind, tiny if fmt == "pbn" else _LIN_BOARD, False)
            for step in range(steps):
                n = first * 4**step
                data = make(n)
                got = measure(kind, data, False)
                if got.get("own") is not None and base.get("own") is not None:
                    # the run's own peak over the RSS before it (the kernel's peak reset)
                    extra = (got["own"] - base["own"]) / 1e6
                else:  # less what the harness holds before the run (the input bytes)
                    extra = (got["rss"] - base["rss"] - (got["base"] - base["base"])) / 1e6
                board = len(data) if one_board else len(data) / n
                print(f"{name:40} {op:13} {n:>7,} {len(data):>10,} {extra:>7.1f} "
                      f"{1e6 * extra / board:>9.1f}", flush=True)


def child(kind: str, path: str, traced: bool) -> None:
    """One measurement in this fresh process: JSON of seconds, real peak (RSS) over the
    input held, output bytes, and (``traced``) the traced Python peak of a second run."""
    with open(path, "rb") as f:
        data = f.read()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    now = _reset_peak()
    with tempfile.TemporaryDirectory(prefix="bench-limits-") as scratch:
        started, cpu = time.perf_counter(), time.process_time()
        out = _run(kind, data, scratch)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        own = _status_kb("VmHWM") - now if now else None  # this run's own peak over before
        traced_peak = None
        if traced:
            tracemalloc.start()
            _run(kind, data, scratch)
            traced_peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    print(json.dumps({"seconds": elapsed, "cpu": cpu, "rss": peak * 1024, "base": base * 1024,
                      "own": own * 1024 if own is not None else None, "out": out,
                      "traced": traced_peak}))


def _status_kb(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak() -> int:
    """Reset the kernel's peak RSS of this process (Linux: ``clear_refs`` 5), so the
    run's own peak is measured, not the imports'; the RSS now (kB), 0 if it cannot."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
        return _status_kb("VmRSS")
    except OSError:
        return 0


def measure(kind: str, data: bytes, traced: bool) -> dict[str, float]:
    with tempfile.NamedTemporaryFile(prefix="bench-limits-", delete=False) as f:
        f.write(data)
    try:
        proc = subprocess.run(
            [sys.executable, __file__, "--child", kind, f.name, *(["--traced"] if traced else [])],
            capture_output=True, text=True, check=False)
    finally:
        os.unlink(f.name)
    if proc.returncode != 0:
        raise SystemExit(f"{kind}: the measuring process failed:\n{proc.stderr}")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="three sizes instead of four")
    parser.add_argument("--only", default=None, help="cases whose name holds this text")
    parser.add_argument("--max-seconds", type=float, default=20.0,
                        help="stop a series once one size takes longer than this")
    parser.add_argument("--no-traced", action="store_true",
                        help="real peak (RSS) only, no second run under tracemalloc")
    parser.add_argument("--child", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--constant", action="store_true",
                        help="measure the memory constant (RSS against the largest board)")
    parser.add_argument("--ops", default=",".join(OPERATIONS),
                        help="with --constant: the operations, comma-separated "
                             f"(default: {','.join(OPERATIONS)})")
    opts = parser.parse_args(argv)
    if opts.child:
        child(opts.child[0], opts.child[1], opts.traced)
        return 0
    if opts.constant:
        ops = tuple(op for op in opts.ops.split(",") if op)
        unknown = [op for op in ops if op not in OPERATIONS]
        if unknown:
            parser.error(f"unknown operation {unknown[0]!r} (choose from {', '.join(OPERATIONS)})")
        constant(3 if not opts.quick else 2, opts.only, ops)
        return 0
    steps = 3 if opts.quick else 4
    print("each size in a fresh process: RSS MB = real peak (ru_maxrss) less the process "
          "holding the input (base); traced MB = tracemalloc peak of a second run")
    print(f"{'case':44} {'n':>8} {'bytes':>10} {'CPU s':>8} {'us/KB':>7} {'x time':>6} "
          f"{'RSS MB':>7} {'traced':>7} {'out/in':>7}")
    worst = 0.0
    largest_rss = largest_traced = 0.0
    for name, kind, make, first in CASES:
        if opts.only and opts.only.lower() not in name.lower():
            continue
        previous = None
        for step in range(steps):
            n = first * 2**step
            data = make(n)
            got = measure(kind, data, not opts.no_traced)
            elapsed = got["cpu"]  # CPU time: the machine may be shared
            rss = (got["rss"] - got["base"]) / 1e6
            traced = got["traced"] / 1e6 if got["traced"] is not None else float("nan")
            largest_rss = max(largest_rss, got["rss"] / 1e6)
            largest_traced = max(largest_traced, traced if traced == traced else 0.0)
            growth = elapsed / previous if previous else float("nan")
            if previous and previous > 0.05:  # below that, start-up noise
                worst = max(worst, growth)
            ratio = got["out"] / len(data) if got["out"] else float("nan")
            print(f"{name:44} {n:>8,} {len(data):>10,} {elapsed:>8.3f} "
                  f"{1e6 * elapsed / (len(data) / 1024):>7.1f} {growth:>6.2f} {rss:>7.1f} "
                  f"{traced:>7.1f} {ratio:>7.2f}", flush=True)
            previous = elapsed
            if elapsed > opts.max_seconds:
                print(f"{name:44} stopped: {elapsed:.1f} s at n={n:,} (not linear?)")
                break
    print(f"worst growth of time when the input doubles (over 0.05 s): x{worst:.2f} "
          "(linear: about x2)")
    print(f"largest real peak (RSS, whole process): {largest_rss:.0f} MB; "
          f"largest traced Python peak: {largest_traced:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
