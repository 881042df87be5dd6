"""One record of a file filled in: Contract, Declarer, Result and Score.

Contract, declarer and the tricks after Law 64 come from the Laws' ruling on the
board (``laws.result.board_result``, in :func:`deal_facts`), else from the tags. A
value already in the file that disagrees with ours is reported on its board
(``contract-mismatch``, ``declarer-mismatch``, ``result-mismatch``,
``score-mismatch``) and replaced only with ``replace=True``. :class:`Record` is the
board being filled in; the pairs, teams and tables modules write through it too.
It holds only what scoring reads of the board (:mod:`.view`) and logs what it changes
(:mod:`.changes`), so a file's records stay small while its boards stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from bridgefiles.errors import InternalError
from bridgefiles.laws.editions import Edition
from bridgefiles.laws.result import BoardResult, board_result
from bridgefiles.model.board import Board, Table
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Diagnostic, Severity
from bridgefiles.model.seats import Seat, Side
from bridgefiles.scoring.changes import Changes, Step, new_findings, with_table
from bridgefiles.scoring.duplicate import ns_points
from bridgefiles.scoring.method import ScoringMethod, parse_scoring
from bridgefiles.scoring.settings import ScoreSettings
from bridgefiles.scoring.traveller import MISSING, digits_problem, parsed
from bridgefiles.scoring.values import SidedValue, format_number
from bridgefiles.scoring.view import scoring_view

SCORING_CODES = frozenset(
    {"contract-mismatch", "declarer-mismatch", "result-mismatch", "score-mismatch",
     "limit", "table", "internal"}
)
"""The codes of the findings a record reports (:meth:`Record.report`)."""


def could_be_ours(board: Board) -> tuple[Diagnostic, ...]:
    """The board's findings as read that a record's finding could equal: a conversion
    reports only the findings scoring adds (``Changes.new``)."""
    return tuple(
        d for d in board.diagnostics
        if d.code in SCORING_CODES and d.path is None and d.trick is None and d.seat is None
    )


@dataclass(slots=True)
class Record:
    """A board being filled in (its :func:`~.view.scoring_view`), and what was learnt."""

    board: Board
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: int | None = None
    auction_contract: Contract | None = None  # set when the tags disagree with the auction
    auction_declarer: Seat | None = None
    computed: int | None = None  # Law 77 from contract, declarer and tricks
    ns: int | None = None  # the N-S score used for the tournament (else the Score tag's)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)  # the changes made, in order
    known: tuple[Diagnostic, ...] = ()  # findings as read that ours could repeat
    ours: set[str] = field(default_factory=set)  # tables written by this run

    def set_tag(self, name: str, value: str) -> None:
        self.board = self.board.with_tag(name, value)
        self.steps.append((name, value))

    def set_table(self, table: Table) -> None:
        self.board = with_table(self.board, table)
        self.steps.append(table)
        self.ours.add(table.name)

    def report(
        self,
        code: str,
        message: str,
        *,
        law: str | None = None,
        at: Table | None = None,
        tag: str | None = None,
        severity: Severity = Severity.ERROR,
    ) -> None:
        """A finding about this board (an error unless said), placed at ``at`` (a table),
        a ``tag``, or the board."""
        if code not in SCORING_CODES:  # could_be_ours must know every code we report
            raise InternalError(f"a scoring finding with an unlisted code {code!r}")
        pair = self.board.tag_pair(tag) if tag is not None else None
        where = at if at is not None else pair
        self.diagnostics.append(
            Diagnostic(
                severity=severity,
                code=code,
                message=message,
                law=law,
                line=where.line if where is not None else self.board.line,
                column=where.column if where is not None else None,
                board=self.board.board_number,
            )
        )

    def disagree(self, code: str, tag: str, written: str, ours: str, replace: bool) -> None:
        """Report a tag that disagrees with the computed value, placed at the tag."""
        action = "replaced" if replace else "kept (score with replace=True to replace it)"
        message = f'{tag} "{written}" disagrees with the computed {ours}; {action}'
        self.report(code, message, law="77" if code == "score-mismatch" else None, tag=tag)

    def put_sided(self, tag: str, ns: float, ew: float, settings: ScoreSettings) -> None:
        """Write ``tag`` as ``NS a EW b``, or report an existing value that disagrees."""
        text = f"NS {format_number(ns, settings.places)} EW {format_number(ew, settings.places)}"
        written = self.board.tag(tag)
        if written is None or written.strip() in MISSING:
            self.set_tag(tag, text)
            return
        try:
            given: SidedValue | None = SidedValue.parse(written)
        except ValueError:
            given = None
        if given is not None and given.artificial:
            return
        ok = given is not None
        if given is not None:
            for side, ours in ((Side.NS, ns), (Side.EW, ew)):
                value = given.given_for(side, self.declarer)
                if value is not None and not close(value, ours):
                    ok = False
        if not ok:
            self.disagree("score-mismatch", tag, written, text, settings.replace)
            if settings.replace:
                self.set_tag(tag, text)

    def changes(self) -> Changes | None:
        """What scoring did to the board; None when nothing."""
        if not self.steps and not self.diagnostics:
            return None
        found = tuple(self.diagnostics)
        return Changes(steps=tuple(self.steps), diagnostics=found,
                       new=new_findings(found, self.known), label=self.board.label)


Records = Mapping[int, Record]
"""Records by their place in the file: the ones a unit of scoring work loaded."""


def close(written: Decimal, ours: float) -> bool:
    """Equal to the precision written (78.69 stands for 78.685 .. 78.695)."""
    exponent = written.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return bool(abs(float(written) - ours) <= 0.5 * 10.0**-places + 1e-9)


def method_of(board: Board, settings: ScoreSettings) -> ScoringMethod:
    """The scoring method of a board: the setting, else its Scoring tag."""
    return parse_scoring(settings.method if settings.method is not None else board.tag("Scoring"))


def score_text(ns: int, settings: ScoreSettings) -> str:
    """A Score value: the side that scored (``EW 100``), or always ``NS`` when asked."""
    if settings.score_form == "ns" or ns >= 0:
        return f"NS {ns}"
    return f"EW {-ns}"


def clean(value: str | None) -> str | None:
    """A tag value, or None when it is missing or a placeholder."""
    return None if value is None or value.strip() in MISSING else value.strip()


def pair_names(a: str | None, b: str | None) -> str | None:
    """Two players' names as a ScoreTable's ``Names_NS`` / ``Names_EW`` give them."""
    x, y = clean(a), clean(b)
    if x is None and y is None:
        return None
    return f"{x or '?'};{y or '?'}"


def _ruling(w: Record, board: Board, laws: Edition) -> BoardResult | None:
    """The Laws' ruling on the board; a bug of ours there is said as such on the board."""
    try:
        return board_result(board, laws=laws)
    except Exception as exc:  # our own bug: an ``internal`` finding, never the file's fault
        bug = InternalError(f"internal error while ruling: {type(exc).__name__}: {exc}")
        w.report("internal", str(bug))
        return None


