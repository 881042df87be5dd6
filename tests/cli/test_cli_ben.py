"""Real BEN files write the calls ``1N``/``3N`` and ``Result "0"`` on a passed-out board.
Each is an unambiguous dialect form: lenient reading takes it, with a warning saying what
was read (never a silent repair); strict reading refuses it as an error.

The reading side is the PBN reader's (issue 23): until it changes, the lenient tests are
expected to fail (``xfail(strict=True)``: they must start passing when it does)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from shared import FIXTURES, REAL_PBN, need, needs_corpus

ROOT = FIXTURES.parent
# the BEN files that write 1N-style calls or contracts, or Result "0" on a passed-out board
DIALECT = ["ben__2H-3H.PBN", "ben__2Openings.pbn", "ben__camrose2024_BEN.pbn",
           "ben__christy170a.pbn", "ben__pav_first120-GIB-BBO-8730.pbn", "ben__pav_first120.pbn"]
CAMROSE = REAL_PBN / "ben__camrose2024_BEN.pbn"
PENDING = pytest.mark.xfail(strict=True, reason="reader change pending, issue 23")


def report(path: Path, *extra: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "bridgefiles.cli", "validate", "--format",
                           "json", "-q", str(path), *extra], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert proc.returncode in (0, 1), proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def dialect(data: dict[str, Any]) -> Counter[tuple[str, str]]:
    """(severity, what) of the findings about the dialect forms: 1N-style calls and
    contracts, and a Result on a passed-out board."""
    found: Counter[tuple[str, str]] = Counter()
    for entry in data["files"]:
        for board in entry["boards"]:
            for d in board["diagnostics"]:
                message = d["message"]
                if "N' is not a PBN call" in message or "N' is not a contract" in message:
                    found[(d["severity"], "1N")] += 1
                elif "passed-out board has no result" in message:
                    found[(d["severity"], "Result 0")] += 1
    return found


@needs_corpus
@PENDING
@pytest.mark.parametrize("name", DIALECT)
def test_lenient_reading_warns_about_dialect_forms(name: str) -> None:
    found = dialect(report(need(REAL_PBN / name)))
    assert found and not [k for k in found if k[0] == "error"], found


@needs_corpus
@PENDING
def test_lenient_camrose_has_no_dialect_errors_and_says_what_it_read() -> None:
    data = report(CAMROSE)
    found = dialect(data)
    assert found[("warning", "1N")] > 0 and found[("warning", "Result 0")] == 3
    assert ("error", "1N") not in found and ("error", "Result 0") not in found
    messages = [d["message"] for f in data["files"] for b in f["boards"]
                for d in b["diagnostics"] if "N' is not a PBN call" in d["message"]]
    assert all("read as 1NT" in m or "read as 3NT" in m for m in messages)


@needs_corpus
def test_strict_reading_refuses_a_dialect_call() -> None:
    data = report(CAMROSE, "--strict")
    first = data["files"][0]
    reasons = [d for d in first["diagnostics"] if d["severity"] == "error"]
    assert reasons and "is not a" in reasons[-1]["message"]
    assert data["summary"]["errors"] >= 1
