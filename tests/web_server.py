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
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get_json(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=30) as r:
        data: dict[str, object] = json.load(r)
        return data


@contextlib.contextmanager
def serve(tmp: Path, *args: str) -> Iterator[str]:
    """``bridgefiles serve --port P ARGS...``; yields its base URL once /healthz answers."""
    port = free_port()
    temp = tmp / "server-tmp"
    temp.mkdir(exist_ok=True)
    log = open(tmp / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "bridgefiles.cli", "serve", "--port", str(port), *args],
        env={**os.environ, "TMPDIR": str(temp)}, stdout=log, stderr=subprocess.STDOUT,
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
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