def deal_facts(board: Board, settings: ScoreSettings) -> Record:
    """Contract, declarer and final tricks from the Laws' ruling, else from the tags.

    The ruling scores the Contract and Declarer tags when they disagree with the
    auction; the auction's own values are kept too, to report the tags (and, with
    ``replace``, to replace them and score the auction's contract). The record keeps
    the board's :func:`~.view.scoring_view`, not the board.
    """
    w = Record(board=scoring_view(board), known=could_be_ours(board))
    ruling = _ruling(w, board, settings.laws)
    if (
        ruling is not None
        and ruling.auction is not None
        and ruling.auction.contract is not None
        and any(d.code in ("contract-mismatch", "declarer-mismatch") for d in ruling.diagnostics)
    ):
        w.auction_contract = ruling.auction.contract
        w.auction_declarer = ruling.auction.declarer
        if settings.replace:
            bare = board.replace(
                tags=tuple(t for t in board.tags if t.name not in ("Contract", "Declarer"))
            )
            ruling = _ruling(w, bare, settings.laws)
    contract = ruling.contract if ruling is not None else None
    w.contract = contract if contract is not None else board.contract
    if w.contract is not None and not w.contract.passed_out:
        declarer = ruling.declarer if ruling is not None else None
        w.declarer = declarer if declarer is not None else board.declarer
        tricks = ruling.tricks if ruling is not None else None
        final = tricks.final if tricks is not None else None
        if (
            ruling is not None
            and tricks is not None
            and tricks.law64
            and any(d.code == "card-not-held" for d in ruling.diagnostics)
        ):
            # A revoke found in a play that has cards the player never held is an
            # artefact of a broken record (a wrong deal): no Law 64 transfer then.
            final = tricks.won
        # the Result tag only when the Laws found no count at all: a partial result (the
        # tricks so far, PBN 2.0) has none to score, and the ruling says so
        w.tricks = final if final is not None or tricks is not None else board.declarer_tricks
        if w.tricks is not None and not 0 <= w.tricks <= 13:
            w.tricks = None
    old_mp = method_of(board, settings).has("OldMP")
    w.computed = ns_points(w.contract, w.declarer, w.tricks, board.vulnerable, old_mp=old_mp)
    w.ns = w.computed
    if w.ns is None:  # no deal to score: keep the score the file gives, if any
        given = score_tag(board)
        points = given.points_for(Side.NS, board.declarer) if given is not None else None
        if points is not None:
            problem = digits_problem(points, max_digits=settings.limits.max_number_digits)
            if problem is None:
                w.ns = int(points)
            else:
                w.report("limit", f"Score: {problem}", tag="Score")
    return w


