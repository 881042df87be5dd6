"""The auction at the table, as a director keeps it: the legal calls so far, the duties
each seat is under, the lead restrictions waiting for the play, and what may be called.

The referee (``laws.referee``) rules on irregular calls and changes this state; this
module holds it and answers from it (Laws 19, 22, 26).
"""

from __future__ import annotations

from bridgefiles.laws import arguments
from bridgefiles.laws.auction import AuctionState, is_sufficient, lowest_sufficient_same_strain
from bridgefiles.laws.editions import Edition, check_edition
from bridgefiles.laws.leads import lead_options, restriction_for
from bridgefiles.laws.rulings import Duty, LeadRestriction, Obligation, Ruling
from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, CallKind
from bridgefiles.model.cards import Strain, Suit
from bridgefiles.model.seats import Seat

BARRED = (Duty.PASS_ONCE, Duty.PASS_THROUGHOUT)


class TableAuction:
    """The calls, duties and lead restrictions of one auction under the ``laws`` edition."""

    def __init__(self, dealer: Seat, *, laws: Edition = "2017") -> None:
        self.laws: Edition = check_edition(laws)
        self.dealer = arguments.seat(dealer, "dealer")
        self.turn = dealer
        self._calls: list[tuple[Seat, Call]] = []
        self._shown: list[frozenset[Strain] | None] = []  # per call: None when natural
        self._state = AuctionState()
        self.pending: Ruling | None = None
        self._obligations: list[Obligation] = []
        self.ended_duties: list[Obligation] = []  # duties met or lapsed, in order
        self._restrictions: list[LeadRestriction] = []
        self._called: set[Seat] = set()

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
        seat = arguments.seat(seat)
        return tuple(o for o in self._obligations if o.seat is seat)

    @property
    def lead_restrictions(self) -> tuple[LeadRestriction, ...]:
        """Restrictions that apply if the offender becomes a defender (Law 26)."""
        return tuple(self._restrictions)

    def opening_lead_restriction(self) -> tuple[LeadRestriction, set[Suit]] | None:
        """After the auction: the restriction on the offender's partner's first lead (he may be
        the opening leader or lead later), with the suits declarer may choose from: under
        2017 26B those the offender did not specify in the legal auction (29C: an artificial
        call specifies what it showed); under 2007 26A the suit of the withdrawn call
        (declarer may require or forbid it) unless the offender specified it, under 2007
        26B any one suit."""
        declarer = self.declarer
        if declarer is None:
            return None
        return lead_options(self.laws, self._restrictions, declarer, self._calls, self._shown)

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
        seat = arguments.seat(seat)
        if self.pending is not None or self.ended or seat is not self.turn:
            return ()
        duties = self.obligations_of(seat)
        if any(o.duty in BARRED for o in duties):
            return (PASS,)
        for o in duties:
            if o.duty is Duty.REPEAT and o.call is not None:
                return (o.call,)
        out = [PASS]
        if not any(o.duty is Duty.NO_DOUBLE_ONCE for o in duties):
            out += [c for c in (DOUBLE, REDOUBLE) if self._admissible(seat, c)]
        out += [b for b in ALL_BIDS if is_sufficient(b, self._state.last_bid)]
        return tuple(out)

    def comparable_by_rule(self, seat: Seat) -> Call | None:
        """The replacement Law 27B1(a) makes comparable without asking the Director."""
        seat = arguments.seat(seat)
        for o in self.obligations_of(seat):
            if o.duty is Duty.REPLACE and o.call is not None and self._state.last_bid is not None:
                return lowest_sufficient_same_strain(self._state.last_bid, o.call)
        return None

    def _duties_of(self, seat: Seat) -> tuple[Obligation, ...]:
        return tuple(o for o in self._obligations if o.seat.side is seat.side)

    def _bid_made(self) -> bool:
        return self._state.last_bid is not None

    def _partner_artificial(self, seat: Seat) -> bool:
        for (s, _), shows in zip(reversed(self._calls), reversed(self._shown), strict=True):
            if s is seat.partner:
                return shows is not None
        return False

    def _replaced(self, seat: Seat) -> Call | None:
        for o in self.obligations_of(seat):
            if o.duty is Duty.REPLACE:
                return o.call
        return None

    def _restriction_for(
        self, seat: Seat, withdrawn: Call | None, shows: frozenset[Strain] = frozenset()
    ) -> LeadRestriction:
        return restriction_for(self.laws, seat, withdrawn, shows)

    def _restrict(self, restriction: LeadRestriction) -> None:
        if restriction not in self._restrictions:
            self._restrictions.append(restriction)

    def _add(self, o: Obligation) -> None:
        if o.duty is Duty.PASS_THROUGHOUT and any(
            x.seat is o.seat and x.duty is Duty.PASS_THROUGHOUT for x in self._obligations
        ):
            return
        self._obligations.append(o)

    def _end(self, o: Obligation) -> None:
        self._obligations.remove(o)
        self.ended_duties.append(o)

    def _bar_partner(self, seat: Seat, law: str, restriction: LeadRestriction) -> None:
        self._add(Obligation(seat.partner, Duty.PASS_THROUGHOUT, law))
        self._restrict(restriction)

    def _bar_both(self, seat: Seat, call: Call) -> None:
        for s in (seat, seat.partner):
            for o in self.obligations_of(s):
                if o.duty is Duty.PASS_ONCE:
                    self._end(o)
            self._add(Obligation(s, Duty.PASS_THROUGHOUT, "37A"))
        self._restrict(self._restriction_for(seat, call))

    def _record(self, seat: Seat, call: Call, shown: frozenset[Strain] | None) -> None:
        if call.is_pass:
            self._state.pass_()
        elif call.is_bid:
            self._state.bid(seat, call)
            self._state.passes = 0
        else:
            self._state.passes = 0
            self._state.risk = 1 if call.kind is CallKind.DOUBLE else 2
        self._calls.append((seat, call))
        self._shown.append(shown)
        self._called.add(seat)
        self.turn = seat.lho
        if self._state.ended:
            for o in list(self._obligations):
                self._end(o)  # the auction is over: every duty of the auction lapses

    def _replace_last(self, seat: Seat, call: Call, shown: frozenset[Strain] | None) -> None:
        """25A, or 25B accepted: the later call replaces the offender's last one."""
        calls = list(zip(self._calls[:-1], self._shown[:-1], strict=True))
        self._calls, self._shown, self._state, self._called = [], [], AuctionState(), set()
        for (s, c), sh in calls:
            self._record(s, c, sh)
        self._record(seat, call, shown)
