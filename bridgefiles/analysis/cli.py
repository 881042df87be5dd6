"""The commands ``analyze`` and ``handrecord``, added to ``bridgefiles`` by its ``cli.py``.

Importable without the extras: the solver, jinja2 and weasyprint are imported inside the
command bodies, and a missing one is a usage error (exit 2) naming the extra to install.

    bridgefiles analyze event.pbn -o analysed.pbn       # tables and par written in
    bridgefiles analyze event.pbn --check               # only compare: exit 1 on dd-mismatch
    bridgefiles handrecord event.pbn -o records.pdf --boards 1-18
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import click

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
_SUFFIXES = (".pbn", ".lin")


def _expand(files: Sequence[str]) -> list[str]:
    """Files as given; folders searched for PBN and LIN files; ``-`` is standard input."""
    out: list[str] = []
    for name in files:
        if name != "-" and os.path.isdir(name):
            found = sorted(str(p) for p in Path(name).rglob("*")
                           if p.is_file() and p.suffix.lower() in _SUFFIXES)
            out.extend(found)
        else:
            out.append(name)
    if out.count("-") > 1:
        raise click.UsageError("standard input can be read once")
    return out


def _target(path: str, output: str | None, out_dir: str | None) -> str | None:
    if output is not None:
        return output
    if out_dir is not None:
        name = "stdin.pbn" if path == "-" else Path(path).with_suffix(".pbn").name
        return str(Path(out_dir) / name)
    return None


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


class _Progress:
    """A one-line count on standard error, on a terminal and past the first few seconds."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.started = time.monotonic()
        self.shown = False

    def __call__(self, done: int) -> None:
        if self.enabled and time.monotonic() - self.started > 2:
            click.echo(f"\ranalysed {done} deals", err=True, nl=False)
            self.shown = True

    def close(self) -> None:
        if self.shown:
            click.echo("", err=True)


@click.command("analyze")
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", default=None,
              help="Output file ('-' for standard output); one input only.")
@click.option("--out-dir", default=None, help="Write each output into this folder.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0,
              help="Worker processes for several files (default: all cores).")
@click.option("--check", is_flag=True,
              help="Only compare what the files carry with a fresh analysis.")
@click.option("-q", "--quiet", is_flag=True, help="No summary line at the end.")
def analyze(files: tuple[str, ...], output: str | None, out_dir: str | None, jobs: int,
            check: bool, quiet: bool) -> None:
    """Write double-dummy tables and par into every board of FILE... with a full deal.

    Adds DoubleDummyTricks, OptimumScore, ParContract and OptimumResultTable, keeping the
    rest of each file as read; values already there are compared, and replaced when the
    deal says otherwise (reported as dd-mismatch). Needs the extra 'dds'.
    """
    from bridgefiles.analysis import files as work
    from bridgefiles.analysis import solver

    if not solver.available():
        raise click.UsageError(solver.MISSING)
    paths = _expand(files)
    if sum(x is not None for x in (output, out_dir)) > 1:
        raise click.UsageError("give only one of -o and --out-dir")
    if output is not None and len(paths) > 1:
        raise click.UsageError("-o takes one input; use --out-dir for several")
    tasks = []
    for path in paths:
        target = None if check else _target(path, output, out_dir)
        if target not in (None, "-") and path != "-" and _same(path, target):
            raise click.UsageError(f"{target} is an input; analyze never overwrites one")
        data = work.read_stdin() if path == "-" else None
        tasks.append(work.FileTask(path=path, target=target, check=check, data=data))
    if out_dir is not None and not check:
        os.makedirs(out_dir, exist_ok=True)
    progress = _Progress()
    started = time.monotonic()
    status, boards, analysed, changed, found = EXIT_OK, 0, 0, 0, 0
    try:
        for outcome in work.run_tasks(tasks, jobs or os.cpu_count() or 1, progress):
            for line in outcome.findings:
                click.echo(line, err=not check)
            if outcome.error is not None:
                click.echo(f"{outcome.path}: error: {outcome.error}", err=True)
                status = EXIT_USAGE if "internal error" not in outcome.error else EXIT_FOUND
                continue
            if outcome.output is not None:
                sys.stdout.write(outcome.output)
            if outcome.export_form:
                click.echo(f"{outcome.path}: note: {outcome.export_form} boards could not be "
                           "edited in place and were written in PBN export form", err=True)
            boards += outcome.boards
            analysed += outcome.analysed
            changed += outcome.changed
            found += outcome.mismatches
    finally:
        progress.close()
    sys.stdout.flush()
    if check and found and status == EXIT_OK:
        status = EXIT_FOUND
    if not quiet:
        what = "compared" if check else f"{changed} written,"
        click.echo(f"{len(tasks)} files, {boards} boards, {analysed} analysed, {what} "
                   f"{found} dd-mismatch in {time.monotonic() - started:.1f} s", err=True)
    sys.exit(status)


def _board_range(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        raise click.BadParameter("a board or a range like 1-18", param_hint="--boards") from None
    if first < 1 or last < first:
        raise click.BadParameter("a board or a range like 1-18", param_hint="--boards")
    return first, last


@click.command("handrecord")
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", required=True,
              help="OUT.pdf or OUT.html ('-': HTML on standard output).")
@click.option("--boards", "board_range", default=None, help="Boards to print, e.g. 1-18.")
@click.option("--per-page", type=click.IntRange(1, 6), default=6, show_default=True,
              help="Boards per page.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Page size (the layout fits both).")
@click.option("--no-analysis", is_flag=True,
              help="Do not solve boards that carry no analysis (no grid for them).")
def handrecord(files: tuple[str, ...], output: str, board_range: str | None, per_page: int,
               paper: str, no_analysis: bool) -> None:
    """Print hand records of FILE...: hands, makeable contracts and par of each board.

    The grid and par come from the tags a file carries, else from a fresh analysis when
    the extra 'dds' is installed. HTML needs the extra 'pdf' (jinja2), PDF too (weasyprint).
    """
    from bridgefiles.analysis import handrecord as hr
    from bridgefiles.errors import BridgeFileError

    kind = ".html" if output == "-" else Path(output).suffix.lower()
    if kind not in (".pdf", ".html", ".htm"):
        raise click.UsageError("-o must end in .pdf or .html ('-': HTML on standard output)")
    if not hr.available(pdf=kind == ".pdf"):
        raise click.UsageError(hr.MISSING)
    wanted = _board_range(board_range)
    try:
        event = hr.collect(_expand(files), wanted, solve=not no_analysis)
        if not event.boards:
            click.echo("no boards to print", err=True)
            sys.exit(EXIT_FOUND)
        html = hr.render_html(event, per_page=per_page, paper=paper)
        if kind == ".pdf":
            hr.write_pdf(html, output)
        elif output == "-":
            sys.stdout.write(html)
        else:
            Path(output).write_text(html, encoding="utf-8")
    except BridgeFileError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(f"{len(event.boards)} boards written to {output}", err=True)


COMMANDS: tuple[click.Command, ...] = (analyze, handrecord)