def score_tag(board: Board) -> SidedValue | None:
    """The board's Score tag, parsed; None when missing or unreadable."""
    return parsed(board.tag("Score"), SidedValue.parse)


def fill_record(w: Record, settings: ScoreSettings) -> None:
    """Contract, Declarer and Result of one record (a rubber's score is filled apart)."""
    b = w.board
    replace = settings.replace
    if w.auction_contract is not None and b.contract != w.auction_contract:
        shown = b.tag("Contract") or ""
        w.disagree("contract-mismatch", "Contract", shown, w.auction_contract.text, replace)
        if replace:
            w.set_tag("Contract", w.auction_contract.text)
    elif w.contract is not None:
        written = b.tag("Contract")
        if written is None or written.strip() in MISSING:
            w.set_tag("Contract", w.contract.text)
    declarer = w.auction_declarer if w.auction_contract is not None else None
    if declarer is not None and not _same_declarer(b, declarer):
        shown = b.tag("Declarer") or ""
        w.disagree("declarer-mismatch", "Declarer", shown, declarer.value, replace)
        if replace:
            w.set_tag("Declarer", declarer.value)
    elif w.declarer is not None:
        written = b.tag("Declarer")
        if written is None or written.strip() in MISSING:
            w.set_tag("Declarer", w.declarer.value)
    if w.tricks is not None:
        written = b.tag("Result")
        if written is None or written.strip() in MISSING:
            w.set_tag("Result", str(w.tricks))
        elif w.board.declarer_tricks != w.tricks:
            w.disagree("result-mismatch", "Result", written, f"{w.tricks} tricks", replace)
            if replace:
                w.set_tag("Result", str(w.tricks))


def fill_score(w: Record, settings: ScoreSettings) -> None:
    """The Law 77 Score of a duplicate record."""
    computed = w.computed
    if computed is None:
        return
    b = w.board
    text = score_text(computed, settings)
    written = b.tag("Score")
    if written is None or written.strip() in MISSING:
        w.set_tag("Score", text)
        return
    given = score_tag(b)
    if given is None or given.artificial:
        return
    ns = given.points_for(Side.NS, w.declarer)
    ew = given.points_for(Side.EW, w.declarer)
    if (ns is not None and ns != computed) or (ew is not None and ew != -computed):
        w.disagree("score-mismatch", "Score", written, text, settings.replace)
        if settings.replace:
            w.set_tag("Score", text)


def _same_declarer(board: Board, declarer: Seat) -> bool:
    """The Declarer tag names ``declarer`` (or, as PBN ``^S``, the partner who played)."""
    if board.declarer is declarer:
        return True
    return board.declarer_swapped and board.declarer is declarer.partner
