"""bridgefiles: read, validate, score and rewrite contract-bridge deal files (PBN, LIN).

    import bridgefiles as bf
    for board in bf.read("event.pbn"):
        print(board.label, board.contract, board.declarer)
"""

# The submodule bridgefiles.validate is imported first, so that the function
# bf.validate bound below is not replaced by the module of the same name when
# the submodule is imported later (importing a submodule sets the attribute).
import bridgefiles.validate as _validate_module  # noqa: F401
from bridgefiles.api import dumps, iter_dumps, load, loads, read, score, validate, write
from bridgefiles.errors import (
    BridgeFileError,
    InternalError,
    StrictModeError,
    UnreadableInputError,
)
from bridgefiles.model import Board, BridgeFile
from bridgefiles.model.diagnostic import Diagnostic, Severity

__version__ = "0.1.0"

__all__ = [
    "Board",
    "BridgeFile",
    "BridgeFileError",
    "Diagnostic",
    "InternalError",
    "Severity",
    "StrictModeError",
    "UnreadableInputError",
    "__version__",
    "dumps",
    "iter_dumps",
    "load",
    "loads",
    "read",
    "score",
    "validate",
    "write",
]
