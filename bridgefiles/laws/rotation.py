"""Calls out of rotation not accepted (Law 29B): what Laws 30-32 make each side do, in
each edition.

The texts relied on. 2017: Law 31 as published by the Polish Bridge Union's mirror of
the WBF text (pzbs.pl/sedziowie/mpb/2017/en/l31.html); Laws 30 and 32 as laws.md 1.5
gives them (2017: "comparable call" machinery, partner passes once). 2007: Law 30 from
the Norwegian translation of the 2007 Laws (lovboka.org/30.htm), Law 32 from the
Italian one (bridgeditalia.it, "Art. 32 - contro o surcontro fuori turno"), Law 31 as
a club guide written under the 2007 Laws states it (bridgeonsundays.co.uk, "First Bid
out of Turn"), each agreeing with laws.md's note that 2007 "often barred partner for
the whole auction". Where the editions differ:

- Law 30: 2007 A, a pass before any bid: pass at the next turn, whoever was due; 2007
  B1 at RHO's turn after a bid: the same; 2007 B2 at partner's turn after a bid: the
  offender passes throughout and his partner may not double or redouble at that turn.
  2017 A (RHO's turn): pass once; 2017 B1 (partner's turn, or LHO's as dealer): calls
  freely, a call that is not comparable bars partner once.
- Law 31: 2007 A2, RHO having acted: a call in the same denomination bars partner
  once, any other throughout; 2007 B (partner's or LHO's turn): partner passes
  throughout. 2017 A2 and B: comparable call, nothing more; otherwise partner once.
- Law 32: 2007 A (partner's turn) and B2 (RHO acted): partner passes throughout.
  2017: as Law 31, comparable or partner once.
- Withdrawn calls: 2007 Law 16D and Law 26 (A: a call about one suit lets declarer
  require or forbid that suit, B: forbid any one suit), Law 23 (a damaging enforced
  pass); 2017 Law 16C, 26B (forbid only), 72C, and 23C after a comparable call.
- Law 29 reads the same in both (A acceptance by calling, B cancellation, C an
  artificial call is ruled by the denominations it showed).
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgefiles.laws.editions import Edition
from bridgefiles.laws.rulings import Duty, Position
from bridgefiles.model.calls import Call
from bridgefiles.model.cards import Strain


@dataclass(frozen=True, slots=True)
class Rectification:
    """One step of a rectification: its Law, the duties it creates, what it refers to."""

    law: str
    offender: Duty | None = None
    partner: Duty | None = None
    partner_law: str | None = None
    restrict: bool = False  # Law 26 may restrict the lead if the offender defends
    unauthorized: bool = True  # the withdrawn call is UI to the offending side (16C/16D)
    see_also: tuple[str, ...] = ()
    text: str = ""


def references(laws: Edition, *, barred: bool) -> tuple[str, ...]:
    """The Laws a withdrawn call refers to: UI, and when partner is barred, the lead."""
    if laws == "2007":
        return ("16D", "23", "26") if barred else ("16D",)
    return ("16C", "26B", "72C") if barred else ("16C",)


def kind_of(call: Call, *, artificial: bool, partner_artificial: bool) -> str:
    """'pass', 'bid' or 'double' as Laws 30-32 see it; an artificial pass, or a pass of
    partner's artificial call, is ruled as a bid (Law 30C, both editions)."""
    if call.is_pass:
        return "bid" if artificial or partner_artificial else "pass"
    return "bid" if call.is_bid else "double"


