"""Deprecated name, kept for code written before the move: the module is now
:mod:`bridgefiles.testing.synthetic`, and this name is that same module."""

import sys
import warnings

from bridgefiles.testing import synthetic

warnings.warn(
    "bridgefiles.synthetic is now bridgefiles.testing.synthetic", DeprecationWarning, stacklevel=2
)
sys.modules[__name__] = synthetic
