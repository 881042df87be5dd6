"""The double-dummy score of a contract: declarer's tricks with perfect play, scored.

``bf.dd_score(deal, "4SX", "N", vulnerable=True)`` answers what users ask most in
endplay's and DDS's trackers. The deal is solved once per process (all 20 contracts
in one solver call, kept in a bounded cache keyed by the deal), and, when asked
(:func:`use_cache_file` or ``BRIDGEFILES_DD_CACHE=path``), once across runs in a
small SQLite file: solving costs about 0.2 CPU seconds a deal, a look-up microseconds.

>>> deal = "N:K843.T542.J6.863 AQJ7.K.Q75.AT942 962.AJ7.KT82.J75 T5.Q9863.A943.KQ"
>>> result = dd_score(deal, "3NT", "E", vulnerable=False)
>>> result.tricks, result.score
(10, 430)
>>> dd_score(deal, "4SX", "N", vulnerable="All").score   # the board's vulnerability
-2000
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

from bridgefiles.analysis.models import DDTable
from bridgefiles.analysis.solver import dd_tables
from bridgefiles.errors import BridgeFileError, UsageError
from bridgefiles.model.board import Board
from bridgefiles.model.calls import Contract
from bridgefiles.model.deal import Deal
from bridgefiles.model.seats import Seat, Vulnerability
from bridgefiles.scoring.duplicate import contract_score
from bridgefiles.views.table import Row

CACHE_SIZE = 4096  # deals kept in memory per process (about 200 bytes each)
ENVIRONMENT = "BRIDGEFILES_DD_CACHE"
T = TypeVar("T")


class DDScore(BaseModel):
    """A contract's double-dummy result: declarer's tricks and the score (Law 77) to
    declarer's side."""

    model_config = ConfigDict(frozen=True)

    contract: str
    declarer: Seat
    vulnerable: bool
    tricks: int
    score: int

    @property
    def result(self) -> int:
        """Tricks over (or, negative, under) the contract: ``0`` just made."""
        level = Contract.parse(self.contract).level or 0
        return self.tricks - (level + 6)


def dd_score(
    deal: Deal | str,
    contract: Contract | str,
    declarer: Seat | str,
    vulnerable: bool | Vulnerability | str,
) -> DDScore:
    """The double-dummy tricks and score of ``contract`` played by ``declarer``.

    ``deal`` is a Deal or a PBN Deal value (``"N:..."``); ``contract`` a Contract or its
    text (``4SX``); ``declarer`` a Seat or ``N``/``North``...; ``vulnerable`` whether
    declarer is vulnerable (``True``), or the board's vulnerability (a Vulnerability, or
    ``None``/``NS``/``EW``/``All`` as PBN writes it). A wrong argument is a
    :class:`UsageError`; without the extra ``dds`` an ``AnalysisUnavailable``
    (a BridgeFileError) says what to install.
    """
    the_deal = _deal(deal)
    the_contract = _parsed(contract, Contract, Contract.parse, "contract")
    seat = _parsed(declarer, Seat, _seat, "declarer")
    if the_contract.passed_out or the_contract.level is None or the_contract.strain is None:
        raise UsageError(f"contract {the_contract.text!r} has no declarer to score")
    vul = _vulnerable(vulnerable, seat)
    tricks = table_of(the_deal).tricks_for(seat, the_contract.strain)
    return DDScore(contract=the_contract.text, declarer=seat, vulnerable=vul, tricks=tricks,
                   score=contract_score(the_contract, vul, tricks))


def _deal(deal: Deal | str) -> Deal:
    deal = _parsed(deal, Deal, Deal.parse, "deal")
    if not deal.is_complete or deal.problems():
        raise UsageError(f"a double-dummy score needs four sound 13-card hands: {deal.pbn()}")
    return deal


def _parsed(value: object, kind: type[T], parse: Callable[[str], T], what: str) -> T:
    """``value`` if it is a ``kind``, else its text parsed; anything else is misuse."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        try:
            return parse(value)
        except ValueError as exc:
            raise UsageError(f"not a {what}: {value!r} ({exc})") from None
    raise UsageError(f"{what} must be a {kind.__name__} or its text, not {type(value).__name__}")


def _seat(text: str) -> Seat:
    """``N`` or ``North`` (any case), as PBN's Declarer and player tags name seats."""
    t = text.strip()
    full = {s.full_name.lower(): s for s in Seat}
    return full[t.lower()] if t.lower() in full else Seat.parse(t)


