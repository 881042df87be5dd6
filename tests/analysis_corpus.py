"""Where the analysis tests find the real files (read in place, never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

REAL_PBN = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "real" / "pbn"
COMMON_GAME = REAL_PBN / "bridgeparsers__CommonGame_260119HandRecord.pbn"
CRLF_RECORDS = REAL_PBN / "bridgepbnrb__three_test_records_crlf.pbn"
YOUTH = REAL_PBN / "endplay__example1.pbn"


def need(path: Path) -> Path:
    """The path, or a skip saying the shared corpus is absent."""
    if not path.exists():
        pytest.skip(f"the shared corpus is absent ({path})")
    return path
