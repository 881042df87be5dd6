"""Rubber bridge: one deal scored above and below the line, and the rubber's state.

PBN carries the state at the start of a deal in ``ScoreRubberHistory``
(``NS <previous rubbers> <above>/<game 1> [<game 2> [<game 3>]] EW ...``) and the
deal's own points in ``ScoreRubber`` (``NS <above>/<below> EW <above>/<below>``).
Law 77's premiums apply, except the per-deal game and part-score premiums; a game
is 100 below the line, a side with a game is vulnerable, and the rubber (two games)
earns 700 (2-0) or 500 (2-1). Honours count above the line for whichever side holds
them. Unfinished rubbers (300 for a game, and a part-score premium that sources give
as 100 or 50) are a setting of :func:`unfinished_bonus`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bridgefiles.model.calls import Contract
from bridgefiles.model.cards import Rank, Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.seats import Seat, Side
from bridgefiles.scoring.duplicate import (
    as_contract,
    made_premiums,
    trick_score,
    undertrick_penalty,
)

_SIDE = re.compile(
    r"^\s*(\d+)\s+(\d+)\s*/\s*(\d+(?:\s+\d+){0,2})\s*$",
)
_HISTORY = re.compile(r"^\s*(NS|EW)\s+(.*?)\s+(NS|EW)\s+(.*?)\s*$", re.IGNORECASE)
_HONOURS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)


@dataclass(frozen=True)
class SideHistory:
    """One side's rubber state: points of finished rubbers, above the line, games below."""

    previous: int = 0
    above: int = 0
    below: tuple[int, ...] = (0,)

    def text(self) -> str:
        return f"{self.previous} {self.above} / {' '.join(str(b) for b in self.below)}"


@dataclass(frozen=True)
class RubberState:
    """Both sides' state at the start of a deal (a ``ScoreRubberHistory`` value)."""

    ns: SideHistory = SideHistory()
    ew: SideHistory = SideHistory()

    @classmethod
    def parse(cls, text: str) -> RubberState:
        """``NS 0 0 / 100 0 EW 0 0 / 0 0``; ValueError for anything else."""
        m = _HISTORY.match(text)
        if not m or m.group(1).upper() == m.group(3).upper():
            raise ValueError(f"not a rubber history: {text!r}")
        sides = {m.group(1).upper(): _side(m.group(2)), m.group(3).upper(): _side(m.group(4))}
        state = cls(ns=sides["NS"], ew=sides["EW"])
        if len(state.ns.below) != len(state.ew.below):
            raise ValueError(f"both sides need the same number of games: {text!r}")
        return state

    def text(self) -> str:
        return f"NS {self.ns.text()} EW {self.ew.text()}"

    def of(self, side: Side) -> SideHistory:
        return self.ns if side is Side.NS else self.ew

    def games(self, side: Side) -> int:
        """Games won so far in this rubber (every finished game has one side at 100+)."""
        mine, theirs = self.of(side).below, self.of(side.other).below
        return sum(1 for a, _ in zip(mine[:-1], theirs[:-1], strict=True) if a >= 100)

    def vulnerable(self, side: Side) -> bool:
        return self.games(side) >= 1


def _side(text: str) -> SideHistory:
    m = _SIDE.match(text)
    if not m:
        raise ValueError(f"not a side's rubber history: {text!r}")
    below = tuple(int(x) for x in m.group(3).split())
    return SideHistory(previous=int(m.group(1)), above=int(m.group(2)), below=below)


@dataclass(frozen=True)
class DealScore:
    """A deal's points above and below the line for each side (a ``ScoreRubber`` value)."""

    ns_above: int = 0
    ns_below: int = 0
    ew_above: int = 0
    ew_below: int = 0

    def text(self) -> str:
        return f"NS {self.ns_above}/{self.ns_below} EW {self.ew_above}/{self.ew_below}"


def honours(deal: Deal | None, strain: Strain) -> dict[Side, int]:
    """Honours held: 4 trump honours in one hand 100, all 5 150; 4 aces at notrump 150."""
    out = {Side.NS: 0, Side.EW: 0}
    if deal is None:
        return out
    trump = strain.trump
    for seat in Seat:
        hand = deal.hand(seat)
        if hand is None:
            continue
        if trump is None:
            if sum(1 for c in hand if c.rank is Rank.ACE) == 4:
                out[seat.side] += 150
            continue
        held = sum(1 for c in hand if c.suit is trump and c.rank in _HONOURS)
        out[seat.side] += 150 if held == 5 else 100 if held == 4 else 0
    return out


