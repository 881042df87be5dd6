"""ScoreTable and TotalScoreTable: travellers and standings written, or checked.

A traveller the file gives keeps its rows: missing cells are filled and cells
that disagree with ours are reported (``score-mismatch``), replaced only with
``replace``. A traveller of several records, or standings, that the file does not
give are written whole (unless the ``tables`` setting is off).
"""

from __future__ import annotations

from typing import TypeVar

from bridgefiles.model.board import Board, Table
from bridgefiles.scoring.duplicate import ns_points
from bridgefiles.scoring.method import ScoringMethod
from bridgefiles.scoring.record import Record, Records, close, score_text
from bridgefiles.scoring.settings import ScoreSettings
from bridgefiles.scoring.traveller import (
    MISSING,
    Entry,
    cell_number,
    element,
    make_table,
    set_cells,
)
from bridgefiles.scoring.values import format_number

RESULT_COLUMNS = ("MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW", "IMP_NS", "IMP_EW")


def traveller_of(board: Board) -> Table | None:
    """The board's ScoreTable when it holds results (a contract or a score per row)."""
    t = board.table("ScoreTable")
    if t is None or not t.rows:
        return None
    names = {c.name for c in t.columns}
    return t if names & {"Contract", "Score_NS", "Score_EW"} else None


def score_cells(ns: int | None) -> list[str]:
    """Score_NS and Score_EW: the side that scored gets the points, the other ``-``."""
    if ns is None:
        return ["?", "?"]
    return [str(ns), "-"] if ns >= 0 else ["-", str(-ns)]


def rank(values: list[float]) -> list[int]:
    """Best rank when tied, for values sorted best first."""
    ranks: list[int] = []
    for i, value in enumerate(values):
        ranks.append(ranks[-1] if i and value == values[i - 1] else i + 1)
    return ranks


def result_columns(method: ScoringMethod) -> list[str]:
    """The result columns of a traveller scored by ``method``."""
    if method.is_imps:
        return ["IMP_NS", "IMP_EW"]
    return ["MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW"]


def result_cells(e: Entry, columns: list[str], places: int) -> dict[str, str]:
    """An entry's results as the cells of ``columns`` (``-`` where it has none)."""
    r = e.results
    values = {
        "IMP_NS": r.get("imp_ns"),
        "IMP_EW": -r["imp_ns"] if "imp_ns" in r else None,
        "MP_NS": r.get("mp_ns"),
        "MP_EW": r.get("mp_ew"),
        "Percentage_NS": r.get("pct_ns"),
        "Percentage_EW": r.get("pct_ew"),
    }
    return {
        c: format_number(v, places) if v is not None else "-"
        for c, v in values.items()
        if c in columns
    }


def record_row(w: Record, *, room: bool = False, team: list[str] | None = None) -> list[str]:
    """A record's traveller cells: [Room], Contract, Declarer, Result, scores, and with
    ``room`` the two cells of the team's board result (IMPs or BAM points; ``?`` unknown)."""
    b = w.board
    row = [element(b.room or b.tag("Table") or "-")] if room else []
    row.append(w.contract.text if w.contract is not None else "?")
    row.append(w.declarer.value if w.declarer is not None else "-")
    row.append(str(w.tricks) if w.tricks is not None else "-")
    row.extend(score_cells(w.ns))
    if room:
        row.extend(team if team is not None else ["?", "?"])
    return row


T = TypeVar("T")


def too_many(totals: dict[str, T], settings: ScoreSettings, what: str) -> str | None:
    """Why an event's standings are not written: more than ``Limits.max_event_pairs``
    pairs or teams in ``totals`` (None while within it)."""
    most = settings.limits.max_event_pairs
    if most is None or len(totals) <= most:
        return None
    return (f"this event has more than {most:,} {what}, over the limit "
            f"max_event_pairs={most:,}: no standings are written for it")


def records_traveller(
    records: Records,
    members: list[int],
    entries: list[Entry],
    method: ScoringMethod,
    settings: ScoreSettings,
) -> None:
    """A ScoreTable on the first record of a deal played at several tables (pairs)."""
    if not settings.tables or len(members) < 2:
        return
    if records[members[0]].board.table("ScoreTable") is not None:
        return
    ids = any(e.pair_ns or e.pair_ew for e in entries)
    names = any(e.names_ns or e.names_ew for e in entries)
    columns = (["PairId_NS", "PairId_EW"] if ids else []) + (
        ["Names_NS", "Names_EW"] if names else []
    )
    columns += ["Contract", "Declarer", "Result", "Score_NS", "Score_EW"]
    results = result_columns(method)
    rows = []
    for e in entries:
        row = []
        if ids:
            row += [element(e.pair_ns or "-"), element(e.pair_ew or "-")]
        if names:
            row += [element(e.names_ns or "-"), element(e.names_ew or "-")]
        row += record_row(records[e.board])
        cells = result_cells(e, results, settings.places)
        row += [cells[c] for c in results]
        rows.append(row)
    # asked for again: reading the rows may have sent the first record to disk
    records[members[0]].set_table(make_table("ScoreTable", columns + results, rows))


