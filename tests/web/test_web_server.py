"""``bridgefiles serve`` for real, over sockets on 127.0.0.1: the size limit bites while the
body streams in, a large upload does not hold up the others, and nothing is left behind.

No timing is asserted: only the order in which answers arrive.
"""

from __future__ import annotations

import select
import socket
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the upload service needs the 'web' extra")

from shared import FIXTURES
from web_server import get_json, multipart, serve_module

from bridgefiles.testing.synthetic import generate, to_pbn

SAMPLE = FIXTURES / "sample-event.pbn"
LIMIT_MB = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    yield from serve_module(tmp_path_factory, "serve", "--max-upload-mb", str(LIMIT_MB),
                            "--workers", "2")


def _post(url: str, name: str, data: bytes) -> tuple[int, bytes]:
    body, content_type = multipart(name, data)
    request = urllib.request.Request(url, data=body, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=300) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_limit_is_enforced_while_the_body_streams(server: tuple[str, Path]) -> None:
    base, _ = server
    port = int(base.rsplit(":", 1)[1])
    boundary = "b" * 20
    head = (
        "POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n\r\n"
    ).encode()
    part = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            "filename=\"huge.pbn\"\r\n\r\n").encode()
    chunk = b"{" + b"x" * (64 * 1024 - 2) + b"}"
    # eight times the limit, if the server read it all: past the limit the rest is read
    # and discarded (so that a plain client reads the 413), but only up to four times it
    total_chunks = LIMIT_MB * 16 * 8
    sent = 0
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(head + b"%x\r\n%s\r\n" % (len(part), part))
        for _ in range(total_chunks):
            readable, _, _ = select.select([s], [], [], 0)
            if readable:
                break
            try:
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += 1
        s.settimeout(60)
        while b"\r\n\r\n" not in answer or b"}" not in answer.split(b"\r\n\r\n", 1)[1]:
            data = s.recv(65536)
            if not data:
                break
            answer += data
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"larger than this service accepts (4 MB)" in answer
    # the answer came while the client was still sending: the rest was not read
    assert sent < total_chunks
    assert get_json(base + "/healthz")["status"] == "ok"


def test_a_large_upload_does_not_hold_up_the_others(server: tuple[str, Path]) -> None:
    base, _ = server
    large = "".join(to_pbn(generate(3000, seed=11))).encode("latin-1")
    assert len(large) < LIMIT_MB << 20
    done: dict[str, tuple[int, bytes]] = {}

    def post_large() -> None:
        done["large"] = _post(base + "/api/validate", "large.pbn", large)

    worker = threading.Thread(target=post_large)
    worker.start()
    try:
        # wait until the large file is being worked on (its job is counted)
        while get_json(base + "/healthz")["jobs"] == 0 and worker.is_alive():
            threading.Event().wait(0.05)
        busy = worker.is_alive()
        status, body = _post(base + "/api/validate", "sample.pbn", SAMPLE.read_bytes())
        health = get_json(base + "/healthz")
        small_done_first = "large" not in done
    finally:
        worker.join()
    assert busy, "the large upload finished before it could be observed"
    assert status == 200 and b'"boards": 12' in body
    assert health["status"] == "ok"
    assert small_done_first, "the small upload waited for the large one"
    assert done["large"][0] == 200 and b'"boards": 3000' in done["large"][1]
