"""Calls out of rotation not accepted (Law 29B): what Laws 30-32 make each side do, in
each edition, and the paragraph each step cites.

The two editions letter the same cases differently (laws.md, "Paragraph letters to
cite"), so each ruling here names the paragraph of the edition it applies.

2017, as the WBF text is mirrored by the Polish Bridge Union (Law 31, l31.html), the
French federation (Law 32, "LOI 32") and laws.md (Law 30):

- 30A, a pass at RHO's turn: the offender passes at his next turn. 30B1, at partner's
  turn (or LHO's, LHO being dealer): partner calls freely, 30B1(a), 16C2; the offender
  any legal call, 30B1(b): (i) comparable, nothing more; (ii) not, partner passes once.
- 31A, a bid at RHO's turn: A1 RHO passes, the bid is repeated; A2 RHO acts, the
  offender calls freely, A2(a) comparable / A2(b) not (partner once; 16C, 26B, 72C).
  31B, at partner's turn: B1 partner calls freely (16C2); B2 the offender calls freely,
  ruled as in A2(a)/(b). 31C, a later bid at LHO's turn: a change of call (Law 25).
- 32A, a double or redouble at RHO's turn, lettered as 31A (A1, A2(a), A2(b)); 32B at
  partner's turn, as 31B (B1, B2); 32C at LHO's turn later: Law 25.

2007, from the Norwegian (lovboka.org 30.htm, 32.htm) and Italian (bridgeditalia.it,
Art. 32) translations of the 2007 text and laws.md's table; there are no comparable
calls, and a bar lasts "whenever it is his turn":

- 30A, a pass before any bid: the offender passes at his next turn (Law 23 may apply).
  30B1, after a bid at RHO's turn: the same. 30B2, at partner's turn: (a) the offender
  passes whenever it is his turn; (b) his partner may bid or pass, not double or
  redouble, at that turn. 30B3, at LHO's turn: a change of call (Law 25).
- 31A1 as 2017; 31A2: the offender calls freely; (a) repeating the denomination bars
  partner at his next turn, (b) any other call whenever it is his turn (26 may apply).
  31B: partner passes whenever it is his turn. 31C: Law 25.
- 32A, at partner's turn: partner passes whenever it is his turn. 32B at RHO's turn:
  B1 RHO passes, repeat (36 if inadmissible); B2 RHO acts, partner passes whenever it
  is his turn. The lead restriction of Law 26 may follow the cancelled call.
- Withdrawn calls: 2007 16D, 23, 26; 2017 16C, 26B (forbid only), 72C, 23C.

Both editions: 30C, an artificial pass or a pass of partner's artificial call, is
ruled by Law 31 instead (at RHO's turn 31A, at partner's or LHO's 31B); Law 29 reads
the same (A acceptance, B cancellation, C an artificial call is ruled by what it showed).
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
    offender_law: str | None = None  # the offender's duty, when another paragraph says it
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
    if kind == "pass":
        return _reject_pass_2007(position, bid_made) if laws == "2007" else _reject_pass(position)
    rho = position is Position.RHO
    if rho:  # 31A, 32A (2017) / 32B (2007): repeat if RHO passes
        law = "31A" if kind == "bid" else ("32A" if laws == "2017" else "32B")
        return Rectification(
            law,
            Duty.REPEAT_IF_RHO_PASSES,
            see_also=references(laws, barred=True),
            text=f"if RHO passes the offender must repeat the call ({law}1); if RHO bids, "
            f"doubles or redoubles, he may make any legal call ({law}2)",
        )
    law = "31B" if kind == "bid" else ("32B" if laws == "2017" else "32A")
    if laws == "2007":
        return Rectification(
            law,
            Duty.CALL_FREELY,
            Duty.PASS_THROUGHOUT,
            law,
            see_also=references(laws, barred=True),
            text="the offender's partner must pass whenever it is his turn to "
            "call (Law 23 may apply); Law 26 may restrict the lead",
        )
    return Rectification(
        law,
        Duty.SUBSTITUTE,
        see_also=references(laws, barred=True),
        text=f"partner may make any legal call ({law}1, 16C2); the offender any legal call at "
        f"his turn, ruled as in {law[:2]}A2(a) or {law[:2]}A2(b) ({law}2)",
    )


def _pass_once(
    law: str, see_also: tuple[str, ...], case: str = "", then: str = ""
) -> Rectification:
    """Law 30A (2017, and 2007 before any bid) and 2007 30B1: the offender passes once."""
    text = f"{case}the offender must pass at his next turn{then}"
    return Rectification(law, Duty.PASS_ONCE, see_also=see_also, text=text)


def _reject_pass(position: Position) -> Rectification:
    """2017 Law 30A (RHO's turn) and 30B1 (partner's, or LHO's as dealer)."""
    if position is Position.RHO:
        return _pass_once("30A", ("16C",))
    return Rectification(
        "30B1",
        Duty.SUBSTITUTE,
        see_also=references("2017", barred=True),
        text="partner may make any legal call (30B1(a), 16C2); the offender any legal call at "
        "his turn, comparable (30B1(b)(i)) or not (30B1(b)(ii))",
    )


def _reject_pass_2007(position: Position, bid_made: bool) -> Rectification:
    """2007 Law 30A (before any bid), 30B1 (RHO's turn), 30B2 (partner's turn)."""
    if not bid_made:
        return _pass_once("30A", ("16D", "23"), "a pass before any bid: ", " (Law 23 may apply)")
    if position is Position.RHO:
        return _pass_once("30B1", ("16D",))
    return Rectification(
        "30B2",
        Duty.PASS_THROUGHOUT,
        Duty.NO_DOUBLE_ONCE,
        "30B2(b)",
        offender_law="30B2(a)",
        see_also=("16D", "23"),
        text="the offender must pass whenever it is his turn to call (30B2(a)); his partner "
        "may bid or pass but not double or redouble at that turn (30B2(b)); Law 23 may apply",
    )


def changed_call(laws: Edition, kind: str) -> tuple[str, ...]:
    """The paragraph that sends a later call at LHO's turn to Law 25 (a change of call):
    2017 31C and 32C, 2007 30B3 and 31C (2007 Law 32 has no such paragraph, nor does the
    2017 Law 30 as laws.md gives it: Law 25 is cited alone)."""
    found = {
        ("2017", "bid"): "31C",
        ("2017", "double"): "32C",
        ("2007", "pass"): "30B3",
        ("2007", "bid"): "31C",
    }.get((laws, kind))
    return (found,) if found is not None else ()


def after_rho(laws: Edition, law: str, *, rho_passed: bool) -> Rectification:
    """31A, 32A (2017) or 32B (2007): RHO has called; the offender must repeat (1), or
    calls freely (2)."""
    if rho_passed:
        inadmissible = " (Law 36 if it is inadmissible)" if law.startswith("32") else ""
        return Rectification(
            law + "1",
            Duty.REPEAT,
            unauthorized=False,
            text=f"RHO passed: the offender must repeat the call; if legal, no "
            f"rectification{inadmissible}",
        )
    if laws == "2007" and law == "32B":
        return Rectification(
            "32B2",
            Duty.CALL_FREELY,
            Duty.PASS_THROUGHOUT,
            "32B2",
            see_also=references(laws, barred=True),
            text="RHO acted: the offender may make any legal call; his partner must "
            "pass whenever it is his turn to call (Law 23 may apply)",
        )
    if laws == "2007":
        return Rectification(
            "31A2",
            Duty.DENOMINATION,
            see_also=references(laws, barred=True),
            text="RHO acted: the offender may make any legal call; repeating the "
            "denomination bars partner at his next turn (31A2(a)), any other call whenever "
            "it is his turn (31A2(b))",
        )
    return Rectification(
        law + "2",
        Duty.SUBSTITUTE,
        see_also=references(laws, barred=True),
        text=f"RHO acted: the offender may make any legal call, comparable "
        f"({law}2(a)) or not ({law}2(b))",
    )


def _same_denomination(withdrawn: Call, shows: frozenset[Strain], call: Call) -> bool:
    """2007 Law 31A2(a): the new call repeats the denomination of the withdrawn bid
    (29C: the denominations an artificial bid showed, not the one it named)."""
    if call.strain is None:
        return False
    named = shows or ({withdrawn.strain} if withdrawn.strain is not None else set())
    return call.strain in named


# 2017: the paragraph ruling the offender's call, comparable / not, and the one it follows
_RULED_AS: dict[str, tuple[str, str, str | None]] = {
    "30B1": ("30B1(b)(i)", "30B1(b)(ii)", None),
    "31A2": ("31A2(a)", "31A2(b)", None),
    "31B": ("31B2", "31B2", "31A2"),
    "32A2": ("32A2(a)", "32A2(b)", None),
    "32B": ("32B2", "32B2", "32A2"),
}


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
        return _substitute_2007(law, withdrawn, shows, call)
    yes, no, like = _RULED_AS.get(law, (law, law, None))
    ruled = f" (ruled as in {like}({'a' if comparable else 'b'}))" if like else ""
    if comparable:
        return Rectification(
            yes,
            unauthorized=False,
            see_also=(*((like + "(a)",) if like else ()), "23C"),
            text=f"a comparable call (Law 23A){ruled}: no further rectification; 26B does not "
            "apply",
        )
    return Rectification(
        no,
        partner=Duty.PASS_ONCE,
        partner_law=no,
        restrict=True,
        see_also=(*((like + "(b)",) if like else ()), "16C", "26B", "72C"),
        text=f"not a comparable call{ruled}: the offender's partner must pass at his next turn",
    )


def _substitute_2007(
    law: str, withdrawn: Call | None, shows: frozenset[Strain], call: Call
) -> Rectification:
    if law == "31A2" and withdrawn is not None:
        if _same_denomination(withdrawn, shows, call):
            return Rectification(
                "31A2(a)",
                partner=Duty.PASS_ONCE,
                partner_law="31A2(a)",
                see_also=("16D", "23"),
                text="the denomination repeated: the offender's partner must pass "
                "at his next turn (Law 23 may apply)",
            )
        return Rectification(
            "31A2(b)",
            partner=Duty.PASS_THROUGHOUT,
            partner_law="31A2(b)",
            restrict=True,
            see_also=("16D", "23", "26"),
            text="another denomination: the offender's partner must pass whenever "
            "it is his turn to call (Law 23 may apply); Law 26 may restrict the lead",
        )
    # 31B, 32A, 32B2: partner is barred already; a different call at that turn lets
    # Law 26 restrict the lead
    changed = call != withdrawn
    lead = "; another call than the one withdrawn: Law 26 may restrict the lead"
    return Rectification(
        law,
        restrict=changed,
        see_also=("16D", "23", "26") if changed else ("16D", "23"),
        text=f"the offender's call at his turn; his partner still passes whenever "
        f"it is his turn to call{lead if changed else ''}",
    )
