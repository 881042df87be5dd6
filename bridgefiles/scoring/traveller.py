"""Results of one deal at many tables: from records or a ScoreTable, and back to tables.

A ``Entry`` is one table's result in a common shape, whatever it was read from,
so matchpoints, Butler and cross-IMPs do not care where results came from.
``Multiplicity`` rows stand for that many equal results: a weight, never repeated.
Numbers in cells are read within ``Limits.max_number_digits`` and a multiplicity within
``Limits.max_multiplicity``; what cannot be read is noted on the entry as a problem
(``table`` or ``limit``) for the scorer to report.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import TypeVar

from bridgefiles.limits import DEFAULT_LIMITS, Limits
from bridgefiles.model.board import Column, Table
from bridgefiles.model.calls import Contract
from bridgefiles.model.seats import Seat, Vulnerability
from bridgefiles.scoring.duplicate import ns_points
from bridgefiles.scoring.matchpoints import Adjusted, AdjustedPercentages, is_artificial_mark

MISSING = ("", "-", "?")
T = TypeVar("T")
_NUMBER = re.compile(r"[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?)(\d+))?")


@dataclass(slots=True)
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
    problems: list[tuple[str, str]] = field(default_factory=list)  # (code, message) per cell
    over_limit: bool = False  # a Multiplicity over Limits.max_multiplicity: not scored

    @property
    def scored(self) -> bool:
        return self.ns is not None or self.adjusted is not None


def cell_number(
    text: str | None, *, max_digits: int | None = DEFAULT_LIMITS.max_number_digits
) -> Decimal | None:
    """A table element as a number; None for ``-``, ``?``, ``^`` marks, text (``NaN`` and
    ``Infinity`` included) and numbers longer than ``max_digits`` (see :func:`cell_problem`)."""
    return _number(text, max_digits)[0]


def cell_problem(
    text: str | None, *, max_digits: int | None = DEFAULT_LIMITS.max_number_digits
) -> tuple[str, str] | None:
    """Why a cell that should hold a number holds none: ``("table", ...)`` for text,
    ``("limit", ...)`` for a number too long to use; None when it is a number or empty."""
    return _number(text, max_digits)[1]


def digits_problem(value: Decimal, *, max_digits: int | None) -> str | None:
    """Why a number (a Score tag's, say) is too long to use, or None when it is not."""
    _, digits, exponent = value.as_tuple()
    count = len(digits) + (exponent if isinstance(exponent, int) and exponent > 0 else 0)
    if max_digits is None or count <= max_digits:
        return None
    return (
        f"a number of {count:,} digits goes over the limit max_number_digits={max_digits:,}; "
        "it is not used (raise it with Limits(max_number_digits=...))"
    )


def _number(
    text: str | None, max_digits: int | None
) -> tuple[Decimal | None, tuple[str, str] | None]:
    if text is None or text.strip() in MISSING:
        return None, None
    t = text.strip()
    if t.startswith("^"):
        return None, None
    m = _NUMBER.fullmatch(t)
    if m is None or not (m.group(1) or m.group(2)):
        return None, ("table", f"{t[:40]!r} is not a number")
    exponent = m.group(4) or "0"
    digits = len(m.group(1)) + len(m.group(2) or "")
    digits += int(exponent) if len(exponent) < 10 else 10**10  # read no huge exponent
    if max_digits is not None and digits > max_digits:
        return None, (
            "limit",
            f"{t[:40]!r} has {digits:,} digits, exponent counted, over the limit "
            f"max_number_digits={max_digits:,}; it is not used "
            "(raise it with Limits(max_number_digits=...))",
        )
    return Decimal(t.lstrip("+")), None


def _parse_contract(text: str | None) -> Contract | None:
    if text is None or text.strip() in MISSING or len(text.strip()) > 8:
        return None  # "7NTXX" and "Pass" are the longest contracts
    return _contract(text.strip())


@lru_cache(maxsize=256)
def _contract(text: str) -> Contract | None:
    """A contract's text parsed once: a traveller repeats a few dozen contracts."""
    try:
        c = Contract.parse(text)
    except ValueError:
        return None
    return c if c.passed_out or c.level is not None else None


def parsed(text: str | None, parse: Callable[[str], T]) -> T | None:
    """``text`` read by ``parse``; None when it is missing (``MISSING``) or unreadable, which
    is the reader's finding: the scorer uses a cell or tag only when it says something."""
    if text is None or text.strip() in MISSING:
        return None
    try:
        return parse(text)
    except ValueError:
        return None


def _parse_tricks(text: str | None) -> int | None:
    if text is None or not text.strip().isdecimal():
        return None
    n = int(text.strip())
    return n if n <= 13 else None


def written_ns_score(
    record: dict[str, str], *, max_digits: int | None = DEFAULT_LIMITS.max_number_digits
) -> int | None:
    """The N-S score a row gives: ``Score_NS``, else minus ``Score_EW``."""
    ns = cell_number(record.get("Score_NS"), max_digits=max_digits)
    if ns is not None:
        return int(ns)
    ew = cell_number(record.get("Score_EW"), max_digits=max_digits)
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


_NUMERIC = ("Score_NS", "Score_EW", "Multiplicity")


def entries_from_table(
    table: Table,
    board: int,
    vul: Vulnerability | None,
    settings: AdjustedPercentages,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> list[Entry]:
    """One entry per row of a ScoreTable; the score is recomputed from the row when it can be."""
    digits = limits.max_number_digits
    out = []
    for i, record in enumerate(table.records()):
        contract = _parse_contract(record.get("Contract"))
        declarer = parsed(record.get("Declarer"), Seat.parse)
        tricks = _parse_tricks(record.get("Result"))
        computed = ns_points(contract, declarer, tricks, vul)
        written = written_ns_score(record, max_digits=digits)
        problems = []
        for name in _NUMERIC:
            problem = cell_problem(record.get(name), max_digits=digits)
            if problem is not None:
                problems.append((problem[0], f"ScoreTable row {i + 1} {name}: {problem[1]}"))
        mult = cell_number(record.get("Multiplicity"), max_digits=digits)
        multiplicity = int(mult) if mult is not None and mult >= 1 else 1
        over = limits.exceeded("max_multiplicity", multiplicity)
        if over:
            problems.append(
                (
                    "limit",
                    f"ScoreTable row {i + 1} Multiplicity {multiplicity:,} goes over the limit "
                    f"max_multiplicity={limits.max_multiplicity:,}; the deal is not scored "
                    "(raise it with Limits(max_multiplicity=...))",
                )
            )
        out.append(
            Entry(
                ns=computed if computed is not None else written,
                adjusted=_artificial(record, settings),
                multiplicity=multiplicity,
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
                problems=problems,
                over_limit=over,
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
