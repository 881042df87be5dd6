"""Scoring: Law 77 duplicate scores, Law 2 board conditions, and tournament scoring.

The public contract (DESIGN.md): ``contract_score("4SX", vulnerable=True, tricks=9)``
gives -200 (points to declarer's side) and ``imps(420)`` gives 9, sign kept.

Modules, one concern each: ``duplicate`` (Law 77), ``board`` (Law 2), ``imps``
(Law 78B), ``matchpoints`` (Law 78A, Neuberg, Law 12C2 averages), ``butler``
(Butler datums and cross-IMPs), ``vp`` (WBF 20-VP scale), ``rubber`` and ``chicago``,
``method`` (the Scoring tag), ``values`` (score-tag value forms), ``traveller``
(results of one deal at many tables), ``checks`` (the validator's score and board
checks); and ``bf.score``: ``fill`` (``score_file``, and ``Scorer``, which scores a
file a board at a time), ``settings`` (its typed settings), ``record`` (one record's
Contract, Declarer, Result, Score), ``view`` (what a record keeps of its board),
``changes`` (what scoring does to a board, made on it later),
``rubber_record`` (ScoreRubber), ``pairs`` (matchpoints and IMP pairs over a
field), ``teams`` (matches, IMPs and VPs) and ``tables`` (ScoreTable and
TotalScoreTable written or checked).
"""

from bridgefiles.scoring.board import board_dealer, board_vulnerability
from bridgefiles.scoring.duplicate import contract_score, trick_score, undertrick_penalty
from bridgefiles.scoring.imps import imps
from bridgefiles.scoring.method import ScoringMethod, parse_scoring

__all__ = [
    "ScoringMethod",
    "board_dealer",
    "board_vulnerability",
    "contract_score",
    "imps",
    "parse_scoring",
    "trick_score",
    "undertrick_penalty",
]
