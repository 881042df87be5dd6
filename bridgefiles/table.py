"""Deprecated name, kept for code written before the move: the module is now
:mod:`bridgefiles.views.table`, and this name is that same module."""

import sys
import warnings

from bridgefiles.views import table

warnings.warn(
    "bridgefiles.table is now bridgefiles.views.table", DeprecationWarning, stacklevel=2
)
sys.modules[__name__] = table
