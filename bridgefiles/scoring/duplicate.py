"""Law 77: the duplicate score of one deal.

Kept free of files and boards so the validator, the scorer and the command line
share one table. ``old_mp=True`` is the PBN ``OldMP`` modifier: before 1987 a
non-vulnerable doubled undertrick from the 4th on cost 200, not 300.
"""

from __future__ import annotations

from bridgefiles.model.calls import Contract, Risk
from bridgefiles.model.cards import Strain
from bridgefiles.model.seats import Seat, Side, Vulnerability

_MULTIPLIER = {Risk.NONE: 1, Risk.DOUBLED: 2, Risk.REDOUBLED: 4}


def as_contract(contract: str | Contract) -> Contract:
    """Accept the text of a contract (``4SX``, ``Pass``) or a Contract."""
    return Contract.parse(contract) if isinstance(contract, str) else contract


def trick_score(level: int, strain: Strain, risk: Risk = Risk.NONE) -> int:
    """Points for the contracted tricks, doubled or redoubled (decides game or part score)."""
    per_trick = 20 if strain.is_minor else 30
    base = per_trick * level + (10 if strain is Strain.NT else 0)
    return base * _MULTIPLIER[risk]


def undertrick_penalty(
    down: int, vulnerable: bool, risk: Risk = Risk.NONE, *, old_mp: bool = False
) -> int:
    """What the defenders score for ``down`` undertricks (a positive number)."""
    if down <= 0:
        return 0
    if risk is Risk.NONE:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        doubled = 200 + 300 * (down - 1)
    else:
        steps = [100, 200, 200]
        doubled = sum(steps[: min(down, 3)]) + max(0, down - 3) * (200 if old_mp else 300)
    return doubled * (2 if risk is Risk.REDOUBLED else 1)


def contract_score(
    contract: str | Contract, vulnerable: bool, tricks: int, *, old_mp: bool = False
) -> int:
    """Points to declarer's side (negative when the contract fails); passed out is 0.

    ``tricks`` is declarer's total tricks after any Law 64 transfer. Honours are not
    scored in duplicate.
    """
    c = as_contract(contract)
    if c.passed_out:
        return 0
    if c.level is None or c.strain is None:
        raise ValueError(f"contract {c.text!r} has no level to score")
    if not 0 <= tricks <= 13:
        raise ValueError(f"tricks must be 0..13, not {tricks}")
    needed = c.level + 6
    if tricks < needed:
        return -undertrick_penalty(needed - tricks, vulnerable, c.risk, old_mp=old_mp)
    below = trick_score(c.level, c.strain, c.risk)
    game_or_part = (500 if vulnerable else 300) if below >= 100 else 50
    return below + game_or_part + made_premiums(c, vulnerable, tricks - needed)


def made_premiums(contract: Contract, vulnerable: bool, overtricks: int) -> int:
    """Overtricks, the double's insult and the slam premium of a made contract (Law 77):
    what duplicate, rubber and Chicago score alike besides the trick score."""
    if contract.level is None or contract.strain is None:
        raise ValueError(f"contract {contract.text!r} has no level to score")
    points = 0
    if contract.level == 6:
        points += 750 if vulnerable else 500
    elif contract.level == 7:
        points += 1500 if vulnerable else 1000
    if contract.risk is Risk.NONE:
        return points + overtricks * (20 if contract.strain.is_minor else 30)
    per = (200 if vulnerable else 100) * (2 if contract.risk is Risk.REDOUBLED else 1)
    return points + overtricks * per + (50 if contract.risk is Risk.DOUBLED else 100)


def ns_points(
    contract: Contract | None,
    declarer: Seat | None,
    tricks: int | None,
    vul: Vulnerability | None,
    *,
    old_mp: bool = False,
) -> int | None:
    """N-S's Law 77 points, when contract, declarer, tricks and vulnerability are known
    (the one place a board's score is signed for a side: the validator's check, travellers
    and scoring records all ask here)."""
    if contract is None:
        return None
    if contract.passed_out:
        return 0
    if declarer is None or tricks is None or vul is None or contract.level is None:
        return None
    points = contract_score(contract, vul.is_vulnerable(declarer), tricks, old_mp=old_mp)
    return points if declarer.side is Side.NS else -points
