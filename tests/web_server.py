"""A real ``bridgefiles serve`` on 127.0.0.1 for the tests that need sockets and a browser.

The server runs as its own process with ``TMPDIR`` pointing at a folder of the test, so the
test can check that no request leaves anything behind (uploads, outputs, workers' files).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get_json(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=30) as r:
        data: dict[str, object] = json.load(r)
        return data


def multipart(name: str, data: bytes, *, close: bool = True) -> tuple[bytes, str]:
    """A ``multipart/form-data`` body with ``data`` as the file ``name`` in the field
    ``file``, and its Content-Type; ``close=False`` leaves out the closing boundary."""
    boundary = uuid.uuid4().hex
    body = (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode() + data + (f"\r\n--{boundary}--\r\n".encode() if close else b"")
    return body, f"multipart/form-data; boundary={boundary}"


def trickle(port: int, head: bytes, body: bytes, pause: float,
            timeout: float = 120) -> bytes:
    """What the server answers a client that sends ``head`` at once and then ``body`` a
    byte every ``pause`` seconds until an answer comes; read until the server closes (a
    reset after an answer keeps the answer)."""
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(head)
        s.setblocking(False)
        for byte in body:
            try:
                answer += s.recv(65536)
                break
            except BlockingIOError:
                pass
            try:
                s.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(pause)
        s.settimeout(timeout)
        with contextlib.suppress(ConnectionResetError):
            while chunk := s.recv(65536):
                answer += chunk
    return answer


def serve_module(factory: Any, name: str, *args: str) -> Iterator[tuple[str, Path]]:
    """For a module's fixture: the server's URL and temporary folder, which must be empty
    once the server has stopped (no request leaves anything behind)."""
    tmp = factory.mktemp(name)
    with serve(tmp, *args) as base:
        yield base, tmp / "server-tmp"
    # (Lark keeps its parse tables in a cache file of the temporary folder: not a request's)
    left = [n for n in os.listdir(tmp / "server-tmp") if not n.startswith(".lark_cache")]
    assert left == [], f"the server left files behind: {left}"


@contextlib.contextmanager
def serve(tmp: Path, *args: str) -> Iterator[str]:
    """``bridgefiles serve --port P ARGS...``; yields its base URL once /healthz answers."""
    with started(tmp, *args) as (base, _):
        yield base


@contextlib.contextmanager
def started(tmp: Path, *args: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The server as :func:`serve` starts it, with its process (in a session of its own,
    so a test can send its process group a Ctrl-C as a terminal does); its output goes to
    ``tmp/server.log``."""
    port = free_port()
    temp = tmp / "server-tmp"
    temp.mkdir(exist_ok=True)
    log = open(tmp / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "bridgefiles.cli", "serve", "--port", str(port), *args],
        env={**os.environ, "TMPDIR": str(temp)}, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):  # up to a minute on a loaded machine
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {(tmp / 'server.log').read_text()}")
            try:
                get_json(base + "/healthz")
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError("server did not answer /healthz within a minute")
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def workers(proc: subprocess.Popen[bytes]) -> list[int]:
    """The process ids of the server's worker processes (spawned children running
    ``multiprocessing.spawn``; not its resource tracker)."""
    found = []
    for child in _children(proc.pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.append(child)
    return found


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return found
