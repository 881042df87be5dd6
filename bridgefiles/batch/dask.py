"""Beyond one machine: bridge files as dask bags and dataframes (the ``dask`` extra).

Work is split a file at a time, the same unit as ``bridgefiles.batch``: each task
reads one file as a stream on a worker, so files never travel through the
scheduler, only boards, rows or small results do. Point it at a cluster with
``distributed.Client("tcp://scheduler:8786")`` before calling these functions; the
files must be readable at the same paths on every worker (a shared file system).

    import bridgefiles.batch.dask as bfd
    frame = bfd.read_table("results/**/*.pbn")     # one row per board
    frame.groupby("contract").size().compute()
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Sequence
from typing import Any

from bridgefiles import batch
from bridgefiles.api import read
from bridgefiles.batch import ConvertTask, FileResult, Input
from bridgefiles.errors import BridgeFileError
from bridgefiles.model.board import Board
from bridgefiles.views.table import COLUMN_TYPES, COLUMNS, Row, board_rows

Paths = str | os.PathLike[str] | Iterable[str | os.PathLike[str]]


def _import_dask() -> tuple[Any, Any]:
    try:
        import dask.bag as db
        import dask.dataframe as dd
    except ImportError as exc:  # pragma: no cover - the extra is not installed
        raise BridgeFileError(
            "bridgefiles.batch.dask needs dask: pip install '.[dask]' in the bridgefiles clone"
        ) from exc
    return db, dd


def files(paths: Paths) -> list[Input]:
    """The input files: paths, folders (recursive) and globs, as the command line takes them."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return batch.expand(os.fspath(p) for p in paths)


def _boards_of(path: str, format: str | None) -> list[Board]:
    return list(read(path, format))


# The files behind each bag read_bag made (by the bag's name), partition i holding the
# boards of file i: so validate_bag can say each board's file.
_FILES: dict[str, list[str]] = {}


def read_bag(paths: Paths, format: str | None = None) -> Any:
    """A dask bag of :class:`Board`, one partition per file (globs match names in any case)."""
    db, _ = _import_dask()
    inputs = [i.path for i in files(paths)]
    bag = db.from_sequence(inputs, npartitions=max(1, len(inputs))).map(
        _boards_of, format
    ).flatten()
    if inputs:
        _FILES[bag.name] = inputs
    return bag


def empty_frame() -> Any:
    """An empty pandas frame with the table's columns and types (dask's ``meta``)."""
    pd = importlib.import_module("pandas")

    kinds = {"str": "object", "int": "Int64", "float": "Float64"}
    return pd.DataFrame(
        {name: pd.Series([], dtype=kinds[kind]) for name, kind in COLUMN_TYPES.items()}
    )


def frame(rows: Iterable[Row]) -> Any:
    """Rows as a pandas frame with the table's columns and types."""
    pd = importlib.import_module("pandas")

    data = list(rows)
    if not data:
        return empty_frame()
    out = pd.DataFrame.from_records(data, columns=list(COLUMNS))
    for name, kind in COLUMN_TYPES.items():
        out[name] = out[name].astype({"int": "Int64", "float": "Float64"}.get(kind, "object"))
    return out


def _file_frame(path: str, format: str | None = None) -> Any:
    """The table of one file (read on a worker)."""
    return frame(board_rows(read(path, format), path))


def read_table(paths: Paths, format: str | None = None) -> Any:
    """A dask dataframe of the analysis table (``bridgefiles.views.table``), a partition a file."""
    _, dd = _import_dask()
    inputs = [i.path for i in files(paths)]
    if not inputs:
        return dd.from_pandas(empty_frame(), npartitions=1)
    return dd.from_map(_file_frame, inputs, format=format, meta=empty_frame(),
                       enforce_metadata=False)


def _report(board: Board, path: str | None = None) -> dict[str, Any]:
    from bridgefiles.checks.validate import validate_board

    report = validate_board(board).to_json()
    report["path"] = path or next((d.path for d in board.diagnostics if d.path), None)
    return report


def _reports_of(boards: Iterable[Board], paths: Iterable[str]) -> list[dict[str, Any]]:
    path = next(iter(paths), None)
    return [_report(board, path) for board in boards]


def validate_bag(boards: Any) -> Any:
    """Each board's entry of the JSON report (DESIGN.md) with its file's ``path``, computed
    on the workers. A bag from :func:`read_bag` knows each board's file; for another bag
    of boards the path is the one the board's diagnostics name, if any."""
    inputs = _FILES.get(getattr(boards, "name", ""))
    if not inputs or boards.npartitions != len(inputs):
        return boards.map(_report)
    db, _ = _import_dask()
    paths = db.from_sequence(inputs, npartitions=len(inputs))
    return boards.map_partitions(_reports_of, paths)


def validate_files(paths: Paths, format: str | None = None) -> Any:
    """The per-file validation results (:class:`bridgefiles.batch.FileResult`) as a bag."""
    db, _ = _import_dask()
    tasks = [batch.ValidateTask(i, format, report="none") for i in files(paths)]
    return db.from_sequence(tasks, npartitions=max(1, len(tasks))).map(batch.validate_file)


def convert_files(
    paths: Paths,
    out_dir: str | os.PathLike[str],
    to: str,
    *,
    format: str | None = None,
    score: bool = False,
    verify: bool = False,
    compute: bool = True,
) -> Sequence[FileResult] | Any:
    """Convert files on the workers, each writing its output below ``out_dir`` (mirroring
    the input tree, atomically). Returns the results, or the bag when ``compute=False``."""
    db, _ = _import_dask()
    tasks = [
        ConvertTask(item, to, str(batch.output_path(item, out_dir, to)), format, "export",
                    score, verify)
        for item in files(paths)
    ]
    bag = db.from_sequence(tasks, npartitions=max(1, len(tasks))).map(batch.convert_file)
    if not compute:
        return bag
    results: list[FileResult] = bag.compute()
    return results
