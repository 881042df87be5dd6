"""bridgefiles.batch: inputs walked, outputs mirrored, work run over a process pool."""

from __future__ import annotations

from pathlib import Path

import pytest
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles import batch
from bridgefiles.batch import ConvertTask, CountTask, Input, ValidateTask

SAMPLE = FIXTURES / "sample-event.pbn"


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    out = []
    for name in ("a/one.pbn", "a/b/two.pbn", "c/three.PBN"):
        path = tmp_path / "in" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(SAMPLE.read_bytes())
        out.append(path)
    (tmp_path / "in" / "skip.txt").write_text("x")
    return out


def test_expand_orders_and_keeps_roots(files: list[Path], tmp_path: Path) -> None:
    found = batch.expand([str(tmp_path / "in"), "-", str(SAMPLE)])
    assert [str(i.relative) for i in found] == [
        "a/b/two.pbn", "a/one.pbn", "c/three.PBN", "stdin", "sample-event.pbn"]
    assert found[3].is_stdin and found[3].display == "<stdin>"


def test_output_path_mirrors_the_tree(tmp_path: Path) -> None:
    item = Input(str(tmp_path / "in" / "a" / "b" / "two.pbn"), str(tmp_path / "in"))
    assert batch.output_path(item, tmp_path / "out", "lin") == tmp_path / "out/a/b/two.lin"
    assert batch.output_path(Input("x/y.pbn"), "o", "csv") == Path("o/y.csv")


def test_run_gives_results_in_input_order_whatever_the_jobs(files: list[Path]) -> None:
    tasks = [CountTask(Input(str(p))) for p in files]
    one = [r.boards for r in batch.run(batch.count_file, tasks, jobs=1)]
    seen: list[int] = []
    two = [r.path for r in batch.run(batch.count_file, tasks, jobs=2, progress=seen.append)]
    assert one == [12, 12, 12]
    assert two == [str(p) for p in files]
    assert sum(seen) == 36  # progress counts reach the parent from the workers


def test_validate_file_counts_and_writes_its_report(files: list[Path]) -> None:
    result = batch.validate_file(ValidateTask(Input(str(files[0])), report="json"))
    assert result.status == "ok" and result.boards == 12
    assert result.output is not None
    text = Path(result.output).read_text()
    assert text.count('"index"') == 12
    Path(result.output).unlink()
    missing = batch.validate_file(ValidateTask(Input("no/such.pbn")))
    assert missing.status == "unreadable" and missing.errors == 1


def test_convert_file_writes_atomically(files: list[Path], tmp_path: Path) -> None:
    target = tmp_path / "out" / "x.json"
    result = batch.convert_file(ConvertTask(Input(str(files[0])), "json", str(target),
                                            verify=True))
    assert result.status == "ok" and result.written == str(target)
    assert target.exists()
    assert [p.name for p in target.parent.iterdir()] == ["x.json"]
    bad = batch.convert_file(ConvertTask(Input("no/such.pbn"), "json", str(tmp_path / "y")))
    assert bad.status == "unreadable" and not (tmp_path / "y").exists()


def test_summary_line_and_fail_on() -> None:
    summary = batch.Summary()
    result = batch.FileResult(path="x", boards=3, warnings=2)
    summary.add(result)
    assert summary.line("validated") == (
        "validated 1 file(s), 3 board(s): 0 error(s), 2 warning(s), 0 info(s)")
    assert result.fails("warning") and not result.fails("error") and not result.fails(None)


def test_charset_for_pbn_output_of_a_streamed_file(tmp_path: Path) -> None:
    cases = {
        "utf8.lin": ("pn|Müller ♠,b,c,d|".encode(), "utf-8"),
        "cp1252.lin": (b"pn|M\xfcller \x96,b,c,d|", "cp1252"),
        "latin.lin": ("pn|Müller,b,c,d|".encode(), None),
        "ascii.lin": (b"pn|Smith,b,c,d|", None),
    }
    for name, (data, expected) in cases.items():
        (tmp_path / name).write_bytes(data)
        out = tmp_path / (name + ".pbn")
        bf.convert(tmp_path / name, out, to="pbn")
        raw_name = data.split(b"|")[1].split(b",")[0]
        text = raw_name.decode("cp1252" if expected == "cp1252" else "utf-8")
        written = out.read_bytes()
        assert text.encode(expected or "iso8859-1") in written, name
        if expected != "utf-8":
            assert b"\xc3" not in written, name
