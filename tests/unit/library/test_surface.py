"""The public library surface the command line and the upload service build on:
bf.convert, bf.validate_input with render_text/render_json, the registry, typed errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from shared import REAL, needs_corpus

import bridgefiles as bf
from bridgefiles import batch
from bridgefiles.checks.schema import Report
from bridgefiles.formats import registry

SCORED = (
    b'[Event "e"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    b'[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]\n'
    b'[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n'
)


def test_convert_to_a_path_a_binary_stream_and_a_text_stream(tmp_path: Path) -> None:
    source = tmp_path / "in.pbn"
    source.write_bytes(SCORED)
    done = bf.convert(source, tmp_path / "out.lin")
    assert (done.format, done.to, done.boards, done.errors) == ("pbn", "lin", 1, 0)
    assert done.target == str(tmp_path / "out.lin")
    on_disk = (tmp_path / "out.lin").read_bytes()
    binary = io.BytesIO()
    bf.convert(source, binary, to="lin")
    assert binary.getvalue() == on_disk
    text = io.StringIO()
    bf.convert(io.StringIO(SCORED.decode()), text, to="lin", format="pbn")
    assert text.getvalue().encode() == on_disk


def test_convert_reports_losses_and_laws_findings_with_the_board(tmp_path: Path) -> None:
    source = tmp_path / "in.pbn"
    data = SCORED.replace(b"AKQJ.", b"AKQJJ.")
    source.write_bytes(data.replace(b"[Board", b'[Room "Open"]\n[Board'))
    done = bf.convert(source, io.BytesIO(), to="lin")
    codes = {d.code for d in done.diagnostics}
    assert {"lost-in-conversion", "deal"} <= codes
    assert {d.board for d in done.diagnostics} == {"board 1 (Open)"}
    assert done.errors == sum(d.severity is bf.Severity.ERROR for d in done.diagnostics)


def test_convert_findings_match_validate(tmp_path: Path) -> None:
    source = tmp_path / "in.pbn"
    source.write_bytes(SCORED.replace(b"AKQJ.", b"AKQJJ."))
    report = bf.validate_input(source)
    done = bf.convert(source, io.BytesIO(), to="pbn")
    assert (done.errors, done.warnings) == (report.counts.errors, report.counts.warnings)
    assert done.errors == 2


def test_convert_score_fills_in_and_a_file_with_no_board_is_an_error(tmp_path: Path) -> None:
    out = io.BytesIO()
    bf.convert(io.BytesIO(SCORED.replace(b'[Result "10"]\n', b"")), out, format="pbn",
               to="pbn", score=False)
    assert b"Score" not in out.getvalue()
    scored = io.BytesIO()
    bf.convert(io.BytesIO(SCORED), scored, format="pbn", score=True)
    assert b'[Score "NS 420"]' in scored.getvalue()
    target = tmp_path / "keep.pbn"
    target.write_text("old\n")
    with pytest.raises(bf.BridgeFileError, match="no board"):
        bf.convert(io.BytesIO(b""), target, format="pbn")
    assert target.read_text() == "old\n"


def test_validate_input_and_render_json_match_the_batch_byte_for_byte(tmp_path: Path) -> None:
    good = tmp_path / "good.pbn"
    good.write_bytes(SCORED)
    bad = tmp_path / "bad.pbn"
    bad.write_bytes(SCORED.replace(b"AKQJ.", b"AKQJJ."))
    empty = tmp_path / "empty.lin"
    empty.write_bytes(b"")
    paths = [good, bad, empty, tmp_path / "missing.pbn"]
    reports = [bf.validate_input(p) for p in paths]
    out = io.StringIO()
    tasks = [batch.ValidateTask(batch.Input(str(p)), report="json") for p in paths]
    batch.write_json_report(batch.run(batch.validate_file, tasks, jobs=1), out, batch.Summary())
    assert bf.render_json(reports) == out.getvalue()
    data = json.loads(out.getvalue())
    Report.model_validate(data)
    assert data["files"][2]["boards"] == [] and '"boards": [\n\n]' not in out.getvalue()
    assert [d.message[:8] for d in reports[2].diagnostics] == ["no board"]  # said once
    assert reports[3].status == "unreadable"
    assert "missing.pbn: missing.pbn" not in bf.render_text(reports)
    assert data["summary"]["errors"] == sum(r.counts.errors for r in reports)


def test_a_file_report_and_a_batch_count_in_one_summary_type(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pbn"
    bad.write_bytes(SCORED.replace(b"AKQJ.", b"AKQJJ."))
    paths = [bad, tmp_path / "missing.pbn"]
    from_reports = batch.Summary()
    for path in paths:
        counts = bf.validate_input(path).counts
        assert type(counts) is batch.Summary and counts.files == 1
        from_reports.merge(counts)
    from_batch = batch.Summary()
    tasks = [batch.ValidateTask(batch.Input(str(p)), report="none") for p in paths]
    for result in batch.run(batch.validate_file, tasks, jobs=1):
        from_batch.add(result)
    assert from_reports == from_batch
    assert (from_batch.files, from_batch.boards, from_batch.unreadable) == (2, 1, 1)
    assert from_batch.line("validated").endswith("; 1 input(s) failed")
    assert from_batch.to_json() == json.loads(bf.render_json(
        [bf.validate_input(p) for p in paths]))["summary"]


def test_counts_is_the_old_name_of_the_summary() -> None:
    from bridgefiles.jobs import report

    with pytest.warns(DeprecationWarning, match="Counts is now .*Summary"):
        old = report.Counts
    assert old is report.Summary is batch.Summary
    counts = old(1, 2, 3, 4)  # the old order: boards, errors, warnings, infos
    assert (counts.boards, counts.errors, counts.warnings, counts.infos) == (1, 2, 3, 4)
    with pytest.raises(AttributeError):
        report.Tallies  # noqa: B018


def test_render_text_names_the_board() -> None:
    report = bf.validate_input(SCORED.replace(b"AKQJ.", b"AKQJJ."), name="x.pbn")
    text = bf.render_text([report])
    assert text.startswith("x.pbn:5:")
    assert "error[deal] board 1: " in text


def test_validate_input_takes_bytes_streams_and_names() -> None:
    for source in (SCORED, io.BytesIO(SCORED), io.StringIO(SCORED.decode())):
        report = bf.validate_input(source, name="upload.pbn")
        assert (report.path, report.format, report.counts.boards) == ("upload.pbn", "pbn", 1)


def test_registry_is_the_one_list() -> None:
    assert registry.names(kind="table") == ["csv", "parquet"]
    assert registry.extension("json") == ".json"
    assert registry.charset("pbn") == "iso8859-1" and registry.charset("parquet") is None
    assert registry.media_type("json") == "application/json"
    assert ".pbn" in registry.read_extensions() and ".csv" not in registry.read_extensions()
    assert batch.BOARD_FORMATS == (
        "bri", "dge", "dlm", "dup", "json", "lin", "pbn", "rbn", "url", "usebio"
    )
    assert batch.TABLE_FORMATS == ("csv", "parquet")


@pytest.mark.parametrize("format", ["html", "csv", "parquet"])
def test_an_output_format_that_is_not_text_is_a_usage_error(format: str) -> None:
    f = bf.loads(SCORED)
    with pytest.raises(bf.UsageError):
        bf.dumps(f, format=format)


def test_score_settings_are_typed_and_the_method_selectable() -> None:
    from bridgefiles.scoring.fill import ScoreSettings

    f = bf.loads(SCORED)
    assert bf.score(f, method="IMP").boards[0].tag("Score") == "NS 420"
    assert bf.score(f, settings=ScoreSettings(score_form="ns")).boards[0].tag("Score") == "NS 420"
    with pytest.raises(bf.UsageError):
        bf.score(f, settings={"units": "1"})  # type: ignore[arg-type]
    with pytest.raises(bf.UsageError):
        bf.score(f, laws="1997")  # type: ignore[arg-type]


@needs_corpus
def test_convert_real_files_to_a_stream_equals_to_a_path(tmp_path: Path) -> None:
    for name in ("pbn/pbntools__sm0807.pbn", "lin/aabridge__103_mitche_097.lin"):
        source = REAL / name
        for to in ("pbn", "lin", "json"):
            target = tmp_path / f"out.{to}"
            bf.convert(source, target, to=to)
            stream = io.BytesIO()
            bf.convert(source, stream, to=to)
            assert stream.getvalue() == target.read_bytes(), (name, to)


@pytest.mark.parametrize(("old", "new"), [
    ("bridgefiles.table", "bridgefiles.views.table"),
    ("bridgefiles.dask", "bridgefiles.batch.dask"),
    ("bridgefiles.synthetic", "bridgefiles.testing.synthetic"),
])
def test_an_old_module_name_warns_with_its_new_name_and_is_that_module(old: str,
                                                                       new: str) -> None:
    code = (f"import warnings, importlib\nwith warnings.catch_warnings(record=True) as w:\n"
            f"    warnings.simplefilter('always')\n    old = importlib.import_module({old!r})\n"
            f"print([str(x.message) for x in w if x.category is DeprecationWarning])\n"
            f"print(old is importlib.import_module({new!r}))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.splitlines() == [repr([f"{old} is now {new}"]), "True"], done.stderr
