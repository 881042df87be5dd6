"""Victory points: the WBF continuous 20-VP scale (2013), for any number of boards.

VP = min(20, 10 + 10(1 - t^(3I/X)) / (1 - t^3)) with t the golden ratio's inverse
and X = 15 sqrt(boards). The published tables round to 2 decimals and then raise
a value by 0.01 wherever an extra IMP would be worth more than the IMP before it
(the scale must stay concave); ``concave=False`` gives plain rounding instead.
Fractional margins (cross-IMP averages) are interpolated between whole IMPs.
"""

from __future__ import annotations

import math
from functools import lru_cache

_TAU = (math.sqrt(5) - 1) / 2


def vp_formula(margin: float, boards: int) -> float:
    """The unrounded winner's VPs for an IMP margin (its absolute value is used)."""
    if boards < 1:
        raise ValueError(f"a match has at least one board, not {boards}")
    blitz = 15 * math.sqrt(boards)
    raw: float = 10 + 10 * (1 - _TAU ** (3 * abs(margin) / blitz)) / (1 - _TAU**3)
    return min(20.0, raw)


@lru_cache(maxsize=64)
def vp_table(boards: int, concave: bool = True) -> tuple[int, ...]:
    """Winner's VPs in hundredths for margins 0, 1, ... up to the first 20.00."""
    top = math.ceil(15 * math.sqrt(boards))
    values = [round(vp_formula(i, boards) * 100) for i in range(top + 1)]
    if concave:
        changed = True
        while changed:
            changed = False
            for i in range(1, top):
                if values[i + 1] - values[i] > values[i] - values[i - 1]:
                    values[i] += 1
                    changed = True
                    break
    return tuple(values)


def victory_points(margin: float, boards: int, *, concave: bool = True) -> tuple[float, float]:
    """``(winner, loser)`` VPs for an IMP margin over ``boards`` boards; they add up to 20."""
    table = vp_table(boards, concave)
    a = abs(margin)
    low = math.floor(a)
    if low >= len(table) - 1:
        hundredths = float(table[-1])
    else:
        frac = a - low
        hundredths = table[low] + (table[low + 1] - table[low]) * frac
        hundredths = round(hundredths)
    winner = hundredths / 100
    return winner, round(20 - winner, 2)


def vp_for(margin: float, boards: int, *, concave: bool = True) -> float:
    """VPs for the side whose margin is ``margin`` (negative when it lost the match)."""
    winner, loser = victory_points(margin, boards, concave=concave)
    return winner if margin >= 0 else loser
