"""bridgefiles: read, validate, score and rewrite contract-bridge deal files (PBN, LIN).

    import bridgefiles as bf
    for board in bf.read("event.pbn"):
        print(board.label, board.contract, board.declarer)
    bf.convert("match.lin", "match.pbn")
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bridgefiles.api import dumps, iter_dumps, load, loads, read, score, validate, write
from bridgefiles.errors import (
    BridgeFileError,
    InternalError,
    StrictModeError,
    UnreadableInputError,
    UsageError,
)
from bridgefiles.jobs.conversion import Conversion, convert
from bridgefiles.jobs.report import FileReport, render_json, render_text, validate_input
from bridgefiles.model import Board, BridgeFile
from bridgefiles.model.diagnostic import Diagnostic, Severity

if TYPE_CHECKING:
    from bridgefiles.analysis.ddscore import DDScore

__version__ = "0.2.0"


def analyze(bridge_file: BridgeFile, progress: Callable[[int], None] | None = None) -> BridgeFile:
    """Double-dummy tables and par written into every board with a full deal (extra ``dds``).

    The work is :func:`bridgefiles.analysis.analyze`; this name only keeps
    ``import bridgefiles`` light, loading the analysis package and its solver when called.
    """
    from bridgefiles.analysis import analyze as run

    return run(bridge_file, progress)


def dd_score(deal: Any, contract: Any, declarer: Any, vulnerable: Any) -> "DDScore":
    """The double-dummy tricks and score of a contract (extra ``dds``): loaded when called,
    like :func:`analyze`; :func:`bridgefiles.analysis.ddscore.dd_score` documents it."""
    from bridgefiles.analysis.ddscore import dd_score as solve

    return solve(deal, contract, declarer, vulnerable)


__all__ = [
    "Board",
    "BridgeFile",
    "BridgeFileError",
    "Conversion",
    "Diagnostic",
    "FileReport",
    "InternalError",
    "Severity",
    "StrictModeError",
    "UnreadableInputError",
    "UsageError",
    "__version__",
    "analyze",
    "convert",
    "dd_score",
    "dumps",
    "iter_dumps",
    "load",
    "loads",
    "read",
    "render_json",
    "render_text",
    "score",
    "validate",
    "validate_input",
    "write",
]
