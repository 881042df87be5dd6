"""Safe writing: a conversion killed midway leaves no partial output, inputs are never
overwritten unless asked, and what a killed writer leaves behind is cleaned up.

The guarantee (a SIGKILLed process cannot clean up after itself):

1. the target name only ever holds a complete file: output goes to a temporary
   sibling that is renamed over the target once whole (atomic on POSIX);
2. a temporary is a hidden sibling named after the target, ``.NAME.<pid>.*``,
   so a killed writer leaves nothing that looks like output;
3. the next write to the same target deletes the temporaries of writers that
   are gone (their pid no longer runs), so leftovers do not pile up.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from shared import ROOT

import bridgefiles as bf
from bridgefiles.testing import synthetic

# An upper bound on waiting for the child to start writing (not a timing assertion:
# the test only fails on timeout if the child never writes at all).
START_WAIT = 300.0


def _big_pbn(path: Path, boards: int) -> None:
    path.write_text("".join(synthetic.to_pbn(synthetic.generate(boards, seed=11))),
                    encoding="utf-8")


def _hidden_siblings(folder: Path, target: str) -> list[Path]:
    """Hidden files named after ``target`` (a temporary's temporary starts with ``..``)."""
    return sorted(p for p in folder.iterdir()
                  if p.name.startswith(".") and f".{target}." in p.name)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _kill_once_writing(cmd: list[str], folder: Path, target: str) -> subprocess.Popen[bytes]:
    """Start ``cmd`` and SIGKILL it as soon as a temporary beside ``target`` has bytes."""
    child = subprocess.Popen(cmd, cwd=folder, env=_env(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + START_WAIT
    try:
        while time.monotonic() < deadline:
            if child.poll() is not None:
                pytest.fail(f"the conversion ended (status {child.returncode}) before it "
                            "could be killed midway; use a bigger input")
            if any(p.stat().st_size > 0 for p in _hidden_siblings(folder, target)
                   if p.exists()):
                break
            time.sleep(0.02)
        else:
            pytest.fail("the conversion never started writing")
        os.kill(child.pid, signal.SIGKILL)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
    assert child.returncode == -signal.SIGKILL
    return child


def test_killed_conversion_leaves_no_partial_output(tmp_path: Path) -> None:
    _big_pbn(tmp_path / "BIG.pbn", 1500)
    cmd = [sys.executable, "-m", "bridgefiles.cli", "convert", "BIG.pbn", "--to", "json",
           "-o", "out.json"]
    child = _kill_once_writing(cmd, tmp_path, "out.json")
    assert not (tmp_path / "out.json").exists()
    left = [p.name for p in tmp_path.iterdir() if p.name != "BIG.pbn"]
    # anything left is a hidden temporary named after the target
    assert all(name.startswith(".") and ".out.json." in name for name in left), left
    assert child.returncode == -signal.SIGKILL


def test_next_conversion_cleans_what_a_killed_one_left(tmp_path: Path) -> None:
    _big_pbn(tmp_path / "BIG.pbn", 1500)
    cmd = [sys.executable, "-m", "bridgefiles.cli", "convert", "BIG.pbn", "--to", "json",
           "-o", "out.json"]
    _kill_once_writing(cmd, tmp_path, "out.json")
    _big_pbn(tmp_path / "BIG.pbn", 20)
    done = subprocess.run(cmd, cwd=tmp_path, env=_env(), capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert len(json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["boards"]) == 20
    assert _hidden_siblings(tmp_path, "out.json") == []


def test_convert_never_overwrites_its_input(tmp_path: Path) -> None:
    source = tmp_path / "e.pbn"
    _big_pbn(source, 3)
    before = source.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "bridgefiles.cli", "convert", "e.pbn", "--to", "pbn", "-o",
         "e.pbn"], cwd=tmp_path, env=_env(), capture_output=True, check=False)
    assert done.returncode == 2
    assert source.read_bytes() == before


# -- the library's own writer -----------------------------------------------------------


_WRITER = """
import sys
import bridgefiles as bf
from bridgefiles.testing import synthetic
text = "".join(synthetic.to_pbn(synthetic.generate(4000, seed=5)))
boards = bf.read(__import__("io").BytesIO(text.encode()), "pbn")
bf.write(boards, sys.argv[1], "json")
"""


def test_killed_api_write_leaves_no_output_and_the_next_write_cleans_up(tmp_path: Path) -> None:
    child = _kill_once_writing([sys.executable, "-c", _WRITER, "out.json"], tmp_path, "out.json")
    assert not (tmp_path / "out.json").exists()
    left = _hidden_siblings(tmp_path, "out.json")
    assert left and all(p.name.startswith(f".out.json.{child.pid}.") for p in left)
    bf.write([], tmp_path / "out.json", "json")
    assert _hidden_siblings(tmp_path, "out.json") == []
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["boards"] == []


def test_write_keeps_the_temporaries_of_live_writers(tmp_path: Path) -> None:
    """Another process writing the same target right now keeps its temporary."""
    live = tmp_path / f".out.json.{os.getppid()}.abc.tmp"
    dead = tmp_path / ".out.json.999999999.abc.tmp"
    live.write_text("x")
    dead.write_text("x")
    bf.write([], tmp_path / "out.json", "json")
    assert live.exists() and not dead.exists()


def test_failed_write_leaves_the_old_file_untouched(tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    out.write_text("old", encoding="utf-8")

    def boards() -> object:
        yield from bf.loads(bf.dumps([bf.Board()], "json"), "json").boards
        raise bf.BridgeFileError("input went bad midway")

    with pytest.raises(bf.BridgeFileError):
        bf.write(boards(), out, "json")  # type: ignore[arg-type]
    assert out.read_text(encoding="utf-8") == "old"
    assert _hidden_siblings(tmp_path, "o.json") == []


def test_written_file_has_the_usual_permissions(tmp_path: Path) -> None:
    """A temporary is created private (0600); the output must not stay that way."""
    out = tmp_path / "o.json"
    bf.write([], out, "json")
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


def test_write_to_a_missing_folder_is_a_bridge_file_error(tmp_path: Path) -> None:
    with pytest.raises(bf.BridgeFileError):
        bf.write([], tmp_path / "no" / "such" / "o.json", "json")
