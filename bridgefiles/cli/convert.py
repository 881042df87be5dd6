"""``bridgefiles convert`` and ``bridgefiles score``: write every input to a file, a folder or
standard output, and report every finding on the way (reading, the Laws, what the target
cannot carry, scoring) on standard error, as text or JSON."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Literal

import click

from bridgefiles import batch
from bridgefiles.batch import ConvertTask, FileResult, Input
from bridgefiles.batch.inputs import output_targets
from bridgefiles.cli import common
from bridgefiles.errors import BridgeFileError
from bridgefiles.formats import registry

# --method: the PBN Scoring value (PBN 10) each name stands for
METHODS = {"MP": "MP", "IMP": "IMP", "Butler": "IMP;Butler", "Butler-2": "IMP;Butler-2",
           "Cross-IMP": "IMP;Cross", "BAM": "BAM", "Rubber": "Rubber", "Chicago": "Chicago"}


def writable_formats() -> list[str]:
    return registry.names(writable=True)


def board_formats() -> list[str]:
    return registry.names(kind="boards", readable=True, writable=True)


def table_formats() -> list[str]:
    return registry.names(kind="table")


def make_folder(folder: str | Path, why: str) -> None:
    """A folder for outputs; one that cannot be made (a file in the way, no permission)
    is a usage error."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise click.UsageError(f"{why} {folder} cannot be made: {exc.strerror or exc}") from None


def targets(items: list[Input], to: str, output: str | None, out_dir: str | None,
            in_place: bool, force: bool) -> list[str]:
    """Where each input's output goes (:func:`bridgefiles.batch.inputs.output_targets`: never
    over an input, never two inputs to one file), or a usage error."""
    if registry.charset(to) is None and output in (None, batch.STDIN) and out_dir is None \
            and not in_place:
        raise click.UsageError(f"{to} is binary: give -o FILE or --out-dir DIR")
    try:
        return output_targets(items, to, output, out_dir, in_place=in_place, force=force)
    except BridgeFileError as exc:
        raise click.UsageError(str(exc)) from None


def write_results(tasks: list[ConvertTask], jobs: int, fail_on: str | None, quiet: bool,
                  verb: str, report_format: str, show_progress: bool | None,
                  merge: tuple[str, str, str] | None = None) -> None:
    """Run the work, copy what goes to standard output, report, and exit."""
    totals = common.Totals()
    written: list[str] = []
    entries: list[dict[str, Any]] = []
    for result in common.run(batch.convert_file, tasks, jobs, show_progress):
        totals.add(result)
        if result.status == "ok":
            written.append(result.written or batch.STDIN)
        if report_format == "json":
            entries.append(json_entry(result))
        else:
            for line in text_lines(result):
                common.echo_err(line)
        batch.copy_output(result, common.stdout())
    if merge is not None:
        merge_output([t.target for t in tasks if t.target in written], *merge)
    if report_format == "json":  # the report alone on its stream: its summary is inside
        common.echo_err(json.dumps({"version": 1, "files": entries,
                                    "summary": totals.summary.to_json()}, ensure_ascii=False))
    common.finish(totals, verb, quiet or report_format == "json", fail_on,
                  nothing_written=not written)


def text_lines(result: FileResult) -> list[str]:
    """The findings of one file, then why it failed (its path said once)."""
    lines = [common.for_people(n) for n in result.notes]
    if result.status != "ok" and result.message is not None:
        message = result.message
        if message.startswith(f"{result.path}: "):
            message = message[len(result.path) + 2:]
        failure = f"{result.path}: error: {common.for_people(message)}"
        if not any(message in line for line in lines):
            lines.append(failure)
    return lines


def json_entry(result: FileResult) -> dict[str, Any]:
    return {"path": result.path, "format": result.format, "status": result.status,
            "message": result.message, "written": result.written, "boards": result.boards,
            "diagnostics": [*result.file_diagnostics, *result.findings]}


