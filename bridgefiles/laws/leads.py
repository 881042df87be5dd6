"""Law 26: the lead restriction a withdrawn call leaves, in each edition.

2017 26B (as amended by the WBF, laws.md section 8.3): declarer may forbid the
offender's partner, at his first turn to lead, one suit the offender did not
specify in the legal auction (an artificial call specifies what it showed, 29C).
2007 Law 26: A, a withdrawn call about one suit only: declarer may require or
forbid that suit unless the offender specified it in the legal auction; B, any
other withdrawn call: declarer may forbid any one suit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bridgefiles.laws.editions import Edition
from bridgefiles.laws.rulings import LeadRestriction
from bridgefiles.model.calls import Call
from bridgefiles.model.cards import Strain, Suit
from bridgefiles.model.seats import Seat


def restriction_for(
    laws: Edition, seat: Seat, withdrawn: Call | None, shows: frozenset[Strain] = frozenset()
) -> LeadRestriction:
    """The restriction a call of ``seat`` withdrawn in the auction may bring."""
    if laws == "2017":
        return LeadRestriction(seat)
    strain = withdrawn.strain if withdrawn is not None and not shows else None
    if len(shows) == 1:
        strain = next(iter(shows))
    suit = strain.trump if strain is not None else None
    return LeadRestriction(seat, "26A" if suit is not None else "26B", suit)


def specified_by(
    calls: Sequence[tuple[Seat, Call]], shown: Sequence[frozenset[Strain] | None], seat: Seat
) -> set[Suit]:
    """The suits ``seat`` specified in the legal auction (29C for artificial calls)."""
    named: set[Suit] = set()
    for (s, c), shows in zip(calls, shown, strict=True):
        if s is not seat:
            continue
        strains: Iterable[Strain] = (
            shows if shows is not None else ([c.strain] if c.strain is not None else [])
        )
        named |= {d.trump for d in strains if d.trump is not None}
    return named


def lead_options(
    laws: Edition,
    restrictions: Sequence[LeadRestriction],
    declarer: Seat,
    calls: Sequence[tuple[Seat, Call]],
    shown: Sequence[frozenset[Strain] | None],
) -> tuple[LeadRestriction, set[Suit]] | None:
    """The restriction on a defending offender's partner, with the suits declarer may name."""
    for r in restrictions:
        if r.offender.side is declarer.side:
            continue
        named = specified_by(calls, shown, r.offender)
        if r.suit is not None:
            if r.suit in named:
                continue
            return r, {r.suit}
        if laws == "2007":
            return r, set(Suit)
        return r, {s for s in Suit if s not in named}
    return None
