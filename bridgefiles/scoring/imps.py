"""Law 78B: the IMP scale, and the older scales PBN's Scoring tag can name.

Differences that are not multiples of 10 (an unrounded datum, an average) fall
between the rows of the table; the Laws do not say which way. The default reads
the table by lower bounds (15 -> 0, like most scorers); ``rounding="nearest"``
first rounds the difference to 10 (half away from zero), ``"upper"`` reads by
upper bounds (11 -> 1).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from typing import Literal

ImpRounding = Literal["lower", "nearest", "upper"]

# Lower bound of each IMP step of the current scale (Law 78B, in use since 1962).
_CURRENT = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900,
    1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip

SCALES: dict[str, tuple[int, ...]] = {"IMP": _CURRENT}


def _magnitude(diff: float, rounding: ImpRounding) -> float:
    a = abs(diff)
    if rounding == "nearest":
        return math.floor(a / 10 + 0.5) * 10
    if rounding == "upper":
        return math.ceil(a / 10) * 10
    return a


def imps(diff: float, *, scale: str = "IMP", rounding: ImpRounding = "lower") -> int:
    """IMPs for a score difference, with its sign: ``imps(420) == 9``, ``imps(-420) == -9``."""
    try:
        bounds = SCALES[scale]
    except KeyError:
        raise ValueError(f"unknown IMP scale {scale!r}; known: {', '.join(SCALES)}") from None
    n = bisect_right(bounds, _magnitude(diff, rounding))
    return -n if diff < 0 else n