def check_table_scores(
    w: Record, table: Table, entries: list[Entry], settings: ScoreSettings
) -> None:
    """Fill the Score cells of a traveller's rows and report those that disagree (Law 77)."""
    updates: dict[tuple[int, str], str] = {}
    names = {c.name for c in table.columns}
    for e in entries:
        assert e.row is not None
        computed = ns_points(e.contract, e.declarer, e.tricks, w.board.vulnerable)
        if computed is None:
            continue
        if e.written_ns is None:
            updates.update(_score_updates(e.row, computed, names))
        elif e.written_ns != computed:
            action = "replaced" if settings.replace else "kept"
            w.report(
                "score-mismatch",
                f"ScoreTable row {e.row + 1}: {e.contract} by "
                f"{e.declarer.value if e.declarer else '?'} taking {e.tricks} tricks "
                f"scores {score_text(computed, settings)}, not "
                f"{score_text(e.written_ns, settings)}; {action}",
                law="77",
                at=table,
            )
            if settings.replace:
                updates.update(_score_updates(e.row, computed, names))
    if updates:
        w.set_table(set_cells(table, updates))


def _score_updates(row: int, ns: int, names: set[str]) -> dict[tuple[int, str], str]:
    if "Score_NS" in names and "Score_EW" in names:
        cells = score_cells(ns)
        return {(row, "Score_NS"): cells[0], (row, "Score_EW"): cells[1]}
    if "Score_EW" in names:
        return {(row, "Score_EW"): str(-ns)}
    return {(row, "Score_NS"): str(ns)}


def write_results(
    w: Record, entries: list[Entry], method: ScoringMethod, settings: ScoreSettings
) -> None:
    """Fill the result columns of a traveller (adding them when it has none)."""
    table = w.board.table("ScoreTable")
    assert table is not None
    present = [c.name for c in table.columns]
    wanted: list[str] = [c for c in RESULT_COLUMNS if c in present]
    if not wanted:
        wanted = result_columns(method)
    records = table.records()
    digits = settings.limits.max_number_digits
    updates: dict[tuple[int, str], str] = {}
    wrong: list[str] = []
    for e in entries:
        assert e.row is not None
        cells = result_cells(e, wanted, settings.places)
        for c in wanted:
            ours = cells.get(c, "-")
            if ours == "-":
                continue
            written = records[e.row].get(c) if e.row < len(records) else None
            number = cell_number(written, max_digits=digits)
            if written is None or written.strip() in MISSING:
                updates[(e.row, c)] = ours
            elif number is not None and not close(number, float(ours)):
                wrong.append(f"row {e.row + 1} {c} {written} (ours {ours})")
                if settings.replace:
                    updates[(e.row, c)] = ours
    _report_wrong(w, "ScoreTable disagrees with the computed scores", wrong, table, settings)
    if updates:
        current = w.board.table("ScoreTable")
        assert current is not None
        w.set_table(set_cells(current, updates))


def put_total(w: Record, table: Table, settings: ScoreSettings) -> None:
    """Write a TotalScoreTable unless the file gave the board one (kept unless replace).

    The event's standings take the place of a match's running total written here
    on the same board (the standings include that match)."""
    existing = w.board.table("TotalScoreTable")
    if existing is not None and "TotalScoreTable" not in w.ours:
        _compare_totals(w, existing, table, settings)
    if existing is None or settings.replace or "TotalScoreTable" in w.ours:
        w.set_table(table)


def _compare_totals(w: Record, theirs: Table, ours: Table, settings: ScoreSettings) -> None:
    """Report standings the file gives that disagree with ours (matched by PairId/Names)."""
    key = next((k for k in ("PairId", "Names") if theirs.column_index(k) is not None), None)
    if key is None or ours.column_index(key) is None:
        return
    mine = {r[key]: r for r in ours.records()}
    digits = settings.limits.max_number_digits
    wrong: list[str] = []
    for row in theirs.records():
        other = mine.get(row.get(key, ""))
        if other is None:
            continue
        for column, value in other.items():
            if column in ("Rank", "Names", key) or column not in row:
                continue
            written = cell_number(row[column], max_digits=digits)
            if written is not None and not close(written, float(value)):
                wrong.append(f"{row[key]} {column} {row[column]} (ours {value})")
    what = "TotalScoreTable disagrees with the computed standings"
    _report_wrong(w, what, wrong, theirs, settings)


def _report_wrong(
    w: Record, what: str, wrong: list[str], table: Table, settings: ScoreSettings
) -> None:
    """One ``score-mismatch`` for a table's cells that disagree (the first five named)."""
    if wrong:
        action = "replaced" if settings.replace else "kept"
        more = " ..." if len(wrong) > 5 else ""
        w.report("score-mismatch", f"{what}: {', '.join(wrong[:5])}{more}; {action}", at=table)
