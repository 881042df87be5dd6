"""``bridgefiles validate``: every finding of every input, as compiler-style text or as
DESIGN.md's JSON report, with the double-dummy check of ``--analyze`` when asked."""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import click

import bridgefiles as bf
from bridgefiles import batch
from bridgefiles.batch import FileResult, Input, ValidateTask
from bridgefiles.cli import common
from bridgefiles.jobs.report import finding_text, json_board
from bridgefiles.model.diagnostic import Diagnostic

Check = Callable[[bf.Board], list[Diagnostic]]
ANALYSIS_EXTRA = "dds"
CARRIED = "DoubleDummyTricks, OptimumScore, ParContract, OptimumResultTable"


@dataclass
class Analyzer:
    """``--analyze``'s check, and what tells the boards it compares: those carrying
    double-dummy values on a full deal (all of them when the package does not say)."""

    check: Check
    compares: Callable[[bf.Board], bool] = lambda board: True
    compared: int = 0
    passed: int = 0  # boards with nothing to compare

    def note(self) -> str | None:
        """What was not compared, said once a run (never a check skipped in silence)."""
        if not self.passed:
            return None
        return (f"--analyze compared {self.compared} of {self.compared + self.passed} "
                f"board(s) with a fresh analysis; {self.passed} carry no double-dummy values "
                f"({CARRIED}) on a full deal and were not solved (the tricks taken at the "
                "table against double dummy: convert --to csv --dd)")


def board_check() -> Analyzer:
    """``bridgefiles.analysis.check_board``, or a usage error naming the extra to install."""
    try:
        module = importlib.import_module("bridgefiles.analysis")
        check: Check = module.check_board
        available = getattr(module, "available", None)  # the solver loads
        ready = bool(available()) if callable(available) else True
    except (ImportError, AttributeError) as exc:
        ready, why = False, f" ({exc})"
    else:
        why = ""
    if not ready:  # never a check skipped in silence
        raise click.UsageError(
            f"--analyze needs the double-dummy solver: pip install '.[{ANALYSIS_EXTRA}]' "
            f"from the bridgefiles clone{why}")
    try:
        checks = importlib.import_module("bridgefiles.analysis.check")
    except ImportError:  # a package that does not tell: every board counts as compared
        return Analyzer(check)
    return Analyzer(check, lambda board: bool(checks.carries_analysis(board)
                                              and checks.solvable_deal(board) is not None))


def analysis_findings(item: Input, source_format: str | None,
                      analyzer: Analyzer) -> list[tuple[int, Diagnostic]]:
    """The ``dd-mismatch`` findings of one input, by board index, each naming its board."""
    found: list[tuple[int, Diagnostic]] = []
    try:
        for index, board in enumerate(bf.read(item.path, source_format)):
            if not analyzer.compares(board):
                analyzer.passed += 1
                continue
            analyzer.compared += 1
            for diag in analyzer.check(board):
                found.append((index, diag if diag.board else diag.model_copy(
                    update={"board": board.label})))
    except bf.BridgeFileError:
        pass  # the validation of the same input has reported why it cannot be read
    return found


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "report_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Report as compiler-style text or as the JSON report.")
@click.option("--strict", is_flag=True, help="Stop a file at its first error.")
@common.fail_on_option("error")
@click.option("--analyze", is_flag=True,
              help=f"Also check the double-dummy values a file carries ({CARRIED}) against "
                   "a fresh analysis of the deal: error[dd-mismatch]. Only those values: a "
                   "board carrying none is not solved (the run says how many), and the "
                   "tricks taken at the table are not judged against double dummy (convert "
                   f"--dd's columns). Needs the extra {ANALYSIS_EXTRA} (pip install "
                   f"'.[{ANALYSIS_EXTRA}]'): without it, a usage error (exit 2).")
@common.laws_option
@common.from_option
@common.jobs_option
@common.progress_option
@common.quiet_option
def validate(files: tuple[str, ...], report_format: str, strict: bool, fail_on: str,
             analyze: bool, laws: str, source_format: str | None, jobs: int,
             show_progress: bool | None, quiet: bool) -> None:
    """Check FILE... against the PBN standard, the LIN conventions and the Laws."""
    analyzer = board_check() if analyze else None
    items = common.inputs(files)
    if analyzer is not None and any(i.is_stdin or (os.path.exists(i.path) and not i.regular)
                                 for i in items):
        raise click.UsageError("--analyze reads each input twice: give files, not '-' or a pipe")
    report: Literal["text", "json"] = "json" if report_format == "json" else "text"
    tasks = [ValidateTask(item, source_format, strict, report, **common.laws_settings(laws))
             for item in items]
    totals = common.Totals()

    def results() -> Iterator[FileResult]:
        for task, result in zip(tasks, common.run(batch.validate_file, tasks, jobs,
                                                  show_progress), strict=True):
            if analyzer is not None:
                _add_analysis(result, analysis_findings(task.item, source_format, analyzer),
                              report)
            totals.add(result)
            yield result

    if report == "json":
        batch.write_json_report(results(), common.stdout(), batch.Summary())
    else:
        for result in results():
            batch.copy_output(result, common.stdout())
            if result.notes:
                common.write_text("".join(common.for_people(n) + "\n" for n in result.notes))
    note = analyzer.note() if analyzer is not None else None
    if note is not None:
        common.stdout().flush()
        common.echo_err(note)
    common.finish(totals, "validated", quiet, fail_on)


def _add_analysis(result: FileResult, found: list[tuple[int, Diagnostic]], report: str) -> None:
    """Analysis findings count like any other: text lines, or in JSON in their board's
    entry (the worker's output holds one board's JSON a line)."""
    result.add(d for _, d in found)
    if report != "json":
        result.notes.extend(finding_text(d, result.path) for _, d in found)
        return
    if not found or result.output is None:
        return
    by_board: dict[int, list[dict[str, Any]]] = {}
    for index, diag in found:
        by_board.setdefault(index, []).append(diag.to_json())
    with open(result.output, encoding="utf-8") as f:
        boards = [json.loads(line.rstrip(",")) for line in f.read().split("\n") if line]
    with open(result.output, "w", encoding="utf-8") as f:
        for n, entry in enumerate(boards):
            entry["diagnostics"] = [*entry["diagnostics"], *by_board.get(entry["index"], [])]
            f.write(json_board(entry, first=n == 0))
