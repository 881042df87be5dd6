"""The CPU work of the service, run in worker processes: never on the event loop.

Each function takes the path of an upload inside its request's temporary folder and the
name the client gave the file (shown in reports, never used for a path), and returns what
the response carries. Only the library's public surface is used (``bf.validate_input``,
``bf.render_json``, ``bf.convert``; ``finding_text`` for a finding as the command line
prints it), so the bytes are those the command line gives for the same input. Outputs
are written in the request's folder under fixed names.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Literal

import bridgefiles as bf
from bridgefiles.files.reading import binary_input
from bridgefiles.formats import registry
from bridgefiles.jobs.report import finding_text
from bridgefiles.limits import Limits
from bridgefiles.web.findings import finding
from bridgefiles.web.results import Laws as Laws
from bridgefiles.web.results import score_file
from bridgefiles.web.view import ReportView, board_view

Target = Literal["pbn", "lin", "json", "csv", "usebio", "bri", "dge", "dup", "dlm", "rbn"]
# What /api/convert?to= and the report page's downloads write: the command line's
# `convert --to` names (USEBIO results of the scored event; dealing machines; RBN).
TARGETS: tuple[Target, ...] = ("pbn", "lin", "json", "csv", "usebio", "bri", "dge", "dup",
                               "dlm", "rbn")
MAX_LOSSES_SAID = 50  # lost-in-conversion lines an answer names; all of them are counted
# A scoring method by the name `bridgefiles score --method` takes, and by the PBN Scoring
# value that name stands for (the form's values), any case -> that Scoring value.
METHODS: dict[str, str] = {
    "MP": "MP", "IMP": "IMP", "Butler": "IMP;Butler", "Butler-2": "IMP;Butler-2",
    "Cross-IMP": "IMP;Cross", "BAM": "BAM", "Rubber": "Rubber", "Chicago": "Chicago",
}
_SCORING = {k.lower(): v for k, v in METHODS.items()}
_SCORING.update({v.lower(): v for v in METHODS.values()})
MAX_BOARDS_SHOWN = 400  # boards with findings drawn on one page; the JSON report has them all


class InputProblem(Exception):
    """The upload cannot be read as a deal file: a 4xx answer with this message."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Output:
    """A file to send back: bytes, the format they are in, and what the conversion could
    not carry (``lost``: how many lost-in-conversion findings; ``losses``: the first
    of them as the command line prints them)."""

    data: bytes
    format: str
    lost: int = 0
    losses: tuple[str, ...] = ()

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
        edition = fields.get("laws", "").strip() or "2017"
        if edition not in ("2017", "2007"):  # as --laws refuses it: never a silent default
            raise InputProblem(f"unknown Laws edition {edition!r}: 2017 or 2007", 422)
        laws: Laws = "2007" if edition == "2007" else "2017"
        method = scoring_value(fields.get("method"))
        strict = fields.get("strict", "") not in ("", "0", "false", "off")
        return cls(strict=strict, laws=laws, method=method)


def scoring_value(method: str | None) -> str | None:
    """The Scoring value a method names (None: each board's own); an unknown one is a 422,
    as ``bridgefiles score --method`` refuses it."""
    method = (method or "").strip()
    if not method:
        return None
    value = _SCORING.get(method.lower())
    if value is None:
        raise InputProblem(
            f"unknown scoring method {method!r}: one of {', '.join(METHODS)}", 422)
    return value


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


_GIVE_FORMAT = re.compile(r"\s*\(give the format: [^)]*\)")


def _service_words(message: str) -> str:
    """The library's message as the service says it: the form and the API have no format
    to give, the file's name or content decides."""
    if "give the format" not in message:
        return message
    return _GIVE_FORMAT.sub("", message) + (
        " (the service reads PBN and LIN: name the file .pbn or .lin, or check that it is "
        "one)")


def _validated(path: str, name: str, strict: bool, laws: Laws) -> bf.FileReport:
    refuse_binary(path, name)
    report = bf.validate_input(path, name=name, strict=strict, laws=laws)
    if report.status == "unreadable":
        reasons = "; ".join(d.message for d in report.diagnostics) or "cannot read the file"
        raise InputProblem(_service_words(reasons), 422)
    return report


