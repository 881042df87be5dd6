"""One row per board, for analysis: CSV, Parquet, and dataframes.

The columns are flat values (strings and integers), so a row means the same in a
CSV file, a Parquet file or a pandas/dask dataframe. Contract, declarer, tricks,
result and score come from the validator's replay of the board (what the Laws make
of it), falling back to the file's own tags when the board cannot tell; ``mp``,
``percentage`` and ``imp`` are the file's ScoreMP, ScorePercentage and ScoreIMP
(filled in by ``convert --score``).

Values that read back the same everywhere: no vulnerability is written ``Love`` (PBN's
synonym of ``None``, which pandas would read as missing); a missing value is an empty
cell. A CSV cell a spreadsheet would evaluate (starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return) is written with a leading ``'``, which :func:`read_csv_rows`
removes again. ``play`` is the opening leader and the tricks in PBN's seat order,
``W: CK C2 C5 CA | ...`` (``-`` for a card not recorded); ``result`` is declarer's
tricks less the contract's (``-1`` one down, ``0`` made exactly).

>>> import bridgefiles as bf
>>> board = bf.loads('[Board "1"]\\n[North "=HYPERLINK(1)"]\\n[Vulnerable "None"]\\n').boards[0]
>>> row = board_row(board)
>>> row["vulnerable"], row["north"]
('Love', '=HYPERLINK(1)')
>>> cell(row["north"])
"'=HYPERLINK(1)"
"""

from __future__ import annotations

import csv
import importlib
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bridgefiles.checks.validate import validate_board
from bridgefiles.model.auction import EntryKind
from bridgefiles.model.board import Board
from bridgefiles.model.play import Slot
from bridgefiles.model.seats import Seat, Side
from bridgefiles.scoring.values import SidedValue

# Column name -> kind ("str", "int" or "float"); every value may also be missing (None).
# mp, percentage and imp are the tags as written ("NS 2 EW 18"); the _ns and _ew columns
# beside them are the numbers each side is given, to add up (IMPs given for one side
# only are the other's negative; matchpoints and percentages are never derived).
COLUMN_TYPES: dict[str, str] = {
    "file": "str",
    "index": "int",
    "event": "str",
    "site": "str",
    "date": "str",
    "scoring": "str",
    "board": "str",
    "room": "str",
    "north": "str",
    "east": "str",
    "south": "str",
    "west": "str",
    "dealer": "str",
    "vulnerable": "str",
    "deal": "str",
    "auction": "str",
    "alerts": "str",
    "contract": "str",
    "declarer": "str",
    "lead": "str",
    "play": "str",
    "tricks": "int",
    "result": "int",
    "score_ns": "int",
    "score_ew": "int",
    "mp": "str",
    "mp_ns": "float",
    "mp_ew": "float",
    "percentage": "str",
    "percentage_ns": "float",
    "percentage_ew": "float",
    "imp": "str",
    "imp_ns": "float",
    "imp_ew": "float",
    "errors": "int",
    "warnings": "int",
}
COLUMNS: tuple[str, ...] = tuple(COLUMN_TYPES)
Row = dict[str, Any]
_BATCH = 10_000  # rows per Parquet row group: bounds memory whatever the file size
NO_VULNERABILITY = "Love"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet evaluates: text starting like a formula (or with the
    quote that marks one) gets a leading ``'``."""
    if isinstance(value, str) and value.startswith((*_FORMULA_START, "'")):
        if value.startswith("'") and not value[1:].startswith((*_FORMULA_START, "'")):
            return value
        return "'" + value
    return value


def uncell(value: str) -> str:
    """The value :func:`cell` neutralised, as it was."""
    if value.startswith("'") and value[1:].startswith((*_FORMULA_START, "'")):
        return value[1:]
    return value


def _tag(board: Board, name: str) -> str | None:
    value = board.tag(name)
    return value if value not in (None, "", "?", "#") else None


def _auction(board: Board) -> tuple[str | None, str | None]:
    """The calls from the first seat (``!`` on alerted ones), and the alerts explained."""
    auction = board.auction
    if auction is None:
        return None, None
    calls: list[str] = []
    alerts: list[str] = []
    for entry in auction.entries:
        if entry.kind is EntryKind.NONE:
            calls.append("-")
            continue
        if entry.kind is EntryKind.SKIP or entry.call is None:
            calls.append("^S")
            continue
        text = entry.call.text
        ann = entry.annotations
        explained = ann.explanation
        if ann.note is not None:
            note = auction.note(ann.note)
            explained = note.text if note is not None else explained
        calls.append(text + ("!" if ann.alert else ""))
        if ann.alert or explained:
            alerts.append(f"{text}: {explained}" if explained else text)
    if auction.end.value:
        calls.append(auction.end.value)
    return " ".join(calls), (" | ".join(alerts) if alerts else None)


