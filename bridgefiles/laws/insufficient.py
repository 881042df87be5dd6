"""Law 27: what replacing a withdrawn insufficient bid leads to, in each edition.

Both editions: B1(a), the lowest sufficient bid in the same denomination(s), and
B1(b), a replacement the Director accepts, end it (27D lets him adjust later); any
other sufficient bid or a pass bars partner throughout (B2; 26 and 72C may apply).
They differ in the test of B1(b) (2017: a comparable call, Law 23A; 2007: a call
with the same or a more precise meaning) and in the Laws referred to (2017: 16C,
26B, 72C; 2007: 16D, 23, 26).
"""

from __future__ import annotations

from bridgefiles.laws.auction import lowest_sufficient_same_strain
from bridgefiles.laws.editions import Edition
from bridgefiles.laws.rotation import Rectification, references
from bridgefiles.laws.rulings import Duty
from bridgefiles.model.calls import Call
from bridgefiles.model.cards import Strain


def replacement(
    laws: Edition,
    last_bid: Call | None,
    withdrawn: Call,
    shows: frozenset[Strain],
    call: Call,
    comparable: bool | None,
) -> Rectification:
    """The ruling on the offender's replacement of his insufficient bid (27B1, 27B2).

    The mechanical case of B1(a) is decided here for a natural bid; for an artificial
    one the denominations it showed decide (29C-like), so it is the Director's call.
    """
    mechanical = (
        not shows
        and last_bid is not None
        and call == lowest_sufficient_same_strain(last_bid, withdrawn)
    )
    if mechanical:
        return Rectification(
            "27B1(a)",
            unauthorized=False,
            see_also=("27D",),
            text="the lowest sufficient bid in the same denomination: no further rectification",
        )
    if comparable:
        test = "a comparable call (23A)" if laws == "2017" else "the same or a more precise meaning"
        return Rectification(
            "27B1(b)",
            unauthorized=False,
            see_also=("27D",),
            text=f"{test}: no further rectification",
        )
    return Rectification(
        "27B2",
        partner=Duty.PASS_THROUGHOUT,
        partner_law="27B2",
        restrict=True,
        see_also=references(laws, barred=True),
        text="another sufficient bid or a pass: partner must pass throughout",
    )
