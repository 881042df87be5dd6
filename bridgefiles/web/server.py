"""uvicorn as ``bridgefiles serve`` runs it: a deadline for a request's headers, and a
stated bound on connections that answers 503 with Retry-After.

uvicorn times out nothing before a request's headers end: a socket that sends nothing, or
a header byte every few seconds, stays open for ever, and enough of them locked every other
client out. Here each connection gets ``header_timeout`` seconds to send a request's
headers (from when it opens, or from the end of the previous answer), as a proxy gives
(nginx's ``client_header_timeout``); after that it is answered 408 and closed. Bodies keep
a pace of their own (:mod:`bridgefiles.web.guard`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from bridgefiles.web.pool import RETRY_AFTER

HEADER_TIMEOUT = 5.0  # seconds to send a request's headers
MAX_CONNECTIONS = 512  # open at once; past it a new one is answered 503 and closed


def _answer(status: str, text: str, *extra: str) -> bytes:
    body = text.encode()
    head = [f"HTTP/1.1 {status}", "Content-Type: text/plain; charset=utf-8",
            f"Content-Length: {len(body)}", "Connection: close", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and a bound on connections."""

    header_timeout = HEADER_TIMEOUT
    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            transport.write(_answer(
                "503 Service Unavailable",
                "the service has too many connections open; try again shortly\n",
                f"Retry-After: {RETRY_AFTER}"))
            transport.close()
            return
        self._header_deadline: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._header_deadline = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        deadline = getattr(self, "_header_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._header_deadline = None

    def _headers_late(self) -> None:
        """The deadline passed: closed if the request's headers have still not ended."""
        self._header_deadline = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.conn.our_state is h11.IDLE:
            self.transport.write(_answer(
                "408 Request Timeout",
                f"the request's headers did not arrive within {self.header_timeout:g} s\n"))
        self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's headers have the same time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def run(app: Any, *, header_timeout: float = HEADER_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS, **options: Any) -> None:
    """``uvicorn.run(app, **options)`` over :class:`GuardedH11`."""
    protocol = type("ServeH11", (GuardedH11,), {"header_timeout": header_timeout,
                                               "max_connections": max_connections})
    uvicorn.run(app, http=protocol, **options)
