"""What a director's ruling in the auction is made of: the irregularity, the Law that
governs it, the information it leaves unauthorized, and the duties it creates.

Shared by the live referee (``laws.referee``) and the rectification tables of the
two editions (``laws.rotation``); nothing here decides anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from bridgefiles.model.calls import Call
from bridgefiles.model.cards import Strain, Suit
from bridgefiles.model.seats import Seat, Side


class Irregularity(str, Enum):
    """Which irregular call it is: each is rectified by its own Law (named beside it)."""

    OUT_OF_ROTATION = "call-out-of-rotation"  # Laws 28-32
    CHANGE_OF_CALL = "change-of-call"  # Law 25
    INSUFFICIENT = "insufficient-bid"  # Law 27
    INADMISSIBLE = "inadmissible-call"  # Law 36
    BARRED = "call-by-barred-player"  # Law 37
    AFTER_AUCTION = "call-after-auction"  # Law 39


class Position(str, Enum):
    """Whose turn it was, seen from the offender."""

    RHO = "RHO"
    PARTNER = "partner"
    LHO = "LHO"


class Option(str, Enum):
    """What the offender's LHO chose, which decides the rectification that follows."""

    ACCEPT = "accept"  # offender's LHO accepts (by calling, or by saying so)
    REJECT = "reject"  # not accepted: the call is cancelled and the Law rectifies


class Duty(str, Enum):
    """What the Law obliges the offender or partner to do next, as a ruling says it."""

    PASS_ONCE = "must pass at the next turn"
    PASS_THROUGHOUT = "must pass whenever it is his turn to call"
    REPEAT = "must repeat the call"
    REPEAT_IF_RHO_PASSES = "must repeat the call if RHO passes, else calls freely"
    REPLACE = "must replace the withdrawn insufficient bid"
    # 2017 (30B1(b), 31A2, 31B2, 32A2, 32B2): the comparable-call test of Law 23A
    SUBSTITUTE = "calls freely; a call that is not comparable bars partner at his next turn"
    # 2007 31A2: no comparable calls; what counts is whether the denomination is repeated
    DENOMINATION = (
        "calls freely; repeating the denomination bars partner at his next turn, "
        "any other call bars him whenever it is his turn"
    )
    CALL_FREELY = "may make any legal call at his turn"  # 2007 31B, 32A, 32B2: partner barred
    NO_DOUBLE_ONCE = "may not double or redouble at the next turn"  # 2007 Law 30B2(b)

    @property
    def ends(self) -> str:
        """When the duty ends (so a director can say it at the table)."""
        if self is Duty.PASS_THROUGHOUT:
            return "when the auction ends"
        if self is Duty.REPEAT_IF_RHO_PASSES:
            return "when RHO calls (then: repeat, or call freely)"
        if self is Duty.REPLACE:
            return "when the insufficient bid is replaced by a legal call"
        return "at the player's next turn to call"


# the duties the offender's next call meets, and which the Law then rules on
FREE_CALLS = (Duty.SUBSTITUTE, Duty.DENOMINATION, Duty.CALL_FREELY)


@dataclass(frozen=True, slots=True)
class Obligation:
    """A duty of one seat, the Law that creates it, and the call it is about."""

    seat: Seat
    duty: Duty
    law: str
    call: Call | None = None  # the call to repeat, or the withdrawn one
    shows: frozenset[Strain] = frozenset()  # what the withdrawn call specified (29C)

    @property
    def ends(self) -> str:
        return self.duty.ends


@dataclass(frozen=True, slots=True)
class Ruling:
    """One ruling: an irregular call waiting for a choice, or the Law's decision on it.

    ``law`` is the paragraph that governs it ("29A", "31A2(b)", ...); while a choice is
    pending it is the paragraph that will rectify if the call is not accepted.
    ``unauthorized_to`` is the side for whom the withdrawn call is unauthorized
    information (authorized to the other side, Law 16C; 16D in 2007), or None;
    ``see_also`` the Laws that may follow from it; ``duties`` those it creates.
    """

    irregularity: Irregularity
    offender: Seat
    call: Call
    due: Seat  # whose turn it was
    law: str
    options: tuple[Option, ...] = ()
    position: Position | None = None
    text: str = ""
    unauthorized_to: Side | None = None
    see_also: tuple[str, ...] = ()
    duties: tuple[Obligation, ...] = ()
    artificial: bool = False
    shows: frozenset[Strain] = field(default_factory=frozenset)

    @property
    def pending(self) -> bool:
        """A choice is still open (accept or not, by LHO or the Director)."""
        return bool(self.options)


@dataclass(frozen=True, slots=True)
class LeadRestriction:
    """Law 26: if the offender becomes a defender, declarer may restrict his partner's first
    lead (2017 26B: forbid one suit the offender did not specify in the legal auction)."""

    offender: Seat
    law: str = "26B"
    suit: Suit | None = None  # 2007 26A: the one suit declarer may require or forbid

    @property
    def leader(self) -> Seat:
        return self.offender.partner
