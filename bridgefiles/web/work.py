"""The CPU work of the service, run in worker processes: never on the event loop.

Each function takes the path of an upload inside its request's temporary folder and the
name the client gave the file (shown in reports, never used for a path), and returns what
the response carries. Only the library's public surface is used (``bf.validate_input``,
``bf.render_json``, ``bf.convert``), so the bytes are those the command line gives for
the same input. Outputs are written in the request's folder under fixed names.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

import bridgefiles as bf
from bridgefiles.formats import registry
from bridgefiles.reading import binary_input
from bridgefiles.web.view import ReportView, board_view, finding

Target = Literal["pbn", "lin", "json", "csv"]
Laws = Literal["2017", "2007"]
TARGETS: tuple[Target, ...] = ("pbn", "lin", "json", "csv")
METHODS = ("MP", "IMP", "IMP;Butler", "IMP;Cross")
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
        return ".json" if self.format == "report" else registry.extension(self.format)


@dataclass(frozen=True)
class Options:
    """The form's options: stop at the first error, the Laws' edition, the scoring method."""

    strict: bool = False
    laws: Laws = "2017"
    method: str | None = None

    @classmethod
    def from_form(cls, fields: dict[str, str]) -> Options:
        laws: Laws = "2007" if fields.get("laws") == "2007" else "2017"
        method = fields.get("method", "").strip() or None
        if method is not None and method not in METHODS:
            raise InputProblem(f"unknown scoring method {method!r}", 422)
        strict = fields.get("strict", "") not in ("", "0", "false", "off")
        return cls(strict=strict, laws=laws, method=method)


def warm() -> None:
    """Run once in each worker as it starts: imports, grammars and templates made ready."""
    from bridgefiles.web import pages

    bf.validate_input(b'[Board "1"]\n[Dealer "N"]\n[Contract "3NT"]\n', name="warm.pbn")
    bf.validate_input(b"pn|a,b,c,d|md|1SAKQ,,,|mb|p|mb|p|mb|p|mb|p|\n", name="warm.lin")
    pages.environment().get_template("report.html")


def refuse_binary(path: str, name: str) -> None:
    """PBN and LIN are text: the command line's rule (``reading.binary_input``: a NUL in
    the head outside UTF-16; a compressed file judged by what it unpacks to)."""
    if binary_input(path):
        raise InputProblem(
            f"{name} is a binary file, not a PBN or LIN text file: nothing was read", 415
        )


def _validated(path: str, name: str, strict: bool, laws: Laws) -> bf.FileReport:
    refuse_binary(path, name)
    report = bf.validate_input(path, name=name, strict=strict, laws=laws)
    if report.status == "unreadable":
        reasons = "; ".join(d.message for d in report.diagnostics) or "cannot read the file"
        raise InputProblem(reasons, 422)
    return report


def validate_json(path: str, name: str, strict: bool = False, laws: Laws = "2017") -> bytes:
    """The JSON report of ``bridgefiles validate --format json NAME``, byte for byte."""
    return bf.render_json([_validated(path, name, strict, laws)]).encode("utf-8")


def report_view(path: str, name: str, options: Options) -> ReportView:
    """What the report page shows: the summary and each board with findings."""
    report = _validated(path, name, options.strict, options.laws)
    view = ReportView(name=name, format=report.format)
    counts = report.counts
    view.boards, view.errors, view.warnings, view.infos = (
        counts.boards, counts.errors, counts.warnings, counts.infos)
    view.file_findings = [finding(d) for d in report.diagnostics]
    for board_report in report.boards:
        if not board_report.diagnostics:
            continue
        if len(view.shown) >= MAX_BOARDS_SHOWN:
            view.not_shown += 1
            continue
        score = board_report.score
        shown = f"NS {score.ns:+d}, EW {score.ew:+d}" if score is not None else None
        view.shown.append(board_view(board_report.board, board_report.diagnostics, shown))
    return view


def report_page(path: str, name: str, options: Options, token: str, root: str = "") -> str:
    """The report page's HTML (rendered here, in the worker, not on the event loop)."""
    from bridgefiles.web.pages import report_page as render

    return render(report_view(path, name, options), token, options, root)


def _converted(path: str, name: str, target: str, to: str | None, **how: object) -> Output:
    refuse_binary(path, name)
    try:
        done = bf.convert(path, target, to=to, name=name, check=False, **how)  # type: ignore[arg-type]
    except bf.InternalError:
        raise  # our bug: a 500, never blamed on the file
    except bf.BridgeFileError as exc:
        raise InputProblem(str(exc), 422) from exc
    with open(target, "rb") as f:
        data = f.read()
    os.unlink(target)
    return Output(data, done.to)


def _out(path: str, stem: str) -> str:
    return os.path.join(os.path.dirname(path), stem)


def convert(path: str, name: str, to: Target, strict: bool = False) -> Output:
    """The file as ``bridgefiles convert NAME --to TO -o OUT`` writes it."""
    return _converted(path, name, _out(path, f"output.{to}"), to, strict=strict)


def score(path: str, name: str, method: str | None = None, laws: Laws = "2017") -> Output:
    """The file in its own format with results and scores filled in (``bridgefiles score``);
    ``method`` a Scoring value used instead of each board's own."""
    return _converted(path, name, _out(path, "scored"), None, score=True, layout="preserve",
                      method=method, laws=laws)


def download(path: str, name: str, kind: str, options: Options) -> Output:
    """A download of the report page: a conversion, the JSON report or the scored file."""
    if kind == "report":
        return Output(validate_json(path, name, options.strict, options.laws), "report")
    if kind == "scored":
        return score(path, name, options.method, options.laws)
    for target in TARGETS:
        if kind == target:
            return convert(path, name, target, options.strict)
    raise InputProblem(f"no such download: {kind}", 404)
