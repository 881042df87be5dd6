"""A live referee for the auction: irregularities, the options they give, obligations.

For directors' tools. Feed each call with the seat that made it; an irregular
call (out of rotation, insufficient, inadmissible, by a barred player, after the
auction) becomes a ``pending`` ruling whose ``options`` say what the Laws allow;
``choose`` applies one, and from then on ``obligations`` and ``legal_calls`` say
what each seat may do (2017 Laws 23, 25-32, 36, 37, 39; lead restrictions 26B).

Whether a substituted call is "comparable" (Law 23A) depends on meanings the
code cannot know: it is the Director's input (``comparable=`` on the call),
except the mechanical case of Law 27B1(a), which the code decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bridgefiles.laws.auction import AuctionState, is_sufficient, lowest_sufficient_same_strain
from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, CallKind
from bridgefiles.model.cards import Suit
from bridgefiles.model.seats import Seat


class Irregularity(str, Enum):
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
    ACCEPT = "accept"  # offender's LHO accepts (by calling, or by saying so)
    REJECT = "reject"  # not accepted: the call is cancelled and the Law rectifies


class Duty(str, Enum):
    PASS_ONCE = "must pass at the next turn"
    PASS_THROUGHOUT = "must pass at every remaining turn"
    REPEAT = "must repeat the call"
    REPEAT_IF_RHO_PASSES = "must repeat the call if RHO passes, else calls freely"
    REPLACE = "must replace the withdrawn insufficient bid"
    SUBSTITUTE = "calls freely; a call that is not comparable bars partner once"


@dataclass(frozen=True, slots=True)
class Ruling:
    """An irregular call waiting for (or given) its rectification."""

    irregularity: Irregularity
    offender: Seat
    call: Call
    due: Seat  # whose turn it was
    law: str
    options: tuple[Option, ...]
    position: Position | None = None
    text: str = ""


@dataclass(frozen=True, slots=True)
class Obligation:
    seat: Seat
    duty: Duty
    law: str
    call: Call | None = None  # the call to repeat, or the withdrawn one


@dataclass(frozen=True, slots=True)
class LeadRestriction:
    """Law 26B: declarer may forbid one suit the offender did not specify, at his partner's
    first turn to lead, when the offender is a defender."""

    offender: Seat
    law: str = "26B"

    @property
    def leader(self) -> Seat:
        return self.offender.partner


class Referee:
    """Follows an auction call by call, ruling on irregularities as they happen."""

    def __init__(self, dealer: Seat) -> None:
        self.dealer = dealer
        self.turn = dealer
        self._calls: list[tuple[Seat, Call]] = []
        self._state = AuctionState()
        self.pending: Ruling | None = None
        self.rulings: list[Ruling] = []
        self._obligations: list[Obligation] = []
        self._restrictions: list[LeadRestriction] = []
        self._called: set[Seat] = set()

    # -- what the Laws say now ----------------------------------------------
    @property
    def calls(self) -> tuple[tuple[Seat, Call], ...]:
        """The legal auction so far."""
        return tuple(self._calls)

    @property
    def ended(self) -> bool:
        return self._state.ended

    @property
    def obligations(self) -> tuple[Obligation, ...]:
        return tuple(self._obligations)

    def obligations_of(self, seat: Seat) -> tuple[Obligation, ...]:
        return tuple(o for o in self._obligations if o.seat is seat)

    @property
    def lead_restrictions(self) -> tuple[LeadRestriction, ...]:
        """Restrictions that apply if the offender becomes a defender (26B)."""
        return tuple(self._restrictions)

    def opening_lead_restriction(self) -> tuple[LeadRestriction, set[Suit]] | None:
        """After the auction: the restriction on the offender's partner's first lead (he may be
        the opening leader or lead later), with the suits declarer may choose from to forbid
        (those the offender did not specify in the legal auction)."""
        declarer = self.declarer
        if declarer is None:
            return None
        for r in self._restrictions:
            if r.offender.side is not declarer.side:
                named = {
                    c.strain.trump
                    for s, c in self._calls
                    if s is r.offender and c.strain is not None and c.strain.trump is not None
                }
                return r, {s for s in Suit if s not in named}
        return None

    @property
    def declarer(self) -> Seat | None:
        st = self._state
        if not st.ended or st.last_bid is None or st.last_bidder is None:
            return None
        assert st.last_bid.strain is not None
        return st.first_named.get((st.last_bidder.side, st.last_bid.strain))

    def _admissible(self, seat: Seat, call: Call) -> bool:
        if call.is_pass:
            return True
        if call.is_bid:
            return is_sufficient(call, self._state.last_bid)
        return self._state.why_inadmissible(seat, call) is None

    def legal_calls(self, seat: Seat) -> tuple[Call, ...]:
        """What ``seat`` may call now without a new irregularity."""
        if self.pending is not None or self.ended or seat is not self.turn:
            return ()
        duties = self.obligations_of(seat)
        if any(o.duty in (Duty.PASS_ONCE, Duty.PASS_THROUGHOUT) for o in duties):
            return (PASS,)
        for o in duties:
            if o.duty is Duty.REPEAT and o.call is not None:
                return (o.call,)
        out = [PASS]
        out += [c for c in (DOUBLE, REDOUBLE) if self._admissible(seat, c)]
        out += [b for b in ALL_BIDS if is_sufficient(b, self._state.last_bid)]
        return tuple(out)

    def comparable_by_rule(self, seat: Seat) -> Call | None:
        """The replacement Law 27B1(a) makes comparable without asking the Director."""
        for o in self.obligations_of(seat):
            if o.duty is Duty.REPLACE and o.call is not None and self._state.last_bid is not None:
                return lowest_sufficient_same_strain(self._state.last_bid, o.call)
        return None

    # -- feeding calls -----------------------------------------------------
    def call(self, seat: Seat, call: Call, *, comparable: bool | None = None) -> Ruling | None:
        """Record a call; returns the ruling it needs (also left in ``pending``), or None.

        ``comparable`` is the Director's decision (Law 23A) for a call that replaces a
        withdrawn one; None lets the code decide the mechanical cases only.
        """
        pending = self.pending
        if pending is not None:
            return self._call_while_pending(pending, seat, call, comparable)
        if self.ended:
            ruling = Ruling(
                Irregularity.AFTER_AUCTION,
                seat,
                call,
                seat,
                "39",
                (),
                text="a call after the auction has ended is cancelled",
            )
            declarer = self.declarer
            if not call.is_pass and declarer is not None and seat.side is not declarer.side:
                self._restrictions.append(LeadRestriction(seat))
            self.rulings.append(ruling)
            return ruling
        if seat is not self.turn:
            return self._out_of_rotation(seat, call)
        duties = self.obligations_of(seat)
        if not call.is_pass and any(
            o.duty in (Duty.PASS_ONCE, Duty.PASS_THROUGHOUT) for o in duties
        ):
            return self._pend(
                Ruling(
                    Irregularity.BARRED,
                    seat,
                    call,
                    seat,
                    "37",
                    (Option.REJECT,),
                    text=f"{seat.full_name} is obliged to pass",
                )
            )
        for o in duties:
            if o.duty is Duty.REPEAT and o.call != call:
                raise ValueError(f"{seat.full_name} must repeat {o.call} (Law {o.law})")
        replacing = any(o.duty is Duty.REPLACE for o in duties)
        if replacing and not call.is_pass and not call.is_bid and not comparable:
            # 27B3: a double or redouble cannot replace it; partner passes throughout
            self._bar_partner(seat, "27B3")
            ruling = Ruling(
                Irregularity.INSUFFICIENT,
                seat,
                call,
                seat,
                "27B3",
                (),
                text=f"{call} cannot replace an insufficient bid: cancelled",
            )
            self.rulings.append(ruling)
            return ruling
        if call.is_bid and not is_sufficient(call, self._state.last_bid):
            return self._pend(
                Ruling(
                    Irregularity.INSUFFICIENT,
                    seat,
                    call,
                    seat,
                    "27B4" if replacing else "27",
                    (Option.ACCEPT, Option.REJECT),
                    text=f"{call} is insufficient over {self._state.last_bid}",
                )
            )
        if not call.is_pass and not call.is_bid:
            why = self._state.why_inadmissible(seat, call)
            if why is not None:
                return self._pend(
                    Ruling(
                        Irregularity.INADMISSIBLE,
                        seat,
                        call,
                        seat,
                        "36",
                        (Option.REJECT,),
                        text=why,
                    )
                )
        self._settle_substitution(seat, call, comparable)
        self._record(seat, call)
        return None

    def choose(self, option: Option) -> None:
        """Apply the non-offending side's (or Director's) choice on the pending ruling."""
        ruling = self.pending
        if ruling is None:
            raise ValueError("no ruling is pending")
        if option not in ruling.options:
            raise ValueError(f"{option.value} is not open for Law {ruling.law}")
        self.pending = None
        seat, call = ruling.offender, ruling.call
        kind = ruling.irregularity
        if option is Option.ACCEPT:
            if kind is Irregularity.CHANGE_OF_CALL:
                self._replace_last(seat, call)
                return
            # 27A1 / 29A: the call stands as if it were legal and in rotation
            self._settle_substitution(seat, call, None)
            self._record(seat, call)
            return
        if kind is Irregularity.CHANGE_OF_CALL:
            return  # 25B: cancelled, the first call stands
        if kind is Irregularity.INSUFFICIENT:
            if ruling.law == "27B4":
                self._bar_partner(seat, "27B4")  # the first REPLACE duty still stands
            else:
                self._obligations.append(Obligation(seat, Duty.REPLACE, "27B", call))
            return
        if kind is Irregularity.INADMISSIBLE:
            # 36B: the offender calls again (freely, at his turn if it was out of rotation)
            # and his partner passes throughout
            self._bar_partner(seat, "36B")
            return
        if kind is Irregularity.BARRED:
            self._bar_both(seat)
            self._record(seat, PASS)
            return
        # call out of rotation, not accepted (29B): cancelled, back to the player due
        position = ruling.position
        if call.is_pass:
            if position is Position.RHO:
                self._obligations.append(Obligation(seat, Duty.PASS_ONCE, "30A"))
            else:
                self._obligations.append(Obligation(seat, Duty.SUBSTITUTE, "30B1", call))
        elif position is Position.RHO:
            law = "31A1" if call.is_bid else "32A1"
            self._obligations.append(Obligation(seat, Duty.REPEAT_IF_RHO_PASSES, law, call))
        else:
            law = "31B" if call.is_bid else "32B"
            self._obligations.append(Obligation(seat, Duty.SUBSTITUTE, law, call))

    # -- internals ---------------------------------------------------------
    def _pend(self, ruling: Ruling) -> Ruling:
        self.pending = ruling
        self.rulings.append(ruling)
        return ruling

    def _out_of_rotation(self, seat: Seat, call: Call) -> Ruling | None:
        due = self.turn
        if seat is due.lho and any(
            o.duty in (Duty.PASS_ONCE, Duty.PASS_THROUGHOUT) for o in self.obligations_of(due)
        ):
            # 28A: RHO was obliged to pass, so the call counts as in rotation
            self._record(due, PASS)
            return self.call(seat, call)
        if seat is due.lho:
            position = Position.RHO
        elif seat is due.partner:
            position = Position.PARTNER
        else:
            position = Position.LHO
            if seat in self._called and self._calls and self._calls[-1][0] is seat:
                return self._pend(
                    Ruling(
                        Irregularity.CHANGE_OF_CALL,
                        seat,
                        call,
                        due,
                        "25",
                        (Option.ACCEPT, Option.REJECT),
                        position,
                        text="a second call before LHO has called: a change of call",
                    )
                )
        if not call.is_pass and not call.is_bid and not self._admissible(seat, call):
            return self._pend(
                Ruling(
                    Irregularity.INADMISSIBLE,
                    seat,
                    call,
                    due,
                    "36",
                    (Option.REJECT,),
                    position,
                    text="inadmissible and out of rotation: never acceptable",
                )
            )
        law = "30" if call.is_pass else ("31" if call.is_bid else "32")
        return self._pend(
            Ruling(
                Irregularity.OUT_OF_ROTATION,
                seat,
                call,
                due,
                law,
                (Option.ACCEPT, Option.REJECT),
                position,
                text=f"{seat.full_name} called at {due.full_name}'s turn",
            )
        )

    def _call_while_pending(
        self, ruling: Ruling, seat: Seat, call: Call, comparable: bool | None
    ) -> Ruling | None:
        offender = ruling.offender
        if seat is offender.lho and Option.ACCEPT in ruling.options:
            self.choose(Option.ACCEPT)  # 27A1 / 29A / 25B: LHO accepts by calling
            return self.call(seat, call, comparable=comparable)
        if seat is offender.lho and ruling.irregularity is Irregularity.INADMISSIBLE:
            # 36A: LHO called before rectification: both calls are cancelled, no rectification
            self.pending = None
            return None
        if seat is offender.lho and ruling.irregularity is Irregularity.BARRED:
            # 37B1: LHO called before rectification: the call stands
            self.pending = None
            self._record(offender, ruling.call)
            return self.call(seat, call, comparable=comparable)
        if ruling.irregularity is Irregularity.OUT_OF_ROTATION and seat is ruling.due:
            # 28B: the player due calls before the ruling: the call out of rotation is
            # cancelled without rectification
            self.pending = None
            return self.call(seat, call, comparable=comparable)
        raise ValueError(f"a ruling on {offender.full_name}'s {ruling.call} is pending")

    def _settle_substitution(self, seat: Seat, call: Call, comparable: bool | None) -> None:
        """The offender's call at his turn after a withdrawn call: Laws 23, 27B, 30-32."""
        for o in list(self._obligations):
            if o.duty is Duty.REPEAT_IF_RHO_PASSES and o.seat.rho is seat:
                self._obligations.remove(o)
                if call.is_pass:
                    self._obligations.append(Obligation(o.seat, Duty.REPEAT, o.law, o.call))
                else:
                    law = o.law[:-1] + "2" if o.law.endswith("1") else o.law
                    self._obligations.append(Obligation(o.seat, Duty.SUBSTITUTE, law, o.call))
        for o in self.obligations_of(seat):
            if (o.duty is Duty.PASS_ONCE and call.is_pass) or o.duty is Duty.REPEAT:
                self._obligations.remove(o)
            elif o.duty is Duty.SUBSTITUTE:
                self._obligations.remove(o)
                if not comparable:
                    self._obligations.append(Obligation(seat.partner, Duty.PASS_ONCE, o.law))
                    self._restrictions.append(LeadRestriction(seat))
            elif o.duty is Duty.REPLACE and o.call is not None:
                self._replace_insufficient(seat, call, o, comparable)

    def _replace_insufficient(
        self, seat: Seat, call: Call, o: Obligation, comparable: bool | None
    ) -> None:
        last = self._state.last_bid
        assert o.call is not None
        mechanical = last is not None and call == lowest_sufficient_same_strain(last, o.call)
        self._obligations.remove(o)
        if mechanical or comparable:
            return  # 27B1(a)/(b): no further rectification (27D may still apply)
        # 27B2: any other sufficient bid or a pass: partner passes throughout
        self._bar_partner(seat, "27B2")

    def _bar_partner(self, seat: Seat, law: str) -> None:
        partner = seat.partner
        if not any(o.seat is partner and o.duty is Duty.PASS_THROUGHOUT for o in self._obligations):
            self._obligations.append(Obligation(partner, Duty.PASS_THROUGHOUT, law))
        if LeadRestriction(seat) not in self._restrictions:
            self._restrictions.append(LeadRestriction(seat))

    def _bar_both(self, seat: Seat) -> None:
        for s in (seat, seat.partner):
            self._obligations = [
                o for o in self._obligations if not (o.seat is s and o.duty is Duty.PASS_ONCE)
            ]
            if not any(o.seat is s and o.duty is Duty.PASS_THROUGHOUT for o in self._obligations):
                self._obligations.append(Obligation(s, Duty.PASS_THROUGHOUT, "37A"))
        self._restrictions.append(LeadRestriction(seat))

    def _record(self, seat: Seat, call: Call) -> None:
        if call.is_pass:
            self._state.pass_()
        elif call.is_bid:
            self._state.bid(seat, call)
            self._state.passes = 0
        else:
            self._state.passes = 0
            self._state.risk = 1 if call.kind is CallKind.DOUBLE else 2
        self._calls.append((seat, call))
        self._called.add(seat)
        self.turn = seat.lho

    def _replace_last(self, seat: Seat, call: Call) -> None:
        """25B accepted: the later call replaces the offender's last one."""
        calls = self._calls[:-1]
        self._calls, self._state, self._called = [], AuctionState(), set()
        for s, c in calls:
            self._record(s, c)
        self._record(seat, call)
