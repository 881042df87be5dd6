"""Hand records of a 36-board event, as HTML and PDF, read back as text board by board."""

from __future__ import annotations

import html as html_lib
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

import bridgefiles as bf
from bridgefiles.analysis import analyze
from bridgefiles.analysis.handrecord import carried_par, carried_table, grid_rows, par_line
from bridgefiles.cli import main
from bridgefiles.model.board import Board
from bridgefiles.model.cards import SUITS_DESCENDING
from bridgefiles.model.seats import ROTATION
from bridgefiles.testing import synthetic

pytest.importorskip("endplay", reason="the solver is the extra 'dds' (pip install endplay)")
pytest.importorskip("jinja2", reason="hand records are the extra 'pdf'")

EVENT = "Club <script>alert(1)</script> & Co"
VUL = {"None": "None", "NS": "N-S", "EW": "E-W", "All": "Both"}
PER_PAGE = 6


def _weasyprint() -> None:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        pytest.skip(f"weasyprint cannot load (scripts/_deps_pdf.sh installs pango): {exc}")


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Board]]:
    """A generated 36-board event with its analysis written in (the tags hand records read)."""
    folder = tmp_path_factory.mktemp("event")
    raw = folder / "raw.pbn"
    raw.write_text("".join(synthetic.to_pbn(synthetic.generate(36, seed=13), event=EVENT)),
                   encoding="utf-8")
    analysed = analyze(bf.load(raw))
    path = folder / "event.pbn"
    bf.write(analysed, path, layout="preserve")
    return path, list(bf.load(path).boards)


def _expected(board: Board) -> list[str]:
    """What the record must say about a board: number, dealer, vulnerability, the hands
    suit by suit, the grid rows and the par line."""
    assert board.deal is not None and board.dealer is not None and board.vulnerable
    out = [f"Board {board.board_number}", f"Dealer: {board.dealer.full_name}",
           f"Vul: {VUL[board.vulnerable.value]}"]
    for seat in ROTATION:
        hand = board.deal.hand(seat)
        assert hand is not None
        for suit in SUITS_DESCENDING:
            ranks = " ".join("10" if c.rank.value == 10 else c.code[1] for c in hand.suit(suit))
            out.append(f"{suit.symbol} {ranks or '—'}")
    table, par = carried_table(board), carried_par(board)
    assert table is not None and par is not None
    out += [f"{seat} {' '.join(levels)}" for seat, levels in grid_rows(table)]
    out.append(par_line(par))
    return out


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _html_boards(text: str) -> dict[str, str]:
    """Each board's block of the page as plain text."""
    blocks = re.split(r'<div class="board" id="board-', text)[1:]
    out = {}
    for block in blocks:
        number = block.split('"', 1)[0]
        plain = html_lib.unescape(re.sub(r"<[^>]+>", " ", block))
        out[number] = re.sub(r"\s+", " ", plain)
    return out


def test_html_shows_every_board(event: tuple[Path, list[Board]], tmp_path: Path) -> None:
    path, boards = event
    out = tmp_path / "records.html"
    result = CliRunner().invoke(main, ["handrecord", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    blocks = _html_boards(text)
    assert list(blocks) == [str(n) for n in range(1, 37)]
    for board in boards:
        block = _compact(blocks[board.board_number or ""])
        for piece in _expected(board):
            assert _compact(piece) in block, (board.label, piece)
    # untrusted text is escaped; hearts and diamonds are red; the sheet prints on A4
    assert "Club &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in text
    assert "<script>" not in text
    assert '<span class="suit red">♥</span>' in text and '<span class="suit">♠</span>' in text
    assert "size: A4" in text
    assert text.count('<section class="sheet">') == 6


def test_board_range_and_per_page(event: tuple[Path, list[Board]], tmp_path: Path) -> None:
    path, _ = event
    out = tmp_path / "some.html"
    result = CliRunner().invoke(main, ["handrecord", str(path), "-o", str(out),
                                       "--boards", "1-18", "--per-page", "4"])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert list(_html_boards(text)) == [str(n) for n in range(1, 19)]
    assert text.count('<section class="sheet">') == 5
    bad = CliRunner().invoke(main, ["handrecord", str(path), "-o", str(out), "--boards", "x"])
    assert bad.exit_code == 2
    bad = CliRunner().invoke(main, ["handrecord", str(path), "-o", str(tmp_path / "x.txt")])
    assert bad.exit_code == 2 and ".pdf or .html" in bad.output
    piped = CliRunner().invoke(main, ["handrecord", str(path), "-o", "-", "--boards", "3"])
    assert piped.exit_code == 0 and list(_html_boards(piped.stdout)) == ["3"]


def test_fresh_analysis_when_the_file_carries_none(tmp_path: Path) -> None:
    raw = tmp_path / "raw.pbn"
    raw.write_text("".join(synthetic.to_pbn(synthetic.generate(2, seed=5))), encoding="utf-8")
    out = tmp_path / "raw.html"
    assert CliRunner().invoke(main, ["handrecord", str(raw), "-o", str(out)]).exit_code == 0
    solved = out.read_text(encoding="utf-8")
    assert solved.count('<table class="grid">') == 2 and solved.count("Par: ") == 2
    assert CliRunner().invoke(main, ["handrecord", str(raw), "-o", str(out),
                                     "--no-analysis"]).exit_code == 0
    bare = out.read_text(encoding="utf-8")
    assert '<table class="grid">' not in bare and "Par: " not in bare


@pytest.fixture(scope="module")
def pdf(event: tuple[Path, list[Board]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    _weasyprint()
    path, _ = event
    out = tmp_path_factory.mktemp("pdf") / "records.pdf"
    result = CliRunner().invoke(main, ["handrecord", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_pdf_shows_every_board_on_its_page(pdf: Path, event: tuple[Path, list[Board]]) -> None:
    from pypdf import PdfReader

    _, boards = event
    reader = PdfReader(pdf)
    assert len(reader.pages) == 36 // PER_PAGE
    pages = [_compact(page.extract_text()) for page in reader.pages]
    for board in boards:
        page = pages[(int(board.board_number or 0) - 1) // PER_PAGE]
        for piece in _expected(board):
            assert _compact(piece) in page, (board.label, piece)
    assert _compact(EVENT) in pages[0]
    width, height = (float(x) for x in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (595, 842)  # A4 in points


def test_pdf_on_letter_paper(event: tuple[Path, list[Board]], tmp_path: Path) -> None:
    _weasyprint()
    from pypdf import PdfReader

    path, _ = event
    out = tmp_path / "letter.pdf"
    result = CliRunner().invoke(main, ["handrecord", str(path), "-o", str(out), "--paper",
                                       "letter", "--boards", "1-6"])
    assert result.exit_code == 0, result.output
    reader = PdfReader(out)
    assert len(reader.pages) == 1
    width, height = (float(x) for x in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (612, 792)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")
def test_pdf_pages_render_as_images(pdf: Path, tmp_path: Path) -> None:
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf), str(tmp_path / "page")],
                   check=True)
    images = sorted(tmp_path.glob("page-*.png"))
    assert len(images) == 36 // PER_PAGE
    assert all(p.stat().st_size > 5_000 for p in images)
