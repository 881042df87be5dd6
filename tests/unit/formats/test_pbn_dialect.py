"""BEN's dialect forms (``formats.pbn.dialect``): each read as what it means with a
``dialect`` warning, refused as an error in strict mode, its text kept as written."""

from __future__ import annotations

import pytest

import bridgefiles as bf
from bridgefiles.errors import StrictModeError
from bridgefiles.formats.pbn.dialect import (
    DIALECT,
    dialect_call,
    dialect_contract,
    passed_out_result,
    refused,
)
from bridgefiles.model.diagnostic import CODES, Severity, error, warning

GAME = ('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]\n'
        '[Contract "{contract}"]\n[Declarer "{declarer}"]\n[Result "{result}"]\n'
        '[Auction "N"]\n{auction}\n')
PASSED = GAME.format(contract="", declarer="", result="0", auction="P P P P")
SLAM = GAME.format(contract="6N", declarer="N", result="12", auction="6N Pass Pass Pass")


def test_the_code_is_a_project_code() -> None:
    assert DIALECT in CODES


@pytest.mark.parametrize("token, read", [
    *((f"{n}{c}", f"{n}NT") for n in range(1, 8) for c in "Nn"), ("P", "Pass"), ("p", "Pass"),
])
def test_a_dialect_call_is_read_with_a_warning_saying_what(token: str, read: str) -> None:
    found = dialect_call(token, 3, 7)
    assert found is not None
    call, (code, severity, message, line, column) = found
    assert (call.text, code, severity, line, column) == (read, DIALECT, Severity.WARNING, 3, 7)
    assert message == f"{token!r} is not a PBN call (Pass, X, XX, 1C..7NT); read as {read}"


@pytest.mark.parametrize("token", ["1NT", "Pass", "PASS", "X", "D", "R", "8N", "0N", "N", "AC",
                                   "1NN", "PP"])
def test_anything_else_is_not_the_dialect(token: str) -> None:
    assert dialect_call(token, 1, 1) is None


@pytest.mark.parametrize("value, read", [("3N", "3NT"), ("4nx", "4NTX"), ("7NXX", "7NTXX")])
def test_a_dialect_contract_is_read_with_a_warning(value: str, read: str) -> None:
    [(code, severity, message)] = dialect_contract(value)
    assert (code, severity) == (DIALECT, Severity.WARNING)
    assert message.endswith(f"read as {read}")


@pytest.mark.parametrize("value", ["3NT", "Pass", "NT", "3NY", "8N", ""])
def test_other_contracts_are_the_tag_checks_concern(value: str) -> None:
    assert dialect_contract(value) == []


@pytest.mark.parametrize("contract, auction, said", [
    ("", "Pass Pass Pass Pass", True),  # the auction passes it out
    ("", "AP", True),
    ("Pass", "", True),                 # the Contract tag does
    ("", "1S Pass Pass Pass", False),
    ("", "Pass Pass Pass", False),      # not ended: not passed out
    ("4S", "Pass Pass Pass Pass", False),  # the Contract tag goes first, as for the Laws
])
def test_result_zero_is_said_on_a_passed_out_board_only(
    contract: str, auction: str, said: bool
) -> None:
    text = GAME.format(contract=contract, declarer="", result="0", auction=auction)
    if not auction:
        text = text.replace('[Auction "N"]\n\n', "")
    board = bf.loads(text, format="pbn").boards[0]
    found = [d for d in board.diagnostics if d.code == DIALECT]
    assert bool(found) is said
    if said:
        assert found[0].severity is Severity.WARNING and found[0].line == 7
        assert 'Result "0" read as none: passed out, no tricks taken and no score' in \
            found[0].message
        places = [n or 0 for i in range(len(board.tags)) for n in board.tag_where(i)]
        assert passed_out_result(board.tags, places, board.auction)  # the same rule on the model


def test_result_other_than_zero_on_a_passed_out_board_stays_the_laws_error() -> None:
    text = PASSED.replace('[Result "0"]', '[Result "7"]')
    report = bf.validate(bf.loads(text, format="pbn").boards[0])
    assert [(d.code, d.severity) for d in report.diagnostics] == [
        ("dialect", Severity.WARNING),  # the P calls
        ("dialect", Severity.WARNING), ("dialect", Severity.WARNING),
        ("dialect", Severity.WARNING), ("result-mismatch", Severity.ERROR)]


def test_a_passed_out_board_with_result_zero_is_scored_as_passed_out() -> None:
    report = bf.validate(bf.loads(PASSED, format="pbn").boards[0])
    assert report.contract is not None and report.contract.passed_out
    assert report.score is not None and (report.score.ns, report.score.ew) == (0, 0)
    assert {d.code for d in report.diagnostics} == {DIALECT}
    assert all(d.severity is Severity.WARNING for d in report.diagnostics)


def test_a_dialect_board_is_read_as_what_it_means_and_written_back_as_it_was() -> None:
    event = bf.loads(SLAM, format="pbn")
    board = event.boards[0]
    report = bf.validate(board)
    assert report.contract is not None and report.contract.text == "6NT"
    assert report.score is not None and report.score.ns == 990
    assert [d.message for d in report.diagnostics] == [
        "Contract: '6N' is not a contract like 4HX, 3NT or Pass; read as 6NT",
        "'6N' is not a PBN call (Pass, X, XX, 1C..7NT); read as 6NT"]
    assert bf.dumps(event, format="pbn", layout="preserve") == SLAM  # nothing lost


@pytest.mark.parametrize("text, where", [(SLAM, "5:11: error[dialect] Contract: '6N'"),
                                         (PASSED, "7:1: error[dialect] a passed-out board")])
def test_strict_reading_refuses_a_dialect_form(text: str, where: str) -> None:
    with pytest.raises(StrictModeError) as caught:
        bf.loads(text, format="pbn", strict=True)
    message = str(caught.value)
    assert where in message  # the first in the text
    assert message.endswith("when reading leniently; strict reading refuses a dialect form")


def test_refused_leaves_other_findings_alone() -> None:
    other = warning("tag-order", "Dealer comes after the Auction section")
    assert refused(other) is other
    wrong = error(DIALECT, "already an error")
    assert refused(wrong) is wrong
    said = refused(warning(DIALECT, "'1N' read as 1NT"))
    assert said.severity is Severity.ERROR and said.message.startswith("'1N' read as 1NT ")
