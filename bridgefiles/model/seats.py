"""Seats, sides, rotation and vulnerability.

Rotation is clockwise N -> E -> S -> W (Law 17). Seats are a str enum so they
serialise as the PBN letters.
"""

from __future__ import annotations

from enum import Enum

from bridgefiles.errors import UsageError


class Side(str, Enum):
    """A partnership."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    def __str__(self) -> str:
        return self.value


class Seat(str, Enum):
    """A player's seat, named by its compass letter."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def order(self) -> int:
        """Position in the rotation N=0, E=1, S=2, W=3."""
        return _INDEX[self]

    def offset(self, steps: int) -> Seat:
        """The seat ``steps`` places clockwise (negative: anticlockwise)."""
        return ROTATION[(_INDEX[self] + steps) % 4]

    # Table lookups, not arithmetic: the Laws ask these in their hottest loops.
    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat in the rotation."""
        return _LHO[self]

    @property
    def partner(self) -> Seat:
        return _PARTNER[self]

    @property
    def rho(self) -> Seat:
        """Right-hand opponent: the previous seat in the rotation."""
        return _RHO[self]

    @property
    def side(self) -> Side:
        return _SIDE[self]

    @property
    def full_name(self) -> str:
        return _NAMES[self]

    def distance(self, other: Seat) -> int:
        """How many places clockwise ``other`` sits from this seat (0-3)."""
        return (_INDEX[other] - _INDEX[self]) % 4

    @classmethod
    def parse(cls, text: str) -> Seat:
        """A seat from its letter, upper or lower case (PBN import allows both); anything else
        raises :class:`UsageError` (a ValueError too, which readers catch)."""
        if not isinstance(text, str):
            raise UsageError(f"Seat.parse needs a str, not {type(text).__name__}")
        try:
            return _BY_LETTER[text.strip().upper()]
        except KeyError:
            raise UsageError(f"not a seat: {text!r}") from None

    def __str__(self) -> str:
        return self.value


ROTATION: tuple[Seat, Seat, Seat, Seat] = (Seat.N, Seat.E, Seat.S, Seat.W)
_INDEX = {seat: i for i, seat in enumerate(ROTATION)}
SEAT_ORDER: dict[Seat, int] = dict(_INDEX)
"""A seat's place in the rotation (N=0 .. W=3), for loops that count seats as numbers:
``ROTATION[(SEAT_ORDER[s] + k) & 3]`` is ``s.offset(k)``; a seat's side is its order's
parity (``SIDE_BY_ORDER``)."""
SIDE_BY_ORDER: tuple[Side, Side, Side, Side] = (Side.NS, Side.EW, Side.NS, Side.EW)
_LHO = {seat: ROTATION[(i + 1) % 4] for seat, i in _INDEX.items()}
_PARTNER = {seat: ROTATION[(i + 2) % 4] for seat, i in _INDEX.items()}
_RHO = {seat: ROTATION[(i + 3) % 4] for seat, i in _INDEX.items()}
_SIDE = {seat: SIDE_BY_ORDER[i] for seat, i in _INDEX.items()}
_BY_LETTER = {seat.value: seat for seat in ROTATION}
_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


def rotation_from(first: Seat) -> tuple[Seat, Seat, Seat, Seat]:
    """The four seats in calling or playing order, starting with ``first``."""
    return (first, first.offset(1), first.offset(2), first.offset(3))


class Vulnerability(str, Enum):
    """Which sides are vulnerable; values are the PBN export spellings."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    def is_vulnerable(self, who: Seat | Side) -> bool:
        side = _SIDE[who] if isinstance(who, Seat) else who
        return side in _VULNERABLE_SIDES[self]

    @classmethod
    def parse(cls, text: str) -> Vulnerability:
        """Any PBN spelling: None/Love/-, NS, EW, All/Both, case-insensitive."""
        try:
            return _VUL_SPELLINGS[text.strip().lower()]
        except KeyError:
            raise ValueError(f"not a vulnerability: {text!r}") from None

    def __str__(self) -> str:
        return self.value


_VUL_SPELLINGS = {
    "none": Vulnerability.NONE,
    "love": Vulnerability.NONE,
    "-": Vulnerability.NONE,
    "ns": Vulnerability.NS,
    "ew": Vulnerability.EW,
    "all": Vulnerability.ALL,
    "both": Vulnerability.ALL,
}
_VULNERABLE_SIDES: dict[Vulnerability, frozenset[Side]] = {
    Vulnerability.NONE: frozenset(),
    Vulnerability.NS: frozenset((Side.NS,)),
    Vulnerability.EW: frozenset((Side.EW,)),
    Vulnerability.ALL: frozenset((Side.NS, Side.EW)),
}
