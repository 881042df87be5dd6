"""Validate a board: its read diagnostics, then the Laws' findings, tricks and score.

This is where the layers meet: the Laws replay the auction and the play, the
tags (Contract, Declarer, Result) are checked against the replay, and the
scorer (when present) gives the Law 77 score. Nothing here raises: a board
however broken gets a report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridgefiles.laws.auction import AuctionResult, replay_auction
from bridgefiles.laws.play import PlayResult, replay_play
from bridgefiles.model.board import Board
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Diagnostic, count, error, info, warning
from bridgefiles.model.seats import Seat, Side


class TrickCount(BaseModel):
    """Declarer's tricks: as played and claimed, the Law 64 transfer, and what is scored."""

    model_config = ConfigDict(frozen=True)

    won: int | None
    law64: int = 0
    final: int | None


class ScorePair(BaseModel):
    """The duplicate score from each side's view."""

    model_config = ConfigDict(frozen=True)

    ns: int
    ew: int


class BoardReport(BaseModel):
    """Everything validation found out about one board."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    board: Board = Field(exclude=True)
    diagnostics: tuple[Diagnostic, ...] = ()
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: TrickCount | None = None
    score: ScorePair | None = None

    def to_json(self) -> dict[str, Any]:
        """The board object of DESIGN.md's JSON report."""
        b = self.board
        return {
            "index": b.index,
            "board": b.board_number,
            "room": b.room,
            "line": b.line,
            "dealer": b.dealer.value if b.dealer is not None else None,
            "vulnerable": b.vulnerable.value if b.vulnerable is not None else None,
            "contract": self.contract.text if self.contract is not None else None,
            "declarer": self.declarer.value if self.declarer is not None else None,
            "tricks": self.tricks.model_dump() if self.tricks is not None else None,
            "score": self.score.model_dump() if self.score is not None else None,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def report_json(
    files: list[tuple[str, str, list[Diagnostic], list[BoardReport]]],
) -> dict[str, Any]:
    """The whole JSON report of ``validate --format json`` (DESIGN.md, version 1)."""
    out_files: list[dict[str, Any]] = []
    totals = {"errors": 0, "warnings": 0, "infos": 0}
    nboards = 0
    for path, fmt, file_diags, reports in files:
        every = [*file_diags, *(d for r in reports for d in r.diagnostics)]
        for key, value in count(every).items():
            totals[key] += value
        nboards += len(reports)
        out_files.append(
            {
                "path": path,
                "format": fmt,
                "diagnostics": [d.to_json() for d in file_diags],
                "boards": [r.to_json() for r in reports],
            }
        )
    return {
        "version": 1,
        "files": out_files,
        "summary": {"files": len(files), "boards": nboards, **totals},
    }


def _contract_score() -> Callable[..., int] | None:
    try:
        from bridgefiles.scoring import contract_score
    except ImportError:
        return None
    return contract_score


def _scoring_checks() -> tuple[Callable[..., list[Diagnostic]] | None, ...]:
    try:
        from bridgefiles.scoring import checks
    except ImportError:
        return (None, None)
    return (getattr(checks, "board_diagnostics", None), getattr(checks, "score_diagnostics", None))


def _tag_where(board: Board, name: str) -> dict[str, Any]:
    pair = board.tag_pair(name)
    if pair is None:
        return {"line": board.line}
    return {"line": pair.line, "column": pair.column}


def _check_contract(board: Board, ar: AuctionResult, out: list[Diagnostic]) -> None:
    """Contract and Declarer tags against the auction (PBN 12.4)."""
    tag = board.contract
    if ar.complete and tag is not None and ar.contract is not None and tag != ar.contract:
        out.append(
            error(
                "contract-mismatch",
                f"Contract is {tag.text} but the auction gives {ar.contract.text}",
                law="22B",
                **_tag_where(board, "Contract"),
            )
        )
    if tag is not None and tag.passed_out and ar.last_bid is not None and not ar.complete:
        out.append(
            error(
                "contract-mismatch",
                f"Contract is Pass but {ar.last_bid} was bid",
                law="22A",
                **_tag_where(board, "Contract"),
            )
        )
    seat = board.declarer
    where = _tag_where(board, "Declarer")
    if ar.complete and ar.declarer is not None and seat is not None:
        if board.declarer_swapped:
            if seat is ar.declarer:
                out.append(
                    error(
                        "declarer-mismatch",
                        f"Declarer '^{seat.value}' marks a swap, but {seat.full_name} is "
                        "declarer by the auction",
                        **where,
                    )
                )
            elif seat.partner is not ar.declarer:
                out.append(
                    error(
                        "declarer-mismatch",
                        f"Declarer '^{seat.value}' needs {seat.partner.full_name} as declarer "
                        f"by the auction, which gives {ar.declarer.full_name}",
                        **where,
                    )
                )
        elif seat is not ar.declarer:
            out.append(
                error(
                    "declarer-mismatch",
                    f"Declarer is {seat.full_name} but the auction gives {ar.declarer.full_name}",
                    **where,
                )
            )
    if ar.passed_out and seat is not None:
        out.append(error("declarer-mismatch", "a passed-out board has no declarer", **where))
    if ar.unknown:
        return
    if not ar.complete and tag is not None and tag.strain is not None and seat is not None:
        real = seat.partner if board.declarer_swapped else seat
        first = ar.first_to_name(real.side, tag.strain)
        if first is real.partner:
            out.append(
                error(
                    "declarer-mismatch",
                    f"{first.full_name} named {tag.strain.value} first for the side, so "
                    f"{real.full_name} cannot be declarer",
                    **where,
                )
            )


def _tricks(
    board: Board, pr: PlayResult | None, declarer: Seat | None, out: list[Diagnostic]
) -> TrickCount | None:
    """Declarer's tricks from the play and the Result tag, with their agreement checked."""
    result = board.result
    rt = result.declarer_tricks(declarer) if result is not None else None
    where = _tag_where(board, "Result")
    if pr is None or pr.final is None:
        if rt is None or result is None:
            return None
        if pr is None or pr.played is None or declarer is None:
            return TrickCount(won=rt, law64=0, final=rt)
        theirs = len(pr.winners) - pr.played
        if (pr.played > rt or theirs > 13 - rt) and not result.disputed:
            out.append(
                error(
                    "result-mismatch",
                    f"Result gives declarer {rt} tricks, but the play already shows "
                    f"{pr.played} for declarer and {theirs} for the defenders",
                    law="79A",
                    **where,
                )
            )
        unfinished = not pr.stopped and not pr.complete and bool(pr.winners)
        if unfinished and rt == pr.played and not result.disputed:
            # PBN 2.0 partial result: the tricks completed so far, nothing to score yet
            return TrickCount(won=rt, law64=0, final=None)
        if unfinished:
            out.append(
                info(
                    "result-mismatch",
                    "the play stops without '*' before the end; Result is taken as the final count",
                    **where,
                )
            )
        return TrickCount(won=rt, law64=0, final=rt)
    won, law64, final = pr.won, pr.law64, pr.final
    if rt is None or result is None:
        return TrickCount(won=won, law64=law64, final=final)
    if result.disputed:
        if rt == final:
            out.append(
                error(
                    "result-mismatch",
                    f"Result '^{rt}' is marked as differing from the play, but it agrees",
                    **where,
                )
            )
        elif rt == won and law64:
            out.append(
                info(
                    "result-mismatch",
                    f"the agreed Result {rt} applies no Law 64 transfer (attention drawn too "
                    "late, Law 64B4/B5, or a Director's ruling)",
                    law="64B",
                    **where,
                )
            )
            law64 = 0
        return TrickCount(won=won, law64=law64, final=rt)
    if rt == final:
        return TrickCount(won=won, law64=law64, final=final)
    if rt == won and law64:
        out.append(
            warning(
                "result-mismatch",
                f"Result {rt} counts the tricks as played; Law 64 moves {abs(law64)} "
                f"(declarer's total {final})",
                law="64A",
                **where,
            )
        )
    else:
        out.append(
            error(
                "result-mismatch",
                f"Result gives declarer {rt} tricks, but the play gives {final}",
                law="79A",
                **where,
            )
        )
    return TrickCount(won=won, law64=law64, final=final)


def validate_board(board: Board) -> BoardReport:
    """The report for one board: read diagnostics, then the Laws' findings."""
    try:
        return _validate(board)
    except Exception as exc:  # a bug of ours must not become the caller's crash
        bug = error("play", f"internal error while validating: {type(exc).__name__}: {exc}")
        return BoardReport(board=board, diagnostics=(*board.diagnostics, bug))


def _validate(board: Board) -> BoardReport:
    out: list[Diagnostic] = []
    marked = board.format != "lin"
    ar: AuctionResult | None = None
    auction = board.auction
    if auction is not None and (auction.entries or auction.end.value):
        ar = replay_auction(auction, board.dealer, marked=marked)
        out.extend(ar.diagnostics)
        _check_contract(board, ar, out)
    contract = board.contract or (ar.contract if ar is not None else None)
    seat = board.declarer
    if seat is None and ar is not None:
        seat = ar.declarer
    legal_declarer = seat
    if board.declarer_swapped and seat is not None:
        legal_declarer = seat.partner
    if contract is not None and contract.passed_out:
        legal_declarer = seat = None
    pr: PlayResult | None = None
    play = board.play
    if play is not None and play.slots and contract is not None and not contract.passed_out:
        deal = board.deal  # parsed only when there is play to check it against
        end_position = deal is not None and deal.is_end_position and contract.level is None
        result = board.result
        rt = result.declarer_tricks(seat) if result is not None and not result.disputed else None
        pr = replay_play(
            play,
            deal,
            contract.strain,
            seat,
            leader=play.first if end_position or seat is None else None,
            marked=marked,
            result_tricks=rt,
        )
        out.extend(pr.diagnostics)
    tricks: TrickCount | None = None
    result = board.result
    if contract is not None and contract.passed_out:
        if result is not None:
            out.append(  # an error, even for "0" (pbn.md 12.4: Result is "")
                error(
                    "result-mismatch",
                    "a passed-out board has no result, but Result is given",
                    law="22A",
                    **_tag_where(board, "Result"),
                )
            )
    elif contract is not None and contract.level is not None:
        tricks = _tricks(board, pr, seat, out)
    passed_out = contract is not None and contract.passed_out
    no_declarer = result is not None and result.tricks is not None and seat is None
    if no_declarer and not passed_out and marked:  # LIN: the reader has said it already
        out.append(
            error(
                "result-mismatch",
                "Result gives declarer's tricks, but there is no declarer",
                **_tag_where(board, "Result"),
            )
        )
    score = _score(board, contract, legal_declarer, tricks)
    board_checks, score_checks = _scoring_checks()
    if board_checks is not None:
        out.extend(board_checks(board))
    if score_checks is not None:
        final = tricks.final if tricks is not None else None
        out.extend(score_checks(board, contract, legal_declarer, final))
    return BoardReport(
        board=board,
        diagnostics=(*board.diagnostics, *out),
        contract=contract,
        declarer=legal_declarer,
        tricks=tricks,
        score=score,
    )


def _score(
    board: Board, contract: Contract | None, declarer: Seat | None, tricks: TrickCount | None
) -> ScorePair | None:
    if contract is None:
        return None
    if contract.passed_out:
        return ScorePair(ns=0, ew=0)
    vul = board.vulnerable
    if declarer is None or tricks is None or tricks.final is None or vul is None:
        return None
    if contract.level is None:
        return None
    scorer = _contract_score()
    if scorer is None:
        return None
    points = scorer(contract, vul.is_vulnerable(declarer), max(0, min(13, tricks.final)))
    ns = points if declarer.side is Side.NS else -points
    return ScorePair(ns=ns, ew=-ns)
