"""The text of the PBN grammar, ``grammars/pbn.lark`` (the lexer compiles it once), and
of the terminals derived from it, ``grammars/pbn.terminals.json`` (see lexer.py).

The grammar files ship as package data of ``bridgefiles.grammars`` (pyproject maps
that package to the repository's ``grammars/`` folder); a source checkout without
an install finds them next to the package instead.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import bridgefiles

TERMINALS_FILE = "pbn.terminals.json"


def grammar_text() -> str:
    """The text of ``pbn.lark``, from the installed package or the source tree."""
    text = grammar_file_text("pbn.lark")
    if text is None:
        raise FileNotFoundError("grammars/pbn.lark is missing from the installation")
    return text


def grammar_file_text(name: str) -> str | None:
    """The text of a file of ``grammars/`` (installed package or source tree), or None."""
    try:
        ref = resources.files("bridgefiles.grammars").joinpath(name)
        if ref.is_file():
            return ref.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
        pass
    return source_file(name).read_text(encoding="utf-8") if source_file(name).is_file() else None


def source_file(name: str) -> Path:
    """Where a file of ``grammars/`` is in a source checkout."""
    package_file = bridgefiles.__file__ or __file__
    root = Path(package_file).resolve().parents[1 if bridgefiles.__file__ else 3]
    return root / "grammars" / name
