"""Double-dummy analysis and hand records (extras ``dds`` and ``pdf``).

Importing this package needs neither extra: the solver (endplay's DDS) is loaded when a
table is first asked for, and jinja2 and weasyprint when a hand record is written.

>>> import bridgefiles as bf
>>> from bridgefiles import analysis
>>> event = bf.load("event.pbn")                              # doctest: +SKIP
>>> table = analysis.dd_table(event.boards[0].deal)           # doctest: +SKIP
>>> analysis.par(table, event.boards[0].vulnerable, event.boards[0].dealer).par_contract
'EW 3N+1'                                                     # doctest: +SKIP
>>> analysed = analysis.analyze(event)                        # doctest: +SKIP
"""

from bridgefiles.analysis.check import Analysis, analyse_boards, check_board
from bridgefiles.analysis.files import analyze
from bridgefiles.analysis.models import DDTable, Par, ParContract
from bridgefiles.analysis.solver import (
    MISSING,
    AnalysisUnavailable,
    available,
    dd_table,
    dd_tables,
    par,
)

__all__ = [
    "MISSING",
    "Analysis",
    "AnalysisUnavailable",
    "DDTable",
    "Par",
    "ParContract",
    "analyse_boards",
    "analyze",
    "available",
    "check_board",
    "dd_table",
    "dd_tables",
    "par",
]
