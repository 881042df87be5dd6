"""Hand records: each board's hands, makeable contracts and par, as HTML and PDF.

The page is HTML from a jinja2 template (autoescaped: names and events come from the
files), and the PDF is that HTML laid out by weasyprint (extra ``pdf``). The grid and
par come from what a board carries (``DoubleDummyTricks`` or ``OptimumResultTable``,
``OptimumScore`` and ``ParContract``), else from a fresh analysis when the solver is
installed (extra ``dds``).

>>> event = collect(["event.pbn"], (1, 18))                  # doctest: +SKIP
>>> html = render_html(event, per_page=6, paper="a4")        # doctest: +SKIP
>>> write_pdf(html, "records.pdf")                           # doctest: +SKIP
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bridgefiles.analysis import solver
from bridgefiles.analysis.check import RESULT_TABLE, analyse_boards, conditions, solvable_deal
from bridgefiles.analysis.models import (
    TABLE_SEATS,
    TABLE_STRAINS,
    DDTable,
    Par,
    ParContract,
    parse_hex,
    parse_optimum_score,
)
from bridgefiles.api import load
from bridgefiles.errors import BridgeFileError
from bridgefiles.model.board import Board
from bridgefiles.model.cards import SUITS_DESCENDING, Strain, Suit
from bridgefiles.model.seats import ROTATION, Seat, Side, Vulnerability
from bridgefiles.scoring.board import parse_board_number

MISSING = "hand records need the extra 'pdf': pip install 'bridgefiles[pdf]'"
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
    title: str
    date: str
    site: str
    boards: list[BoardRecord] = field(default_factory=list)


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
        try:
            counts = parse_hex(text)
            if all(n is not None for n in counts):
                return DDTable(tricks=tuple(n for n in counts if n is not None))
        except ValueError:
            pass
    table = board.table(RESULT_TABLE)
    if table is None:
        return None
    found: dict[tuple[str, str], int] = {}
    for r in table.records():
        try:
            seat = Seat.parse(r.get("Declarer", ""))
            strain = Strain.parse(r.get("Denomination", ""))
            found[(seat.value, strain.value)] = int(r.get("Result", ""))
        except ValueError:
            continue
    try:
        return DDTable(tricks=tuple(found[(s.value, st.value)]
                                    for s in TABLE_SEATS for st in TABLE_STRAINS))
    except (KeyError, ValueError):
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


def _in_range(board: Board, wanted: tuple[int, int] | None) -> bool:
    if wanted is None:
        return True
    number = parse_board_number(board.board_number)
    return number is not None and wanted[0] <= number <= wanted[1]


def _pretty_date(text: str) -> str:
    parts = text.split(".")
    if len(parts) == 3 and all(p.isdecimal() for p in parts) and 1 <= int(parts[1]) <= 12:
        return f"{int(parts[2])} {_MONTHS[int(parts[1]) - 1]} {parts[0]}"
    return "" if set(text) <= set("?.") else text


def collect(paths: Sequence[str], wanted: tuple[int, int] | None = None,
            solve: bool = True) -> Event:
    """The boards of the files to print, each deal once (a file with several tables per
    board repeats it), with its grid and par: carried, else solved when possible."""
    boards: list[Board] = []
    seen: set[tuple[str | None, str]] = set()
    for path in paths:
        for board in load(path).boards:
            deal = board.deal
            key = (board.board_number, deal.pbn(Seat.N) if deal is not None else str(board.index))
            if key in seen or not _in_range(board, wanted) or deal is None:
                continue
            seen.add(key)
            boards.append(board)
    tables = [carried_table(b) for b in boards]
    pars = [carried_par(b) for b in boards]
    todo = [i for i, b in enumerate(boards)
            if (tables[i] is None or pars[i] is None) and solvable_deal(b) is not None]
    if todo and solve and solver.available():
        for i, analysis in zip(todo, analyse_boards([boards[i] for i in todo]), strict=True):
            if analysis is not None:
                tables[i] = tables[i] or analysis.table
                pars[i] = pars[i] or analysis.par
    first = boards[0] if boards else None
    event = Event(title=(first.tag("Event") or "").strip() if first else "",
                  date=_pretty_date((first.tag("Date") or "").strip()) if first else "",
                  site=(first.tag("Site") or "").strip() if first else "")
    event.boards = [_record(b, t, p) for b, t, p in zip(boards, tables, pars, strict=True)]
    return event


def render_html(event: Event, per_page: int = 6, paper: str = "a4") -> str:
    """The hand record as one HTML page (print CSS: ``per_page`` boards to a sheet)."""
    try:
        import jinja2
    except ImportError as exc:
        raise BridgeFileError(MISSING) from exc
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bridgefiles.analysis", "templates"),
        autoescape=True, trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    pages = [event.boards[i : i + per_page] for i in range(0, len(event.boards), per_page)]
    rows = (per_page + 1) // 2 if per_page > 1 else 1
    return env.get_template("handrecord.html.j2").render(
        event=event, pages=pages, columns=2 if per_page > 1 else 1, rows=rows,
        paper="A4" if paper == "a4" else "letter", strains=[_STRAIN_TEXT[s] for s in TABLE_STRAINS],
        red_strains={_STRAIN_TEXT[Strain.H], _STRAIN_TEXT[Strain.D]})


def write_pdf(html: str, target: str) -> None:
    """Lay the HTML out as PDF into ``target`` (atomically: a temporary file, a rename)."""
    try:
        import weasyprint
    except (ImportError, OSError) as exc:
        raise BridgeFileError(MISSING) from exc
    folder = Path(target).resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=".handrecord.", suffix=".pdf", dir=folder)
    os.close(fd)
    try:
        weasyprint.HTML(string=html).write_pdf(tmp)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
