"""IMP pairs: Butler (IMPs against a datum) and cross-IMPs (PBN ``Butler``, ``Cross``...).

Organisers differ, so each choice is a setting with the common default:
how many results are discarded at each end before averaging (PBN ``Butler``: none;
``Butler-2``: the single top and bottom; ``"auto"``: 1 for 4-10 results, 2 for
11-25, 3 for 26-40 ...), mean or median, rounding of the datum to 10 and how
halves go (``"away"`` from zero by default, ``"up"`` like JavaScript's Math.round,
``"even"`` like Python's round), and how cross-IMP sums are divided.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from typing import Literal

from bridgefiles.scoring.imps import ImpRounding, imps

Discard = int | Literal["auto"]
Average = Literal["mean", "median"]
Half = Literal["away", "up", "even"]
CrossDivide = Literal["comparisons", "scores", "none"]


def discard_count(results: int, discard: Discard) -> int:
    """Results dropped at each end; never so many that fewer than one remains."""
    if discard == "auto":
        n = 0 if results <= 3 else math.ceil((results - 10) / 15) + 1
    else:
        n = discard
    while n > 0 and results - 2 * n < 1:
        n -= 1
    return max(n, 0)


def round_to(value: float, step: int, half: Half = "away") -> float:
    """``value`` rounded to a multiple of ``step`` (0: not rounded)."""
    if step <= 0:
        return value
    q = Decimal(str(value)) / step
    if half == "up":
        r = Decimal(math.floor(q + Decimal("0.5")))
    elif half == "even":
        r = q.quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
    else:
        r = q.quantize(Decimal(1), rounding=ROUND_HALF_UP)  # half away from zero
    return float(r * step)


def butler_datum(
    ns_scores: Sequence[float],
    *,
    discard: Discard = 1,
    average: Average = "mean",
    round_datum: int = 10,
    half: Half = "away",
) -> float:
    """The datum: the average N-S score after dropping ``discard`` results at each end."""
    if not ns_scores:
        raise ValueError("no scores to average")
    ordered = sorted(ns_scores)
    n = discard_count(len(ordered), discard)
    kept = ordered[n : len(ordered) - n]
    centre = statistics.median(kept) if average == "median" else statistics.fmean(kept)
    return round_to(centre, round_datum, half)


def butler(
    ns_scores: Sequence[float],
    *,
    discard: Discard = 1,
    average: Average = "mean",
    round_datum: int = 10,
    half: Half = "away",
    rounding: ImpRounding = "lower",
) -> list[int]:
    """N-S IMPs of each result against the datum (E-W get the negatives)."""
    datum = butler_datum(
        ns_scores, discard=discard, average=average, round_datum=round_datum, half=half
    )
    return [imps(s - datum, rounding=rounding) for s in ns_scores]


def cross_imps(
    ns_scores: Sequence[float],
    *,
    divide: CrossDivide = "comparisons",
    rounding: ImpRounding = "lower",
) -> list[float]:
    """N-S cross-IMPs: each result IMPed against every other one, summed.

    ``divide``: by the number of comparisons (N-1, PBN ``Cross2``, the default),
    by the number of scores (N, ``Cross1``), or not at all (``Cross``).
    """
    n = len(ns_scores)
    sums = [
        sum(imps(s - t, rounding=rounding) for j, t in enumerate(ns_scores) if j != i)
        for i, s in enumerate(ns_scores)
    ]
    by = {"comparisons": n - 1, "scores": n, "none": 1}[divide]
    return [float(s) / by if by > 0 else 0.0 for s in sums]