def _lead(board: Board) -> str | None:
    play = board.play
    if play is None or not play.slots:
        return None
    first = play.slots[0]
    if first.slot is Slot.CARD and first.card is not None:
        return first.card.code
    return None


def _play(board: Board) -> str | None:
    """The opening leader and each trick's cards in seat order from the leader."""
    play = board.play
    if play is None or not play.slots:
        return None
    tricks: list[str] = []
    for start in range(0, len(play.slots), 4):
        cards = [
            s.card.code if s.slot is Slot.CARD and s.card is not None else "-"
            for s in play.slots[start : start + 4]
        ]
        tricks.append(" ".join(cards))
    return f"{play.first.value}: " + " | ".join(tricks)


def _replay(board: Board) -> dict[str, Any]:
    """Contract, declarer, tricks and score as the validator rules them."""
    out: dict[str, Any] = {
        "contract": board.contract.text if board.contract is not None else None,
        "declarer": board.declarer.value if board.declarer is not None else None,
        "tricks": board.declarer_tricks,
        "result": None,
        "score_ns": None,
        "score_ew": None,
        "errors": None,
        "warnings": None,
    }
    report = validate_board(board)
    if report.contract is not None:
        out["contract"] = report.contract.text
    if report.declarer is not None:
        out["declarer"] = report.declarer.value
    if report.tricks is not None and report.tricks.final is not None:
        out["tricks"] = report.tricks.final
    contract = report.contract or board.contract
    if contract is not None and contract.level and out["tricks"] is not None:
        out["result"] = out["tricks"] - (contract.level + 6)
    if report.score is not None:
        out["score_ns"], out["score_ew"] = report.score.ns, report.score.ew
    severities = [d.severity.value for d in report.diagnostics]
    out["errors"] = severities.count("error")
    out["warnings"] = severities.count("warning")
    return out


def board_row(board: Board, path: str | None = None) -> Row:
    """One board as a flat row with the keys of :data:`COLUMNS`."""
    auction, alerts = _auction(board)
    deal = board.deal
    row: Row = {
        "file": path,
        "index": board.index,
        "event": _tag(board, "Event"),
        "site": _tag(board, "Site"),
        "date": _tag(board, "Date"),
        "scoring": _tag(board, "Scoring"),
        "board": board.board_number,
        "room": _tag(board, "Room"),
        "north": _tag(board, "North"),
        "east": _tag(board, "East"),
        "south": _tag(board, "South"),
        "west": _tag(board, "West"),
        "dealer": board.dealer.value if board.dealer is not None else None,
        "vulnerable": _vulnerable(board),
        "deal": deal.pbn(Seat.N) if deal is not None else _tag(board, "Deal"),
        "auction": auction,
        "alerts": alerts,
        "lead": _lead(board),
        "play": _play(board),
        "mp": _tag(board, "ScoreMP"),
        "percentage": _tag(board, "ScorePercentage"),
        "imp": _tag(board, "ScoreIMP"),
    }
    row.update(_replay(board))
    declarer = Seat(row["declarer"]) if row.get("declarer") else board.declarer
    for column, zero_sum in (("mp", False), ("percentage", False), ("imp", True)):
        row[f"{column}_ns"], row[f"{column}_ew"] = _sides(row[column], declarer, zero_sum)
    return {name: row.get(name) for name in COLUMNS}


def _sides(text: str | None, declarer: Seat | None,
           zero_sum: bool) -> tuple[float | None, float | None]:
    """The NS and EW numbers of a score tag's five forms (PBN 10.1); None where the tag
    gives none (or is not one of the forms: the text column keeps it as written)."""
    if text is None:
        return None, None
    try:
        value = SidedValue.parse(text)
    except ValueError:
        return None, None
    pick = value.points_for if zero_sum else value.given_for
    ns, ew = pick(Side.NS, declarer), pick(Side.EW, declarer)
    return (None if ns is None else float(ns)), (None if ew is None else float(ew))


def _vulnerable(board: Board) -> str | None:
    vul = board.vulnerable
    if vul is None:
        return None
    return NO_VULNERABILITY if vul.value == "None" else vul.value


def board_rows(
    boards: Iterable[Board],
    path: str | None = None,
    *,
    extra: Callable[[Board, Row], Row] | None = None,
) -> Iterator[Row]:
    """Rows for boards as they stream by (``path`` fills the ``file`` column); ``extra``
    adds columns worked out above this layer, such as the double-dummy ones of
    :func:`bridgefiles.analysis.ddscore.dd_columns`."""
    for board in boards:
        row = board_row(board, path)
        yield {**row, **extra(board, row)} if extra is not None else row


# -- writing tables --------------------------------------------------------------------------


def write_csv(
    rows: Iterable[Row], target: str | os.PathLike[str], columns: Iterable[str] = COLUMNS
) -> int:
    """Rows to a CSV file with a header line; missing values are empty cells."""
    n = 0
    with open(target, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if v is None else cell(v)) for k, v in row.items()})
            n += 1
    return n


