"""Running units of work over a process pool, results in the order of the tasks.

One unit is one file (``bridgefiles.batch.tasks``); ``jobs`` of them run at a time in
worker processes, and progress counts come back through a manager queue.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from bridgefiles.batch.inputs import Input
from bridgefiles.batch.tasks import FileResult, Report, no_report


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


class QueueReport:
    """A picklable progress callback that posts counts onto a manager queue."""

    def __init__(self, queue: Any) -> None:
        self.queue = queue

    def __call__(self, n: int) -> None:
        self.queue.put(n)


def _call(func: Callable[[Any, Report], FileResult], task: Any, report: Report) -> FileResult:
    return func(task, report)


def run(
    func: Callable[[Any, Report], FileResult],
    tasks: Sequence[Any],
    jobs: int | None = None,
    progress: Report | None = None,
) -> Iterator[FileResult]:
    """Run ``func`` on every task, ``jobs`` at a time in worker processes, and yield the
    results in the order of ``tasks`` (so output is the same whatever the number of jobs).

    ``jobs=1`` (or a single task, or standard input among the inputs) works in this process.
    ``progress`` is told how many boards were done, now and then, from every worker.
    """
    jobs = default_jobs() if jobs is None or jobs < 1 else jobs
    in_process = jobs == 1 or len(tasks) <= 1 or any(
        getattr(t, "item", Input("")).is_stdin for t in tasks
    )
    if in_process:
        for task in tasks:
            yield func(task, progress or no_report)
        return
    manager = None
    report: Report = no_report
    if progress is not None:
        import multiprocessing

        manager = multiprocessing.Manager()
        queue = manager.Queue()
        report = QueueReport(queue)
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
            futures: list[Future[FileResult]] = [
                pool.submit(_call, func, task, report) for task in tasks
            ]
            for future in futures:
                while progress is not None and not future.done():
                    _drain(queue, progress, wait=0.1)
                if progress is not None:
                    _drain(queue, progress, wait=0)
                yield future.result()
    finally:
        if manager is not None:
            manager.shutdown()


def _drain(queue: Any, progress: Report, wait: float) -> None:
    import queue as queue_module

    try:
        n = queue.get(timeout=wait) if wait else queue.get_nowait()
        progress(n)
        while True:
            progress(queue.get_nowait())
    except queue_module.Empty:
        return
