"""The readers' Lark parsers: the grammars' LALR parsers (their analysis cached by Lark
across processes, so a process does not build it on its first board), on lark-cython
when it is installed, one a thread.

The grammar files ship as package data of ``bridgefiles.grammars`` (pyproject maps that
package to the repository's ``grammars/`` folder); a source checkout without an install
finds them next to the package instead.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from lark import Lark

T = TypeVar("T")
_LOCAL = threading.local()


def per_thread(key: str, make: Callable[[], T]) -> T:
    """This thread's ``key`` (a parser and its callbacks), made on first use: a parse's
    callbacks know the one parse under way in their thread."""
    found: T | None = getattr(_LOCAL, key, None)
    if found is None:
        found = make()
        setattr(_LOCAL, key, found)
    return found


# ``BRIDGEFILES_LARK=python`` picks pure-Python Lark even when lark-cython is installed.
ENGINE_VARIABLE = "BRIDGEFILES_LARK"


def engine() -> str:
    """``"cython"`` when lark-cython is installed and not turned off, else ``"python"``."""
    if os.environ.get(ENGINE_VARIABLE, "").lower() == "python":
        return "python"
    try:
        import lark_cython  # noqa: F401
    except ImportError:
        return "python"
    return "cython"


def lalr(
    name: str,
    transformer: Any = None,
    which: str | None = None,
    lexer: str = "contextual",
    start: tuple[str, ...] = ("start",),
) -> Lark:
    """The LALR parser of the grammar ``name`` (its analysis cached by Lark across
    processes), with ``transformer``'s callbacks, on the engine ``which`` (default
    :func:`engine`); ``lexer`` is Lark's (``basic`` for a grammar whose terminals mean
    the same in every state); ``start``: the rules a parse may begin with."""
    options: dict[str, Any] = {}
    if (which or engine()) == "cython":
        import lark_cython

        options["_plugins"] = lark_cython.plugins
    return Lark(
        grammar_text(name),
        parser="lalr",
        lexer=lexer,
        transformer=transformer,
        cache=True,
        maybe_placeholders=False,
        start=list(start),
        **options,
    )


def grammar_file_text(name: str) -> str | None:
    """The text of a file of ``grammars/`` (installed package or source tree), or None."""
    try:
        ref = resources.files("bridgefiles.grammars").joinpath(name)
        if ref.is_file():
            return ref.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
        pass
    path = source_file(name)
    return path.read_text(encoding="utf-8") if path.is_file() else None


def grammar_text(name: str) -> str:
    """The text of the grammar ``name`` (``pbn.lark``), which must be there."""
    text = grammar_file_text(name)
    if text is None:
        raise FileNotFoundError(f"grammars/{name} is missing from the installation")
    return text


def source_file(name: str) -> Path:
    """Where a file of ``grammars/`` is in a source checkout."""
    return Path(__file__).resolve().parents[2] / "grammars" / name
