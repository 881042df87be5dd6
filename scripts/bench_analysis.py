"""Double-dummy analysis throughput: boards/s of ``bridgefiles analyze`` on generated events.

Three ways of spending the cores: one process with the solver on one thread; one process
with the solver's batch calls on every core (what ``analyze`` does with one file); and two
worker processes of one solver thread each, a file each (``analyze --jobs 2`` on two files).
Each writes the analysed file in preserve layout, as the command does.

    .venv/bin/python scripts/bench_analysis.py [--boards 80] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from bridgefiles.analysis import files, solver
from bridgefiles.testing import synthetic


def _event(folder: Path, name: str, count: int, seed: int) -> Path:
    path = folder / name
    path.write_text("".join(synthetic.to_pbn(synthetic.generate(count, seed=seed))),
                    encoding="utf-8")
    return path


def _run(tasks: list[files.FileTask], jobs: int) -> int:
    boards = 0
    for outcome in files.run_tasks(tasks, jobs):
        if outcome.error:
            raise SystemExit(f"{outcome.path}: {outcome.error}")
        boards += outcome.analysed
    return boards


def _cpu() -> float:
    """CPU seconds of this process (all solver threads) and its finished workers: the
    figure that does not depend on what else the machine is doing."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=80, help="boards per run (default 80)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not solver.available():
        raise SystemExit(solver.MISSING)
    cores = os.cpu_count() or 1
    print(f"double-dummy analysis, {args.boards} generated boards a run, {cores} cores "
          f"(load average {os.getloadavg()[0]:.1f})")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        half = args.boards // 2
        runs = [
            ("1 process, solver on 1 thread", 1, 1,
             [_event(folder, "one.pbn", args.boards, args.seed)]),
            (f"1 process, solver on {cores} threads", 0, 1,
             [_event(folder, "all.pbn", args.boards, args.seed + 1)]),
            ("2 processes, 1 solver thread each", None, 2,
             [_event(folder, "a.pbn", half, args.seed + 2),
              _event(folder, "b.pbn", args.boards - half, args.seed + 3)]),
        ]
        for label, threads, jobs, paths in runs:
            if threads is not None:
                solver.set_threads(threads)
            tasks = [files.FileTask(path=str(p), target=str(p.with_suffix(".out.pbn")))
                     for p in paths]
            started, cpu = time.perf_counter(), _cpu()
            boards = _run(tasks, jobs)
            seconds, cpu = time.perf_counter() - started, _cpu() - cpu
            print(f"  {label:<36} {boards / seconds:8.1f} boards/s  ({boards} in {seconds:.1f} s,"
                  f" {cpu / boards:.2f} CPU s a board)")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
