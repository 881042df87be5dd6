"""Every shell and Python block of README.md runs as written, in document order, from a
folder holding a copy of fixtures/ (so ``fixtures/sample-event.pbn`` is the name a reader
types), with ``bridgefiles`` and ``scripts/run`` the command line of this checkout.

A block is left out only when the README marks it (``<!-- readme-test: skip (why) -->`` on
the line before) or it is a doctest (``tests/test_laws_readme.py`` runs those), or it is
in the service section (the web part's, run by its own tests)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from shared import FIXTURES

ROOT = FIXTURES.parent
README = ROOT / "README.md"
SKIP = re.compile(r"<!-- readme-test: skip \((?P<why>[^)]+)\) -->\s*$")
FENCE = re.compile(r"^```(?P<lang>\w*)\s*$")
NOT_OURS = ("The upload service",)  # sections whose blocks other tests run


@dataclass(frozen=True)
class Block:
    lang: str
    line: int
    text: str
    section: str
    skip: str | None


def blocks() -> list[Block]:
    """The fenced sh and python blocks of the README, with why one is not run."""
    found: list[Block] = []
    lines = README.read_text(encoding="utf-8").splitlines()
    section, i = "", 0
    while i < len(lines):
        if lines[i].startswith("## "):
            section = lines[i][3:].strip()
        fence = FENCE.match(lines[i])
        if fence is None:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        mark = SKIP.match(lines[i - 1]) if i else None
        text = "\n".join(lines[i + 1 : end]) + "\n"
        skip = mark.group("why") if mark else None
        if text.lstrip().startswith(">>>"):
            skip = "a doctest: tests/test_laws_readme.py runs it"
        elif section.startswith(NOT_OURS):
            skip = "the service section: the web part's tests run it"
        if fence.group("lang") in ("sh", "python"):
            found.append(Block(fence.group("lang"), i + 1, text, section, skip))
        i = end + 1
    return found


BLOCKS = blocks()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A folder with a copy of fixtures/ and ``bridgefiles`` / ``scripts/run`` on hand."""
    home = tmp_path_factory.mktemp("readme")
    shutil.copytree(FIXTURES, home / "fixtures")
    tools = home / ".bin"
    tools.mkdir()
    for name, where in (("bridgefiles", tools / "bridgefiles"),
                        ("run", home / "scripts" / "run")):
        where.parent.mkdir(exist_ok=True)
        where.write_text(f"#!/bin/sh\nexec {sys.executable} -m bridgefiles.cli \"$@\"\n")
        where.chmod(0o755)
        del name
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
           "LC_ALL": "C.UTF-8"}
    return {"home": home, "env": env, "done": set()}


def run_block(block: Block, home: Path, env: dict[str, str]) -> None:
    if block.lang == "python":
        proc = subprocess.run([sys.executable, "-c", block.text], cwd=home, env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, f"README.md:{block.line}:\n{proc.stderr}"
        return
    for n, command in enumerate(block.text.splitlines()):
        if not command.strip() or command.lstrip().startswith("#"):
            continue
        proc = subprocess.run(["bash", "-c", command], cwd=home, env=env,
                              capture_output=True, text=True, timeout=600)
        where = f"README.md:{block.line + 1 + n}: {command}"
        # 0 clean, 1 findings (--fail-on, --check): what the README shows; never 2 or 3
        assert proc.returncode in (0, 1), f"{where}\n{proc.stderr}"
        for bad in ("Traceback", "internal error", "Usage:", "No such file"):
            assert bad not in proc.stderr, f"{where}\n{proc.stderr}"


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line{b.line}-{b.lang}" for b in BLOCKS])
def test_readme_block_runs_as_written(block: Block, workspace: dict[str, object]) -> None:
    if block.skip is not None:
        pytest.skip(block.skip)
    home, env, done = workspace["home"], workspace["env"], workspace["done"]
    assert isinstance(home, Path) and isinstance(env, dict) and isinstance(done, set)
    for earlier in BLOCKS:  # a block may use what the blocks before it wrote
        if earlier.line >= block.line:
            break
        if earlier.skip is None and earlier.line not in done:
            run_block(earlier, home, env)
            done.add(earlier.line)
    run_block(block, home, env)
    done.add(block.line)


def test_the_readme_names_only_files_that_exist() -> None:
    """Every fixtures/ path a block names is there, and so is the design document."""
    text = README.read_text(encoding="utf-8")
    for name in set(re.findall(r"fixtures/[\w.-]+\.(?:pbn|lin)\b", text)):
        assert (ROOT / name).is_file(), name
    assert "docs/design.md" in text and (ROOT / "docs" / "design.md").is_file()
    assert "DESIGN.md" not in text
    assert "pip install 'bridgefiles[" not in text  # not on an index: '.[extra]' from a clone


def test_most_blocks_run() -> None:
    ran = [b for b in BLOCKS if b.skip is None]
    assert len(ran) >= 7 and {b.lang for b in ran} == {"sh", "python"}
