"""Scoring's records of a file, kept on disk: a file of any length is scored in a
memory that does not grow with it.

Scoring compares a file's boards (matchpoints, team matches, rubber histories), so a
record of every board must outlive the board while the file streams past. Held in
memory, the records grow with the file (about 4 KB a board). Here the most recently
used :data:`CACHE` records stay in memory and the others are pickled into a private
temporary SQLite database (Python's own ``sqlite3``): SQLite keeps a page cache of a
few MB and writes the rest to a temporary file that it deletes when the store closes,
so a file of up to :data:`CACHE` boards never reaches the disk. The grouping the
comparisons need (the records of one deal, of one event, of one rubber session, the
rooms of one team match) is SQLite's sorting, on disk too. Scoring asks for records
one at a time (:attr:`RecordStore.by_index`) and keeps, besides the cache, only what
it adds up: the results of one deal (about 1.6 KB a table, with the traveller it
writes: the deal's results are compared with each other, as the rows of one
ScoreTable are; at most ``Limits.max_deal_results``, counted here before a deal's
records are fetched) and the standings (a few numbers a pair or team of an event, at
most ``Limits.max_event_pairs``).

A record changes only through its logged ``set_tag``, ``set_table`` and ``report``,
so the length of its logs tells whether it must be written again when it leaves the
cache. Scoring changes a record right after asking for it: asking for another may
send it to disk, and a change made to it after that would be lost (the tests score
every real file through a cache of one record).

Only our own records are unpickled, never anything read from a file. A disk that
fills up or fails is a :class:`~bridgefiles.errors.BridgeFileError` (nothing is
written then); any other database error is our bug.
"""
from __future__ import annotations

import json
import pickle
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from bridgefiles.errors import BridgeFileError, InternalError
from bridgefiles.scoring.record import Record

T = TypeVar("T")

CACHE = 2048
"""Records held in memory (about 4 KB each, so at most about 8 MB; a record with
tables counts once more for each 64 cells, so travellers cannot fill memory); the rest
wait on disk."""

DealKey = tuple[str, str, str]
"""A deal's records: the same Event, Board number and cards."""

_SCHEMA = """
CREATE TABLE record (idx INTEGER PRIMARY KEY, data BLOB NOT NULL);  -- left the cache
CREATE TABLE deal_key (idx INTEGER PRIMARY KEY, event TEXT, number TEXT, deal TEXT);
CREATE TABLE session_key (idx INTEGER PRIMARY KEY, session TEXT);
CREATE TABLE pair_deal (seq INTEGER PRIMARY KEY, members TEXT);
CREATE TABLE room (seq INTEGER PRIMARY KEY, match TEXT, home INTEGER, visit INTEGER);
CREATE INDEX room_order ON room (match, seq);
"""
_INDEXES = (
    "CREATE INDEX deal_order ON deal_key (event, number, deal, idx)",
    "CREATE INDEX session_order ON session_key (session, idx)",
)


