"""Scoring keeps its records on disk (``scoring/store.py``; issue 15: memory bounded
whatever the number of boards).

A store whose cache holds one record sends every record to disk and back between
each unit of work: scoring through it must give exactly what scoring gives with the
records in memory, on every real file and fixture, so nothing is lost on the way. A
disk that fills up is the input's failure (BridgeFileError, nothing written), not ours.
"""

from __future__ import annotations

import gc
import io
import sqlite3
import tracemalloc
from pathlib import Path

import pytest
from shared import FIXTURES, REAL, needs_corpus

import bridgefiles as bf
from bridgefiles.model.file import BridgeFile
from bridgefiles.scoring import store
from bridgefiles.testing.synthetic import generate, to_pbn

SUFFIXES = (".pbn", ".lin")


def _files() -> list[Path]:
    found = sorted(p for p in FIXTURES.iterdir() if p.suffix in SUFFIXES)
    if REAL.is_dir():
        found += sorted(p for p in REAL.rglob("*") if p.suffix in SUFFIXES)
    return found


def _scored(data: BridgeFile, **settings: object) -> str:
    scored = bf.score(data, **settings)  # type: ignore[arg-type]
    findings = [(d.code, d.message, d.line, d.column, d.board)
                for b in scored.boards for d in b.diagnostics]
    return bf.dumps(scored, "pbn") + bf.dumps(scored, "json") + repr(findings)


