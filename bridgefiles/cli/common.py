"""What every command shares: exit statuses, options, inputs, running the work, and writing
to standard output as bytes (so text in any charset passes unchanged, and a full disk or a
closed pipe is a one-line error, never a traceback)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

import click

from bridgefiles import batch
from bridgefiles.batch import FileResult, Input
from bridgefiles.cli.progress import Bar
from bridgefiles.errors import BridgeFileError
from bridgefiles.formats import registry
from bridgefiles.views.render import inert

EXIT_OK, EXIT_FOUND, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3
LAWS = ("2017", "2007")
DEFAULT_LAWS = "2017"


def echo_err(message: str) -> None:
    """A line for people on standard error; a file's text in it cannot command the
    terminal (control characters shown as ``\\x1b``, as ``show`` does)."""
    click.echo(inert(message), err=True)


def for_people(message: str) -> str:
    """A library message as the command line says it: its options, not keyword arguments."""
    return message.replace("give the format:", "give --from:")


def stdout() -> IO[Any]:
    return sys.stdout


def write_bytes(data: bytes) -> None:
    """Bytes to standard output, as they are (its binary buffer when it has one)."""
    out = stdout()
    binary = getattr(out, "buffer", None)
    if binary is not None:
        out.flush()
        binary.write(data)
    else:  # pragma: no cover - a text-only stream someone swapped in
        out.write(data.decode("utf-8", "replace"))


def write_text(text: str) -> None:
    """Text for people to standard output, in its encoding; what it cannot show as ``?``;
    control characters made inert (line ends kept)."""
    text = inert(text)
    encoding = getattr(stdout(), "encoding", None) or "utf-8"
    write_bytes(text.encode(encoding, "replace"))


# -- options -----------------------------------------------------------------------------


def readable_formats() -> list[str]:
    return registry.names(readable=True)


jobs_option = click.option(
    "-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=False,
    help="Worker processes (default: all cores; 1 works in this process).")
from_option = click.option(
    "--from", "source_format", type=click.Choice(readable_formats()), default=None,
    help="Input format (default: from the name, else the content).")
quiet_option = click.option("-q", "--quiet", is_flag=True, help="No summary line at the end.")
laws_option = click.option(
    "--laws", type=click.Choice(LAWS), default=DEFAULT_LAWS, show_default=True,
    help="The edition of the Laws of Duplicate Bridge the boards are replayed under.")
progress_option = click.option(
    "--progress/--no-progress", "show_progress", default=None,
    help="A progress bar on standard error (default: on a terminal, for runs over a second).")


def stacked(*options: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Several click options as one decorator, in the order given (as --help lists them)."""
    def apply(func: Any) -> Any:
        for option in reversed(options):
            func = option(func)
        return func
    return apply


def fail_on_option(default: str | None) -> Callable[[Any], Any]:
    return click.option(
        "--fail-on", type=click.Choice(["error", "warning"]), default=default,
        show_default=default is not None,
        help="Exit 1 when a finding this severe (or worse) is found.")


def laws_settings(laws: str) -> dict[str, Any]:
    """``laws=`` for the library, only when it is not the default edition."""
    return {} if laws == DEFAULT_LAWS else {"laws": laws}


# -- inputs and running ------------------------------------------------------------------


def inputs(files: Sequence[str]) -> list[Input]:
    """The inputs named on the command line; a folder that holds no bridge file is an error
    (nothing would be read), so is a glob that matches nothing."""
    try:
        items = batch.expand(files)
    except BridgeFileError as exc:
        echo_err(f"error: {for_people(str(exc))}")
        sys.exit(EXIT_USAGE)
    if not items:
        kinds = ", ".join(registry.read_extensions())
        echo_err(f"error: no file ending in {kinds} in {', '.join(files)}; nothing read")
        sys.exit(EXIT_USAGE)
    return items


def run(
    func: Callable[[Any, batch.Report], FileResult],
    tasks: Sequence[Any],
    jobs: int,
    show_progress: bool | None,
) -> Iterator[FileResult]:
    """Results in input order, with the progress bar (on a terminal, on long runs only)."""
    items: list[Input] = [t.item for t in tasks]
    regular = [i for i in items if i.regular]  # a pipe is never peeked at: read once
    sizes = [i.size for i in items]
    bar = Bar(len(items), sum(sizes), enabled=show_progress, sizes=sizes,
              jobs=1 if len(items) == 1 else jobs or batch.default_jobs(),
              bytes_per_board=batch.bytes_per_board(regular) if regular else None)
    try:
        report = bar if bar.enabled else None  # workers report only when a bar is drawn
        for task, result in zip(tasks, batch.run(func, tasks, jobs or None, report),
                                strict=True):
            bar.file_done(task.item.size, result.boards)
            yield result
    finally:
        bar.close()


class Totals:
    """The summary of a run and what its exit status needs (never the per-file lists)."""

    def __init__(self) -> None:
        self.summary = batch.Summary()
        self.started = time.monotonic()
        self.unreadable = False
        self.failed = False
        self.errors = 0
        self.warnings = 0

    def add(self, result: FileResult) -> None:
        self.summary.add(result)
        self.unreadable |= result.status == "unreadable"
        self.failed |= result.status == "failed"

    def line(self, verb: str) -> str:
        self.summary.seconds = time.monotonic() - self.started
        return self.summary.line(verb)

    def status(self, fail_on: str | None, nothing_written: bool = False) -> int:
        """DESIGN.md: 2 usage error or unreadable input, 1 a file failed or a finding
        reached ``--fail-on``, else 0."""
        if self.unreadable:
            return EXIT_USAGE
        if self.failed or nothing_written:
            return EXIT_FOUND
        s = self.summary
        if (fail_on == "warning" and (s.errors or s.warnings)) or (fail_on == "error" and s.errors):
            return EXIT_FOUND
        return EXIT_OK


def finish(totals: Totals, verb: str, quiet: bool, fail_on: str | None,
           nothing_written: bool = False) -> None:
    stdout().flush()
    if not quiet:
        echo_err(totals.line(verb))
    sys.exit(totals.status(fail_on, nothing_written))
