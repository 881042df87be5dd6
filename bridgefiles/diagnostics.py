"""Diagnostics, re-exported for users: the model lives in ``bridgefiles.model.diagnostic``."""

from bridgefiles.model.diagnostic import CODES, Diagnostic, Severity, count, error, info, warning

__all__ = ["CODES", "Diagnostic", "Severity", "count", "error", "info", "warning"]