@needs_corpus
@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_records_sent_to_disk_and_back_score_the_same(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = bf.load(path)
    many = 2 <= len(data.boards) <= 2_000  # the largest files once (CI time)
    methods: list[str | None] = [None, "MP", "IMP"] if many else [None]
    for method in methods:
        held = _scored(data, method=method)
        monkeypatch.setattr(store, "CACHE", 1)
        through_disk = _scored(data, method=method)
        monkeypatch.undo()
        assert through_disk == held, method


def _teams(boards: int) -> bytes:
    return "".join(to_pbn(generate(boards, seed=5, tables=2))).encode("utf-8")


@pytest.mark.parametrize("cache", [1, 2, 3, 7, 64])
def test_any_cache_size_scores_the_same(cache: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pairs and team events of generated boards, whatever part of them the cache holds
    (a deal larger than the cache, a match's rooms leaving between its two passes)."""
    for data in (bf.loads(_teams(24)),
                 bf.loads("".join(to_pbn(generate(12, seed=3, tables=5)))),
                 bf.load(FIXTURES / "scoring-teams.pbn")):
        for method in (None, "IMP", "BAM", "MP"):
            held = _scored(data, method=method)
            monkeypatch.setattr(store, "CACHE", cache)
            assert _scored(data, method=method) == held, (cache, method)
            monkeypatch.undo()


def test_a_store_reads_back_what_it_was_given() -> None:
    from bridgefiles.api import score_options
    from bridgefiles.scoring.fill import settings_of
    from bridgefiles.scoring.record import deal_facts

    settings = settings_of(score_options(None, "2017", False))
    boards = bf.load(FIXTURES / "scoring-pairs.pbn").boards
    with store.RecordStore(cache=1) as kept:
        for board in boards:
            kept.add(deal_facts(board, settings), deal=None, session=None)
        kept.by_index[0].set_tag("Score", "NS 9990")
        assert len(kept) == len(boards) == len(kept.by_index) == len(list(kept.by_index))
        assert kept.by_index[1].board.index == boards[1].index  # sends record 0 to disk
        back = list(kept.in_order())
        with pytest.raises(KeyError):
            kept.by_index[len(boards)]
    assert [w.board.index for w in back] == [b.index for b in boards]
    assert back[0].board.tag("Score") == "NS 9990" and back[0].steps == [("Score", "NS 9990")]


def _full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """A temporary database that can grow to a few pages only: SQLite's own 'database
    or disk is full', as when the temporary folder's disk fills up."""
    connect = store._connect

    def small() -> sqlite3.Connection:
        db = connect()
        db.execute("PRAGMA max_page_count = 8")
        return db

    monkeypatch.setattr(store, "_connect", small)
    monkeypatch.setattr(store, "CACHE", 1)


def test_a_full_disk_fails_the_scoring_not_as_our_bug(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = _teams(200)
    source, target = tmp_path / "in.pbn", tmp_path / "out.pbn"
    source.write_bytes(data)
    _full_disk(monkeypatch)
    with pytest.raises(bf.BridgeFileError, match=r"temporary file.*full") as caught:
        bf.score(bf.loads(data))
    assert not isinstance(caught.value, bf.InternalError)
    with pytest.raises(bf.BridgeFileError, match=r"temporary file.*full") as caught:
        bf.convert(source, target, score=True, on_diagnostic=lambda d: None)
    assert not isinstance(caught.value, bf.InternalError)
    assert not target.exists()


def _held_after_adding(boards: int) -> int:
    """Python memory a Scorer holds once ``boards`` generated boards (four tables a deal)
    are added, the boards themselves gone."""
    from bridgefiles.api import score_options
    from bridgefiles.scoring.fill import Scorer, settings_of

    text = "".join(to_pbn(generate(boards // 4, seed=11, tables=4)))
    settings = settings_of(score_options(None, "2017", False))
    with Scorer(settings) as scorer:
        tracemalloc.start()
        try:
            for board in bf.read(io.StringIO(text), format="pbn"):
                scorer.add(board)
            gc.collect()
            return tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()


def test_records_do_not_stay_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the cache, a record costs no memory: from 120 to 480 boards the memory held
    grows by less than 150 bytes a board (what grows: bounded caches of tag checks
    filling up); in memory, the records took about 4 KB a board."""
    monkeypatch.setattr(store, "CACHE", 32)
    _held_after_adding(480)  # imports and bounded caches filled
    grown = _held_after_adding(480) - _held_after_adding(120)
    assert grown < 150 * 360, f"{grown / 360:,.0f} bytes a board"
    monkeypatch.setattr(store, "CACHE", 4096)
    held = _held_after_adding(480) - _held_after_adding(120)
    assert held > 2_000 * 360  # the measure sees records when they are held


def test_the_score_command_on_a_full_disk_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from bridgefiles.cli import main

    source, target = tmp_path / "in.pbn", tmp_path / "out.pbn"
    source.write_bytes(_teams(200))
    _full_disk(monkeypatch)
    run = CliRunner().invoke(main, ["score", str(source), "-o", str(target), "-q"])
    assert run.exit_code == 1, run.output
    assert "database or disk is full" in run.output and "Traceback" not in run.output
    assert not target.exists()


@pytest.mark.parametrize("line", [10**30, -1, 0])
def test_any_tag_position_a_json_file_gives_is_kept(line: int, tmp_path: Path) -> None:
    """A JSON board's tags carry the line and column the file gives: any integer, which
    the record keeps as it is (a 64-bit array of them overflowed: fuzz --cli seed 23)."""
    import json

    data = json.loads(bf.dumps(bf.load(FIXTURES / "scoring-pairs.pbn"), "json"))
    for board in data["boards"]:
        board["tags"].append({"name": "Score", "value": "NS 9999", "line": line, "column": line})
    source = tmp_path / "in.json"
    source.write_text(json.dumps(data))
    scored = bf.score(bf.load(source))
    placed = [(d.line, d.column) for b in scored.boards for d in b.diagnostics
              if d.code == "score-mismatch"]
    assert len(placed) == len(data["boards"]) and set(placed) == {(line, line)}
    done = bf.convert(source, tmp_path / "out.json", score=True, check=False, on_diagnostic=None)
    assert [(d.line, d.column) for d in done.diagnostics if d.code == "score-mismatch"] == placed


def test_a_deal_with_more_results_than_the_limit_is_not_scored(tmp_path: Path) -> None:
    """A deal's results are held together while compared: over
    ``Limits.max_deal_results`` the deal is not scored (a ``limit`` finding on its first
    record), the other deals are, and a limit as high as the deal changes nothing."""
    from bridgefiles.limits import Limits

    text = "".join(to_pbn(generate(2, seed=9, tables=6)))  # two deals at six tables
    other = "".join(to_pbn(generate(1, seed=4, tables=3)))
    text += "\n" + other.replace("Synthetic Pairs", "Other Pairs")  # three, another event
    data = bf.loads(text)
    assert [b.tag("Event") for b in data.boards].count("Other Pairs") == 3

    from bridgefiles.scoring.fill import score_file

    held = score_file(data, method="MP", limits=Limits(max_deal_results=5))
    found = [(b.board_number, b.index, d.message) for b in held.boards for d in b.diagnostics
             if d.code == "limit"]
    assert [(n, i) for n, i, _ in found] == [("1", 0), ("2", 6)]
    assert "6 results, over the limit max_deal_results=5" in found[0][2]
    assert [b.tag("Event") for b in held.boards if b.tag("ScoreMP")] == ["Other Pairs"] * 3
    as_high = score_file(data, method="MP", limits=Limits(max_deal_results=6))
    assert bf.dumps(as_high, "json") == bf.dumps(bf.score(data, method="MP"), "json")
    source = tmp_path / "in.pbn"
    source.write_text(text)
    done = bf.convert(source, tmp_path / "out.pbn", score=True, method="MP", check=False,
                      limits=Limits(max_deal_results=5), on_diagnostic=None)
    assert [d.message for d in done.diagnostics if d.code == "limit"] == [m for *_, m in found]


def test_an_event_with_more_pairs_than_the_limit_gets_no_standings() -> None:
    """The standings add up a few numbers a pair: over ``Limits.max_event_pairs`` they are
    let go and not written (a ``limit`` finding on the event's last record); the deals
    are still scored, and a limit as high as the event changes nothing."""
    from bridgefiles.limits import Limits
    from bridgefiles.scoring.fill import score_file

    data = bf.loads("".join(to_pbn(generate(6, seed=11, tables=4))))
    full = bf.score(data)
    pairs = len(next(t for b in full.boards for t in b.tables
                     if t.name == "TotalScoreTable").records())
    cut = score_file(data, limits=Limits(max_event_pairs=pairs - 1))
    found = [(b.index, d.message) for b in cut.boards for d in b.diagnostics
             if d.code == "limit"]
    assert found == [(len(data.boards) - 1, f"this event has more than {pairs - 1:,} pairs, "
                      f"over the limit max_event_pairs={pairs - 1:,}: no standings are "
                      "written for it")]
    assert not any(t.name == "TotalScoreTable" for b in cut.boards for t in b.tables)
    assert [b.tag("ScoreMP") for b in cut.boards] == [b.tag("ScoreMP") for b in full.boards]
    same = score_file(data, limits=Limits(max_event_pairs=pairs))
    assert bf.dumps(same, "json") == bf.dumps(full, "json")


def test_a_team_event_with_more_teams_than_the_limit_gets_no_standings() -> None:
    from bridgefiles.limits import Limits
    from bridgefiles.scoring.fill import score_file

    games = []
    for match, (home, visit) in enumerate((("A", "B"), ("C", "D"))):
        for number in (1, 2):
            for room in ("Open", "Closed"):
                result = "9" if room == "Open" else str(8 + match)
                games.append(f'[Event "Teams"]\n[Board "{number}"]\n[Room "{room}"]\n'
                             f'[HomeTeam "{home}"]\n[VisitTeam "{visit}"]\n[Scoring "IMP"]\n'
                             f'[Dealer "N"]\n[Vulnerable "None"]\n[Declarer "S"]\n'
                             f'[Contract "3NT"]\n[Result "{result}"]\n')
    data = bf.loads("\n".join(games))
    full = bf.score(data)
    standings = [t for t in full.boards[-1].tables if t.name == "TotalScoreTable"]
    assert standings and len(standings[-1].records()) == 4  # four teams, two matches
    cut = score_file(data, limits=Limits(max_event_pairs=3))
    assert [d.message for b in cut.boards for d in b.diagnostics if d.code == "limit"] == [
        "this event has more than 3 teams, over the limit max_event_pairs=3: no standings "
        "are written for it"]
    assert [b.tag("ScoreIMP") for b in cut.boards] == [b.tag("ScoreIMP") for b in full.boards]
    same = score_file(data, limits=Limits(max_event_pairs=4))
    assert bf.dumps(same, "json") == bf.dumps(full, "json")


def test_records_with_large_tables_take_more_of_the_cache() -> None:
    """A record with a traveller of thousands of cells weighs as many records, so the
    cache holds memory, not a count of boards, within its bound."""
    from bridgefiles.api import score_options
    from bridgefiles.scoring.fill import settings_of
    from bridgefiles.scoring.record import deal_facts

    rows = "".join(f"{i % 9 + 1} {i % 9 + 1} 3NT N 9 - 1\n" for i in range(640))
    game = ('[Event "T"]\n[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Scoring "MP"]\n'
            '[ScoreTable "PairId_NS\\\\2R;PairId_EW\\\\2R;Contract\\\\4L;Declarer\\\\1R;'
            'Result\\\\2R;Score_NS\\\\6R;Multiplicity\\\\2R"]\n' + rows)
    boards = bf.loads("\n".join(game.format(n=n) for n in range(1, 4))).boards
    assert len(boards[0].tables[0].rows) == 640  # 4,480 cells: weighs 71 records
    settings = settings_of(score_options(None, "2017", False))
    with store.RecordStore(cache=100) as kept:
        for board in boards:
            kept.add(deal_facts(board, settings), deal=None, session=None)
        assert len(kept._cache) == 1  # two could not stay within 100
        assert [w.board.index for w in kept.in_order()] == [b.index for b in boards]