def score_deal(
    contract: str | Contract,
    declarer: Seat,
    tricks: int,
    state: RubberState,
    *,
    deal: Deal | None = None,
) -> tuple[DealScore, RubberState]:
    """The deal's points and the state after it (a new game, or a new rubber, as earned)."""
    c = as_contract(contract)
    side = declarer.side
    above = {Side.NS: 0, Side.EW: 0}
    below = {Side.NS: 0, Side.EW: 0}
    if not c.passed_out and c.level is not None and c.strain is not None:
        vul = state.vulnerable(side)
        needed = c.level + 6
        if tricks >= needed:
            below[side] = trick_score(c.level, c.strain, c.risk)
            above[side] += made_premiums(c, vul, tricks - needed)
        else:
            above[side.other] += undertrick_penalty(needed - tricks, vul, c.risk)
        for s, points in honours(deal, c.strain).items():
            above[s] += points
    score = DealScore(
        ns_above=above[Side.NS],
        ns_below=below[Side.NS],
        ew_above=above[Side.EW],
        ew_below=below[Side.EW],
    )
    return score, _advance(state, above, below)


def _advance(state: RubberState, above: dict[Side, int], below: dict[Side, int]) -> RubberState:
    sides = {s: state.of(s) for s in Side}
    games = {s: list(sides[s].below) for s in Side}
    for s in Side:
        games[s][-1] += below[s]
    ups = {s: sides[s].above + above[s] for s in Side}
    winner = next((s for s in Side if games[s][-1] >= 100), None)
    if winner is None:
        return RubberState(
            ns=SideHistory(sides[Side.NS].previous, ups[Side.NS], tuple(games[Side.NS])),
            ew=SideHistory(sides[Side.EW].previous, ups[Side.EW], tuple(games[Side.EW])),
        )
    won = state.games(winner) + 1
    if won < 2:
        for s in Side:
            games[s].append(0)
        return RubberState(
            ns=SideHistory(sides[Side.NS].previous, ups[Side.NS], tuple(games[Side.NS])),
            ew=SideHistory(sides[Side.EW].previous, ups[Side.EW], tuple(games[Side.EW])),
        )
    ups[winner] += 700 if state.games(winner.other) == 0 else 500
    totals = {s: sides[s].previous + ups[s] + sum(games[s]) for s in Side}
    return RubberState(ns=SideHistory(totals[Side.NS]), ew=SideHistory(totals[Side.EW]))


def unfinished_bonus(state: RubberState, side: Side, *, part_score: int = 100) -> int:
    """Premiums of a rubber left unfinished: 300 for a game up, ``part_score`` for a part
    score in the unfinished game (100 in the ACBL/WBF code; some clubs use 50)."""
    bonus = 300 if state.games(side) == 1 else 0
    if state.of(side).below[-1] > 0:
        bonus += part_score
    return bonus


_PAIR = r"(\d+)\s*/\s*(\d+)"
_RUBBER_BARE = re.compile(rf"^\s*{_PAIR}\s*$")
_RUBBER_SIDED = re.compile(rf"^\s*(NS|EW)\s+{_PAIR}(?:\s+(NS|EW)\s+{_PAIR})?\s*$", re.IGNORECASE)


def parse_score_rubber(text: str, declarer: Seat | None) -> dict[Side, tuple[int, int]]:
    """A ``ScoreRubber`` value as (above, below) per side given; the bare form is
    declarer's side's. ValueError when it is none of the five forms."""
    m = _RUBBER_BARE.match(text)
    if m:
        if declarer is None:
            return {}
        return {declarer.side: (int(m.group(1)), int(m.group(2)))}
    m = _RUBBER_SIDED.match(text)
    if not m:
        raise ValueError(f"not a rubber score: {text!r}")
    out = {Side(m.group(1).upper()): (int(m.group(2)), int(m.group(3)))}
    if m.group(4):
        other = Side(m.group(4).upper())
        if other in out:
            raise ValueError(f"a side is given twice: {text!r}")
        out[other] = (int(m.group(5)), int(m.group(6)))
    return out
