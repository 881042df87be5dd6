"""Pair events: each deal matchpointed (Law 78A, Neuberg) or IMPed against the field
(Butler, cross-IMPs), and the event's standings.

A deal's results come from several records of it, or from one record's ScoreTable
traveller. Each record gets ScoreMP and ScorePercentage (or ScoreIMP), each
traveller its result columns, the deal a ScoreTable and the event a
TotalScoreTable on its last record. A ``Multiplicity`` row is a weight, so the
work per deal grows as n log n in its rows, whatever the multiplicities; a
multiplicity over ``Limits.max_multiplicity`` leaves its deal unscored, with a
``limit`` finding. A pair id met as both PairId_NS and PairId_EW in one row means
ids are per direction (a Mitchell), so pairs are then told apart by direction.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from bridgefiles.model.board import Table
from bridgefiles.model.calls import Contract
from bridgefiles.scoring.butler import Average, CrossDivide, butler, cross_imps
from bridgefiles.scoring.matchpoints import Adjusted, Units, percentage, score_board
from bridgefiles.scoring.method import ScoringMethod
from bridgefiles.scoring.record import Record, Records, clean, method_of, pair_names
from bridgefiles.scoring.settings import ScoreSettings
from bridgefiles.scoring.store import RecordStore
from bridgefiles.scoring.tables import (
    check_table_scores,
    put_total,
    rank,
    records_traveller,
    too_many,
    traveller_of,
    write_results,
)
from bridgefiles.scoring.traveller import Entry, element, entries_from_table, make_table
from bridgefiles.scoring.values import format_number

_CROSS: dict[str, CrossDivide] = {"Cross": "none", "Cross1": "scores", "Cross2": "comparisons"}
_IMP_PAIRS = ("Butler", "Butler-2", "Cross", "Cross1", "Cross2")


@dataclass
class _PairTotals:
    names: str | None = None
    boards: int = 0
    points: float = 0.0
    top: float = 0.0


@dataclass
class _Deal:
    members: list[int]  # records of the deal
    entries: list[Entry]
    table_at: int | None  # the record whose traveller gave the entries


def pairs_event(store: RecordStore, last: int, settings: ScoreSettings) -> None:
    """Matchpoints or IMP pairs for every pair deal of the event in ``store``, and the
    event's standings on its ``last`` record.

    Two passes over the deals, holding one deal's results at a time: the first
    learns the field (the most results of a deal) and whether pair ids are per
    direction; the second scores each deal and writes it back."""
    expected = settings.expected_results
    widest = 0
    mitchell = False
    method: ScoringMethod | None = None
    records = store.by_index
    for members in store.pair_deals():
        if method is None:
            method = method_of(records[members[0]].board, settings)
        entries = _deal(records, members, settings, report=False).entries
        widest = max([widest, *(_field(es) for es in _sections(entries, settings))])
        mitchell = mitchell or any(e.pair_ns is not None and e.pair_ns == e.pair_ew
                                   for e in entries)
    if method is None:
        return
    if expected is None:
        expected = widest
    totals: dict[str, _PairTotals] | None = {}
    problem: str | None = None
    for members in store.pair_deals():
        g = _deal(records, members, settings)
        if _score_group(records, g, method, expected, settings):
            for e in g.entries:
                if totals is not None:
                    _add_totals(totals, e, mitchell)
                    problem = too_many(totals, settings, "pairs")
                    if problem is not None:  # the totals let go (said below)
                        totals = None
    if settings.tables and problem is not None:
        records[last].report("limit", problem)
    if settings.tables and totals:
        put_total(records[last], _standings(totals, method, settings), settings)


def _deal(
    records: Records, members: list[int], settings: ScoreSettings, *, report: bool = True
) -> _Deal:
    """The deal's entries: its traveller's rows (its problems reported when ``report``),
    else one a record."""
    table_at = next((i for i in members if traveller_of(records[i].board)), None)
    if table_at is not None and len(members) == 1:
        w = records[table_at]
        entries = (_table_entries(w, table_at, settings) if report
                   else _rows(w, table_at, settings))
        return _Deal(members, entries, table_at)
    return _Deal(members, [_record_entry(records[i], i) for i in members], None)


def _score_group(
    records: Records, g: _Deal, method: ScoringMethod, expected: int, settings: ScoreSettings
) -> bool:
    """Score one deal and write its results; False when it cannot be scored (a
    multiplicity over the limit, reported with its entries)."""
    if any(e.over_limit for e in g.entries):
        return False
    for section in _sections(g.entries, settings):
        _score_deal(section, method, expected, settings)
    if g.table_at is not None:
        write_results(records[g.table_at], g.entries, method, settings)
        own = _own_row(records[g.table_at], g.entries)
        if own is not None:
            _write_record(records[own.board], own, settings)
    else:
        for e in g.entries:
            _write_record(records[e.board], e, settings)
        records_traveller(records, g.members, g.entries, method, settings)
    return True


def _rows(w: Record, index: int, settings: ScoreSettings) -> list[Entry]:
    table = w.board.table("ScoreTable")
    assert table is not None
    return entries_from_table(
        table, index, w.board.vulnerable, settings.adjusted, limits=settings.limits
    )


def _table_entries(w: Record, index: int, settings: ScoreSettings) -> list[Entry]:
    """The rows of a record's traveller, its Score cells checked, its problems reported."""
    table = w.board.table("ScoreTable")
    assert table is not None
    entries = entries_from_table(
        table, index, w.board.vulnerable, settings.adjusted, limits=settings.limits
    )
    for e in entries:
        for code, message in e.problems:
            w.report(code, message, at=table)
    check_table_scores(w, table, entries, settings)
    return entries


