"""Fuzz the command line's paths: fuzzed inputs through ``convert`` to standard output, to
``-o`` and to ``--out-dir``, and through ``validate --format json``, ``score`` and ``show``.

Each input (reproducible from ``--seed`` and its index, made by
:func:`bridgefiles.fuzzing.make_input`) is written to a file and run in-process through
click's runner. A failure is: an exception out of the command, exit status 3 (our bug)
or outside 0-3, ``Traceback`` or ``internal error`` on standard error, standard output
that differs from the ``-o`` file or the ``--out-dir`` file, or a JSON report that is not
JSON. Failing inputs are saved under ``--save`` (default: nothing saved).

    scripts/fuzz --cli --count 2000 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from click.testing import CliRunner  # noqa: E402
from fuzz import load_corpus  # noqa: E402

from bridgefiles import fuzzing  # noqa: E402
from bridgefiles.cli import main as cli  # noqa: E402

TARGETS = ("pbn", "lin", "json", "csv", "url")


@dataclass
class Tally:
    inputs: int = 0
    runs: int = 0
    exits: dict[int, int] = field(default_factory=dict)
    failures: list[tuple[str, str, bytes]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.inputs += other.inputs
        self.runs += other.runs
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


def check(data: bytes, hint: str | None, rng: random.Random, tally: Tally) -> list[str]:
    """Every CLI path on one input; the problems found."""
    problems: list[str] = []
    suffix = f".{hint}" if hint in ("pbn", "lin", "json") else ".pbn"
    with tempfile.TemporaryDirectory(prefix="fuzz-cli-") as tmp:
        source = Path(tmp) / f"in{suffix}"
        source.write_bytes(data)
        to = rng.choice(TARGETS)
        code, out, _, problem = _invoke(tally, ["convert", str(source), "--to", to, "-q"])
        problems += [f"convert --to {to}: {problem}"] if problem else []
        target = Path(tmp) / f"out.{to}"
        code_o, _, _, problem = _invoke(tally, ["convert", str(source), "--to", to, "-q",
                                                "-o", str(target)])
        problems += [f"convert --to {to} -o: {problem}"] if problem else []
        out_dir = Path(tmp) / "dir"
        code_d, _, _, problem = _invoke(tally, ["convert", str(source), "--to", to, "-q",
                                                "--out-dir", str(out_dir)])
        problems += [f"convert --to {to} --out-dir: {problem}"] if problem else []
        if not code == code_o == code_d:
            problems.append(f"convert --to {to}: exit statuses {code}, {code_o}, {code_d}")
        elif code == 0:
            written = [p for p in out_dir.rglob("*") if p.is_file()]
            if not target.exists() or target.read_bytes() != out:
                problems.append(f"convert --to {to}: standard output differs from -o")
            elif len(written) != 1 or written[0].read_bytes() != out:
                problems.append(f"convert --to {to}: --out-dir differs from standard output")
        _, report, _, problem = _invoke(tally, ["validate", str(source), "--format", "json",
                                                "-q"])
        problems += [f"validate --format json: {problem}"] if problem else []
        try:
            json.loads(report)
        except ValueError as exc:
            problems.append(f"validate --format json: not JSON ({exc})")
        for args in (["score", str(source), "-q"], ["show", str(source)]):
            problem = _invoke(tally, args)[3]
            problems += [f"{args[0]}: {problem}"] if problem else []
    return problems


def work(job: tuple[int, int, int]) -> Tally:
    start, stop, seed = job
    corpus = load_corpus()
    pool = [d for _, d in corpus if len(d) < 200_000]
    tally = Tally()
    for index in range(start, stop):
        rng = random.Random(f"cli:{seed}:{index}")
        item = fuzzing.make_input(rng, corpus, pool)
        tally.inputs += 1
        for problem in check(item.data, item.hint, rng, tally):
            tally.failures.append((problem, f"seed {seed} index {index} {item.origin}",
                                   item.data))
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="inputs to try")
    parser.add_argument("--seed", type=int, default=1, help="run seed (inputs are reproducible)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count() or 1)
    parser.add_argument("--save", type=Path, default=None, help="folder for failing inputs")
    args = parser.parse_args(argv)
    step = max(1, args.count // (args.jobs * 4))
    jobs = [(i, min(i + step, args.count), args.seed) for i in range(0, args.count, step)]
    total = Tally()
    with multiprocessing.Pool(args.jobs) as workers:
        for tally in workers.imap_unordered(work, jobs):
            total.add(tally)
    exits = ", ".join(f"{code}: {n}" for code, n in sorted(total.exits.items()))
    print(f"{total.inputs} inputs, {total.runs} command runs (exit statuses {exits}), "
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
