"""A LIN file that is a vugraph header and no board (issue 24, smaller untruths): the
finding says so, with the count of boards the header announces, and not that the text
has no LIN command; the header is kept whole."""

from __future__ import annotations

import pytest
from shared import REAL_LIN, need

import bridgefiles as bf


@pytest.mark.parametrize("name, boards", [("bph__26890.lin", 32), ("bph__37130.lin", 40)])
def test_a_vugraph_header_with_no_board_says_so(name: str, boards: int) -> None:
    path = need(REAL_LIN / "vugraph" / name)
    f = bf.load(path)
    assert f.boards == ()
    [finding] = f.diagnostics
    assert finding.message == f"a vugraph header for {boards} boards and no board in it"
    assert finding.severity.value == "error"  # a file with no board fails, as any other
    assert (finding.line, finding.column) == (1, 1)  # the vg command
    assert "not a LIN file" not in finding.format()
    report = bf.validate_input(path)
    assert [d.message for d in report.diagnostics] == [finding.message]  # said once
    text = path.read_bytes().decode(f.encoding or "latin-1")
    assert bf.dumps(f, "lin", layout="preserve") == text  # nothing lost


@pytest.mark.parametrize(
    "text, said",
    [
        ("vg|Cup,R1,I,5,5,A,0,B,0|\n", "a vugraph header for 1 board and no board in it"),
        ("vg|Cup,R1,I|\nrs|,,|\n", "a vugraph header and no board in it"),
        ("hello world\n", "no board: no LIN command"),
    ],
)
def test_the_count_comes_from_the_header(text: str, said: str) -> None:
    f = bf.loads(text, "lin")
    [finding] = [d for d in f.diagnostics if d.severity.value == "error"]
    assert finding.message.startswith(said)
