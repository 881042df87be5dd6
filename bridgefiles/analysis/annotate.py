"""Writing an analysis into a board, as the tags real files use, keeping the layout.

The four values go where BridgeComposer puts them, at the end of the game, in its order:
``DoubleDummyTricks``, ``OptimumScore``, ``ParContract``, then the ``OptimumResultTable``
section. A value the board already carries with the same meaning is left as written; one
that differs is replaced where it stands. The board's text as read (``source``) is edited
to match, line ends included, so ``layout="preserve"`` writes every other byte as read.
When the text cannot be edited safely (a tag that appears twice, a table with comments)
the board is written in export form instead, and the caller is told.

>>> import bridgefiles as bf
>>> from bridgefiles.analysis.models import DDTable
>>> board = bf.loads('[Board "1"]\\n[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 '
...     '6543.8765.876.87 2.432.5432.65432"]\\n', format="pbn").boards[0]
>>> table = DDTable(tricks=(13,) * 10 + (0,) * 10)
>>> new, edited = with_analysis(board, Analysis(table=table))
>>> new.tag("DoubleDummyTricks"), edited
('dddddddddd0000000000', ('DoubleDummyTricks', 'OptimumResultTable'))
>>> new.source.splitlines()[2]
'[DoubleDummyTricks "dddddddddd0000000000"]'
"""

from __future__ import annotations

import re

from bridgefiles.analysis.check import RESULT_TABLE, Analysis, mismatches
from bridgefiles.model.board import Board, Column, Table, TagPair

_COLUMNS = (
    Column(name="Declarer"),
    Column(name="Denomination", width=2, align="R"),
    Column(name="Result", width=2, align="R"),
)


def result_table(analysis: Analysis) -> Table:
    """The ``OptimumResultTable`` BridgeComposer writes: 20 rows, N S E W x NT S H D C."""
    rows = tuple((seat.value, strain.value, str(n)) for seat, strain, n in analysis.table.rows())
    return Table(name=RESULT_TABLE, columns=_COLUMNS, rows=rows)


def _table_lines(table: Table) -> list[str]:
    lines = [f'[{table.name} "{table.header}"]']
    lines += [f"{d} {s:>2} {r:>2}" for d, s, r in table.rows]
    return lines


def wanted(board: Board, analysis: Analysis) -> dict[str, str]:
    """The tag values to write: those missing or blank, and those the analysis contradicts."""
    wrong = mismatches(board, analysis)
    values = {"DoubleDummyTricks": analysis.table.hex}
    if analysis.par is not None:
        values["OptimumScore"] = analysis.par.optimum_score
        values["ParContract"] = analysis.par.par_contract
    values[RESULT_TABLE] = ""
    out: dict[str, str] = {}
    for name, value in values.items():
        present = board.table(name) if name == RESULT_TABLE else board.tag_pair(name)
        blank = isinstance(present, TagPair) and present.value.strip() in ("", "?")
        if present is None or blank or name in wrong:
            out[name] = value
    return out


def with_analysis(board: Board, analysis: Analysis) -> tuple[Board, tuple[str, ...]]:
    """The board with the analysis written in, and the names of what was written."""
    values = wanted(board, analysis)
    if not values:
        return board, ()
    tags = list(board.tags)
    tables = list(board.tables)
    for name, value in values.items():
        if name == RESULT_TABLE:
            new_table = result_table(analysis)
            at = next((i for i, t in enumerate(tables) if t.name == name), None)
            if at is None:
                tables.append(new_table)
            else:
                tables[at] = new_table
            continue
        at = next((i for i, t in enumerate(tags) if t.name == name), None)
        if at is None:
            tags.append(TagPair(name=name, value=value))
        else:
            tags[at] = tags[at].model_copy(update={"value": value, "raw": None, "implied": False})
    source = _edited_source(board, values, result_table(analysis))
    return board.replace(tags=tuple(tags), tables=tuple(tables), source=source), tuple(values)


def _newline(text: str) -> str:
    if "\r\n" in text:
        return "\r\n"
    return "\r" if "\r" in text and "\n" not in text else "\n"


def _edited_source(board: Board, values: dict[str, str], table: Table) -> str | None:
    """``board.source`` with the values put in, or None when that cannot be done safely.
    Lines keep their own line ends; new lines take the board's."""
    if board.source is None:
        return None
    newline = _newline(board.source)
    body = board.source.rstrip(" \t\r\n")
    tail = board.source[len(body):]  # blank lines after the game, or nothing at the end
    lines = body.splitlines(keepends=True)  # the last one has no line end
    added: list[str] = []
    for name, value in values.items():
        at = [i for i, line in enumerate(lines) if re.match(rf"\s*\[{name}\b", line)]
        if len(at) > 1 or (at and lines[at[0]].count("[") > 1):
            return None  # twice, or sharing its line with another tag: not safe to edit
        if name == RESULT_TABLE:
            old = board.table(name)
            if not at:
                added += _table_lines(table)
                continue
            if old is None or old.comments:
                return None
            end = at[0] + 1
            while end < len(lines) and lines[end].strip() and lines[end].lstrip()[0] not in "[%{;":
                end += 1
            last_end = lines[end - 1][len(lines[end - 1].rstrip("\r\n")):]
            new = [line + newline for line in _table_lines(table)]
            new[-1] = new[-1][: -len(newline)] + last_end
            lines[at[0]:end] = new
        elif not at:
            added.append(f'[{name} "{value}"]')
        else:
            line = _set_value(lines[at[0]], name, value)
            if line is None:
                return None
            lines[at[0]] = line
    text = "".join(lines)
    if added:
        text += newline + newline.join(added)
    return text + tail


def _set_value(line: str, name: str, value: str) -> str | None:
    """The tag line with its value replaced, None unless it holds the tag exactly once."""
    def put(m: re.Match[str]) -> str:
        return f"{m.group(1)}{value}{m.group(3)}"

    new, count = re.subn(rf'(\[{name}\s*")((?:[^"\\]|\\.)*)(")', put, line)
    return new if count == 1 else None
