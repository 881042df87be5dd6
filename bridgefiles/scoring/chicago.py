"""Chicago (four-deal bridge): vulnerability by deal, part scores carried to game.

Deal 1 nobody vulnerable, deals 2 and 3 the dealer's side (the ACBL rule; duplicate
boards 1-4 make it the other side, so ``dealer_side=False`` gives that), deal 4 both.
A game is 100 trick points made on one deal or carried from earlier part scores; it
earns 300 or 500 by the vulnerability of the deal where it is completed and wipes
both sides' part scores. A part score made on deal 4 that completes no game earns
100. Overtricks, undertricks, slams and insults are as in Law 77.
"""

from __future__ import annotations

from bridgefiles.model.calls import Contract
from bridgefiles.model.seats import Seat, Side, Vulnerability
from bridgefiles.scoring.duplicate import (
    as_contract,
    made_premiums,
    trick_score,
    undertrick_penalty,
)


def chicago_deal(number: int) -> int:
    """The deal's place in its Chicago, 1-4 (deal 5 starts a new one)."""
    if number < 1:
        raise ValueError(f"deal numbers start at 1, not {number}")
    return (number - 1) % 4 + 1


def chicago_vulnerability(number: int, dealer: Seat, *, dealer_side: bool = True) -> Vulnerability:
    """Vulnerability of a deal of a Chicago: none, dealer's side, dealer's side, both."""
    place = chicago_deal(number)
    if place == 1:
        return Vulnerability.NONE
    if place == 4:
        return Vulnerability.ALL
    side = dealer.side if dealer_side else dealer.side.other
    return Vulnerability.NS if side is Side.NS else Vulnerability.EW


def score_chicago(
    contract: str | Contract,
    declarer: Seat,
    tricks: int,
    number: int,
    vulnerability: Vulnerability,
    carried: dict[Side, int] | None = None,
) -> tuple[dict[Side, int], dict[Side, int]]:
    """Points each side scores on the deal, and the part scores carried to the next deal.

    ``carried`` is the part scores from earlier deals of this Chicago (empty on deal 1).
    """
    c = as_contract(contract)
    place = chicago_deal(number)
    carry = {Side.NS: 0, Side.EW: 0} if place == 1 or carried is None else dict(carried)
    points = {Side.NS: 0, Side.EW: 0}
    if c.passed_out or c.level is None or c.strain is None:
        return points, carry if place < 4 else {Side.NS: 0, Side.EW: 0}
    side = declarer.side
    vul = vulnerability.is_vulnerable(side)
    needed = c.level + 6
    if tricks < needed:
        points[side.other] += undertrick_penalty(needed - tricks, vul, c.risk)
        return points, carry if place < 4 else {Side.NS: 0, Side.EW: 0}
    below = trick_score(c.level, c.strain, c.risk)
    points[side] += below
    points[side] += made_premiums(c, vul, tricks - needed)
    carry[side] += below
    if carry[side] >= 100:
        points[side] += 500 if vul else 300
        carry = {Side.NS: 0, Side.EW: 0}
    elif place == 4:
        points[side] += 100
    if place == 4:
        carry = {Side.NS: 0, Side.EW: 0}
    return points, carry
