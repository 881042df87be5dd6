"""Hostile load on the upload service, on 127.0.0.1 only: does every client get the right
answer? Run by hand (not in CI): ``.venv/bin/python scripts/load_web.py``.

Starts ``bridgefiles serve`` on a free local port (``--max-upload-mb 4``, 2 workers), then
50 client threads for 60 s, each of one kind, in a loop:

* good: a real corpus file (up to 300 KB) to ``/api/validate`` or ``/report``: 200;
* over: 6 MB, over the limit, sent whole before reading (urllib): 413;
* slow: a body at one byte a second: 408 (the pace is 8 KB/s after 10 s);
* garbage: a binary file (415), a body that is not multipart (415), a multipart body
  without its closing boundary (400), headers that never end (408);
* names: a good file under a hostile name (path, controls, markup, a long name) to
  ``/api/convert``: 200 and a download name of safe characters only.

A 503 is right only with Retry-After (the stated queue is full); a connection reset, a
timeout or any other answer is wrong. At the end: answers by kind, p50/p95 latency, the
peak memory of the server with its workers, and whether every worker is still there (the
same processes as at the start). Bounded: at most --seconds (300) and 20,000 requests.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "tests")]
from bench_web import HOST, REAL, Memory, _multipart, _percentile  # noqa: E402
from web_server import started, trickle, workers  # noqa: E402 - the tests' server helpers

MAX_SECONDS = 300
MAX_REQUESTS = 20_000
LIMIT_MB = 4
SAFE_NAME = re.compile(r'filename="[A-Za-z0-9._-]+"')
HOSTILE_NAMES = ("../../etc/passwd.pbn", "a\r\nSet-Cookie: x=1.pbn", "<script>x</script>.pbn",
                 "C:\\Windows\\win.ini.pbn", "é" * 300 + ".pbn", "\x00\x1b[31mred.pbn")

Answer = tuple[int | str, dict[str, str], bytes]  # status (or what went wrong), headers, body


def _post(url: str, body: bytes, content_type: str, timeout: float = 120) -> Answer:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", exc)
        return type(reason).__name__, {}, str(reason).encode()


def _raw(port: int, head: bytes, body: bytes, pause: float) -> Answer:
    """``head``, then ``body`` a byte every ``pause`` seconds until the server answers."""
    try:
        answer = trickle(port, head, body, pause)
    except OSError as exc:
        return type(exc).__name__, {}, b""
    if not answer.startswith(b"HTTP/1.1 "):
        return "no answer", {}, answer
    head_part, _, rest = answer.partition(b"\r\n\r\n")
    lines = head_part.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), headers, rest


class Kinds:
    """What each kind of client sends, and the answer it must get."""

    def __init__(self, base: str, files: list[tuple[str, bytes]]) -> None:
        self.base = base
        self.port = int(base.rsplit(":", 1)[1])
        self.files = files
        self.over = b'[Board "1"]\n' + b"x" * (LIMIT_MB * 3 << 19)  # 1.5 x the limit

    def good(self, rng: random.Random) -> tuple[Answer, set[int]]:
        name, data = rng.choice(self.files)
        path = rng.choice(("/api/validate", "/report"))
        return _post(self.base + path, *_multipart(name, data)), {200}

    def over_limit(self, rng: random.Random) -> tuple[Answer, set[int]]:
        return _post(self.base + "/api/validate", *_multipart("big.pbn", self.over)), {413}

    def slow(self, rng: random.Random) -> tuple[Answer, set[int]]:
        body, content_type = _multipart("slow.pbn", self.files[0][1][:2000])
        head = (f"POST /api/validate HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: {content_type}"
                f"\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        return _raw(self.port, head, body, pause=1.0), {408}

    def garbage(self, rng: random.Random) -> tuple[Answer, set[int]]:
        kind = rng.randrange(4)
        if kind == 0:
            data = bytes(rng.randrange(256) for _ in range(4096)) + b"\0"
            return _post(self.base + "/api/validate", *_multipart("x.pbn", data)), {415}
        if kind == 1:
            return _post(self.base + "/api/validate", b"a=1&b=2",
                         "application/x-www-form-urlencoded"), {415}
        if kind == 2:
            body, content_type = _multipart("cut.pbn", self.files[0][1])
            return _post(self.base + "/api/validate", body[:-40], content_type), {400}
        head = f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: ".encode()
        return _raw(self.port, head, b"z" * 60, pause=1.0), {408}

    def names(self, rng: random.Random) -> tuple[Answer, set[int]]:
        _, data = rng.choice(self.files)
        answer = _post(self.base + "/api/convert?to=pbn",
                       *_multipart(rng.choice(HOSTILE_NAMES), data))
        status, headers, body = answer
        disposition = headers.get("content-disposition", headers.get("Content-Disposition"))
        if status == 200 and not SAFE_NAME.fullmatch(
                (disposition or "").removeprefix("attachment; ")):
            return ("unsafe download name", headers, body), {200}
        return answer, {200}


MIX = (("good", 25), ("over", 8), ("slow", 5), ("garbage", 7), ("names", 5))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    seconds = min(args.seconds, MAX_SECONDS)
    files = sorted((p.name, p.read_bytes()) for p in REAL.rglob("*")
                   if p.suffix.lower() in (".pbn", ".lin") and p.stat().st_size <= 300 << 10)
    if not files:
        print(f"no corpus files under {REAL}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bridgefiles-load-") as tmp, \
            started(Path(tmp), "--max-upload-mb", str(LIMIT_MB), "--workers",
                    str(args.workers)) as (base, server):
        return _load(base, server, files, seconds, args.workers)


def _load(base: str, server: subprocess.Popen[bytes], files: list[tuple[str, bytes]],
          seconds: float, size: int) -> int:
    time.sleep(2)  # the workers warm up
    before = set(workers(server))
    memory = Memory(server.pid)
    memory.start()
    kinds = Kinds(base, files)
    send: dict[str, Callable[[random.Random], tuple[Answer, set[int]]]] = {
        "good": kinds.good, "over": kinds.over_limit, "slow": kinds.slow,
        "garbage": kinds.garbage, "names": kinds.names}
    answers: dict[str, Counter[str]] = defaultdict(Counter)
    wrong: list[str] = []
    busy: dict[str, bytes] = {}  # what a 503 said, a kind
    latencies: dict[str, list[float]] = defaultdict(list)
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    count = [0]

    def client(kind: str, n: int) -> None:
        rng = random.Random(n)  # seeded: the same mix on every run
        while time.monotonic() < deadline:
            with lock:
                if count[0] >= MAX_REQUESTS:
                    return
                count[0] += 1
            start = time.monotonic()
            (status, headers, body), right = send[kind](rng)
            took = time.monotonic() - start
            retry = headers.get("retry-after", headers.get("Retry-After"))
            ok = status in right or (status == 503 and retry is not None)
            with lock:
                answers[kind][str(status) + ("" if status != 503 else f" Retry-After {retry}")] \
                    += 1
                latencies[kind].append(took)
                if not ok:
                    wrong.append(f"{kind}: {status} {body[:160]!r}")
                if status == 503:
                    busy.setdefault(kind, body[:160])

    threads = [threading.Thread(target=client, args=(kind, i))
               for kind, n in MIX for i in range(n)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - started
    memory.stop.set()
    memory.join()
    after = set(workers(server))
    with urllib.request.urlopen(base + "/healthz", timeout=30) as r:
        left = json.load(r)["jobs"]
    print(f"{len(threads)} clients for {took:.0f} s against {base} (--max-upload-mb "
          f"{LIMIT_MB}, {size} workers): {sum(sum(c.values()) for c in answers.values())} answers")
    for kind, _ in MIX:
        lat = latencies[kind]
        shown = ", ".join(f"{k}: {v}" for k, v in sorted(answers[kind].items()))
        print(f"  {kind:8} {shown}; p50 {_percentile(lat, 50):.2f} s, p95 "
              f"{_percentile(lat, 95):.2f} s")
    every = [x for kind in ("good", "over", "garbage", "names") for x in latencies[kind]]
    print(f"  all but slow: p50 {_percentile(every, 50):.2f} s, p95 {_percentile(every, 95):.2f} s")
    print(f"peak memory: {memory.peak_total_kb / 1024:.0f} MiB in all (server "
          f"{memory.peaks.get(server.pid, 0) / 1024:.0f} MiB, largest worker "
          f"{max((v for p, v in memory.peaks.items() if p != server.pid), default=0) / 1024:.0f}"
          " MiB)")
    print(f"workers: {len(before)} at the start, {len(after)} at the end, "
          f"{len(before - after)} replaced; {left} job(s) still counted after the load")
    for kind, said in busy.items():
        print(f"  a 503 to {kind}: {said!r}")
    for line in wrong[:20]:
        print("WRONG", line)
    print(f"{len(wrong)} wrong answer(s)")
    return 1 if wrong or before != after else 0


if __name__ == "__main__":
    sys.exit(main())