def _vulnerable(vulnerable: bool | Vulnerability | str, declarer: Seat) -> bool:
    if isinstance(vulnerable, bool):
        return vulnerable
    vul = _parsed(vulnerable, Vulnerability, Vulnerability.parse, "vulnerability")
    return vul.is_vulnerable(declarer)


# -- the cache -------------------------------------------------------------------------------

_lock = threading.Lock()
_memory: OrderedDict[str, DDTable] = OrderedDict()
_file: Path | None = None
_file_read = False


def use_cache_file(path: str | os.PathLike[str] | None) -> None:
    """Keep solved deals in a SQLite file at ``path`` across runs (None: memory only)."""
    global _file, _file_read
    with _lock:
        _file = Path(path) if path is not None else None
        _file_read = True


def clear_cache() -> None:
    """Forget the deals solved in this process (the file, if any, is kept)."""
    with _lock:
        _memory.clear()


def _cache_file() -> Path | None:
    global _file, _file_read
    if not _file_read:
        _file_read = True
        named = os.environ.get(ENVIRONMENT)
        _file = Path(named) if named else None
    return _file


def table_of(deal: Deal) -> DDTable:
    """The deal's double-dummy table: from the cache, else solved once and kept."""
    key = deal.pbn(Seat.N)
    with _lock:
        found = _memory.get(key)
        if found is not None:
            _memory.move_to_end(key)
            return found
        path = _cache_file()
    table = _stored(path, key) if path is not None else None
    if table is None:
        table = dd_tables([deal])[0]
        if path is not None:
            _store(path, key, table)
    with _lock:
        _memory[key] = table
        while len(_memory) > CACHE_SIZE:
            _memory.popitem(last=False)
    return table


def _connect(path: Path) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(path, timeout=30)
        db.execute("CREATE TABLE IF NOT EXISTS dd (deal TEXT PRIMARY KEY, hex TEXT NOT NULL)")
    except sqlite3.Error as exc:
        raise BridgeFileError(f"the double-dummy cache {path} cannot be used: {exc}") from exc
    return db


def _stored(path: Path, key: str) -> DDTable | None:
    db = _connect(path)
    try:
        row = db.execute("SELECT hex FROM dd WHERE deal = ?", (key,)).fetchone()
    except sqlite3.Error as exc:
        raise BridgeFileError(f"the double-dummy cache {path} cannot be read: {exc}") from exc
    finally:
        db.close()
    if row is None:
        return None
    try:
        return DDTable.from_hex(str(row[0]))
    except ValueError:
        return None  # a damaged entry is solved again (and written over)


def _store(path: Path, key: str, table: DDTable) -> None:
    db = _connect(path)
    try:
        with db:
            db.execute("INSERT OR REPLACE INTO dd (deal, hex) VALUES (?, ?)", (key, table.hex))
    except sqlite3.Error as exc:
        raise BridgeFileError(f"the double-dummy cache {path} cannot be written: {exc}") from exc
    finally:
        db.close()


# The double-dummy columns of a table (``board_rows(..., extra=dd_columns)``): declarer's
# tricks with perfect play in the contract played, that result's N-S score (Law 77), and the tricks
# taken at the table less the double-dummy ones (+1: one more than double dummy).
DD_COLUMN_TYPES: dict[str, str] = {
    "dd_tricks": "int", "dd_score_ns": "int", "dd_difference": "int"
}


def dd_columns(board: Board, row: Row) -> Row:
    """A row's double-dummy columns, empty when the board has no full deal or no contract
    with a declarer; each deal is solved once per process (``analysis.ddscore``)."""
    out: Row = dict.fromkeys(DD_COLUMN_TYPES)
    deal, contract, declarer = board.deal, row.get("contract"), row.get("declarer")
    if deal is None or not deal.is_complete or deal.problems() or not contract or not declarer:
        return out
    try:
        found = dd_score(deal, contract, declarer, board.vulnerable or "None")
    except UsageError:  # a passed-out board, or a contract without a level
        return out
    out["dd_tricks"] = found.tricks
    out["dd_score_ns"] = found.score if Seat(declarer).side.value == "NS" else -found.score
    if row.get("tricks") is not None:
        out["dd_difference"] = row["tricks"] - found.tricks
    return out