def merge_output(parts: list[str], target: str, to: str, folder: str) -> None:
    """Join the per-file tables (in input order) into ``target``, and remove the parts
    and their ``folder``."""
    from bridgefiles.files.output import temporary_beside
    from bridgefiles.views.table import merge_tables

    try:
        if not parts:  # nothing was converted: nothing is written, not even a header
            return
        if target == batch.STDIN:
            fd, whole = tempfile.mkstemp(prefix="bridgefiles-", suffix=registry.extension(to))
            os.close(fd)
            try:
                merge_tables(parts, whole, to)
                with open(whole, "rb") as f:
                    while chunk := f.read(1 << 16):
                        common.write_bytes(chunk)
            finally:
                os.unlink(whole)
        else:
            tmp = temporary_beside(target)
            merge_tables(parts, tmp, to)
            os.replace(tmp, target)
    finally:
        for part in parts:
            if os.path.exists(part):
                os.unlink(part)
        if os.path.isdir(folder) and not os.listdir(folder):
            os.rmdir(folder)


report_option = click.option(
    "--report", "report_format", type=click.Choice(["text", "json"]), default="text",
    show_default=True, help="Findings on standard error as compiler-style text or as JSON.")
method_option = click.option(
    "--method", type=click.Choice(list(METHODS), case_sensitive=False), default=None,
    help="Score by this method instead of each board's Scoring tag.")
write_options = common.stacked(
    click.option("--out-dir", default=None,
                 help="Write outputs into this folder, mirroring the input tree."),
    click.option("--in-place", is_flag=True,
                 help="Write each output beside its input (replacing it when the format is "
                      "the same)."),
    click.option("--force", is_flag=True, help="Allow overwriting an input file."),
    click.option("--verify", is_flag=True,
                 help="Read each output back and compare it with what was written before "
                      "replacing anything."),
    click.option("--write-through", "through", is_flag=True,
                 help="Write into a symbolic link, FIFO or device given as -o (else refused)."),
)
run_options = common.stacked(
    common.fail_on_option(None), report_option, common.laws_option, common.from_option,
    common.jobs_option, common.progress_option, common.quiet_option)


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--to", "to", type=click.Choice(writable_formats()), required=True,
              help="Output format (url: handviewer links; usebio: USEBIO 1.2 XML results of a "
                   "scored event (--score scores it first); bri, dge, dup, dlm: the deals "
                   "for a dealing machine, once each; rbn: Pavlicek's notation; csv and "
                   "parquet: one row a board). What the format cannot carry is a "
                   "lost-in-conversion warning.")
@click.option("-o", "--output", "output", default=None,
              help="Output file ('-' for standard output); one input, or a table of several "
                   "(--score --to usebio -o event.xml: the event's results for the "
                   "national body).")
@write_options
@click.option("--score", "do_score", is_flag=True, help="Fill in results and scores.")
@method_option
@click.option("--preserve", is_flag=True,
              help="Keep the text as read where the format does not change.")
@click.option("--strict", is_flag=True, help="Fail a file at its first error.")
@click.option("--dd", "dd", is_flag=True,
              help="With --to csv or parquet: add the columns dd_tricks, dd_score_ns and "
                   "dd_difference (double dummy for the contract played, and the tricks at "
                   "the table less those; extra dds).")
@run_options
def convert(files: tuple[str, ...], to: str, output: str | None, out_dir: str | None,
            in_place: bool, force: bool, verify: bool, through: bool, do_score: bool,
            method: str | None, preserve: bool, strict: bool, dd: bool, fail_on: str | None,
            report_format: str, laws: str, source_format: str | None, jobs: int,
            show_progress: bool | None, quiet: bool) -> None:
    """Convert FILE... to PBN (export format), LIN, JSON, handviewer URLs, USEBIO XML,
    a dealing machine's BRI, DGE, DUP or DLM file, RBN, or a table."""
    if method is not None and not do_score:
        raise click.UsageError("--method says how to score: give it with --score")
    items = common.inputs(files)
    table = to in table_formats()
    columns = dd_columns(to, table) if dd else {}
    if to == "parquet":
        from bridgefiles.views.table import have_parquet

        if not have_parquet():
            raise click.UsageError("--to parquet needs pyarrow: pip install '.[parquet]'")
    if output is not None and len(items) > 1 and not table:
        raise click.UsageError("-o takes one input; use --out-dir for several")
    found = targets(items, to, output, out_dir, in_place, force)
    merge: tuple[str, str, str] | None = None
    if table and (len(items) > 1 or output in (None, batch.STDIN)) and out_dir is None \
            and not in_place:
        # one table for all inputs: each worker writes a part, the parts are joined in order
        parent = None if output in (None, batch.STDIN) else str(Path(str(output)).parent)
        if parent is not None:
            make_folder(parent, "the folder of")
        parts = tempfile.mkdtemp(prefix=".bridgefiles-parts-", dir=parent)
        merge = (output or batch.STDIN, to, parts)
        found = [os.path.join(parts, f"{n:06d}{registry.extension(to)}")
                 for n in range(len(items))]
    elif output not in (None, batch.STDIN):
        make_folder(Path(str(output)).parent, "the folder of")
    if out_dir is not None:
        make_folder(out_dir, "the output folder")
    layout: Literal["export", "preserve"] = "preserve" if preserve else "export"
    tasks = [ConvertTask(item, to, target, source_format, layout, do_score, verify, strict,
                         through=through, method=METHODS.get(method or ""),
                         **columns, **common.laws_settings(laws))
             for item, target in zip(items, found, strict=True)]
    write_results(tasks, jobs, fail_on, quiet, "converted", report_format, show_progress, merge)


