"""The inputs of a batch: files, folders (searched recursively), globs and ``-``, and where
each one's output goes below an output folder.

Rules that keep a batch honest: a folder that cannot be read is an input that fails
(never skipped in silence); symbolic links inside folders and glob matches are not
followed unless asked (a link may point anywhere); globs match file names in any case
(``*.pbn`` finds ``EVENT.PBN``); an output always lands inside its output folder.
"""

from __future__ import annotations

import glob
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bridgefiles.errors import UnreadableInputError, UsageError
from bridgefiles.files.reading import COMPRESSED_SUFFIXES
from bridgefiles.formats import registry

STDIN = "-"
GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True)
class Input:
    """One input file, the folder it was found under (so outputs can mirror the tree),
    and why it cannot be read when that is known already (an unreadable folder)."""

    path: str
    root: str | None = None
    error: str | None = None

    @property
    def is_stdin(self) -> bool:
        return self.path == STDIN

    @property
    def display(self) -> str:
        return "<stdin>" if self.is_stdin else self.path

    @property
    def relative(self) -> Path:
        """Where the file sits below its root: the part an ``--out-dir`` mirrors (never
        climbing out of it: ``..`` leaves only the file name)."""
        if self.is_stdin:
            return Path("stdin")
        name = Path(os.path.basename(os.path.normpath(self.path)))
        if self.root is None:
            return name
        rel = os.path.relpath(os.path.normpath(self.path), os.path.normpath(self.root))
        if os.path.isabs(rel) or rel == os.curdir or rel.split(os.sep)[0] == os.pardir:
            return name
        return Path(rel)

    @property
    def regular(self) -> bool:
        """Whether it is a regular file, which can be read twice; a pipe or FIFO
        (``<(cat x.pbn)``, ``mkfifo``) is read once, like standard input: nothing may
        peek at it before its reader does."""
        if self.is_stdin:
            return False
        try:
            return stat.S_ISREG(os.stat(self.path).st_mode)
        except (OSError, ValueError):
            return False

    @property
    def size(self) -> int:
        if not self.regular:
            return 0
        try:
            return os.path.getsize(self.path)
        except OSError:
            return 0


def glob_root(pattern: str) -> str:
    """The folder part of a glob before its first wildcard, which outputs mirror from."""
    fixed: list[str] = []
    for part in Path(pattern).parts:
        if GLOB_CHARS & set(part):
            break
        fixed.append(part)
    return str(Path(*fixed)) if fixed else "."


def any_case(pattern: str) -> str:
    """The glob with the letters of its last part matching either case (``*.[pP][bB][nN]``)."""
    head, tail = os.path.split(pattern)
    out: list[str] = []
    in_class = False
    for ch in tail:
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        if ch.isalpha() and not in_class and ch.lower() != ch.upper():
            out.append(f"[{ch.lower()}{ch.upper()}]")
        else:
            out.append(ch)
    return os.path.join(head, "".join(out)) if head else "".join(out)


def _walk(folder: str, extensions: tuple[str, ...], follow_symlinks: bool) -> list[Input]:
    found: list[Input] = []
    failed: list[Input] = []

    def unreadable(exc: OSError) -> None:
        where = exc.filename or folder
        failed.append(Input(str(where), folder, f"cannot read folder: {exc.strerror or exc}"))

    for dirpath, dirnames, filenames in os.walk(folder, onerror=unreadable,
                                                followlinks=follow_symlinks):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if name.startswith(".") or not name.lower().endswith(extensions):
                continue
            full = os.path.join(dirpath, name)
            if not follow_symlinks and os.path.islink(full):
                continue
            found.append(Input(full, folder))
    return sorted(found + failed, key=lambda i: i.path)


