"""What every compact row of a board (its tags, its extras) must do: read exactly as the
tuple of its items."""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import TypeVar

import pytest
from hypothesis import strategies as st

T = TypeVar("T")


def check_reads_as_tuple(
    row: Sequence[T], expected: tuple[T, ...], more: tuple[T, ...], data: st.DataObject
) -> None:
    """``row`` reads as ``expected``: items (negative indices too), slices, iteration,
    equality both ways, hash, ``+`` with a tuple (``more``, an item it may lack), pickling."""
    n = len(expected)
    assert len(row) == n
    for i in range(-n, n):
        assert row[i] == expected[i] and type(row[i]) is type(expected[i])
    for bad in (n, -n - 1):
        with pytest.raises(IndexError):
            row[bad]
    start = data.draw(st.one_of(st.none(), st.integers(-n - 2, n + 2)))
    stop = data.draw(st.one_of(st.none(), st.integers(-n - 2, n + 2)))
    step = data.draw(st.one_of(st.none(), st.integers(-3, 3).filter(bool)))
    cut = row[start:stop:step]
    assert type(cut) is tuple and cut == expected[start:stop:step]
    assert list(row) == list(expected) and list(reversed(row)) == list(reversed(expected))
    assert row == expected and expected == row and (row != expected) is False
    assert hash(row) == hash(expected)
    assert row + more == expected + more and type(row + more) is tuple
    assert more + row == more + expected and type(more + row) is tuple
    assert row + row == expected + expected
    if n:
        assert row != expected[:-1] and row != expected + more
        assert expected[-1] in row and row.index(expected[-1]) == expected.index(expected[-1])
    as_list: object = list(expected)
    assert row != as_list  # it is a tuple's equal, not a list's
    again = pickle.loads(pickle.dumps(row))
    assert type(again) is type(row) and again == row and hash(again) == hash(row)