def _record_entry(w: Record, index: int) -> Entry:
    b = w.board
    return Entry(
        ns=w.ns,
        board=index,
        pair_ns=clean(b.tag("PairNS")),
        pair_ew=clean(b.tag("PairEW")),
        names_ns=pair_names(b.tag("North"), b.tag("South")),
        names_ew=pair_names(b.tag("East"), b.tag("West")),
        contract=None if w.contract is None else _one(w.contract),
        declarer=w.declarer,
        tricks=w.tricks,
    )


@lru_cache(maxsize=256)  # every contract there is: 35 strains and levels x 3, passed out
def _one(contract: Contract) -> Contract:
    """One object for equal contracts: a deal's entries outlive the records they came from
    (read back from disk, each with a contract of its own, about 700 bytes)."""
    return contract


def _own_row(w: Record, entries: list[Entry]) -> Entry | None:
    """The traveller row of the record carrying it, found by its PairNS and PairEW."""
    ns, ew = clean(w.board.tag("PairNS")), clean(w.board.tag("PairEW"))
    if ns is None or ew is None:
        return None
    rows = [e for e in entries if e.pair_ns == ns and e.pair_ew == ew]
    return rows[0] if len(rows) == 1 else None


def _sections(entries: list[Entry], settings: ScoreSettings) -> list[list[Entry]]:
    if not settings.by_section:
        return [entries]
    by: dict[str | None, list[Entry]] = defaultdict(list)
    for e in entries:
        by[e.section].append(e)
    return list(by.values())


def _field(entries: list[Entry]) -> int:
    return sum(e.multiplicity for e in entries if e.scored)


def _score_deal(
    entries: list[Entry], method: ScoringMethod, expected: int, settings: ScoreSettings
) -> None:
    """Fill ``results`` of each entry: mp_ns, mp_ew, pct_ns, pct_ew, top, or imp_ns."""
    scored = [e for e in entries if e.scored]
    if not scored:
        return
    results: list[float | Adjusted] = [
        e.adjusted if e.adjusted is not None else float(e.ns or 0) for e in scored
    ]
    weights = [e.multiplicity for e in scored]
    if method.is_imps:
        for e, value in zip(scored, _imp_values(results, weights, method, settings), strict=True):
            e.results["imp_ns"] = value
        return
    units: Units = "1" if method.has("MP2") else settings.units
    field_size = max(expected, sum(weights))
    board = score_board(results, expected=field_size, units=units, weights=weights)
    for j, e in enumerate(scored):
        e.results.update(
            mp_ns=board.ns[j],
            mp_ew=board.ew[j],
            pct_ns=percentage(board.ns[j], board.top),
            pct_ew=percentage(board.ew[j], board.top),
            top=board.top,
        )


