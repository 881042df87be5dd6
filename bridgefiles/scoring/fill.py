"""Filling in: contracts, results and scores written into a file's boards (``bf.score``).

This is the layer above the Laws (their ruling gives contract, declarer and the
tricks after Law 64) and the one place where boards change. Per record
(:mod:`.record`, :mod:`.rubber_record`): Contract and Declarer when missing, Result
(declarer's tricks after transfers), Score (``NS 620`` / ``EW 100``), ScoreRubber.
Where a file holds several results of one deal (same Event, Board and cards):

* teams (:mod:`.teams`): two records of a board with the same two teams in
  HomeTeam/VisitTeam, or an Open and a Closed room;
* pairs (:mod:`.pairs`): more records of a deal, or one record with a ScoreTable
  traveller; matchpoints or IMP pairs.

Travellers and standings are written or checked by :mod:`.tables`. A value already
in the file that disagrees with ours is reported on its board and replaced only
with ``replace=True``.

Two steps, so a file need not be held to be scored: a :class:`Scorer` takes the
boards one at a time (the Laws' ruling on each, filled in as a small record that
waits on disk, :mod:`.store`) and then gives each board's
:class:`~bridgefiles.scoring.changes.Changes`;
:func:`~bridgefiles.scoring.changes.apply_changes` makes them on the board.
:func:`score_file` does both on a file in memory, ``convert --score`` on two
readings of its input.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import ValidationError

from bridgefiles.errors import BridgeFileError, InternalError
from bridgefiles.laws.editions import Edition
from bridgefiles.limits import DEFAULT_LIMITS, Limits
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.file import BridgeFile
from bridgefiles.model.seats import Seat
from bridgefiles.scoring.butler import Average, CrossDivide, Discard, Half
from bridgefiles.scoring.changes import Changes, apply_changes
from bridgefiles.scoring.imps import ImpRounding
from bridgefiles.scoring.matchpoints import AdjustedPercentages, Units
from bridgefiles.scoring.method import ScoringMethod, scale_warnings
from bridgefiles.scoring.pairs import pairs_event
from bridgefiles.scoring.record import Record, deal_facts, fill_record, fill_score, method_of
from bridgefiles.scoring.rubber_record import check_history, fill_rubber
from bridgefiles.scoring.settings import ScoreForm, ScoreSettings
from bridgefiles.scoring.store import DealKey, RecordStore
from bridgefiles.scoring.tables import traveller_of
from bridgefiles.scoring.teams import team_board, team_matches, team_rooms

__all__ = ["ScoreSettings", "Scorer", "score_file", "settings_of"]


def score_file(
    bridge_file: BridgeFile,
    *,
    method: str | None = None,
    laws: Edition = "2017",
    replace: bool = False,
    units: Units = "2",
    expected_results: int | None = None,
    adjusted: AdjustedPercentages | None = None,
    discard: Discard = 1,
    average: Average = "mean",
    round_datum: int = 10,
    half: Half = "away",
    cross_divide: CrossDivide = "comparisons",
    imp_rounding: ImpRounding = "lower",
    pairs_imps: str = "Butler-2",
    score_form: ScoreForm = "positive",
    places: int = 2,
    by_section: bool = False,
    tables: bool = True,
    vp: bool = True,
    limits: Limits | None = None,
    **unknown: object,
) -> BridgeFile:
    """A new BridgeFile with contracts, results and scores filled in (see the module doc).

    Each setting is a field of :class:`~bridgefiles.scoring.settings.ScoreSettings`,
    documented there: ``method`` a Scoring value used instead of each board's own,
    ``laws`` the edition the tricks are ruled under, ``replace`` to replace values the
    file gives that disagree with ours, ``limits`` the ceilings on what the file may
    make us do; the rest are the choices where organisers differ. A bad setting
    raises BridgeFileError, as does a setting that does not exist.
    """
    if unknown:
        raise BridgeFileError(f"bad scoring settings: no setting {', '.join(sorted(unknown))}")
    if not isinstance(bridge_file, BridgeFile):
        raise BridgeFileError(f"score needs a BridgeFile, not {type(bridge_file).__name__}")
    given: dict[str, Any] = {
        "method": method,
        "laws": laws,
        "replace": replace,
        "units": units,
        "expected_results": expected_results,
        "adjusted": adjusted if adjusted is not None else AdjustedPercentages(),
        "discard": discard,
        "average": average,
        "round_datum": round_datum,
        "half": half,
        "cross_divide": cross_divide,
        "imp_rounding": imp_rounding,
        "pairs_imps": pairs_imps,
        "score_form": score_form,
        "places": places,
        "by_section": by_section,
        "tables": tables,
        "vp": vp,
        "limits": limits if limits is not None else DEFAULT_LIMITS,
    }
    settings = settings_of(given)
    with Scorer(settings) as scorer:
        for board in bridge_file.boards:
            scorer.add(board)
        boards = tuple(
            apply_changes(b, c) for b, c in zip(bridge_file.boards, scorer.changes(), strict=True)
        )
    return bridge_file.model_copy(update={"boards": boards})


def settings_of(given: dict[str, Any]) -> ScoreSettings:
    """The settings, checked; a BridgeFileError for a bad one."""
    try:
        return ScoreSettings.model_validate(given, strict=True)
    except ValidationError as exc:
        raise BridgeFileError(f"bad scoring settings: {exc}") from exc


class Scorer:
    """A file scored a board at a time: :meth:`add` each board in file order (the
    Laws rule on it; its record is filled in and kept on disk, :mod:`.store`), then
    :meth:`changes`. Close it (or use ``with``) to delete the records."""

    def __init__(self, settings: ScoreSettings) -> None:
        self.settings = settings
        self._store = RecordStore()
        self._compared = False

    def __enter__(self) -> Scorer:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._store.close()

    def __len__(self) -> int:
        """The boards added."""
        return len(self._store)

    def add(self, board: Board) -> None:
        """The board's record, filled in on its own (Contract, Declarer, Result, Score)
        and kept with its place among the deals or rubber sessions of the file."""
        if self._compared:
            raise InternalError("a board added to a Scorer after its changes were asked")
        settings = self.settings
        w = deal_facts(board, settings)
        fill_record(w, settings)
        scoring = method_of(w.board, settings)
        if scoring.is_rubber:
            fill_rubber(w, settings)
            self._store.add(w, deal=None, session=_session(w.board))
        else:
            fill_score(w, settings)
            _unimplemented_scale(w, scoring, settings)
            self._store.add(w, deal=_deal_key(board, len(self._store)), session=None)

    def changes(self) -> Iterator[Changes | None]:
        """Each board's changes, in file order (None: unchanged). The first call compares
        the records (rubber histories, deals, events); later calls read them again."""
        if not self._compared:
            self._compared = True
            _compare(self._store, self.settings)
        for w in self._store.in_order():
            yield w.changes()


def _compare(store: RecordStore, settings: ScoreSettings) -> None:
    """The records compared with each other: rubber sessions, then each event's deals."""
    records = store.by_index
    for before, after in store.session_pairs():
        check_history(records[before], records[after])
    for event, last in store.events():
        _event(store, event, last, settings)


