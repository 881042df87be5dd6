"""One board's result from its record (laws.result): tricks, Law 64, claims, our own bugs."""

from __future__ import annotations

import pytest
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles.checks.validate import validate_board
from bridgefiles.errors import BridgeFileError, InternalError
from bridgefiles.laws import result as result_module
from bridgefiles.laws.result import Tricks, board_result
from bridgefiles.model import Board, Seat
from bridgefiles.model.diagnostic import Severity

FIXTURE = FIXTURES / "laws-revokes.pbn"


def _game(name: str) -> str:
    text = FIXTURE.read_text(encoding="utf-8")
    start = text.index(f'[Event "laws-revokes {name}"]')
    end = text.find("[Event ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _board(text: str) -> Board:
    return bf.loads(text, format="pbn").boards[0]


def test_board_result_gives_what_validation_and_scoring_need() -> None:
    res = board_result(_board(_game("R2")))
    assert res.contract is not None and res.contract.text == "4S"
    assert res.declarer is Seat.S
    assert res.tricks == Tricks(won=11, law64=2, final=13)
    assert res.laws == "2017"
    assert [d.law for d in res.diagnostics if d.code == "revoke"] == ["64A1"]


def test_issue_example_a_caret_result_fixes_the_transfer_of_a_claim() -> None:
    """Issue 12: East revokes at trick 8 (declarer wins it), E-W win trick 9, declarer
    claims the rest; ``[Result "^11"]`` is the agreed count, which differs from the 10
    tricks won: the record fixes the transfer (Law 64A2: one trick)."""
    text = _game("R11").replace('[Result "11"]', '[Result "^11"]')
    report = validate_board(_board(text))
    assert report.tricks is not None
    assert report.tricks.model_dump() == {"won": 10, "law64": 1, "final": 11}
    assert [d for d in report.diagnostics if d.severity is Severity.ERROR] == []
    revoke = [d for d in report.diagnostics if d.code == "revoke"]
    assert [d.law for d in revoke] == ["64A2"]
    assert "does not show" not in revoke[0].message


def test_a_caret_result_no_claim_split_gives_leaves_the_transfer_unknown() -> None:
    # declarer has 6 tricks after trick 9 with 4 to play: 6 + 4 + 1 = 11 at most, and a
    # claim of k gives 6 + k + 1, so '^12' fits no split: the transfer is not guessed
    text = _game("R11").replace('[Result "11"]', '[Result "^12"]')
    report = validate_board(_board(text))
    assert report.tricks is not None
    assert report.tricks.law64 is None and report.tricks.won is None
    assert report.tricks.final == 12
    assert report.to_json()["tricks"] == {"won": None, "law64": None, "final": 12}
    revoke = [d for d in report.diagnostics if d.code == "revoke"]
    assert "the record does not" in revoke[0].message


def test_an_unknown_bug_is_an_internal_error_never_a_finding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = _board(_game("R1"))

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("injected")

    monkeypatch.setattr(result_module, "replay_play", broken)
    report = validate_board(board)
    bugs = [d for d in report.diagnostics if d.code == "internal"]
    assert len(bugs) == 1 and bugs[0].severity is Severity.ERROR
    assert "KeyError" in bugs[0].message and "injected" in bugs[0].message
    assert not any(d.code == "play" for d in report.diagnostics)
    assert issubclass(InternalError, BridgeFileError)


def test_the_edition_must_be_one_of_the_two() -> None:
    board = _board(_game("R1"))
    with pytest.raises(BridgeFileError, match="2017, 2007"):
        validate_board(board, laws="1997")  # type: ignore[arg-type]
    assert validate_board(board, laws="2007").tricks == validate_board(board).tricks


def _cut(name: str, keep: int, result: str, last: str | None = None) -> str:
    """The game ``name`` with its play cut after ``keep`` rows (and a partial ``last``
    row), then a claim ('*'), and ``result`` as its Result."""
    game = _game(name)
    head, _, play = game.partition('[Play "W"]\n')
    rows = [r for r in play.splitlines() if r.strip() and not r.startswith("{")]
    rows = [r for r in rows if r != "*"][:keep] + ([last] if last else []) + ["*"]
    head = head.replace(head[head.index("[Result ") :].split("\n")[0], f'[Result "{result}"]')
    return head + '[Play "W"]\n' + "\n".join(rows) + "\n"


@pytest.mark.parametrize(
    ("result", "tricks"),
    [("^11", (10, 1, 11)), ("11", (11, 0, 11))],
)
def test_a_claim_in_mid_trick_after_a_revoke(result: str, tricks: tuple[int, int, int]) -> None:
    """R11 with the claim made at trick 9 after two cards (South led, West followed):
    '^11' says the count differs from the tricks won, so E-W took a trick after the
    revoke (64A2: one trick); '11' is the tricks won, all the rest claimed (64B1)."""
    board = _board(_cut("R11", 8, result, "C2 - - C5"))
    report = validate_board(board)
    assert report.tricks is not None
    assert (report.tricks.won, report.tricks.law64, report.tricks.final) == tricks
    assert [d for d in report.diagnostics if d.severity is Severity.ERROR] == []


def test_a_claim_whose_split_the_record_does_not_fix_leaves_law64_null() -> None:
    """R3 cut after trick 11 (West ruffed and won it, 64A1): with '^12' either declarer
    claimed both tricks left (1 transferred) or one (2 transferred): law64 is unknown."""
    report = validate_board(_board(_cut("R3", 11, "^12")))
    assert report.tricks is not None
    assert report.to_json()["tricks"] == {"won": None, "law64": None, "final": 12}
    (revoke,) = [d for d in report.diagnostics if d.code == "revoke"]
    assert "the record does not" in revoke.message
    assert report.score is not None  # the agreed count is still scored


def test_several_revokes_then_a_claim() -> None:
    """R9 (West revokes at trick 2, East at trick 7, both won by N-S; E-W won trick 8) cut
    after trick 9, declarer having 8 tricks. '^12': only a claim of 2 of the 4 left gives
    12 with a transfer (each revoke takes a distinct E-W trick: 64A2 twice). '^13' fits a
    claim of 4 (one trick, T8, for both revokes) and of 3 (two): not fixed."""
    report = validate_board(_board(_cut("R9", 9, "^12")))
    assert report.tricks is not None
    assert report.to_json()["tricks"] == {"won": 10, "law64": 2, "final": 12}
    assert sorted(d.law or "" for d in report.diagnostics if d.code == "revoke") == [
        "64A2",
        "64A2",
    ]
    report = validate_board(_board(_cut("R9", 9, "^13")))
    assert report.tricks is not None and report.tricks.law64 is None


def test_a_lin_claim_above_what_is_left_is_the_count_after_law_64() -> None:
    """LIN ``mc`` 11 in R11 (6 tricks won, 4 to play) can only be the agreed total after
    the transfer: the LIN form of the board then agrees with the PBN form."""
    lin = bf.dumps(bf.loads(_game("R11"), format="pbn"), format="lin")
    board = bf.loads(lin, format="lin").boards[0]
    report = validate_board(board)
    assert report.tricks is not None
    assert report.to_json()["tricks"] == {"won": 10, "law64": 1, "final": 11}


@pytest.mark.parametrize("thing", [None, "board", 3])
def test_validating_what_is_not_a_board_is_the_callers_mistake(thing: object) -> None:
    with pytest.raises(BridgeFileError, match="needs a Board"):
        validate_board(thing)  # type: ignore[arg-type]
