"""Typed values of a double-dummy analysis, and the tag forms real files write them in.

A :class:`DDTable` is the 20 trick counts (declarer N, S, E, W x strain NT, S, H, D, C,
the order of BridgeComposer's ``DoubleDummyTricks``); a :class:`Par` is the par score
(North-South's view) and the par contracts. Both parse and write the tags files carry:

>>> table = DDTable.from_hex("2333223332aaaabaaaab")
>>> table.tricks_for(Seat.E, Strain.C)
11
>>> contract = ParContract.parse("NS 4SX-3")[0]
>>> contract.score(vulnerable=False)
-500
>>> Par(score=-430, contracts=ParContract.parse("EW 3N+1")).optimum_score
'EW 430'
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, field_validator

from bridgefiles.model.cards import Strain
from bridgefiles.model.seats import Seat, Side, Vulnerability

# The order of DoubleDummyTricks and of the rows BridgeComposer writes in OptimumResultTable.
TABLE_SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.N, Seat.S, Seat.E, Seat.W)
TABLE_STRAINS: tuple[Strain, ...] = (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C)
# Display order of a makeable-contracts grid: the order of bidding, clubs to notrump.
GRID_STRAINS: tuple[Strain, ...] = (Strain.C, Strain.D, Strain.H, Strain.S, Strain.NT)
_HEX = "0123456789abcd"
_UNKNOWN_TRICKS = "-*?"


def cell(seat: Seat, strain: Strain) -> int:
    """Index of (declarer, strain) in the 20 counts: ``TABLE_SEATS`` x ``TABLE_STRAINS``."""
    return TABLE_SEATS.index(seat) * 5 + TABLE_STRAINS.index(strain)


class DDTable(BaseModel):
    """The double-dummy tricks each seat takes as declarer in each strain.

    >>> DDTable.from_hex("2333223332aaaabaaaab").hex
    '2333223332aaaabaaaab'
    """

    model_config = ConfigDict(frozen=True)

    tricks: tuple[int, ...]  # 20 counts, TABLE_SEATS x TABLE_STRAINS

    @field_validator("tricks")
    @classmethod
    def _twenty_counts(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if len(value) != 20 or any(not 0 <= n <= 13 for n in value):
            raise ValueError("a double-dummy table is 20 trick counts from 0 to 13")
        return value

    def tricks_for(self, declarer: Seat, strain: Strain) -> int:
        return self.tricks[cell(declarer, strain)]

    @classmethod
    def from_hex(cls, text: str) -> DDTable:
        """BridgeComposer's ``DoubleDummyTricks``: 20 hexadecimal digits, all known."""
        known = parse_hex(text)
        if any(n is None for n in known):
            raise ValueError(f"DoubleDummyTricks with unknown counts: {text!r}")
        return cls(tricks=tuple(n for n in known if n is not None))

    @property
    def hex(self) -> str:
        """The ``DoubleDummyTricks`` value."""
        return "".join(_HEX[n] for n in self.tricks)

    def rows(self) -> list[tuple[Seat, Strain, int]]:
        """(declarer, strain, tricks) in the tag's order: the rows of OptimumResultTable."""
        return [(s, st, self.tricks_for(s, st)) for s in TABLE_SEATS for st in TABLE_STRAINS]

    def makeable(self, declarer: Seat, strain: Strain) -> int | None:
        """The highest level ``declarer`` makes in ``strain``, None below one."""
        level = self.tricks_for(declarer, strain) - 6
        return level if level >= 1 else None


def parse_hex(text: str) -> list[int | None]:
    """The 20 counts of a ``DoubleDummyTricks`` value; None where the file says unknown
    (``-``, ``*``). Raises ValueError when it is not 20 such characters."""
    t = text.strip()
    if len(t) != 20:
        raise ValueError(f"DoubleDummyTricks is not 20 characters: {text!r}")
    out: list[int | None] = []
    for ch in t.lower():
        if ch in _UNKNOWN_TRICKS:
            out.append(None)
        elif ch in _HEX:
            out.append(_HEX.index(ch))
        else:
            raise ValueError(f"DoubleDummyTricks has {ch!r}, not a count 0-d: {text!r}")
    return out


_PAR_RE = re.compile(r"(NS|EW|N|E|S|W)\s*([1-7])(NT|N|S|H|D|C)(X{0,2})(=|[+-]\d{1,2})?",
                     re.IGNORECASE)
_SIDES = {"NS": Side.NS, "EW": Side.EW}


