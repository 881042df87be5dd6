"""The worker processes that do the CPU work, so the event loop only moves bytes.

A worker that dies (out of memory, killed) breaks a ``ProcessPoolExecutor``; the pool is
then replaced, the request that hit it gets a 503, and the service goes on serving.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")


class Busy(Exception):
    """The work could not be done by a worker (it died, or the pool is shutting down)."""


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
    _limit_memory(megabytes)
    if warm is not None:
        warm()


def _nothing() -> None:
    return None


class Workers:
    """A process pool of ``size`` workers (spawned, not forked from the server's threads).

    ``warm`` runs once in each worker as it starts (imports, grammars), and all workers are
    started with the pool, so the first requests do not pay for it.
    """

    def __init__(self, size: int, memory_mb: int | None = None,
                 warm: Callable[[], object] | None = None, queue: int = 16) -> None:
        self.size = max(1, size)
        self.limit = self.size * queue  # jobs running or waiting; past it, a 503 at once
        self.memory_mb = memory_mb
        self.warm = warm
        self.active = 0
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self.memory_mb, self.warm),
            )
            for _ in range(self.size):
                self._pool.submit(_nothing)

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    @property
    def full(self) -> bool:
        return self.active >= self.limit

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        if self.full:
            raise Busy(f"the service is busy ({self.active} files waiting); try again shortly")
        self.start()
        pool = self._pool
        assert pool is not None
        self.active += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, func, *args)
        except BrokenProcessPool as exc:
            if self._pool is pool:  # the first to notice replaces it
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                self.start()
            raise Busy("a worker process stopped while reading this file (it may need more "
                       "memory than the service gives one file); try again or split it") from exc
        except MemoryError as exc:
            raise Busy("this file needs more memory than the service gives one file") from exc
        finally:
            self.active -= 1
