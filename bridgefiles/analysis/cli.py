"""The commands ``analyze`` and ``handrecord``, added to ``bridgefiles`` by its ``cli.py``.

Importable without the extras: the solver, jinja2 and weasyprint are imported inside the
command bodies, and a missing one is a usage error (exit 2) naming the extra to install.

    bridgefiles analyze event.pbn -o analysed.pbn       # tables and par written in
    bridgefiles analyze event.pbn --check               # only compare: exit 1 on dd-mismatch
    bridgefiles handrecord event.pbn -o records.pdf --boards 1-18
"""

from __future__ import annotations

import sys
import time
from itertools import chain
from pathlib import Path

import click

from bridgefiles.batch.inputs import STDIN, Input, output_path, output_targets, same_file
from bridgefiles.batch.pool import default_jobs
from bridgefiles.cli import common
from bridgefiles.cli.convert import make_folder
from bridgefiles.cli.progress import Bar
from bridgefiles.errors import BridgeFileError

EXIT_OK, EXIT_FOUND, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3


def _targets(items: list[Input], output: str | None, out_dir: str | None,
             check: bool) -> list[str | None]:
    """Where each input's analysed PBN goes (None: standard output; nothing with
    ``--check``): the rule every writing command follows (``inputs.output_targets``:
    never an input, never two inputs onto one file)."""
    if check:
        return [None] * len(items)
    for item in items:
        target = output if output is not None else (
            str(output_path(item, out_dir, "pbn")) if out_dir is not None else None)
        if target not in (None, STDIN) and not item.is_stdin and same_file(item.path, target):
            raise click.UsageError(f"{target} is an input; analyze never overwrites one")
    try:
        found = output_targets(items, "pbn", output, out_dir, force=True)
    except BridgeFileError as exc:
        raise click.UsageError(str(exc)) from None
    return [None if t == STDIN else t for t in found]


@click.command("analyze")
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", default=None,
              help="Output file ('-' for standard output); one input only.")
@click.option("--out-dir", default=None,
              help="Write outputs into this folder, mirroring the input tree.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0,
              help="Worker processes for several files (default: all cores).")
@click.option("--check", is_flag=True,
              help="Only compare what the files carry with a fresh analysis.")
@common.progress_option
@common.quiet_option
def analyze(files: tuple[str, ...], output: str | None, out_dir: str | None, jobs: int,
            check: bool, show_progress: bool | None, quiet: bool) -> None:
    """Write double-dummy tables and par into every board of FILE... with a full deal.

    Adds DoubleDummyTricks, OptimumScore, ParContract and OptimumResultTable, keeping the
    rest of each file as read; values already there are compared, and replaced when the
    deal says otherwise (reported as dd-mismatch). Needs the extra 'dds'.
    """
    from bridgefiles.analysis import files as work
    from bridgefiles.analysis import solver

    if not solver.available():
        raise click.UsageError(solver.MISSING)
    items = common.inputs(files)
    if sum(x is not None for x in (output, out_dir)) > 1:
        raise click.UsageError("give only one of -o and --out-dir")
    if output is not None and len(items) > 1:
        raise click.UsageError("-o takes one input; use --out-dir for several")
    if sum(i.is_stdin for i in items) > 1:
        raise click.UsageError("standard input can be read once")
    tasks = [work.FileTask(path=item.display, target=target, check=check, stdin=item.is_stdin,
                           error=item.error)
             for item, target in zip(items, _targets(items, output, out_dir, check), strict=True)]
    if out_dir is not None and not check:
        make_folder(out_dir, "the output folder")
    started = time.monotonic()
    status, boards, analysed, changed, found, unsolved = EXIT_OK, 0, 0, 0, 0, 0
    sizes = [i.size for i in items]
    bar = Bar(len(items), sum(sizes), enabled=show_progress, sizes=sizes,
              jobs=jobs or default_jobs())
    try:
        for item, outcome in zip(items, work.run_tasks(tasks, jobs or default_jobs(), bar),
                                 strict=True):
            for line in outcome.findings:  # on stdout with --check (the report), else stderr
                if check:
                    common.write_text(line + "\n")
                else:
                    common.echo_err(line)
            bar.file_done(item.size, outcome.boards)
            if outcome.error is not None:
                common.echo_err(outcome.error)
                status = max(status, EXIT_BUG if outcome.internal else EXIT_USAGE)
                continue
            work.copy_output(outcome, common.write_bytes)
            if outcome.export_form:
                common.echo_err(f"{outcome.path}: note: {outcome.export_form} boards could not "
                                "be edited in place and were written in PBN export form")
            boards += outcome.boards
            analysed += outcome.analysed
            changed += outcome.changed
            found += outcome.mismatches
            unsolved += outcome.unsolved
    finally:
        bar.close()
    common.stdout().flush()
    if check and found and status == EXIT_OK:
        status = EXIT_FOUND
    if not quiet:
        what = "compared" if check else f"{changed} written,"
        why = f" ({unsolved} without a full deal of four 13-card hands)" if unsolved else ""
        common.echo_err(f"{len(tasks)} files, {boards} boards, {analysed} analysed{why}, "
                        f"{what} {found} dd-mismatch in {time.monotonic() - started:.1f} s")
    sys.exit(status)