def expand(args: Iterable[str], *, follow_symlinks: bool = False) -> list[Input]:
    """Files, folders (searched recursively for the extensions of readable formats, also
    compressed: ``.pbn.gz``, ``.lin.xz``...),
    globs (``**`` recursive, names in any case) and ``-``.

    A plain file name is kept even when it does not exist, so reading it reports it as
    unreadable; a glob that matches nothing is an :class:`UnreadableInputError`.
    Symbolic links found in folders or by globs are left out unless ``follow_symlinks``.
    """
    extensions = tuple(e + c for e in registry.read_extensions()
                       for c in ("", *COMPRESSED_SUFFIXES))
    out: list[Input] = []
    for arg in args:
        if not isinstance(arg, str):
            raise UsageError(f"inputs are paths, not {type(arg).__name__}")
        if arg == STDIN:
            out.append(Input(STDIN))
        elif os.path.isdir(arg):
            out.extend(_walk(arg, extensions, follow_symlinks))
        elif GLOB_CHARS & set(arg) and not os.path.exists(arg):
            matches = sorted(
                p for p in glob.glob(any_case(arg), recursive=True)
                if os.path.isfile(p) and (follow_symlinks or not os.path.islink(p))
            )
            if not matches:
                raise UnreadableInputError(f"{arg}: no file matches")
            root = glob_root(arg)
            out.extend(Input(p, root) for p in matches)
        else:
            out.append(Input(arg))
    return out


def output_path(item: Input, out_dir: str | os.PathLike[str], to: str) -> Path:
    """The output for ``item`` below ``out_dir``, mirroring the input tree; it never
    lands outside ``out_dir`` (a :class:`UsageError` if it would)."""
    base = Path(out_dir)
    relative = item.relative
    if relative.suffix.lower() in COMPRESSED_SUFFIXES:  # x.pbn.gz: x.lin, unpacked
        relative = relative.with_suffix("")
    target = base / relative.with_suffix(registry.extension(to))
    inside = os.path.normpath(target)
    root = os.path.normpath(base)
    if os.path.commonpath([os.path.abspath(inside), os.path.abspath(root)]) != os.path.abspath(
        root
    ):
        raise UsageError(f"{item.display}: its output {target} would be outside {out_dir}")
    return target


def output_targets(items: list[Input], to: str, output: str | None = None,
                   out_dir: str | None = None, *, in_place: bool = False,
                   force: bool = False) -> list[str]:
    """Where each input's output in format ``to`` goes (``-``: standard output): ``output``
    for all (a table of several), below ``out_dir`` mirroring the tree, beside each input
    (``in_place``), else standard output. Refused (:class:`UsageError`): more than one
    of those, writing back to standard input, overwriting an input without ``force``,
    and two inputs that would write one file (``a/event.pbn`` and ``b/event.pbn`` given
    as two roots). Every command that writes files asks here."""
    if sum((output is not None, out_dir is not None, in_place)) > 1:
        raise UsageError("give only one of -o, --out-dir and --in-place")
    if in_place and any(i.is_stdin for i in items):
        raise UsageError("--in-place cannot write back to standard input")
    if output is not None:
        found = [output] * len(items)
    elif out_dir is not None:
        found = [str(output_path(i, out_dir, to)) for i in items]
    elif in_place:
        found = [str(Path(i.path).with_suffix(registry.extension(to))) for i in items]
    else:
        found = [STDIN] * len(items)
    if not force and not in_place:
        for target in found:
            if target == STDIN or not os.path.exists(target):
                continue
            for item in items:
                if not item.is_stdin and same_file(target, item.path):
                    raise UsageError(f"{target} is an input; it is never overwritten "
                                     "without --force (or --in-place)")
    seen: dict[str, str] = {}
    for item, target in zip(items, found, strict=True):
        if target == STDIN or output is not None:
            continue
        key = os.path.abspath(target)
        if key in seen:
            raise UsageError(f"{seen[key]} and {item.display} would both write {target}")
        seen[key] = item.display
    return found


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two names are the same file (or would be, when one does not exist yet)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)
