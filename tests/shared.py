"""Where the tests find ../shared (the real files, the verifier's conformance suite, the
docs and law vectors), read in place and never copied; one place, so no test file works
the path out again, and a checkout without ../shared skips with one clear reason."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
REAL = CORPUS / "real"
REAL_PBN = REAL / "pbn"
REAL_LIN = REAL / "lin"
CONFORMANCE = CORPUS / "conformance"
DOCS = SHARED / "docs"
FIXTURES = ROOT / "fixtures"

ABSENT = f"the shared corpus is absent ({CORPUS}; tests read it in place)"

needs_corpus = pytest.mark.skipif(not REAL.is_dir(), reason=ABSENT)


def need(path: Path) -> Path:
    """The path, or a skip saying the shared folder (or this file of it) is absent."""
    if not path.exists():
        pytest.skip(f"{path.name} not found under {path.parent} (shared files are read in place)")
    return path


def files(folder: Path, *suffixes: str) -> list[Path]:
    """The files below a shared folder with these endings (any case), sorted; [] if absent."""
    if not folder.is_dir():
        return []
    wanted = tuple(s.lower() for s in suffixes)
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name.lower().endswith(wanted))


LAW_VECTORS = DOCS / "law-vectors.json"


def law_vectors(kind: str) -> list[dict[str, Any]]:
    """The checked vectors of one kind (``score``, ``auction``, ``revoke``...) of
    law-vectors.json, in file order; [] when ../shared is absent."""
    if not LAW_VECTORS.is_file():
        return []
    data = json.loads(LAW_VECTORS.read_text(encoding="utf-8"))
    return [v for v in data if v.get("kind") == kind]


def vector_params(
    kind: str, ident: Callable[[int, dict[str, Any]], str] | None = None
) -> list[Any]:
    """pytest params of :func:`law_vectors` (ids from ``ident``, else ``kind-N``), or one
    skipped param saying the vectors are absent, so a test over them never passes empty."""
    found = law_vectors(kind)
    if not found:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{LAW_VECTORS} is absent"))]
    return [
        pytest.param(v, id=ident(i, v) if ident else f"{kind}-{i}") for i, v in enumerate(found)
    ]
