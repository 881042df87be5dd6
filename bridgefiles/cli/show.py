"""``bridgefiles show`` (boards for people) and ``bridgefiles schema``."""

from __future__ import annotations

import json
import sys

import click

import bridgefiles as bf
from bridgefiles.cli import common
from bridgefiles.formats.visitor import PickBoardNumbers, same_number
from bridgefiles.jobs.report import failure, finding_text
from bridgefiles.views.render import can_print_symbols, render_board


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--board", "board_number", default=None,
              help="Board number to show (default all); 1 finds board 01.")
@click.option("--ascii", "ascii_only", is_flag=True, help="Letters instead of suit symbols.")
@common.from_option
def show(files: tuple[str, ...], board_number: str | None, ascii_only: bool,
         source_format: str | None) -> None:
    """Show boards of FILE...: hand diagram, auction, play, result and score."""
    symbols = not ascii_only and can_print_symbols(common.stdout())
    shown = 0
    status = common.EXIT_OK
    for item in common.inputs(files):
        try:
            # Only the board asked for is built (a PBN reader stops at the others' tags).
            picker = PickBoardNumbers({board_number}) if board_number is not None else None
            for board in bf.read(item.path, source_format, visitor=picker):
                if board_number is not None and not same_number(board_number,
                                                                board.board_number):
                    continue
                common.write_text(("\n" if shown else "") + render_board(board, symbols) + "\n")
                shown += 1
        except bf.BridgeFileError as exc:  # said as every command says it
            common.echo_err(common.for_people(finding_text(failure(item.display, exc),
                                                           item.display)))
            status = common.EXIT_USAGE
    common.stdout().flush()
    if shown == 0 and status == common.EXIT_OK:
        common.echo_err(f"no board {board_number}" if board_number else "no boards")
        status = common.EXIT_FOUND
    sys.exit(status)


@click.command()
@click.argument("which", type=click.Choice(["report", "board"]), default="report")
def schema(which: str) -> None:
    """The JSON Schema of the validate JSON report, or of the board model."""
    from bridgefiles.checks.schema import board_schema, report_schema

    data = report_schema() if which == "report" else board_schema()
    common.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