def have_parquet() -> bool:
    """Whether Parquet can be written here (the ``parquet`` extra, pyarrow, is installed)."""
    try:
        importlib.import_module("pyarrow")
    except ImportError:
        return False
    return True


def arrow_schema(types: dict[str, str] = COLUMN_TYPES) -> Any:
    """The Arrow schema of a table, from COLUMN_TYPES, so every Parquet file has one."""
    pa = importlib.import_module("pyarrow")

    kinds = {"str": pa.string(), "int": pa.int64(), "float": pa.float64()}
    return pa.schema([(name, kinds[kind]) for name, kind in types.items()])


def write_parquet(
    rows: Iterable[Row], target: str | os.PathLike[str], types: dict[str, str] = COLUMN_TYPES
) -> int:
    """Rows to a Parquet file, a row group at a time (needs the ``parquet`` extra)."""
    from bridgefiles.errors import BridgeFileError

    try:
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError as exc:
        raise BridgeFileError(
            "Parquet needs pyarrow: pip install '.[parquet]' in the bridgefiles clone"
        ) from exc
    schema = arrow_schema(types)
    n = 0
    with pq.ParquetWriter(str(target), schema) as writer:
        batch: list[Row] = []
        for row in rows:
            batch.append(row)
            n += 1
            if len(batch) >= _BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
        if batch or n == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
    return n


PANDAS_KINDS = {"str": "string", "int": "Int64", "float": "Float64"}


def pandas_dtypes() -> dict[str, str]:
    """The dtypes that read a table back exactly: ``pd.read_csv(path, dtype=pandas_dtypes(),
    keep_default_na=False, na_values=[""])`` (board ``01`` stays ``"01"``; counts are
    ``Int64`` with ``<NA>``, never floats with NaN)."""
    return {name: PANDAS_KINDS[kind] for name, kind in COLUMN_TYPES.items()}


def read_frame(source: str | os.PathLike[str]) -> Any:
    """A table we wrote (CSV or Parquet, by its extension) as a pandas frame with
    :func:`pandas_dtypes`: every value as written, a neutralised CSV cell as it was
    (needs pandas; Parquet also pyarrow)."""
    pd = importlib.import_module("pandas")
    if os.fspath(source).lower().endswith(".parquet"):
        frame = pd.read_parquet(source)
    else:
        frame = pd.read_csv(source, dtype=pandas_dtypes(), keep_default_na=False,
                            na_values=[""])
        for name, kind in COLUMN_TYPES.items():
            if kind == "str":
                frame[name] = frame[name].map(uncell, na_action="ignore")
    return frame.astype(pandas_dtypes())


def write_table(
    boards: Iterable[Board],
    target: str | os.PathLike[str],
    to: str,
    path: str | None = None,
    *,
    extra: Callable[[Board, Row], Row] | None = None,
    extra_types: dict[str, str] | None = None,
) -> int:
    """Boards as a ``csv`` or ``parquet`` table at ``target``; returns the row count.
    ``extra`` adds columns worked out above this layer (of ``extra_types``), such as
    the double-dummy ones of :func:`bridgefiles.analysis.ddscore.dd_columns`."""
    rows = board_rows(boards, path, extra=extra)
    types = {**COLUMN_TYPES, **(extra_types or {})}
    if to == "parquet":
        return write_parquet(rows, target, types)
    return write_csv(rows, target, types)


def read_csv_rows(source: str | os.PathLike[str]) -> Iterator[Row]:
    """Rows back from a CSV file we wrote, with integers and missing values restored."""
    with open(source, encoding="utf-8", newline="") as f:
        for raw in csv.DictReader(f):
            yield {name: _typed(name, raw.get(name)) for name in COLUMNS}


def _typed(name: str, value: str | None) -> Any:
    if value is None or value == "":
        return None
    kind = COLUMN_TYPES[name]
    return int(value) if kind == "int" else float(value) if kind == "float" else uncell(value)


def merge_tables(
    parts: Iterable[str | os.PathLike[str]], target: str | os.PathLike[str], to: str
) -> None:
    """Tables of several files, one after the other, into one (one header for CSV)."""
    if to == "parquet":
        pq = importlib.import_module("pyarrow.parquet")

        with pq.ParquetWriter(str(target), arrow_schema()) as writer:
            for part in parts:
                source = pq.ParquetFile(str(part))
                for i in range(source.num_row_groups):
                    writer.write_table(source.read_row_group(i))
        return
    with open(target, "w", encoding="utf-8", newline="") as out:
        out.write(",".join(COLUMNS) + "\n")
        for part in parts:
            with open(part, encoding="utf-8", newline="") as f:
                f.readline()
                for line in f:
                    out.write(line)
