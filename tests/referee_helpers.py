"""Helpers shared by the referee's tests: calls from text, feeding legal calls, duties,
and the start of every ruling on an insufficient bid not accepted."""

from __future__ import annotations

from bridgefiles.laws import Duty, Option, Referee
from bridgefiles.model import Call, Seat


def c(text: str) -> Call:
    return Call.parse(text)


def feed(ref: Referee, *moves: tuple[Seat, str]) -> None:
    """Calls that must raise no irregularity."""
    for seat, call in moves:
        assert ref.call(seat, c(call)) is None, (seat, call, ref.pending)


def duties(ref: Referee) -> set[tuple[Seat, Duty, str]]:
    return {(o.seat, o.duty, o.law) for o in ref.obligations}


def insufficient_rejected(opening: str, insufficient: str) -> Referee:
    """North opens ``opening``, East bids ``insufficient`` below it and West does not
    accept it (Law 27B): where the rulings on replacing an insufficient bid begin."""
    ref = Referee(Seat.N)
    feed(ref, (Seat.N, opening))
    ref.call(Seat.E, c(insufficient))
    ref.choose(Option.REJECT)
    return ref