class ParContract(BaseModel):
    """One par contract: ``"NS 4SX-3"`` (a side), or ``"S 1N="`` when only one partner
    makes it. ``result`` counts overtricks, negative for undertricks (a sacrifice).

    >>> ParContract.parse("EW 5C=; EW 5D=")[1].text
    'EW 5D='
    """

    model_config = ConfigDict(frozen=True)

    declarer: str  # "NS", "EW" or one seat letter
    level: int
    strain: Strain
    doubled: bool = False
    result: int = 0

    @property
    def side(self) -> Side:
        return _SIDES.get(self.declarer) or Seat(self.declarer).side

    @property
    def text(self) -> str:
        strain = "N" if self.strain is Strain.NT else self.strain.value
        result = "=" if self.result == 0 else f"{self.result:+d}"
        return f"{self.declarer} {self.level}{strain}{'X' if self.doubled else ''}{result}"

    @property
    def tricks(self) -> int:
        return self.level + 6 + self.result

    def score(self, vulnerable: bool) -> int:
        """Points to the declaring side (Law 77)."""
        from bridgefiles.scoring import contract_score

        contract = f"{self.level}{self.strain.value}{'X' if self.doubled else ''}"
        return contract_score(contract, vulnerable, self.tricks)

    @classmethod
    def parse(cls, text: str) -> tuple[ParContract, ...]:
        """A ``ParContract`` value: contracts joined by ``;`` or ``,``; empty for a pass-out
        (``Pass``, ``NS Pass``). Raises ValueError on anything else."""
        out: list[ParContract] = []
        for part in re.split(r"[;,]", text):
            item = part.strip()
            if not item or re.fullmatch(r"(?:(?:NS|EW)\s+)?pass(?:ed out)?", item, re.I):
                continue
            m = _PAR_RE.fullmatch(item)
            if m is None or len(m.group(4)) > 1:
                raise ValueError(f"not a par contract: {item!r}")
            result = m.group(5) or "="
            out.append(cls(declarer=m.group(1).upper(), level=int(m.group(2)),
                           strain=Strain.parse(m.group(3)),
                           doubled=bool(m.group(4)), result=0 if result == "=" else int(result)))
        if not out and not re.search(r"pass", text, re.I):
            raise ValueError(f"not a par contract: {text!r}")
        return tuple(out)


class Par(BaseModel):
    """The par of a deal: ``score`` from North-South's view, and the contracts that give it
    (none when the par is to pass the deal out).

    >>> Par(score=-100, contracts=ParContract.parse("NS 4SX-1")).optimum_score
    'NS -100'
    """

    model_config = ConfigDict(frozen=True)

    score: int
    contracts: tuple[ParContract, ...] = ()

    @property
    def side(self) -> Side:
        """The side whose contracts these are (North-South when the deal is passed out)."""
        return self.contracts[0].side if self.contracts else Side.NS

    @property
    def optimum_score(self) -> str:
        """The ``OptimumScore`` value, from the view of the side that declares the par
        contract, as BridgeComposer writes it (``"EW 430"``, ``"NS -100"``)."""
        side = self.side
        return f"{side.value} {self.score if side is Side.NS else -self.score}"

    @property
    def par_contract(self) -> str:
        """The ``ParContract`` value: ``"NS 4SX-3"``, ``"EW 5C=; EW 5D="``, ``"Pass"``."""
        return "; ".join(c.text for c in self.contracts) if self.contracts else "Pass"


def parse_optimum_score(text: str) -> int:
    """North-South's score from an ``OptimumScore`` value in any of its four PBN forms
    (``"NS 420"``, ``"EW -420"``, ``"NS 420 EW -420"``, ``"EW -420 NS 420"``).

    >>> parse_optimum_score("EW 430")
    -430
    """
    m = re.fullmatch(r"\s*(NS|EW)\s+([+-]?\d+)(?:\s+(NS|EW)\s+([+-]?\d+))?\s*", text, re.I)
    if m is None:
        raise ValueError(f"not an optimum score: {text!r}")
    first = int(m.group(2)) if m.group(1).upper() == "NS" else -int(m.group(2))
    if m.group(3):
        second = int(m.group(4)) if m.group(3).upper() == "NS" else -int(m.group(4))
        if m.group(3).upper() == m.group(1).upper() or second != first:
            raise ValueError(f"the two sides' optimum scores disagree: {text!r}")
    return first


def vulnerable_sides(vulnerability: Vulnerability) -> tuple[bool, bool]:
    """(North-South vulnerable, East-West vulnerable)."""
    return vulnerability.is_vulnerable(Side.NS), vulnerability.is_vulnerable(Side.EW)
