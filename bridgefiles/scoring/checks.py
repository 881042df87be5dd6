"""Checks the validator runs on a board: Law 2 conditions, the rubber history and the
Score tag (Law 77).

They only compare and report; nothing is changed here (DESIGN invariant 5).
"""

from __future__ import annotations

from bridgefiles.model.board import Board
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Diagnostic, error, warning
from bridgefiles.model.seats import Seat, Side
from bridgefiles.scoring.board import board_dealer, board_vulnerability, parse_board_number
from bridgefiles.scoring.duplicate import ns_points
from bridgefiles.scoring.method import parse_scoring, scale_warnings
from bridgefiles.scoring.rubber import RubberState
from bridgefiles.scoring.values import SidedValue


def board_diagnostics(board: Board) -> list[Diagnostic]:
    """What the board's own tags say against the Laws: ``board-mismatch`` warnings for a
    Dealer or Vulnerable unlike Law 2 for the board number, the ScoreRubberHistory
    errors of :func:`rubber_history_diagnostics`, and a warning for a Scoring scale we
    do not implement (:func:`scale_diagnostics`)."""
    return [
        *_law2_diagnostics(board),
        *rubber_history_diagnostics(board),
        *scale_diagnostics(board),
    ]


def scale_diagnostics(board: Board) -> list[Diagnostic]:
    """``score-mismatch`` warnings: the Scoring tag names a scale (EMP, IMP_1948,
    IMP_1961) that bridgefiles scores on today's scale instead, in the scorer's words
    (a board the scorer already warned about is not told twice)."""
    pair = board.tag_pair("Scoring")
    if pair is None:
        return []
    said = {d.message for d in board.diagnostics if d.code == "score-mismatch"}
    return [
        warning(
            "score-mismatch",
            text,
            **_at(board, "Scoring"),
            board=board.board_number,
        )
        for text in scale_warnings(parse_scoring(pair.value))
        if text not in said
    ]


def _law2_diagnostics(board: Board) -> list[Diagnostic]:
    number = parse_board_number(board.board_number)
    if number is None:
        return []
    out: list[Diagnostic] = []
    dealer, vul = board.dealer, board.vulnerable
    if dealer is not None and dealer is not board_dealer(number):
        out.append(_law2_mismatch(board, number, "Dealer", dealer.value,
                                  board_dealer(number).value))
    if vul is not None and vul is not board_vulnerability(number):
        out.append(_law2_mismatch(board, number, "Vulnerable", vul.value,
                                  board_vulnerability(number).value))
    return out


def _law2_mismatch(board: Board, number: int, tag: str, given: str, law_gives: str
                   ) -> Diagnostic:
    """A tag that disagrees with what Law 2 gives the board's number, said at the tag."""
    return warning(
        "board-mismatch",
        f"{tag} {given} on board {number}; Law 2 gives {law_gives}",
        law="2",
        **_at(board, tag),
        board=board.board_number,
    )


def _at(board: Board, name: str) -> dict[str, int | None]:
    """Where the board's tag ``name`` stood, for a finding about it."""
    line, column = board.tag_where(name)
    return {"line": line, "column": column}


_VUL_TEXT = {
    (False, False): "neither side vulnerable (None)",
    (True, False): "NS vulnerable",
    (False, True): "EW vulnerable",
    (True, True): "both sides vulnerable (All)",
}


def _later(board: Board, a: str, b: str) -> dict[str, int | None]:
    """Where the tag read second stood: where a contradiction between two tags shows (as
    the verifier)."""
    first, second = _at(board, a), _at(board, b)
    if (second["line"] or 0, second["column"] or 0) > (first["line"] or 0, first["column"] or 0):
        return second
    return first


