"""Supplemental sections with a column header (PBN chapter 5, section 11 of pbn.md).

The tag value declares the columns, ``[+|-]name[\\width[L|R]]`` separated by ``;``;
the section elements (tokens or quoted strings) fill the columns row by row, in
any number per line. Widths only matter for writing (export pads to them).
"""

from __future__ import annotations

import re

from bridgefiles.model.board import Column
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.fast import make

Finding = tuple[str, Severity, str]

_SPEC = re.compile(r"([+-]?)([^\\;]*)(?:\\(\d*)([A-Za-z]?))?")
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d*)?")
_FORBIDDEN = frozenset('[]{};%"')


def parse_columns(value: str) -> tuple[tuple[Column, ...], list[Finding]]:
    """Column specs of a table tag value, and what is wrong with them."""
    columns: list[Column] = []
    found: list[Finding] = []
    for spec in value.split(";"):
        m = _SPEC.fullmatch(spec)
        if m is None or not m.group(2):
            found.append(("tag-value", Severity.ERROR, f"column spec {spec!r} has no name"))
            continue
        order, name, width, align = m.groups()
        if width is None:
            columns.append(make(Column, name=name, order=order, width=None, align=None))
            continue
        if not width or int(width) == 0 or align not in ("", "L", "R"):
            found.append(
                (
                    "tag-value",
                    Severity.ERROR,
                    f"column spec {spec!r}: the width must be a positive number, "
                    "then optionally L or R",
                )
            )
            continue
        columns.append(make(Column, name=name, order=order, width=int(width), align=align or None))
    return tuple(columns), found


def element_problem(element: str) -> str | None:
    """Why ``element`` cannot be a section token or string, if it cannot."""
    if element.startswith('"'):
        if len(element) < 2 or not element.endswith('"'):
            return f"string {element} is not closed"
        return None
    bad = [c for c in element if c in _FORBIDDEN or not 33 <= ord(c) <= 126]
    if bad:
        return f"element {element!r} has a character not allowed in a section token: {bad[0]!r}"
    return None


def group_rows(elements: list[str], width: int) -> tuple[tuple[str, ...], ...]:
    """Elements in rows of ``width`` (the last row may be short when the count is wrong)."""
    if width <= 0:
        return tuple((e,) for e in elements)
    return tuple(tuple(elements[i : i + width]) for i in range(0, len(elements), width))


def order_problem(
    columns: tuple[Column, ...], previous: tuple[str, ...], row: tuple[str, ...]
) -> str | None:
    """Whether ``row`` breaks a declared ``+``/``-`` order against the row before it."""
    for i, col in enumerate(columns):
        if not col.order or i >= len(row) or i >= len(previous):
            continue
        a, b = previous[i], row[i]
        if a == "-" or b == "-":
            continue
        if not (_NUMBER.fullmatch(a) and _NUMBER.fullmatch(b)):
            return f"column {col.name}: {b!r} cannot be compared for the declared order"
        x, y = float(a), float(b)
        if (col.order == "+" and y > x) or (col.order == "-" and y < x):
            kind = "descending" if col.order == "+" else "ascending"
            return f"column {col.name} is declared {kind}, but {b} follows {a}"
    return None


def pad(element: str, column: Column | None) -> str:
    """An element padded to its column's minimum width (R pads before, else after)."""
    if column is None or column.width is None or len(element) >= column.width:
        return element
    if column.align == "R":
        return element.rjust(column.width)
    return element.ljust(column.width)