class RecordStore:
    """The records of one file being scored, by their place in the file (0, 1, ...).

    :meth:`add` each board's record in file order, then ask for them
    (:attr:`by_index`, :meth:`in_order`); :meth:`close` (or ``with``) deletes the
    database.
    """

    def __init__(self, cache: int | None = None) -> None:
        self._db = _guarded(_connect)
        self._count = 0
        self._grouped = False
        self._size = CACHE if cache is None else max(cache, 1)
        # index -> (record, its mark when written to disk, or None / -1: see _keep)
        self._cache: OrderedDict[int, tuple[Record, int | None, int]] = OrderedDict()
        self._held = 0  # the cache's weight (see _weight)
        self.by_index: Mapping[int, Record] = _ByIndex(self)
        """The records by their place in the file, read from the cache or the disk as
        they are asked for: change a record right after asking for it (before asking
        for another), since asking may send older ones to disk."""

    def __enter__(self) -> RecordStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def __len__(self) -> int:
        return self._count

    def add(self, record: Record, *, deal: DealKey | None, session: tuple[str, ...] | None) -> int:
        """Keep ``record`` as the next board's, in its deal or its rubber session; its index."""
        index = self._count
        if deal is not None:
            self._run("INSERT INTO deal_key VALUES (?, ?, ?, ?)", (index, *deal))
        if session is not None:
            self._run("INSERT INTO session_key VALUES (?, ?)", (index, json.dumps(session)))
        self._count += 1
        self._keep(index, record, None)
        return index

    def in_order(self) -> Iterator[Record]:
        """Every record, in file order (the cache left as it is)."""
        for index in range(self._count):
            held = self._cache.get(index)
            yield held[0] if held is not None else self._read(index)

    def get(self, index: int) -> Record:
        held = self._cache.get(index)
        if held is not None:
            self._cache.move_to_end(index)
            return held[0]
        record = self._read(index)
        self._keep(index, record, _mark(record))
        return record

    def _keep(self, index: int, record: Record, written: int | None) -> None:
        """Hold ``record`` in the cache; ``written`` is its mark as on disk (None: not
        on disk, -1: to write). The oldest records leave for the disk, changed ones
        written first."""
        weight = _weight(record)
        before = self._cache.pop(index, None)
        if before is not None:
            self._held -= before[2]
        self._cache[index] = (record, written, weight)
        self._held += weight
        while self._held > self._size and len(self._cache) > 1:
            old, (gone, mark, heavy) = self._cache.popitem(last=False)
            self._held -= heavy
            if mark != _mark(gone):
                self._run("INSERT OR REPLACE INTO record VALUES (?, ?)", (old, _dumps(gone)))

    def _read(self, index: int) -> Record:
        row = self._run("SELECT data FROM record WHERE idx = ?", (index,)).fetchone()
        if row is None:
            raise InternalError(f"scoring's record {index} is neither in memory nor on disk")
        return _loads(row[0])

    def session_pairs(self) -> Iterator[tuple[int, int]]:
        """Each two consecutive deals of a rubber session (in file order)."""
        self._group()
        last: tuple[str, int] | None = None
        for session, index in self._rows("SELECT session, idx FROM session_key "
                                         "ORDER BY session, idx"):
            if last is not None and last[0] == session:
                yield last[1], index
            last = (session, index)

    def events(self) -> Iterator[tuple[str, int]]:
        """Each event that has deals: its name and its last record."""
        self._group()
        yield from self._rows("SELECT event, MAX(idx) FROM deal_key GROUP BY event")

    def deals(
        self, event: str, most: int | None
    ) -> Iterator[tuple[int, int, list[int] | None]]:
        """Each deal of ``event``, in the order the deals first appear: how many records
        it has, its first, and its records (None when more than ``most``: not fetched)."""
        rows = self._rows("SELECT COUNT(*), MIN(idx), CASE WHEN ? IS NULL OR COUNT(*) <= ? "
                          "THEN group_concat(idx) END FROM deal_key WHERE event = ? "
                          "GROUP BY number, deal ORDER BY MIN(idx)", (most, most, event))
        for count, first, members in rows:
            yield int(count), int(first), _indices(members) if members is not None else None

    def start_event(self) -> None:
        """Forget the previous event's pair deals and team rooms."""
        self._run("DELETE FROM pair_deal")
        self._run("DELETE FROM room")

    def add_pair_deal(self, members: list[int]) -> None:
        self._run("INSERT INTO pair_deal (members) VALUES (?)", (_text(members),))

    def pair_deals(self) -> Iterator[list[int]]:
        """The event's deals scored as a pairs event, in order."""
        for (members,) in self._rows("SELECT members FROM pair_deal ORDER BY seq"):
            yield _indices(members)

    def add_rooms(self, match: tuple[str, ...], rooms: tuple[int, int]) -> None:
        self._run("INSERT INTO room (match, home, visit) VALUES (?, ?, ?)",
                  (json.dumps(match), *rooms))

    def matches(self) -> Iterator[tuple[str, ...]]:
        """The event's team matches, in the order their first board appears."""
        for (match,) in self._rows("SELECT match FROM room GROUP BY match ORDER BY MIN(seq)"):
            yield tuple(json.loads(match))

    def rooms(self, match: tuple[str, ...]) -> Iterator[tuple[int, int]]:
        """The two rooms of each board of ``match``, home N-S first, in order."""
        rows = self._rows("SELECT home, visit FROM room WHERE match = ? ORDER BY seq",
                          (json.dumps(match),))
        for home, visit in rows:
            yield int(home), int(visit)

    def _group(self) -> None:
        """Index the keys once every record is in (faster than indexing as they come)."""
        if not self._grouped:
            for sql in _INDEXES:  # execute, not executescript: that would commit
                self._run(sql)
            self._grouped = True

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        return _guarded(lambda: self._db.execute(sql, params))

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> Iterator[Any]:
        """The rows of a query, read as they are used (a query may sort on disk)."""
        cursor = self._run(sql, params)
        while True:
            row = _guarded(cursor.fetchone)
            if row is None:
                return
            yield row


class _ByIndex(Mapping[int, Record]):
    """:attr:`RecordStore.by_index`."""

    def __init__(self, store: RecordStore) -> None:
        self._store = store

    def __getitem__(self, index: int) -> Record:
        if not 0 <= index < len(self._store):
            raise KeyError(index)
        return self._store.get(index)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self._store)))

    def __len__(self) -> int:
        return len(self._store)


def _connect() -> sqlite3.Connection:
    # "" is a private temporary database; no journal: it is never rolled back.
    db = sqlite3.connect("", isolation_level=None, check_same_thread=False)
    db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                     "PRAGMA temp_store = FILE; BEGIN;" + _SCHEMA)
    return db


def _guarded(action: Callable[[], T]) -> T:
    """``action()``; a disk that is full or fails is the caller's problem, said so."""
    try:
        return action()
    except sqlite3.OperationalError as exc:
        raise BridgeFileError(
            f"scoring keeps its records of the file in a temporary file, which failed: {exc}"
        ) from exc


def _weight(record: Record) -> int:
    """A record's share of the cache: one, and one more for each 64 cells of its tables
    (a traveller of thousands of rows must not let the cache hold thousands of them)."""
    cells = sum(len(t.rows) * max(1, len(t.columns)) for t in record.board.tables)
    return 1 + cells // 64


def _mark(record: Record) -> int:
    """How far a record has changed: scoring changes a record only through its
    ``set_tag``, ``set_table`` and ``report``, each logged, so the logs' length tells
    a changed record from one as it was written."""
    return len(record.steps) + len(record.diagnostics)


def _dumps(record: Record) -> bytes:
    return pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)


def _loads(data: bytes) -> Record:
    record = pickle.loads(data)  # our own records, never a file's bytes
    if not isinstance(record, Record):
        raise TypeError(f"a scoring record unpickled as {type(record).__name__}")
    return record


def _text(indices: list[int]) -> str:
    return ",".join(map(str, indices))


def _indices(text: str) -> list[int]:
    return sorted(int(i) for i in text.split(","))