def reject(laws: Edition, kind: str, position: Position, *, bid_made: bool) -> Rectification:
    """The rectification when the call out of rotation is not accepted (29B)."""
    if kind == "pass" and laws == "2007":
        if not bid_made:
            return Rectification(
                "30A", Duty.PASS_ONCE, see_also=("16D", "23"), text="pass at the next turn"
            )
        if position is Position.RHO:
            return Rectification("30B1", Duty.PASS_ONCE, see_also=("16D",))
        return Rectification(
            "30B2",
            Duty.PASS_THROUGHOUT,
            Duty.NO_DOUBLE_ONCE,
            "30B2(b)",
            see_also=("16D", "23"),
            text="the offender passes throughout; his partner may not double or redouble "
            "at his next turn",
        )
    if kind == "pass":
        if position is Position.RHO:
            return Rectification("30A", Duty.PASS_ONCE, see_also=("16C",))
        return Rectification(
            "30B1",
            Duty.SUBSTITUTE,
            see_also=references(laws, barred=True),
            text="partner calls freely (16C2); the offender any legal call at his turn",
        )
    if position is Position.RHO:
        law = "31A" if kind == "bid" else "32B"
        return Rectification(
            law,
            Duty.REPEAT_IF_RHO_PASSES,
            see_also=references(laws, barred=True),
            text="if RHO passes the offender repeats the call, else he calls freely",
        )
    law = "31B" if kind == "bid" else "32A"
    if laws == "2007":
        return Rectification(
            law,
            Duty.SUBSTITUTE,
            Duty.PASS_THROUGHOUT,
            law,
            restrict=False,
            see_also=references(laws, barred=True),
            text="the offender's partner must pass whenever it is his turn to call",
        )
    return Rectification(
        law,
        Duty.SUBSTITUTE,
        see_also=references(laws, barred=True),
        text="partner calls freely (16C2); the offender any legal call at his turn",
    )


def after_rho(laws: Edition, law: str, *, rho_passed: bool) -> Rectification:
    """31A / 32B: RHO has called; the offender must repeat (1), or calls freely (2)."""
    if rho_passed:
        return Rectification(
            law + "1",
            Duty.REPEAT,
            unauthorized=False,
            text="RHO passed: the offender must repeat the call; if legal, no rectification",
        )
    if laws == "2007" and law == "32B":
        return Rectification(
            "32B2",
            Duty.SUBSTITUTE,
            Duty.PASS_THROUGHOUT,
            "32B2",
            see_also=references(laws, barred=True),
            text="RHO acted: the offender calls freely; his partner passes throughout",
        )
    return Rectification(
        law + "2",
        Duty.SUBSTITUTE,
        see_also=references(laws, barred=True),
        text="RHO acted: the offender may make any legal call",
    )


def _same_denomination(withdrawn: Call, shows: frozenset[Strain], call: Call) -> bool:
    """2007 Law 31A2(a): the new call repeats the denomination of the withdrawn bid
    (29C: the denominations an artificial bid showed, not the one it named)."""
    if call.strain is None:
        return False
    named = shows or ({withdrawn.strain} if withdrawn.strain is not None else set())
    return call.strain in named


def substitute(
    laws: Edition,
    law: str,
    withdrawn: Call | None,
    shows: frozenset[Strain],
    call: Call,
    comparable: bool | None,
) -> Rectification:
    """The offender's call at his turn after the withdrawn one."""
    if laws == "2007":
        if law == "31A2" and withdrawn is not None:
            if _same_denomination(withdrawn, shows, call):
                return Rectification(
                    "31A2(a)",
                    partner=Duty.PASS_ONCE,
                    partner_law="31A2(a)",
                    see_also=("16D",),
                    text="the denomination repeated: partner passes at his next turn",
                )
            return Rectification(
                "31A2(b)",
                partner=Duty.PASS_THROUGHOUT,
                partner_law="31A2(b)",
                restrict=True,
                see_also=("16D", "23", "26"),
                text="another denomination: partner passes whenever it is his turn",
            )
        # 31B, 32A, 32B2: partner is barred already; a different final call lets
        # Law 26 restrict the lead
        return Rectification(
            law,
            restrict=call != withdrawn,
            see_also=("16D", "23", "26"),
            text="the offender's call at his turn",
        )
    if comparable:
        sub = {"31A2": "31A2(a)", "30B1": "30B1(b)(i)"}.get(law, law)
        return Rectification(
            sub,
            unauthorized=False,
            see_also=("23C",),
            text="a comparable call (Law 23A): no further rectification; 26B does not apply",
        )
    sub = {"31A2": "31A2(b)", "30B1": "30B1(b)(ii)"}.get(law, law)
    return Rectification(
        sub,
        partner=Duty.PASS_ONCE,
        partner_law=sub,
        restrict=True,
        see_also=("16C", "26B", "72C"),
        text="not a comparable call: the offender's partner must pass at his next turn",
    )
