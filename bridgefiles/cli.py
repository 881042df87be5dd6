"""The command line: a thin layer over the library (validate, convert, score, show).

Exit status (DESIGN.md): 0 nothing wrong, 1 at least one error found (validate)
or one input failed (convert, score), 2 usage error or unreadable input.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from bridgefiles import api
from bridgefiles.errors import BridgeFileError
from bridgefiles.formats import registry
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic, Severity, count

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
_FORMATS = ["pbn", "lin", "json", "url"]


def _echo_err(message: str) -> None:
    click.echo(message, err=True)


def _display(path: str) -> str:
    return "<stdin>" if path == "-" else path


class _Unreadable(Exception):
    """An input that could not be read at all (exit 2)."""


def _boards(path: str, fmt: str | None, strict: bool) -> Iterator[Board]:
    try:
        yield from api.read(path, fmt, strict=strict)
    except BridgeFileError as exc:
        raise _Unreadable(str(exc)) from exc


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bridgefiles")
def main() -> None:
    """Read, validate, score and rewrite contract-bridge deal files (PBN and LIN)."""


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "report_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Report as compiler-style text or as the JSON report.")
@click.option("--strict", is_flag=True, help="Stop a file at its first error.")
@click.option("--from", "source_format", type=click.Choice(_FORMATS), default=None,
              help="Input format (default: from the name, else the content).")
def validate(files: tuple[str, ...], report_format: str, strict: bool,
             source_format: str | None) -> None:
    """Check FILE... against the PBN standard, the LIN conventions and the Laws."""
    from bridgefiles.validate import BoardReport, report_json, validate_board

    status = EXIT_OK
    json_files: list[tuple[str, str, list[Diagnostic], list[BoardReport]]] = []
    totals = {"files": 0, "boards": 0, "errors": 0, "warnings": 0, "infos": 0}
    for path in files:
        shown = _display(path)
        fmt_name = source_format or _guess_format_name(path)
        file_diags: list[Diagnostic] = []
        reports: list[BoardReport] = []
        totals["files"] += 1
        try:
            for board in _boards(path, source_format, strict):
                report = validate_board(board)
                totals["boards"] += 1
                if report_format == "json":
                    reports.append(report)
                else:
                    for d in report.diagnostics:
                        click.echo(d.format(shown))
                for key, n in count(list(report.diagnostics)).items():
                    totals[key] += n
        except _Unreadable as exc:
            status = EXIT_USAGE
            diag = Diagnostic(code="syntax", severity=Severity.ERROR, message=str(exc))
            file_diags.append(diag)
            totals["errors"] += 1
            if report_format == "text":
                _echo_err(f"{shown}: error: {exc}")
        json_files.append((shown, fmt_name, file_diags, reports))
    if totals["errors"] and status == EXIT_OK:
        status = EXIT_FOUND
    if report_format == "json":
        click.echo(json.dumps(report_json(json_files), indent=2, ensure_ascii=False))
    else:
        _echo_err(
            f"{totals['files']} file(s), {totals['boards']} board(s): {totals['errors']} "
            f"error(s), {totals['warnings']} warning(s), {totals['infos']} info(s)"
        )
    sys.exit(status)


def _guess_format_name(path: str) -> str:
    fmt = registry.from_path(path) if path != "-" else None
    return fmt.name if fmt else "unknown"


def _output_path(path: str, out_dir: str | None, to: str) -> str:
    target = Path(path).with_suffix("." + ("json" if to == "json" else to))
    if out_dir is None:
        return str(target)
    return str(Path(out_dir) / target.name)


def _write_boards(boards: Any, target: str | None, to: str, layout: str) -> list[Diagnostic]:
    """Write to a path (atomically) or to standard output; returns conversion findings."""
    collected: list[Diagnostic] = []
    if target is None or target == "-":
        out = sys.stdout
        for piece in api.iter_dumps(boards, to, layout=layout):  # type: ignore[arg-type]
            out.write(piece)
        out.flush()
        return collected
    api.write(boards, target, to, layout=layout)  # type: ignore[arg-type]
    return collected


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--to", "to", type=click.Choice(["pbn", "lin", "json"]), required=True,
              help="Output format.")
@click.option("-o", "--output", "output", default=None,
              help="Output file ('-' for standard output); one input only.")
@click.option("--out-dir", default=None, help="Write each output into this folder.")
@click.option("--score", "do_score", is_flag=True, help="Fill in results and scores.")
@click.option("--preserve", is_flag=True,
              help="Keep the text as read where the format does not change.")
@click.option("--from", "source_format", type=click.Choice(_FORMATS), default=None,
              help="Input format (default: from the name, else the content).")
def convert(files: tuple[str, ...], to: str, output: str | None, out_dir: str | None,
            do_score: bool, preserve: bool, source_format: str | None) -> None:
    """Convert FILE... to PBN (export format), LIN or JSON."""
    if output is not None and len(files) > 1:
        raise click.UsageError("-o takes one input; use --out-dir for several")
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
    status = EXIT_OK
    layout = "preserve" if preserve else "export"
    for path in files:
        target = output
        if target is None:
            target = "-" if out_dir is None else _output_path(path, out_dir, to)
        try:
            if do_score:
                loaded = api.load(path, source_format)
                data: Any = api.score(loaded)
            else:
                data = api.load(path, source_format) if layout == "preserve" else _boards(
                    path, source_format, False
                )
            _write_boards(data, target, to, layout)
        except (_Unreadable, BridgeFileError) as exc:
            _echo_err(f"{_display(path)}: error: {exc}")
            status = EXIT_USAGE if isinstance(exc, _Unreadable) else EXIT_FOUND
    sys.exit(status)


@main.command()
@click.argument("file")
@click.option("-o", "--output", "output", default=None,
              help="Output file (default: standard output).")
@click.option("--replace", is_flag=True, help="Replace existing values that disagree.")
@click.option("--from", "source_format", type=click.Choice(_FORMATS), default=None)
def score(file: str, output: str | None, replace: bool, source_format: str | None) -> None:
    """Write FILE back in its own format with results and scores filled in."""
    try:
        loaded = api.load(file, source_format)
        scored = api.score(loaded, replace=replace)
        fmt = loaded.format if loaded.format != "url" else "lin"
        _write_boards(scored, output, fmt, "preserve")
    except BridgeFileError as exc:
        _echo_err(f"{_display(file)}: error: {exc}")
        sys.exit(EXIT_USAGE)
    found = [d for b in scored.boards for d in b.diagnostics if d.code == "score-mismatch"]
    for d in found:
        _echo_err(d.format(_display(file)))
    sys.exit(EXIT_OK)


@main.command()
@click.argument("file")
@click.option("--board", "board_number", default=None, help="Board number to show (default all).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Letters instead of suit symbols.")
@click.option("--from", "source_format", type=click.Choice(_FORMATS), default=None)
def show(file: str, board_number: str | None, ascii_only: bool,
         source_format: str | None) -> None:
    """Show boards of FILE: hand diagram, auction, play, result and score."""
    from bridgefiles.render import render_board

    out = sys.stdout
    symbols = not ascii_only and _can_print_symbols(out)
    shown = 0
    try:
        for board in _boards(file, source_format, False):
            if board_number is not None and board.board_number != board_number:
                continue
            if shown:
                click.echo()
            click.echo(render_board(board, symbols=symbols))
            shown += 1
    except _Unreadable as exc:
        _echo_err(f"{_display(file)}: error: {exc}")
        sys.exit(EXIT_USAGE)
    if shown == 0:
        _echo_err(f"{_display(file)}: no board {board_number}" if board_number else "no boards")
        sys.exit(EXIT_FOUND)


def _can_print_symbols(stream: Any) -> bool:
    encoding = getattr(stream, "encoding", None) or ""
    try:
        "♠♥♦♣".encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


if __name__ == "__main__":  # pragma: no cover
    main()
