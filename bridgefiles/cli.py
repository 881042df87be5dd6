"""The command line: a thin layer over the library (validate, convert, score, show, schema).

Inputs are files, folders (searched recursively), globs and ``-`` for standard input;
``bridgefiles.batch`` walks them and runs the per-file work, in worker processes with
``--jobs``. Exit status (DESIGN.md): 0 nothing wrong, 1 at least one error found
(validate) or one input failed (convert, score), 2 usage error or unreadable input.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import click

from bridgefiles import batch
from bridgefiles.batch import ConvertTask, FileResult, Input, Progress, Summary, ValidateTask
from bridgefiles.errors import BridgeFileError

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
_FORMATS = ["pbn", "lin", "json", "url"]
_TARGETS = [*batch.BOARD_FORMATS, *batch.TABLE_FORMATS]


def _echo_err(message: str) -> None:
    click.echo(message, err=True)


def _inputs(files: Sequence[str]) -> list[Input]:
    try:
        return batch.expand(files)
    except BridgeFileError as exc:
        _echo_err(f"error: {exc}")
        sys.exit(EXIT_USAGE)


def _run(
    func: Callable[[Any, batch.Report], FileResult],
    tasks: Sequence[Any],
    jobs: int | None,
) -> Iterator[FileResult]:
    """Results in input order, with the progress bar (on a terminal, on long runs only)."""
    items = [t.item for t in tasks]
    progress = Progress(len(items), sum(i.size for i in items))
    if progress.enabled:
        progress.per_board_hint = batch.bytes_per_board(items)
    try:
        # workers report progress only when there is a bar to draw (it costs a manager process)
        report = progress if progress.enabled else None
        for task, result in zip(tasks, batch.run(func, tasks, jobs, report), strict=True):
            progress.file_done(task.item.size, result.boards)
            yield result
    finally:
        progress.close()


def _status(results: Sequence[FileResult], fail_on: str | None) -> int:
    if any(r.status == "unreadable" for r in results):
        return EXIT_USAGE
    if any(r.status == "failed" or r.fails(fail_on) for r in results):
        return EXIT_FOUND
    return EXIT_OK


_jobs_option = click.option(
    "-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=False,
    help="Worker processes (default: all cores; 1 works in this process).")
_from_option = click.option(
    "--from", "source_format", type=click.Choice(_FORMATS), default=None,
    help="Input format (default: from the name, else the content).")
_quiet_option = click.option("-q", "--quiet", is_flag=True, help="No summary line at the end.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bridgefiles")
def main() -> None:
    """Read, validate, score and rewrite contract-bridge deal files (PBN and LIN).

    FILE may be a file, a folder (searched recursively), a glob or '-' for standard input.
    """


# -- validate -----------------------------------------------------------------------------


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "report_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Report as compiler-style text or as the JSON report.")
@click.option("--strict", is_flag=True, help="Stop a file at its first error.")
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default="error",
              show_default=True, help="Exit 1 when a finding this severe (or worse) is found.")
@_from_option
@_jobs_option
@_quiet_option
def validate(files: tuple[str, ...], report_format: str, strict: bool, fail_on: str,
             source_format: str | None, jobs: int, quiet: bool) -> None:
    """Check FILE... against the PBN standard, the LIN conventions and the Laws."""
    items = _inputs(files)
    report: Literal["text", "json"] = "json" if report_format == "json" else "text"
    tasks = [ValidateTask(item, source_format, strict, report) for item in items]
    summary = Summary()
    started = time.monotonic()
    results: list[FileResult] = []

    def collected() -> Iterator[FileResult]:
        for result in _run(batch.validate_file, tasks, jobs or None):
            results.append(_light(result))
            if result.status != "ok" and report == "text":
                _echo_err(f"{result.path}: error: {result.message}")
            yield result

    out = sys.stdout
    if report == "json":
        batch.write_json_report(collected(), out, summary)
    else:
        for result in collected():
            batch.copy_output(result, out)
            for note in result.notes:
                out.write(note + "\n")
            summary.add(result)
    out.flush()
    summary.seconds = time.monotonic() - started
    if not quiet:
        _echo_err(summary.line("validated"))
    sys.exit(_status(results, fail_on))


def _light(result: FileResult) -> FileResult:
    """What the exit status needs, without the per-file lists."""
    return FileResult(path=result.path, errors=result.errors, warnings=result.warnings,
                      status=result.status, boards=result.boards)


# -- convert and score ------------------------------------------------------------------------


def _targets(items: list[Input], to: str, output: str | None, out_dir: str | None,
             in_place: bool, force: bool) -> list[str]:
    """Where each input's output goes; refuses (usage error) to overwrite an input."""
    if sum((output is not None, out_dir is not None, in_place)) > 1:
        raise click.UsageError("give only one of -o, --out-dir and --in-place")
    if in_place and any(i.is_stdin for i in items):
        raise click.UsageError("--in-place cannot write back to standard input")
    if to == "parquet" and (output in (None, "-")) and out_dir is None and not in_place:
        raise click.UsageError("Parquet is binary: give -o FILE or --out-dir DIR")
    if output is not None:
        targets = [output] * len(items)
    elif out_dir is not None:
        targets = [str(batch.output_path(i, out_dir, to)) for i in items]
    elif in_place:
        targets = [str(Path(i.path).with_suffix(batch._EXTENSIONS[to])) for i in items]
    else:
        targets = [batch.STDIN] * len(items)
    if not force and not in_place:
        for target in targets:
            if target == batch.STDIN or not os.path.exists(target):
                continue
            for item in items:
                if not item.is_stdin and batch.same_file(target, item.path):
                    raise click.UsageError(
                        f"{target} is an input; it is never overwritten without --force "
                        "(or --in-place)")
    seen: dict[str, str] = {}
    for item, target in zip(items, targets, strict=True):
        if target == batch.STDIN or output is not None:
            continue
        key = os.path.abspath(target)
        if key in seen:
            raise click.UsageError(f"{seen[key]} and {item.display} would both write {target}")
        seen[key] = item.display
    return targets


