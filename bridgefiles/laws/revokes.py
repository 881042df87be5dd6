"""Revokes: establishment (Law 63) and the automatic trick transfer of Law 64.

Pure rules over facts a record can show: who revoked, on which trick, in which
suit, and who won each trick from then on. Tricks settled by a claim count as
won by the side that received them (Law 69A), attributed to one of its seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bridgefiles.laws.editions import Edition
from bridgefiles.model.cards import Suit
from bridgefiles.model.seats import Seat, Side


@dataclass(frozen=True, slots=True)
class Revoke:
    """A failure to follow suit found in (or marked on) the play."""

    trick: int  # 1-13
    player: Seat
    suit: Suit  # the suit the player failed to follow
    established: bool = True
    dummy: bool = False  # a card of dummy's (Law 64B3)
    penalty_card: bool = False  # failure to play a penalty card (Law 64B3)
    attention_after_round: bool = False  # noticed too late (Law 64B4/B5)
    marked: bool = False  # PBN '^R'
    line: int | None = None
    column: int | None = None

    @property
    def side(self) -> Side:
        return self.player.side


@dataclass(frozen=True, slots=True)
class RevokeRuling:
    """How Law 64 treats one revoke: the rule applied and the tricks it moves."""

    revoke: Revoke
    rule: str  # "64A1", "64A2", "64B1" ... or "62A" when not established
    entitled: int  # tricks the rule gives to the non-offending side
    transferred: int  # tricks actually moved (a trick moves once only)
    director: bool = False  # Law 64C: the Director must look at equity


@dataclass(frozen=True, slots=True)
class Law64:
    """The transfers of a board: ``to_ns`` is signed (negative: tricks go to E-W)."""

    rulings: tuple[RevokeRuling, ...] = ()
    to_ns: int = 0

    def to_side(self, side: Side) -> int:
        return self.to_ns if side is Side.NS else -self.to_ns

    @property
    def director(self) -> bool:
        return any(r.director for r in self.rulings)


_NONE = Law64()  # a board without revokes: nothing to rule on


def apply_law64(
    revokes: Sequence[Revoke], winners: Sequence[Seat], *, laws: Edition = "2017"
) -> Law64:
    """Rule on every revoke of a board (Law 64), given the winner of each trick in order.

    ``laws`` is the edition: the 2007 and 2017 texts of Law 64 differ here only at
    B7 (see below; B3's wording changed without changing what a record can show,
    and B8, a revoke corrected under 62C3, is new in 2017 but never in a record).
    Several revokes by one side are ruled one by one, chronologically; a trick is
    transferred once only, each revoke taking from the tricks its side won from
    its own trick on, latest revoke first (laws.md section 2.2, a convention).
    """
    if not revokes:
        return _NONE
    ordered = sorted(revokes, key=lambda r: r.trick)
    established = [r for r in ordered if r.established]
    # 64B7 differs: 2017 "both sides revoked ... and both revokes are established";
    # 2007 "both sides have revoked on the same board", a corrected revoke included
    counted = established if laws == "2017" else ordered
    both_sides = len({r.side for r in counted}) == 2 and bool(established)
    decisions: dict[int, tuple[str, int, bool]] = {}  # index in ordered -> rule, entitled, dir
    seen: set[tuple[Seat, Suit]] = set()
    for i, r in enumerate(ordered):
        if not r.established:
            decisions[i] = ("62A", 0, False)
            continue
        first_in_suit = (r.player, r.suit) not in seen
        seen.add((r.player, r.suit))
        later = [t for t in range(r.trick, len(winners) + 1) if winners[t - 1].side is r.side]
        if both_sides:
            decisions[i] = ("64B7", 0, True)
        elif r.attention_after_round:
            decisions[i] = ("64B5", 0, True)
        elif r.dummy or r.penalty_card:
            decisions[i] = ("64B3", 0, True)
        elif r.trick >= 12:
            decisions[i] = ("64B6", 0, True)
        elif not first_in_suit:
            decisions[i] = ("64B2", 0, True)
        elif not later:
            decisions[i] = ("64B1", 0, True)
        elif r.trick <= len(winners) and winners[r.trick - 1] is r.player:
            decisions[i] = ("64A1", 1 + (1 if any(t > r.trick for t in later) else 0), False)
        else:
            decisions[i] = ("64A2", 1, False)
    taken: set[int] = set()
    moved: dict[int, int] = {}
    for i in sorted(decisions, key=lambda k: -ordered[k].trick):
        rule, entitled, _ = decisions[i]
        r = ordered[i]
        got = 0
        for t in range(len(winners), r.trick - 1, -1):
            if got >= entitled:
                break
            if t not in taken and winners[t - 1].side is r.side:
                taken.add(t)
                got += 1
        moved[i] = got
    rulings: list[RevokeRuling] = []
    to_ns = 0
    for i, r in enumerate(ordered):
        rule, entitled, director = decisions[i]
        rulings.append(RevokeRuling(r, rule, entitled, moved.get(i, 0), director))
        to_ns += moved.get(i, 0) * (1 if r.side is Side.EW else -1)
    return Law64(rulings=tuple(rulings), to_ns=to_ns)
