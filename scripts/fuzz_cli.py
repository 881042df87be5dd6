"""Fuzz the command line's paths: fuzzed inputs through ``convert`` to standard output, to
``-o`` and to ``--out-dir``, and through ``validate --format json``, ``score`` and ``show``
(``--every-path``: each input through all six; by default through three of them).

Each input (reproducible from ``--seed`` and its index, made by
:func:`bridgefiles.testing.fuzzing.make_input`, and with ``--mode mixed`` every fourth by
:func:`bridgefiles.testing.fuzzing.json_structure`) is written to a file and run in-process through
click's runner; every ``--subprocess-every``-th input also runs ``convert`` in a real
process (``python -m bridgefiles.cli``), whose exit status and standard output must be
those of the in-process run. A failure is: an exception out of the command, exit status 3 (our bug)
or outside 0-3, ``Traceback`` or ``internal error`` on standard error, standard output
that differs from the ``-o`` file or the ``--out-dir`` file, or a JSON report that is not
JSON. Failing inputs are saved under ``--save`` (default: nothing saved).

    scripts/fuzz --cli --count 2000 --seed 1 --jobs 2
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from click.testing import CliRunner  # noqa: E402
from fuzz import load_corpus, run_parser  # noqa: E402

from bridgefiles.cli import main as cli  # noqa: E402
from bridgefiles.scoring import store  # noqa: E402
from bridgefiles.testing import fuzzing  # noqa: E402

TARGETS = ("pbn", "lin", "json", "csv", "url")


@dataclass
class Tally:
    inputs: int = 0
    runs: int = 0
    processes: int = 0
    exits: dict[int, int] = field(default_factory=dict)
    failures: list[tuple[str, str, bytes]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.inputs += other.inputs
        self.runs += other.runs
        self.processes += other.processes
        for code, n in other.exits.items():
            self.exits[code] = self.exits.get(code, 0) + n
        self.failures.extend(other.failures)


def _invoke(tally: Tally, args: list[str]) -> tuple[int, bytes, str, str | None]:
    """One run; what went wrong with it, if anything did."""
    result = CliRunner().invoke(cli, [*args, "-j", "1"] if args[0] != "show" else args)
    tally.runs += 1
    tally.exits[result.exit_code] = tally.exits.get(result.exit_code, 0) + 1
    problem = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        problem = f"exception {type(result.exception).__name__}: {result.exception}"
    elif result.exit_code not in (0, 1, 2):
        problem = f"exit status {result.exit_code}"
    elif "Traceback" in result.stderr or "internal error" in result.stderr:
        problem = "traceback or internal error: " + result.stderr[-300:]
    return result.exit_code, result.stdout_bytes, result.stderr, problem


def in_a_process(tally: Tally, source: Path, to: str, code: int, out: bytes) -> str | None:
    """``convert`` to standard output in a real process: what differs from in-process."""
    proc = subprocess.run(
        [sys.executable, "-m", "bridgefiles.cli", "convert", str(source), "--to", to, "-q",
         "-j", "1"], capture_output=True, timeout=300, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8"})
    tally.processes += 1
    err = proc.stderr.decode("utf-8", "replace")
    if "Traceback" in err or "internal error" in err or proc.returncode not in (0, 1, 2):
        return f"process: exit {proc.returncode}: {err[-300:]}"
    if proc.returncode != code or (code == 0 and proc.stdout != out):
        return f"process: exit {proc.returncode} vs {code} in-process, or other output"
    return None


def check(data: bytes, hint: str | None, rng: random.Random, tally: Tally,
          real: bool = False, every_path: bool = True) -> list[str]:
    """The CLI paths on one input; the problems found. ``every_path``: all six runs;
    else ``convert`` to standard output, to one of ``-o``/``--out-dir`` (compared with
    it), and one of ``validate --format json``, ``score``, ``show`` (half the runs)."""
    problems: list[str] = []
    suffix = f".{hint}" if hint in ("pbn", "lin", "json") else ".pbn"
    with tempfile.TemporaryDirectory(prefix="fuzz-cli-") as tmp:
        source = Path(tmp) / f"in{suffix}"
        source.write_bytes(data)
        to = rng.choice(TARGETS)
        code, out, _, problem = _invoke(tally, ["convert", str(source), "--to", to, "-q"])
        problems += [f"convert --to {to}: {problem}"] if problem else []
        if real and (problem := in_a_process(tally, source, to, code, out)):
            problems.append(f"convert --to {to}: {problem}")
        writes = ["-o", "--out-dir"] if every_path else [rng.choice(["-o", "--out-dir"])]
        for how in writes:
            where = Path(tmp) / (f"out.{to}" if how == "-o" else "dir")
            code_w, _, _, problem = _invoke(tally, ["convert", str(source), "--to", to, "-q",
                                                    how, str(where)])
            problems += [f"convert --to {to} {how}: {problem}"] if problem else []
            written = [where] if how == "-o" else [p for p in where.rglob("*") if p.is_file()]
            if code_w != code:
                problems.append(f"convert --to {to}: exit status {code_w} with {how}, "
                                f"{code} to standard output")
            elif code == 0 and (len(written) != 1 or not written[0].exists()
                                or written[0].read_bytes() != out):
                problems.append(f"convert --to {to}: {how} differs from standard output")
        others = ["validate", "score", "show"]
        for command in others if every_path else [rng.choice(others)]:
            problems += [f"{command}: {p}" for p in _other(tally, command, source)]
    return problems


def _other(tally: Tally, command: str, source: Path) -> list[str]:
    if command == "validate":
        _, report, _, problem = _invoke(tally, ["validate", str(source), "--format", "json",
                                                "-q"])
        found = [problem] if problem else []
        try:
            json.loads(report)
        except ValueError as exc:
            found.append(f"--format json: not JSON ({exc})")
        return found
    args = ["score", str(source), "-q"] if command == "score" else ["show", str(source)]
    problem = _invoke(tally, args)[3]
    return [problem] if problem else []


def work(job: tuple[int, int, int, str, int, bool, int]) -> Tally:
    start, stop, seed, mode, every, every_path, score_cache = job
    store.CACHE = score_cache  # scoring's records through the disk, not only the cache
    corpus = load_corpus()
    pool = [d for _, d in corpus if len(d) < 200_000]
    tally = Tally()
    for index in range(start, stop):
        rng = random.Random(f"cli:{seed}:{index}")
        if mode == "mixed" and index % 4 == 3:
            item = fuzzing.json_structure(rng)
        else:
            item = fuzzing.make_input(rng, corpus, pool)
        tally.inputs += 1
        real = every > 0 and index % every == 0
        for problem in check(item.data, item.hint, rng, tally, real, every_path):
            tally.failures.append((problem, f"seed {seed} index {index} {item.origin}",
                                   item.data))
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = run_parser(__doc__, 1000)
    parser.add_argument("--save", type=Path, default=None, help="folder for failing inputs")
    parser.add_argument("--mode", choices=("bytes", "mixed"), default="mixed",
                        help="mutated bytes only, or every fourth input a JSON structure")
    parser.add_argument("--subprocess-every", type=int, default=250, metavar="K",
                        help="also run every K-th input's convert in a real process (0: never)")
    parser.add_argument("--every-path", action="store_true",
                        help="all six runs on each input (default: three, the paths chosen "
                        "at random, so twice the inputs in the same time)")
    parser.add_argument("--score-cache", type=int, default=1, metavar="N",
                        help="records scoring keeps in memory (default 1: every record of "
                        "a scored input goes to disk and back, so that path is fuzzed too)")
    args = parser.parse_args(argv)
    step = max(1, min(500, args.count // (args.jobs * 4)))
    jobs = [(i, min(i + step, args.count), args.seed, args.mode, args.subprocess_every,
             args.every_path, args.score_cache)
            for i in range(0, args.count, step)]
    total = Tally()
    started = time.perf_counter()
    print(f"fuzz --cli: {args.count:,} inputs, seed {args.seed}, {args.jobs} jobs, "
          f"mode {args.mode}", flush=True)
    with multiprocessing.Pool(args.jobs) as workers:
        for done, tally in enumerate(workers.imap_unordered(work, jobs), start=1):
            total.add(tally)
            for problem, origin, _ in tally.failures:
                print(f"  found {origin}: {problem[:300]}", flush=True)
            if done % max(1, len(jobs) // 20) == 0 or done == len(jobs):
                rate = total.inputs / (time.perf_counter() - started)
                print(f"  {total.inputs:>9,} inputs  {rate:6.1f}/s  "
                      f"{len(total.failures)} failure(s)", flush=True)
    elapsed = time.perf_counter() - started
    exits = ", ".join(f"{code}: {n}" for code, n in sorted(total.exits.items()))
    print(f"{total.inputs} inputs, {total.runs} command runs in-process (exit statuses {exits})"
          f" and {total.processes} in a real process, {elapsed:.0f} s; "
          f"{len(total.failures)} failure(s)")
    for problem, origin, data in total.failures[:20]:
        print(f"  {origin}: {problem}")
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            name = hashlib.sha256(data).hexdigest()[:12]
            (args.save / f"cli-{name}.bin").write_bytes(data)
            (args.save / f"cli-{name}.txt").write_text(f"{origin}\n{problem}\n")
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