_RANGES = "give a board, a range like 1-18, or a list like 1,3,5-7"


def _bad_boards(text: str, why: str) -> click.BadParameter:
    return click.BadParameter(f"{text!r}: {why} ({_RANGES})", param_hint="--boards")


def _board_number(part: str, text: str) -> int:
    part = part.strip()
    if not part:
        raise _bad_boards(text, "a range needs a board at each end")
    if not part.isdecimal():
        raise _bad_boards(text, f"{part!r} is not a board number")
    number = int(part)
    if number < 1:
        raise _bad_boards(text, "boards are numbered from 1")
    return number


def _board_range(text: str | None) -> tuple[int, int] | None:
    """One board or one range (``7``, ``1-18``); a usage error saying what is wrong."""
    if text is None:
        return None
    low, dash, high = text.strip().partition("-")
    first = _board_number(low, text)
    last = _board_number(high, text) if dash else first
    if last < first:
        raise _bad_boards(text, f"the range runs backwards (write {last}-{first})")
    return first, last


def _board_ranges(text: str | None) -> list[tuple[int, int]] | None:
    """Boards and ranges separated by commas (``1,3,5-7``)."""
    if text is None:
        return None
    parts = text.split(",")
    if not text.strip():
        raise _bad_boards(text, "no board given")
    if any(not part.strip() for part in parts):
        raise _bad_boards(text, "an empty item between commas")
    return [r for part in parts if (r := _board_range(part)) is not None]


@click.command("handrecord")
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", required=True,
              help="OUT.pdf or OUT.html ('-': HTML on standard output).")
@click.option("--boards", "board_range", default=None,
              help="Boards to print: 1-18, or a list like 1,3,5-7.")
@click.option("--per-page", type=click.IntRange(1, 6), default=6, show_default=True,
              help="Boards per page.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Page size (the layout fits both).")
@click.option("--no-analysis", is_flag=True,
              help="Do not solve boards that carry no analysis (no grid for them).")
@click.option("--write-through", "through", is_flag=True,
              help="Write into a symbolic link, FIFO or device given as -o (else refused).")
def handrecord(files: tuple[str, ...], output: str, board_range: str | None, per_page: int,
               paper: str, no_analysis: bool, through: bool) -> None:
    """Print hand records of FILE...: hands, makeable contracts and par of each board.

    The grid and par come from the tags a file carries, else from a fresh analysis when
    the extra 'dds' is installed. HTML needs the extra 'pdf' (jinja2), PDF too (weasyprint).
    The reading's findings are reported on standard error; a board whose deal is not four
    sound hands is left out, saying so.
    """
    from bridgefiles.analysis import handrecord as hr

    kind = ".html" if output == "-" else Path(output).suffix.lower()
    if kind not in (".pdf", ".html", ".htm"):
        raise click.UsageError("-o must end in .pdf or .html ('-': HTML on standard output)")
    if not hr.available(pdf=kind == ".pdf"):
        raise click.UsageError(hr.MISSING)
    wanted = _board_ranges(board_range)
    items = common.inputs(files)
    event = hr.Event()
    boards = hr.records([i.path for i in items], event, wanted, solve=not no_analysis,
                        on_finding=common.echo_err)
    first = next(boards, None)  # the event's title is known once a board is to be printed
    if first is None:
        common.echo_err("no boards to print")
        sys.exit(EXIT_USAGE if event.unreadable else EXIT_FOUND)
    html = hr.render(event, chain([first], boards), per_page=per_page, paper=paper)
    if kind == ".pdf":
        hr.write_pdf(html, output, through=through)
    elif output == "-":
        for piece in html:
            common.write_bytes(piece.encode("utf-8"))
    else:
        hr.write_html(html, output, through=through)
    common.echo_err(f"{event.printed} boards written to {output}")
    sys.exit(EXIT_USAGE if event.unreadable else EXIT_OK)


COMMANDS: tuple[click.Command, ...] = (analyze, handrecord)
