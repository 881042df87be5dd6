"""Team matches: the two rooms of a board IMPed (Law 78B) or scored board-a-match
(Law 78C), running totals and VPs.

Two records of a deal with the same two teams in HomeTeam/VisitTeam, or an Open
and a Closed room, are one board of a match. Each record gets its ScoreIMP (with
Scoring ``BAM``: ScoreMP and ScorePercentage, 2/1/0 for the better, equal or worse
aggregate, or 1/½/0 in ``units="1"``), the board's first record a ScoreTable of both
rooms, and the board's last record of each match the running totals (IMPs and VPs,
or board points) in a TotalScoreTable; with several matches, the event's standings
go on its last record. The team sitting N-S in the Open room is the home team.
"""

from __future__ import annotations

from collections import defaultdict

from bridgefiles.model.board import Table
from bridgefiles.scoring.imps import imps
from bridgefiles.scoring.record import Records, method_of
from bridgefiles.scoring.settings import ScoreSettings
from bridgefiles.scoring.store import RecordStore
from bridgefiles.scoring.tables import put_total, rank, record_row, too_many, traveller_of
from bridgefiles.scoring.traveller import element, make_table
from bridgefiles.scoring.values import format_number
from bridgefiles.scoring.vp import victory_points

MatchKey = tuple[str, ...]
Rooms = tuple[int, int]  # indexes of the two records of a board, home N-S first


def team_rooms(
    records: Records, members: list[int], settings: ScoreSettings
) -> list[tuple[MatchKey, Rooms]] | None:
    """Rooms of one deal paired into matches: by team names, else by Open/Closed rooms;
    None when the records are not a teams deal."""
    teams: list[tuple[str, str]] = []
    room_names: list[str] = []
    traveller = False
    for i in members:  # a record at a time (a deal may have been played at many tables)
        b = records[i].board
        teams.append((b.tag("HomeTeam") or "", b.tag("VisitTeam") or ""))
        room_names.append((b.room or "").strip().lower())
        traveller = traveller or bool(traveller_of(b))
    if all(h.strip() and v.strip() for h, v in teams) and len(members) >= 2:
        by_match: dict[MatchKey, list[int]] = defaultdict(list)
        for i, (h, v) in zip(members, teams, strict=True):
            by_match[tuple(sorted((h.strip(), v.strip())))].append(i)
        # A match with one room only (a board not played at the other table) stays
        # unscored; a name met in more than two records cannot be paired.
        return [
            (key, _open_first(records, rooms[0], rooms[1]))
            for key, rooms in by_match.items()
            if len(rooms) == 2
        ]
    if sorted(room_names) == ["closed", "open"]:
        first = members[room_names.index("open")]
        second = members[room_names.index("closed")]
        return [(("rooms",), (first, second))]
    method = method_of(records[members[0]].board, settings)
    if (
        len(members) == 2
        and method.base in ("IMP", "BAM")
        and not method.modifiers
        and not traveller
    ):
        return [(("rooms",), (members[0], members[1]))]
    return None


def _open_first(records: Records, a: int, b: int) -> Rooms:
    """The Open room first (its N-S is the home team, in LIN as in PBN), else file order."""
    room_b = (records[b].board.room or "").strip().lower()
    return (b, a) if room_b == "open" else (a, b)


def _margin(
    records: Records, rooms: Rooms, settings: ScoreSettings, bam: bool
) -> float | None:
    """What the home team gains on the board: IMPs, or (BAM) 1, 0 or -1 for the better,
    equal or worse aggregate; None when a room's score is unknown."""
    a, b = (records[i].ns for i in rooms)
    if a is None or b is None:
        return None
    if bam:
        return float((a > b) - (a < b))
    return float(imps(a - b, rounding=settings.imp_rounding))


def _bam_points(margin: float, settings: ScoreSettings) -> float:
    """Board-a-match points of the side with ``margin``: 2/1/0 (or 1/0.5/0 in units "1")."""
    return (1 + margin) / (2 if settings.units == "1" else 1)


def _is_bam(records: Records, rooms: Rooms, settings: ScoreSettings) -> bool:
    return method_of(records[rooms[0]].board, settings).base == "BAM"


def team_board(
    records: Records,
    members: list[int],
    paired: list[tuple[MatchKey, Rooms]],
    settings: ScoreSettings,
) -> None:
    """ScoreIMP (BAM: ScoreMP, ScorePercentage) of each room, and a ScoreTable of the
    rooms on the deal's first record."""
    rows: list[list[str]] = []
    bam = any(_is_bam(records, rooms, settings) for _, rooms in paired)
    for _, rooms in paired:
        gained = _margin(records, rooms, settings, bam)
        for k, i in enumerate(rooms):
            w = records[i]
            mine = None if gained is None else (gained if k == 0 else -gained)
            cells = None
            if mine is not None and bam:
                ns, ew = _bam_points(mine, settings), _bam_points(-mine, settings)
                w.put_sided("ScoreMP", ns, ew, settings)
                w.put_sided("ScorePercentage", 100 * ns / (ns + ew), 100 * ew / (ns + ew), settings)
                cells = [format_number(ns), format_number(ew)]
            elif mine is not None:
                w.put_sided("ScoreIMP", mine, -mine, settings)
                cells = [format_number(mine), format_number(-mine)]
            rows.append(record_row(w, room=True, team=cells))
    if settings.tables and len(members) > 1:
        first = records[members[0]]
        if first.board.table("ScoreTable") is None:
            columns = ["Room", "Contract", "Declarer", "Result", "Score_NS", "Score_EW"]
            columns += ["MP_NS", "MP_EW"] if bam else ["IMP_NS", "IMP_EW"]
            first.set_table(make_table("ScoreTable", columns, rows))


