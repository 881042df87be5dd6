"""The one exception the library lets escape (DESIGN invariant 3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bridgefiles.model.diagnostic import Diagnostic


class BridgeFileError(Exception):
    """Raised for unreadable input, and in strict mode for the first error found.

    Carries the diagnostic that caused it when there is one, so callers can show
    the same `file:line:col` text the lenient reader would have collected.
    """

    def __init__(self, message: str, diagnostic: Diagnostic | None = None) -> None:
        super().__init__(message)
        self.diagnostic = diagnostic


class UnreadableInputError(BridgeFileError):
    """The input cannot be read at all (missing file, unknown format, I/O failure)."""


class StrictModeError(BridgeFileError):
    """An error diagnostic met while reading or validating with ``strict=True``."""


class InternalError(BridgeFileError):
    """Our own bug, never the input's fault (DESIGN invariant 3, diagnostic code ``internal``).

    A subclass of BridgeFileError so that callers who catch only that still hold,
    but kept apart so that tests and fuzzing can count it as a failure: raise it
    (chained ``from`` the unexpected exception) only where an exception that is
    not a BridgeFileError escaped our own code, never for bad input.
    """


class UsageError(BridgeFileError, ValueError):
    """The library was called wrongly: an unknown format name, an argument of the wrong type,
    an output it must not replace. The caller's mistake, not the input's (exit status 2).

    A ValueError too: ``Call.parse`` and ``Seat.parse`` raise it for text that is no call or
    seat, and the readers and validators that call them catch ValueError."""
