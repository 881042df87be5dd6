"""The worker processes that do the CPU work, so the event loop only moves bytes.

Each worker is a pool of its own (a one-process ``ProcessPoolExecutor``) and runs one job
at a time: a worker that dies (out of memory, ``kill -9``) breaks only its own pool, so
only the request it was working on fails (a 503); that worker is replaced and the other
requests, running or waiting, go on. Workers ignore Ctrl-C: the server stops them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")
RETRY_AFTER = 5  # seconds a refused client is asked to wait (the Retry-After header)


class Busy(Exception):
    """The work could not be done by a worker (the queue is full, or its worker died)."""


def _limit_memory(megabytes: int | None) -> None:
    """Cap a worker's address space, so one hostile file cannot exhaust the machine."""
    if megabytes is None:
        return
    import resource

    cap = megabytes << 20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _start_worker(megabytes: int | None, warm: Callable[[], object] | None) -> None:
    # Ctrl-C in a terminal reaches the whole process group: the server shuts the workers
    # down itself, so a worker must not die of it with a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _limit_memory(megabytes)
    if warm is not None:
        warm()


def _nothing() -> None:
    return None


class Workers:
    """``size`` worker processes (spawned, not forked from the server's threads), each
    doing one job at a time; at most ``size * queue`` jobs running or waiting.

    ``warm`` runs once in each worker as it starts (imports, grammars), and all workers are
    started with the service, so the first requests do not pay for it.
    """

    def __init__(self, size: int, memory_mb: int | None = None,
                 warm: Callable[[], object] | None = None, queue: int = 16) -> None:
        self.size = max(1, size)
        self.limit = self.size * queue  # jobs running or waiting; past it, a 503 at once
        self.memory_mb = memory_mb
        self.warm = warm
        self.active = 0
        self.replaced = 0  # workers that died and were replaced
        self._idle: asyncio.Queue[ProcessPoolExecutor] | None = None
        self._all: set[ProcessPoolExecutor] = set()

    def _worker(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(self.memory_mb, self.warm),
        )
        executor.submit(_nothing)  # start the process now, not on the first job
        self._all.add(executor)
        return executor

    def start(self) -> None:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.size):
                self._idle.put_nowait(self._worker())

    def stop(self) -> None:
        for executor in list(self._all):
            executor.shutdown(wait=True, cancel_futures=True)
        self._all.clear()
        self._idle = None

    @property
    def full(self) -> bool:
        return self.active >= self.limit

    def _put_back(self, executor: ProcessPoolExecutor, broken: bool) -> None:
        if executor not in self._all:
            return  # stopped meanwhile
        if broken:
            self._all.discard(executor)
            executor.shutdown(wait=False, cancel_futures=True)
            self.replaced += 1
            executor = self._worker()
        if self._idle is not None:
            self._idle.put_nowait(executor)

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        if self.full:
            raise Busy(f"the service is busy ({self.active} files waiting); try again shortly")
        self.start()
        idle = self._idle
        assert idle is not None
        self.active += 1
        try:
            executor = await idle.get()
            return await self._on(executor, func, *args)
        finally:
            self.active -= 1

    async def _on(self, executor: ProcessPoolExecutor, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` on ``executor``'s worker, which goes back to the idle ones after
        (replaced by a fresh one when it died)."""
        loop = asyncio.get_running_loop()
        try:
            job: Future[T] = executor.submit(func, *args)
        except BrokenProcessPool as exc:  # it died while idle
            self._put_back(executor, broken=True)
            raise Busy("a worker process stopped; try again") from exc
        try:
            result = await asyncio.shield(asyncio.wrap_future(job))
        except asyncio.CancelledError:
            # the client went away: the worker is free again once its job is done
            job.add_done_callback(
                lambda done: loop.call_soon_threadsafe(self._put_back, executor, _broke(done)))
            raise
        except BrokenProcessPool as exc:
            self._put_back(executor, broken=True)
            raise Busy("a worker process stopped while reading this file (it may need "
                       "more memory than the service gives one file); try again or "
                       "split it") from exc
        except MemoryError as exc:
            self._put_back(executor, broken=False)
            raise Busy("this file needs more memory than the service gives one file") from exc
        except BaseException:
            self._put_back(executor, broken=False)
            raise
        self._put_back(executor, broken=False)
        return result


def _broke(done: Future[Any]) -> bool:
    return not done.cancelled() and isinstance(done.exception(), BrokenProcessPool)
