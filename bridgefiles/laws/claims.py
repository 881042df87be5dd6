"""Claims and concessions (Laws 68-71): the final trick count of a board.

An agreed claim is scored as if the claimed tricks had been won in play (69A),
so claimed tricks count as tricks won for Law 64 too. A PBN claim ('*') records
only the outcome (Result); a LIN claim (``mc``) gives declarer's total.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bridgefiles.errors import UsageError
from bridgefiles.laws.editions import Edition
from bridgefiles.laws.revokes import Law64, Revoke, apply_law64
from bridgefiles.model.diagnostic import Diagnostic, error
from bridgefiles.model.seats import Seat


class Settlement(NamedTuple):
    """Declarer's side's tricks: as won (play and claim), moved by Law 64, and final."""

    won: int | None
    law64_declarer: int
    final: int | None
    claimed: int | None  # tricks declarer's side got by the claim
    law64: Law64 = Law64()  # (frozen: one shared value will do)
    diagnostics: tuple[Diagnostic, ...] = ()
    resolved: bool = True  # False: tricks after a claim are unknown, so is the transfer


def tricks_after_claim(won: int, played: int, claimed: int) -> int:
    """Declarer's total when his side claims ``claimed`` of the tricks still to play (68B1)."""
    if not 0 <= claimed <= 13 - played:
        raise UsageError(f"{claimed} tricks claimed with {13 - played} to play")
    return won + claimed


def claim_is_possible(won: int, played: int, total: int) -> bool:
    """A claimed total must lie between the tricks already won and all that remain (3)."""
    return won <= total <= won + (13 - played)


def outright_split(won: int, played: int, total: int) -> tuple[int, ...]:
    """The claim that gives declarer ``total`` tricks with no Law 64 transfer, having won
    ``won`` of ``played``: the tricks claimed, or none when the tricks left cannot."""
    claimed = total - won
    return (claimed,) if 0 <= claimed <= 13 - played else ()


def _with_claim(winners: tuple[Seat, ...], declarer: Seat, claimed: int) -> list[Seat]:
    rest = 13 - len(winners)
    return [*winners, *([declarer] * claimed), *([declarer.lho] * (rest - claimed))]


def settle(
    *,
    winners: tuple[Seat, ...],
    revokes: tuple[Revoke, ...],
    declarer: Seat | None,
    complete: bool,
    stopped: bool,
    claim: int | None = None,
    result: int | None = None,
    result_disputed: bool = False,
    recorded: int = 0,
    laws: Edition = "2017",
) -> Settlement:
    """The final count from the tricks followed to the end and any claim.

    ``claim`` is a LIN-style total for declarer; ``result`` the Result tag's total
    when the PBN play ends with '*' (it already includes any Law 64 transfer, so
    the claimed tricks are the largest number that gives that total). A Result
    marked '^' is the agreed total too (it differs from the tricks won, PBN 3.4.5),
    so it fixes the transfer the same way; when no split of the claim gives it, the
    transfer stays unknown rather than guessed.
    """
    if declarer is None:
        return Settlement(
            None, 0, None, None, apply_law64(revokes, winners, laws=laws), resolved=False
        )
    played = len(winners)
    won = winners.count(declarer) + winners.count(declarer.partner)
    rest = 13 - played
    diags: list[Diagnostic] = []
    if complete:
        law = apply_law64(revokes, winners, laws=laws)
        moved = law.to_side(declarer.side)
        return Settlement(won, moved, won + moved, None, law)
    if claim is not None:
        agreed = _agreed_total(winners, revokes, declarer, claim, laws, transfer=True)
        if not claim_is_possible(won, played, claim) and agreed is not None:
            # more than the tricks left allow, but what a transfer gives: the claim
            # records the agreed total after Law 64, as a PBN Result does
            return agreed
        if not claim_is_possible(won, played, claim):
            diags.append(
                error(
                    "claim",
                    f"the claim gives declarer {claim} tricks, but he has won {won} "
                    f"with {rest} to play",
                    law="68",
                    trick=played + 1,
                )
            )
            law = apply_law64(revokes, winners, laws=laws)
            return Settlement(claim, 0, claim, None, law, tuple(diags))
        claimed = claim - won
        law = apply_law64(revokes, _with_claim(winners, declarer, claimed), laws=laws)
        moved = law.to_side(declarer.side)
        return Settlement(claim, moved, claim + moved, claimed, law, tuple(diags))
    if stopped and result is not None and played >= recorded - 1:
        agreed = _agreed_total(winners, revokes, declarer, result, laws, transfer=result_disputed)
        if agreed is not None:
            return agreed  # resolved, or not fixed by the record
        if not result_disputed and claim_is_possible(won, played, result):
            law = apply_law64(revokes, _with_claim(winners, declarer, result - won), laws=laws)
            moved = law.to_side(declarer.side)
            return Settlement(result, moved, result + moved, result - won, law)
    return Settlement(None, 0, None, None, apply_law64(revokes, winners, laws=laws), resolved=False)


def _agreed_total(
    winners: tuple[Seat, ...],
    revokes: tuple[Revoke, ...],
    declarer: Seat,
    total: int,
    laws: Edition,
    *,
    transfer: bool,
) -> Settlement | None:
    """The split of a claim that gives ``total`` after Law 64, or None when none does.

    ``transfer``: the total is known to differ from the tricks won (a PBN Result
    marked '^', a LIN claim above what the tricks left allow), so only splits with a
    transfer fit; otherwise a split with none is preferred (PBN: without '^' the
    Result is the tricks won). When the splits left give different transfers, the
    record does not fix the transfer: the settlement is unresolved, never a guess.
    """
    won = winners.count(declarer) + winners.count(declarer.partner)
    splits: Sequence[int] = range(13 - len(winners), -1, -1)  # tricks claimed, most first
    if not revokes:  # no split moves a trick: only one can give the total
        splits = outright_split(won, len(winners), total)
    found: list[Settlement] = []
    for claimed in splits:
        law = apply_law64(revokes, _with_claim(winners, declarer, claimed), laws=laws)
        moved = law.to_side(declarer.side)
        if won + claimed + moved == total and (moved != 0 or not transfer):
            found.append(Settlement(won + claimed, moved, total, claimed, law))
    plain = [f for f in found if f.law64_declarer == 0]
    if plain:
        return plain[0]
    if len({(f.won, f.law64_declarer) for f in found}) > 1:
        return Settlement(None, 0, None, None, found[0].law64, resolved=False)
    return found[0] if found else None
