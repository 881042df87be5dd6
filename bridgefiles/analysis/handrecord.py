"""Hand records: each board's hands, makeable contracts and par, as HTML and PDF.

The page is HTML from a jinja2 template (autoescaped: names and events come from the
files), and the PDF is that HTML laid out by weasyprint (extra ``pdf``). The grid and
par come from what a board carries (``DoubleDummyTricks`` or ``OptimumResultTable``,
``OptimumScore`` and ``ParContract``), else from a fresh analysis when the solver is
installed (extra ``dds``).

>>> event = Event()
>>> boards = records(["event.pbn"], event, (1, 18))          # doctest: +SKIP
>>> write_pdf(render(event, boards), "records.pdf")          # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from bridgefiles.analysis import solver
from bridgefiles.analysis.check import (
    RESULT_TABLE,
    analyse_boards,
    conditions,
    left_out,
    result_rows,
)
from bridgefiles.analysis.models import (
    TABLE_SEATS,
    TABLE_STRAINS,
    DDTable,
    Par,
    ParContract,
    parse_optimum_score,
)
from bridgefiles.api import read
from bridgefiles.errors import BridgeFileError
from bridgefiles.files.output import (
    check_target,
    replace_file,
    temporary_beside,
    transcode,
    write_text_file,
)
from bridgefiles.formats.registry import FileInfo
from bridgefiles.jobs.report import failure, finding_text
from bridgefiles.model.board import Board, EscapeLine
from bridgefiles.model.cards import SUITS_DESCENDING, Strain, Suit
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.seats import ROTATION, Seat, Side, Vulnerability
from bridgefiles.scoring.board import parse_board_number

MISSING = ("hand records need the extra 'pdf': pip install '.[pdf]' from the bridgefiles "
           "clone")
_VUL_TEXT = {Vulnerability.NONE: "None", Vulnerability.NS: "N-S", Vulnerability.EW: "E-W",
             Vulnerability.ALL: "Both"}
_STRAIN_TEXT = {Strain.NT: "NT", Strain.S: "♠", Strain.H: "♥", Strain.D: "♦", Strain.C: "♣"}
_RED = (Suit.H, Suit.D)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def available(pdf: bool) -> bool:
    """Whether jinja2 (and, for ``pdf``, weasyprint with its system libraries) loads."""
    try:
        import jinja2  # noqa: F401

        if pdf:
            import weasyprint  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


@dataclass
class SuitLine:
    symbol: str
    red: bool
    ranks: str  # "A K 10 4", or "—" for a void


@dataclass
class BoardRecord:
    """What one board of a hand record shows."""

    number: str
    dealer: str
    vulnerable: str
    hands: dict[str, list[SuitLine]]  # "N", "E", "S", "W"
    hcp: dict[str, int]
    grid: list[tuple[str, list[str]]] | None = None  # (seat, levels in NT S H D C)
    par: str | None = None


@dataclass
class Event:
    """What the page says of the event, and the counts of a run."""

    title: str = ""
    date: str = ""
    site: str = ""
    printed: int = 0  # records made
    unreadable: int = 0  # inputs that could not be read (said through on_finding)


def _suit_lines(board: Board, seat: Seat) -> list[SuitLine]:
    deal = board.deal
    hand = deal.hand(seat) if deal is not None else None
    lines = []
    for suit in SUITS_DESCENDING:
        cards = hand.suit(suit) if hand is not None else ()
        ranks = " ".join("10" if c.rank.value == 10 else c.code[1] for c in cards)
        lines.append(SuitLine(suit.symbol, suit in _RED, ranks or "—"))
    return lines


def carried_table(board: Board) -> DDTable | None:
    """The 20 counts the board carries, from DoubleDummyTricks or a full OptimumResultTable."""
    text = board.tag("DoubleDummyTricks")
    if text is not None:
        with contextlib.suppress(ValueError):  # unknown or bad counts: try the table
            return DDTable.from_hex(text)
    table = board.table(RESULT_TABLE)
    if table is None:
        return None
    found = {(seat, strain): tricks for seat, strain, tricks in result_rows(table.records())}
    try:
        return DDTable(tricks=tuple(found[(s, st)] for s in TABLE_SEATS for st in TABLE_STRAINS))
    except (KeyError, ValueError):  # a cell missing, or a count out of range
        return None


def carried_par(board: Board) -> Par | None:
    """The par a board carries: OptimumScore, with ParContract when it has one."""
    try:
        score = parse_optimum_score(board.tag("OptimumScore") or "")
        contracts = ParContract.parse(board.tag("ParContract") or "Pass")
    except ValueError:
        return None
    return Par(score=score, contracts=contracts)


def par_line(par: Par) -> str:
    """``Par: EW 3NT+1, EW +430``; ``Par: passed out, 0``."""
    if not par.contracts:
        return "Par: passed out, 0"
    side = par.side
    score = par.score if side is Side.NS else -par.score
    text = "; ".join(_contract_text(c) for c in par.contracts)
    return f"Par: {text}, {side.value} {score:+d}"


def _contract_text(c: ParContract) -> str:
    result = "=" if c.result == 0 else f"{c.result:+d}"
    return f"{c.declarer} {c.level}{_STRAIN_TEXT[c.strain]}{'X' if c.doubled else ''}{result}"


def grid_rows(table: DDTable) -> list[tuple[str, list[str]]]:
    """Makeable levels, rows N S E W, columns NT S H D C; ``–`` below one."""
    return [(s.value, [str(table.makeable(s, st) or "–") for st in TABLE_STRAINS])
            for s in TABLE_SEATS]


def _record(board: Board, table: DDTable | None, par: Par | None) -> BoardRecord:
    known = conditions(board)
    dealer, vul = (known[0].full_name, _VUL_TEXT[known[1]]) if known else ("?", "?")
    hands = {s.value: _suit_lines(board, s) for s in ROTATION}
    deal = board.deal
    hcp = {s.value: (h.hcp if deal is not None and (h := deal.hand(s)) is not None else 0)
           for s in ROTATION}
    return BoardRecord(number=board.board_number or str(board.index + 1), dealer=dealer,
                       vulnerable=vul, hands=hands, hcp=hcp,
                       grid=grid_rows(table) if table is not None else None,
                       par=par_line(par) if par is not None else None)


Ranges = Sequence[tuple[int, int]]  # --boards 1,3,5-7: ((1, 1), (3, 3), (5, 7))


def _ranges(wanted: Ranges | tuple[int, int] | None) -> list[tuple[int, int]] | None:
    """One range, or several, as a list."""
    if wanted is None:
        return None
    if len(wanted) == 2 and all(isinstance(x, int) for x in wanted):
        return [wanted]  # type: ignore[list-item]
    return list(wanted)  # type: ignore[arg-type]


def _in_range(board: Board, ranges: list[tuple[int, int]] | None) -> bool:
    if ranges is None:
        return True
    number = parse_board_number(board.board_number)
    return number is not None and any(low <= number <= high for low, high in ranges)


def _pretty_date(text: str) -> str:
    parts = text.split(".")
    if len(parts) == 3 and all(p.isdecimal() for p in parts) and 1 <= int(parts[1]) <= 12:
        return f"{int(parts[2])} {_MONTHS[int(parts[1]) - 1]} {parts[0]}"
    return "" if set(text) <= set("?.") else text


def title_directives(directives: Sequence[EscapeLine]) -> dict[str, str]:
    """BridgeComposer's hand-record titles (``%HRTitleEvent "Club Pairs"``,
    ``%HRTitleDate 2014.08.11``) by what they title: ``{"Event": ..., "Date": ...}``."""
    found: dict[str, str] = {}
    for escape in directives:
        name, _, value = escape.text.strip().partition(" ")
        if name.startswith("HRTitle") and len(name) > 7:
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            found.setdefault(name[7:], value.strip())
    return found


def _title(board: Board, titles: dict[str, str], name: str) -> str:
    """The game's tag, else the file's hand-record title ("0": none)."""
    value = (board.tag(name) or "").strip()
    if not value or set(value) <= set("?"):
        value = titles.get(name, "")
    return "" if value in ("0", "?") else value


class _Pending:
    """Records in board order; the boards waiting for the solver held a batch at a
    time (only they, and the records queued behind them)."""

    def __init__(self, solve: bool) -> None:
        self.solve = solve and solver.available()
        self.queue: list[BoardRecord | tuple[Board, DDTable | None, Par | None]] = []
        self.waiting = 0

    def add(self, board: Board, table: DDTable | None, par: Par | None) -> Iterator[BoardRecord]:
        if (table is not None and par is not None) or not self.solve:
            if not self.queue:
                yield _record(board, table, par)
                return
            self.queue.append(_record(board, table, par))
        else:
            self.queue.append((board, table, par))
            self.waiting += 1
        if self.waiting >= solver.BATCH or len(self.queue) >= 4 * solver.BATCH:
            yield from self.flush()

    def flush(self) -> Iterator[BoardRecord]:
        boards = [x for x in self.queue if not isinstance(x, BoardRecord)]
        analyses = iter(analyse_boards([b for b, _, _ in boards]))
        queue, self.queue, self.waiting = self.queue, [], 0
        for item in queue:
            if isinstance(item, BoardRecord):
                yield item
                continue
            board, table, par = item
            analysis = next(analyses)
            if analysis is not None:
                table, par = table or analysis.table, par or analysis.par
            yield _record(board, table, par)


def records(paths: Sequence[str], event: Event, wanted: Ranges | tuple[int, int] | None = None,
            solve: bool = True, on_finding: Callable[[str], None] | None = None
            ) -> Iterator[BoardRecord]:
    """The records of the boards to print, in order, each deal once (a file with several
    tables per board repeats it), with its grid and par: carried, else solved when possible.

    Files are read as streams and the records handed on as they are made (a page holds
    a few): only the boards waiting for the solver are held, a batch at a time.
    ``event`` takes its title, date and site from the first board printed, and counts the
    records and the inputs that could not be read. The reading's errors and warnings go
    to ``on_finding`` as text lines naming their board, and so does each board left out
    because its deal is not four sound hands, saying why (never printed as if it were)."""
    say = on_finding or (lambda _line: None)
    ranges = _ranges(wanted)
    pending = _Pending(solve)
    seen: set[tuple[str | None, str]] = set()
    first = True
    for path in paths:
        info = FileInfo()
        shown = "<stdin>" if path == "-" else path
        try:
            for board in read(path, info=info):
                if not _in_range(board, ranges):
                    continue
                for d in board.diagnostics:
                    if d.severity is not Severity.INFO:
                        say(finding_text(d, shown, board.label))
                why = left_out(board, "not printed")
                if why is not None:
                    if board.deal is not None:
                        say(finding_text(why, shown, board.label))
                    continue
                assert board.deal is not None
                key = (board.board_number, board.deal.pbn(Seat.N))
                if key in seen:
                    continue
                seen.add(key)
                if first:
                    first = False
                    titles = title_directives(info.directives)
                    event.title = _title(board, titles, "Event")
                    event.date = _pretty_date(_title(board, titles, "Date"))
                    event.site = _title(board, titles, "Site")
                for record in pending.add(board, carried_table(board), carried_par(board)):
                    event.printed += 1
                    yield record
        except BridgeFileError as exc:
            say(finding_text(failure(shown, exc), shown))
            event.unreadable += 1
        for d in info.diagnostics:
            if d.severity is not Severity.INFO:
                say(finding_text(d, shown))
    for record in pending.flush():
        event.printed += 1
        yield record


def _pages(boards: Iterable[BoardRecord], per_page: int) -> Iterator[list[BoardRecord]]:
    page: list[BoardRecord] = []
    for record in boards:
        page.append(record)
        if len(page) == per_page:
            yield page
            page = []
    if page:
        yield page


def render(event: Event, boards: Iterable[BoardRecord], per_page: int = 6,
           paper: str = "a4") -> Iterator[str]:
    """The hand record as one HTML page (print CSS: ``per_page`` boards to a sheet), in
    pieces as its pages fill: the event's title is read when the page starts, so the
    first record should have been made by then."""
    try:
        import jinja2
    except ImportError as exc:
        raise BridgeFileError(MISSING) from exc
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bridgefiles.analysis", "templates"),
        autoescape=True, trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    rows = (per_page + 1) // 2 if per_page > 1 else 1
    return env.get_template("handrecord.html.j2").generate(
        event=event, pages=_pages(boards, per_page), columns=2 if per_page > 1 else 1,
        rows=rows, paper="A4" if paper == "a4" else "letter",
        strains=[_STRAIN_TEXT[s] for s in TABLE_STRAINS],
        red_strains={_STRAIN_TEXT[Strain.H], _STRAIN_TEXT[Strain.D]})


def render_html(event: Event, boards: Iterable[BoardRecord], per_page: int = 6,
                paper: str = "a4") -> str:
    """:func:`render` whole, as one string (a small event)."""
    return "".join(render(event, boards, per_page, paper))


def write_pdf(html: Iterable[str], target: str, *, through: bool = False) -> None:
    """Lay the HTML out as PDF into ``target`` as every output is written
    (``bridgefiles.files.output``: a temporary file beside it with the usual mode, then a
    rename; a symbolic link, FIFO or device only with ``through``). The HTML goes to a
    scratch file first, so only weasyprint's own layout is held, not the page's text."""
    try:
        import weasyprint
    except (ImportError, OSError) as exc:
        raise BridgeFileError(MISSING) from exc
    check_target(target, through=through)
    fd, page = tempfile.mkstemp(prefix="bridgefiles-", suffix=".html")
    os.close(fd)
    tmp: str | None = None
    try:
        transcode(html, page, "utf-8", where=target)
        tmp = temporary_beside(target)
        weasyprint.HTML(filename=page, encoding="utf-8").write_pdf(tmp)
    except OSError as exc:
        raise BridgeFileError(f"{target}: cannot write: {exc.strerror or exc}") from exc
    except BaseException:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    finally:
        with contextlib.suppress(OSError):
            os.unlink(page)
    replace_file(tmp, target, through=through)


def write_html(html: Iterable[str], target: str, *, through: bool = False) -> None:
    """The page into ``target`` (UTF-8), atomically, as :func:`write_pdf` writes."""
    write_text_file(html, target, "utf-8", through=through)
