"""A grammar's terminals as one regex, as Lark's lexer would try them, for the readers'
one-pass lexers (formats/pbn/lexer.py; the grammar is the one definition of the tokens).

Building Lark's view of a grammar is a cost every process paid on its first board (the
README's Performance gives it; it weighs most on a command run on one small file). So the
alternation derived from ``grammars/X.lark`` ships as ``grammars/X.terminals.json`` with
the SHA-256 of the grammar it came from; it is used only while that digest is the
grammar's, else the terminals are derived through Lark again. ``scripts/grammar-terminals``
writes the files, and a test fails while one is not what Lark derives from its grammar.

The grammar files ship as package data of ``bridgefiles.grammars`` (pyproject maps that
package to the repository's ``grammars/`` folder); a source checkout without an install
finds them next to the package instead.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Lark

# The grammars whose terminals a reader lexes with (and ships derived): the PBN reader's
# token list, until it parses with grammars/pbn.lark; LIN parses with Lark itself
# (formats/lin/parser.py).
LEXED_GRAMMARS = ("pbn_tokens.lark",)

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
    name: str, transformer: Any = None, which: str | None = None, lexer: str = "contextual"
) -> Lark:
    """The LALR parser of the grammar ``name`` (its analysis cached by Lark across
    processes), with ``transformer``'s callbacks, on the engine ``which`` (default
    :func:`engine`); ``lexer`` is Lark's (``basic`` for a grammar whose terminals mean
    the same in every state)."""
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


def terminals_file(grammar: str) -> str:
    """``pbn_tokens.lark`` -> ``pbn_tokens.terminals.json``."""
    return grammar.removesuffix(".lark") + ".terminals.json"


def derive_terminals(grammar_source: str) -> tuple[str, list[str]]:
    """The grammar's terminals as one alternation, in the order Lark's lexer tries them
    (priority, then width), and the names of the terminals it ignores: from Lark itself."""
    grammar = Lark(grammar_source, parser=None, lexer="basic")  # terminals only: no tables
    terminals = sorted(
        grammar.terminals,
        key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
    )
    union = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
    return union, sorted(grammar.ignore_tokens)


def grammar_digest(grammar_source: str) -> str:
    return hashlib.sha256(grammar_source.encode("utf-8")).hexdigest()


def terminals_record(grammar_source: str) -> str:
    """The text of the terminals file for this grammar (what the script writes)."""
    union, ignored = derive_terminals(grammar_source)
    record = {
        "grammar_sha256": grammar_digest(grammar_source),
        "pattern": union,
        "ignored": ignored,
    }
    return json.dumps(record, indent=1) + "\n"


def stored_terminals(grammar: str, grammar_source: str) -> tuple[str, list[str]] | None:
    """The shipped alternation of ``grammar``, if it was derived from exactly this text."""
    text = grammar_file_text(terminals_file(grammar))
    if text is None:
        return None
    try:
        record = json.loads(text)
        if record["grammar_sha256"] != grammar_digest(grammar_source):
            return None
        pattern, ignored = record["pattern"], record["ignored"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(pattern, str) or not isinstance(ignored, list):
        return None
    return pattern, [str(name) for name in ignored]


@cache
def compiled_terminals(grammar: str) -> tuple[re.Pattern[str], frozenset[str]]:
    """The terminals of ``grammar`` as one compiled regex, and the ignored ones' names:
    shipped if current, else derived through Lark (once a process)."""
    source = grammar_text(grammar)
    union, ignored = stored_terminals(grammar, source) or derive_terminals(source)
    return re.compile(union), frozenset(ignored)