def rubber_history_diagnostics(board: Board) -> list[Diagnostic]:
    """``score-mismatch`` errors: a ScoreRubberHistory no rubber can have, or one whose
    games won imply another vulnerability than the Vulnerable tag (pbn.md 10.1, 12.5).

    The history is the state at the start of the deal: every game but the last is
    finished, won by exactly one side with 100 or more trick points below the line (all
    multiples of 10), and the game in progress has neither side at 100 yet. A side that
    has won a game is vulnerable, so one value per side means neither, two values the
    first game's winner, three both (not under Chicago scoring).

    ``score-mismatch`` rather than ``tag-value``: the value's syntax is fine (the reader
    checks that); it is the score that disagrees with the Laws' scoring (Law 77) or with
    the board's Vulnerable tag.
    """
    pair = board.tag_pair("ScoreRubberHistory")
    if pair is None or pair.value.strip() in ("", "?", "-"):
        return []
    try:
        state = RubberState.parse(pair.value)
    except ValueError:
        return []  # the reader reports the syntax (tag-value)
    problems: list[str] = []
    odd = [b for side in (state.ns, state.ew) for b in side.below if b % 10]
    if odd:
        problems.append(f"trick points {odd[0]} are not a multiple of 10")
    pairs = list(zip(state.ns.below, state.ew.below, strict=True))
    for game, (ns, ew) in enumerate(pairs[:-1], start=1):
        if (ns >= 100) == (ew >= 100):
            problems.append(
                f"finished game {game} needs exactly one side at 100 or more (NS {ns}, EW {ew})"
            )
    ns, ew = pairs[-1]
    if max(ns, ew) >= 100:
        problems.append(f"game {len(pairs)} is in progress, yet a side has {max(ns, ew)}")
    if len(pairs) == 3 and not problems:
        for side in (Side.NS, Side.EW):
            if state.games(side) == 2:
                problems.append(f"{side.value} won games 1 and 2, so the rubber was over")
    where = _at(board, "ScoreRubberHistory")
    if not problems and parse_scoring(board.tag("Scoring")).base != "Chicago":
        # (Chicago's vulnerability goes by the deal's place in its round of four, not by games)
        vul = board.vulnerable
        vul_pair = board.tag_pair("Vulnerable")
        if vul is None or vul_pair is None:
            return []
        ns_vul, ew_vul = state.vulnerable(Side.NS), state.vulnerable(Side.EW)
        if vul.is_vulnerable(Side.NS) == ns_vul and vul.is_vulnerable(Side.EW) == ew_vul:
            return []
        problems.append(
            f'the games won make {_VUL_TEXT[ns_vul, ew_vul]}, but Vulnerable is "{vul_pair.value}"'
        )
        where = _later(board, "ScoreRubberHistory", "Vulnerable")
    return [
        error(
            "score-mismatch",
            f'ScoreRubberHistory "{pair.value}": {problem}',
            law="77",
            **where,
            board=board.board_number,
        )
        for problem in problems
    ]


def _describe(contract: Contract, declarer: Seat | None, tricks: int | None) -> str:
    if contract.passed_out:
        return "passed out"
    return f"{contract.text} by {declarer.value if declarer else '?'} taking {tricks} tricks"


def score_diagnostics(
    board: Board,
    contract: Contract | None,
    declarer: Seat | None,
    tricks_final: int | None,
) -> list[Diagnostic]:
    """``score-mismatch`` errors: a Score tag that disagrees with Law 77.

    Skipped for Rubber and Chicago scoring (not duplicate scores). With the OldMP
    modifier, a score right under either undertrick table is accepted.
    """
    pair = board.tag_pair("Score")
    if pair is None or pair.value.strip() in ("", "?", "-"):
        return []
    method = parse_scoring(board.tag("Scoring"))
    if method.is_rubber:
        return []
    try:
        given = SidedValue.parse(pair.value)
    except ValueError:
        return []  # the tag's syntax is the reader's finding (tag-value)
    if given.artificial:
        return []
    ns = ns_points(contract, declarer, tricks_final, board.vulnerable)
    if ns is None or contract is None:
        return []
    accepted = {ns}
    if method.has("OldMP"):
        old = ns_points(contract, declarer, tricks_final, board.vulnerable, old_mp=True)
        if old is not None:
            accepted.add(old)
    problems: list[str] = []
    for side in (Side.NS, Side.EW):
        written = given.given_for(side, declarer)
        if written is None and given.declarer is not None and contract.passed_out:
            written = given.declarer  # a bare value on a passed-out board: 0 for either side
        if written is None:
            continue
        sign = 1 if side is Side.NS else -1
        if all(written != sign * a for a in accepted):
            problems.append(f"{side.value} {written}")
    if given.ns is not None and given.ew is not None and given.ns != -given.ew:
        problems.append("NS and EW values that are not opposites")
    if not problems:
        return []
    vul = board.vulnerable
    vul_text = (
        "vulnerable"
        if vul is not None and declarer is not None and vul.is_vulnerable(declarer)
        else "not vulnerable"
    )
    expected = f"NS {ns}" if ns >= 0 else f"EW {-ns}"
    return [
        error(
            "score-mismatch",
            f'Score "{pair.value}" disagrees with Law 77: '
            f"{_describe(contract, declarer, tricks_final)}"
            f"{'' if contract.passed_out else ', ' + vul_text} scores {expected}",
            law="77",
            **_at(board, "Score"),
            board=board.board_number,
        )
    ]
