"""Deprecated name, kept for code written before the move: the module is now
:mod:`bridgefiles.batch.dask`, and this name is that same module."""

import sys
import warnings

from bridgefiles.batch import dask

warnings.warn(
    "bridgefiles.dask is now bridgefiles.batch.dask", DeprecationWarning, stacklevel=2
)
sys.modules[__name__] = dask
