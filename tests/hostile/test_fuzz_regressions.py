"""Every input the fuzzer ever crashed on (fixtures/fuzz-regressions/) stays fixed.

Each ``fuzz-<hash>.<format>`` file is replayed through the same check as the
fuzzer (read as every format, validate, write back, read again), plus a strict
read; only BridgeFileError may come out. Its ``.txt`` note says where it came from.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles.testing import fuzzing

REGRESSIONS = FIXTURES / "fuzz-regressions"
CASES = sorted(
    p for p in REGRESSIONS.glob("fuzz-*") if p.suffix.lstrip(".") in fuzzing.FORMATS
) if REGRESSIONS.is_dir() else []

# A crash in a reader owned by someone else that was still open at a deadline:
# file name -> reason. Empty when every crash is fixed.
KNOWN_OPEN: dict[str, str] = {}


def _params() -> list[object]:
    out: list[object] = []
    for path in CASES:
        marks = []
        if path.name in KNOWN_OPEN:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_OPEN[path.name]))
        out.append(pytest.param(path, id=path.name, marks=marks))
    return out


def test_every_regression_has_a_note() -> None:
    for path in CASES:
        assert path.with_name(path.name + ".txt").is_file(), f"{path.name} has no .txt note"


@pytest.mark.skipif(not CASES, reason="no fuzz regressions recorded")
@pytest.mark.parametrize("path", _params())
def test_regression_raises_only_bridge_file_error(path: Path) -> None:
    data = path.read_bytes()
    outcome = fuzzing.exercise(data)
    assert outcome.crash is None, f"{outcome.crash.operation}: {outcome.crash.traceback}"
    for fmt in fuzzing.FORMATS:
        with contextlib.suppress(bf.BridgeFileError):
            bf.loads(data, format=fmt, strict=True)
