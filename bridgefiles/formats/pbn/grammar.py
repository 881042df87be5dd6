"""The text of the PBN grammar, ``grammars/pbn.lark`` (the lexer compiles it once).

The grammar file ships as package data of ``bridgefiles.grammars`` (pyproject maps
that package to the repository's ``grammars/`` folder); a source checkout without
an install finds it next to the package instead.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import bridgefiles


def grammar_text() -> str:
    """The text of ``pbn.lark``, from the installed package or the source tree."""
    try:
        ref = resources.files("bridgefiles.grammars").joinpath("pbn.lark")
        if ref.is_file():
            return ref.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
        pass
    package_file = bridgefiles.__file__ or __file__
    root = Path(package_file).resolve().parents[1 if bridgefiles.__file__ else 3]
    return (root / "grammars" / "pbn.lark").read_text(encoding="utf-8")
