"""Results of one deal at many tables: from records or a ScoreTable, and back to tables.

A ``Entry`` is one table's result in a common shape, whatever it was read from,
so matchpoints, Butler and cross-IMPs do not care where results came from.
``Multiplicity`` rows stand for that many equal results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from bridgefiles.model.board import Column, Table
from bridgefiles.model.calls import Contract
from bridgefiles.model.seats import Seat, Side, Vulnerability
from bridgefiles.scoring.duplicate import contract_score
from bridgefiles.scoring.matchpoints import Adjusted, AdjustedPercentages, is_artificial_mark

MISSING = ("", "-", "?")


@dataclass
class Entry:
    """One result: N-S points (or an artificial score), and where it came from."""

    ns: int | None
    adjusted: Adjusted | None = None
    multiplicity: int = 1
    board: int = 0  # index of the board in its file
    row: int | None = None  # row of the board's ScoreTable, or None for the record itself
    section: str | None = None
    pair_ns: str | None = None
    pair_ew: str | None = None
    names_ns: str | None = None
    names_ew: str | None = None
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: int | None = None
    written_ns: int | None = None  # the score the file gives, when it gives one
    results: dict[str, float] = field(default_factory=dict)  # filled in by the scorer

    @property
    def scored(self) -> bool:
        return self.ns is not None or self.adjusted is not None


def cell_number(text: str | None) -> Decimal | None:
    """A table element as a number; None for ``-``, ``?``, ``^`` marks and text."""
    if text is None or text.strip() in MISSING:
        return None
    t = text.strip()
    if t.startswith("^"):
        return None
    try:
        return Decimal(t.lstrip("+"))
    except InvalidOperation:
        return None


def ns_points(
    contract: Contract | None,
    declarer: Seat | None,
    tricks: int | None,
    vul: Vulnerability | None,
    *,
    old_mp: bool = False,
) -> int | None:
    """N-S's Law 77 points, when contract, declarer, tricks and vulnerability are known."""
    if contract is None:
        return None
    if contract.passed_out:
        return 0
    if declarer is None or tricks is None or vul is None or contract.level is None:
        return None
    points = contract_score(contract, vul.is_vulnerable(declarer), tricks, old_mp=old_mp)
    return points if declarer.side is Side.NS else -points


def _parse_contract(text: str | None) -> Contract | None:
    if text is None or text.strip() in MISSING:
        return None
    try:
        c = Contract.parse(text)
    except ValueError:
        return None
    return c if c.passed_out or c.level is not None else None


def _parse_seat(text: str | None) -> Seat | None:
    if text is None or text.strip() in MISSING:
        return None
    try:
        return Seat.parse(text)
    except ValueError:
        return None


def _parse_tricks(text: str | None) -> int | None:
    if text is None or not text.strip().isdigit():
        return None
    n = int(text.strip())
    return n if n <= 13 else None


def written_ns_score(record: dict[str, str]) -> int | None:
    """The N-S score a row gives: ``Score_NS``, else minus ``Score_EW``."""
    ns = cell_number(record.get("Score_NS"))
    if ns is not None:
        return int(ns)
    ew = cell_number(record.get("Score_EW"))
    return -int(ew) if ew is not None else None


def _artificial(record: dict[str, str], settings: AdjustedPercentages) -> Adjusted | None:
    ns_text = record.get("Score_NS", "").strip()
    ew_text = record.get("Score_EW", "").strip()
    if not (ns_text.startswith("^") or ew_text.startswith("^")):
        return None
    if is_artificial_mark(ns_text) and is_artificial_mark(ew_text):
        return Adjusted(ns=settings.percent(ns_text), ew=settings.percent(ew_text))
    if is_artificial_mark(ns_text):
        ns = settings.percent(ns_text)
        return Adjusted(ns=ns, ew=100 - ns)
    if is_artificial_mark(ew_text):
        ew = settings.percent(ew_text)
        return Adjusted(ns=100 - ew, ew=ew)
    return None


def entries_from_table(
    table: Table, board: int, vul: Vulnerability | None, settings: AdjustedPercentages
) -> list[Entry]:
    """One entry per row of a ScoreTable; the score is recomputed from the row when it can be."""
    out = []
    for i, record in enumerate(table.records()):
        contract = _parse_contract(record.get("Contract"))
        declarer = _parse_seat(record.get("Declarer"))
        tricks = _parse_tricks(record.get("Result"))
        computed = ns_points(contract, declarer, tricks, vul)
        written = written_ns_score(record)
        mult = cell_number(record.get("Multiplicity"))
        out.append(
            Entry(
                ns=computed if computed is not None else written,
                adjusted=_artificial(record, settings),
                multiplicity=int(mult) if mult is not None and mult >= 1 else 1,
                board=board,
                row=i,
                section=_text(record.get("Section")),
                pair_ns=_text(record.get("PairId_NS")),
                pair_ew=_text(record.get("PairId_EW")),
                names_ns=_text(record.get("Names_NS")),
                names_ew=_text(record.get("Names_EW")),
                contract=contract,
                declarer=declarer,
                tricks=tricks,
                written_ns=written,
            )
        )
    return out


def _text(value: str | None) -> str | None:
    """A cell's text, without the quotes of a string element."""
    if value is None:
        return None
    t = value.strip()
    if len(t) >= 2 and t.startswith('"') and t.endswith('"'):
        t = t[1:-1].replace('\\"', '"').replace("\\\\", "\\").strip()
    return None if t in MISSING else t


def element(text: str) -> str:
    """Text as a table element: a bare token when it can be, else a quoted string."""
    if text and all(33 <= ord(c) <= 126 and c not in '[]{};%"' for c in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def set_cells(table: Table, updates: dict[tuple[int, str], str]) -> Table:
    """A copy of ``table`` with cells changed; ``updates`` maps (row, column) to text.

    Columns not in the table are appended, with ``-`` in the rows not given.
    """
    columns = list(table.columns)
    names = [c.name for c in columns]
    for _, name in updates:
        if name not in names:
            names.append(name)
            columns.append(Column(name=name))
    rows = []
    for i, row in enumerate(table.rows):
        cells = list(row) + ["-"] * (len(names) - len(row))
        for j, name in enumerate(names):
            if (i, name) in updates:
                cells[j] = updates[(i, name)]
        rows.append(tuple(cells))
    return table.model_copy(update={"columns": tuple(columns), "rows": tuple(rows), "raw": None})


def make_table(name: str, columns: list[str], rows: list[list[str]]) -> Table:
    """A new table; widths are left to the writer."""
    return Table(
        name=name,
        columns=tuple(Column(name=c) for c in columns),
        rows=tuple(tuple(r) for r in rows),
    )
