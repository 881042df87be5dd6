"""Where the analysis tests find the real files (read in place, never copied)."""

from __future__ import annotations

from shared import REAL_PBN, need

COMMON_GAME = REAL_PBN / "bridgeparsers__CommonGame_260119HandRecord.pbn"
CRLF_RECORDS = REAL_PBN / "bridgepbnrb__three_test_records_crlf.pbn"
YOUTH = REAL_PBN / "endplay__example1.pbn"

__all__ = ["COMMON_GAME", "CRLF_RECORDS", "YOUTH", "need"]

