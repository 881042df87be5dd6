"""The CPU work of the service, run in worker processes: never on the event loop.

Each function takes the path of an upload inside its request's temporary folder and the
name the client gave the file (shown in reports, never used for a path), and returns what
the response carries. Outputs are written in that same folder, under fixed names, and
read back as bytes: the bytes the command line writes for the same input.
"""

from __future__ import annotations

import codecs
import os
from dataclasses import dataclass
from typing import Literal

from bridgefiles import batch
from bridgefiles.batch import ConvertTask, FileResult, Input, Summary, ValidateTask
from bridgefiles.errors import BridgeFileError
from bridgefiles.formats.registry import FileInfo
from bridgefiles.validate import validate_board
from bridgefiles.web.view import ReportView, board_view, finding

Target = Literal["pbn", "lin", "json", "csv"]
METHODS = ("MP", "IMP", "IMP;Butler", "IMP;Cross")
TARGETS: tuple[Target, ...] = ("pbn", "lin", "json", "csv")
MAX_BOARDS_SHOWN = 400  # boards with findings drawn on one page; the JSON report has them all


class InputProblem(Exception):
    """The upload cannot be read as a deal file: a 4xx answer with this message."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Output:
    """A file to send back: bytes and the format they are in."""

    data: bytes
    format: str

    @property
    def extension(self) -> str:
        return ".json" if self.format == "report" else f".{self.format}"


@dataclass(frozen=True)
class Options:
    """The form's options: stop at the first error, the Laws' edition, the scoring method."""

    strict: bool = False
    laws: Literal["2017", "2007"] = "2017"
    method: str | None = None

    @classmethod
    def from_form(cls, fields: dict[str, str]) -> Options:
        laws: Literal["2017", "2007"] = "2007" if fields.get("laws") == "2007" else "2017"
        method = fields.get("method", "").strip() or None
        if method is not None and method not in METHODS:
            raise InputProblem(f"unknown scoring method {method!r}", 422)
        strict = fields.get("strict", "") not in ("", "0", "false", "off")
        return cls(strict=strict, laws=laws, method=method)


_TEXT_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def refuse_binary(path: str, name: str) -> None:
    """PBN and LIN are text: a NUL byte in the head (outside UTF-16) means a binary file."""
    with open(path, "rb") as f:
        head = f.read(8192)
    if b"\0" in head and not head.startswith(_TEXT_BOMS):
        raise InputProblem(
            f"{name} is a binary file, not a PBN or LIN text file: nothing was read", 415
        )


def _message(result: FileResult, path: str, name: str) -> str:
    return (result.message or "cannot read the file").replace(path, name)


def _check(result: FileResult, path: str, name: str) -> None:
    if result.status == "unreadable":
        raise InputProblem(_message(result, path, name), 422)
    if result.status == "failed":
        raise InputProblem(_message(result, path, name), 422)


def validate_json(path: str, name: str, strict: bool = False) -> bytes:
    """The JSON report of ``bridgefiles validate --format json NAME``, byte for byte."""
    refuse_binary(path, name)
    import io

    task = ValidateTask(Input(path), None, strict, "json")
    result = batch.validate_file(task)
    if result.status == "unreadable":
        if result.output:
            os.unlink(result.output)
        raise InputProblem(_message(result, path, name), 422)
    result.path = name
    out = io.StringIO()
    batch.write_json_report([result], out, Summary())
    return out.getvalue().encode("utf-8")


def report_view(path: str, name: str, strict: bool = False) -> ReportView:
    """What the report page shows: the summary and each board with findings."""
    refuse_binary(path, name)
    info = FileInfo()
    view = ReportView(name=name, format=batch.format_name(Input(path), None))
    try:
        for board in batch.read_file(path, None, strict=strict, info=info):
            report = validate_board(board)
            view.boards += 1
            view.count(report.diagnostics)
            if not report.diagnostics:
                continue
            if len(view.shown) >= MAX_BOARDS_SHOWN:
                view.not_shown += 1
                continue
            score = None
            if report.score is not None:
                score = f"NS {report.score.ns:+d}, EW {report.score.ew:+d}"
            located = [d.model_copy(update={"path": name}) for d in report.diagnostics]
            view.shown.append(board_view(board, located, score))
    except BridgeFileError as exc:
        raise InputProblem(str(exc).replace(path, name), 422) from exc
    view.count(info.diagnostics)
    view.file_findings = [finding(d) for d in info.diagnostics]
    return view


def report_page(path: str, name: str, options: Options, token: str, root: str = "") -> str:
    """The report page's HTML (rendered here, in the worker, not on the event loop)."""
    from bridgefiles.web.pages import report_page as render

    return render(report_view(path, name, options.strict), token, options, root)


def convert(path: str, name: str, to: Target, strict: bool = False) -> Output:
    """The file as ``bridgefiles convert FILE --to TO -o OUT`` writes it."""
    refuse_binary(path, name)
    if to == "csv":  # the table names the file in each row: the client's name
        from bridgefiles.table import write_table

        try:
            write_table(batch.read_file(path, None, strict=strict), _out(path, to), to, path=name)
        except BridgeFileError as exc:
            raise InputProblem(str(exc).replace(path, name), 422) from exc
        with open(_out(path, to), "rb") as f:
            return Output(f.read(), to)
    if to == "json":  # the JSON file names the file it came from: the client's name
        import bridgefiles as bf

        with open(path, "rb") as f:
            f.raw.name = name  # type: ignore[attr-defined]
            try:
                bf.write(bf.load(f, strict=strict), _out(path, to), "json")
            except BridgeFileError as exc:
                raise InputProblem(str(exc).replace(path, name), 422) from exc
        with open(_out(path, to), "rb") as f:
            return Output(f.read(), to)
    return _write(path, name, to, ConvertTask(Input(path), to, _out(path, to), strict=strict))


def score(path: str, name: str, method: str | None = None) -> Output:
    """The file in its own format with results and scores filled in (``bridgefiles score``)."""
    refuse_binary(path, name)
    fmt = batch.format_name(Input(path), None)
    if fmt not in batch.BOARD_FORMATS:
        fmt = "pbn"
    if method is not None:
        import bridgefiles as bf

        try:
            scored = bf.score(bf.load(path), method=method)
            bf.write(scored, _out(path, fmt), fmt, layout="preserve")
        except BridgeFileError as exc:
            raise InputProblem(str(exc).replace(path, name), 422) from exc
        with open(_out(path, fmt), "rb") as f:
            return Output(f.read(), fmt)
    task = ConvertTask(Input(path), fmt, _out(path, fmt), layout="preserve", score=True)
    return _write(path, name, fmt, task)


def download(path: str, name: str, kind: str, options: Options) -> Output:
    """A download of the report page: a conversion, the JSON report or the scored file."""
    if kind == "report":
        return Output(validate_json(path, name, options.strict), "report")
    if kind == "scored":
        return score(path, name, options.method)
    if kind in TARGETS:
        return convert(path, name, kind, options.strict)
    raise InputProblem(f"no such download: {kind}", 404)


def _out(path: str, to: str) -> str:
    return os.path.join(os.path.dirname(path), f"output.{to}")


def _write(path: str, name: str, to: str, task: ConvertTask) -> Output:
    result = batch.convert_file(task)
    _check(result, path, name)
    with open(task.target, "rb") as f:
        data = f.read()
    os.unlink(task.target)
    return Output(data, to)
