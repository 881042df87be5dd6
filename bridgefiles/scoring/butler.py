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
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from itertools import accumulate
from typing import Literal

from bridgefiles.scoring.imps import ImpRounding, imp_thresholds, imps

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


def _weights(ns_scores: Sequence[float], weights: Sequence[int] | None) -> list[int]:
    counts = list(weights) if weights is not None else [1] * len(ns_scores)
    if len(counts) != len(ns_scores) or any(w < 1 for w in counts):
        raise ValueError("one positive weight per score")
    return counts


def _weighted_median(runs: list[tuple[float, int]]) -> float:
    """The median of sorted (value, copies) runs, without repeating the values."""
    total = sum(w for _, w in runs)
    wanted = {(total - 1) // 2, total // 2}  # positions of the middle copy or two
    found: list[float] = []
    seen = 0
    for value, w in runs:
        found.extend(value for p in sorted(wanted) if seen <= p < seen + w)
        seen += w
    return sum(found) / len(found)


def butler_datum(
    ns_scores: Sequence[float],
    *,
    discard: Discard = 1,
    average: Average = "mean",
    round_datum: int = 10,
    half: Half = "away",
    weights: Sequence[int] | None = None,
) -> float:
    """The datum: the average N-S score after dropping ``discard`` results at each end.

    ``weights`` says how many equal results each score stands for (default 1 each).
    """
    if not ns_scores:
        raise ValueError("no scores to average")
    counts = _weights(ns_scores, weights)
    ordered = sorted(zip(ns_scores, counts, strict=True))
    n = discard_count(sum(counts), discard)
    kept = _trim(ordered, n)
    if average == "median":
        centre = _weighted_median(kept)
    else:
        centre = math.fsum(v * w for v, w in kept) / sum(w for _, w in kept)
    return round_to(centre, round_datum, half)


def _trim(runs: list[tuple[float, int]], n: int) -> list[tuple[float, int]]:
    """Sorted runs with ``n`` copies taken off each end."""
    out = list(runs)
    for index in (0, -1):
        left = n
        while left:
            value, w = out[index]
            if w > left:
                out[index] = (value, w - left)
                left = 0
            else:
                out.pop(index)
                left -= w
    return out


def butler(
    ns_scores: Sequence[float],
    *,
    discard: Discard = 1,
    average: Average = "mean",
    round_datum: int = 10,
    half: Half = "away",
    rounding: ImpRounding = "lower",
    weights: Sequence[int] | None = None,
) -> list[int]:
    """N-S IMPs of each result against the datum (E-W get the negatives)."""
    datum = butler_datum(
        ns_scores,
        discard=discard,
        average=average,
        round_datum=round_datum,
        half=half,
        weights=weights,
    )
    return [imps(s - datum, rounding=rounding) for s in ns_scores]


def cross_imps(
    ns_scores: Sequence[float],
    *,
    divide: CrossDivide = "comparisons",
    rounding: ImpRounding = "lower",
    weights: Sequence[int] | None = None,
) -> list[float]:
    """N-S cross-IMPs: each result IMPed against every other one, summed.

    ``divide``: by the number of comparisons (N-1, PBN ``Cross2``, the default),
    by the number of scores (N, ``Cross1``), or not at all (``Cross``). ``weights``
    says how many equal results each score stands for.

    Each IMP step is counted over all other scores at once, by binary searches in
    the sorted scores: 2 x 24 searches per distinct score, n log n in all.
    """
    counts = _weights(ns_scores, weights)
    thresholds, reach = imp_thresholds(rounding=rounding)
    by_value: dict[float, int] = {}
    for s, w in zip(ns_scores, counts, strict=True):
        by_value[s] = by_value.get(s, 0) + w
    values = sorted(by_value)
    before = [0, *accumulate(by_value[v] for v in values)]  # weight of values[:k]
    total = before[-1]
    below, above = (bisect_right, bisect_left) if reach else (bisect_left, bisect_right)
    sums: dict[float, int] = {}
    for s in values:
        gained = 0
        for t in thresholds:  # scores this step below s, less those this step above it
            gained += before[below(values, s - t)] - (total - before[above(values, s + t)])
        sums[s] = gained  # a result against its own copies: 0 IMPs
    by = {"comparisons": total - 1, "scores": total, "none": 1}[divide]
    return [float(sums[s]) / by if by > 0 else 0.0 for s in ns_scores]
