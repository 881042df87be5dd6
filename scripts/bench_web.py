"""Load test of the upload service, on 127.0.0.1 only: requests/s, latency, errors, memory.

Starts ``bridgefiles serve`` on a free local port, then N client threads upload files for a
fixed time (bounded in duration and in request count, so it always stops by itself):
first the real corpus files (../shared/corpus/real, those up to --corpus-max-kb), then a
generated 300-board event (``bridgefiles.testing.synthetic``). For each phase it prints requests/s,
p50/p95/p99 latency and errors; and the server's peak memory (its process and each worker,
from /proc). Reported, never asserted.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
REAL = ROOT.parent / "shared" / "corpus" / "real"
HOST = "127.0.0.1"  # never anything else: this load stays on this machine
MAX_SECONDS = 300
MAX_REQUESTS = 20_000


@dataclass
class Phase:
    name: str
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    bytes_sent: int = 0
    cpu: float = 0.0  # CPU seconds the server and its workers spent in the phase


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def _multipart(name: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n")
    return (head.encode() + data + f"\r\n--{boundary}--\r\n".encode(),
            f"multipart/form-data; boundary={boundary}")


def _rss_kb(pid: int) -> tuple[int, int]:
    """(current, peak) resident memory of a process, from /proc (0 when it is gone)."""
    now = peak = 0
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    now = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1])
    except OSError:
        pass
    return now, peak


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process and its live children, from /proc."""
    total = 0.0
    for p in [pid, *_children(pid)]:
        try:
            with open(f"/proc/{p}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                out.extend(int(c) for c in f.read().split())
    except OSError:
        pass
    return out


class Memory(threading.Thread):
    """Samples the server and its workers: the peak of their sum, and each one's own peak."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak_total_kb = 0
        self.peaks: dict[int, int] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            total = 0
            for pid in [self.pid, *_children(self.pid)]:
                now, peak = _rss_kb(pid)
                total += now
                self.peaks[pid] = max(self.peaks.get(pid, 0), peak)
            self.peak_total_kb = max(self.peak_total_kb, total)
            self.stop.wait(0.1)


def _run_phase(name: str, url: str, files: list[tuple[str, bytes]], clients: int,
               seconds: float, max_requests: int) -> Phase:
    phase = Phase(name)
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    count = [0]

    def client(n: int) -> None:
        i = n
        while time.monotonic() < deadline:
            with lock:
                if count[0] >= max_requests:
                    return
                count[0] += 1
            fname, data = files[i % len(files)]
            i += clients
            body, ctype = _multipart(fname, data)
            request = urllib.request.Request(url, data=body, headers={"Content-Type": ctype})
            started = time.monotonic()
            try:
                with urllib.request.urlopen(request, timeout=120) as r:
                    r.read()
                    problem = None if r.status == 200 else f"{fname}: HTTP {r.status}"
            except urllib.error.HTTPError as exc:
                problem = f"{fname}: HTTP {exc.code} {exc.read()[:120]!r}"
            except OSError as exc:
                problem = f"{fname}: {exc}"
            took = time.monotonic() - started
            with lock:
                phase.latencies.append(took)
                phase.bytes_sent += len(body)
                if problem is not None:
                    phase.errors.append(problem)

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    phase.seconds = time.monotonic() - started
    return phase


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def _report(phase: Phase, clients: int) -> None:
    lat = phase.latencies
    n = len(lat)
    print(f"{phase.name}: {clients} clients, {n} requests in {phase.seconds:.1f} s = "
          f"{n / phase.seconds:.2f} requests/s ({phase.bytes_sent / phase.seconds / 1024:,.0f} "
          f"KiB/s uploaded)")
    if n:
        print(f"  latency p50 {_percentile(lat, 50):.2f} s, p95 {_percentile(lat, 95):.2f} s, "
              f"p99 {_percentile(lat, 99):.2f} s, max {max(lat):.2f} s, "
              f"mean {statistics.fmean(lat):.2f} s")
    print(f"  errors: {len(phase.errors)}" + (f" (first: {phase.errors[0]})" if phase.errors
                                                else ""))
    if n:
        cores = os.cpu_count() or 1
        per = phase.cpu / n
        print(f"  server CPU {per:.2f} s per request (server and workers); on an otherwise idle "
              f"machine that is at most {cores / per:.1f} requests/s on {cores} cores, and "
              f"{clients} clients wait about {clients * per / cores:.1f} s each "
              f"(load average now {os.getloadavg()[0]:.1f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0, help="per phase")
    parser.add_argument("--max-requests", type=int, default=2000, help="per phase")
    parser.add_argument("--workers", type=int, default=2, help="the server's worker processes")
    parser.add_argument("--boards", type=int, default=300, help="boards of the generated event")
    parser.add_argument("--endpoint", default="/api/validate",
                        choices=["/api/validate", "/report", "/api/convert?to=lin", "/api/score"])
    parser.add_argument("--corpus-max-kb", type=int, default=300)
    parser.add_argument("--no-corpus", action="store_true", help="only the generated event")
    args = parser.parse_args()
    seconds = min(args.seconds, MAX_SECONDS)
    max_requests = min(args.max_requests, MAX_REQUESTS)

    from bridgefiles.testing.synthetic import generate, to_pbn

    event = "".join(to_pbn(generate(args.boards, seed=2024))).encode("latin-1")
    phases: list[tuple[str, list[tuple[str, bytes]]]] = []
    if not args.no_corpus and REAL.is_dir():
        corpus = sorted(p for p in REAL.rglob("*") if p.suffix.lower() in (".pbn", ".lin")
                        and p.stat().st_size <= args.corpus_max_kb * 1024)
        phases.append((f"real corpus ({len(corpus)} files up to {args.corpus_max_kb} KB)",
                       [(p.name, p.read_bytes()) for p in corpus]))
    phases.append((f"generated {args.boards}-board event ({len(event) / 1024:.0f} KB)",
                   [(f"event{args.boards}.pbn", event)]))

    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115 - closed below
        server = subprocess.Popen(
            [sys.executable, "-m", "bridgefiles.cli", "serve", "--host", HOST, "--port",
             str(port), "--workers", str(args.workers)],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "TMPDIR": tmp},
        )
        base = f"http://{HOST}:{port}"
        memory = Memory(server.pid)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=5).read()
                    break
                except OSError:
                    time.sleep(0.2)
            else:
                print("the server did not start", file=sys.stderr)
                return 1
            memory.start()
            print(f"bridgefiles serve on {base}, {args.workers} worker(s), endpoint "
                  f"{args.endpoint}, {os.cpu_count()} cores")
            for name, files in phases:
                before = _cpu_seconds(server.pid)
                phase = _run_phase(name, base + args.endpoint, files, args.clients, seconds,
                                   max_requests)
                phase.cpu = _cpu_seconds(server.pid) - before
                _report(phase, args.clients)
        finally:
            memory.stop.set()
            server.terminate()
            server.wait(timeout=30)
            log.close()
        worker_peaks = [kb for pid, kb in memory.peaks.items() if pid != server.pid]
        print(f"server peak memory: {memory.peak_total_kb / 1024:.0f} MiB in all "
              f"(server {memory.peaks.get(server.pid, 0) / 1024:.0f} MiB, largest worker "
              f"{max(worker_peaks, default=0) / 1024:.0f} MiB)")
        left = [p for p in Path(tmp).iterdir() if p.name != "server.log"]
        print(f"temporary files left behind: {len(left)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
