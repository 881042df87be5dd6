"""One-line statements of the Laws our findings cite, for the report page.

Paraphrased (2017 Laws of Duplicate Bridge); a finding cites a Law such as ``64A1`` and the
page shows the statement of its number (``64``), so a director sees what the finding is about.
"""

from __future__ import annotations

import re

STATEMENTS: dict[int, str] = {
    1: "The pack: 52 cards in four suits, ranked from ace down to two.",
    2: "The board number sets the dealer and the vulnerability.",
    6: "The deal: each player receives thirteen cards.",
    7: "Control of the board and the cards.",
    12: "The director may award an adjusted score.",
    16: "Authorised and unauthorised information.",
    17: "The auction begins with the dealer and goes on clockwise.",
    18: "A bid names a number of odd tricks and a denomination; it must outrank the last bid.",
    19: "A double only of an opponent's bid, a redouble only of an opponent's double.",
    20: "Review and explanation of calls.",
    21: "A call made on a misunderstanding.",
    22: "The auction ends after three passes that follow a bid, or after four passes.",
    23: "A call that may have damaged the non-offending side.",
    25: "Changes of call.",
    26: "A call withdrawn: restrictions on the lead.",
    27: "An insufficient bid: accepted, or corrected, with possible bars on partner.",
    28: "Calls considered to be in rotation.",
    29: "After a call out of rotation: forfeiting the right to penalise, or cancelling it.",
    30: "A pass out of rotation.",
    31: "A bid out of rotation.",
    32: "A double or redouble out of rotation.",
    36: "An inadmissible double or redouble is cancelled.",
    37: "A call by a player obliged to pass.",
    38: "A bid of more than seven.",
    39: "Calls after the final pass are cancelled.",
    41: "The opening lead, dummy, and the start of the play.",
    44: "Sequence of play: the highest trump, or else the highest card of the suit led, wins.",
    45: "A card played.",
    53: "A lead out of turn that is accepted.",
    54: "An opening lead faced out of turn.",
    55: "A declarer's lead out of turn.",
    56: "A defender's lead out of turn.",
    57: "A premature lead or play by a defender.",
    58: "Simultaneous leads or plays.",
    61: "Failure to follow suit is a revoke; a player may be asked whether he has revoked.",
    62: "A revoke corrected before it is established.",
    63: "When a revoke is established.",
    64: "Trick transfer after an established revoke.",
    65: "Arrangement of tricks.",
    66: "Inspection of tricks.",
    67: "A defective trick.",
    68: "Claims and concessions.",
    69: "An agreed claim or concession.",
    70: "A contested claim or concession.",
    71: "A concession cancelled.",
    77: "The duplicate scoring table.",
    78: "Methods of scoring: matchpoints, IMPs and total points.",
    79: "The tricks won are agreed before the board is scored.",
}

_NUMBER = re.compile(r"\d+")


def statement(law: str | None) -> str | None:
    """The one-line statement of the Law a finding cites (``"64A1"`` -> Law 64's)."""
    if not law:
        return None
    found = _NUMBER.match(law.strip())
    if found is None:
        return None
    return STATEMENTS.get(int(found.group()))
