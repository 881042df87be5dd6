"""What every request goes through: a pace the body must keep, security headers, and a
rejected body read to its end before the answer, so that every client reads that answer.

A client that sends its whole body before reading (``urllib``, ``requests``) gets a
connection reset, not the answer, when a server answers early and closes with the body's
rest unread (the kernel answers the unread bytes with a reset). So when the app answers
before the body ended (413, 503, 422), :class:`Guard` reads and discards the rest first,
at the same pace as an upload and up to a bound; a client that waits for ``100-continue``
(curl) has sent nothing and is answered at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


class TooSlow(Exception):
    """The body did not keep its pace: the message says how (a 408 for the client)."""


@dataclass(frozen=True)
class Pace:
    """How fast a request body must come: nothing for ``idle`` seconds, or on average
    slower than ``min_rate`` bytes a second once ``grace`` seconds have passed, or longer
    than ``total`` seconds in all, and the body is cut off."""

    idle: float = 30.0
    min_rate: float = 8192.0
    grace: float = 10.0
    total: float = 300.0

    def clock(self) -> Clock:
        return Clock(self)


class Clock:
    """One body's pace as it arrives: how long the next piece may take."""

    def __init__(self, pace: Pace) -> None:
        self.pace = pace
        self.loop = asyncio.get_running_loop()
        self.start = self.loop.time()
        self.received = 0

    def got(self, size: int) -> None:
        self.received += size

    def wait(self) -> float:
        """Seconds the next piece may take; :class:`TooSlow` when the time is up."""
        pace = self.pace
        elapsed = self.loop.time() - self.start
        if elapsed >= pace.total:
            raise TooSlow(f"the upload took longer than {pace.total:g} s; send it faster")
        rate_left = pace.grace + self.received / pace.min_rate - elapsed
        if rate_left <= 0:
            raise TooSlow(
                f"the upload came slower than {pace.min_rate / 1024:g} KB a second; send it "
                "faster")
        return min(pace.idle, pace.total - elapsed, rate_left)

    async def next(self, piece: Awaitable[Any]) -> Any:
        """``piece`` awaited within the time left; :class:`TooSlow` when it does not come."""
        wait = self.wait()
        try:
            return await asyncio.wait_for(piece, wait)
        except TimeoutError:
            self.wait()  # the total or the rate, if that is what ran out
            raise TooSlow(
                f"the upload stalled (nothing for {self.pace.idle:g} s); send it again"
            ) from None


def _header(scope: MutableMapping[str, Any], name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value)
    return None


class Guard:
    """ASGI middleware: security headers on every answer, and the rest of a body the app
    answered early read (at ``pace``, up to ``drain_limit`` bytes) before the answer."""

    def __init__(self, app: ASGIApp, pace: Pace, drain_limit: int) -> None:
        self.app = app
        self.pace = pace
        self.drain_limit = drain_limit

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive,
                       send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        chunked = b"chunked" in (_header(scope, b"transfer-encoding") or b"").lower()
        declared = int(length) if length is not None and length.isdigit() else None
        waits = (_header(scope, b"expect") or b"").lower() == b"100-continue"
        state = {"ended": not chunked and not declared, "received": 0}
        static = str(scope.get("path", "")).startswith("/static/")

        async def tracked() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                state["received"] += len(message.get("body", b""))
                if not message.get("more_body", False):
                    state["ended"] = True
            elif message["type"] == "http.disconnect":
                state["ended"] = True
            return message

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {bytes(k).lower() for k, _ in headers}
                extra = dict(SECURITY_HEADERS)
                if not static:
                    extra["Cache-Control"] = "no-store"
                for key, value in extra.items():
                    if key.lower().encode() not in present:
                        headers.append((key.lower().encode(), value.encode()))
                early = not state["ended"] and (state["received"] or not waits)
                # a body refused for its pace is not waited for again: answered, closed
                too_slow = message.get("status") == 408
                if early and (too_slow or not await self._drain(tracked, state, declared)):
                    headers.append((b"connection", b"close"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, tracked, guarded)

    async def _drain(self, receive: Receive, state: dict[str, Any],
                     declared: int | None) -> bool:
        """Read and discard the body's rest; False when it is too long or too slow (the
        connection is then closed after the answer)."""
        if declared is not None and declared > self.drain_limit:
            return False
        clock = self.pace.clock()
        try:
            while not state["ended"]:
                if state["received"] > self.drain_limit:
                    return False
                message = await clock.next(receive())
                clock.got(len(message.get("body", b"")))
        except TooSlow:
            return False
        return True
