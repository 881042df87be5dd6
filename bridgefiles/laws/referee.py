"""A live referee for the auction: irregularities, the options they give, obligations.

For directors' tools. Feed each call with the seat that made it; an irregular
call (out of rotation, insufficient, inadmissible, by a barred player, after the
auction) becomes a ``pending`` ruling whose ``options`` say what the Laws allow;
``choose`` applies one (a call by the offender's LHO accepts, Laws 25B, 27A1, 29A).
Every decision is a ``Ruling`` in ``rulings``, one per irregularity and one per step
of its rectification, each with the Law that governs it, the side for whom the
withdrawn call is unauthorized information (16C) and the duties it creates; from
then on ``obligations`` and ``legal_calls`` say what each seat may do (Laws 23,
25-32, 36, 37, 39; lead restrictions, Law 26). ``laws="2007"`` rules under the 2007
Laws where they differ (``laws.rotation`` says where).

Whether a substituted call is "comparable" (Law 23A) depends on meanings the
code cannot know: it is the Director's input (``comparable=`` on the call),
except the mechanical case of Law 27B1(a), which the code decides. So is whether a
call is artificial (``artificial=True``, with ``shows=`` the denominations it
specified, Law 29C) and whether a change of call was unintended (``unintended=True``,
Law 25A).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bridgefiles.errors import UsageError
from bridgefiles.laws import arguments, rotation
from bridgefiles.laws.auction import is_sufficient
from bridgefiles.laws.editions import Edition
from bridgefiles.laws.insufficient import replacement
from bridgefiles.laws.rulings import (
    FREE_CALLS,
    Duty,
    Irregularity,
    Obligation,
    Option,
    Position,
    Ruling,
)
from bridgefiles.laws.table import BARRED, TableAuction
from bridgefiles.model.calls import PASS, Call, CallKind
from bridgefiles.model.cards import Strain
from bridgefiles.model.seats import Seat


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the Director tells the referee about a call (Laws 23A, 25A, 29C)."""

    comparable: bool | None
    shown: frozenset[Strain] | None  # an artificial call: the denominations it showed
    unintended: bool