def _imp_values(
    results: list[float | Adjusted],
    weights: list[int],
    method: ScoringMethod,
    settings: ScoreSettings,
) -> list[float]:
    """Butler or cross-IMPs over the real results; artificial ones get +3/0/-3."""
    real = [(x, w) for x, w in zip(results, weights, strict=True) if not isinstance(x, Adjusted)]
    scores = [x for x, _ in real]
    counts = [w for _, w in real]
    name = next((m for m in method.modifiers if m in _IMP_PAIRS), settings.pairs_imps)
    o = settings
    if not real:
        got: list[float] = []
    elif name.startswith("Cross"):
        divide: CrossDivide = _CROSS.get(name, o.cross_divide)
        got = cross_imps(scores, divide=divide, rounding=o.imp_rounding, weights=counts)
    else:
        discard = 0 if name == "Butler" else o.discard
        average: Average = "median" if method.has("Median") else o.average
        got = [
            float(x)
            for x in butler(
                scores,
                discard=discard,
                average=average,
                round_datum=o.round_datum,
                half=o.half,
                rounding=o.imp_rounding,
                weights=counts,
            )
        ]
    out: list[float] = []
    it = iter(got)
    for x in results:
        if isinstance(x, Adjusted):
            a = o.adjusted
            out.append(a.imps_plus if x.ns > 50 else a.imps_minus if x.ns < 50 else a.imps_average)
        else:
            out.append(next(it, 0.0))
    return out


def _write_record(w: Record, e: Entry, settings: ScoreSettings) -> None:
    r = e.results
    if "imp_ns" in r:
        w.put_sided("ScoreIMP", r["imp_ns"], -r["imp_ns"], settings)
    elif "mp_ns" in r:
        w.put_sided("ScoreMP", r["mp_ns"], r["mp_ew"], settings)
        w.put_sided("ScorePercentage", r["pct_ns"], r["pct_ew"], settings)


def _add_totals(totals: dict[str, _PairTotals], e: Entry, mitchell: bool) -> None:
    r = e.results
    if not r:
        return
    for side, pair, names in (("ns", e.pair_ns, e.names_ns), ("ew", e.pair_ew, e.names_ew)):
        key = pair if pair is not None else names
        if key is None:
            continue
        if e.section and pair is not None:
            key = f"{e.section}{pair}"
        if mitchell and pair is not None:
            key = f"{key}-{side.upper()}"
        t = totals.setdefault(key, _PairTotals(names=names))
        t.boards += 1
        if "imp_ns" in r:
            t.points += r["imp_ns"] if side == "ns" else -r["imp_ns"]
        else:
            t.points += r[f"mp_{side}"]
            t.top += r["top"]


def _total_value(t: _PairTotals, imps_event: bool) -> float:
    if imps_event:
        return t.points
    return t.points / t.top if t.top else 0.5


def _standings(
    totals: dict[str, _PairTotals], method: ScoringMethod, settings: ScoreSettings
) -> Table:
    imps_event = method.is_imps
    ordered = sorted(totals.items(), key=lambda kv: -_total_value(kv[1], imps_event))
    ranks = rank([_total_value(v, imps_event) for _, v in ordered])
    p = settings.places
    if imps_event:
        columns = ["Rank", "PairId", "Names", "NrBoards", "TotalIMP", "MeanIMP"]
    else:
        columns = ["Rank", "PairId", "Names", "NrBoards", "TotalMP", "TotalPercentage"]
    rows = []
    for place, (key, t) in zip(ranks, ordered, strict=True):
        row = [str(place), element(key), element(t.names or "-"), str(t.boards)]
        row.append(format_number(t.points, p))
        if imps_event:
            row.append(format_number(t.points / t.boards if t.boards else 0, p))
        else:
            row.append(format_number(100 * t.points / t.top if t.top else 50.0, p))
        rows.append(row)
    return make_table("TotalScoreTable", columns, rows)
