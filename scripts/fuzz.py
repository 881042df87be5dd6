"""Long-running fuzz harness: mutated corpus files and generated events through every reader.

Each input (reproducible from ``--seed`` and its index) is read as PBN, LIN and
JSON, every board validated and written back in each format
(:func:`bridgefiles.testing.fuzzing.exercise`). Anything raised other than
BridgeFileError, an InternalError or an ``internal`` finding (our own bugs), or an
input taking longer than ``--timeout`` CPU seconds, is
shrunk and saved in ``fixtures/fuzz-regressions/`` as ``fuzz-<hash>.<format>``
with a ``.txt`` note (origin, operation, traceback); ``tests/hostile/test_fuzz_regressions.py``
replays every file there.

    scripts/fuzz --count 100000 --seed 1 --jobs 8
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import signal
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bridgefiles.testing import fuzzing  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
REGRESSIONS = ROOT / "fixtures" / "fuzz-regressions"


class Hang(BaseException):
    """An input that ran past the time allowed for one input (a BaseException, so the
    library's own guards, which turn an Exception into BridgeFileError, let it through)."""


HANG_TEXT = "input took longer than the time allowed"


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang(HANG_TEXT)


def load_corpus() -> list[tuple[str, bytes]]:
    """Every corpus file (real and conformance) and our own fixtures, as seeds."""
    found: list[tuple[str, bytes]] = []
    roots = [CORPUS, ROOT / "fixtures"]
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix.lower() in (".pbn", ".lin", ".json", ".txt"):
                if "fuzz-regressions" in path.parts:
                    continue
                found.append((path.name, path.read_bytes()))
    return found


@dataclass
class Tally:
    inputs: int = 0
    mutated: int = 0
    generated: int = 0
    operations: int = 0
    boards: int = 0
    diagnostics: int = 0
    refused: int = 0
    bytes: int = 0
    crashes: dict[str, tuple[fuzzing.Crash, str]] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        for name in ("inputs", "mutated", "generated", "operations", "boards", "diagnostics",
                     "refused", "bytes"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for sig, found in other.crashes.items():
            self.crashes.setdefault(sig, found)


def _run_one(
    data: bytes, timeout: float, hint: str | None = None, reload: bool = True,
    write: bool = True,
) -> fuzzing.Outcome:
    result: fuzzing.Outcome | None = None
    try:
        signal.setitimer(signal.ITIMER_PROF, timeout)
        result = fuzzing.exercise(
            data,
            write_back=((hint,) if hint in fuzzing.FORMATS else None) if write else (),
            reload=reload,
        )
        signal.setitimer(signal.ITIMER_PROF, 0)
        crash = result.crash
        if crash is not None and HANG_TEXT in crash.exception:
            # the alarm went off inside a library that wrapped it (pydantic's serializer
            # turns it into PydanticSerializationError): a hang, not an exception of ours
            raise Hang(HANG_TEXT)
    except Hang as exc:
        signal.setitimer(signal.ITIMER_PROF, 0)
        if result is not None and result.crash is None:  # the alarm came just after the work
            return result
        return fuzzing.Outcome(crash=fuzzing.Crash(
            operation=f"any (longer than {timeout} s)", format=hint or "pbn",
            exception=str(exc), traceback="", signature="Hang", data=data))
    return result


def work(args: tuple[int, int, int, float, bool, int, str]) -> Tally:
    """Inputs ``start..stop`` of the run with ``seed`` (one worker's share)."""
    start, stop, seed, timeout, reload, write_every, mode = args
    signal.signal(signal.SIGPROF, _alarm)
    corpus = load_corpus()
    pool = [d for _, d in corpus if len(d) < 200_000]
    tally = Tally()
    for index in range(start, stop):
        rng = random.Random(f"{seed}:{index}")
        if mode == "json" or (mode == "mixed" and index % 4 == 3):
            item = fuzzing.json_structure(rng)
        else:
            item = fuzzing.make_input(rng, corpus, pool)
        outcome = _run_one(item.data, timeout, item.hint, reload,
                           write=index % write_every == 0)
        tally.inputs += 1
        tally.bytes += len(item.data)
        if "mutated" in item.origin or item.origin == "json-structure":
            tally.mutated += 1
        else:
            tally.generated += 1
        tally.operations += outcome.operations
        tally.boards += outcome.boards
        tally.diagnostics += outcome.diagnostics
        tally.refused += outcome.refused
        if outcome.crash is not None:
            outcome.crash.format = _format_of(outcome.crash)
            tally.crashes.setdefault(
                outcome.crash.signature, (outcome.crash, f"seed {seed} index {index} {item.origin}")
            )
    return tally


def _format_of(crash: fuzzing.Crash) -> str:
    return crash.format if crash.format in fuzzing.FORMATS else "pbn"


def _batches(
    count: int, seed: int, timeout: float, size: int, reload: bool, write_every: int, mode: str
) -> Iterator[tuple[int, int, int, float, bool, int, str]]:
    for start in range(0, count, size):
        yield start, min(count, start + size), seed, timeout, reload, write_every, mode


def _known_signatures() -> set[str]:
    known = set()
    for note in REGRESSIONS.glob("fuzz-*.txt"):
        for line in note.read_text(encoding="utf-8").splitlines():
            if line.startswith("signature: "):
                known.add(line.removeprefix("signature: "))
    return known


def record(crash: fuzzing.Crash, origin: str, timeout: float) -> Path:
    """Shrink the input (same signature) and save it with a note; returns the file."""
    signal.signal(signal.SIGPROF, _alarm)

    def same(candidate: bytes) -> bool:
        outcome = _run_one(candidate, timeout)
        return outcome.crash is not None and outcome.crash.signature == crash.signature

    small = fuzzing.shrink(crash.data, same) if crash.signature != "Hang" else crash.data
    final = _run_one(small, timeout).crash or crash
    final.format = _format_of(final)
    REGRESSIONS.mkdir(parents=True, exist_ok=True)
    path = REGRESSIONS / fuzzing.fixture_name(final)
    path.write_bytes(small)
    path.with_name(path.name + ".txt").write_text(
        f"origin: {origin}\nsignature: {crash.signature}\noperation: {final.operation}\n"
        f"exception: {final.exception}\nbytes: {len(small)} (shrunk from {len(crash.data)})\n\n"
        f"{final.traceback}",
        encoding="utf-8",
    )
    return path


def run_parser(doc: str, count: int) -> argparse.ArgumentParser:
    """The options every fuzzing run takes (how many inputs, the seed that makes them
    again, the worker processes), so the library's and the command line's fuzzers agree."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--count", type=int, default=count, help="inputs to try")
    parser.add_argument("--seed", type=int, default=1, help="run seed (inputs are reproducible)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count() or 1)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = run_parser(__doc__, 10_000)
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="CPU seconds allowed per input (CPU time: a loaded machine "
                        "does not make a slow input look like a hang)")
    parser.add_argument("--reload", action="store_true",
                        help="also read back what was written (slower)")
    parser.add_argument("--write-every", type=int, default=1, metavar="K",
                        help="validate and write back every K-th input only (default 1: all)")
    parser.add_argument("--no-record", action="store_true", help="report crashes, save nothing")
    parser.add_argument("--mode", choices=("bytes", "json", "mixed"), default="bytes",
                        help="mutated bytes (corpus and generated events), JSON structure "
                        "(our JSON layout with values, keys and nesting changed), or both")
    opts = parser.parse_args(argv)
    corpus = load_corpus()
    print(f"fuzz: {opts.count:,} inputs, seed {opts.seed}, {opts.jobs} jobs, "
          f"{len(corpus)} seed files{'' if CORPUS.is_dir() else ' (shared corpus absent)'}",
          flush=True)
    started = time.perf_counter()
    total = Tally()
    size = max(50, min(1000, opts.count // (opts.jobs * 8) or 50))
    batches = list(_batches(opts.count, opts.seed, opts.timeout, size, opts.reload,
                            opts.write_every, opts.mode))
    known = _known_signatures()
    with multiprocessing.Pool(opts.jobs) as procs:
        for done, tally in enumerate(procs.imap_unordered(work, batches), start=1):
            for sig, (crash, origin) in tally.crashes.items():
                if sig not in total.crashes:  # say it and save it at once
                    print(f"  found {sig}: {crash.operation}: {crash.exception[:160]} "
                          f"[{origin}]", flush=True)
                    if not opts.no_record and sig not in known:
                        saved = record(crash, origin, opts.timeout)
                        print(f"  saved {saved.relative_to(ROOT)}", flush=True)
                        known.add(sig)
            total.add(tally)
            if done % max(1, len(batches) // 20) == 0 or done == len(batches):
                rate = total.inputs / (time.perf_counter() - started)
                print(f"  {total.inputs:>9,} inputs  {rate:8.0f}/s  "
                      f"{len(total.crashes)} crash signature(s)", flush=True)
    elapsed = time.perf_counter() - started
    print(f"inputs {total.inputs:,} ({total.mutated:,} mutated, {total.generated:,} generated "
          f"unmutated), {total.bytes / 1e6:.1f} MB")
    print(f"operations {total.operations:,} (loads, validate, dumps"
          f"{', reloads' if opts.reload else ''}); boards read "
          f"{total.boards:,}; diagnostics {total.diagnostics:,}; BridgeFileError {total.refused:,}")
    print(f"time {elapsed:.1f} s ({total.inputs / elapsed:.0f} inputs/s)")
    for sig, (crash, origin) in sorted(total.crashes.items()):
        print(f"CRASH {sig}: {crash.operation}: {crash.exception[:200]} [{origin}]")
    print(f"crashes (exceptions other than BridgeFileError, internal errors, or hangs): "
          f"{len(total.crashes)}")
    return 1 if total.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
