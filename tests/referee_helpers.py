"""Helpers shared by the referee's tests: calls from text, feeding legal calls, duties."""

from __future__ import annotations

from bridgefiles.laws import Duty, Referee
from bridgefiles.model import Call, Seat


def c(text: str) -> Call:
    return Call.parse(text)


def feed(ref: Referee, *moves: tuple[Seat, str]) -> None:
    """Calls that must raise no irregularity."""
    for seat, call in moves:
        assert ref.call(seat, c(call)) is None, (seat, call, ref.pending)


def duties(ref: Referee) -> set[tuple[Seat, Duty, str]]:
    return {(o.seat, o.duty, o.law) for o in ref.obligations}
