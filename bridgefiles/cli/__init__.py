"""The command line: a thin layer over the library (validate, convert, score, show, schema),
and the commands of the packages that add some (analysis, the upload service).

Inputs are files, folders (searched recursively), globs and ``-`` for standard input;
``bridgefiles.batch`` walks them and runs the per-file work, in worker processes with
``--jobs``. Exit status (DESIGN.md): 0 nothing wrong, 1 at least one error found
(validate, or ``--fail-on``) or one input failed (convert, score), 2 usage error or
unreadable input; 3 is our own bug. The command line never prints a traceback: a closed
or full standard output, an output that cannot be written and a bug of ours are each one
line on standard error.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Any

import click

from bridgefiles.cli import common, streams
from bridgefiles.cli.convert import convert, score
from bridgefiles.cli.show import schema, show
from bridgefiles.cli.validate import validate
from bridgefiles.errors import BridgeFileError, UsageError

# Modules that may add commands: each exposes COMMANDS, a tuple of click commands.
PLUGINS = ("bridgefiles.analysis.cli", "bridgefiles.web.cli")


def plugin_commands() -> dict[str, click.Command]:
    """The commands of the plugin modules that are there (a missing one is skipped)."""
    found: dict[str, click.Command] = {}
    for name in PLUGINS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # the package is not part of this installation
            common.echo_err(f"warning: {name} cannot be loaded ({exc}); its commands are left out")
            continue
        for command in getattr(module, "COMMANDS", ()):
            if isinstance(command, click.Command) and command.name:
                found.setdefault(command.name, command)
    return found


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush of what is left
    in its buffer cannot fail again (a closed pipe, a full disk) on the way out."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


class Commands(click.Group):
    """The built-in commands and the plugins' (built-in names win), run so that nothing
    but a one-line message and an exit status leaves them."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *plugin_commands()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or plugin_commands().get(cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        streams.attach()
        try:
            try:
                value = super().invoke(ctx)
            except SystemExit:
                sys.stdout.flush()
                raise
            sys.stdout.flush()
            return value
        except (click.exceptions.ClickException, click.exceptions.Exit, click.Abort,
                SystemExit, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            _silence_stdout()
            common.echo_err("error: standard output was closed before everything was written")
            sys.exit(common.EXIT_FOUND)
        except OSError as exc:
            _silence_stdout()
            where = exc.filename or "standard output"
            common.echo_err(f"error: cannot write {where}: {exc.strerror or exc}")
            sys.exit(common.EXIT_FOUND)
        except UsageError as exc:
            common.echo_err(f"error: {common.for_people(str(exc))}")
            sys.exit(common.EXIT_USAGE)
        except BridgeFileError as exc:
            common.echo_err(f"error: {common.for_people(str(exc))}")
            sys.exit(common.EXIT_FOUND)
        except MemoryError:
            common.echo_err("error: out of memory")
            sys.exit(common.EXIT_FOUND)
        except Exception as exc:
            common.echo_err(f"internal error (a bug of bridgefiles; please report it): "
                            f"{type(exc).__name__}: {exc}")
            sys.exit(common.EXIT_BUG)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bridgefiles")
def main() -> None:
    """Read, validate, score and rewrite contract-bridge deal files (PBN and LIN).

    FILE may be a file, a folder (searched recursively), a glob or '-' for standard input.
    """


for _command in (validate, convert, score, show, schema):
    main.add_command(_command)

__all__ = ["main", "plugin_commands"]