class Referee(TableAuction):
    """Follows an auction call by call, ruling on irregularities as they happen."""

    def __init__(self, dealer: Seat, *, laws: Edition = "2017") -> None:
        super().__init__(dealer, laws=laws)
        self._pending_at = -1
        self.rulings: list[Ruling] = []

    # -- feeding calls -----------------------------------------------------
    def call(
        self,
        seat: Seat,
        call: Call,
        *,
        comparable: bool | None = None,
        artificial: bool = False,
        shows: Iterable[Strain] = (),
        unintended: bool = False,
    ) -> Ruling | None:
        """Record a call; returns the ruling it needs (also left in ``pending``) or the
        ruling an irregular call gets at once (Laws 25A, 27B3, 39), else None.

        ``comparable`` is the Director's decision (Law 23A) for a call that replaces a
        withdrawn one; None lets the code decide the mechanical cases only. Arguments of
        the wrong type, and a call the duties forbid, raise :class:`UsageError`.
        """
        seat, call = arguments.seat(seat), arguments.call(call)
        comparable = arguments.decision(comparable)
        artificial = arguments.flag(artificial, "artificial")
        unintended = arguments.flag(unintended, "unintended")
        shown = arguments.strains(shows)
        facts = _Facts(comparable, shown if artificial else None, unintended)
        return self._call(seat, call, facts)

    def _call(self, seat: Seat, call: Call, facts: _Facts) -> Ruling | None:
        comparable, shown = facts.comparable, facts.shown
        pending = self.pending
        if pending is not None:
            return self._call_while_pending(pending, seat, call, facts)
        if self.ended:
            return self._after_auction(seat, call)
        if seat is not self.turn:
            return self._out_of_rotation(seat, call, facts)
        duties = self.obligations_of(seat)
        if not call.is_pass and any(o.duty in BARRED for o in duties):
            return self._pend(
                Ruling(
                    Irregularity.BARRED,
                    seat,
                    call,
                    seat,
                    "37A",
                    (Option.REJECT,),
                    text=f"{seat.full_name} is obliged to pass",
                    see_also=self._refs(barred=True),
                )
            )
        for o in duties:
            if o.duty is Duty.REPEAT and o.call != call:
                raise UsageError(f"{seat.full_name} must repeat {o.call} (Law {o.law})")
            if o.duty is Duty.NO_DOUBLE_ONCE and call.kind in (CallKind.DOUBLE, CallKind.REDOUBLE):
                raise UsageError(f"{seat.full_name} may not double or redouble (Law {o.law})")
        replacing = any(o.duty is Duty.REPLACE for o in duties)
        if replacing and not call.is_pass and not call.is_bid and not comparable:
            # 27B3: a double or redouble cannot replace it; partner passes throughout
            self._bar_partner(seat, "27B3", self._restriction_for(seat, self._replaced(seat)))
            ruling = Ruling(
                Irregularity.INSUFFICIENT,
                seat,
                call,
                seat,
                "27B3",
                text=f"{call} cannot replace an insufficient bid: cancelled; partner must "
                "pass throughout",
                unauthorized_to=seat.side,
                see_also=self._refs(barred=True),
                duties=self.obligations_of(seat.partner),
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
                    "27B4" if replacing else "27B",
                    (Option.ACCEPT, Option.REJECT),
                    text=f"{call} is insufficient over {self._state.last_bid}",
                    artificial=shown is not None,
                    shows=shown or frozenset(),
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
                        "36B",
                        (Option.REJECT,),
                        text=why,
                    )
                )
        self._settle(seat, call, comparable)
        self._record(seat, call, shown)
        return None

    def choose(self, option: Option) -> None:
        """Apply the non-offending side's (or Director's) choice on the pending ruling."""
        option = arguments.instance(option, Option, "option", "Option.ACCEPT or Option.REJECT")
        ruling = self.pending
        if ruling is None:
            raise UsageError("no ruling is pending")
        if option not in ruling.options:
            raise UsageError(f"{option.value} is not open for Law {ruling.law}")
        self.pending = None
        seat, call, kind = ruling.offender, ruling.call, ruling.irregularity
        shown = ruling.shows if ruling.artificial else None
        barred = self._refs(barred=True)
        if kind is Irregularity.CHANGE_OF_CALL:
            accepted = option is Option.ACCEPT
            text = "the later call stands" if accepted else "cancelled: the first call stands"
            see = (*self._sent_to_25(call, artificial=ruling.artificial), *self._refs(barred=False))
            self._decide(ruling, "25B", text, see)
            if accepted:
                self._replace_last(seat, call, shown)
        elif option is Option.ACCEPT:
            law = "27A1" if kind is Irregularity.INSUFFICIENT else "29A"
            self._decide(ruling, law, "accepted: the call stands as legal and in rotation", None)
            self._settle(seat, call, None)
            self._record(seat, call, shown)
        elif kind is Irregularity.INSUFFICIENT:
            if ruling.law == "27B4":
                self._bar_partner(seat, "27B4", self._restriction_for(seat, self._replaced(seat)))
                text = "another insufficient bid, not accepted: partner passes throughout"
            else:
                self._add(Obligation(seat, Duty.REPLACE, "27B", call, ruling.shows))
                text = "not accepted: the offender replaces it with a legal call"
            self._decide(ruling, ruling.law, text, barred)
        elif kind is Irregularity.INADMISSIBLE:
            # 36B (36C out of rotation): the offender calls again, freely and at his own
            # turn, and his partner passes throughout
            self._bar_partner(seat, ruling.law, self._restriction_for(seat, call))
            self._decide(ruling, ruling.law, "cancelled; partner must pass throughout", barred)
        elif kind is Irregularity.BARRED:
            self._bar_both(seat, call)
            text = "cancelled, a pass instead; both of the offending side pass throughout"
            self._decide(ruling, "37A", text, barred)
            self._record(seat, PASS, None)
        else:  # a call out of rotation, not accepted (29B): back to the player due
            self._reject_out_of_rotation(ruling)

    def _reject_out_of_rotation(self, ruling: Ruling) -> None:
        seat, call = ruling.offender, ruling.call
        assert ruling.position is not None
        partner_artificial = self._partner_artificial(seat)
        kind = rotation.kind_of(
            call, artificial=ruling.artificial, partner_artificial=partner_artificial
        )
        rect = rotation.reject(self.laws, kind, ruling.position, bid_made=self._bid_made())
        if rect.offender is not None:
            law = rect.offender_law or rect.law
            self._add(Obligation(seat, rect.offender, law, call, ruling.shows))
        if rect.partner is not None:
            law = rect.partner_law or rect.law
            self._add(Obligation(seat.partner, rect.partner, law, call, ruling.shows))
        see = ("29B", *((rect.law,) if ruling.law != rect.law else ()), *rect.see_also)
        self._decide(ruling, ruling.law, _artificial_pass(ruling.law, rect.law) + rect.text, see)

    # -- internals ---------------------------------------------------------
    def _refs(self, *, barred: bool) -> tuple[str, ...]:
        return rotation.references(self.laws, barred=barred)

    def _sent_to_25(self, call: Call, *, artificial: bool) -> tuple[str, ...]:
        """The paragraph of Laws 30-32 that makes a later call at LHO's turn a change of
        call (Law 25), in this edition."""
        kind = rotation.kind_of(call, artificial=artificial, partner_artificial=False)
        return rotation.changed_call(self.laws, kind)

    def _pend(self, ruling: Ruling) -> Ruling:
        self.pending = ruling
        self._pending_at = len(self.rulings)
        self.rulings.append(ruling)
        return ruling

    def _decide(
        self, ruling: Ruling, law: str, text: str, see_also: tuple[str, ...] | None
    ) -> Ruling:
        """The pending ruling, decided, in the pending one's place in ``rulings``.

        ``see_also`` None: nothing was withdrawn, so no unauthorized information and no
        duty; otherwise the withdrawn call is UI to the offending side, whose duties
        the ruling lists.
        """
        withdrawn = see_also is not None
        side = ruling.offender.side
        decided = replace(
            ruling,
            law=law,
            options=(),
            text=text,
            unauthorized_to=side if withdrawn else None,
            see_also=see_also or (),
            duties=self._duties_of(ruling.offender) if withdrawn else (),
        )
        if 0 <= self._pending_at < len(self.rulings) and self.rulings[self._pending_at] is ruling:
            self.rulings[self._pending_at] = decided
        else:
            self.rulings.append(decided)
        self._pending_at = -1
        return decided

    def _after_auction(self, seat: Seat, call: Call) -> Ruling:
        declarer = self.declarer
        defender = declarer is not None and seat.side is not declarer.side
        if not call.is_pass and defender:
            self._restrictions.append(self._restriction_for(seat, call))
        ruling = Ruling(
            Irregularity.AFTER_AUCTION,
            seat,
            call,
            seat,
            "39",
            text="a call after the auction has ended is cancelled",
            unauthorized_to=seat.side if not call.is_pass else None,
            see_also=("16C", "26B") if self.laws == "2017" else ("16D", "26"),
        )
        self.rulings.append(ruling)
        return ruling

    def _out_of_rotation(self, seat: Seat, call: Call, facts: _Facts) -> Ruling | None:
        shown = facts.shown
        due = self.turn
        if seat is due.lho and any(o.duty in BARRED for o in self.obligations_of(due)):
            # 28A: RHO is obliged to pass, so the call counts as in rotation; RHO's pass
            # is taken as made, and meets the duties a pass meets
            self._settle(due, PASS, None)
            self._record(due, PASS, None)
            self.rulings.append(
                Ruling(
                    Irregularity.OUT_OF_ROTATION,
                    seat,
                    call,
                    due,
                    "28A",
                    position=Position.RHO,
                    text=f"{due.full_name} was obliged to pass: the call is in rotation",
                )
            )
            return self._call(seat, call, facts)
        if seat is due.lho:
            position = Position.RHO
        elif seat is due.partner:
            position = Position.PARTNER
        else:
            position = Position.LHO
            if seat in self._called and self._calls and self._calls[-1][0] is seat:
                return self._change_of_call(seat, call, due, shown, facts.unintended)
        artificial = shown is not None
        if not call.is_pass and not call.is_bid and not self._admissible(seat, call):
            return self._pend(
                Ruling(
                    Irregularity.INADMISSIBLE,
                    seat,
                    call,
                    due,
                    "36C",
                    (Option.REJECT,),
                    position,
                    text="inadmissible and out of rotation: never acceptable",
                    artificial=artificial,
                    shows=shown or frozenset(),
                )
            )
        kind = rotation.kind_of(
            call, artificial=artificial, partner_artificial=self._partner_artificial(seat)
        )
        rect = rotation.reject(self.laws, kind, position, bid_made=self._bid_made())
        law = "30C" if call.is_pass and kind == "bid" else rect.law
        if call.is_bid and not is_sufficient(call, self._state.last_bid):
            text = f"{seat.full_name} made an insufficient bid at {due.full_name}'s turn (27A2)"
        else:
            text = f"{seat.full_name} called at {due.full_name}'s turn"
        text = _artificial_pass(law, rect.law) + text
        return self._pend(
            Ruling(
                Irregularity.OUT_OF_ROTATION,
                seat,
                call,
                due,
                law,
                (Option.ACCEPT, Option.REJECT),
                position,
                text=text,
                see_also=(rect.law,) if law != rect.law else (),
                artificial=artificial,
                shows=shown or frozenset(),
            )
        )

    def _change_of_call(
        self, seat: Seat, call: Call, due: Seat, shown: frozenset[Strain] | None, unintended: bool
    ) -> Ruling:
        if unintended:
            # 25A: an unintended call may be replaced until partner calls (he has not:
            # LHO, before him, has not called yet)
            ruling = Ruling(
                Irregularity.CHANGE_OF_CALL,
                seat,
                call,
                due,
                "25A",
                position=Position.LHO,
                text="an unintended call, replaced at once: the new call stands",
                see_also=self._sent_to_25(call, artificial=shown is not None),
            )
            self._replace_last(seat, call, shown)
            self.rulings.append(ruling)
            return ruling
        return self._pend(
            Ruling(
                Irregularity.CHANGE_OF_CALL,
                seat,
                call,
                due,
                "25B",
                (Option.ACCEPT, Option.REJECT),
                Position.LHO,
                text="a second call before LHO has called: an intended change of call",
                artificial=shown is not None,
                shows=shown or frozenset(),
            )
        )

    def _call_while_pending(
        self, ruling: Ruling, seat: Seat, call: Call, facts: _Facts
    ) -> Ruling | None:
        offender = ruling.offender
        if seat is offender.lho and Option.ACCEPT in ruling.options:
            self.choose(Option.ACCEPT)  # 25B / 27A1 / 29A: LHO accepts by calling
            return self._call(seat, call, facts)
        if seat is offender.lho and ruling.irregularity is Irregularity.INADMISSIBLE:
            # 36A: LHO called before rectification: both calls are cancelled, no rectification
            self.pending = None
            text = "LHO called first: both calls are cancelled; no rectification"
            self._decide(ruling, "36A", text, None)
            return None
        if seat is offender.lho and ruling.irregularity is Irregularity.BARRED:
            # 37B1: LHO called before rectification: the call stands
            self.pending = None
            self._decide(ruling, "37B", "LHO called before rectification: the call stands", None)
            self._record(offender, ruling.call, ruling.shows if ruling.artificial else None)
            return self._call(seat, call, facts)
        if ruling.irregularity is Irregularity.OUT_OF_ROTATION and seat is ruling.due:
            # 28B: the player due calls before the ruling: the call out of rotation is
            # cancelled without rectification (16C2 still applies to its side)
            self.pending = None
            text = f"{seat.full_name}, whose turn it was, called first: no rectification"
            self._decide(ruling, "28B", text, self._refs(barred=False))
            return self._call(seat, call, facts)
        raise UsageError(f"a ruling on {offender.full_name}'s {ruling.call} is pending")

    def _settle(self, seat: Seat, call: Call, comparable: bool | None) -> None:
        """A call at its turn: the duties it meets or turns into others (Laws 27, 30-32)."""
        for o in list(self._obligations):
            if o.duty is Duty.REPEAT_IF_RHO_PASSES and o.seat.rho is seat:
                self._end(o)
                rect = rotation.after_rho(self.laws, o.law, rho_passed=call.is_pass)
                assert rect.offender is not None
                self._add(Obligation(o.seat, rect.offender, rect.law, o.call, o.shows))
                if rect.partner is not None:
                    law = rect.partner_law or rect.law
                    self._add(Obligation(o.seat.partner, rect.partner, law, o.call, o.shows))
                self._follow_up(o, rect)
        for o in self.obligations_of(seat):
            if o.duty in (Duty.PASS_ONCE, Duty.NO_DOUBLE_ONCE, Duty.REPEAT):
                self._end(o)
            elif o.duty in FREE_CALLS:
                self._end(o)
                rect = rotation.substitute(self.laws, o.law, o.call, o.shows, call, comparable)
                if rect.partner is not None:
                    law = rect.partner_law or rect.law
                    self._add(Obligation(seat.partner, rect.partner, law, o.call, o.shows))
                if rect.restrict:
                    self._restrict(self._restriction_for(seat, o.call, o.shows))
                self._follow_up(o, rect)
            elif o.duty is Duty.REPLACE and o.call is not None:
                self._replace_insufficient(seat, call, o, comparable)

    def _follow_up(self, o: Obligation, rect: rotation.Rectification) -> None:
        """The ruling a step of the rectification gives, once the step is taken."""
        assert o.call is not None
        self.rulings.append(
            Ruling(
                Irregularity.OUT_OF_ROTATION,
                o.seat,
                o.call,
                o.seat,
                rect.law,
                text=rect.text,
                unauthorized_to=o.seat.side if rect.unauthorized else None,
                see_also=rect.see_also,
                duties=self._duties_of(o.seat),
                artificial=bool(o.shows),
                shows=o.shows,
            )
        )

    def _replace_insufficient(
        self, seat: Seat, call: Call, o: Obligation, comparable: bool | None
    ) -> None:
        assert o.call is not None
        self._end(o)
        rect = replacement(self.laws, self._state.last_bid, o.call, o.shows, call, comparable)
        if rect.partner is not None:
            self._bar_partner(seat, rect.law, self._restriction_for(seat, o.call, o.shows))
        self.rulings.append(
            Ruling(
                Irregularity.INSUFFICIENT,
                seat,
                o.call,
                seat,
                rect.law,
                text=rect.text,
                unauthorized_to=seat.side if rect.unauthorized else None,
                see_also=rect.see_also,
                duties=self._duties_of(seat),
            )
        )


def _artificial_pass(law: str, rules: str) -> str:
    """Law 30C names the Law 31 paragraph that rules an artificial pass (both editions)."""
    if law != "30C":
        return ""
    return (
        "Law 30C: the pass is artificial, or passes partner's artificial call: ruled as a "
        f"bid by Law {rules}. "
    )
