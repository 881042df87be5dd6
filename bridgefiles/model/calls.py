"""Calls (pass, double, redouble, the 35 bids) and contracts.

The 38 calls are interned, like the cards. A call serialises as its PBN text
(``Pass``, ``X``, ``XX``, ``1NT``).
"""

from __future__ import annotations

import re
from enum import Enum
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict, model_serializer, model_validator

from bridgefiles.errors import UsageError
from bridgefiles.model.cards import Strain


class CallKind(str, Enum):
    """What a call is: a pass, a double, a redouble or a bid (Law 18 names them so)."""

    PASS = "pass"
    DOUBLE = "double"
    REDOUBLE = "redouble"
    BID = "bid"


class Call(BaseModel):
    """One call of the auction. ``level`` and ``strain`` are set for bids only."""

    model_config = ConfigDict(frozen=True)

    kind: CallKind
    level: int | None = None
    strain: Strain | None = None

    @classmethod
    def bid(cls, level: int, strain: Strain) -> Call:
        return _BIDS[(level, strain)]

    @classmethod
    def parse(cls, text: str) -> Call:
        """PBN or LIN spelling: ``Pass``/``P``, ``X``/``D``, ``XX``/``R``, ``1NT``/``1N``.

        Anything else raises :class:`UsageError` (a ValueError too, which readers catch)."""
        try:
            call = _BY_TEXT.get(text)
        except TypeError:  # unhashable: not text (the check waits, off the common path)
            call = None
        if call is not None:
            return call
        if not isinstance(text, str):
            raise UsageError(f"Call.parse needs a str, not {type(text).__name__}")
        call = _BY_TEXT.get(text.strip().upper())
        if call is None:
            raise UsageError(f"not a call: {text!r}")
        return call

    @property
    def is_bid(self) -> bool:
        return self.kind is CallKind.BID

    @property
    def is_pass(self) -> bool:
        return self.kind is CallKind.PASS

    @cached_property
    def index(self) -> int:
        """Bid order 0 (1C) .. 34 (7NT) (Law 18); -1 for other calls.

        Cached (the interned calls have it set when built): the Laws compare bids by it
        for every call of every auction.
        """
        if self.level is None or self.strain is None:
            return -1
        return 5 * (self.level - 1) + self.strain.order

    @property
    def text(self) -> str:
        """The PBN spelling."""
        if self.kind is CallKind.PASS:
            return "Pass"
        if self.kind is CallKind.DOUBLE:
            return "X"
        if self.kind is CallKind.REDOUBLE:
            return "XX"
        assert self.strain is not None
        return f"{self.level}{self.strain.value}"

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        if isinstance(value, str):
            call = Call.parse(value)
            return {"kind": call.kind, "level": call.level, "strain": call.strain}
        return value

    @model_serializer
    def _serialise(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Call({self.text})"

    def __hash__(self) -> int:
        return hash((self.kind, self.level, self.strain))


PASS = Call.model_construct(kind=CallKind.PASS, level=None, strain=None)
DOUBLE = Call.model_construct(kind=CallKind.DOUBLE, level=None, strain=None)
REDOUBLE = Call.model_construct(kind=CallKind.REDOUBLE, level=None, strain=None)
_BIDS: dict[tuple[int, Strain], Call] = {
    (level, strain): Call.model_construct(kind=CallKind.BID, level=level, strain=strain)
    for level in range(1, 8)
    for strain in Strain
}
ALL_BIDS: tuple[Call, ...] = tuple(sorted(_BIDS.values(), key=lambda c: c.index))
for _interned in (PASS, DOUBLE, REDOUBLE):
    _ = _interned.index  # every interned call has its index filled, as the bids have by the sort
_BY_TEXT: dict[str, Call] = {
    "PASS": PASS,
    "Pass": PASS,
    "pass": PASS,
    "P": PASS,
    "X": DOUBLE,
    "D": DOUBLE,
    "DBL": DOUBLE,
    "XX": REDOUBLE,
    "R": REDOUBLE,
    "RDBL": REDOUBLE,
}
for (_level, _strain), _call in _BIDS.items():
    _BY_TEXT[f"{_level}{_strain.value}"] = _call
    if _strain is Strain.NT:
        _BY_TEXT[f"{_level}N"] = _call


class Risk(str, Enum):
    """Undoubled, doubled or redoubled; values are the PBN suffixes."""

    NONE = ""
    DOUBLED = "X"
    REDOUBLED = "XX"


_CONTRACT_RE = re.compile(r"^([1-7])(NT|N|S|H|D|C)(XX|X|R|D)?$")


class Contract(BaseModel):
    """A final contract, ``Pass`` for a passed-out board, or (end positions) a strain only."""

    model_config = ConfigDict(frozen=True)

    level: int | None = None
    strain: Strain | None = None
    risk: Risk = Risk.NONE
    passed_out: bool = False

    @classmethod
    def parse(cls, text: str) -> Contract:
        """``4HX``, ``3NT``, ``7CXX``, ``Pass``; lower case and ``3N`` are accepted too.

        A strain alone (``H``, ``NT``) is the contract of an end position.
        """
        t = text.strip().upper()
        found = _CONTRACT_TEXTS.get(t)
        if found is not None:
            return found
        if t in ("PASS", "P", "AP"):
            return PASSED_OUT
        m = _CONTRACT_RE.match(t)
        if m:
            risk = {"": Risk.NONE, "X": Risk.DOUBLED, "D": Risk.DOUBLED}.get(
                m.group(3) or "", Risk.REDOUBLED
            )
            return cls.of(int(m.group(1)), Strain.parse(m.group(2)), risk)
        if t in ("S", "H", "D", "C", "NT"):
            return cls(strain=Strain(t))
        raise ValueError(f"not a contract: {text!r}")

    @classmethod
    def of(cls, level: int, strain: Strain, risk: Risk = Risk.NONE) -> Contract:
        """The contract ``level`` ``strain`` ``risk``: one shared value each (frozen), so the
        Laws name a final contract without building and validating a model every board."""
        found = _CONTRACTS.get((level, strain, risk))
        if found is None:
            found = cls(level=level, strain=strain, risk=risk)  # a level out of 1-7: validated
        return found

    @property
    def text(self) -> str:
        """Normalised form: ``3NT``, ``4HX``, ``7NTXX``, ``Pass``, or ``H`` for an end position."""
        if self.passed_out:
            return "Pass"
        if self.strain is None:
            return "?"
        if self.level is None:
            return self.strain.value
        return f"{self.level}{self.strain.value}{self.risk.value}"

    @property
    def doubled(self) -> bool:
        return self.risk is Risk.DOUBLED

    @property
    def redoubled(self) -> bool:
        return self.risk is Risk.REDOUBLED

    def __str__(self) -> str:
        return self.text


PASSED_OUT = Contract(passed_out=True)
_CONTRACTS: dict[tuple[int, Strain, Risk], Contract] = {
    (level, strain, risk): Contract(level=level, strain=strain, risk=risk)
    for level in range(1, 8)
    for strain in Strain
    for risk in Risk
}
# Every spelling _CONTRACT_RE accepts, to its shared value: parse is one dict lookup.
_CONTRACT_TEXTS: dict[str, Contract] = {
    f"{level}{strain_text}{risk_text}": _CONTRACTS[(level, Strain.parse(strain_text), risk)]
    for level in range(1, 8)
    for strain_text in ("NT", "N", "S", "H", "D", "C")
    for risk_text, risk in (
        ("", Risk.NONE),
        ("X", Risk.DOUBLED),
        ("D", Risk.DOUBLED),
        ("XX", Risk.REDOUBLED),
        ("R", Risk.REDOUBLED),
    )
}