def _session(board: Board) -> tuple[str, ...]:
    """A rubber or Chicago record's session: Event, Site, Date, Table or Room."""
    return tuple(board.tag(t) or "" for t in ("Event", "Site", "Date", "Table", "Room"))


def _deal_key(board: Board, index: int) -> DealKey | None:
    """Records of one deal: same Event, Board number and cards; None for a board with
    no number (unless it carries a traveller: then a deal of its own)."""
    number = board.board_number
    if number is None:
        if traveller_of(board) is None:
            return None
        number = f"#{index}"
    deal = board.deal.pbn(Seat.N) if board.deal is not None else ""
    return board.tag("Event") or "", number, deal


def _unimplemented_scale(w: Record, method: ScoringMethod, settings: ScoreSettings) -> None:
    """A warning for each scale the method names that we do not implement (EMP,
    IMP_1948, IMP_1961): its IMPs or matchpoints are those of today's scales."""
    named = "the method given" if settings.method is not None else "Scoring"
    for text in scale_warnings(method, named):
        w.report(
            "score-mismatch",
            text,
            tag="Scoring" if settings.method is None else None,
            severity=Severity.WARNING,
        )


def _event(store: RecordStore, event: str, last: int, settings: ScoreSettings) -> None:
    """One event's deals sorted into team matches and a pairs event, and scored;
    ``last`` is the event's last record (where its standings go)."""
    store.start_event()
    records = store.by_index
    pairs = teams = False
    most = settings.limits.max_deal_results
    for count, first, found in store.deals(event, most):
        if found is None:
            records[first].report(
                "limit", f"this deal has {count:,} results, over the limit "
                f"max_deal_results={most:,}: it is not scored")
            continue
        members = found
        paired = team_rooms(records, members, settings)
        if paired is not None:
            for key, rooms in paired:
                store.add_rooms(key, rooms)
                teams = True
            team_board(records, members, paired, settings)
        elif len(members) > 1 or any(traveller_of(records[i].board) for i in members):
            store.add_pair_deal(members)
            pairs = True
    if pairs:
        pairs_event(store, last, settings)
    if teams:
        team_matches(store, last, settings)