def dd_columns(to: str, table: bool) -> dict[str, Any]:
    """``--dd``: the ConvertTask settings of the double-dummy columns, or a usage error
    (not a table; the solver, extra ``dds``, not installed: never a column left empty
    in silence)."""
    if not table:
        raise click.UsageError(f"--dd adds columns to a table: give --to csv or parquet, "
                               f"not {to}")
    from bridgefiles.analysis import available, ddscore  # the solver itself loads lazily

    if not available():
        raise click.UsageError("--dd needs the double-dummy solver: pip install '.[dds]' "
                               "from the bridgefiles clone")
    return {"extra": ddscore.dd_columns, "extra_types": ddscore.DD_COLUMN_TYPES}


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", "output", default=None,
              help="Output file (default: standard output); one input only; its extension "
                   "names the format to write (-o event.xml: USEBIO 1.2 XML results).")
@write_options
@click.option("--replace", is_flag=True, help="Replace existing values that disagree.")
@method_option
@run_options
def score(files: tuple[str, ...], output: str | None, out_dir: str | None, in_place: bool,
          force: bool, verify: bool, through: bool, replace: bool, method: str | None,
          fail_on: str | None, report_format: str, laws: str, source_format: str | None,
          jobs: int, show_progress: bool | None, quiet: bool) -> None:
    """Write FILE... back in their own format with results and scores filled in
    (or in the format -o's extension names: -o event.xml writes USEBIO XML)."""
    items = common.inputs(files)
    if output is not None and len(items) > 1:
        raise click.UsageError("-o takes one input; use --out-dir or --in-place for several")
    tasks: list[ConvertTask] = []
    named = registry.from_path(output) if output not in (None, batch.STDIN) else None
    for item in items:  # -o event.xml: the format its extension names (USEBIO), else its own
        # own_format gives "" for a pipe's, known once it is read
        fmt = named.name if named is not None and named.write else own_format(item, source_format)
        target = targets([item], fmt or "pbn", output, out_dir, in_place, force)[0]
        tasks.append(ConvertTask(item, fmt, target, source_format, "preserve", True, verify,
                                 replace=replace, through=through, method=METHODS.get(method or ""),
                                 **common.laws_settings(laws)))
    if out_dir is not None:
        make_folder(out_dir, "the output folder")
    elif output not in (None, batch.STDIN):
        make_folder(Path(str(output)).parent, "the folder of")
    write_results(tasks, jobs, fail_on, quiet, "scored", report_format, show_progress)


def own_format(item: Input, forced: str | None) -> str:
    """The format a scored file is written back in: its own (a URL becomes LIN); ""
    for a pipe with no telling name (the writer takes the format it was read in)."""
    name = forced or _named_or_sniffed(item)
    if name == "":
        return name
    return "lin" if name not in board_formats() else name


def _named_or_sniffed(item: Input) -> str:
    """The format as the reader will tell it (name, else content, a compressed file by
    what it unpacks to), for a regular file; "" for standard input, a pipe or a FIFO,
    which are read once (the writer then takes the format they were read in)."""
    if not item.regular:
        return ""
    from bridgefiles.files import reading

    try:
        opened = reading.open_source(item.path)
        try:
            _, head, kind = reading.unpacked(opened, reading.read_head(opened))
            return reading.pick_format(None, reading.plain_name(item.path, kind), head).name
        finally:
            opened.close()
    except BridgeFileError:
        return ""  # unreadable: the reader says why
