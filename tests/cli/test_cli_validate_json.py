"""``validate --format json`` as a pipeline reads it: the summary counts exactly what the
report lists (DESIGN.md's JSON report), also when ``--strict`` stops files part way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from shared import FIXTURES, REAL_PBN, need, needs_corpus

ROOT = FIXTURES.parent
FAULTY = REAL_PBN / "pybcdd__faulty.pbn"  # board 2: a 10-card North
CAMROSE = REAL_PBN / "ben__camrose2024_BEN.pbn"
SAMPLE = REAL_PBN / "endplay__sample.pbn"  # a spade sign outside ISO-8859-1


def listed(data: dict[str, Any]) -> dict[str, int]:
    """The report's summary as its lists count it."""
    severities: Counter[str] = Counter()
    for entry in data["files"]:
        every = [*entry["diagnostics"], *(d for b in entry["boards"] for d in b["diagnostics"])]
        severities.update(d["severity"] + "s" for d in every)
    return {"files": len(data["files"]), "boards": sum(len(f["boards"]) for f in data["files"]),
            **{key: severities[key] for key in ("errors", "warnings", "infos")}}


@needs_corpus
@pytest.mark.parametrize("mode", [[], ["--strict"]], ids=["lenient", "strict"])
def test_the_summary_counts_what_the_report_lists(mode: list[str]) -> None:
    files = [str(need(p)) for p in (FAULTY, CAMROSE, SAMPLE)]
    proc = subprocess.run([sys.executable, "-m", "bridgefiles.cli", "validate", "--format",
                           "json", "--jobs", "2", "-q", *mode, *files], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert proc.returncode == 1, proc.stderr  # errors found (strict: files stopped)
    data = json.loads(proc.stdout)
    assert data["summary"] == listed(data)
    if mode:  # faulty.pbn stops at board 2: board 1 is listed, and counted
        assert [len(f["boards"]) for f in data["files"]] == [1, 0, 0]
        assert data["summary"]["boards"] == 1
