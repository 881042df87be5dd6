"""``bridgefiles serve`` for real (a server process on 127.0.0.1) against each kind of
client the service meets: urllib, requests, httpx and curl uploading over the limit (with
and without ``Expect: 100-continue``), silent and slow-header sockets, a body trickled
byte by byte, a multipart body cut short, a worker killed with ``kill -9`` in the middle
of two requests, and Ctrl-C on ``serve --workers 4``.

Nothing here asserts how fast an answer comes: only which answer each client reads (a
generous socket timeout only keeps a broken server from hanging the test).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the upload service needs the 'web' extra")

from shared import FIXTURES
from web_server import get_json, multipart, serve_module, started, trickle, workers

from bridgefiles.testing.synthetic import generate, to_pbn

LIMIT_MB = 4
# three times the limit: far more than the sockets' buffers hold, so a server that closes
# with the rest unread resets the connection under a client still sending
OVER = b"[Board \"1\"]\n" + b"x" * ((LIMIT_MB << 20) * 3)
SAMPLE = FIXTURES / "sample-event.pbn"
HEADER_TIMEOUT = 5  # the default of --header-timeout


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    yield from serve_module(tmp_path_factory, "clients", "--max-upload-mb", str(LIMIT_MB),
                            "--workers", "2")


def _urllib(url: str, data: bytes, expect: bool) -> tuple[int, bytes]:
    body, content_type = multipart("over.pbn", data)
    headers = {"Content-Type": content_type}
    if expect:
        pytest.skip("urllib cannot wait for 100-continue")
    request = urllib.request.Request(url, data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _requests(url: str, data: bytes, expect: bool) -> tuple[int, bytes]:
    requests = pytest.importorskip("requests")
    headers = {"Expect": "100-continue"} if expect else {}
    # requests sends the whole body at once and reads the answer after, whatever Expect says
    r = requests.post(url, files={"file": ("over.pbn", data)}, headers=headers, timeout=120)
    return r.status_code, r.content


def _httpx(url: str, data: bytes, expect: bool) -> tuple[int, bytes]:
    import httpx

    headers = {"Expect": "100-continue"} if expect else {}
    r = httpx.post(url, files={"file": ("over.pbn", data)}, headers=headers, timeout=120)
    return r.status_code, r.content


def _curl(url: str, data: bytes, expect: bool) -> tuple[int, bytes]:
    curl = shutil.which("curl")
    if curl is None:
        pytest.skip("curl is not installed")
    folder = Path(os.environ.get("TMPDIR", "/tmp"))
    path = folder / f"bridgefiles-curl-{uuid.uuid4().hex}.pbn"
    path.write_bytes(data)
    try:
        # curl sends Expect: 100-continue for a body this large unless told not to
        expect_header = [] if expect else ["-H", "Expect:"]
        done = subprocess.run(
            [curl, "-sS", "--max-time", "120", "-w", "\n%{http_code}", *expect_header,
             "-F", f"file=@{path}", url], capture_output=True, check=False)
    finally:
        path.unlink()
    assert done.returncode == 0, done.stderr  # 0: an answer was read (no reset, no error)
    body, _, status = done.stdout.rpartition(b"\n")
    return int(status), body


def _raw(url: str, data: bytes, expect: bool) -> tuple[int, bytes]:
    """A client that sends every byte before reading anything (as urllib does), by hand."""
    if expect:
        pytest.skip("the raw client never waits")
    body, content_type = multipart("over.pbn", data)
    port = int(url.split(":")[2].split("/")[0])
    head = (f"POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}"
            f"\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
        s.sendall(head + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += s.recv(65536)
        head_part, rest = answer.split(b"\r\n\r\n", 1)
        length = int(next(line.split(b":", 1)[1] for line in head_part.split(b"\r\n")
                          if line.lower().startswith(b"content-length:")))
        while len(rest) < length:
            rest += s.recv(65536)
    return int(head_part.split(b" ", 2)[1]), rest


CLIENTS: dict[str, Callable[[str, bytes, bool], tuple[int, bytes]]] = {
    "urllib": _urllib, "requests": _requests, "httpx": _httpx, "curl": _curl, "raw": _raw,
}


def _read_all(s: socket.socket) -> bytes:
    answer = b""
    while True:
        data = s.recv(65536)
        if not data:
            return answer
        answer += data


@pytest.mark.parametrize("expect", [False, True], ids=["plain", "expect-100"])
@pytest.mark.parametrize("client", list(CLIENTS))
def test_every_client_over_the_limit_reads_a_413(server: tuple[str, Path], client: str,
                                                  expect: bool) -> None:
    base, _ = server
    status, body = CLIENTS[client](base + "/api/validate", OVER, expect)
    assert status == 413, body[:200]
    assert b"larger than this service accepts (4 MB)" in body
    assert get_json(base + "/healthz")["status"] == "ok"


def test_a_full_queue_or_a_bad_option_is_read_by_a_plain_client(
        server: tuple[str, Path]) -> None:
    """An answer given before the body is read (a refused option) reaches a client that
    sends the whole body first: no reset."""
    requests = pytest.importorskip("requests")
    base, _ = server
    data = SAMPLE.read_bytes() * 40  # within the limit, larger than a socket's buffers
    r = requests.post(base + "/api/score?method=bogus", files={"file": ("s.pbn", data)},
                      timeout=120)
    assert r.status_code == 422 and "unknown scoring method 'bogus'" in r.json()["error"]
    r = requests.post(base + "/api/score?method=butler", files={"file": ("s.pbn", data)},
                      timeout=120)
    assert r.status_code == 200


def test_silent_and_slow_header_sockets_lock_nobody_out(server: tuple[str, Path]) -> None:
    base, _ = server
    port = int(base.rsplit(":", 1)[1])
    silent = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(70)]
    slow = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(5)]
    try:
        for s in slow:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX")
        # 75 connections that have not sent their headers: everyone else is still served
        assert get_json(base + "/healthz")["status"] == "ok"
        status, body = CLIENTS["httpx"](base + "/api/validate", SAMPLE.read_bytes(), False)
        assert status == 200 and b'"boards": 12' in body
        # a header byte now and then does not keep a connection open past the deadline
        for s in slow:
            s.sendall(b"-")
        time.sleep(1)
        for s in slow:
            with contextlib.suppress(OSError):
                s.sendall(b"y")
        # every one of them is answered 408 and closed (not left open for ever)
        for s in silent + slow:
            answer = _read_all(s)
            assert answer.startswith(b"HTTP/1.1 408 "), answer[:100]
            assert b"headers did not arrive within" in answer
    finally:
        for s in silent + slow:
            s.close()
    assert get_json(base + "/healthz")["status"] == "ok"


def test_a_body_slower_than_the_stated_rate_gets_408(server: tuple[str, Path]) -> None:
    """One byte a second (well under the 8 KB/s a body must keep after 10 s) is cut off
    with a 408, not held for the five minutes an upload may take in all."""
    base, _ = server
    port = int(base.rsplit(":", 1)[1])
    body, content_type = multipart("slow.pbn", SAMPLE.read_bytes())
    head = (f"POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}"
            f"\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    answer = trickle(port, head, body[:90], pause=1.0)  # 90 s, if the server let it
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b"slower than 8 KB a second" in answer


def test_a_multipart_body_without_its_closing_boundary_is_a_400(
        server: tuple[str, Path]) -> None:
    base, _ = server
    body, content_type = multipart("cut.pbn", SAMPLE.read_bytes(), close=False)
    request = urllib.request.Request(base + "/api/validate", data=body,
                                     headers={"Content-Type": content_type})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=120)
    assert refused.value.code == 400
    assert b"closing boundary" in refused.value.read()


def test_a_killed_worker_fails_only_its_own_request(tmp_path: Path) -> None:
    large = "".join(to_pbn(generate(2500, seed=5))).encode("latin-1")
    with started(tmp_path, "--workers", "2") as (base, proc):
        before = workers(proc)
        assert len(before) == 2
        answers: dict[int, tuple[int, bytes]] = {}

        def post(n: int) -> None:
            answers[n] = CLIENTS["httpx"](base + "/api/validate", large, False)

        threads = [threading.Thread(target=post, args=(n,)) for n in range(2)]
        for t in threads:
            t.start()
        while _jobs(base) < 2 and all(t.is_alive() for t in threads):
            time.sleep(0.05)
        both_running = all(t.is_alive() for t in threads)
        os.kill(before[0], signal.SIGKILL)
        for t in threads:
            t.join()
        assert both_running, "a request finished before the worker could be killed"
        statuses = sorted(status for status, _ in answers.values())
        assert statuses == [200, 503], answers
        failed = next(body for status, body in answers.values() if status == 503)
        assert b"worker process stopped" in failed
        done = next(body for status, body in answers.values() if status == 200)
        assert b'"boards": 2500' in done
        # a fresh worker took the dead one's place, and serves
        status, body = CLIENTS["httpx"](base + "/api/validate", SAMPLE.read_bytes(), False)
        assert status == 200 and b'"boards": 12' in body
        after = workers(proc)
        assert len(after) == 2 and before[0] not in after


def test_ctrl_c_on_four_workers_prints_no_traceback(tmp_path: Path) -> None:
    with started(tmp_path, "--workers", "4") as (base, proc):
        assert len(workers(proc)) == 4
        status, _ = CLIENTS["httpx"](base + "/api/validate", SAMPLE.read_bytes(), False)
        assert status == 200
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal does on Ctrl-C
        assert proc.wait(timeout=60) == 0
    log = (tmp_path / "server.log").read_text()
    assert "Shutting down" in log
    assert "Traceback" not in log and "KeyboardInterrupt" not in log, log


def _jobs(base: str) -> int:
    jobs = get_json(base + "/healthz")["jobs"]
    assert isinstance(jobs, int)
    return jobs
