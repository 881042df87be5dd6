"""Matchpoints (Law 78A), percentages, Neuberg, and artificial adjusted scores (Law 12C2).

Scores are N-S points; E-W matchpoints are the top less N-S's. Units are a
setting: ``"2"`` (2 per result beaten, 1 per tie: PBN ``MP1``, the default and
what ``ScoreMP`` holds) or ``"1"`` (1 / 0.5 / 0, ACBL, PBN ``MP2``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

Units = Literal["2", "1"]


def top(results: int, units: Units = "2") -> float:
    """The most a result can earn on a board with ``results`` results."""
    per = 2 if units == "2" else 1
    return float(per * max(results - 1, 0))


def matchpoints(ns_scores: Sequence[float], units: Units = "2") -> list[float]:
    """N-S matchpoints of each result against every other on the board."""
    return weighted_matchpoints(ns_scores, [1] * len(ns_scores), units)


def weighted_matchpoints(
    ns_scores: Sequence[float], weights: Sequence[int], units: Units = "2"
) -> list[float]:
    """Matchpoints of each result where result ``i`` stands for ``weights[i]`` equal ones
    (a ScoreTable ``Multiplicity``): 2 per result beaten and 1 per other tie, per copy.

    Sorted once and ties counted, so the work grows as n log n in the rows and does
    not depend on the weights' values.
    """
    order = sorted(range(len(ns_scores)), key=lambda i: ns_scores[i])
    out = [0.0] * len(ns_scores)
    below = 0  # weight of the results lower than the current run of equal scores
    k = 0
    while k < len(order):
        end = k
        tied = 0
        while end < len(order) and ns_scores[order[end]] == ns_scores[order[k]]:
            tied += weights[order[end]]
            end += 1
        for i in order[k:end]:
            points = 2 * below + (tied - 1)
            out[i] = float(points) if units == "2" else points / 2
        below += tied
        k = end
    return out


def neuberg(points: float, actual: int, expected: int, units: Units = "2") -> float:
    """Rescale matchpoints earned among ``actual`` results to a field of ``expected``.

    S' = (S + 1) E/A - 1 in 2-per-beat units (s' = (s + 1/2) E/A - 1/2 in 1-per-beat).
    """
    if actual < 1:
        raise ValueError("Neuberg needs at least one actual result")
    half = 1.0 if units == "2" else 0.5
    return (points + half) * expected / actual - half


def percentage(points: float, board_top: float) -> float:
    """Points as a percentage of the top; a board with one result is an average."""
    return 50.0 if board_top == 0 else 100 * points / board_top


class Adjusted(BaseModel):
    """An artificial adjusted score (Law 12C2): each side's percentage of the top."""

    model_config = ConfigDict(frozen=True)

    ns: float
    ew: float


class AdjustedPercentages(BaseModel):
    """What Ave+, Ave and Ave- are worth; Law 12C2 minimums, the organiser may vary them."""

    model_config = ConfigDict(frozen=True)

    plus: float = 60.0
    average: float = 50.0
    minus: float = 40.0
    imps_plus: float = 3.0
    imps_average: float = 0.0
    imps_minus: float = -3.0

    def percent(self, mark: str) -> float:
        """``A+``/``Ave+``, ``A``/``Ave``/``A=``, ``A-``/``Ave-`` as a percentage."""
        return {"+": self.plus, "=": self.average, "": self.average, "-": self.minus}[_mark(mark)]

    def imps(self, mark: str) -> float:
        return {
            "+": self.imps_plus,
            "=": self.imps_average,
            "": self.imps_average,
            "-": self.imps_minus,
        }[_mark(mark)]


def _mark(text: str) -> str:
    t = text.strip().lstrip("^").upper()
    for prefix in ("AVE", "AV", "A"):
        if t.startswith(prefix):
            rest = t[len(prefix) :]
            if rest in ("", "+", "-", "="):
                return rest
    raise ValueError(f"not an artificial score: {text!r}")


def is_artificial_mark(text: str) -> bool:
    try:
        _mark(text)
    except ValueError:
        return False
    return True


class BoardMatchpoints(BaseModel):
    """One board matchpointed: per result, N-S and E-W points and percentages."""

    model_config = ConfigDict(frozen=True)

    top: float
    ns: tuple[float, ...]
    ew: tuple[float, ...]

    @property
    def ns_percent(self) -> tuple[float, ...]:
        return tuple(percentage(p, self.top) for p in self.ns)

    @property
    def ew_percent(self) -> tuple[float, ...]:
        return tuple(percentage(p, self.top) for p in self.ew)


def score_board(
    results: Sequence[float | Adjusted],
    *,
    expected: int | None = None,
    units: Units = "2",
    weights: Sequence[int] | None = None,
) -> BoardMatchpoints:
    """Matchpoint a board whose results may include artificial scores and be too few.

    Real results are compared among themselves and Neubergised to ``expected``
    results (default: as many as there are, artificial ones included); an
    artificial score is not compared but gets its percentage of the full top.
    ``weights`` (default all 1) says how many equal results each one stands for.
    """
    counts = list(weights) if weights is not None else [1] * len(results)
    if len(counts) != len(results) or any(w < 1 for w in counts):
        raise ValueError("one positive weight per result")
    field = expected if expected is not None else sum(counts)
    full_top = top(field, units)
    real = [i for i, r in enumerate(results) if not isinstance(r, Adjusted)]
    actual = sum(counts[i] for i in real)
    ns: list[float] = [0.0] * len(results)
    ew: list[float] = [0.0] * len(results)
    mps = weighted_matchpoints(
        [float(r) for i in real for r in (results[i],) if not isinstance(r, Adjusted)],
        [counts[i] for i in real],
        units,
    )
    real_top = top(actual, units)
    for i, mp in zip(real, mps, strict=True):
        if actual != field:
            ns[i] = neuberg(mp, actual, field, units)
            ew[i] = neuberg(real_top - mp, actual, field, units)
        else:
            ns[i], ew[i] = mp, real_top - mp
    for i, r in enumerate(results):
        if isinstance(r, Adjusted):
            ns[i] = full_top * r.ns / 100
            ew[i] = full_top * r.ew / 100
    return BoardMatchpoints(top=full_top, ns=tuple(ns), ew=tuple(ew))
