"""Where the tests find ../shared (the real files, the verifier's conformance suite, the
docs and law vectors), read in place and never copied; one place, so no test file works
the path out again, and a checkout without ../shared skips with one clear reason."""

from __future__ import annotations

from pathlib import Path

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