def _write_results(tasks: list[ConvertTask], jobs: int, fail_on: str | None, quiet: bool,
                   verb: str, merge: tuple[str, str] | None) -> None:
    summary = Summary()
    started = time.monotonic()
    results: list[FileResult] = []
    out = sys.stdout
    for result in _run(batch.convert_file, tasks, jobs or None):
        results.append(_light(result))
        summary.add(result)
        if result.status != "ok":
            _echo_err(f"{result.path}: error: {result.message}")
        for note in result.notes:
            _echo_err(note)
        batch.copy_output(result, out)
    out.flush()
    if merge is not None:
        from bridgefiles.table import merge_tables

        target, to = merge
        parts = [t.target for t, r in zip(tasks, results, strict=True) if r.status == "ok"]
        _merge_output(parts, target, to, merge_tables, [t.target for t in tasks])
    summary.seconds = time.monotonic() - started
    if not quiet:
        _echo_err(summary.line(verb))
    sys.exit(_status(results, fail_on))


def _merge_output(parts: list[str], target: str, to: str,
                  merge_tables: Callable[[list[str], str, str], None],
                  tasks_parts: list[str]) -> None:
    """Join the per-file tables (``parts``, in input order) into ``target``, atomically,
    and remove the parts and their folder, whatever happens."""
    try:
        if target == batch.STDIN:
            tmp = tempfile.mkdtemp(prefix="bridgefiles-")
            whole = os.path.join(tmp, "table.csv")
            merge_tables(parts, whole, to)
            with open(whole, encoding="utf-8", newline="") as f:
                out = sys.stdout
                for line in f:
                    out.write(line)
                out.flush()
            os.unlink(whole)
            os.rmdir(tmp)
        else:
            tmp_target = batch._temp_beside(target)
            merge_tables(parts, tmp_target, to)
            os.replace(tmp_target, target)
    finally:
        for part in parts:
            if os.path.exists(part):
                os.unlink(part)
        folder = os.path.dirname(tasks_parts[0]) if tasks_parts else None
        if folder and os.path.isdir(folder) and not os.listdir(folder):
            os.rmdir(folder)


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--to", "to", type=click.Choice(_TARGETS), required=True,
              help="Output format (csv and parquet: one row per board).")
@click.option("-o", "--output", "output", default=None,
              help="Output file ('-' for standard output); one input, or a table of several.")
@click.option("--out-dir", default=None,
              help="Write outputs into this folder, mirroring the input tree.")
@click.option("--in-place", is_flag=True,
              help="Write each output beside its input (replacing it when the format is the same).")
@click.option("--force", is_flag=True, help="Allow overwriting an input file.")
@click.option("--verify", is_flag=True,
              help="Read each output back and compare it with what was written before "
                   "replacing anything.")
@click.option("--score", "do_score", is_flag=True, help="Fill in results and scores.")
@click.option("--preserve", is_flag=True,
              help="Keep the text as read where the format does not change.")
@click.option("--strict", is_flag=True, help="Fail a file at its first error.")
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default=None,
              help="Also exit 1 when reading finds a problem this severe.")
