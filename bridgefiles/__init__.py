"""bridgefiles: read, validate, score and rewrite contract-bridge deal files (PBN, LIN).

    import bridgefiles as bf
    for board in bf.read("event.pbn"):
        print(board.label, board.contract, board.declarer)
    bf.convert("match.lin", "match.pbn")
"""

# The submodule bridgefiles.validate is imported first, so that the function
# bf.validate bound below is not replaced by the module of the same name when
# the submodule is imported later (importing a submodule sets the attribute).
import bridgefiles.validate as _validate_module  # noqa: F401
from bridgefiles.api import dumps, iter_dumps, load, loads, read, score, validate, write
from bridgefiles.conversion import Conversion, convert
from bridgefiles.errors import (
    BridgeFileError,
    InternalError,
    StrictModeError,
    UnreadableInputError,
    UsageError,
)
from bridgefiles.model import Board, BridgeFile
from bridgefiles.model.diagnostic import Diagnostic, Severity
from bridgefiles.report import FileReport, render_json, render_text, validate_input

__version__ = "0.1.0"

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
    "convert",
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