def validate_json(path: str, name: str, strict: bool = False, laws: Laws = "2017") -> bytes:
    """The JSON report of ``bridgefiles validate --format json NAME``, byte for byte."""
    return bf.render_json([_validated(path, name, strict, laws)]).encode("utf-8")


def report_view(path: str, name: str, options: Options) -> ReportView:
    """What the report page shows: the summary, the standings, and each board with
    findings or a result of its own (a traveller, or the only table of its deal); a board
    whose result is a row of another's traveller is drawn only for its findings."""
    report = _validated(path, name, options.strict, options.laws)
    scored = score_file(path, name, options.method, options.laws, report.counts.errors)
    view = ReportView(name=name, format=report.format, standings=scored.standings,
                      results_problem=scored.problem)
    counts = report.counts
    view.boards, view.errors, view.warnings, view.infos = (
        counts.boards, counts.errors, counts.warnings, counts.infos)
    view.file_findings = [finding(d) for d in report.diagnostics]
    for board_report in report.boards:
        index = board_report.board.index
        if board_report.diagnostics:
            view.with_findings += 1
        elif index in scored.covered:
            continue
        if len(view.shown) >= MAX_BOARDS_SHOWN:
            view.not_shown += 1
            continue
        score = board_report.score
        shown = f"NS {score.ns:+d}, EW {score.ew:+d}" if score is not None else None
        view.shown.append(board_view(board_report.board, board_report.diagnostics, shown,
                                     scored))
    return view


def report_page(path: str, name: str, options: Options, token: str, root: str = "") -> str:
    """The report page's HTML (rendered here, in the worker, not on the event loop),
    within the output budget of its upload (``Limits.output_budget``, as a conversion):
    past it, fewer boards are drawn and the page says how many are left out."""
    from bridgefiles.web.pages import report_page as render

    view = report_view(path, name, options)
    budget = Limits().output_budget(os.path.getsize(path))
    page = render(view, token, options, root)
    while budget is not None and len(page.encode("utf-8")) > budget and view.shown:
        keep = len(view.shown) // 2
        view.not_shown += len(view.shown) - keep
        view.shown = view.shown[:keep]
        page = render(view, token, options, root)
    return page


def _converted(path: str, name: str, target: str, to: str | None, **how: object) -> Output:
    refuse_binary(path, name)
    losses: list[str] = []
    lost = 0

    def said(diag: bf.Diagnostic) -> None:  # the rest of the findings are validate's
        nonlocal lost
        if diag.code == "lost-in-conversion":
            lost += 1
            if len(losses) < MAX_LOSSES_SAID:
                losses.append(finding_text(diag, name))

    try:
        done = bf.convert(path, target, to=to, name=name, check=False, on_diagnostic=said,
                          **how)  # type: ignore[arg-type]
    except bf.InternalError:
        raise  # our bug: a 500, never blamed on the file
    except bf.BridgeFileError as exc:
        raise InputProblem(_service_words(str(exc)), 422) from exc
    with open(target, "rb") as f:
        data = f.read()
    os.unlink(target)
    return Output(data, done.to, lost, tuple(losses))


def _out(path: str, stem: str) -> str:
    return os.path.join(os.path.dirname(path), stem)


def convert(path: str, name: str, to: Target, strict: bool = False, scored: bool = False,
            method: str | None = None, laws: Laws = "2017") -> Output:
    """The file as ``bridgefiles convert NAME --to TO -o OUT`` writes it (``scored``: with
    ``--score``, and ``--method`` when ``method`` is given)."""
    if method is not None and not scored:  # as convert refuses --method without --score
        raise InputProblem("method says how to score: give it with score=true", 422)
    how: dict[str, object] = {"score": True, "method": method, "laws": laws} if scored else {}
    return _converted(path, name, _out(path, f"output.{to}"), to, strict=strict, **how)


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
    if kind == "usebio":  # results for the national body: the event scored as the form says
        return convert(path, name, "usebio", options.strict, scored=True,
                       method=options.method, laws=options.laws)
    for target in TARGETS:
        if kind == target:
            return convert(path, name, target, options.strict)
    raise InputProblem(f"no such download: {kind}", 404)