@_from_option
@_jobs_option
@_quiet_option
def convert(files: tuple[str, ...], to: str, output: str | None, out_dir: str | None,
            in_place: bool, force: bool, verify: bool, do_score: bool, preserve: bool,
            strict: bool, fail_on: str | None, source_format: str | None, jobs: int,
            quiet: bool) -> None:
    """Convert FILE... to PBN (export format), LIN, JSON, or a table (CSV, Parquet)."""
    items = _inputs(files)
    table = to in batch.TABLE_FORMATS
    if to == "parquet":
        from bridgefiles.table import have_parquet

        if not have_parquet():
            raise click.UsageError("--to parquet needs pyarrow: pip install 'bridgefiles[parquet]'")
    if output is not None and len(items) > 1 and not table:
        raise click.UsageError("-o takes one input; use --out-dir for several")
    targets = _targets(items, to, output, out_dir, in_place, force)
    merge: tuple[str, str] | None = None
    if table and (len(items) > 1 or output is None) and out_dir is None and not in_place:
        # one table for all inputs: each worker writes a part, the parts are joined in order
        parts_dir = tempfile.mkdtemp(prefix=".bridgefiles-parts-",
                                     dir=_parts_parent(output))
        merge = (output or batch.STDIN, to)
        targets = [os.path.join(parts_dir, f"{n:06d}.{to}") for n in range(len(items))]
    if not table and output not in (None, batch.STDIN):
        Path(output).parent.mkdir(parents=True, exist_ok=True)
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
    layout: Literal["export", "preserve"] = "preserve" if preserve else "export"
    tasks = [
        ConvertTask(item, to, target, source_format, layout, do_score, verify, strict)
        for item, target in zip(items, targets, strict=True)
    ]
    _write_results(tasks, jobs, fail_on, quiet, "converted", merge)


def _parts_parent(output: str | None) -> str | None:
    if output in (None, batch.STDIN):
        return None
    parent = Path(str(output)).parent
    parent.mkdir(parents=True, exist_ok=True)
    return str(parent)


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", "output", default=None,
              help="Output file (default: standard output); one input only.")
@click.option("--out-dir", default=None,
              help="Write outputs into this folder, mirroring the input tree.")
@click.option("--in-place", is_flag=True, help="Replace each input with its scored version.")
@click.option("--force", is_flag=True, help="Allow overwriting an input file.")
@click.option("--verify", is_flag=True,
              help="Read each output back and compare it with what was written before "
                   "replacing anything.")
@click.option("--replace", is_flag=True, help="Replace existing values that disagree.")
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default=None,
              help="Also exit 1 when reading finds a problem this severe.")
@_from_option
@_jobs_option
@_quiet_option
def score(files: tuple[str, ...], output: str | None, out_dir: str | None, in_place: bool,
          force: bool, verify: bool, replace: bool, fail_on: str | None,
          source_format: str | None, jobs: int, quiet: bool) -> None:
    """Write FILE... back in their own format with results and scores filled in."""
    items = _inputs(files)
    if output is not None and len(items) > 1:
        raise click.UsageError("-o takes one input; use --out-dir or --in-place for several")
    tasks: list[ConvertTask] = []
    for item in items:
        fmt = batch.format_name(item, source_format)
        if fmt not in batch.BOARD_FORMATS:
            fmt = "lin" if fmt == "url" else _sniffed(item)
        target = _targets([item], fmt, output, out_dir, in_place, force)[0]
        tasks.append(ConvertTask(item, fmt, target, source_format, "preserve", True, verify,
                                 replace=replace))
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
    _write_results(tasks, jobs, fail_on, quiet, "scored", None)


def _sniffed(item: Input) -> str:
    """The format of an input whose name does not say it (read from its head)."""
    if item.is_stdin:
        return "pbn"
    from bridgefiles.formats import registry

    try:
        with open(item.path, "rb") as f:
            head = f.read(8192).decode("utf-8", "replace").lstrip("\ufeff")
    except OSError:
        return "pbn"
    fmt = registry.sniff(head)
    if fmt is None or fmt.name not in batch.BOARD_FORMATS:
        return "lin" if fmt is not None and fmt.name == "url" else "pbn"
    return fmt.name


# -- show ---------------------------------------------------------------------------------


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--board", "board_number", default=None, help="Board number to show (default all).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Letters instead of suit symbols.")
@_from_option
def show(files: tuple[str, ...], board_number: str | None, ascii_only: bool,
         source_format: str | None) -> None:
    """Show boards of FILE...: hand diagram, auction, play, result and score."""
    from bridgefiles.render import can_print_symbols, render_board

    out = sys.stdout
    symbols = not ascii_only and can_print_symbols(out)
    shown = 0
    status = EXIT_OK
    for item in _inputs(files):
        try:
            for board in batch.read_file(item.path, source_format):
                if board_number is not None and board.board_number != board_number:
                    continue
                if shown:
                    out.write("\n")
                out.write(render_board(board, symbols=symbols) + "\n")
                shown += 1
        except BridgeFileError as exc:
            _echo_err(f"{item.display}: error: {exc}")
            status = EXIT_USAGE
    out.flush()
    if shown == 0 and status == EXIT_OK:
        _echo_err(f"no board {board_number}" if board_number else "no boards")
        status = EXIT_FOUND
    sys.exit(status)


# -- schema ----------------------------------------------------------------------------------


@main.command()
@click.argument("which", type=click.Choice(["report", "board"]), default="report")
def schema(which: str) -> None:
    """The JSON Schema of the validate JSON report, or of the board model."""
    from bridgefiles.schema import board_schema, report_schema

    data = report_schema() if which == "report" else board_schema()
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


for _command in __import__("bridgefiles.web.cli", fromlist=["COMMANDS"]).COMMANDS:
    main.add_command(_command)

if __name__ == "__main__":  # pragma: no cover
    main()
