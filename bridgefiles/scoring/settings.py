"""What ``bf.score`` may be told: the choices where organisers differ, and the limits.

One frozen model so every part of the scorer (records, pairs, teams, tables) reads
the same values; :func:`bridgefiles.scoring.fill.score_file` takes each field as a
typed keyword argument of the same name.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bridgefiles.laws.editions import Edition
from bridgefiles.limits import DEFAULT_LIMITS, Limits
from bridgefiles.scoring.butler import Average, CrossDivide, Discard, Half
from bridgefiles.scoring.imps import ImpRounding
from bridgefiles.scoring.matchpoints import AdjustedPercentages, Units

ScoreForm = Literal["positive", "ns"]


class ScoreSettings(BaseModel):
    """How to score where organisers differ; the defaults are the common practice."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    method: str | None = None
    """A ``Scoring`` value (``"MP"``, ``"IMP;Butler"``...) used instead of each board's own."""
    laws: Edition = "2017"
    """The edition of the Laws the tricks (Law 64 transfers) are ruled under."""
    replace: bool = False
    """Replace values the file gives that disagree with ours (they are reported either way)."""
    units: Units = "2"
    """Matchpoints per result beaten: ``"2"`` (ScoreMP's, PBN MP1) or ``"1"`` (PBN MP2)."""
    expected_results: int | None = Field(default=None, ge=1, le=1_000_000_000)
    """Neuberg field size; by default the largest number of results of a deal in the event."""
    adjusted: AdjustedPercentages = AdjustedPercentages()
    """What Ave+, Ave and Ave- are worth in percent and in IMPs (Law 12C2)."""
    discard: Discard = 1
    """Butler: results left out at each end before the datum (Butler-2; plain Butler: 0)."""
    average: Average = "mean"
    """Butler datum: mean or median of the results kept."""
    round_datum: int = Field(default=10, ge=0, le=1_000_000)
    """Butler datum rounded to a multiple of this (0: not rounded)."""
    half: Half = "away"
    """How a datum half-way between two multiples is rounded."""
    cross_divide: CrossDivide = "comparisons"
    """Cross-IMP sums divided by the comparisons (N-1), the scores (N), or not at all."""
    imp_rounding: ImpRounding = "lower"
    """How a difference that is not a multiple of 10 is read on the IMP scale."""
    pairs_imps: str = "Butler-2"
    """The IMP-pairs method when the Scoring tag names none."""
    score_form: ScoreForm = "positive"
    """``Score`` written as the side that scored (``EW 100``) or always ``NS`` (``NS -100``)."""
    places: int = Field(default=2, ge=0, le=10)
    """Decimals of matchpoints, percentages and IMPs written."""
    by_section: bool = False
    """Matchpoint each ScoreTable ``Section`` apart (default: across sections)."""
    tables: bool = True
    """Write ScoreTable and TotalScoreTable."""
    vp: bool = True
    """A VP column (WBF 20-VP scale) in team-match totals."""
    limits: Limits = DEFAULT_LIMITS
    """Ceilings on what a file may make the scorer do (multiplicities, numbers)."""
