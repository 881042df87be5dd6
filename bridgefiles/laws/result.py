"""One board's result from its record: contract, declarer, tricks won, Law 64, final.

The one place that rules on a board's outcome (issue 12): the auction replayed
(Laws 17-22, 27, 36, 39), the Contract and Declarer tags checked against it, the
play replayed (Laws 41-44, 61-64, 68-69) and the Result tag read with it.
Validation and scoring both start from :func:`board_result`; nothing here knows
of scores, formats or reports.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from bridgefiles.laws.auction import AuctionResult, replay_auction
from bridgefiles.laws.editions import Edition, check_edition, edition_findings
from bridgefiles.laws.play import PlayResult, replay_play
from bridgefiles.model.board import Board
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Diagnostic, error, info, warning
from bridgefiles.model.seats import Seat


class Tricks(NamedTuple):
    """Declarer's side's tricks: as played and claimed, the Law 64 transfer, what is scored.

    ``law64`` is signed (negative when declarer's side revoked) and None when the
    record does not fix it (a revoke before a claim whose split is unknown).
    """

    won: int | None
    law64: int | None
    final: int | None


class BoardResult(NamedTuple):
    """What the Laws make of one board's record.

    ``contract`` is the one scored (the Contract tag, else the auction's);
    ``declarer`` the legal declarer (a PBN ``^`` swap undone, None when passed
    out); ``diagnostics`` the Laws' findings only (not the reader's).
    """

    contract: Contract | None
    declarer: Seat | None
    tricks: Tricks | None
    diagnostics: tuple[Diagnostic, ...]
    auction: AuctionResult | None = None
    play: PlayResult | None = None
    laws: Edition = "2017"


def _tag_where(board: Board, name: str) -> dict[str, Any]:
    if board.tag_pair(name) is None:
        return {"line": board.line}
    line, column = board.tag_where(name)
    return {"line": line, "column": column}


def _read_already(board: Board, name: str) -> bool:
    """Whether the reader has said how it read the tag: a dialect form (code ``dialect``,
    BEN's ``Result "0"`` on a passed-out board) read as what it means. The Laws go by that
    reading and do not say it again."""
    where = _tag_where(board, name)["line"]
    return any(d.code == "dialect" and d.line == where for d in board.diagnostics)


def _check_contract(board: Board, ar: AuctionResult, swapped: bool, out: list[Diagnostic]) -> None:
    """Contract and Declarer tags against the auction (PBN 12.4)."""
    tag = board.contract
    found = ar.contract  # (contracts are shared values: the same one is equal, cheaply)
    if ar.complete and tag is not None and found is not None and tag is not found and tag != found:
        out.append(
            error(
                "contract-mismatch",
                f"Contract is {tag.text} but the auction gives {found.text}",
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
    if ar.complete and ar.declarer is not None and seat is not None:
        if swapped:
            if seat is ar.declarer:
                out.append(
                    error(
                        "declarer-mismatch",
                        f"Declarer '^{seat.value}' marks a swap, but {seat.full_name} is "
                        "declarer by the auction",
                        **_tag_where(board, "Declarer"),
                    )
                )
            elif seat.partner is not ar.declarer:
                out.append(
                    error(
                        "declarer-mismatch",
                        f"Declarer '^{seat.value}' needs {seat.partner.full_name} as declarer "
                        f"by the auction, which gives {ar.declarer.full_name}",
                        **_tag_where(board, "Declarer"),
                    )
                )
        elif seat is not ar.declarer:
            out.append(
                error(
                    "declarer-mismatch",
                    f"Declarer is {seat.full_name} but the auction gives {ar.declarer.full_name}",
                    **_tag_where(board, "Declarer"),
                )
            )
    if ar.passed_out and seat is not None:
        text = "a passed-out board has no declarer"
        out.append(error("declarer-mismatch", text, **_tag_where(board, "Declarer")))
    if ar.unknown:
        return
    if not ar.complete and tag is not None and tag.strain is not None and seat is not None:
        real = seat.partner if swapped else seat
        first = ar.first_to_name(real.side, tag.strain)
        if first is real.partner:
            out.append(
                error(
                    "declarer-mismatch",
                    f"{first.full_name} named {tag.strain.value} first for the side, so "
                    f"{real.full_name} cannot be declarer",
                    **_tag_where(board, "Declarer"),
                )
            )


def _tricks(
    board: Board, pr: PlayResult | None, declarer: Seat | None, out: list[Diagnostic]
) -> Tricks | None:
    """Declarer's tricks from the play and the Result tag, with their agreement checked."""
    result = board.result
    rt = result.declarer_tricks(declarer) if result is not None else None
    if pr is None or pr.final is None:
        if rt is None or result is None:
            return None
        if pr is None or pr.played is None or declarer is None:
            return Tricks(won=rt, law64=0, final=rt)
        theirs = len(pr.winners) - pr.played
        if (pr.played > rt or theirs > 13 - rt) and not result.disputed:
            out.append(
                error(
                    "result-mismatch",
                    f"Result gives declarer {rt} tricks, but the play already shows "
                    f"{pr.played} for declarer and {theirs} for the defenders",
                    law="79A",
                    **_tag_where(board, "Result"),
                )
            )
        unfinished = not pr.stopped and not pr.complete and bool(pr.winners)
        if unfinished and rt == pr.played and not result.disputed:
            # PBN 2.0 partial result: the tricks completed so far, nothing to score yet
            out.append(_partial(board, len(pr.winners), rt))
            return Tricks(won=rt, law64=0, final=None)
        if unfinished:
            out.append(
                info(
                    "result-mismatch",
                    "the play stops without '*' before the end; Result is taken as the final count",
                    **_tag_where(board, "Result"),
                )
            )
        if pr.law64 is None:  # a revoke whose transfer the record does not fix
            return Tricks(won=None, law64=None, final=rt)
        return Tricks(won=rt, law64=0, final=rt)
    won, law64, final = pr.won, pr.law64, pr.final
    if rt is None or result is None:
        return Tricks(won=won, law64=law64, final=final)
    if result.disputed:
        if rt == won and not law64:
            out.append(
                error(
                    "result-mismatch",
                    f"Result '^{rt}' is marked as differing from the tricks won, but it agrees",
                    **_tag_where(board, "Result"),
                )
            )
        elif rt == won and law64:
            out.append(
                info(
                    "result-mismatch",
                    f"the agreed Result {rt} applies no Law 64 transfer (attention drawn too "
                    "late, Law 64B4/B5, or a Director's ruling)",
                    law="64B",
                    **_tag_where(board, "Result"),
                )
            )
            law64 = 0
        return Tricks(won=won, law64=law64, final=rt)
    if rt == final:
        return Tricks(won=won, law64=law64, final=final)
    if rt == won and law64:
        out.append(
            warning(
                "result-mismatch",
                f"Result {rt} counts the tricks as played; Law 64 moves {abs(law64)} "
                f"(declarer's total {final})",
                law="64A",
                **_tag_where(board, "Result"),
            )
        )
    else:
        out.append(
            error(
                "result-mismatch",
                f"Result gives declarer {rt} tricks, but the play gives {final}",
                law="79A",
                **_tag_where(board, "Result"),
            )
        )
    return Tricks(won=won, law64=law64, final=final)


def _partial(board: Board, tricks: int, rt: int) -> Diagnostic:
    """Why a board with a partial result (PBN 2.0, pbn.md 4.3) gets no final count and no
    score: said, as nothing else would say it."""
    return info(
        "result-mismatch",
        f"a partial result: the play stops after {tricks} of 13 tricks without '*', and "
        f"Result {rt} counts declarer's tricks among them (PBN 2.0); the final count is not "
        "known, so the board is not scored",
        **_tag_where(board, "Result"),
    )


def board_result(board: Board, *, laws: Edition = "2017") -> BoardResult:
    """Rule on a board's auction, play and Result under the ``laws`` edition.

    Raises only on our own bugs; any record, however broken, gets a result.
    """
    check_edition(laws)
    out: list[Diagnostic] = list(edition_findings(board, laws))
    marked = board.format != "lin"
    swapped = board.declarer_swapped
    ar: AuctionResult | None = None
    auction = board.auction
    if auction is not None and (auction.entries or auction.end.value):
        ar = replay_auction(auction, board.dealer, marked=marked, outcome=board.outcome)
        out.extend(ar.diagnostics)
        _check_contract(board, ar, swapped, out)
    contract = board.contract or (ar.contract if ar is not None else None)
    seat = board.declarer
    if seat is None and ar is not None:
        seat = ar.declarer
    legal_declarer = seat
    if swapped and seat is not None:
        legal_declarer = seat.partner
    if contract is not None and contract.passed_out:
        legal_declarer = seat = None
    pr: PlayResult | None = None
    play = board.play
    result = board.result
    if play is not None and play.slots and contract is not None and not contract.passed_out:
        # the deal, only when there is play to check it against: a whole, sound one as the
        # hands' card masks straight from its text, any other as the Deal model
        masks = board.deal_masks
        deal = board.deal if masks is None else None
        end_position = deal is not None and deal.is_end_position and contract.level is None
        pr = replay_play(
            play,
            deal,
            contract.strain,
            seat,
            leader=play.first if end_position or seat is None else None,
            marked=marked,
            result_tricks=result.declarer_tricks(seat) if result is not None else None,
            result_disputed=result is not None and result.disputed,
            laws=laws,
            masks=masks,
        )
        out.extend(pr.diagnostics)
    tricks: Tricks | None = None
    if contract is not None and contract.passed_out:
        if result is not None and not _read_already(board, "Result"):
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
    return BoardResult(
        contract=contract,
        declarer=legal_declarer,
        tricks=tricks,
        diagnostics=tuple(out),
        auction=ar,
        play=pr,
        laws=laws,
    )
