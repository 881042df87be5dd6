"""Law 78B: the IMP scale, and the older scales PBN's Scoring tag can name.

Differences that are not multiples of 10 (an unrounded datum, an average) fall
between the rows of the table; the Laws do not say which way. The default reads
the table by lower bounds (15 -> 0, like most scorers); ``rounding="nearest"``
first rounds the difference to 10 (half away from zero), ``"upper"`` reads by
upper bounds (11 -> 1).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Literal

ImpRounding = Literal["lower", "nearest", "upper"]

# Lower bound of each IMP step of the current scale (Law 78B, in use since 1962).
_CURRENT = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900,
    1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip

SCALES: dict[str, tuple[int, ...]] = {"IMP": _CURRENT}


def imp_thresholds(
    scale: str = "IMP", rounding: ImpRounding = "lower"
) -> tuple[tuple[float, ...], bool]:
    """Where the IMP steps start, for a difference's magnitude, and whether reaching a
    threshold is enough (``False``: it must be passed). ``imps`` counts the thresholds
    a difference reaches; cross-IMPs count them with binary searches.

    ``"nearest"`` rounds to 10 half away from zero first, so a step starting at ``b``
    starts at ``b - 5``; ``"upper"`` rounds up to 10, so it starts just past ``b - 10``.
    """
    try:
        bounds = SCALES[scale]
    except KeyError:
        raise ValueError(f"unknown IMP scale {scale!r}; known: {', '.join(SCALES)}") from None
    if rounding == "nearest":
        return tuple(b - 5.0 for b in bounds), True
    if rounding == "upper":
        return tuple(b - 10.0 for b in bounds), False
    return tuple(float(b) for b in bounds), True


def imps(diff: float, *, scale: str = "IMP", rounding: ImpRounding = "lower") -> int:
    """IMPs for a score difference, with its sign: ``imps(420) == 9``, ``imps(-420) == -9``."""
    thresholds, reach = imp_thresholds(scale, rounding)
    a = abs(diff)
    n = bisect_right(thresholds, a) if reach else bisect_left(thresholds, a)
    return -n if diff < 0 else n