def team_matches(store: RecordStore, last: int, settings: ScoreSettings) -> None:
    """Running totals of each match of the event in ``store``, and the event's standings
    on its ``last`` record when it has several matches. Two passes over each match's
    boards: the boards scored, then the totals."""
    records = store.by_index
    event_totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    standings = True  # False once the event has more teams than Limits.max_event_pairs
    problem: str | None = None
    any_bam = False
    matches = 0
    for key in store.matches():
        matches += 1
        opening = next(store.rooms(key))
        first = records[opening[0]].board
        home = (first.tag("HomeTeam") or "").strip()
        visit = (first.tag("VisitTeam") or "").strip()
        if key == ("rooms",):
            home = home or "Open N-S"
            visit = visit or "Open E-W"
        bam = _is_bam(records, opening, settings)
        n_boards = sum(
            1 for rooms in store.rooms(key) if _margin(records, rooms, settings, bam) is not None
        )
        total_home = total_visit = 0.0
        played = 0
        for rooms in store.rooms(key):
            gained = _margin(records, rooms, settings, bam)
            if gained is None:
                continue
            a = records[rooms[0]].board
            sits_ns = (a.tag("HomeTeam") or "").strip() in ("", home)
            mine = gained if sits_ns else -gained
            if bam:
                total_home += _bam_points(mine, settings)
                total_visit += _bam_points(-mine, settings)
            else:
                total_home += max(mine, 0)
                total_visit += max(-mine, 0)
            played += 1
            if settings.tables:
                table = _match_table(
                    [(home, total_home), (visit, total_visit)], played, n_boards, settings, bam
                )
                records[rooms[1]].set_table(table)
        vp_home, vp_visit = (0.0, 0.0) if bam else _vps(total_home - total_visit, n_boards)
        for team, got, vp in ((home, total_home, vp_home), (visit, total_visit, vp_visit)):
            if standings:
                event_totals[team][0] += n_boards
                event_totals[team][1] += got
                event_totals[team][2] += vp
        if standings:
            problem = too_many(event_totals, settings, "teams")
            if problem is not None:  # the totals let go (said below, where they would go)
                standings = False
                event_totals.clear()
        any_bam = any_bam or bam
    if matches > 1 and settings.tables and problem is not None:
        records[last].report("limit", problem)
    if matches > 1 and settings.tables and standings:
        ordered = sorted(event_totals.items(), key=lambda kv: (-kv[1][2], -kv[1][1]))
        ranks = rank([v[1] if any_bam else v[2] for _, v in ordered])
        rows = [
            [element(team), str(int(n)), format_number(got, 2), format_number(vp, 2)]
            for team, (n, got, vp) in ordered
        ]
        table = _totals(ranks, rows, settings, any_bam)
        put_total(records[last], table, settings)


def _vps(margin: float, boards: int) -> tuple[float, float]:
    if boards < 1:
        return 10.0, 10.0
    winner, loser = victory_points(margin, boards)
    return (winner, loser) if margin >= 0 else (loser, winner)


def _match_table(
    teams: list[tuple[str, float]], played: int, boards: int, settings: ScoreSettings, bam: bool
) -> Table:
    """Running totals after ``played`` boards; VPs as if the match ended there."""
    (home, a), (visit, b) = teams
    vp_a, vp_b = _vps(a - b, boards)
    ordered = sorted([(home, a, vp_a), (visit, b, vp_b)], key=lambda t: -t[1])
    ranks = rank([float(t[1]) for t in ordered])
    rows = [
        [element(team), str(played), format_number(got, 2), format_number(vp, 2)]
        for team, got, vp in ordered
    ]
    return _totals(ranks, rows, settings, bam)


def _totals(ranks: list[int], rows: list[list[str]], settings: ScoreSettings, bam: bool) -> Table:
    """A TotalScoreTable of teams: Names, NrBoards, TotalIMP and VP (BAM: TotalMP, no VP)."""
    columns = ["Rank", "Names", "NrBoards", "TotalMP" if bam else "TotalIMP"]
    vp = settings.vp and not bam
    if vp:
        columns.append("VP")
    cut = len(columns) - 1  # Rank is added in front
    table_rows = [[str(place), *row[:cut]] for place, row in zip(ranks, rows, strict=True)]
    return make_table("TotalScoreTable", columns, table_rows)
