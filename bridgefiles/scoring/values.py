"""The five value forms shared by Score, ScoreIMP, ScoreMP, ScorePercentage (PBN 10.1).

``"<v>"`` is the declarer's side's value, ``"NS <v>"``/``"EW <v>"`` one side's, and
``"NS <v> EW <w>"`` (either order) both. Values are kept as Decimal so ``"EW -2.5"``
compares exactly, and a ``^`` (artificial score) mark is kept.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.seats import Seat, Side

_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)"
_BARE = re.compile(rf"^\s*(\^?)\s*({_NUMBER})\s*$")
_SIDED = re.compile(
    rf"^\s*(\^?)\s*(NS|EW)\s+({_NUMBER})(?:\s+(NS|EW)\s+({_NUMBER}))?\s*$", re.IGNORECASE
)


class SidedValue(BaseModel):
    """A parsed score-tag value: for declarer's side, or for NS and/or EW."""

    model_config = ConfigDict(frozen=True)

    declarer: Decimal | None = None  # the bare form
    ns: Decimal | None = None
    ew: Decimal | None = None
    artificial: bool = False

    @classmethod
    def parse(cls, text: str) -> SidedValue:
        """Any of the five forms; ValueError when it is none of them."""
        try:
            m = _BARE.match(text)
            if m:
                return cls(declarer=Decimal(m.group(2)), artificial=bool(m.group(1)))
            m = _SIDED.match(text)
            if not m:
                raise ValueError(f"not a score value: {text!r}")
            values = {m.group(2).upper(): Decimal(m.group(3))}
            if m.group(4):
                if m.group(4).upper() in values:
                    raise ValueError(f"a side is given twice: {text!r}")
                values[m.group(4).upper()] = Decimal(m.group(5))
        except InvalidOperation:
            raise ValueError(f"not a score value: {text!r}") from None
        return cls(ns=values.get("NS"), ew=values.get("EW"), artificial=bool(m.group(1)))

    def points_for(self, side: Side, declarer: Seat | None) -> Decimal | None:
        """One side's points, reading a Score tag: a side not given is the other's negative."""
        own, other = (self.ns, self.ew) if side is Side.NS else (self.ew, self.ns)
        if own is not None:
            return own
        if other is not None:
            return -other
        if self.declarer is not None and declarer is not None:
            return self.declarer if declarer.side is side else -self.declarer
        return None

    def given_for(self, side: Side, declarer: Seat | None) -> Decimal | None:
        """The value written for ``side`` itself, if any (no negation: for MP, IMP, %)."""
        own = self.ns if side is Side.NS else self.ew
        if own is not None:
            return own
        if self.declarer is not None and declarer is not None and declarer.side is side:
            return self.declarer
        return None


def format_number(value: Decimal | float | int, places: int = 2) -> str:
    """A number as score tags write it: integers bare, others to ``places`` decimals
    (halves rounded away from zero, as printed score sheets do)."""
    d = Decimal(str(value)) if not isinstance(value, Decimal) else value
    if not d.is_finite():
        raise ValueError(f"not a finite number: {value!r}")
    with localcontext() as context:  # as many digits as the value has: never too few
        context.prec = max(28, d.adjusted() + places + 2)
        q = d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
        if q == q.to_integral_value():
            return str(int(q))
        return format(q.normalize(), "f")


def format_sided(side: Side, value: Decimal | float | int, places: int = 2) -> str:
    """``NS 620``, ``EW -2.5``: the one-side form our writer uses (no declarer needed)."""
    return f"{side.value} {format_number(value, places)}"
