"""Issue #15, found by the 100,000-input fuzz run: ``str.isdigit`` is true for digits that
``int`` refuses (superscripts such as ``²``), so a check that guarded ``int()`` with it let
a ``ValueError`` out of the reader or the scorer (an internal error). Each such value is
now a finding about the file."""

from __future__ import annotations

import pytest

import bridgefiles as bf

GAME = ('[Event "e"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:AKQJ.AKQJ.AKQ.AK 2345.2345.2345.3 6789.6789.6789.4 T.T.T.QJT98765432"]\n')
TABLE = '[ScoreTable "Contract\\2R;Declarer\\1R;Result\\2R;Score_NS\\5R;Multiplicity\\8R"]\n'
CASES = {
    "note index": '[Note "²:x"]',
    "note reference": '[Auction "N"]\n1C =²=',
    "NAG": '[Auction "N"]\n1C $²',
    "score table tricks": TABLE + "3NT N ² - 1",
}


@pytest.mark.parametrize("extra", list(CASES.values()), ids=list(CASES))
def test_a_superscript_digit_is_a_finding_not_a_crash(extra: str) -> None:
    data = (GAME + extra + "\n\n").encode("utf-8")
    loaded = bf.loads(data, "pbn")
    scored = bf.score(loaded)
    for board in scored.boards:
        bf.validate(board)
    found = [d.code for d in loaded.all_diagnostics()]
    assert "internal" not in found
    if "ScoreTable" not in extra:
        assert {"note", "nag"} & set(found), found
