"""Issue #15, found by the 100,000-input fuzz run: ``str.isdigit`` is true for digits that
``int`` refuses (superscripts such as ``²``), so a check that guarded ``int()`` with it let
a ``ValueError`` out of the reader or the scorer (an internal error). Each such value is
now a finding about the file."""

from __future__ import annotations

from pathlib import Path

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


DEAL = "md|3SAKQJHAKQJDAKQCAK,S2345H2345D2345C3,S6789H6789D6789C4,|"
MORE = {
    "PBN board number": ("pbn", '[Board "²"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                                '[Contract "3NT"]\n[Declarer "N"]\n[Result "9"]\n\n'),
    "LIN undo count": ("lin", f"pn|a,b,c,d|{DEAL}mb|1S|mb|p|up|²|\n"),
    "LIN vugraph first board": ("lin", f"vg|e,s,I,²,2,A,0,B,0|\nrs|3NT,4S|\n"
                                       f"qx|o1|{DEAL}mb|p|mb|p|mb|p|mb|p|pg||\n"),
}


@pytest.mark.parametrize("case", list(MORE.values()), ids=list(MORE))
def test_a_superscript_digit_anywhere_is_no_internal_error(case: tuple[str, str]) -> None:
    fmt, text = case
    loaded = bf.loads(text.encode("utf-8"), fmt)
    for board in bf.score(loaded).boards:
        bf.validate(board)
    for to in ("pbn", "lin", "json"):
        bf.dumps(loaded, to)
    assert "internal" not in [d.code for d in loaded.all_diagnostics()]


def test_a_stale_temporary_named_with_a_superscript_is_left_alone(tmp_path: Path) -> None:
    from bridgefiles.files.output import remove_stale_temporaries

    odd = tmp_path / ".x.pbn.²3.a.part"
    odd.write_text("")
    remove_stale_temporaries(tmp_path / "x.pbn")
    assert odd.exists()
